"""torch-cuda-build-on-amd-gpu names the ROCm build to install (issue 43): the build of the same
torch release that compat's pin chooses for the GPUs' targets (compat/data/torch-rocm-arch.json;
the machine's own ROCm major first, newest first) and the PyTorch index serving it, or, where the
table has no row for the release or no build of it carries the targets, that missing fact; never
a guessed index. Through the CLI on real dist-info directories and the example AMD profiles."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_subprocess
from tests.dists import make_dist
from tests.lib.paths import REPO

HARDWARE = REPO / "docs" / "examples" / "hardware"
RULE = "torch-cuda-build-on-amd-gpu"
CUDA_121 = ['nvidia-cuda-runtime-cu12==12.1.105; platform_system == "Linux"']


def _cuda_torch(site: Path, version: str) -> Path:
    make_dist(site, "torch", version, requires=CUDA_121)
    make_dist(site, "nvidia-cuda-runtime-cu12", "12.1.105")
    return site


def _said(profile: str, site: Path) -> str:
    result = run_subprocess(
        ["doctor", "--hardware", str(HARDWARE / profile), "--format", "json", "--path", str(site)]
    )
    assert result.exit_code == 1, result.stderr
    (finding,) = [f for f in result.json()["findings"] if f["rule"] == RULE]
    assert finding["status"] == "affected"
    return json.dumps(finding["matched"])


def test_the_rocm_build_pin_chooses_and_its_index(tmp_path: Path) -> None:
    said = _said("amd-mi300x-8.json", _cuda_torch(tmp_path / "site", "2.4.1"))
    # release/2.4 built +rocm6.0 and +rocm6.1, both with gfx942; the machine's ROCm is 6.4.1
    assert "its ROCm build for gfx942: torch==2.4.1+rocm6.1 from " in said
    assert "https://download.pytorch.org/whl/rocm6.1" in said
    assert "the builds of 2.4 that carry gfx942 are +rocm6.1, +rocm6.0" in said


def test_the_gpus_target_decides_the_build(tmp_path: Path) -> None:
    # release/2.3's +rocm5.7 lacks gfx942 (it joined with ROCm 6.0): only +rocm6.0 is named
    said = _said("amd-mi300x-8.json", _cuda_torch(tmp_path / "site", "2.3.0"))
    assert "torch==2.3.0+rocm6.0 from https://download.pytorch.org/whl/rocm6.0" in said
    assert "are +rocm6.0)" in said
    # release/2.0 built no gfx1100: nothing is named, and the builds' targets say why
    said = _said("amd-rx7900xtx.json", _cuda_torch(tmp_path / "rx", "2.0.1"))
    assert "no ROCm build to name: torch 2.0.1's ROCm builds carry no code for gfx1100" in said
    # where the target first appears (pin moves such a pin there: 2.1.0+rocm5.6)
    assert "the table's first ROCm builds with code for gfx1100 from torch 2.1 +rocm5.5" in said
    assert "download.pytorch.org" not in said


def test_a_release_without_a_row_names_the_missing_fact(tmp_path: Path) -> None:
    said = _said("amd-mi300x-8.json", _cuda_torch(tmp_path / "site", "2.6.0"))
    assert "no ROCm build to name: torch 2.6.0: compat's table" in said
    assert "has no row for 2.6" in said
    assert "download.pytorch.org" not in said
