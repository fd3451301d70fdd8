"""The wider-stack matrices (deepspeed.yaml, torch.yaml, huggingface.yaml, vllm.yaml).

Three layers: every rule in those files runs its own examples; a table of environments people
actually install (vLLM's real package sets, TRL stacks, transformers 5.1.0 with DeepSpeed, old
cluster images) gives the stated status for each wider-stack rule and nothing else from them; and
the DeepSpeed op-builder whitelist is checked over a grid of nvcc x torch CUDA x DeepSpeed against a
model of op_builder/builder.py written here from the upstream code history, not from the rules.
Log lines quoted from upstream code and issues must reach the right rule through its symptoms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from compat.engine import evaluate_rule
from compat.kb.examples import check_example, facts_from_example
from compat.kb.knowledge import load_knowledge_base
from compat.model import Origin, Rule

KB = load_knowledge_base(use_cache=False)

MINE = (
    "deepspeed.yaml",
    "torch.yaml",
    "huggingface.yaml",
    "vllm.yaml",
    # generated from published data by scripts/gen_rules.py (tests/unit/kb/test_generated.py)
    "generated-vllm.yaml",
    "generated-torch-pairs.yaml",
    "generated-trl-vllm.yaml",
    "generated-numba.yaml",
    "generated-transformers.yaml",
    "generated-accelerate.yaml",
)
# stack.yaml holds the other wider-stack rules (torchvision pairs, transformers 5.1.0 + ZeRO, ...):
# the realistic environments below say what they expect from those too.
SCOPE = (*MINE, "stack.yaml")


def _rules_from(files: tuple[str, ...]) -> list[Rule]:
    return [r for r in KB.rules() if r.origin is not None and Path(r.origin.path).name in files]


MY_RULES = _rules_from(MINE)
SCOPE_IDS = tuple(r.id for r in _rules_from(SCOPE))

# DeepSpeed
DS129 = "deepspeed-nvcc-12.9-torch-cuda-mismatch"
DS128 = "deepspeed-nvcc-12.8-torch-cuda-mismatch"
DS126 = "deepspeed-nvcc-12.6-torch-cuda-mismatch"
DS124 = "deepspeed-nvcc-12.4-torch-cuda-mismatch"
DS_MAJOR = "deepspeed-nvcc-torch-cuda-major-mismatch"
DS_CU13 = "deepspeed-cuda13-minor-mismatch"
DS_FLOOR = "transformers-deepspeed-below-0.9.3"
DS_RULES = (DS129, DS128, DS126, DS124, DS_MAJOR, DS_CU13)
# torch
TORCHAUDIO = "torchaudio-torch-pair-mismatch"
PANDAS = "pandas-before-2.2.2-with-numpy2"
NUMBA_0612 = "numba-0.61.2-numpy-2.3"
NUMBA_062 = "numba-0.62-numpy-2.4"
# huggingface
TF_TORCH4 = "transformers-4.52-disables-torch-below-2.1"
TF_TORCH5 = "transformers-5-disables-old-torch"
TF_LOAD = "transformers-torch-load-needs-torch-2.6"
TF_ACCEL = "transformers-trainer-needs-accelerate"
PEFT_CACHE = "peft-0.14-needs-transformers-4.43"
PEFT_FLOOR = "transformers-5-peft-floor"
PEFT_INT8 = "peft-before-0.14-int8-merge-bitsandbytes-0.45"
TRL_019 = "trl-0.19-below-transformers-4.51-or-accelerate-1.4"
TRL_029 = "trl-0.29-plus-below-transformers-4.56.2"
# vllm
VLLM_TORCH = "vllm-torch-pin-mismatch"
VLLM_PY = "vllm-python-outside-requires-python"
VLLM_TF5 = "vllm-before-0.19.1-with-transformers-5"
TRL_VLLM = "trl-vllm-outside-supported-window"
# stack.yaml (not written here; expected from the same research table)
TORCHVISION = "torchvision-torch-pair-mismatch"
NUMPY2 = "numpy2-with-torch-before-2.3"
DS_RESUME = "deepspeed-pre-0.16-resume-on-torch-2.6"
TF510 = "transformers-5.1.0-deepspeed-zero"
PEFT015 = "peft-0.15.0-zero3-modules-to-save"
ACCEL_FSDP2 = "accelerate-fsdp2-needs-torch-2.6"
XFORMERS = "xformers-torch-pin-mismatch"
ACCEL_OLD_FSDP2 = "accelerate-before-1.6-ignores-fsdp-version-2"
NUMBA_063 = "numba-0.63-numpy-2.4"

Expected = Mapping[str, str]  # rule id -> "affected" | "possible"; every other rule in scope clear


def statuses(env: Mapping[str, Any], rule_ids: tuple[str, ...] = SCOPE_IDS) -> dict[str, str]:
    """Status of each rule in `rule_ids` for one environment; clear rules are left out."""
    facts = facts_from_example(env, Origin("test_matrix_stack"))
    found: dict[str, str] = {}
    for rule_id in rule_ids:
        rule = KB.get(rule_id)
        assert rule is not None, rule_id
        finding = evaluate_rule(rule, facts)
        if finding is not None:
            found[rule_id] = finding.status.value
    return found


# ---------------------------------------------------------------------------------------------
# The rules' own examples, and what every rule must carry


def _example_cases() -> Iterator[Any]:
    for rule in MY_RULES:
        for index, example in enumerate(rule.examples):
            yield pytest.param(rule, index, id=f"{rule.id}-{example.expect}-{index}")


@pytest.mark.parametrize(("rule", "index"), list(_example_cases()))
def test_every_example_behaves(rule: Rule, index: int) -> None:
    assert check_example(rule, index) is None


def test_all_files_are_shipped() -> None:
    files = {Path(r.origin.path).name for r in MY_RULES if r.origin is not None}
    assert files == set(MINE)
    named = {
        DS129, DS128, DS126, DS124, DS_MAJOR, DS_CU13, DS_FLOOR, TORCHAUDIO, PANDAS, NUMBA_0612,
        NUMBA_062, TF_TORCH4, TF_TORCH5, TF_LOAD, TF_ACCEL, PEFT_CACHE, PEFT_FLOOR, PEFT_INT8,
        TRL_019, TRL_029, VLLM_TORCH, VLLM_PY, VLLM_TF5, TRL_VLLM,
    }  # fmt: skip
    assert named <= {r.id for r in MY_RULES}


@pytest.mark.parametrize("rule", MY_RULES, ids=lambda r: r.id)
def test_every_rule_is_sourced_and_has_both_kinds_of_example(rule: Rule) -> None:
    assert {"affected", "clear"} <= {example.expect for example in rule.examples}
    assert rule.references and all(ref.startswith("https://") for ref in rule.references)
    assert rule.fix.constraints or rule.fix.change, "a pin or a change must take the stack out"
    assert rule.description.strip(), "say what happens and why"


# ---------------------------------------------------------------------------------------------
# Realistic environments

VLLM_072 = {  # pip install vllm==0.7.2 (Feb 2025): its Requires-Dist pins, resolved
    "vllm": "0.7.2", "torch": "2.5.1", "torchvision": "0.20.1", "torchaudio": "2.5.1",
    "xformers": "0.0.28.post3", "transformers": "4.48.2", "numpy": "1.26.4", "accelerate": "1.3.0",
}  # fmt: skip
VLLM_0110 = {  # pip install vllm==0.11.0 on Python 3.12
    "vllm": "0.11.0", "torch": "2.8.0", "torchvision": "0.23.0", "torchaudio": "2.8.0",
    "transformers": "4.57.1", "numba": "0.61.2", "numpy": "2.2.6", "accelerate": "1.10.1",
}  # fmt: skip
TRL_019_STACK = {  # trl==0.19.1 with the transformers it was released against
    "trl": "0.19.1", "transformers": "4.51.3", "accelerate": "1.7.0", "torch": "2.6.0+cu124",
    "deepspeed": "0.16.9", "peft": "0.15.2", "datasets": "3.6.0", "numpy": "2.2.6",
}  # fmt: skip
GRPO_ZERO3 = {"trainer": "grpo", "use_vllm": True, "distributed": "deepspeed", "zero_stage": 3,
              "offload_optimizer": "none", "gradient_clipping": 1.0}  # fmt: skip


def env(packages: Mapping[str, str], **sections: Any) -> dict[str, Any]:
    return {"packages": dict(packages), **sections}


REALISTIC: list[Any] = [
    pytest.param(
        env(VLLM_072, python="3.11"),
        {},  # accelerate 1.3.0 has no FSDP2, and no config says FSDP: nothing to ask
        id="vllm-0.7.2-as-resolved",
    ),
    pytest.param(
        env(VLLM_072, python="3.11", usage={"distributed": "fsdp"}),
        # FSDP is in use: which version is now worth asking; accelerate 1.3.0 predates FSDP2, so
        # an FSDP2 config would silently run FSDP1 (the FSDP2 torch floor does not apply)
        {ACCEL_OLD_FSDP2: "possible"},
        id="vllm-0.7.2-under-fsdp-version-unknown",
    ),
    pytest.param(
        env({**VLLM_072, "torch": "2.6.0"}, python="3.11"),
        {
            VLLM_TORCH: "affected",
            TORCHVISION: "affected",
            TORCHAUDIO: "affected",
            XFORMERS: "affected",
        },
        id="vllm-0.7.2-after-pip-install-U-torch",
    ),
    pytest.param(
        env(
            {
                **VLLM_072,
                "torch": "2.5.1+cu121",
                "torchvision": "0.20.1+cu121",
                "torchaudio": "2.5.1+cu121",
            },
            python="3.11.9",
            usage={"distributed": "fsdp", "fsdp_version": 1},
        ),
        {},
        id="vllm-0.7.2-torch-from-the-cu121-index",
    ),
    pytest.param(env(VLLM_0110, python="3.12.7"), {}, id="vllm-0.11.0-as-resolved"),
    pytest.param(
        env({**VLLM_0110, "transformers": "5.0.0"}, python="3.12.7"),
        {VLLM_TF5: "affected"},
        id="vllm-0.11.0-fresh-resolve-pulls-transformers-5",
    ),
    pytest.param(
        env({**VLLM_0110, "numpy": "2.3.1"}, python="3.12.7"),
        {NUMBA_0612: "affected"},
        id="vllm-0.11.0-numpy-upgraded-afterwards",
    ),
    pytest.param(
        env(VLLM_0110, python="3.14.0"),
        {VLLM_PY: "affected"},
        id="vllm-0.11.0-on-python-3.14",
    ),
    pytest.param(
        env(VLLM_0110), {VLLM_PY: "possible"}, id="vllm-0.11.0-read-with-path-python-unknown"
    ),
    pytest.param(
        env({"vllm": "0.10.1", "torch": "2.7.1"}),
        {VLLM_PY: "possible"},
        id="vllm-0.10.1-read-with-path-python-unknown",
    ),
    pytest.param(
        env(
            {**VLLM_0110, "trl": "0.24.0"},
            python="3.12.7",
            usage={"trainer": "grpo", "use_vllm": True},
        ),
        {TRL_VLLM: "affected"},
        id="trl-0.24.0-wants-vllm-0.10.2-exactly",
    ),
    pytest.param(
        env(
            {**VLLM_0110, "trl": "0.26.2"},
            python="3.12.7",
            usage={"trainer": "grpo", "use_vllm": True},
        ),
        {},
        id="trl-0.26.2-grpo-with-vllm-0.11.0",
    ),
    pytest.param(
        env({**VLLM_0110, "trl": "0.26.2"}, python="3.12.7"),
        {},
        id="trl-0.26.2-vllm-in-window-usage-unknown",
    ),
    pytest.param(
        env(TRL_019_STACK, usage=GRPO_ZERO3 | {"use_vllm": False}),
        {},
        id="trl-0.19-transformers-4.51-zero3",
    ),
    pytest.param(
        env({**TRL_019_STACK, "transformers": "4.50.3"}),
        {TRL_019: "affected"},
        id="trl-0.19-installed-no-deps-over-transformers-4.50",
    ),
    pytest.param(
        env({**TRL_019_STACK, "transformers": "4.52.4", "torch": "2.5.1"}),
        {TF_LOAD: "affected"},
        id="trl-0.19-transformers-4.52-on-torch-2.5",
    ),
    pytest.param(
        env({**TRL_019_STACK, "peft": "0.15.0"}, usage={"zero_stage": 3, "peft": True}),
        {PEFT015: "affected"},
        id="trl-0.19-lora-zero3-peft-0.15.0",
    ),
    pytest.param(
        env({**TRL_019_STACK, "deepspeed": "0.15.4"}),
        {DS_RESUME: "affected"},
        id="trl-0.19-deepspeed-0.15-resume-on-torch-2.6",
    ),
    pytest.param(
        env(
            {
                "transformers": "5.1.0",
                "deepspeed": "0.18.4",
                "torch": "2.8.0+cu128",
                "accelerate": "1.12.0",
                "trl": "1.0.0",
            },
            build={"nvcc": "12.9"},
            usage={"distributed": "deepspeed", "zero_stage": 3},
        ),
        {TF510: "affected"},
        id="transformers-5.1.0-deepspeed-0.18-zero3",
    ),
    pytest.param(
        env(
            {
                "transformers": "5.1.0",
                "deepspeed": "0.17.1",
                "torch": "2.8.0+cu128",
                "accelerate": "1.12.0",
            },
            build={"nvcc": "12.9"},
        ),
        {TF510: "possible", DS129: "affected"},
        id="transformers-5.1.0-deepspeed-0.17.1-cuda-12.9-toolkit-no-config",
    ),
    pytest.param(
        env(
            {
                "transformers": "5.2.0",
                "deepspeed": "0.17.1",
                "torch": "2.8.0+cu128",
                "accelerate": "1.12.0",
            },
            build={"nvcc": "12.8"},
            usage={"zero_stage": 2},
        ),
        {},
        id="transformers-5.2.0-deepspeed-0.17.1-matching-toolkit",
    ),
    pytest.param(
        env(
            {
                "deepspeed": "0.18.4",
                "torch": "2.11.0",
                "transformers": "5.23.0",
                "accelerate": "1.12.0",
            },
            build={"torch_cuda": "13.0", "nvcc": "12.8"},
        ),
        {DS_MAJOR: "affected"},
        id="torch-2.11-pypi-cu130-beside-a-cuda-12.8-toolkit",
    ),
    pytest.param(
        env({"deepspeed": "0.18.4", "torch": "2.11.0+cu130"}, build={"nvcc": "13.1"}),
        {DS_CU13: "affected"},
        id="torch-cu130-beside-a-cuda-13.1-toolkit",
    ),
    pytest.param(
        env(
            {"torch": "2.0.1+cu118", "transformers": "4.52.0", "numpy": "2.0.1", "pandas": "2.2.1"}
        ),
        {TF_TORCH4: "affected", TF_LOAD: "affected", NUMPY2: "affected", PANDAS: "affected"},
        id="torch-2.0-cluster-image-after-pip-install-U-transformers-numpy",
    ),
    pytest.param(
        env(
            {"torch": "2.0.1+cu118", "transformers": "4.51.3", "numpy": "1.26.4", "pandas": "2.2.1"}
        ),
        {},
        id="torch-2.0-cluster-image-with-transformers-4.51",
    ),
    pytest.param(
        env(
            {"torch": "2.5.1", "transformers": "5.23.0", "peft": "0.19.0", "accelerate": "1.10.1"},
            usage={"peft": True, "distributed": "deepspeed"},
        ),
        {
            TF_TORCH5: "affected",
            TF_LOAD: "affected",
            PEFT_FLOOR: "affected",
        },  # distributed=deepspeed settles fsdp_version: no FSDP2 question
        id="transformers-5.23-on-torch-2.5-with-peft-0.19",
    ),
    pytest.param(
        env(
            {"torch": "2.7.1", "transformers": "5.23.0", "peft": "0.20.0", "accelerate": "1.10.1"},
            usage={"peft": True},
        ),
        {},
        id="transformers-5.23-on-torch-2.7-with-peft-0.20",
    ),
    pytest.param(
        env(
            {"torch": "2.3.1", "transformers": "4.42.4", "peft": "0.14.0", "bitsandbytes": "0.45.0"}
        ),
        {PEFT_CACHE: "affected"},
        id="peft-0.14-upgraded-under-transformers-4.42",
    ),
    pytest.param(
        env(
            {"torch": "2.3.1", "transformers": "4.42.4", "peft": "0.13.2", "bitsandbytes": "0.45.0"}
        ),
        {},  # nothing says the model is loaded in 8 bits: silent
        id="peft-0.13-with-bitsandbytes-0.45-usage-unknown",
    ),
    pytest.param(
        env(
            {
                "torch": "2.3.1",
                "transformers": "4.42.4",
                "peft": "0.13.2",
                "bitsandbytes": "0.45.0",
            },
            usage={"load_in_8bit": True},
        ),
        {PEFT_INT8: "possible"},
        id="peft-0.13-with-bitsandbytes-0.45-loading-8-bit",
    ),
    pytest.param(
        env({"torch": "2.6.0", "transformers": "4.51.3", "accelerate": "0.25.0"}),
        {TF_ACCEL: "affected"},
        id="transformers-4.51-with-an-accelerate-0.25-pin",
    ),
    pytest.param(
        env(
            {"deepspeed": "0.8.3", "transformers": "4.56.2", "torch": "2.1.2"},
            usage={"distributed": "deepspeed", "zero_stage": 2},
        ),
        {DS_FLOOR: "affected", TF_LOAD: "affected"},
        id="deepspeed-0.8-pinned-under-transformers-4.56",
    ),
    pytest.param(
        env({"numba": "0.62.1", "numpy": "2.4.0", "torch": "2.9.0"}),
        {NUMBA_062: "affected"},
        id="numba-0.62-numpy-2.4",
    ),
]


@pytest.mark.parametrize(("environment", "expected"), REALISTIC)
def test_realistic_environments(environment: Mapping[str, Any], expected: Expected) -> None:
    assert statuses(environment) == expected


# ---------------------------------------------------------------------------------------------
# DeepSpeed's op-builder check, modelled from op_builder/builder.py's history

# The first release whose cuda_minor_mismatch_ok lists each CUDA 12 minor (tags v0.9.3, v0.12.1,
# v0.14.3, v0.15.3, v0.16.4, v0.17.2). No release lists any CUDA 13 minor; majors never mix.
WHITELISTED_SINCE = {
    "12.0": "0.9.3", "12.1": "0.9.3", "12.2": "0.12.1", "12.3": "0.12.1", "12.4": "0.14.3",
    "12.5": "0.14.3", "12.6": "0.15.3", "12.8": "0.16.4", "12.9": "0.17.2",
}  # fmt: skip
RUNG = {"12.4": DS124, "12.5": DS124, "12.6": DS126, "12.8": DS128, "12.9": DS129}
TORCH_BUILDS = {"cu121": "2.4.1+cu121", "cu124": "2.5.1+cu124", "cu126": "2.7.1+cu126",
                "cu128": "2.8.0+cu128", "cu129": "2.8.0+cu129", "cu130": "2.11.0+cu130"}  # fmt: skip
NVCCS = ["12.1", "12.4", "12.5", "12.6", "12.8", "12.9", "13.0", "13.1"]
DEEPSPEED_RELEASES = ["0.14.2", "0.14.3", "0.15.2", "0.15.3", "0.16.3", "0.16.4", "0.17.1", "0.17.2",
                      "0.18.4", "0.16.3+unknown"]  # fmt: skip


def _op_builder_refuses(deepspeed: str, nvcc: str, torch_cuda: str) -> str | None:
    """The rule that should fire when assert_no_cuda_mismatch raises, or None when it passes."""
    if nvcc == torch_cuda:
        return None
    if nvcc.split(".")[0] != torch_cuda.split(".")[0]:
        return DS_MAJOR
    if nvcc.startswith("13."):
        return DS_CU13
    newer = max(nvcc, torch_cuda, key=Version)
    since = max(Version(WHITELISTED_SINCE[nvcc]), Version(WHITELISTED_SINCE[torch_cuda]))
    return RUNG[newer] if Version(deepspeed) < since else None


@pytest.mark.parametrize(
    ("deepspeed", "nvcc", "build"), list(product(DEEPSPEED_RELEASES, NVCCS, TORCH_BUILDS))
)
def test_deepspeed_op_builder_grid(deepspeed: str, nvcc: str, build: str) -> None:
    torch = TORCH_BUILDS[build]
    torch_cuda = f"{build[2:4]}.{build[4:]}"
    expected_rule = _op_builder_refuses(deepspeed, nvcc, torch_cuda)
    found = statuses(
        {"packages": {"deepspeed": deepspeed, "torch": torch}, "build": {"nvcc": nvcc}}, DS_RULES
    )
    assert found == ({expected_rule: "affected"} if expected_rule else {})


def test_no_toolkit_means_no_op_builder_finding() -> None:
    # Without nvcc DeepSpeed cannot JIT-build at all (a different error, MissingCUDAException).
    assert statuses({"packages": {"deepspeed": "0.14.2", "torch": "2.5.1+cu124"}}, DS_RULES) == {}


# ---------------------------------------------------------------------------------------------
# vLLM's torch pins: the research table, restated

VLLM_PINS = {
    "0.4.0": "2.1.2", "0.5.0": "2.3.0", "0.5.3": "2.3.1", "0.6.3.post1": "2.4.0", "0.6.4": "2.5.1",
    "0.7.3": "2.5.1", "0.8.5.post1": "2.6.0", "0.9.2": "2.7.0", "0.10.0": "2.7.1", "0.10.1.1": "2.7.1",
    "0.10.2": "2.8.0", "0.11.0": "2.8.0", "0.13.0": "2.9.0", "0.14.0": "2.9.1", "0.16.0": "2.9.1",
    "0.17.0": "2.10.0", "0.19.0": "2.10.0", "0.20.0": "2.11.0", "0.26.0": "2.11.0", "0.28.0": "2.13.0",
    "0.30.0": "2.13.0", "0.33.0": "2.14.0",
    # the releases the hand-written table missed, now read from their metadata
    "0.4.1": "2.2.1", "0.5.4": "2.4.0", "0.11.1": "2.9.0", "0.11.2": "2.9.0", "0.27.0": "2.13.0",
    "0.31.0": "2.13.0", "0.32.0": "2.13.0",
    # before 0.4 (issue 34): each release's own Requires-Dist (scripts/inputs/vllm.json)
    "0.2.1": "2.0.1", "0.2.1.post1": "2.0.1", "0.2.6": "2.1.2", "0.2.7": "2.1.2", "0.3.0": "2.1.2",
    "0.3.2": "2.1.2", "0.3.3": "2.1.2",
}  # fmt: skip
TORCHES = sorted(set(VLLM_PINS.values()), key=Version)
# Releases that declare a floor, not a pin: below it is judged, above it the torch they were
# built against is not recorded (vllm#1807: 0.2.2 beside torch 2.0.1, below its floor 2.1.0).
VLLM_FLOORS = {
    "0.2.0": "2.0.0",
    "0.2.2": "2.1.0",
    "0.2.3": "2.1.0",
    "0.2.4": "2.1.0",
    "0.2.5": "2.1.1",
}


@pytest.mark.parametrize(("vllm", "torch"), list(product(VLLM_PINS, TORCHES)))
def test_vllm_torch_pins(vllm: str, torch: str) -> None:
    found = statuses({"packages": {"vllm": vllm, "torch": f"{torch}+cu126"}}, (VLLM_TORCH,))
    assert found == ({} if VLLM_PINS[vllm] == torch else {VLLM_TORCH: "affected"})


@pytest.mark.parametrize(("vllm", "torch"), list(product(VLLM_FLOORS, [*TORCHES, "1.13.1"])))
def test_vllm_floors_are_judged_as_declared(vllm: str, torch: str) -> None:
    found = statuses({"packages": {"vllm": vllm, "torch": torch}}, (VLLM_TORCH,))
    below = Version(torch) < Version(VLLM_FLOORS[vllm])
    assert found == ({VLLM_TORCH: "affected"} if below else {})


def test_vllm_releases_newer_than_the_recorded_inputs_are_not_guessed() -> None:
    assert statuses({"packages": {"vllm": "0.34.0", "torch": "1.13.1"}}, (VLLM_TORCH,)) == {}


# ---------------------------------------------------------------------------------------------
# Symptoms: log lines as upstream prints them reach the right rule

LOG_LINES = [
    (
        "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA "
        "version 12.9 does not match the version torch was compiled with 12.8, unable to compile "
        "cuda/cpp extensions without a matching cuda version.",
        DS129,
    ),
    (
        ">- DeepSpeed Op Builder: Installed CUDA version 12.6 does not match the version torch was "
        "compiled with 12.8, unable to compile cuda/cpp extensions without a matching cuda version.",
        DS128,
    ),
    (
        ">- DeepSpeed Op Builder: Installed CUDA version 12.1 does not match the version torch was "
        "compiled with 12.4, unable to compile cuda/cpp extensions without a matching cuda version.",
        DS124,
    ),
    (
        ">- DeepSpeed Op Builder: Installed CUDA version 12.8 does not match the version torch was "
        "compiled with 13.0, unable to compile cuda/cpp extensions without a matching cuda version.",
        DS_MAJOR,
    ),
    (
        "ImportError: deepspeed>=0.9.3 is required for a normal functioning of this module, but found "
        "deepspeed==0.8.3.",
        DS_FLOOR,
    ),
    ("ImportError: Numba needs NumPy 2.2 or less. Got NumPy 2.3.", NUMBA_0612),
    ("ImportError: Numba needs NumPy 2.3 or less. Got NumPy 2.4.", f"{NUMBA_062} {NUMBA_063}"),
    (
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C "
        "header, got 88 from PyObject",
        PANDAS,
    ),
    ("Disabling PyTorch because PyTorch >= 2.1 is required but found 2.0.1", TF_TORCH4),
    ("Disabling PyTorch because PyTorch >= 2.6 is required but found 2.5.1", TF_TORCH5),
    (
        "ValueError: Due to a serious vulnerability issue in `torch.load`, even with `weights_only=True`, "
        "we now require users to upgrade torch to at least v2.6 in order to use the function.",
        TF_LOAD,
    ),
    (
        "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`: Please run "
        "`pip install transformers[torch]` or `pip install 'accelerate>=0.26.0'`",
        TF_ACCEL,
    ),
    (
        "ImportError: cannot import name 'EncoderDecoderCache' from 'transformers' "
        "(/usr/lib/python3.10/site-packages/transformers/__init__.py)",
        PEFT_CACHE,
    ),
    (
        "ValueError: The version of PEFT you are using is not compatible, please use a version >= 0.18.0",
        PEFT_FLOOR,
    ),
    (
        "ImportError: /opt/venv/lib/python3.12/site-packages/vllm/_C.abi3.so: undefined symbol: "
        "_ZN3c104cuda9SetDeviceEi",
        VLLM_TORCH,
    ),
    (
        "OSError: /usr/local/lib/python3.10/dist-packages/torchaudio/lib/libtorchaudio.so: undefined "
        "symbol: _ZNK3c107SymBool10guard_boolEPKcl",
        TORCHAUDIO,
    ),
    # Every file name form of an extension (issue 34): before 0.4 vLLM's _C carries the CPython tag
    (
        "ImportError: /usr/local/lib/python3.10/dist-packages/vllm/_C.cpython-310-x86_64-linux-gnu.so: "
        "undefined symbol: _ZN3c106detail19maybe_wrap_dim_slowEllb",
        VLLM_TORCH,
    ),
    (
        "ImportError: /venv/lib/python3.12/site-packages/vllm/_moe_C.abi3.so: undefined symbol: "
        "_ZN3c1017RegisterOperatorsD1Ev",
        VLLM_TORCH,
    ),
    (
        "ImportError: /venv/lib/python3.12/site-packages/vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so: "
        "undefined symbol: _ZN3c104cuda9SetDeviceEa",
        VLLM_TORCH,
    ),
    (
        "OSError: /opt/conda/lib/python3.11/site-packages/torchaudio/lib/_torchaudio.so: undefined "
        "symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE",
        TORCHAUDIO,
    ),
    (
        "OSError: /usr/lib/python3.10/site-packages/torchvision/_C.so: undefined symbol: "
        "_ZN3c1017RegisterOperatorsD1Ev",
        TORCHVISION,
    ),
    (
        "ImportError: /usr/lib/python3.10/site-packages/xformers/_C.so: undefined symbol: "
        "_ZN3c104impl3cow11cow_deleterEPv",
        XFORMERS,
    ),
    # Not a torch symbol (the driver's C API), and not a vllm/ directory: no extension rule
    ("ImportError: /x/site-packages/vllm/_C.abi3.so: undefined symbol: cuTensorMapEncodeTiled", ""),
    (
        "ImportError: /x/site-packages/my_vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEi",
        "",
    ),
    ("AttributeError: Qwen2Tokenizer has no attribute all_special_tokens_extended", VLLM_TF5),
    (
        "UserWarning: TRL currently supports vLLM versions: 0.10.2, 0.11.0, 0.11.1, 0.11.2. You have "
        "version 0.12.0 installed.",
        TRL_VLLM,
    ),
]


# release-requirement-check-unmet (huggingface.yaml) answers for the requirement any
# transformers release's own check prints, so its symptoms match these two rules' messages too,
# by design (the same words from releases these rules do not cover: 4.30's accelerate>=0.20.1).
# It is a second match for these lines only; where their rule is confirmed, explain sets it apart
# (compat/diagnose/judge.py set_apart_generic; tests/unit/diagnose/test_explain_stated_facts.py).
GENERIC_REQUIREMENT = "release-requirement-check-unmet"
ALSO_GENERIC = {DS_FLOOR, TF_ACCEL}


@pytest.mark.parametrize(("line", "rule_id"), LOG_LINES, ids=[r for _, r in LOG_LINES])
def test_log_lines_reach_exactly_their_rule(line: str, rule_id: str) -> None:
    matched = {
        rule.id
        for rule in MY_RULES
        if any(re.search(symptom.match, line) for symptom in rule.symptoms)
    }
    expected = set(rule_id.split())  # two numba series share one cap, hence one message
    if expected & ALSO_GENERIC:
        expected.add(GENERIC_REQUIREMENT)
    assert matched == expected
