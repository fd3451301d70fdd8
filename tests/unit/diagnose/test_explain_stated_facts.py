"""Every fact a message states is a fact, whichever rule asks (issue 40): the cuDNN versions
torch's check prints decide between its rules, the GPU and dtype vLLM's bf16 check names settle
the bf16 rule, the NumPy numba's check found is the installed NumPy. Real wordings of two
releases or formats each; judged through the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

SAME_MAJOR = "cudnn-runtime-older-than-torch-build"
OTHER_MAJOR = "cudnn-runtime-other-major-than-torch-build"


def explain(tmp_path: Path, text: str) -> dict[str, Any]:
    log = tmp_path / "run.log"
    log.write_text(text)
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def by_rule(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["rule"]: m for m in document["matches"]}


def asked(match: dict[str, Any]) -> list[str]:
    return [str(u).split(" — ")[0] for u in match["unknown"]]


@pytest.mark.parametrize(
    ("message", "first", "outside"),
    [
        # torch 1.12-2.4: two spaces before "against" (pytorch#81881, kohya_ss#1096; the 1.12.1
        # and 2.4.0 wheels' torch/backends/cudnn/__init__.py, audit 7 B2)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 7, 0) "
            "but found runtime version (8, 2, 4). PyTorch already comes bundled with cuDNN. One "
            "option to resolving this error is to ensure PyTorch can find the bundled cuDNN.",
            SAME_MAJOR,
            OTHER_MAJOR,
        ),
        # torch 1.6-1.11's wording, tuples (pytorch/functorch#926; the 1.6.0-1.11.0 wheels)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) "
            "but linked against (8, 0, 3)",
            SAME_MAJOR,
            OTHER_MAJOR,
        ),
        # before 1.6: integers (VisionLearningGroup/DA_Detection#19)
        (
            "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked "
            "against 7600",
            OTHER_MAJOR,  # neither: 7.6 is newer, and the same major
            OTHER_MAJOR,
        ),
        # torch 1.6-1.11 built for cuDNN 8, a cuDNN 7 found first (the 1.11.0 wheel's wording)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 2, 0) "
            "but linked against (7, 6, 5)",
            OTHER_MAJOR,
            SAME_MAJOR,
        ),
        # torch 2.4+ built for cuDNN 9, a cuDNN 8 found first
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 1, 0) "
            "but found runtime version (8, 9, 7). PyTorch already comes bundled with cuDNN.",
            OTHER_MAJOR,
            SAME_MAJOR,
        ),
    ],
)
def test_the_cudnn_versions_the_message_prints_decide(
    tmp_path: Path, message: str, first: str, outside: str
) -> None:
    document = explain(tmp_path, f"Traceback (most recent call last):\n  x = 1\n{message}\n")
    rules = by_rule(document)
    assert rules[outside]["verdict"] == "outside-range"
    if message.endswith("7600"):  # a newer runtime of the same major: not these rules' cause
        assert rules[SAME_MAJOR]["verdict"] == "outside-range"
        return
    top = document["matches"][0]
    assert (top["rule"], top["verdict"], top["line"]) == (first, "confirmed", 3)
    assert asked(top) == []


@pytest.mark.parametrize(
    ("message", "gpu"),
    [
        # vLLM 0.2 (config.py _get_and_verify_dtype)
        (
            "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
            "8.0. Your Tesla T4 GPU has compute capability 7.5.",
            "Tesla T4",
        ),
        # vLLM 0.4+ (worker.py _check_if_gpu_supports_dtype), with the float16 hint
        (
            "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
            "8.0. Your Tesla V100-SXM2-16GB GPU has compute capability 7.0. You can use float16 "
            "instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half.",
            "Tesla V100-SXM2-16GB",
        ),
    ],
)
def test_the_gpu_and_dtype_vllm_names_settle_bf16(tmp_path: Path, message: str, gpu: str) -> None:
    top = explain(tmp_path, message + "\n")["matches"][0]
    assert (top["rule"], top["verdict"]) == ("bf16-needs-ampere", "confirmed")
    assert asked(top) == []
    used = {f["fact"]: f["value"] for f in top["facts"]}
    assert gpu in used["hardware.compute_capability"]
    assert used["usage.mixed_precision"] == "bf16"


def test_a_refusal_without_the_gpu_asks_only_the_gpu(tmp_path: Path) -> None:
    # transformers' check names the dtype, not the GPU
    top = explain(
        tmp_path,
        "ValueError: Your setup doesn't support bf16/gpu. You need torch>=1.10, using Ampere "
        "GPU with cuda>=11.0\n",
    )["matches"][0]
    assert (top["rule"], top["verdict"]) == ("bf16-needs-ampere", "symptom-only")
    assert asked(top) == ["hardware.compute_capability"]


def test_the_numpy_numba_found_is_the_installed_numpy(tmp_path: Path) -> None:
    # numba 0.60's check (numba/__init__.py _ensure_critical_deps), NumPy 2.2 installed
    document = explain(
        tmp_path,
        "numba==0.60.0\nTraceback (most recent call last):\n  import numba\n"
        "ImportError: Numba needs NumPy 2.0 or less. Got NumPy 2.2.\n",
    )
    top = document["matches"][0]
    assert (top["rule"], top["verdict"]) == ("numba-0.60-numpy-2.1", "confirmed")
    used = {f["fact"]: (f["value"], f["line"]) for f in top["facts"]}
    assert used["packages.numpy"] == ("2.2", 4)


LOADER_RULE = "extension-built-for-another-cuda-major"


@pytest.mark.parametrize(
    ("torch", "missing", "verdict"),
    [
        # vLLM 0.21's _C linked against CUDA 13 (vllm#52300) beside a CUDA 12.8 torch
        ("2.10.0+cu128", "libcudart.so.13", "confirmed"),
        # an extension built for CUDA 11 beside a CUDA 12 torch (vllm#3387's message)
        ("2.2.1+cu121", "libcudart.so.11.0", "confirmed"),
        ("2.1.2+cu118", "libcublasLt.so.12", "confirmed"),
        # the same major: the library is missing, not another build's
        ("2.1.2+cu121", "libcudart.so.12", "outside-range"),
    ],
)
def test_the_soname_major_against_torchs_cuda_build(
    tmp_path: Path, torch: str, missing: str, verdict: str
) -> None:
    text = (
        f"torch=={torch}\nTraceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.10/dist-packages/vllm/__init__.py", line 3, in <module>\n'
        "    from vllm._C import ops\n"
        f"ImportError: {missing}: cannot open shared object file: No such file or directory\n"
    )
    rules = by_rule(explain(tmp_path, text))
    assert (rules[LOADER_RULE]["verdict"], rules[LOADER_RULE]["line"]) == (verdict, 5)
    if verdict == "confirmed":
        assert explain(tmp_path, text)["matches"][0]["rule"] == LOADER_RULE


def test_the_soname_without_torchs_build_asks_for_it(tmp_path: Path) -> None:
    text = (
        "ImportError: libcudart.so.13: cannot open shared object file: No such file or directory\n"
    )
    rules = by_rule(explain(tmp_path, text))
    assert rules[LOADER_RULE]["verdict"] == "symptom-only"
    assert asked(rules[LOADER_RULE]) == ["packages.torch"]


NO_KERNEL = "torch-no-kernel-image-for-gpu"


@pytest.mark.parametrize(
    ("warning", "verdict"),
    [
        # torch 2.9.1 on a DGX Spark (pytorch#172629): sm_120 SASS runs on 12.1, a false alarm
        (
            "UserWarning:\n    Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n"
            "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
            "    (8.0) - (12.0)\n",
            "outside-range",
        ),
        # the same warning on one line (eugr/spark-vllm-docker#15)
        (
            "Found GPU0 NVIDIA GB10 which is of cuda capability 12.1. Minimum and Maximum cuda "
            "capability supported by this version of PyTorch is (8.0) - (12.0)\n",
            "outside-range",
        ),
        # a Pascal GPU under a (7.0) - (12.0) build: below its lowest architecture
        (
            "UserWarning:\n    Found GPU0 Tesla P100-PCIE-16GB which is of cuda capability 6.0.\n"
            "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
            "    (7.0) - (12.0)\n",
            "confirmed",
        ),
    ],
)
def test_torch_2_8s_supported_range(tmp_path: Path, warning: str, verdict: str) -> None:
    document = explain(tmp_path, "torch==2.9.1\n" + warning)
    rule = by_rule(document)[NO_KERNEL]
    assert rule["verdict"] == verdict
    assert asked(rule) == []


REQUIREMENT = "release-requirement-check-unmet"


@pytest.mark.parametrize(
    ("text", "verdict", "unknown"),
    [
        # transformers 4.51's Trainer check, accelerate 0.25.0 in the log's pip list
        (
            "Package      Version\n------------ -------\naccelerate   0.25.0\n"
            "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`: Please "
            "run `pip install transformers[torch]` or `pip install 'accelerate>=0.26.0'`\n",
            "confirmed",
            [],
        ),
        # the same check, no accelerate version in the log: the one question
        (
            "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`: Please "
            "run `pip install transformers[torch]` or `pip install 'accelerate>=0.26.0'`\n",
            "symptom-only",
            ["packages.accelerate"],
        ),
        # utils/versions.py require_version prints both sides
        (
            "ImportError: accelerate>=0.26.0 is required for a normal functioning of this module, "
            "but found accelerate==0.21.0.\n",
            "confirmed",
            [],
        ),
        # the version the log prints meets it: the message is another environment's
        (
            "accelerate==1.2.1\nImportError: Using the `Trainer` with `PyTorch` requires "
            "`accelerate>=0.26.0`: Please run `pip install transformers[torch]`\n",
            "outside-range",
            [],
        ),
    ],
)
def test_a_requirement_the_check_prints_is_a_fact(
    tmp_path: Path, text: str, verdict: str, unknown: list[str]
) -> None:
    rules = by_rule(explain(tmp_path, text))
    assert rules[REQUIREMENT]["verdict"] == verdict
    assert asked(rules[REQUIREMENT]) == unknown
    assert rules[REQUIREMENT]["line"] == text.count("\n")


TRAINER_ACCEL = "transformers-trainer-needs-accelerate"
TRAINER_LINE = (
    "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>={floor}`: Please run "
    "`pip install transformers[torch]` or `pip install 'accelerate>={floor}'`\n"
)


def test_the_releases_own_rule_confirmed_sets_the_generic_one_apart(tmp_path: Path) -> None:
    # transformers 4.56's floor: the rule about its releases names the cause and the fix
    text = "transformers 4.56.0\naccelerate 0.25.0\n" + TRAINER_LINE.format(floor="0.26.0")
    document = explain(tmp_path, text)
    assert [m["rule"] for m in document["matches"]] == [TRAINER_ACCEL]
    assert by_rule(document)[TRAINER_ACCEL]["verdict"] == "confirmed"
    apart = {u["rule"]: u for u in document["unrelated"]}
    assert TRAINER_ACCEL in apart[REQUIREMENT]["reason"]
    assert apart[REQUIREMENT]["line"] == 3


def test_a_release_the_specific_rule_does_not_cover_keeps_the_generic_one(tmp_path: Path) -> None:
    # transformers 4.30 required accelerate>=0.20.1: outside the specific rule, the message decides
    text = "transformers 4.30.2\naccelerate 0.19.0\n" + TRAINER_LINE.format(floor="0.20.1")
    rules = by_rule(explain(tmp_path, text))
    assert rules[REQUIREMENT]["verdict"] == "confirmed"
    assert rules[TRAINER_ACCEL]["verdict"] == "outside-range"


@pytest.mark.parametrize(
    ("gpu", "verdict"),
    [
        # pytorch#172629 (2026-08): the warning is wrong for a GB10, the cu130 build runs on it
        ("NVIDIA GB10 which is of compute capability (CC) 12.1", "outside-range"),
        # a Pascal GPU: CUDA 13 builds carry nothing before Turing
        ("Tesla P100-PCIE-16GB which is of compute capability (CC) 6.0", "confirmed"),
    ],
)
def test_torch_2_13s_capability_warning(tmp_path: Path, gpu: str, verdict: str) -> None:
    text = (
        f"UserWarning: Found GPU0 {gpu}.\n"
        "Your installed torch==2.13.0+cu130 does not include kernels for this GPU.\n"
    )
    rule = by_rule(explain(tmp_path, text))[NO_KERNEL]
    assert (rule["verdict"], rule["line"]) == (verdict, 1)
    assert asked(rule) == []


@pytest.mark.parametrize(
    "log",
    [
        # torch 2.8-2.10's _check_capability on a GB10 (12.1) beside a build with sm_120 SASS,
        # which runs there (pytorch#164708: the warning fires on served GPUs)
        "[pip3] torch==2.9.1+cu130\n"
        "UserWarning: \n"
        "    Found GPU0 NVIDIA GB10 which is of cuda capability 12.1.\n"
        "    Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
        "    (8.0) - (12.0)\n",
        # torch 2.11+'s wording, the same false warning (pytorch#172629)
        "UserWarning: Found GPU0 NVIDIA GB10 which is of compute capability (CC) 12.1.\n"
        "Your installed torch==2.13.0+cu130 does not include kernels for this GPU.\n",
    ],
)
def test_a_capability_warning_on_a_served_gpu_is_not_a_finding(tmp_path: Path, log: str) -> None:
    rules = by_rule(explain(tmp_path, log))
    assert rules["torch-no-kernel-image-for-gpu"]["verdict"] == "outside-range"
    assert not [m for m in rules.values() if m["verdict"] in ("confirmed", "affected")]
