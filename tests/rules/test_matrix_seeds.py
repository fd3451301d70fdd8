"""The founding matrices (minicpm-v.yaml, openrlhf.yaml, trl.yaml) against realistic environments.

Two layers: every shipped rule's own examples must behave, and a table of environments people
actually run — release boundaries, source-build labels, git checkouts in and out of the OpenRLHF
window, GPU counts, configs — must give the stated status for each founding rule and nothing from
the other founding rules. The table's expectations come from the code history in
shared/research/seeds.md, not from the engine. The CLI boundary is tested in
tests/cli/test_doctor_cli.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import product
from typing import Any

import pytest

from compat.engine import evaluate_rule
from compat.kb.examples import check_example, facts_from_example
from compat.kb.knowledge import load_knowledge_base
from compat.model import Origin, Rule

KB = load_knowledge_base(use_cache=False)

DS = "deepspeed-zero3-offload-clip-device-mismatch"
MASK = "openrlhf-process-sequences-mask-on-cpu"
PRE03 = "openrlhf-pre-0.3-newer-deepspeed-reported"
INPROC = "trl-grpo-inprocess-vllm-device-mismatch"
# its vLLM 0.7.1 branch, split off: TRL's pin, not a located code change (evidence reported)
INPROC_071 = "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1"
PRE_AMPERE = "trl-grpo-inprocess-vllm-xformers-bias-pre-ampere"
HANG = "trl-0152-vllm-073-gather-hang"
FSDP_REF = "trl-grpo-fsdp-ref-model-on-cpu"
FSDP2_SYNC = "trl-grpo-fsdp2-vllm-weights-not-synced"
ROTARY = "trl-grpo-no-vllm-rotary-size-mismatch"
FOUNDING = (DS, MASK, PRE03, INPROC, INPROC_071, PRE_AMPERE, HANG, FSDP_REF, FSDP2_SYNC, ROTARY)

Expected = Mapping[str, str]  # rule id -> "affected" | "possible"; every other founding rule clear


def _example_cases() -> Iterator[Any]:
    for rule in KB.rules():
        for index, example in enumerate(rule.examples):
            yield pytest.param(rule, index, id=f"{rule.id}-{example.expect}-{index}")


@pytest.mark.parametrize(("rule", "index"), list(_example_cases()))
def test_every_shipped_example_behaves(rule: Rule, index: int) -> None:
    assert check_example(rule, index) is None


def test_the_founding_rules_are_shipped_with_both_kinds_of_example() -> None:
    for rule_id in FOUNDING:
        rule = KB.get(rule_id)
        assert rule is not None, rule_id
        kinds = {example.expect for example in rule.examples}
        assert {"affected", "clear"} <= kinds, rule_id
        assert rule.references and all(r.startswith("https://") for r in rule.references)


def statuses(env: Mapping[str, Any]) -> dict[str, str]:
    """Status of every founding rule for one environment; clear rules are left out."""
    facts = facts_from_example(env, Origin("test_matrix_seeds"))
    found: dict[str, str] = {}
    for rule_id in FOUNDING:
        rule = KB.get(rule_id)
        assert rule is not None
        finding = evaluate_rule(rule, facts)
        if finding is not None:
            found[rule_id] = finding.status.value
    return found


def gpus(count: int | None) -> dict[str, Any]:
    if count is None:
        return {}  # not probed: a CI runner without a hardware profile
    return {
        "hardware": {
            "gpu": "NVIDIA A100-SXM4-80GB",
            "gpu_count": count,
            "compute_capability": "8.0",
        }
    }


# ---------------------------------------------------------------------------------------------
# DeepSpeed ZeRO-3 + CPU optimizer offload + clipping (MiniCPM-V, LLaMA-Factory, OpenRLHF)

BAD_DEEPSPEED = {"0.14.1", "0.14.2", "0.14.2+unknown"}
DEEPSPEEDS = ["0.14.0", "0.14.1", "0.14.2", "0.14.2+unknown", "0.14.3", "0.14.5+6eed634e", "0.15.0"]
DS_CONFIGS: dict[str, dict[str, Any] | None] = {
    "zero3-cpu-offload-clip": {"zero_stage": 3, "offload_optimizer": "cpu", "offload_param": "cpu",
                               "gradient_clipping": 1.0},
    "zero3-cpu-optimizer-only": {"zero_stage": 3, "offload_optimizer": "cpu", "offload_param": "none",
                                 "gradient_clipping": 0.3},
    "zero3-cpu-offload-no-clip": {"zero_stage": 3, "offload_optimizer": "cpu", "gradient_clipping": 0},
    "zero3-param-offload-only": {"zero_stage": 3, "offload_optimizer": "none", "offload_param": "cpu",
                                 "gradient_clipping": 1.0},
    "zero2-cpu-offload-clip": {"zero_stage": 2, "offload_optimizer": "cpu", "gradient_clipping": 1.0},
    "zero3-clip-not-stated": {"zero_stage": 3, "offload_optimizer": "cpu"},
    "no-config": None,
}  # fmt: skip


def _deepspeed_expectation(version: str, config: str) -> Expected:
    if version not in BAD_DEEPSPEED:
        return {}
    if config in ("zero3-cpu-offload-clip", "zero3-cpu-optimizer-only"):
        return {DS: "affected"}
    if config in ("zero3-clip-not-stated", "no-config"):
        return {DS: "possible"}
    return {}


@pytest.mark.parametrize(
    ("version", "config", "gpu_count"),
    list(product(DEEPSPEEDS, DS_CONFIGS, [1, 8])),
)
def test_deepspeed_versions_by_config(version: str, config: str, gpu_count: int) -> None:
    env: dict[str, Any] = {
        "packages": {"DeepSpeed": version, "transformers": "4.40.0", "torch": "2.1.2"},
        **gpus(gpu_count),  # the GPU count is not a condition: one GPU is enough (MiniCPM-V #246)
    }
    usage = DS_CONFIGS[config]
    if usage is not None:
        env["usage"] = usage
    assert statuses(env) == _deepspeed_expectation(version, config)


# ---------------------------------------------------------------------------------------------
# OpenRLHF: the June-2024 mask bug lives at eleven git commits; the DeepSpeed advice is separate

WINDOW = [
    "01b8a23d79a8b4e965084cdf7d0c769dc569dc82",  # fix eos_token for llama3: introduces the bug
    "32f08912883db66cfb36e6c25edb08533e9cada5",
    "afc987acfbb72db8da703ddb0274ab32b9e17b59",  # last before the fix
]
OUTSIDE = {
    "parent of 01b8a23d": ("0.3.1", "81309d41b607c9b3579f713171dcc9e393a57983"),
    "the fix 7adaedc2": ("0.3.1", "7adaedc2206fa1bcb8eda1addfa7729c06a21c12"),
    "tag v0.3.1": ("0.3.1", "188139f809d9d14a8b1d8210f9e6746e2422e4e0"),
    "tag v0.3.0": ("0.3.0", "d1d595a535c877de829cd133dc6a9d4763263094"),
}
PPO_HF_GENERATE = {"trainer": "ppo", "use_vllm": False, "zero_stage": 3, "offload_optimizer": "none",
                   "gradient_clipping": 1.0}  # fmt: skip


@pytest.mark.parametrize("commit", WINDOW)
@pytest.mark.parametrize("deepspeed", ["0.13.5", "0.14.0", "0.14.4"])
def test_openrlhf_commits_inside_the_window(commit: str, deepspeed: str) -> None:
    # Whatever DeepSpeed is installed, including the blog's 0.14.0: a DeepSpeed pin is no fix.
    env = {
        "packages": {"OpenRLHF": {"version": "0.3.1", "commit": commit}, "deepspeed": deepspeed},
        "usage": PPO_HF_GENERATE,
    }
    assert statuses(env) == {MASK: "affected"}


@pytest.mark.parametrize("name", list(OUTSIDE))
def test_openrlhf_commits_outside_the_window(name: str) -> None:
    version, commit = OUTSIDE[name]
    env = {
        "packages": {"openrlhf": {"version": version, "commit": commit}, "deepspeed": "0.13.5"},
        "usage": PPO_HF_GENERATE,
    }
    assert statuses(env) == {}


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param(
            {"packages": {"openrlhf": "0.3.6.post1", "deepspeed": "0.14.4"}, "usage": PPO_HF_GENERATE},
            {},
            id="pypi-0.3.6.post1",
        ),
        pytest.param(
            {"packages": {"openrlhf": "0.3.1", "deepspeed": "0.13.5"}, "usage": PPO_HF_GENERATE},
            {MASK: "possible"},
            id="editable-checkout-without-commit",
        ),
        pytest.param(
            {"packages": {"openrlhf": {"version": "0.3.1", "commit": WINDOW[1]}, "deepspeed": "0.13.5"}},
            {MASK: "possible"},
            id="window-commit-usage-unknown",
        ),
        pytest.param(
            {"packages": {"openrlhf": {"version": "0.3.1", "commit": WINDOW[0]}, "deepspeed": "0.13.5"},
             "usage": {**PPO_HF_GENERATE, "use_vllm": True}},
            {},
            id="window-commit-with-vllm-engines",
        ),
        pytest.param(
            {"packages": {"openrlhf": {"version": "0.3.1", "commit": WINDOW[2]}, "deepspeed": "0.14.2"},
             "usage": {"trainer": "ppo", "use_vllm": False, "zero_stage": 3, "offload_optimizer": "cpu",
                       "gradient_clipping": 1.0}},
            {MASK: "affected", DS: "affected"},
            id="window-commit-and-adam-offload-on-deepspeed-0.14.2",
        ),
        pytest.param(
            {"packages": {"openrlhf": "0.2.9", "deepspeed": "0.14.2"}, "usage": PPO_HF_GENERATE},
            {PRE03: "affected"},
            id="tag-v0.2.9-with-deepspeed-0.14.2",
        ),
        pytest.param(
            {"packages": {"openrlhf": "0.2.9", "deepspeed": "0.14.0"}, "usage": PPO_HF_GENERATE},
            {},
            id="tag-v0.2.9-with-deepspeed-0.14.0",
        ),
        pytest.param(
            {"packages": {"openrlhf": "0.3.0", "deepspeed": "0.14.2"}, "usage": PPO_HF_GENERATE},
            {},
            id="tag-v0.3.0-with-deepspeed-0.14.2",
        ),
    ],
)  # fmt: skip
def test_openrlhf_installs(env: Mapping[str, Any], expected: Expected) -> None:
    assert statuses(env) == expected


# ---------------------------------------------------------------------------------------------
# TRL GRPO with in-process vLLM: trl 0.14-0.15, vLLM < 0.7.2 on two or more GPUs; 0.7.2-0.7.3 too
# on pre-Ampere GPUs, whose XFormers backend builds its attention bias on the default device
# (vllm#13468 passes the query's device from 0.8.0). gpus() are A100s: FlashAttention, where 0.7.2
# worked.

TRLS = ["0.13.0", "0.14.0", "0.15.2", "0.16.0", "0.17.0", "0.18.0"]
VLLMS = ["0.6.6.post1", "0.7.0", "0.7.1", "0.7.2", "0.7.3"]
IN_PROCESS_TRL = {"0.14.0", "0.15.2"}
# 0.7.0 and 0.7.1: the same uniproc_executor.py, flagged on TRL's pins (audit 5 row 12)
BAD_VLLM = {"0.6.6.post1": INPROC, "0.7.0": INPROC_071, "0.7.1": INPROC_071}
PRE_AMPERE_BAD_VLLM = {"0.7.2", "0.7.3"}  # the GPU decides: unknown GPUs make it a question


def _grpo_vllm_expectation(trl: str, vllm: str, gpu_count: int | None) -> Expected:
    expected: dict[str, str] = {}
    if trl in IN_PROCESS_TRL and vllm in BAD_VLLM and gpu_count != 1:
        expected[BAD_VLLM[vllm]] = "affected" if gpu_count is not None else "possible"
    if trl in IN_PROCESS_TRL and vllm in PRE_AMPERE_BAD_VLLM and gpu_count is None:
        expected[PRE_AMPERE] = "possible"
    if trl == "0.15.2" and vllm == "0.7.3":
        expected[HANG] = "affected"
    return expected


@pytest.mark.parametrize(
    ("gpu", "cc", "vllm", "expected"),
    [
        ("Tesla V100-SXM2-32GB", "7.0", "0.7.2", {PRE_AMPERE: "affected"}),  # XFormers: open-r1#278
        ("Tesla T4", "7.5", "0.7.2", {PRE_AMPERE: "affected"}),
        ("Tesla V100-SXM2-32GB", "7.0", "0.7.3", {PRE_AMPERE: "affected"}),  # no device= until 0.8.0
        ("Tesla V100-SXM2-32GB", "7.0", "0.8.0", {}),  # #13468: the bias on the query's device
        ("Tesla V100-SXM2-32GB", "7.0", "0.7.1", {INPROC_071: "affected"}),  # one finding, not two
        ("NVIDIA A100-SXM4-80GB", "8.0", "0.7.2", {}),  # X-R1: trl 0.15.2 + vllm 0.7.2
        ("NVIDIA GeForce RTX 3090", "8.6", "0.7.2", {}),  # X-R1's 4x3090 recipe
        ("NVIDIA H100 80GB HBM3", "9.0", "0.7.2", {}),  # open-r1 49d9b74 on 8xH100
        ("NVIDIA A100-SXM4-80GB", "8.0", "0.7.1", {INPROC_071: "affected"}),  # TRL's pin: reported
        ("NVIDIA A100-SXM4-80GB", "8.0", "0.7.0", {INPROC_071: "affected"}),  # 0.7.1's executor
        ("NVIDIA A100-SXM4-80GB", "8.0", "0.6.6.post1", {INPROC: "affected"}),  # trl#2883
    ],
)  # fmt: skip
def test_trl_015_inprocess_vllm_by_gpu(
    gpu: str, cc: str, vllm: str, expected: dict[str, str]
) -> None:
    env = {
        "packages": {"trl": "0.15.2", "vllm": vllm},
        "usage": {"trainer": "grpo", "use_vllm": True},
        "hardware": {"gpu": gpu, "gpu_count": 4, "compute_capability": cc},
    }
    found = statuses(env)
    assert {
        rule: found[rule] for rule in (INPROC, INPROC_071, PRE_AMPERE) if rule in found
    } == expected


@pytest.mark.parametrize(("trl", "vllm", "gpu_count"), list(product(TRLS, VLLMS, [1, 2, 8, None])))
def test_trl_grpo_with_vllm_under_deepspeed(trl: str, vllm: str, gpu_count: int | None) -> None:
    # The trl #2851 set-up: accelerate + DeepSpeed ZeRO-3, use_vllm on, A100s.
    env = {
        "packages": {"TRL": trl, "vLLM": vllm, "deepspeed": "0.15.4", "accelerate": "1.3.0"},
        "usage": {"trainer": "grpo", "use_vllm": True, "distributed": "deepspeed", "zero_stage": 3},
        **gpus(gpu_count),
    }
    assert statuses(env) == _grpo_vllm_expectation(trl, vllm, gpu_count)


# ---------------------------------------------------------------------------------------------
# TRL GRPO with FSDP: reference model on the CPU before 0.18; FSDP2 weight sync before 0.20


@pytest.mark.parametrize(
    ("trl", "usage", "expected"),
    [
        ("0.13.0", {"fsdp_version": 1, "use_vllm": False}, {}),
        ("0.14.0", {"fsdp_version": 1, "use_vllm": False}, {FSDP_REF: "affected"}),
        ("0.16.1", {"use_vllm": False}, {FSDP_REF: "affected"}),
        ("0.17.0", {"fsdp_version": 1, "use_vllm": False}, {FSDP_REF: "affected"}),
        ("0.17.0", {"fsdp_version": 2, "use_vllm": True}, {FSDP_REF: "affected"}),
        ("0.18.0", {"fsdp_version": 1, "use_vllm": False}, {}),
        ("0.18.0", {"fsdp_version": 1, "use_vllm": True}, {}),
        ("0.18.0", {"fsdp_version": 2, "use_vllm": True}, {FSDP2_SYNC: "affected"}),
        ("0.19.1", {"fsdp_version": 2, "use_vllm": True}, {FSDP2_SYNC: "affected"}),
        ("0.19.1", {"use_vllm": True}, {FSDP2_SYNC: "possible"}),
        ("0.19.1", {"fsdp_version": 2, "use_vllm": False}, {}),
        ("0.20.0", {"fsdp_version": 2, "use_vllm": True}, {}),
    ],
)
def test_trl_grpo_with_fsdp(trl: str, usage: dict[str, Any], expected: Expected) -> None:
    env = {
        "packages": {"trl": trl, "accelerate": "1.6.0", "vllm": "0.8.5"},
        "usage": {
            "trainer": "grpo",
            "distributed": "fsdp",
            "gradient_checkpointing": False,
            **usage,
        },
        **gpus(2),
    }
    assert statuses(env) == expected


def test_fsdp_without_grpo_or_with_deepspeed_is_clear() -> None:
    sft = {"packages": {"trl": "0.17.0"}, "usage": {"trainer": "sft", "distributed": "fsdp"}}
    grpo_ds = {
        "packages": {"trl": "0.17.0"},
        "usage": {"trainer": "grpo", "distributed": "deepspeed"},
    }
    assert statuses(sft) == {}
    assert FSDP_REF not in statuses(grpo_ds)


# ---------------------------------------------------------------------------------------------
# TRL GRPO without vLLM: the rotary off-by-one under gradient checkpointing (open upstream)


@pytest.mark.parametrize(
    ("trl", "checkpointing", "expected"),
    [
        ("0.13.0", True, {}),
        ("0.14.0", True, {ROTARY: "affected"}),
        ("0.15.2", True, {ROTARY: "affected"}),
        ("0.15.2", False, {}),
        ("0.15.2", None, {ROTARY: "possible"}),
        ("0.17.0", True, {ROTARY: "affected"}),
        ("0.21.0", True, {ROTARY: "affected"}),
        ("0.22.0", True, {}),
    ],
)
def test_trl_grpo_without_vllm(trl: str, checkpointing: bool | None, expected: Expected) -> None:
    usage: dict[str, Any] = {
        "trainer": "grpo",
        "use_vllm": False,
        "distributed": "deepspeed",
        "zero_stage": 3,
    }
    if checkpointing is not None:
        usage["gradient_checkpointing"] = checkpointing
    # Installed vLLM, old or new, plays no part when use_vllm is False.
    for vllm in ("0.7.1", "0.7.2", "0.8.5"):
        env = {"packages": {"trl": trl, "vllm": vllm}, "usage": usage, **gpus(2)}
        assert statuses(env) == expected, vllm


def test_the_rotary_rule_is_reported_and_offers_no_pin() -> None:
    # Open upstream: no fixing release to pin, only config changes.
    rule = KB.get(ROTARY)
    assert rule is not None
    assert rule.evidence.value == "reported"
    assert rule.fix.constraints == ()
    assert rule.fix.change
