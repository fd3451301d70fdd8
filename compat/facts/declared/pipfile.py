"""Pipenv's files: `Pipfile` (TOML: `[packages]`, `[dev-packages]`, `[[source]]`, `[requires]`)
and `Pipfile.lock` (JSON: `default`/`develop` maps of exact `==` versions, `_meta.sources`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name

from compat.errors import InputError
from compat.facts.declared.entries import Declared, IndexLine, locked, parse_requirement
from compat.facts.declared.tables import Note, TableSyntax, table_requirement
from compat.files.jsonio import parse_json
from compat.model import Origin


class PipenvResult:
    def __init__(self) -> None:
        self.requirements: list[Declared] = []
        self.python: list[tuple[str, Origin]] = []
        self.indexes: list[IndexLine] = []
        self.notes: list[str] = []


def _line(lines: list[str], needle: str, start: int = 0) -> int | None:
    for index in range(start, len(lines)):
        if lines[index].lstrip().startswith(needle):
            return index + 1
    return None


def _sources(sources: Any, path: Path, lines: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for source in sources if isinstance(sources, list) else []:
        if isinstance(source, dict) and isinstance(source.get("url"), str):
            out[str(source.get("name", ""))] = source["url"]
    return out


def _python(requires: Any) -> str | None:
    if not isinstance(requires, dict):
        return None
    full, short = requires.get("python_full_version"), requires.get("python_version")
    if isinstance(full, str):
        return f"=={full}"
    if isinstance(short, str):
        return f"=={short}.*"
    return None


def _version(name: str, entry: Mapping[str, Any], origin: Origin, note: Note) -> str:
    version = str(entry.get("version", "*")).strip()
    return "" if version == "*" else version  # Pipenv writes PEP 440 already


def _markers(entry: Mapping[str, Any]) -> str:
    return f" ; {entry['markers']}" if entry.get("markers") else ""


PIPENV = TableSyntax(
    refs=("ref",),
    url=False,
    local=("file", "path"),
    local_note=lambda name, entry: f"{name} is a local path or file: not checked",
    version=_version,
    markers=_markers,
)


def read_pipfile(path: Path) -> PipenvResult:
    from compat.facts.declared.tomlfiles import load_toml

    document, text = load_toml(path)
    lines = text.splitlines()
    result = PipenvResult()
    sources = _sources(document.get("source"), path, lines)
    python = _python(document.get("requires"))
    if python:
        result.python.append((python, Origin(str(path), _line(lines, "python_"))))
    for section, group in (("packages", ""), ("dev-packages", "dev-packages")):
        table = document.get(section) or {}
        if not isinstance(table, dict):
            raise InputError(f"[{section}] must be a table", origin=Origin(str(path)))
        start = (_line(lines, f"[{section}]") or 1) - 1
        for name, value in table.items():
            origin = Origin(str(path), _line(lines, f"{name} ", start) or _line(lines, name, start))
            requirement = table_requirement(
                name,
                value if isinstance(value, str) else (value or {}),
                origin,
                PIPENV,
                result.notes.append,
            )
            if requirement is None:
                continue
            result.requirements.append(parse_requirement(requirement, origin, "requirement", group))
            index = value.get("index") if isinstance(value, dict) else None
            if isinstance(index, str) and index in sources:
                result.indexes.append(
                    IndexLine(sources[index], origin, packages=(canonicalize_name(name),))
                )
    return result


def read_pipfile_lock(path: Path, text: str) -> PipenvResult:
    document = parse_json(text, str(path))
    if not isinstance(document, dict) or not isinstance(document.get("_meta"), dict):
        raise InputError("not a Pipfile.lock (no _meta)", origin=Origin(str(path), 1))
    lines = text.splitlines()
    meta = document["_meta"]
    result = PipenvResult()
    sources = _sources(meta.get("sources"), path, lines)
    python = _python(meta.get("requires"))
    if python:
        result.python.append((python, Origin(str(path), _line(lines, '"python_'))))
    for section in ("default", "develop"):
        entries = document.get(section) or {}
        start = (_line(lines, f'"{section}"') or 1) - 1
        for name, entry in entries.items() if isinstance(entries, dict) else ():
            origin = Origin(str(path), _line(lines, f'"{name}"', start))
            if not isinstance(entry, dict):
                continue
            version = entry.get("version")
            if isinstance(version, str) and version.startswith("=="):
                result.requirements.append(
                    locked(name, version[2:], origin, "lock", entry.get("markers"))
                )
            elif "git" in entry:
                ref = entry.get("ref", "")
                text_ = f"{name} @ git+{entry['git']}" + (f"@{ref}" if ref else "")
                result.requirements.append(parse_requirement(text_, origin, "lock"))
            index = entry.get("index")
            if isinstance(index, str) and index in sources:
                result.indexes.append(
                    IndexLine(sources[index], origin, packages=(canonicalize_name(name),))
                )
    return result
