"""A finding about a CUDA build names the distribution whose build it is, and carries a constraint
where one exists (issue 26 item 4): doctor on real dist-info directories with a saved hardware
profile, check on a requirements file, both through the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.dists import make_dist
from tests.lib.doctor import doctor_argv
from tests.profiles import R535

CU13_TOOLKIT = ['cuda-toolkit[cublas,cudart]==13.0.2; platform_system == "Linux"']
R470: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "470.182.03",
    "cuda_driver_version": "11.4",
    "gpus": [{"name": "Tesla V100-SXM2-32GB", "compute_capability": "7.0"}],
}


def finding(args: list[str], rule: str) -> dict[str, Any]:
    result = run_cli([*args, "--format", "json"])
    assert result.exit_code == 1, result.stderr
    (found,) = [f for f in result.json()["findings"] if f["rule"] == rule]
    return dict(found)


def doctor(tmp_path: Path, hardware: dict[str, Any], torch: str, requires: list[str]) -> list[str]:
    site = tmp_path / "site"
    make_dist(site, "torch", torch, requires=requires)
    profile = tmp_path / "hardware.json"
    profile.write_text(json.dumps(hardware), encoding="utf-8")
    return doctor_argv(site, "--hardware", str(profile))


def test_cuda13_torch_on_r535_names_torch_and_the_cuda12_build(tmp_path: Path) -> None:
    args = doctor(tmp_path, R535, "2.11.0", CU13_TOOLKIT)
    found = finding(args, "cuda13-build-on-pre-580-driver")
    assert [(p["name"], p["version"]) for p in found["packages"]] == [("torch", "2.11.0")]
    assert found["packages"][0]["source"].endswith("torch-2.11.0.dist-info")
    # 2.11's CUDA 12.6 build (its oldest CUDA 12 index) runs on R535; so does any torch < 2.11
    assert found["fix"]["constraints"] == ["torch==2.11.0+cu126"]
    assert "torch<2.11 (torch 2.10.0 from PyPI is the CUDA 12.8 build)" in found["fix"]["summary"]
    assert "--index-url https://download.pytorch.org/whl/cu126" in found["fix"]["change"]


def test_a_release_with_no_cuda12_build_gets_the_nearest_release_with_one(tmp_path: Path) -> None:
    # 2.15 publishes CUDA 13.0 and 13.2 only (RFC #190385): the way out is an older release,
    # the nearest that has a CUDA 12 build (2.14.1's cu126), or any release below 2.11.
    requires = ['cuda-toolkit[cudart]==13.2.2; platform_system == "Linux"']
    args = doctor(tmp_path, R535, "2.15.0", requires)
    found = finding(args, "cuda13-build-on-pre-580-driver")
    assert [(p["name"], p["version"]) for p in found["packages"]] == [("torch", "2.15.0")]
    assert found["fix"]["constraints"] == ["torch==2.14.1+cu126"]
    assert "torch<2.11" in found["fix"]["summary"]


def test_cuda12_torch_below_the_driver_floor(tmp_path: Path) -> None:
    args = doctor(tmp_path, R470, "2.3.0+cu121", [])
    found = finding(args, "cuda12-build-below-driver-floor")
    assert [(p["name"], p["version"]) for p in found["packages"]] == [("torch", "2.3.0+cu121")]
    assert found["fix"]["constraints"] == ["torch==2.3.0+cu118"]


def test_the_fix_never_trades_the_rule_for_missing_kernels(tmp_path: Path) -> None:
    # 1.13's builds are CUDA 11.6/11.7 only and an R440 driver runs none of them. The nearest
    # build it runs is 1.12.1's CUDA 10.2 one, which has sm_70 for this V100; on an A100 it has
    # nothing (sm_37..sm_70), and no torch build both runs on R440 and has sm_80: no constraint.
    r440 = {**R470, "driver_version": "440.33.01", "cuda_driver_version": "10.2"}
    args = doctor(tmp_path / "v100", r440, "1.13.1+cu117", [])
    found = finding(args, "cuda11-build-below-driver-floor")
    assert [(p["name"], p["version"]) for p in found["packages"]] == [("torch", "1.13.1+cu117")]
    assert found["fix"]["constraints"] == ["torch==1.12.1+cu102"]
    a100 = {**r440, "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}]}
    found = finding(doctor(tmp_path / "a100", a100, "1.13.1+cu117", []), found["rule"])
    assert found["fix"]["constraints"] == []
    assert found["fix"]["summary"].startswith("upgrade the driver to 450.80.02")


def test_check_names_the_requirement_line(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.11.0\n", encoding="utf-8")
    profile = tmp_path / "r535.json"
    profile.write_text(json.dumps(R535), encoding="utf-8")
    args = ["check", str(requirements), "--offline", "--hardware", str(profile)]
    found = finding(args, "cuda13-build-on-pre-580-driver")
    assert [(p["name"], p["source"]) for p in found["packages"]] == [("torch", f"{requirements}:1")]
    assert found["fix"]["constraints"] == ["torch==2.11.0+cu126"]
    assert any("(the PyPI default build of torch 2.11.0" in m for m in found["matched"])
