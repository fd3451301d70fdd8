"""A JSON cache file in the user cache: read only when whole, written atomically.

The file is the sha256 of its payload, a newline, then the payload: a torn or truncated file is
ignored, never believed. Callers validate every entry's shape before use and key entries by
the stat signature of what they describe, so a cache changes speed, never an answer. Best
effort both ways: a read-only home or a full disk never fails a command.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024 * 1024
RACY_NS = 2_000_000_000  # a file touched this recently may still change within its time stamp


def cache_file(name: str, key: str) -> Path:
    """`<user cache>/<name>-<digest of key>.json`: one file per (purpose, environment)."""
    from compat.files.cachedir import user_cache_dir

    digest = hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return user_cache_dir() / f"{name}-{digest}.json"


def read_cache(path: Path) -> Any:
    """The payload, or None when the file is absent, too big, not ours in shape, or torn."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    digest, _, payload = data.partition(b"\n")
    if hashlib.sha256(payload).hexdigest().encode() != digest:
        return None
    try:
        return json.loads(payload)
    except (ValueError, RecursionError):
        return None


def write_cache(path: Path, content: Any) -> None:
    import tempfile

    payload = json.dumps(content, separators=(",", ":")).encode()
    digest = hashlib.sha256(payload).hexdigest().encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(digest + b"\n" + payload)
        Path(tmp).replace(path)
    except OSError:
        pass


def signature(info: os.stat_result, now_ns: int) -> list[int] | None:
    """What a file is on disk (size, mtime, ctime in ns, inode, device), or None while it is too
    young for that to vouch for its bytes."""
    if now_ns - max(info.st_mtime_ns, info.st_ctime_ns) < RACY_NS:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
