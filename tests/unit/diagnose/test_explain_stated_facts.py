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
        # torch 1.13-2.3: two spaces before "against" (pytorch#81881, kohya_ss#1096)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 7, 0) "
            "but found runtime version (8, 2, 4). PyTorch already comes bundled with cuDNN. One "
            "option to resolving this error is to ensure PyTorch can find the bundled cuDNN.",
            SAME_MAJOR,
            OTHER_MAJOR,
        ),
        # torch 1.12's wording (pytorch/functorch#926)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) "
            "but linked against (8, 0, 3)",
            SAME_MAJOR,
            OTHER_MAJOR,
        ),
        # before 1.12: integers (VisionLearningGroup/DA_Detection#19)
        (
            "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked "
            "against 7600",
            OTHER_MAJOR,  # neither: 7.6 is newer, and the same major
            OTHER_MAJOR,
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
