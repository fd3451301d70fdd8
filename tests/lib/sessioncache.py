"""Costly test inputs built once, shared by every test, worker and run that needs the same one.

`built_once(name, inputs, build)` returns a directory that `build(directory)` filled. The
directory is named by the sha256 of `name` and `inputs` (bytes, text, or files and directory
trees read whole), so a change to any input builds a new one and an unchanged one is never
built twice: not per test, not per xdist worker (a lock file makes the other workers wait for
the first), not per run (it stays under build/test-cache, or $COMPAT_TEST_CACHE). A build
that fails or is interrupted leaves nothing behind: it happens in a temporary sibling that is
renamed into place only when complete.

Tests must treat what they get as read-only: copy it (or link it, where the code under test
replaces files instead of writing into them) into their own tmp_path first.

`built_once(..., root=run_root(request))` keeps a build for this pytest run only, shared
by its xdist workers: for what several tests assert on but no later run may reuse (a compat run's
output: its inputs are all of compat, the interpreter and the installed packages).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from tests.lib import paths

Input = bytes | str | Path


def cache_root() -> Path:
    return Path(os.environ.get("COMPAT_TEST_CACHE") or paths.REPO / "build" / "test-cache")


def run_root(request: pytest.FixtureRequest) -> Path:
    """The directory every xdist worker of this pytest run shares: the run's base temporary
    directory (a worker's own is a folder in it), new for each run. Asked of the run's config,
    not of PYTEST_XDIST_WORKER, which a pytest that a test starts inherits."""
    base = request.getfixturevalue("tmp_path_factory").getbasetemp()
    return base.parent if hasattr(request.config, "workerinput") else base


def digest(name: str, inputs: Iterable[Input]) -> str:
    """The content hash naming a build: its name, then each input's kind and bytes; a file or a
    tree by its paths relative to itself and their bytes (never times or inodes)."""
    hasher = hashlib.sha256(name.encode())
    for item in inputs:
        if isinstance(item, Path):
            files = sorted(p for p in item.rglob("*") if p.is_file()) if item.is_dir() else [item]
            hasher.update(b"\0tree\0" if item.is_dir() else b"\0file\0")
            for path in files:
                if "__pycache__" in path.parts:
                    continue
                relative = path.relative_to(item).as_posix() if item.is_dir() else path.name
                data = path.read_bytes()
                hasher.update(f"{relative}\0{len(data)}\0".encode())
                hasher.update(data)
        else:
            data = item.encode() if isinstance(item, str) else item
            hasher.update(b"\0bytes\0%d\0" % len(data))
            hasher.update(data)
    return hasher.hexdigest()


def built_once(
    name: str, inputs: Iterable[Input], build: Callable[[Path], None], root: Path | None = None
) -> Path:
    """The directory `build` filled for these inputs: built now if no run has built it yet (with
    `root`, no test of this run: see run_root)."""
    root = root or cache_root()
    target = root / f"{name}-{digest(name, inputs)[:24]}"
    if target.is_dir():
        return target
    root.mkdir(parents=True, exist_ok=True)
    with open(root / f"{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker building the same waits here
        if target.is_dir():
            return target
        work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=root))
        try:
            build(work)
            work.replace(target)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    return target
