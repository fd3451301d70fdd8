"""Hardware profile files (`compat.hardware/1`) of real machines, for `--hardware`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.profiles import R535, R580

__all__ = ["R535", "R580", "profile", "profile_file", "r535", "r580", "two_gpus"]


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
