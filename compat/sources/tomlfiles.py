"""TOML-based inputs: pyproject.toml (PEP 621 + PEP 735), pylock.toml (PEP 751) and uv.lock.

tomllib gives no positions, so each entry's line is found by scanning the text for it: the
quoted requirement string, or a lock entry's `name = "..."` line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.model import Origin
from compat.sources.declared import Declared, locked, parse_requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SUPPORTED_PYLOCK_MAJOR = 1
SUPPORTED_UV_LOCK_VERSION = 1


def load_toml(path: Path) -> tuple[dict[str, Any], str]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", origin=Origin(str(path))) from None
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(f"cannot read: {reason}", origin=Origin(str(path))) from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else getattr(error, "lineno", None)
        reason = message.split(" (at line")[0]
        raise InputError(f"invalid TOML: {reason}", origin=Origin(str(path), line)) from None


class _LineFinder:
    """Lines of entries, found in order so that repeated strings get successive lines."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.cursor: dict[str, int] = {}

    def find(self, needle: str, start_at: int = 0) -> int | None:
        begin = max(self.cursor.get(needle, 0), start_at)
        for index in range(begin, len(self.lines)):
            if needle in self.lines[index]:
                self.cursor[needle] = index + 1
                return index + 1
        for index in range(len(self.lines)):  # out of order: fall back to the first occurrence
            if needle in self.lines[index]:
                return index + 1
        return None

    def quoted(self, value: str) -> int | None:
        return self.find(f'"{value}"') or self.find(f"'{value}'")

    def table(self, header: str) -> int:
        for index, line in enumerate(self.lines):
            if line.strip() == header:
                return index
        return 0


def read_pyproject(path: Path) -> list[Declared]:
    document, text = load_toml(path)
    lines = _LineFinder(text)
    out: list[Declared] = []

    def add(requirement: Any, where: str) -> None:
        if not isinstance(requirement, str):
            raise InputError(
                f"{where}: expected a requirement string, got {requirement!r}",
                origin=Origin(str(path)),
            )
        out.append(
            parse_requirement(
                requirement, Origin(str(path), lines.quoted(requirement)), "requirement"
            )
        )

    project = document.get("project", {})
    if not isinstance(project, dict):
        raise InputError("[project] must be a table", origin=Origin(str(path)))
    for requirement in project.get("dependencies", []):
        add(requirement, "project.dependencies")
    for group, requirements in (project.get("optional-dependencies") or {}).items():
        for requirement in requirements:
            add(requirement, f"project.optional-dependencies.{group}")
    groups = document.get("dependency-groups", {})
    if not isinstance(groups, dict):
        raise InputError("[dependency-groups] must be a table", origin=Origin(str(path)))
    for group in groups:
        for requirement in _expand_group(groups, group, (), path, lines):
            add(requirement, f"dependency-groups.{group}")
    return out


def _expand_group(
    groups: dict[str, Any], name: str, stack: tuple[str, ...], path: Path, lines: _LineFinder
) -> list[str]:
    """PEP 735 groups with `{include-group = "..."}`; cycles are an error."""
    if name in stack:
        chain = " -> ".join((*stack, name))
        raise InputError(
            f"dependency-groups include cycle: {chain}",
            origin=Origin(str(path), lines.find("include-group")),
        )
    if name not in groups:
        raise InputError(
            f"dependency-groups: unknown group {name!r}", origin=Origin(str(path), lines.find(name))
        )
    out: list[str] = []
    for item in groups[name]:
        if isinstance(item, dict) and "include-group" in item:
            continue  # the included group's entries are read when that group itself is read
        out.append(item)
    for item in groups[name]:
        if isinstance(item, dict) and "include-group" in item:
            _expand_group(groups, str(item["include-group"]), (*stack, name), path, lines)
    return out


def read_pylock(path: Path) -> list[Declared]:
    """PEP 751 lock files: `lock-version = "1.0"`, `[[packages]]` with name, version, marker."""
    document, text = load_toml(path)
    lines = _LineFinder(text)
    version = str(document.get("lock-version", ""))
    if not re.fullmatch(r"\d+(\.\d+)*", version):
        raise InputError(
            "pylock: missing or invalid lock-version",
            origin=Origin(str(path), lines.find("lock-version")),
        )
    if int(version.split(".")[0]) != SUPPORTED_PYLOCK_MAJOR:
        raise InputError(
            f"pylock: lock-version {version} is not supported (compat reads {SUPPORTED_PYLOCK_MAJOR}.x)",
            origin=Origin(str(path), lines.find("lock-version")),
        )
    out = []
    for entry in document.get("packages", []):
        name, pinned = entry.get("name"), entry.get("version")
        origin = Origin(str(path), lines.quoted(str(name)))
        if not isinstance(name, str):
            raise InputError("pylock: a [[packages]] entry has no name", origin=origin)
        if pinned is None:
            continue  # a VCS/directory entry without a version: nothing to compare
        out.append(locked(name, str(pinned), origin, "lock", entry.get("marker")))
    return out


def read_uv_lock(path: Path) -> list[Declared]:
    """uv.lock (`version = 1`): every `[[package]]` except the project itself (editable/virtual)."""
    document, text = load_toml(path)
    lines = _LineFinder(text)
    version = document.get("version")
    if version != SUPPORTED_UV_LOCK_VERSION:
        raise InputError(
            f"uv.lock: lock version {version!r} is not supported (compat reads version {SUPPORTED_UV_LOCK_VERSION})",
            origin=Origin(str(path), lines.find("version")),
        )
    out = []
    for entry in document.get("package", []):
        name, pinned = entry.get("name"), entry.get("version")
        source = entry.get("source", {})
        if not isinstance(name, str):
            raise InputError("uv.lock: a [[package]] entry has no name", origin=Origin(str(path)))
        origin = Origin(str(path), lines.find(f'name = "{name}"'))
        if isinstance(source, dict) and ("editable" in source or "virtual" in source):
            continue  # the project being locked, not a dependency
        if pinned is None:
            continue
        out.append(locked(name, str(pinned), origin, "lock"))
    return out
