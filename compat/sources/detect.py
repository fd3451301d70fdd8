"""`compat check FILE...`: pick each file's parser by its name and, where names say little, its content."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from compat.errors import InputError
from compat.model import Origin
from compat.sources.declared import Declared, DeclaredSet
from compat.sources.pipreport import read_pip_report
from compat.sources.requirements import RequirementsResult, read_requirements
from compat.sources.tomlfiles import read_pylock, read_pyproject, read_uv_lock

_PYLOCK = re.compile(r"^pylock(\.[^.]+)?\.toml$")


def file_kind(path: Path) -> str:
    name = path.name.lower()
    if name == "pyproject.toml":
        return "pyproject"
    if _PYLOCK.match(name):
        return "pylock"
    if name == "uv.lock":
        return "uv.lock"
    if name.endswith(".json"):
        return "pip-report"
    if name.endswith((".txt", ".in")) or "requirements" in name or "constraints" in name:
        return "requirements"
    # No telling name: look at the content (through the bounded reader: a FIFO or a device
    # is refused here, before anything blocks on it).
    from compat.readers import read_bytes

    head = read_bytes(path, "lock")[:4096].decode("utf-8", errors="replace").lstrip()
    if head.startswith("{"):
        return "pip-report"
    if re.search(r"^lock-version\s*=", head, re.MULTILINE):
        return "pylock"
    if re.search(r"^\[\[package\]\]", head, re.MULTILINE):
        return "uv.lock"
    if re.search(r"^\[project\]", head, re.MULTILINE):
        return "pyproject"
    raise InputError(
        "cannot tell what kind of file this is (requirements, pyproject, pylock, uv.lock, pip report)",
        origin=Origin(str(path)),
    )


def read_declared(
    paths: Sequence[Path], *, environ: Mapping[str, str] | None = None
) -> DeclaredSet:
    env = os.environ if environ is None else environ
    requirements: list[Declared] = []
    files: list[str] = []
    options: dict[str, list[str]] = {}
    for path in paths:
        if path.is_dir():
            raise InputError(
                "is a directory: give the requirement or lock files in it", origin=Origin(str(path))
            )
        kind = file_kind(path)
        if kind == "requirements":
            result = read_requirements(path, environ=env, result=RequirementsResult())
            requirements += result.requirements
            files += result.files
            for key, values in result.options.items():
                options.setdefault(key, []).extend(values)
            continue
        files.append(str(path))
        if kind == "pyproject":
            requirements += read_pyproject(path)
        elif kind == "pylock":
            requirements += read_pylock(path)
        elif kind == "uv.lock":
            requirements += read_uv_lock(path)
        else:
            from compat.readers import read_text

            requirements += read_pip_report(path, read_text(path, "lock"))
    return DeclaredSet(tuple(requirements), tuple(files), {k: tuple(v) for k, v in options.items()})
