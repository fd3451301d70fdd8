"""Poetry projects: `[tool.poetry.dependencies]`, `[tool.poetry.group.NAME.dependencies]` and
`[tool.poetry.dev-dependencies]`, with Poetry's constraint syntax turned into PEP 440.

Poetry's caret and tilde (https://python-poetry.org/docs/dependency-specification/):
`^1.2.3` is `>=1.2.3,<2.0.0`, `^0.2.3` is `>=0.2.3,<0.3.0`, `^0.0.3` is `>=0.0.3,<0.0.4`;
`~1.2.3` is `>=1.2.3,<1.3.0`, `~1` is `>=1,<2`; a bare version is `==`; `*` is any version.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from packaging.specifiers import SpecifierSet

from compat.errors import InputError
from compat.facts.declared.entries import Declared, parse_requirement
from compat.facts.declared.tables import Note, TableSyntax, table_requirement
from compat.model import Origin

_PART = re.compile(r"^(\^|~=|~|==|!=|>=|<=|>|<|=)?\s*(\S+)$")


def _bump(release: list[int], position: int) -> str:
    upper = [*release[:position], release[position] + 1]
    return ".".join(str(p) for p in upper)


def _caret(version: str) -> str:
    release = [int(p) for p in version.split(".") if p.isdigit()]
    if not release:
        raise ValueError(version)
    # The first non-zero part is bumped; all zeros: the last (^0.0 -> <0.1, ^0 -> <1).
    position = next((i for i, p in enumerate(release) if p != 0), len(release) - 1)
    return f">={version},<{_bump(release, position)}"


def _tilde(version: str) -> str:
    release = [int(p) for p in version.split(".") if p.isdigit()]
    if not release:
        raise ValueError(version)
    position = 0 if len(release) == 1 else 1
    return f">={version},<{_bump(release, position)}"


def pep440(constraint: str) -> str | None:
    """A Poetry constraint as a PEP 440 specifier; None for `||` alternatives (no equivalent)."""
    text = constraint.strip()
    if text in ("", "*"):
        return ""
    if "||" in text or "|" in text:
        return None
    parts = [p for p in re.split(r"\s*,\s*|\s+(?=[<>=!^~])", text) if p]
    out = []
    for part in parts:
        match = _PART.match(part)
        if match is None:
            raise ValueError(constraint)
        operator, version = match.groups()
        if operator == "^":
            out.append(_caret(version))
        elif operator == "~":
            out.append(_tilde(version))
        elif operator in (None, "="):
            out.append(f"=={version}")
        else:
            out.append(f"{operator}{version}")
    return ",".join(out)


def _version(name: str, entry: Mapping[str, Any], origin: Origin, note: Note) -> str | None:
    try:
        spec = pep440(str(entry.get("version", "*")))
    except ValueError:
        raise InputError(
            f"{name}: cannot read the Poetry constraint {entry.get('version')!r}", origin=origin
        ) from None
    if spec is None:
        note(f"{origin}: {name} {entry.get('version')}: `||` alternatives are not checked")
    return spec


def _markers(entry: Mapping[str, Any]) -> str:
    markers = [str(entry["markers"])] if entry.get("markers") else []
    if entry.get("python"):
        python = pep440(str(entry["python"]))
        if python:
            markers += [
                f"python_full_version {spec.operator} '{spec.version}'"
                for spec in SpecifierSet(python)
            ]
    return " ; " + " and ".join(f"({m})" for m in markers) if markers else ""


POETRY = TableSyntax(
    refs=("rev", "tag", "branch"),
    url=True,
    local=("path",),
    local_note=lambda name, entry: f"{name} is a local path ({entry['path']}): not checked",
    version=_version,
    markers=_markers,
)


def _requirement(name: str, value: Any, origin: Origin, group: str, note: Note) -> list[Declared]:
    if isinstance(value, list):  # multiple constraints, each with its own markers
        return [d for item in value for d in _requirement(name, item, origin, group, note)]
    text = table_requirement(name, value, origin, POETRY, note)
    return [] if text is None else [parse_requirement(text, origin, "requirement", group)]


def read_poetry(
    document: dict[str, Any], path: Path, line_of: Callable[[str, str], int | None]
) -> tuple[list[Declared], list[tuple[str, Origin]], list[str]]:
    """(requirements, python constraint, notes) of `[tool.poetry]`; line_of(table, key) finds lines."""
    poetry = document.get("tool", {}).get("poetry", {})
    tables: list[tuple[str, str, Any]] = [
        ("", "tool.poetry.dependencies", poetry.get("dependencies"))
    ]
    tables.append(("group.dev", "tool.poetry.dev-dependencies", poetry.get("dev-dependencies")))
    for group, body in (poetry.get("group") or {}).items():
        if isinstance(body, dict):
            tables.append((f"group.{group}", f"tool.poetry.group.{group}.dependencies",
                           body.get("dependencies")))  # fmt: skip
    out: list[Declared] = []
    python: list[tuple[str, Origin]] = []
    notes: list[str] = []
    for group, table, entries in tables:
        if entries is None:
            continue
        if not isinstance(entries, dict):
            raise InputError(f"[{table}] must be a table", origin=Origin(str(path)))
        for name, value in entries.items():
            origin = Origin(str(path), line_of(table, name))
            if name.lower() == "python":
                spec = pep440(str(value if isinstance(value, str) else value.get("version", "")))
                if spec:
                    python.append((spec, origin))
                continue
            out += _requirement(name, value, origin, group, notes.append)
    return out, python, notes
