"""Hardware profile files (`compat.hardware/1`) of real machines, for `--hardware`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.profiles import R535, R580

__all__ = ["R535", "R580", "profile_file", "r535", "r580"]


def profile_file(directory: Path, profile: Mapping[str, Any] = R535, name: str = "") -> Path:
    """The profile written as `compat probe --format json` writes it."""
    directory.mkdir(parents=True, exist_ok=True)
    driver = str(profile.get("driver_version", "unknown")).split(".")[0]
    path = directory / (name or f"r{driver}.json")
    path.write_text(json.dumps(profile), encoding="utf-8")
    return path


@pytest.fixture
def r535(tmp_path: Path) -> Path:
    """An A100 node on the R535 driver (CUDA 12.2), as a profile file."""
    return profile_file(tmp_path / "hw", R535)


@pytest.fixture
def r580(tmp_path: Path) -> Path:
    """An 8x H100 node on the R580 driver (CUDA 13.0), as a profile file."""
    return profile_file(tmp_path / "hw", R580)
