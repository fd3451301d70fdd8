"""The hardware matrices (cuda.yaml, gpu.yaml) against saved profiles of real machine types.

Three layers:
* every rule in the two files validates and its own examples behave;
* laws every hardware rule obeys: a CPU-only machine never gets a hardware finding, whatever is
  installed (both the shorthand and the document `compat probe` writes on a machine without a
  driver), and a machine nobody probed never gets an `affected` one; the rules cuda.yaml holds
  about what a log's loader or cuDNN message states (LOG_STATED) are not decided by the GPU, and
  hold on a CPU-only machine too;
* a table of realistic machines (full `compat.hardware/1` profiles: A100 x8 on R535, H100, V100,
  T4, RTX 5090, L4, B200, P100, a MIG-partitioned A100, a driver/library mismatch) x installed
  stacks, with the exact set of hardware findings each must give. The expectations come from the
  NVIDIA driver tables and the torch/flash-attn/bitsandbytes/NCCL facts in
  shared/research/kb-candidates.md, not from the engine.
The CLI boundary (`compat doctor --path --hardware`) is exercised at the end with real dist-info
directories and a profile file, the way the acceptance checks run it.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from compat.engine import evaluate_rule
from compat.kb.conditions import HardwareCondition, leaves
from compat.kb.examples import check_example, facts_from_example, hardware_from_example
from compat.kb.knowledge import compile_rule, validate_file
from compat.model import Origin, Rule
from tests.dists import make_dist
from tests.lib import paths
from tests.lib.doctor import doctor_report
from tests.lib.hardware import profile_file

MATRIX = paths.MATRIX
FILES = ("cuda.yaml", "gpu.yaml")
RULES: dict[str, Rule] = {
    rule.id: rule
    for name in FILES
    for rule in (compile_rule(plain) for plain in validate_file(MATRIX / name))
}

CUDA13_OLD_DRIVER = "cuda13-build-on-pre-580-driver"
CUDA12_FLOOR = "cuda12-build-below-driver-floor"
CUDA11_FLOOR = "cuda11-build-below-driver-floor"
MVC = "cuda12-build-newer-than-driver"
MISMATCH = "nvml-driver-library-mismatch"
# One table-driven rule (compat/data/torch-arch.json) answers for the six per-release ones it
# superseded (torch-pre-2.0-on-hopper-or-ada, blackwell-needs-torch-2.7, ...).
NO_KERNEL = "torch-no-kernel-image-for-gpu"
FA2 = "flash-attention-2-needs-ampere"
FA3 = "flash-attention-3-before-ampere"
BF16 = "bf16-needs-ampere"
FP8 = "fp8-needs-ada-or-hopper"
TRITON = "vllm-triton-needs-volta"
VLLM_VOLTA = "vllm-dropped-volta-reported"
BNB_TURING = "bitsandbytes-int8-needs-turing"
BNB_HOPPER = "bitsandbytes-int8-on-hopper"
NCCL_5090 = "nccl-before-2.26.2-on-rtx-5090"
CUDNN_OLDER = "cudnn-runtime-older-than-torch-build"
CUDNN_MAJOR = "cudnn-runtime-other-major-than-torch-build"
LOADER_MAJOR = "extension-built-for-another-cuda-major"
# Decided by the versions and sonames a log's message states (build.cudnn_torch/cudnn_runtime,
# build.missing_cuda), never by the GPU or the driver: the dynamic loader fails to open
# libcudart.so.12 at import, and torch.backends.cudnn's version check (_init, run by
# torch.backends.cudnn.version()) calls into libcudnn, with or without a GPU. A CPU-only machine
# with the same message has the same cause, so the CPU-only laws below do not apply to them; the
# opposite law does (test_log_stated_rules_hold_on_a_cpu_only_machine).
LOG_STATED = frozenset({CUDNN_OLDER, CUDNN_MAJOR, LOADER_MAJOR})


# ---------------------------------------------------------------------------------------------
# The rules themselves


def _example_cases() -> Iterator[Any]:
    for rule in RULES.values():
        for index, example in enumerate(rule.examples):
            yield pytest.param(rule, index, id=f"{rule.id}-{example.expect}-{index}")


@pytest.mark.parametrize(("rule", "index"), list(_example_cases()))
def test_every_example_behaves(rule: Rule, index: int) -> None:
    assert check_example(rule, index) is None


def test_the_two_files_hold_exactly_the_rules_this_module_names() -> None:
    named = {
        CUDA13_OLD_DRIVER, CUDA12_FLOOR, CUDA11_FLOOR, MVC, MISMATCH, NO_KERNEL, FA2, FA3,
        BF16, FP8, TRITON, VLLM_VOLTA, BNB_TURING, BNB_HOPPER, NCCL_5090, *LOG_STATED,
    }  # fmt: skip
    assert set(RULES) == named


@pytest.mark.parametrize("rule", list(RULES.values()), ids=list(RULES))
def test_each_rule_has_sources_near_misses_and_a_cpu_only_machine(rule: Rule) -> None:
    kinds = {example.expect for example in rule.examples}
    assert {"affected", "clear"} <= kinds
    assert rule.references and all(r.startswith("https://") for r in rule.references)
    assert rule.fix.constraints or rule.fix.change
    if rule.id in LOG_STATED:
        # no GPU condition to clear on a machine without one: the opposite law is tested below
        return
    cpu_only = [
        e
        for e in rule.examples
        if e.expect == "clear" and "hardware" in e.data and not _gpus_in(e.data["hardware"])
    ]
    assert cpu_only, f"{rule.id}: no clear example on a machine without GPUs"


def _gpus_in(hardware: object) -> int:
    assert isinstance(hardware, Mapping)
    return len(hardware_from_example(hardware).gpus)


# ---------------------------------------------------------------------------------------------
# Profiles of real machines, as `compat probe --format json` writes them


def gpu(
    name: str, cc: str, memory_mib: int, *, count: int = 1, mig: bool = False
) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "name": name,
            "uuid": f"GPU-{zlib.crc32(name.encode()):08x}-{i:04x}-0000-0000-000000000000",
            "pci_bus_id": f"00000000:{0x10 + i:02X}:00.0",
            "compute_capability": cc,
            "memory_total_mib": memory_mib,
            "mig": mig,
        }
        for i in range(count)
    ]


def profile(driver: str | None, cuda: str | None, gpus: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "schema": "compat.hardware/1",
        "driver_version": driver,
        "cuda_driver_version": cuda,
        "gpus": gpus,
    }


A100X8_R535 = profile("535.104.05", "12.2", gpu("NVIDIA A100-SXM4-80GB", "8.0", 81920, count=8))
A100X8_R570 = profile("570.133.20", "12.8", gpu("NVIDIA A100-SXM4-80GB", "8.0", 81920, count=8))
A100_MIG_R550 = profile(
    "550.54.15", "12.4", gpu("NVIDIA A100-SXM4-40GB", "8.0", 40960, count=1, mig=True)
)
H100X8_R535 = profile("535.104.05", "12.2", gpu("NVIDIA H100 80GB HBM3", "9.0", 81559, count=8))
H100_R580 = profile("580.65.06", "13.0", gpu("NVIDIA H100 80GB HBM3", "9.0", 81559))
V100X8_R580 = profile("580.65.06", "13.0", gpu("Tesla V100-SXM2-32GB", "7.0", 32768, count=8))
V100X8_R535 = profile("535.104.05", "12.2", gpu("Tesla V100-SXM2-32GB", "7.0", 32768, count=8))
T4_R535 = profile("535.104.05", "12.2", gpu("Tesla T4", "7.5", 15360))
RTX5090X2_R570 = profile(
    "570.133.07", "12.8", gpu("NVIDIA GeForce RTX 5090", "12.0", 32607, count=2)
)
RTX5090_R570 = profile("570.133.07", "12.8", gpu("NVIDIA GeForce RTX 5090", "12.0", 32607))
L4_R550 = profile("550.54.15", "12.4", gpu("NVIDIA L4", "8.9", 23034))
L4_R570 = profile("570.133.20", "12.8", gpu("NVIDIA L4", "8.9", 23034))
B200X8_R570 = profile("570.133.20", "12.8", gpu("NVIDIA B200", "10.0", 183359, count=8))
P100_R570 = profile("570.133.20", "12.8", gpu("Tesla P100-PCIE-16GB", "6.0", 16384))
# `compat probe --format json` on a machine without an NVIDIA driver (recorded on the dev box).
CPU_ONLY = {
    **profile(None, None, []),
    "problems": ["no NVIDIA driver (NVML library not found): no GPU visible"],
    "nvml_error": "library-not-found",
    "sources": {},
    "shm_bytes": 25276502016,
}
# After `apt upgrade` moved the driver from 550.54.15 to 550.127.05 without a reboot.
MISMATCHED = {
    **profile("550.54.15", None, []),
    "problems": [
        "the NVIDIA driver's kernel module is 550.54.15 but the user-space library is 550.127.05"
    ],
    "nvml_error": "driver-library-mismatch",
    "sources": {"driver": "kernel module (/sys or /proc)"},
}

# torch as pip installs it from PyPI: no local label; its build comes from its metadata
# (cuda-toolkit==13.0.2 for 2.11, nvidia-cuda-runtime-cu12==... before), as in a real env.
TORCH_211_DEFAULT = {"packages": {"torch": "2.11.0"}, "build": {"torch_cuda": "13.0"}}
TORCH_210_DEFAULT = {"packages": {"torch": "2.10.0"}, "build": {"torch_cuda": "12.8"}}
TORCH_28_DEFAULT = {"packages": {"torch": "2.8.0"}, "build": {"torch_cuda": "12.8"}}
TORCH_27_DEFAULT = {"packages": {"torch": "2.7.0"}, "build": {"torch_cuda": "12.6"}}


def stack(*parts: Mapping[str, Any], **packages: str) -> dict[str, Any]:
    """Merge environment fragments: package maps, build facts, usage."""
    merged: dict[str, Any] = {"packages": {}}
    for part in parts:
        for key, value in part.items():
            merged.setdefault(key, {}).update(value)
    merged["packages"].update({k.replace("_", "-"): v for k, v in packages.items()})
    return merged


def hardware_findings(env: Mapping[str, Any], hardware: Mapping[str, Any] | None) -> dict[str, str]:
    data = dict(env)
    if hardware is not None:
        data["hardware"] = hardware
    facts = facts_from_example(data, Origin("test_matrix_hardware"))
    found: dict[str, str] = {}
    for rule in RULES.values():
        finding = evaluate_rule(rule, facts)
        if finding is not None:
            found[rule.id] = finding.status.value
    return found


FP16 = {"usage": {"mixed_precision": "fp16"}}
BF16_USAGE = {"usage": {"mixed_precision": "bf16"}}
EIGHT_BIT = {"usage": {"load_in_8bit": True}}

MACHINES: list[tuple[str, dict[str, Any], dict[str, Any], dict[str, str]]] = [
    # -- CUDA build vs driver ------------------------------------------------------------------
    # The trap: `pip install torch` (2.11, CUDA 13) on an R535 A100 box.
    ("a100x8-r535-torch211-default", A100X8_R535, stack(TORCH_211_DEFAULT, BF16_USAGE),
     {CUDA13_OLD_DRIVER: "affected"}),
    ("a100x8-r535-torch211-cu130", A100X8_R535, stack(BF16_USAGE, torch="2.11.0+cu130"),
     {CUDA13_OLD_DRIVER: "affected"}),
    # vLLM 0.20 pins torch 2.11, so the same trap through a lock file that lists the runtime wheel.
    ("a100x8-r535-vllm020-lock", A100X8_R535,
     stack(BF16_USAGE, vllm="0.20.0", torch="2.11.0", nvidia_cuda_runtime="13.0.96"),
     {CUDA13_OLD_DRIVER: "affected"}),
    # The fixes: a cu128 wheel on the old driver (runs through MVC: PTX JIT warning), or R580.
    # Minor-version compatibility only fails code that hands PTX to the driver (ptx_jit): torch's
    # own SASS kernels run, so a newer CUDA 12 build on R535 is silent until that is said.
    ("a100x8-r535-torch211-cu128", A100X8_R535, stack(BF16_USAGE, torch="2.11.0+cu128"), {}),
    ("a100x8-r535-torch211-cu128-ptx-jit", A100X8_R535,
     stack(BF16_USAGE, {"usage": {"ptx_jit": True}}, torch="2.11.0+cu128"), {MVC: "affected"}),
    ("a100x8-r570-torch211-cu128", A100X8_R570, stack(BF16_USAGE, torch="2.11.0+cu128"), {}),
    ("h100-r580-torch211-default", H100_R580, stack(TORCH_211_DEFAULT, BF16_USAGE), {}),
    ("a100x8-r535-torch210-default", A100X8_R535, stack(TORCH_210_DEFAULT, BF16_USAGE), {}),
    ("a100x8-r535-torch23-cu121", A100X8_R535, stack(BF16_USAGE, torch="2.3.0+cu121"), {}),
    ("l4-r550-torch28-cu128", L4_R550, stack(BF16_USAGE, torch="2.8.0+cu128"), {}),
    ("l4-r570-torch28-cu128", L4_R570, stack(BF16_USAGE, torch="2.8.0+cu128"), {}),
    ("mig-a100-r550-torch251-cu124", A100_MIG_R550, stack(BF16_USAGE, torch="2.5.1+cu124"), {}),
    # -- architecture vs build -------------------------------------------------------------------
    ("h100x8-r535-torch1131-cu117", H100X8_R535, stack(BF16_USAGE, torch="1.13.1+cu117"),
     {NO_KERNEL: "affected"}),
    ("h100x8-r535-torch201-cu118", H100X8_R535, stack(BF16_USAGE, torch="2.0.1+cu118"), {}),
    # sm_86 SASS runs on an sm_89 L4 (same major, higher minor: NVIDIA's Ada compatibility
    # guide); the CUDA 10.2 build from PyPI has nothing for sm_8x at all.
    ("l4-r550-torch1121-cu116", L4_R550, stack(FP16, torch="1.12.1+cu116"), {}),
    ("l4-r550-torch1121-default", L4_R550, stack(FP16, {"build": {"torch_cuda": "10.2"}},
     torch="1.12.1"), {NO_KERNEL: "affected"}),
    ("a100x8-r535-torch1131-cu117", A100X8_R535, stack(BF16_USAGE, torch="1.13.1+cu117"), {}),
    ("v100x8-r580-torch211-cu130", V100X8_R580, stack(FP16, torch="2.11.0+cu130"),
     {NO_KERNEL: "affected"}),
    ("v100x8-r535-torch211-default", V100X8_R535, stack(TORCH_211_DEFAULT, FP16),
     {NO_KERNEL: "affected", CUDA13_OLD_DRIVER: "affected"}),
    ("v100x8-r580-torch211-cu128", V100X8_R580, stack(FP16, torch="2.11.0+cu128"),
     {NO_KERNEL: "affected"}),
    ("v100x8-r580-torch211-cu126", V100X8_R580, stack(FP16, torch="2.11.0+cu126"), {}),
    ("v100x8-r580-torch210-cu128", V100X8_R580, stack(FP16, torch="2.10.0+cu128"), {}),
    # bf16 on a V100: the unknown usage makes it `possible`, stating it makes it `affected`.
    ("v100x8-r580-torch210-cu126-bf16-unstated", V100X8_R580, stack(torch="2.10.0+cu126"),
     {BF16: "possible"}),
    ("v100x8-r580-torch210-cu126-bf16", V100X8_R580, stack(BF16_USAGE, torch="2.10.0+cu126"),
     {BF16: "affected"}),
    ("p100-r570-torch28-default-vllm", P100_R570, stack(TORCH_28_DEFAULT, FP16, vllm="0.10.1"),
     {NO_KERNEL: "affected", TRITON: "affected"}),
    ("p100-r570-torch28-cu126", P100_R570, stack(FP16, torch="2.8.0+cu126"), {}),
    ("rtx5090-r570-torch260-cu124", RTX5090_R570, stack(BF16_USAGE, torch="2.6.0+cu124"),
     {NO_KERNEL: "affected"}),
    ("rtx5090x2-r570-torch260-default", RTX5090X2_R570,
     stack(BF16_USAGE, torch="2.6.0", nvidia_nccl_cu12="2.21.5",
           nvidia_cuda_runtime_cu12="12.4.127"),
     {NO_KERNEL: "affected", NCCL_5090: "affected"}),
    ("rtx5090x2-r570-torch270-default", RTX5090X2_R570,
     stack(TORCH_27_DEFAULT, BF16_USAGE, nvidia_nccl_cu12="2.26.2"),
     {NO_KERNEL: "affected"}),
    ("rtx5090x2-r570-torch280-default", RTX5090X2_R570,
     stack(TORCH_28_DEFAULT, BF16_USAGE, nvidia_nccl_cu12="2.27.3"), {}),
    ("b200x8-r570-torch270-cu128", B200X8_R570, stack(BF16_USAGE, torch="2.7.0+cu128"), {}),
    ("b200x8-r570-torch270-default", B200X8_R570, stack(TORCH_27_DEFAULT, BF16_USAGE),
     {NO_KERNEL: "affected"}),
    # -- compute-capability features -----------------------------------------------------------
    ("t4-r535-flashattn2-used", T4_R535,
     stack(FP16, {"usage": {"attn_implementation": "flash_attention_2"}},
           torch="2.3.0+cu121", flash_attn="2.5.8"),
     {FA2: "affected"}),
    ("t4-r535-flashattn2-unstated", T4_R535, stack(FP16, torch="2.3.0+cu121", flash_attn="2.5.8"),
     {FA2: "possible"}),
    ("t4-r535-flashattn2-sdpa", T4_R535,
     stack(FP16, {"usage": {"attn_implementation": "sdpa"}}, torch="2.3.0+cu121",
           flash_attn="2.5.8"),
     {}),
    ("a100x8-r535-flashattn2-used", A100X8_R535,
     stack(BF16_USAGE, {"usage": {"attn_implementation": "flash_attention_2"}},
           torch="2.3.0+cu121", flash_attn="2.5.8"),
     {}),
    ("t4-r535-flashattn3", T4_R535,
     stack(FP16, {"usage": {"attn_implementation": "flash_attention_3"}},
           torch="2.8.0+cu128", flash_attn_3="3.0.0b1"),
     {FA3: "affected"}),
    ("t4-r535-bf16", T4_R535, stack(BF16_USAGE, torch="2.3.0+cu121"), {BF16: "affected"}),
    ("a100x8-r570-fp8-torchao", A100X8_R570,
     stack({"usage": {"mixed_precision": "fp8"}}, torch="2.7.0+cu128", torchao="0.10.0"),
     {FP8: "affected"}),
    ("l4-r570-fp8-torchao", L4_R570,
     stack({"usage": {"mixed_precision": "fp8"}}, torch="2.7.0+cu128", torchao="0.10.0"), {}),
    ("h100x8-r535-bnb0431", H100X8_R535, stack(BF16_USAGE, EIGHT_BIT, torch="2.3.0+cu121",
                                              bitsandbytes="0.43.1"),
     {BNB_HOPPER: "affected"}),
    ("h100x8-r535-bnb0431-not-8-bit", H100X8_R535, stack(BF16_USAGE, torch="2.3.0+cu121",
                                                         bitsandbytes="0.43.1"), {}),
    ("h100x8-r535-bnb0450", H100X8_R535, stack(BF16_USAGE, EIGHT_BIT, torch="2.3.0+cu121",
                                              bitsandbytes="0.45.0"), {}),
    ("v100x8-r535-bnb", V100X8_R535, stack(FP16, EIGHT_BIT, torch="2.3.0+cu121", bitsandbytes="0.45.5"),
     {BNB_TURING: "affected"}),
    ("v100x8-r580-vllm021", V100X8_R580, stack(FP16, torch="2.9.0+cu126", vllm="0.21.0"),
     {VLLM_VOLTA: "affected"}),
    ("v100x8-r580-vllm014", V100X8_R580, stack(FP16, torch="2.9.0+cu126", vllm="0.14.0"), {}),
    # -- the probe's own failure -----------------------------------------------------------------
    ("mismatch-after-driver-upgrade", MISMATCHED, stack(BF16_USAGE, torch="2.5.1+cu124"),
     {MISMATCH: "affected"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("hardware", "env", "expected"),
    [pytest.param(hw, env, expected, id=name) for name, hw, env, expected in MACHINES],
)
def test_machine_profiles_give_exactly_these_hardware_findings(
    hardware: dict[str, Any], env: dict[str, Any], expected: dict[str, str]
) -> None:
    assert hardware_findings(env, hardware) == expected


@pytest.mark.parametrize("env", [pytest.param(env, id=name) for name, _, env, _ in MACHINES])
@pytest.mark.parametrize("cpu", [CPU_ONLY, {"gpu_count": 0}], ids=["probe-document", "shorthand"])
def test_a_cpu_only_machine_with_the_same_packages_gets_no_hardware_finding(
    env: dict[str, Any], cpu: dict[str, Any]
) -> None:
    assert hardware_findings(env, cpu) == {}


@pytest.mark.parametrize("env", [pytest.param(env, id=name) for name, _, env, _ in MACHINES])
def test_without_hardware_facts_nothing_is_affected(env: dict[str, Any]) -> None:
    # A CI runner with no profile: at most `possible`, which says which flag settles it.
    assert "affected" not in hardware_findings(env, None).values()


def _affected_examples(log_stated: bool) -> Iterator[Any]:
    for rule in RULES.values():
        if (rule.id in LOG_STATED) != log_stated:
            continue
        for index, example in enumerate(rule.examples):
            if example.expect == "affected":
                yield pytest.param(rule, example.data, id=f"{rule.id}-{index}")


@pytest.mark.parametrize(("rule", "data"), list(_affected_examples(log_stated=False)))
@pytest.mark.parametrize("cpu", [CPU_ONLY, {"gpu_count": 0}], ids=["probe-document", "shorthand"])
def test_every_affected_example_is_clear_on_a_cpu_only_machine(
    rule: Rule, data: Mapping[str, Any], cpu: dict[str, Any]
) -> None:
    facts = facts_from_example({**data, "hardware": cpu}, Origin("test_matrix_hardware"))
    assert evaluate_rule(rule, facts) is None


@pytest.mark.parametrize(("rule", "data"), list(_affected_examples(log_stated=True)))
@pytest.mark.parametrize("cpu", [CPU_ONLY, {"gpu_count": 0}], ids=["probe-document", "shorthand"])
def test_log_stated_rules_hold_on_a_cpu_only_machine(
    rule: Rule, data: Mapping[str, Any], cpu: dict[str, Any]
) -> None:
    # the message states the cause (LOG_STATED): no GPU is no escape from it
    facts = facts_from_example({**data, "hardware": cpu}, Origin("test_matrix_hardware"))
    finding = evaluate_rule(rule, facts)
    assert finding is not None and finding.status.value == "affected"


@pytest.mark.parametrize("rule_id", sorted(LOG_STATED))
def test_log_stated_rules_read_no_hardware_fact(rule_id: str) -> None:
    # what keeps them out of the CPU-only laws: a rule that asks about the GPU is a hardware rule
    assert not any(isinstance(c, HardwareCondition) for c in leaves(RULES[rule_id].when))


def test_possible_findings_say_how_to_settle_the_hardware() -> None:
    facts = facts_from_example({"packages": {"torch": "2.11.0+cu130"}}, Origin("test"))
    finding = evaluate_rule(RULES[CUDA13_OLD_DRIVER], facts)
    assert finding is not None and finding.status.value == "possible"
    # the driver's version or the CUDA version it supports settles it (a log shows the latter)
    assert {u.fact for u in finding.unknown} == {
        "hardware.gpu_count",
        "hardware.driver",
        "hardware.cuda_driver",
    }
    assert all("--hardware" in u.needs for u in finding.unknown)


# ---------------------------------------------------------------------------------------------
# Through the CLI: real dist-info directories and a saved profile file

TORCH_211_REQUIRES = (
    "cuda-toolkit[cublas,cudart,cufft,cufile,cupti,curand,cusolver,cusparse,nvjitlink,nvrtc,nvtx]"
    '==13.0.2; platform_system == "Linux"',
    'nvidia-nccl-cu13==2.28.9; platform_system == "Linux"',
    'triton==3.6.0; platform_system == "Linux"',
)
TORCH_260_REQUIRES = (
    'nvidia-cuda-runtime-cu12==12.4.127; platform_system == "Linux"',
    'nvidia-nccl-cu12==2.21.5; platform_system == "Linux"',
)


def hardware_rules(report: Mapping[str, Any]) -> dict[str, str]:
    return {f["rule"]: f["status"] for f in report["findings"] if f["rule"] in RULES}


def test_doctor_flags_the_pypi_torch_211_on_an_r535_a100_box(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "torch", "2.11.0", requires=TORCH_211_REQUIRES)
    code, report = doctor_report(site, hardware=profile_file(tmp_path, A100X8_R535, "profile.json"))
    assert hardware_rules(report) == {CUDA13_OLD_DRIVER: "affected"}
    assert code == 1
    found = next(f for f in report["findings"] if f["rule"] == CUDA13_OLD_DRIVER)
    assert found["packages"] == [] or all(p["name"] == "torch" for p in found["packages"])
    assert report["hardware"]["driver_version"] == "535.104.05"


def test_doctor_is_quiet_about_hardware_on_a_cpu_only_runner(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "torch", "2.11.0", requires=TORCH_211_REQUIRES)
    make_dist(site, "flash-attn", "2.5.8")
    make_dist(site, "bitsandbytes", "0.43.1")
    code, report = doctor_report(site, hardware=profile_file(tmp_path, CPU_ONLY, "profile.json"))
    assert hardware_rules(report) == {}
    assert code == 0


def test_doctor_on_two_rtx_5090s_with_torch_26(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "torch", "2.6.0", requires=TORCH_260_REQUIRES)
    make_dist(site, "nvidia-cuda-runtime-cu12", "12.4.127")
    make_dist(site, "nvidia-nccl-cu12", "2.21.5")
    code, report = doctor_report(
        site, hardware=profile_file(tmp_path, RTX5090X2_R570, "profile.json")
    )
    assert hardware_rules(report) == {NO_KERNEL: "affected", NCCL_5090: "affected"}
    assert code == 1
