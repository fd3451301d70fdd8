"""`compat explain` on what frameworks print about the machine (issue #25): torch's capability
warning, the CUDA runtime's "driver too old (found version N)", NCCL's version, bitsandbytes'
library name, xFormers' "built for", Inductor's triton_key import. Real logs from public threads
(tests/data/logs, PROVENANCE.md), judged through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
NO_KERNEL = "torch-no-kernel-image-for-gpu"
NCCL = "nccl-before-2.26.2-on-rtx-5090"
BNB = "bitsandbytes-no-library-for-torch-cuda"
XFORMERS = "xformers-torch-pin-mismatch"
TRITON = "torch-triton-series-mismatch"


def explain(path: Path) -> tuple[int, dict[str, object]]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert document["schema"] == "compat.explain/1"
    return result.exit_code, document


def facts_of(document: dict[str, object]) -> dict[tuple[str, str], tuple[str, int]]:
    facts = document["facts"]
    assert isinstance(facts, list)
    return {(f["kind"], f["key"]): (f["value"], f["line"]) for f in facts}


@pytest.mark.parametrize(
    ("log", "rule", "verdict", "line"),
    [
        # torch names the GPU (sm_120) and its build's list (sm_50 ... sm_90): settled.
        ("sdwebui-nix-9-rtx5090-sm120.log", NO_KERNEL, "confirmed", 2),
        # The driver supports CUDA 11.0; the build's CUDA is not shown.
        (
            "yuan2-65-driver-found-version-11000.log",
            "cuda12-build-below-driver-floor",
            "symptom-only",
            1,
        ),
        # The library's name gives torch's CUDA (12.9), nothing gives the bitsandbytes release.
        ("bitsandbytes-1688-cuda129-library.log", BNB, "symptom-only", 1),
        # Two RTX 5090s named by nccl-tests, NCCL 2.25.1 as NCCL prints it.
        ("nccl-tests-287-rtx5090-nccl-2.25.1.log", NCCL, "confirmed", 10),
        # NCCL 2.25.1 on the error line; the GPUs are not shown.
        ("diffusion-pipe-154-nccl-2.25.1.log", NCCL, "symptom-only", 1),
        ("deforum-377-xformers-built-for-2.2.0.log", XFORMERS, "confirmed", 1),
        # Built for 2.1.2+cu121, 2.1.2+cpu installed: the same release, so xFormers' own build
        # line settles the pin rule as not the cause (settled_by build), without its version;
        # the cause is the build: a CUDA extension beside a CPU torch (the maintainer's answer).
        ("pia-30-xformers-cpu-torch.log", "xformers-built-for-another-torch-build", "confirmed", 2),
        ("coreweave-64-triton-key.log", TRITON, "symptom-only", 3),
        # torch 2.4 pins triton 3.0; triton 2.3 has no triton_key (audit 6 row 2.7)
        ("composed-triton-key-torch-2.4.log", TRITON, "confirmed", 8),
        # torch 2.2 with triton 2.3: get_cuda_stream, which triton 2.3 removed (pytorch#120199)
        ("composed-get-cuda-stream-torch-2.2.log", TRITON, "confirmed", 8),
    ],
)
def test_machine_messages_rank_the_right_rule_first(
    log: str, rule: str, verdict: str, line: int
) -> None:
    code, document = explain(LOGS / log)
    matches = document["matches"]
    assert isinstance(matches, list)
    assert (matches[0]["rule"], matches[0]["verdict"], matches[0]["line"]) == (rule, verdict, line)
    text = (LOGS / log).read_bytes().split(b"\n")[line - 1].decode()
    assert matches[0]["text"] in text
    assert code == (1 if verdict == "outside-range" else 0)  # 1: no known cause


def test_the_capability_warning_is_the_gpu_and_the_build_list() -> None:
    _, document = explain(LOGS / "sdwebui-nix-9-rtx5090-sm120.log")
    facts = facts_of(document)
    assert facts[("gpu_seen", "0")] == ("NVIDIA GeForce RTX 5090", 2)
    assert facts[("compute_capability", "0")] == ("12.0", 2)
    assert facts[("arch_list", "torch")] == ("sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", 3)
    matches = document["matches"]
    assert isinstance(matches, list)
    # The log never mentions flash-attn: FlashAttention-3's rule, sharing "no kernel image",
    # is not a cause the log shows (issue 40), and says why.
    assert [m["rule"] for m in matches] == [NO_KERNEL]
    unrelated = {u["rule"]: u["reason"] for u in document["unrelated"]}  # type: ignore[union-attr]
    assert "never mentions flash-attn-3" in unrelated["flash-attention-3-before-ampere"]
    used = {f["fact"]: f["line"] for f in matches[0]["facts"]}
    assert used["hardware.compute_capability"] == 2 and used["build.torch_arch_list"] == 3


def test_a_build_list_with_the_gpu_is_outside_the_rule(tmp_path: Path) -> None:
    """The same warning format with sm_120 in the list: the build has kernels, not this cause."""
    log = tmp_path / "listed.log"
    text = (LOGS / "sdwebui-nix-9-rtx5090-sm120.log").read_text()
    log.write_text(text.replace("sm_86 sm_90.", "sm_86 sm_90 sm_100 sm_120."))
    _, document = explain(log)
    verdicts = {m["rule"]: m["verdict"] for m in document["matches"]}  # type: ignore[union-attr]
    assert verdicts[NO_KERNEL] == "outside-range"


def test_found_version_is_the_drivers_cuda_never_the_builds() -> None:
    code, document = explain(LOGS / "yuan2-65-driver-found-version-11000.log")
    facts = facts_of(document)
    assert facts[("cuda_driver", "cuda_driver")] == ("11.0", 1)
    assert not any(kind == "build" for kind, _ in facts)  # no build CUDA was printed
    matches = document["matches"]
    assert isinstance(matches, list)
    assert all(m["verdict"] == "symptom-only" for m in matches)
    # cuda_driver 11.0 holds for the CUDA 12 and 13 floors; the CUDA 11 floor needs the driver
    assert [m["rule"] for m in matches][-1] == "cuda11-build-below-driver-floor"
    assert document["indistinct"] == [
        {
            "rules": ["cuda12-build-below-driver-floor", "cuda13-build-on-pre-580-driver"],
            "line": 1,
            # the driver's CUDA 11.0 answers the driver question for both: the build decides
            "deciding": ["build.cuda_runtime", "build.torch_cuda"],
        }
    ]
    used = {f["fact"]: (f["value"], f["line"]) for f in matches[0]["facts"]}
    assert used["hardware.cuda_driver"] == ("11.0 (the driver's CUDA version)", 1)
    result = run_cli(["explain", str(LOGS / "yuan2-65-driver-found-version-11000.log")])
    assert "cannot tell apart (line 1): cuda12-build-below-driver-floor, " in result.stdout
    assert code == 0


def test_driver_cuda_and_build_cuda_stay_apart(tmp_path: Path) -> None:
    """A collect_env report (the build's CUDA, one GPU) above the driver message: a CUDA 13.0
    build on a driver that supports 12.4 is the CUDA 13 rule, confirmed from the log alone."""
    log = tmp_path / "both.log"
    log.write_text(
        "PyTorch version: 2.11.0+cu130\n"
        "CUDA used to build PyTorch: 13.0\n"
        "GPU models and configuration: GPU 0: NVIDIA A100-SXM4-80GB\n"
        "RuntimeError: The NVIDIA driver on your system is too old (found version 12040). "
        "Please update your GPU driver\n"
    )
    _, document = explain(log)
    facts = facts_of(document)
    assert facts[("cuda_driver", "cuda_driver")] == ("12.4", 4)
    assert facts[("build", "torch_cuda")] == ("13.0", 2)
    matches = document["matches"]
    assert isinstance(matches, list)
    assert (matches[0]["rule"], matches[0]["verdict"]) == (
        "cuda13-build-on-pre-580-driver",
        "confirmed",
    )
    # the CUDA 12 floor's torch branches are out (13.0); only a CUDA 12 runtime wheel, which
    # the log does not list, would leave it open: never above the confirmed cause
    cuda12 = next(m for m in matches if m["rule"] == "cuda12-build-below-driver-floor")
    assert cuda12["verdict"] == "symptom-only"
    assert "build.cuda_runtime" in [u.split(" — ")[0] for u in cuda12["unknown"]]


def test_a_library_name_is_torchs_cuda_and_unknown_is_never_outside_range(
    tmp_path: Path,
) -> None:
    source = LOGS / "bitsandbytes-1688-cuda129-library.log"
    _, document = explain(source)
    assert facts_of(document)[("build", "torch_cuda")] == ("12.9", 8)
    match = document["matches"][0]  # type: ignore[index]
    assert match["verdict"] == "symptom-only"
    assert [u.split(" — ")[0] for u in match["unknown"]] == ["packages.bitsandbytes"]
    # The release shown settles it, both ways (0.46.1 is the first with libbitsandbytes_cuda129).
    for release, verdict in (("0.45.0", "confirmed"), ("0.46.1", "outside-range")):
        log = tmp_path / f"bnb-{release}.log"
        log.write_text(f"bitsandbytes=={release}\n" + source.read_text())
        _, document = explain(log)
        assert document["matches"][0]["verdict"] == verdict  # type: ignore[index]


def test_nccl_version_and_devices_as_nccl_prints_them(tmp_path: Path) -> None:
    source = LOGS / "nccl-tests-287-rtx5090-nccl-2.25.1.log"
    _, document = explain(source)
    facts = facts_of(document)
    assert facts[("build", "nccl")] == ("2.25.1", 9)
    assert facts[("cuda_driver", "cuda_driver")] == ("12.8", 8)
    assert facts[("gpu_seen", "0")] == ("NVIDIA GeForce RTX 5090", 5)
    assert facts[("gpu_seen", "1")] == ("NVIDIA GeForce RTX 5090", 6)
    fixed = tmp_path / "fixed.log"
    fixed.write_text(source.read_text().replace("NCCL version 2.25.1", "NCCL version 2.26.2"))
    code, document = explain(fixed)
    assert document["matches"][0]["verdict"] == "outside-range"  # type: ignore[index]
    assert code == 1


def test_triton_key_with_the_pinned_series_is_outside_the_rule(tmp_path: Path) -> None:
    log = tmp_path / "pinned.log"
    text = (LOGS / "composed-triton-key-torch-2.4.log").read_text()
    log.write_text(text.replace("2.3.0", "3.0.0"))
    code, document = explain(log)
    assert document["matches"][0]["verdict"] == "outside-range"  # type: ignore[index]
    assert code == 1


@pytest.mark.parametrize(
    ("shown", "verdict", "unknown"),
    [
        # the message names NumPy 2.0.0 (issue 34): only which package is the old build is open
        ("", "symptom-only", ["packages"]),
        # scipy 1.13.1 is a NumPy-2 build: a package the log does not list may be the old one
        ("numpy==2.0.0\nscipy==1.13.1\n", "symptom-only", ["packages"]),
        ("numpy==2.0.0\nscipy==1.12.0\n", "confirmed", []),
        # the warning is printed by the NumPy that runs (2.0.0): a listed 1.26.4 is not it
        ("numpy==1.26.4\n", "symptom-only", ["packages"]),
    ],
)
def test_table_rules_on_a_log_stay_three_valued(
    tmp_path: Path, shown: str, verdict: str, unknown: list[str]
) -> None:
    log = tmp_path / "numpy.log"
    log.write_text(
        shown + "A module that was compiled using NumPy 1.x cannot be run in\n"
        "NumPy 2.0.0 as it may crash. To support both 1.x and 2.x\n"
    )
    _, document = explain(log)
    match = next(
        m
        for m in document["matches"]  # type: ignore[union-attr]
        if m["rule"] == "numpy1-build-beside-numpy2"
    )
    assert match["verdict"] == verdict
    assert [u.split(" — ")[0] for u in match["unknown"]] == unknown


@pytest.mark.parametrize(
    ("shown", "verdict", "unknown"),
    [
        ("", "symptom-only", ["packages.torch"]),  # torch printed it: present, release unknown
        ("torch==2.1.0\n", "symptom-only", ["build.torch_cuda"]),  # which index's build?
        ("torch==2.1.0+cu121\n", "confirmed", []),  # sm_50 and up: nothing for a K80
    ],
)
def test_torchs_old_gpu_warning(
    tmp_path: Path, shown: str, verdict: str, unknown: list[str]
) -> None:
    """torch's warning for a GPU below its build's minimum (the format of torch/cuda/__init__.py)."""
    log = tmp_path / "k80.log"
    log.write_text(
        shown + "    Found GPU0 Tesla K80 which is of cuda capability 3.7.\n"
        "    PyTorch no longer supports this GPU because it is too old.\n"
        "    The minimum cuda capability supported by this library is 5.0.\n"
    )
    _, document = explain(log)
    facts = facts_of(document)
    first = 1 + shown.count("\n")
    assert facts[("gpu_seen", "0")] == ("Tesla K80", first)
    assert facts[("compute_capability", "0")] == ("3.7", first)
    match = document["matches"][0]  # type: ignore[index]
    assert (match["rule"], match["verdict"], match["line"]) == (NO_KERNEL, verdict, first + 1)
    assert [u.split(" — ")[0] for u in match["unknown"]] == unknown


def test_nvcc_as_the_toolkit_prints_it(tmp_path: Path) -> None:
    log = tmp_path / "nvcc.log"
    log.write_text(
        "nvcc: NVIDIA (R) Cuda compiler driver\n"
        "Cuda compilation tools, release 12.4, V12.4.99\n"
        "Build cuda_12.4.r12.4/compiler.33961263_0\n"
    )
    _, document = explain(log)
    assert facts_of(document)[("build", "nvcc")] == ("12.4", 2)
