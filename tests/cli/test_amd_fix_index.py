"""torch-cuda-build-on-amd-gpu's fix names the ROCm index where compat knows the build pin would
choose (issue 43): the finding's matched line already named `torch==2.4.1+rocm6.1 from
https://download.pytorch.org/whl/rocm6.1`, while its fix still said `--index-url .../rocmX.Y`.
Where no build is known (no row for the release, no build with the GPUs' targets) the rule's own
fix stays, never a guessed index. Through the CLI on a requirements file and real dist-info."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.dists import make_dist
from tests.lib.paths import REPO

HARDWARE = REPO / "docs" / "examples" / "hardware"
RULE = "torch-cuda-build-on-amd-gpu"
INDEX = re.compile(r"https://download\.pytorch\.org/whl/rocm[0-9.]+")


def _finding(args: list[str]) -> dict[str, Any]:
    result = run_cli([*args, "--format", "json"])
    assert result.exit_code == 1, result.stderr
    (finding,) = [f for f in result.json()["findings"] if f["rule"] == RULE]
    assert finding["status"] == "affected"
    return finding


def _requirements(tmp_path: Path) -> Path:
    path = tmp_path / "requirements.txt"
    path.write_text("torch==2.4.1\n", encoding="utf-8")  # PyPI's Linux wheel: CUDA 12.1
    return path


def test_check_names_the_index_of_the_build_pin_chooses(tmp_path: Path) -> None:
    requirements = _requirements(tmp_path)
    profile = str(HARDWARE / "amd-mi300x-8.json")
    finding = _finding(["check", "--offline", "--hardware", profile, str(requirements)])
    fix = finding["fix"]
    (named,) = set(INDEX.findall(str(finding["matched"])))  # the build the matched line names
    assert "rocmX.Y" not in fix["summary"] + fix["change"]
    assert named in fix["change"] and named in fix["summary"]
    assert fix["constraints"] == []  # pin chooses torch's build itself
    pin = run_cli(["pin", "--offline", "--hardware", profile, "-r", str(requirements)])
    assert pin.exit_code == 0, pin.stderr
    assert f"--extra-index-url {named}" in pin.stdout.splitlines()  # the same index
    assert named == "https://download.pytorch.org/whl/rocm6.1"  # release/2.4: gfx942 in 6.0, 6.1


def test_doctor_names_it_for_an_installed_cuda_torch(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "torch", "2.4.1", requires=["nvidia-cuda-runtime-cu12==12.1.105"])
    make_dist(site, "nvidia-cuda-runtime-cu12", "12.1.105")
    profile = str(HARDWARE / "amd-mi250x-8.json")
    fix = _finding(["doctor", "--hardware", profile, "--path", str(site)])["fix"]
    assert INDEX.search(fix["change"]) and "rocmX.Y" not in fix["change"]
    assert re.search(r"torch==2\.4\.1\+rocm[0-9.]+ ", fix["summary"])


def test_no_build_to_name_keeps_the_rules_fix(tmp_path: Path) -> None:
    # Strix Halo (gfx1151): no ROCm build of torch 2.4 carries its code
    profile = str(HARDWARE / "amd-strix-halo.json")
    finding = _finding(["check", "--offline", "--hardware", profile, str(_requirements(tmp_path))])
    assert "rocmX.Y" in finding["fix"]["change"]
    assert not INDEX.search(finding["fix"]["change"])
