"""TOML-based inputs: pyproject.toml (PEP 621 + PEP 735), pylock.toml (PEP 751) and uv.lock.

tomllib gives no positions, so each entry's line is found by scanning the text for it: the
quoted requirement string, or a lock entry's `name = "..."` line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.model import Origin
from compat.sources.declared import Declared, locked, parse_requirement

SUPPORTED_PYLOCK_MAJOR = 1
SUPPORTED_UV_LOCK_VERSION = 1


def load_toml(path: Path) -> tuple[dict[str, Any], str]:
    from compat.readers import parse_toml, read_text

    text = read_text(path, "lock")
    return parse_toml(text, path), text


# A TOML string token on one line; lines longer than _INDEXED_LINE are not indexed (their entries
# get no line number), which keeps building the index linear on hostile input.
_QUOTED = re.compile(r""""(?:[^"\\\n]|\\.)*"|'[^'\n]*'""")
_INDEXED_LINE = 10_000


class _LineFinder:
    """Lines of entries, found in order so that repeated strings get successive lines.

    Needles holding a quoted string are looked up through an index of the quoted strings on each
    line, built once: a lock file of N entries costs O(N), not O(N x lines), even when names are
    written with escapes and never match (a full scan per entry was quadratic).
    """

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.cursor: dict[str, int] = {}
        self._index: dict[str, list[int]] | None = None

    def _candidates(self, needle: str) -> Sequence[int]:
        token = _QUOTED.search(needle)
        if token is None:
            return range(len(self.lines))
        if self._index is None:
            self._index = {}
            for number, line in enumerate(self.lines):
                if len(line) > _INDEXED_LINE:
                    continue
                for match in _QUOTED.finditer(line):
                    found = self._index.setdefault(match.group(0), [])
                    if not found or found[-1] != number:
                        found.append(number)
        return self._index.get(token.group(0), [])

    def find(self, needle: str, start_at: int = 0) -> int | None:
        candidates = self._candidates(needle)
        begin = max(self.cursor.get(needle, 0), start_at)
        first = bisect.bisect_left(candidates, begin)
        for index in candidates[first:]:
            if needle in self.lines[index]:
                self.cursor[needle] = index + 1
                return index + 1
        for index in candidates[:first]:  # out of order: fall back to the first occurrence
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

    def table(value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise InputError(
                f"{where} must be a table", origin=Origin(str(path), lines.find(where))
            )
        return value

    def array(value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise InputError(
                f"{where} must be an array of requirement strings",
                origin=Origin(str(path), lines.find(where.rpartition(".")[2])),
            )
        return value

    project = table(document.get("project", {}), "project")
    for requirement in array(project.get("dependencies", []), "project.dependencies"):
        add(requirement, "project.dependencies")
    optional = table(project.get("optional-dependencies") or {}, "optional-dependencies")
    for group, requirements in optional.items():
        for requirement in array(requirements, f"project.optional-dependencies.{group}"):
            add(requirement, f"project.optional-dependencies.{group}")
    groups = table(document.get("dependency-groups", {}), "dependency-groups")
    for group, items in groups.items():
        array(items, f"dependency-groups.{group}")
    _check_includes(groups, path, lines)
    for group, items in groups.items():
        for item in items:
            if isinstance(item, dict) and "include-group" in item:
                continue  # the included group's entries are read when that group itself is read
            add(item, f"dependency-groups.{group}")
    return out


def _includes(items: list[Any]) -> list[str]:
    return [
        str(item["include-group"])
        for item in items
        if isinstance(item, dict) and "include-group" in item
    ]


def _check_includes(groups: dict[str, Any], path: Path, lines: _LineFinder) -> None:
    """PEP 735 `{include-group = "..."}`: unknown groups and cycles are errors. Each group is
    walked once (iteratively), so a chain that includes every group twice stays linear."""
    done: set[str] = set()
    for root in groups:
        if root in done:
            continue
        chain = [root]
        stack = [iter(_includes(groups[root]))]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
                done.add(chain.pop())
                continue
            if child in chain:
                cycle = " -> ".join((*chain[chain.index(child) :], child))
                raise InputError(
                    f"dependency-groups include cycle: {cycle}",
                    origin=Origin(str(path), lines.find("include-group")),
                )
            if child not in groups:
                raise InputError(
                    f"dependency-groups: unknown group {child!r}",
                    origin=Origin(str(path), lines.find(child)),
                )
            if child not in done:
                chain.append(child)
                stack.append(iter(_includes(groups[child])))


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
    for entry in _entries(document, "packages", path, "pylock"):
        name, pinned = entry.get("name"), entry.get("version")
        if not isinstance(name, str):
            raise InputError("pylock: a [[packages]] entry has no name", origin=Origin(str(path)))
        origin = Origin(str(path), lines.quoted(name))
        if pinned is None:
            continue  # a VCS/directory entry without a version: nothing to compare
        marker = entry.get("marker")
        if not isinstance(pinned, str) or not isinstance(marker, str | None):
            raise InputError(f"pylock: {name}: version and marker must be strings", origin=origin)
        out.append(locked(name, pinned, origin, "lock", marker))
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
    for entry in _entries(document, "package", path, "uv.lock"):
        name, pinned = entry.get("name"), entry.get("version")
        source = entry.get("source", {})
        if not isinstance(name, str):
            raise InputError("uv.lock: a [[package]] entry has no name", origin=Origin(str(path)))
        origin = Origin(str(path), lines.find(f'name = "{name}"'))
        if isinstance(source, dict) and ("editable" in source or "virtual" in source):
            continue  # the project being locked, not a dependency
        if pinned is None:
            continue
        if not isinstance(pinned, str):
            raise InputError(f"uv.lock: {name}: version must be a string", origin=origin)
        out.append(locked(name, pinned, origin, "lock"))
    return out


def _entries(document: dict[str, Any], key: str, path: Path, what: str) -> list[dict[str, Any]]:
    entries = document.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InputError(f"{what}: {key} must be an array of tables", origin=Origin(str(path)))
    return entries
