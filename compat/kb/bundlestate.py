"""Which knowledge-base bundle is in force: the only part of bundles that every start-up pays for
(one small JSON file read). Installing and checking bundles is compat/kb/bundle.py."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from compat import __version__
from compat.files.cachedir import user_cache_dir


class ActiveBundle(NamedTuple):
    version: str
    sha256: str
    matrix_dir: Path
    source: str  # the URL it came from
    date: str = ""  # the day it was made (YYYY-MM-DD), "" where it does not say
    expires: str = ""  # the day past which its rules are stale, "" where it does not say

    def expired(self, today: str | None = None) -> bool:
        """Whether the bundle's stated expiry has passed (never, where it states none)."""
        import datetime as dt

        return bool(self.expires) and (today or dt.date.today().isoformat()) > self.expires


def bundles_dir(environ: Mapping[str, str] | None = None) -> Path:
    return user_cache_dir(environ) / "kb-bundles"


def active_bundle() -> ActiveBundle | None:
    """The installed bundle, when there is one this compat may use; else None (shipped rules).

    Not re-verified here: its digest was checked when `matrix update` installed it, and the cache
    is no less trusted than the site-packages compat itself runs from. A bundle built from an
    older compat than the running one is ignored: the shipped rules are newer.
    """
    pointer = bundles_dir() / "current.json"
    if not _ours(pointer):
        return None
    try:
        data = json.loads(pointer.read_text(encoding="utf-8"))
        directory = str(data["directory"])
        active = ActiveBundle(
            str(data["version"]),
            str(data["sha256"]),
            pointer.parent / directory / "matrix",
            str(data["source"]),
            str(data.get("date") or ""),
            str(data.get("expires") or ""),
        )
        usable = compatible(str(data["compat_version"]), str(data["min_compat"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not usable or os.sep in directory or not active.matrix_dir.is_dir():
        return None
    if not (_ours(pointer.parent / directory) and _ours(active.matrix_dir)):
        return None
    return active


def _ours(path: Path) -> bool:
    """Whether `path` is this user's and writable by no one else (issue 11: what another user
    could plant in a shared cache directory must never replace the rules in force)."""
    import stat

    getuid = getattr(os, "getuid", None)
    if getuid is None:  # pragma: no cover - Windows: no owner bits to check
        return True
    try:
        info = os.lstat(path)
    except OSError:
        return False
    if stat.S_ISLNK(info.st_mode) or info.st_uid != getuid():
        return False
    return not info.st_mode & 0o002  # group-writable is usual (umask 002, a private group)


def compatible(compat_version: str, min_compat: str) -> bool:
    """Whether this compat may use rules made for compat `min_compat` to `compat_version`."""
    from packaging.version import InvalidVersion, Version

    from compat.versions import parse_version

    try:
        running = Version(__version__)
        return parse_version(min_compat) <= running <= parse_version(compat_version)
    except InvalidVersion:
        return False


def bundle_expires(source: str) -> str:
    """The stated expiry of the bundle in force when the knowledge base judging is that bundle
    (`source` "bundle"), else "" (a report's `kb_expires`)."""
    active = active_bundle() if source == "bundle" else None
    return active.expires if active is not None else ""
