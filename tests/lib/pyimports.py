"""The real-wheel import cases of tests/data/pyimports (scripts/pyimport_fixtures.py): each
release's cut tree is kept once under releases/, and a case's site-packages is its releases'
trees copied together (MANIFEST.json names them)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.lib import paths

MANIFEST: dict[str, Any] = json.loads(
    (paths.PYIMPORTS / "MANIFEST.json").read_text(encoding="utf-8")
)


def case(name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(c for c in MANIFEST["cases"] if c["name"] == name)
    return found


def copy_case(name: str, dest: Path) -> Path:
    """The case's site-packages at `dest`: a fresh copy of each of its releases' trees."""
    for release in case(name)["releases"]:
        shutil.copytree(paths.PYIMPORTS / "releases" / release, dest, dirs_exist_ok=True)
    return dest
