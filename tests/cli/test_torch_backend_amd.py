"""torch-cuda-build-on-amd-gpu: a CUDA build of torch (PyPI's Linux wheel, a +cuXYZ label, the
installed torch's CUDA runtime requirements) on a machine whose GPUs are all AMD's is a finding
in check and doctor; a ROCm build fact (label, a PyTorch ROCm index line, torch/version.py's
hip) clears it; an NVIDIA machine is never judged by it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_subprocess
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.paths import REPO

HARDWARE = REPO / "docs" / "examples" / "hardware"
MI300X = HARDWARE / "amd-mi300x-8.json"
RULE = "torch-cuda-build-on-amd-gpu"


def _nvidia(tmp_path: Path) -> Path:
    path = tmp_path / "h100.json"
    path.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": "570.133.20",
                "cuda_driver_version": "12.8",
                "gpus": [
                    {"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}
                ],
                "platform": "linux/x86_64",
            }
        ),
        encoding="utf-8",
    )
    return path


def _rules(result_json: dict[str, object]) -> dict[str, dict[str, object]]:
    findings = result_json["findings"]
    assert isinstance(findings, list)
    return {f["rule"]: f for f in findings}


def _check(requirements: Path, profile: Path, *extra: str) -> dict[str, object]:
    result = run_subprocess(
        ["check", *extra, "--hardware", str(profile), "--format", "json", str(requirements)]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report: dict[str, object] = result.json()
    return report


def test_pypis_torch_on_an_amd_machine(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.6.0\n", encoding="utf-8")
    hit = _rules(_check(requirements, MI300X, "--offline"))[RULE]
    assert hit["status"] == "affected"
    text = json.dumps(hit)
    assert "the CUDA 12.4 build (PyPI's Linux wheel)" in text
    assert "finds no GPU on 8x AMD Instinct MI300X (gfx942) (torch" in text
    assert "GPU(s)" not in text
    # the same file for an H100: PyPI's CUDA build is the right one
    assert RULE not in _rules(_check(requirements, _nvidia(tmp_path), "--offline"))


def test_a_cuda_label_and_a_rocm_label(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.5.1+cu121\n", encoding="utf-8")
    assert _rules(_check(requirements, MI300X, "--offline"))[RULE]["status"] == "affected"
    requirements.write_text("torch==2.4.1+rocm6.1\n", encoding="utf-8")
    assert RULE not in _rules(_check(requirements, MI300X, "--offline"))


def test_a_rocm_index_line_serves_the_rocm_build(tmp_path: Path) -> None:
    # the PyTorch ROCm index's layout (/whl/rocm6.2.4/<project>/) on 127.0.0.1: its
    # 2.6.0+rocm6.2.4 outranks PyPI's plain 2.6.0 for `torch==2.6.0`
    projects = {"torch": [Dist("torch", "2.6.0")]}
    rocm = {"torch": [Dist("torch", "2.6.0+rocm6.2.4")]}
    with IndexServer(projects, roots={"rocm6.2.4": rocm}) as index:
        requirements = tmp_path / "requirements.txt"
        requirements.write_text(
            f"--index-url {index.url}\n--extra-index-url {index.base}/rocm6.2.4\ntorch==2.6.0\n",
            encoding="utf-8",
        )
        report = _check(requirements, MI300X, "--verbose")
    assert RULE not in _rules(report)
    assert "torch's ROCm build 6.2: from the PyTorch ROCm index" in json.dumps(report)


def test_doctor_on_installed_builds(tmp_path: Path) -> None:
    cuda = tmp_path / "cuda"
    make_dist(
        cuda,
        "torch",
        "2.6.0",
        requires=['nvidia-cuda-runtime-cu12==12.4.127; platform_system == "Linux"'],
    )
    args = ["doctor", "--hardware", str(MI300X), "--format", "json", "--path"]
    result = run_subprocess([*args, str(cuda)])
    assert result.exit_code == 1, result.stderr
    assert _rules(result.json())[RULE]["status"] == "affected"
    rocm = make_env(tmp_path / "rocm", {"torch": "2.6.0+rocm6.2.4"})
    result = run_subprocess([*args, str(rocm)])
    assert RULE not in _rules(result.json())
    result = run_subprocess(
        ["doctor", "--hardware", str(_nvidia(tmp_path)), "--format", "json", "--path", str(cuda)]
    )
    assert RULE not in _rules(result.json())


def _check_env(requirements: Path, profile: Path, env: dict[str, str], *extra: str) -> set[str]:
    result = run_subprocess(
        ["check", "--offline", *extra, "--hardware", str(profile), "--format", "json",
         str(requirements)],
        env=env,
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    return set(_rules(result.json()))


def test_the_index_flag_and_uvs_torch_backend(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.6.0\n", encoding="utf-8")
    plain = {"UV_TORCH_BACKEND": ""}
    rocm_index = ("-i", "https://download.pytorch.org/whl/rocm6.2.4")
    assert RULE not in _check_env(requirements, MI300X, plain, *rocm_index)
    # uv's backend: `auto` picks a ROCm index on AMD GPUs (uv 0.7.14), `rocm6.2` names one
    assert RULE not in _check_env(requirements, MI300X, {"UV_TORCH_BACKEND": "auto"})
    assert RULE not in _check_env(requirements, MI300X, {"UV_TORCH_BACKEND": "rocm6.2"})
    # a CUDA backend is still PyPI's CUDA build here
    assert RULE in _check_env(requirements, MI300X, {"UV_TORCH_BACKEND": "cu126"})
    # a CUDA index flag: the CUDA build
    cuda_index = ("-i", "https://download.pytorch.org/whl/cu126")
    assert RULE in _check_env(requirements, MI300X, plain, *cuda_index)
