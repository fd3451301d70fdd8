"""The dated dependency-metadata snapshot shipped with the knowledge base.

compat/data/requires-snapshot.json (written by scripts/gen_requires_snapshot.py from PyPI's
PEP 658 metadata files, inputs recorded with their sha256) holds, for every package a rule speaks
of and the frameworks that pin them, each final release and the Requires-Dist lines it declares
that name another package of the snapshot. Offline inference reads this, never compat's index
cache: a cache may make a check faster, never give it another answer. Loaded on first use only
(doctor's start-up never pays for it).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import Version

SOURCE = "compat's dependency snapshot"


@cache
def _document() -> dict[str, Any]:
    text = resources.files("compat").joinpath("data/requires-snapshot.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def fetched() -> str:
    """The day the snapshot's inputs were read from PyPI."""
    return str(_document()["inputs"]["fetched"])


@cache
def releases(name: NormalizedName) -> dict[Version, tuple[str, ...] | None]:
    """Every final release the snapshot records for `name`, oldest first, with its requirements
    (None: the release ships no wheel, its requirements are unknown); empty when not covered."""
    entry = _document()["packages"].get(name)
    if entry is None:
        return {}
    sets: list[list[str]] = entry["requires"]
    out: dict[Version, tuple[str, ...] | None] = {}
    for version, index in entry["releases"]:
        out[Version(version)] = None if index is None else tuple(sets[index])
    return dict(sorted(out.items()))


def covers(name: NormalizedName) -> bool:
    return bool(releases(name))
