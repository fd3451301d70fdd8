"""`compat check FILE...`: pick each file's parser by its name and, where names say little, its content."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.facts.declared.entries import DeclaredSet, FileResult
from compat.facts.declared.pipreport import read_pip_report
from compat.facts.declared.requirements import RequirementsResult, read_requirements
from compat.facts.declared.setuppy import REPORT_HINT
from compat.facts.declared.tomlfiles import (
    load_toml,
    read_pylock,
    read_pyproject,
    read_uv_lock,
    uv_lock_python,
)
from compat.model import Origin

_PYLOCK = re.compile(r"^pylock(\.[^.]+)?\.toml$")


UNKNOWN_KIND = (
    "cannot tell what kind of file this is (requirements, pyproject, setup.py, Pipfile, "
    "Pipfile.lock, pylock, uv.lock, pip report, conda environment.yml, conda-lock.yml, "
    "pixi.toml, pixi.lock); "
    "{hint}"
)
# Read after the target is known: which of their entries apply depends on its platform.
_PIXI = ("pixi.toml", "pixi.lock")


def file_kind(path: Path) -> str:
    name = path.name.lower()
    if name.endswith("pyproject.toml"):
        return "pyproject"
    if name.endswith("pixi.toml"):
        return "pixi.toml"
    if name.endswith("pixi.lock"):
        return "pixi.lock"
    if name.endswith((".yml", ".yaml")):
        from compat.facts.declared import condaenv, condalock
        from compat.files.readers import read_bytes

        head = read_bytes(path, "lock")[:65536].decode("utf-8", errors="replace")
        if name.endswith("conda-lock.yml") or condalock.looks_like(head):
            return "conda-lock"
        if condaenv.looks_like(head):
            return "conda-env"
        raise InputError(
            "a YAML file without a top-level `dependencies:` list (conda) or `package:` list "
            "(conda-lock) is not an environment file; "
            + UNKNOWN_KIND.format(hint=REPORT_HINT).split("; ", 1)[0],
            origin=Origin(str(path)),
        )
    if _PYLOCK.match(name):
        return "pylock"
    if name.endswith("uv.lock"):
        return "uv.lock"
    if name.endswith("pipfile.lock"):
        return "pipfile.lock"
    if name.endswith("pipfile"):
        return "pipfile"
    if name.endswith("setup.py"):
        return "setup.py"
    if name.endswith(".json"):
        return "pip-report"
    if name.endswith((".txt", ".in")) or "requirements" in name or "constraints" in name:
        return "requirements"
    # No telling name: look at the content (through the bounded reader: a FIFO or a device
    # is refused here, before anything blocks on it).
    from compat.files.readers import read_bytes

    head = read_bytes(path, "lock")[:4096].decode("utf-8", errors="replace").lstrip()
    if head.startswith("{"):
        return "pipfile.lock" if '"_meta"' in head else "pip-report"
    if re.search(r"^lock-version\s*=", head, re.MULTILINE):
        return "pylock"
    if re.search(r"^\[\[package\]\]", head, re.MULTILINE):
        return "uv.lock"
    if re.search(r"^version: \d+\s*\nenvironments:", head, re.MULTILINE):
        return "pixi.lock"
    if re.search(r"^\[workspace\]", head, re.MULTILINE):
        return "pixi.toml"
    if re.search(r"^\[(project|tool\.poetry[.\]])", head, re.MULTILINE):
        return "pyproject"
    if re.search(r"^\[(packages|dev-packages)\]", head, re.MULTILINE):
        return "pipfile"
    if re.search(r"^\s*(from setuptools|import setuptools)", head, re.MULTILINE):
        return "setup.py"
    from compat.facts.declared.condaenv import looks_like

    if looks_like(head):
        return "conda-env"
    raise InputError(UNKNOWN_KIND.format(hint=REPORT_HINT), origin=Origin(str(path)))


MarkersFor = Callable[[Sequence[tuple[str, Origin]]], Mapping[str, str]]


def read_declared(
    paths: Sequence[Path],
    *,
    environ: Mapping[str, str] | None = None,
    markers_for: MarkersFor | None = None,
    pixi_environment: str | None = None,
    platform: str | None = None,
) -> DeclaredSet:
    """Read every file. uv.lock files are read last: which of their entries a target installs
    depends on the target, and the target's Python can come from the other files
    (`markers_for(requires_python)` gives it). pixi files depend on the target platform only
    (`platform`, as --platform spells it; default: this machine's)."""
    env = os.environ if environ is None else environ
    files: list[str] = []
    options: dict[str, list[str]] = {}
    pooled = FileResult()
    uv_locks: list[tuple[Path, tuple[dict[str, Any], str]]] = []
    conda = None
    for path in paths:
        if path.is_dir():
            raise InputError(
                "is a directory: give the requirement or lock files in it", origin=Origin(str(path))
            )
        kind = file_kind(path)
        if kind == "requirements":
            result = read_requirements(path, environ=env, result=RequirementsResult())
            pooled.requirements += result.requirements
            pooled.indexes += result.indexes
            pooled.notes += result.notes
            files += result.files
            for key, values in result.options.items():
                options.setdefault(key, []).extend(values)
            continue
        files.append(str(path))
        if kind == "uv.lock":
            loaded = load_toml(path)  # parsed once: a real uv.lock is often 0.5 MB
            uv_locks.append((path, loaded))
            pooled.python += uv_lock_python(path, loaded)
            continue
        if kind == "conda-lock":
            from compat.facts.declared.condalock import read_conda_lock
            from compat.facts.declared.pixi import platform_of

            lock_result, facts = read_conda_lock(path, platform_of(platform))
            _merge(pooled, lock_result)
            conda = _merge_conda(conda, facts)
            continue
        if kind in _PIXI or kind == "pyproject":  # a pyproject's [tool.pixi], if any
            found = _read_pixi(path, kind, platform, pixi_environment)
            if found is not None:
                _merge(pooled, found[0])
                conda = _merge_conda(conda, found[1])
            if kind in _PIXI:
                continue
        if kind == "conda-env":
            from compat.facts.declared.condaenv import read_environment_yml

            conda_result, facts = read_environment_yml(path, env)
            _merge(pooled, conda_result)
            conda = _merge_conda(conda, facts)
            continue
        _merge(pooled, _read_one(path, kind))
    for path, loaded in uv_locks:
        markers = markers_for(pooled.python) if markers_for is not None else None
        pooled.requirements += read_uv_lock(path, markers, loaded)
    return DeclaredSet(
        tuple(pooled.requirements),
        tuple(files),
        {k: tuple(v) for k, v in options.items()},
        indexes=tuple(pooled.indexes),
        requires_python=tuple(pooled.python),
        hardware=tuple(pooled.hardware),
        notes=tuple(pooled.notes),
        conda=conda,
    )


def pixi_environments(paths: Sequence[Path]) -> list[str]:
    """Every environment the pixi files among `paths` define (a pyproject's [tool.pixi] too),
    `default` first; [] when there is no pixi file."""
    from compat.facts.declared import pixi

    names: dict[str, None] = {}
    for path in paths:
        if path.is_dir() or not path.is_file():
            continue
        try:
            kind = file_kind(path)
        except InputError:
            continue  # said when the file is read
        if kind in _PIXI or kind == "pyproject":
            names.update(dict.fromkeys(pixi.environment_names(path, kind)))
    return sorted(names, key=lambda name: name != "default")


def _merge_conda(into: Any, facts: Any) -> Any:
    if into is None:
        return facts
    into.merge(facts)
    return into


def _read_pixi(
    path: Path, kind: str, platform: str | None, environment: str | None
) -> tuple[FileResult, Any] | None:
    """pixi.toml, pixi.lock, or the `[tool.pixi]` table of a pyproject.toml (None: it has none)."""
    from compat.facts.declared import pixi

    target = pixi.platform_of(platform)
    if kind == "pixi.lock":
        return pixi.read_lock(path, target, environment)
    document, text = load_toml(path)
    if kind == "pyproject":
        tool = document.get("tool")
        root = tool.get("pixi") if isinstance(tool, dict) else None
        if not isinstance(root, dict):
            return None
        return pixi.read_manifest(path, root, target, environment, text)
    return pixi.read_manifest(path, document, target, environment, text)


def _merge(into: FileResult, result: FileResult) -> None:
    into.requirements += result.requirements
    into.python += result.python
    into.hardware += result.hardware
    into.indexes += result.indexes
    into.notes += result.notes


def _read_one(path: Path, kind: str) -> FileResult:
    if kind == "pyproject":
        return read_pyproject(path)
    if kind == "pylock":
        return FileResult(requirements=read_pylock(path))
    if kind == "setup.py":
        from compat.facts.declared.setuppy import read_setup_py

        requirements, python, notes = read_setup_py(path)
        return FileResult(requirements=requirements, python=python, notes=notes)
    if kind == "pipfile":
        from compat.facts.declared.pipfile import read_pipfile

        pipenv = read_pipfile(path)
        return FileResult(pipenv.requirements, pipenv.python, [], pipenv.indexes, pipenv.notes)
    from compat.files.readers import read_text

    text = read_text(path, "lock")
    if kind == "pipfile.lock":
        from compat.facts.declared.pipfile import read_pipfile_lock

        pipenv = read_pipfile_lock(path, text)
        return FileResult(pipenv.requirements, pipenv.python, [], pipenv.indexes, pipenv.notes)
    return FileResult(requirements=read_pip_report(path, text))
