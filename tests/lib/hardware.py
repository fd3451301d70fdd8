"""Hardware profile files (`compat.hardware/1`) of real machines, for `--hardware`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.profiles import R535, R580

__all__ = [
    "R535",
    "R580",
    "amd_profile",
    "check_report",
    "profile",
    "profile_file",
    "r535",
    "r580",
    "rule_hits",
    "two_gpus",
]


def amd_profile(tmp: Path, name: str, target: str, override: str | None = None) -> Path:
    """One AMD GPU of `target` (and HSA_OVERRIDE_GFX_VERSION where given), as tmp/TARGET-OVERRIDE.json."""
    data: dict[str, object] = {
        "schema": "compat.hardware/1",
        "gpus": [{"index": 0, "name": name, "vendor": "amd", "gfx_target": target}],
        "platform": "linux/x86_64",
    }
    if override:
        data["hsa_override_gfx_version"] = override
    path = tmp / f"{target}-{override}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def check_report(tmp: Path, lines: str, hardware: Path, *, process: bool = False) -> dict[str, Any]:
    """`compat check --offline --hardware HARDWARE --format json` on a requirements file of
    `lines`: in-process (typer's runner), or as a real process where `process`."""
    from tests.conftest import run_cli, run_subprocess

    requirements = tmp / "requirements.txt"
    requirements.write_text(lines, encoding="utf-8")
    run = run_subprocess if process else run_cli
    result = run(
        ["check", "--offline", "--hardware", str(hardware), "--format", "json", str(requirements)]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report: dict[str, Any] = result.json()
    return report


def rule_hits(report: Mapping[str, Any], rule: str) -> list[dict[str, Any]]:
    """The report's findings of one rule."""
    findings = report["findings"]
    assert isinstance(findings, list)
    return [finding for finding in findings if finding["rule"] == rule]


def profile_file(directory: Path, profile: Mapping[str, Any] = R535, name: str = "") -> Path:
    """The profile written as `compat probe --format json` writes it."""
    directory.mkdir(parents=True, exist_ok=True)
    driver = str(profile.get("driver_version", "unknown")).split(".")[0]
    path = directory / (name or f"r{driver}.json")
    path.write_text(json.dumps(profile), encoding="utf-8")
    return path


def profile(tmp: Path, gpu: str, cc: str, driver: str, cuda: str, count: int = 2) -> Path:
    """`count` GPUs of one kind on one driver, as tmp/hardware.json."""
    path = tmp / "hardware.json"
    gpus = [{"index": i, "name": gpu, "compute_capability": cc} for i in range(count)]
    path.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": driver,
                "cuda_driver_version": cuda,
                "gpus": gpus,
            }
        )
    )
    return path


def two_gpus(tmp: Path, name: str = "NVIDIA A100-SXM4-80GB", cc: str = "8.0") -> Path:
    """Two GPUs and no driver (a profile that settles the GPU facts only)."""
    gpu = {"name": name, "compute_capability": cc}
    profile = tmp / f"gpus-{cc}.json"
    profile.write_text(
        json.dumps(
            {"schema": "compat.hardware/1", "gpus": [{"index": 0, **gpu}, {"index": 1, **gpu}]}
        )
    )
    return profile


@pytest.fixture
def r535(tmp_path: Path) -> Path:
    """An A100 node on the R535 driver (CUDA 12.2), as a profile file."""
    return profile_file(tmp_path / "hw", R535)


@pytest.fixture
def r580(tmp_path: Path) -> Path:
    """An 8x H100 node on the R580 driver (CUDA 13.0), as a profile file."""
    return profile_file(tmp_path / "hw", R580)
