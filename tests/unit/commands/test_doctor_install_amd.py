"""`compat doctor --install` on a machine whose GPUs are all AMD's (issue 43): an install that
replaces torch's ROCm build with PyPI's CUDA build introduces torch-cuda-build-on-amd-gpu, and
the way out names the ROCm build compat's pin would choose (compat/data/torch-rocm-arch.json: the
builds PyTorch's ROCm indexes serve for the release, judged by the GPU's target), or, where the
table has no row for the release, says that this is the fact missing; never a CUDA build.

Through the CLI as a subprocess: a real venv holding real dist-info directories, a package index
on 127.0.0.1 serving small real wheels, the real pip asked for the dry run, and the MI300X
example profile (docs/examples/hardware/amd-mi300x-8.json)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_subprocess
from tests.dists import make_dist
from tests.indexserver import Dist, IndexServer
from tests.lib.paths import REPO

pytestmark = pytest.mark.usefixtures("resolver_env")

MI300X = REPO / "docs" / "examples" / "hardware" / "amd-mi300x-8.json"
RULE = "torch-cuda-build-on-amd-gpu"
CUDA_121 = ["nvidia-cuda-runtime-cu12==12.1.105; platform_system == 'Linux'"]


def _venv(root: Path, torch: str) -> Path:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = next((root / "lib").glob("python3*/site-packages"))
    make_dist(site, "torch", torch, requires=["filelock"])
    make_dist(site, "filelock", "3.16.1")
    return root / "bin" / "python"


def _install(python: Path, projects: dict[str, list[Dist]], spec: str) -> dict[str, Any]:
    with IndexServer(projects) as server:
        env = {"PIP_INDEX_URL": server.url}
        result = run_subprocess(
            ["doctor", "--python", str(python), "--hardware", str(MI300X), "--resolver", "pip",
             "--install", spec, "--format", "json"],
            env=env,
        )  # fmt: skip
    assert result.exit_code == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    document: dict[str, Any] = result.json()
    assert RULE in document["install"]["new"]
    return document


def _index(torch: str, vllm: str) -> dict[str, list[Dist]]:
    # PyPI's layout: the plain torch release is the CUDA build (its nvidia-* requirements)
    return {
        "vllm": [Dist("vllm", vllm, requires=[f"torch=={torch}"])],
        "torch": [Dist("torch", torch, requires=["filelock", *CUDA_121])],
        "filelock": [Dist("filelock", "3.16.1")],
        "nvidia-cuda-runtime-cu12": [Dist("nvidia-cuda-runtime-cu12", "12.1.105")],
    }


def test_the_way_out_names_the_rocm_build_pin_chooses(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv", "2.4.1+rocm6.1")
    document = _install(python, _index("2.4.0", "0.6.0"), "vllm==0.6.0")
    torch = next(c for c in document["install"]["changes"] if c["name"] == "torch")
    assert torch["after"]["version"] == "2.4.0"
    way = document["install"]["way_out"]
    text = json.dumps(way)
    # PyTorch's ROCm builds of 2.4.0 (pytorch/builder release/2.4: rocm6.0 and rocm6.1, both
    # with gfx942): the newest, from its own index
    assert "torch==2.4.0+rocm6.1 from https://download.pytorch.org/whl/rocm6.1" in text, text
    assert "it carries code for gfx942" in text
    assert "+cu" not in text and "driver-compatible" not in text


def test_a_release_without_a_row_says_which_fact_is_missing(tmp_path: Path) -> None:
    python = _venv(tmp_path / "venv", "2.4.1+rocm6.1")
    document = _install(python, _index("2.6.0", "0.8.0"), "vllm==0.8.0")
    way = document["install"]["way_out"]
    text = json.dumps(way)
    assert way["constraints"] == [] and way["verified"] is False
    assert "no row for 2.6" in text, text
    assert "download.pytorch.org/whl/rocm" not in text  # no build is guessed
    assert "+cu" not in text
