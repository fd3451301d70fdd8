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


@cache
def _cuda_versions(version: Version) -> tuple[Version, ...] | None:
    # The table's CUDA strings of a release, parsed once: `first_loading` asks `loads` about
    # every recorded release, and rule evaluation asks again per fact (issue 45: ~250k parses
    # in one test file). None for a release not recorded.
    entry = _table().get(version)
    return None if entry is None else tuple(Version(c) for c in entry["cuda"])


def releases() -> tuple[Version, ...]:
    return _table().releases()


def shipped(version: Version) -> tuple[Version, ...] | None:
    """The CUDA versions of the libraries a release ships; None for a release not recorded
    (older than the table, newer than its fetch, a pre-release or a source build)."""
    return _cuda_versions(version)


# loads and first_loading answer from the shipped table alone (read once): kept per question, as
# pin's planner asks them for every combination of candidates it weighs (trl's pyproject: 590,000
# calls, each parsing the release's CUDA versions again; issue 45).
@cache
def loads(version: Version, cuda: Version) -> bool | None:
    """Whether that release finds a library for a torch built for `cuda` (None: not recorded, or
    a release whose loader does not look at torch's CUDA build: see `lacks_major`)."""
    entry = _table().get(version)
    if entry is None or entry["loader"] == "system-runtime":
        return None
    libraries = _cuda_versions(version) or ()
    major, minor = (*cuda.release, 0)[:2]
    if entry["loader"] == "exact":
        return Version(f"{major}.{minor}") in libraries
    return any(library.major == major for library in libraries)


@cache
def lacks_major(version: Version, cuda: Version) -> bool | None:
    """For a release that picks its library by the machine's CUDA runtime (0.31.8-0.40.0.post4):
    whether it ships none at all of the CUDA major torch is built for (None: not recorded, or a
    release whose loader reads torch's CUDA build: see `loads`)."""
    entry = _table().get(version)
    if entry is None or entry["loader"] != "system-runtime":
        return None
    return all(library.major != cuda.major for library in _cuda_versions(version) or ())


def loader_rows(system_runtime: bool) -> int:
    """How many recorded releases pick their library by the machine's CUDA runtime (True), or by
    torch's CUDA build (False)."""
    return sum((e["loader"] == "system-runtime") is system_runtime for e in _table().values())


@cache
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
