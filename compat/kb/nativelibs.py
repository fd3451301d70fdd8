"""Which CUDA libraries each bitsandbytes release ships, from data generated out of its wheels.

`compat/data/native-libs.json` (written by `scripts/gen_native_libs.py` from the file lists of the
released wheels) says, per release, the CUDA versions of its libbitsandbytes_cudaXYZ libraries
and how the release picks one: `system-runtime` (0.31.8-0.40.0.post4: by the CUDA runtime found on
the machine, not torch's), `exact` (0.40.1-0.49: torch's very CUDA version, or none) or
`same-major` (0.50+: the nearest of the same CUDA major). Read only when a rule asks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from packaging.version import Version

from compat.kb.releasetable import ReleaseTable
from compat.versions import release_key


@cache
def _table() -> ReleaseTable[Mapping[str, Any]]:
    text = resources.files("compat").joinpath("data/native-libs.json").read_text("utf-8")
    releases: Mapping[str, Mapping[str, Any]] = json.loads(text)["bitsandbytes"]
    return ReleaseTable(releases)


def releases() -> tuple[Version, ...]:
    return _table().releases()


def shipped(version: Version) -> tuple[Version, ...] | None:
    """The CUDA versions of the libraries a release ships; None for a release not recorded
    (older than the table, newer than its fetch, a pre-release or a source build)."""
    entry = _table().get(version)
    return None if entry is None else tuple(Version(c) for c in entry["cuda"])


@cache  # pin's planner asks it per candidate release per combination (issue 45): pure, one table
def loads(version: Version, cuda: Version) -> bool | None:
    """Whether that release finds a library for a torch built for `cuda` (None: not recorded, or
    a release whose loader does not look at torch's CUDA build: see `lacks_major`)."""
    entry = _table().get(version)
    if entry is None or entry["loader"] == "system-runtime":
        return None
    libraries = [Version(c) for c in entry["cuda"]]
    major, minor = (*cuda.release, 0)[:2]
    wanted = Version(f"{major}.{minor}")
    if entry["loader"] == "exact":
        return wanted in libraries
    return any(library.major == wanted.major for library in libraries)


@cache
def lacks_major(version: Version, cuda: Version) -> bool | None:
    """For a release that picks its library by the machine's CUDA runtime (0.31.8-0.40.0.post4):
    whether it ships none at all of the CUDA major torch is built for (None: not recorded, or a
    release whose loader reads torch's CUDA build: see `loads`)."""
    entry = _table().get(version)
    if entry is None or entry["loader"] != "system-runtime":
        return None
    return all(Version(c).major != cuda.major for c in entry["cuda"])


def loader_rows(system_runtime: bool) -> int:
    """How many recorded releases pick their library by the machine's CUDA runtime (True), or by
    torch's CUDA build (False)."""
    return sum((e["loader"] == "system-runtime") is system_runtime for e in _table().values())


def first_loading(cuda: Version, after: Version) -> tuple[Version, bool] | None:
    """The release to move to: the first one after `after` that loads a library for `cuda`, else
    the newest before it; with whether every later recorded release loads one too."""
    after = release_key(after)
    ordered = releases()
    good = [v for v in ordered if loads(v, cuda)]
    later = [v for v in good if v > after]
    chosen = later[0] if later else (max((v for v in good if v < after), default=None))
    if chosen is None:
        return None
    return chosen, all(v in good for v in ordered if v >= chosen)
