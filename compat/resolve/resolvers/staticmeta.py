"""Requirements compat already records, handed to uv so that a resolve never builds them.

A release published only as a source distribution (flash-attn, DeepSpeed, old vLLM) makes uv
build it for its metadata: seconds to minutes, or a failure on the checking machine (flash-attn's
setup.py imports torch, which a build environment lacks). uv accepts static metadata instead
(`[[dependency-metadata]]` in a uv.toml: name, version, requires-dist, requires-python) and then
never builds that release. Such an entry must be the release's COMPLETE requirements, so only
releases whose requirements are known complete are given:

1. compat/data/sdist-requires.json: releases read from their own source distribution (a literal
   install_requires, no extras, no branch on the machine; the file's sha256 recorded);
2. compat's dependency snapshot, for a release with no wheel for the target Python but a source
   distribution, only where the snapshot says it keeps every Requires-Dist line
   (`snapshot.requires_complete()`); a snapshot that keeps only the lines naming its own
   packages gives nothing.

Everything else is built by uv as before. pip has no such option: it builds.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.resolve.sources import snapshot


class Entry(NamedTuple):
    name: str
    version: str
    requires_dist: tuple[str, ...]
    requires_python: str | None


@cache
def _recorded() -> tuple[Entry, ...]:
    text = resources.files("compat").joinpath("data/sdist-requires.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return tuple(
        Entry(name, row["version"], tuple(row["requires_dist"]), row.get("requires_python"))
        for name, rows in sorted(document["packages"].items())
        for row in rows
    )


@cache
def entries(python: Version) -> tuple[Entry, ...]:
    """Every release whose complete requirements compat records and which uv would otherwise
    build for CPython `python` (major.minor)."""
    out = {(e.name, e.version): e for e in _recorded()}
    for entry in _snapshot_entries(python):
        out.setdefault((entry.name, entry.version), entry)
    return tuple(out[key] for key in sorted(out))


def _snapshot_entries(python: Version) -> tuple[Entry, ...]:
    """The snapshot's part of entries(), from the user cache where it was computed from the same
    snapshot file (its stat signature) for the same Python: reading the whole snapshot costs a
    third of a second before uv starts, and a cache keyed so never changes the answer. Entries
    are signed with the user's cache key (the rule cache's): a file someone else planted in the
    cache directory is never handed to uv."""
    import os
    import time

    from compat import __version__
    from compat.files.jsoncache import cache_file, read_cache, signature, write_cache
    from compat.kb.knowledge import user_cache_key

    where = snapshot.location()
    try:
        stamp = signature(os.stat(where), time.time_ns()) if where is not None else None
    except OSError:
        stamp = None
    key = user_cache_key() if stamp is not None else None
    if stamp is None or key is None:
        return _from_snapshot(python)
    path = cache_file(
        "uv-dependency-metadata", f"{_FORMAT}|{__version__}|{where}|{python.major}.{python.minor}"
    )
    found = _cached(read_cache(path), stamp, key)
    if found is None:
        found = _from_snapshot(python)
        rows = [list(e) for e in found]
        write_cache(path, {"signature": stamp, "entries": rows, "tag": _tag(key, stamp, rows)})
    return found


_FORMAT = 2  # the cache file's shape and what decides an entry; raised when either changes


def _tag(key: bytes, stamp: Any, rows: Any) -> str:
    import hashlib
    import hmac

    signed = json.dumps([stamp, rows], separators=(",", ":")).encode()
    return hmac.new(key, signed, hashlib.sha256).hexdigest()


def _cached(payload: Any, stamp: list[int], key: bytes) -> tuple[Entry, ...] | None:
    """The entries a cache file holds, or None unless this user wrote them (their tag) for the
    snapshot file as it is now and every entry has its shape."""
    import hmac

    if not isinstance(payload, dict) or payload.get("signature") != stamp:
        return None
    rows, tag = payload.get("entries"), payload.get("tag")
    if not isinstance(tag, str) or not hmac.compare_digest(tag, _tag(key, stamp, rows)):
        return None
    if not isinstance(rows, list):
        return None
    found = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 4):
            return None
        name, version, requires, python = row
        if not (
            isinstance(name, str)
            and isinstance(version, str)
            and isinstance(requires, list)
            and all(isinstance(line, str) for line in requires)
            and (python is None or isinstance(python, str))
        ):
            return None
        found.append(Entry(name, version, tuple(requires), python))
    return tuple(found)


def _from_snapshot(python: Version) -> tuple[Entry, ...]:
    """The snapshot's releases with no wheel for `python` but a source distribution, where the
    snapshot keeps every Requires-Dist line (else none)."""
    if not snapshot.requires_complete():
        return ()
    found = []
    for name in snapshot.names():
        for release in snapshot.records(NormalizedName(name)):
            if (
                release.requires is None
                or not release.sdist
                or release.wheels is None
                or release.has_wheel_for(python)
            ):
                continue
            version = str(release.version)
            found.append(
                Entry(str(name), version, tuple(release.requires), release.requires_python)
            )
    return tuple(found)


def uv_toml(found: tuple[Entry, ...]) -> str:
    """A uv.toml of `[[dependency-metadata]]` entries (TOML strings written as JSON strings,
    which TOML reads alike)."""
    blocks = []
    for entry in found:
        lines = [
            "[[dependency-metadata]]",
            f"name = {json.dumps(entry.name)}",
            f"version = {json.dumps(entry.version)}",
            f"requires-dist = [{', '.join(json.dumps(r) for r in entry.requires_dist)}]",
        ]
        if entry.requires_python:
            lines.append(f"requires-python = {json.dumps(entry.requires_python)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
