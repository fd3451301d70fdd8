"""The dated dependency-metadata snapshot shipped with the knowledge base.

compat/data/requires-snapshot.json (written by scripts/gen_requires_snapshot.py from PyPI's
PEP 691 file lists and PEP 658 metadata files, inputs recorded with their sha256) holds, for the
packages training stacks install, each final release and the Requires-Dist lines it declares that
name another package of the snapshot, and what each release publishes for the target: its
Requires-Python, whether every file is yanked, and which CPython versions have a Linux x86-64
wheel. Offline inference and the offline solve read this, never compat's index cache: a cache may
make a check faster, never give it another answer. Loaded on first use only (doctor's start-up
never pays for it).

A release entry is `[version, requires-set index or null]` with an optional third element, an
object with any of: `python` (Requires-Python), `yanked` (true: every file of the release is
yanked), `wheels` (the Linux x86-64 wheels: "any" for a pure wheel, "cp311" for a CPython 3.11
build, "abi3-cp38" for a stable-ABI wheel from 3.8 on), `sdist` (true: a source distribution).
A package's optional `published` lists every other version the index ever served (pre-releases,
dev releases, releases before the snapshot's first day, finals beyond its per-package cap): enough
to say that a version exists, nothing about it. A package's optional `complete: true` says that
its releases and `published` together are every version the index listed on the snapshot's day
(`history_complete()`): only then does "never published" hold. Where `wheels` is recorded and
`sdist` is not, the release has no sdist.

The file ships gzip-compressed (compat/data/requires-snapshot.json.gz, about 1 MB for some 600
packages); scripts/gen_requires_snapshot.py writes it byte for byte the same from its input.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import InvalidVersion, Version

SOURCE = "compat's dependency snapshot"
FILE = "data/requires-snapshot.json.gz"  # inside the compat package


def location() -> Path | None:
    """The snapshot's file on disk, where the package is installed as files (not in a zip): what
    a cache of something computed from it is keyed by (its stat signature)."""
    found = resources.files("compat").joinpath(FILE)
    return found if isinstance(found, Path) else None


PACKAGES = '\n "packages": {\n'  # the line that opens the packages, one package per line


class _Packages(Mapping[str, Any]):
    """The snapshot's packages, each parsed from its own line when first asked for: a process
    asks for a few dozen of some 800 (the whole file parsed took 0.1 s of every compat process
    that judged a requirement; issue 45)."""

    def __init__(self, lines: dict[str, str]) -> None:
        self._lines = lines
        self._parsed: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        found = self._parsed.get(name)
        if found is None:
            found = self._parsed[name] = json.loads(self._lines[name])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)


def _split(text: str) -> dict[str, Any] | None:
    """The document with its packages left unparsed, where the text has the layout
    scripts/gen_requires_snapshot.py writes (the head, then ` "name": {...},` a line); None
    otherwise."""
    head, found, body = text.partition(PACKAGES)
    end = "\n }\n}\n"
    if not found or not head.endswith(",") or not body.endswith(end):
        return None
    lines: dict[str, str] = {}
    for line in body[: -len(end)].split("\n"):
        name, colon, entry = line.partition('": ')
        if not colon or not name.startswith(' "') or not entry.startswith("{"):
            return None
        key = name[2:] if "\\" not in name else json.loads(name[1:] + '"')
        lines[key] = entry.removesuffix(",")
    document: dict[str, Any] = json.loads(head[:-1] + "\n}")
    document["packages"] = _Packages(lines)
    return document


@cache
def _document() -> dict[str, Any]:
    data = resources.files("compat").joinpath(FILE).read_bytes()
    text = gzip.decompress(data).decode("utf-8")
    document: dict[str, Any] | None = _split(text)
    return document if document is not None else dict(json.loads(text))


def fetched() -> str:
    """The day the snapshot's inputs were read from PyPI."""
    return str(_document()["inputs"]["fetched"])


@dataclass(frozen=True)
class Release:
    """One final release as the snapshot records it. `requires` None: the release ships no wheel
    whose metadata was read (its requirements are unknown). `wheels` None: which files it
    publishes was not recorded (unknown, never "none")."""

    version: Version
    requires: tuple[str, ...] | None
    requires_python: str | None = None
    yanked: bool = False
    wheels: frozenset[str] | None = None
    sdist: bool | None = None

    def installable(self, python: Version) -> bool | None:
        """Whether pip can install this release on CPython `python` (major.minor) on Linux x86-64:
        True, False, or None where the snapshot does not say."""
        if self.requires_python:
            try:
                if not SpecifierSet(self.requires_python).contains(python, prereleases=True):
                    return False
            except InvalidSpecifier:
                pass  # pip ignores an unparsable Requires-Python too
        if self.wheels is None:
            return None
        if self.sdist:
            return True  # a source build may still fail, but pip will try it
        return self.has_wheel_for(python)

    def has_wheel_for(self, python: Version) -> bool:
        """Whether the release publishes a Linux x86-64 wheel for CPython `python` (its
        major.minor): a pure wheel, that CPython's, or a stable-ABI wheel from an older one."""
        tag = f"cp{python.major}{python.minor}"
        for wheel in self.wheels or ():
            if wheel in ("any", tag):
                return True
            if wheel.startswith("abi3-cp"):
                low = wheel.removeprefix("abi3-cp")
                if (python.major, python.minor) >= (int(low[0]), int(low[1:] or 0)):
                    return True
        return False


@cache
def records(name: NormalizedName) -> tuple[Release, ...]:
    """Every final release the snapshot records for `name` (yanked ones marked), oldest first;
    for a package that never published a final release, its newest pre-releases (what pip then
    installs); empty when the snapshot does not cover it."""
    entry = _document()["packages"].get(name)
    if entry is None:
        return ()
    sets: list[list[str]] = entry["requires"]
    out: list[Release] = []
    for item in entry["releases"]:
        version, index = item[0], item[1]
        extra: dict[str, Any] = item[2] if len(item) > 2 else {}
        wheels = extra.get("wheels")
        out.append(
            Release(
                version=Version(version),
                requires=None if index is None else tuple(sets[index]),
                requires_python=extra.get("python"),
                yanked=bool(extra.get("yanked", False)),
                wheels=None if wheels is None else frozenset(wheels),
                sdist=extra.get("sdist", None if wheels is None else False),
            )
        )
    return tuple(sorted(out, key=lambda r: r.version))


@cache
def releases(name: NormalizedName) -> dict[Version, tuple[str, ...] | None]:
    """Every final release the snapshot records for `name` that is not yanked (what pip may pick
    for a range), oldest first, with its requirements (None: the release ships no wheel, its
    requirements are unknown); empty when not covered. records() has the yanked ones too."""
    return {record.version: record.requires for record in records(name) if not record.yanked}


@cache
def published(name: NormalizedName) -> frozenset[Version]:
    """Every version the index served for `name` as of the snapshot (finals, pre-releases, dev
    releases, yanked ones): a version outside it was never published then. Empty when the
    snapshot does not cover `name` (unknown, not "none")."""
    entry = _document()["packages"].get(name)
    if entry is None:
        return frozenset()
    out = {record.version for record in records(name)}
    for text in entry.get("published", ()):
        try:
            out.add(Version(text))
        except InvalidVersion:
            continue
    return frozenset(out)


def history_complete(name: NormalizedName) -> bool:
    """Whether published(name) is every version the index ever served for `name` as of the
    snapshot, so that a version outside it was never published; False where the snapshot does
    not cover `name` or recorded only part of its history."""
    entry = _document()["packages"].get(name)
    return bool(entry is not None and entry.get("complete", False))


def covers(name: NormalizedName) -> bool:
    return bool(records(name))


def names() -> tuple[NormalizedName, ...]:
    """Every package the snapshot covers, sorted."""
    return tuple(sorted(NormalizedName(n) for n in _document()["packages"]))


def requires_complete() -> bool:
    """Whether every release's `requires` is its whole Requires-Dist (the document says so with
    `"requires_complete": true`), not only the lines naming a package of the snapshot: only then
    may a release's requirements stand in for its metadata (compat.resolve.resolvers.staticmeta)."""
    return _document().get("requires_complete") is True
