"""TOML-based inputs: pyproject.toml (PEP 621 + PEP 735), pylock.toml (PEP 751) and uv.lock.

tomllib gives no positions, so each entry's line is found by scanning the text for it: the
quoted requirement string, or a lock entry's `name = "..."` line.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packaging.markers import InvalidMarker, UndefinedComparison, UndefinedEnvironmentName
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion

from compat.errors import InputError
from compat.facts.declared.entries import Declared, FileResult, IndexLine, locked, parse_requirement
from compat.model import Origin
from compat.versions import parse_marker

SUPPORTED_PYLOCK_MAJOR = 1
SUPPORTED_UV_LOCK_VERSION = 1


def load_toml(path: Path) -> tuple[dict[str, Any], str]:
    from compat.files.readers import parse_toml, read_text

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


LineFinder = _LineFinder  # for the other TOML readers (compat.facts.declared.pixi)


def read_pyproject(path: Path) -> FileResult:
    """PEP 621 dependencies and extras, PEP 735 groups, Poetry's tables, requires-python,
    `[tool.compat] hardware`, and the package indexes `[tool.uv.sources]` sends packages to."""
    document, text = load_toml(path)
    lines = _LineFinder(text)
    result = FileResult()
    out = result.requirements

    def add(requirement: Any, where: str) -> None:
        if not isinstance(requirement, str):
            raise InputError(
                f"{where}: expected a requirement string, got {requirement!r}",
                origin=Origin(str(path)),
            )
        group = "" if where == "project.dependencies" else where
        out.append(
            parse_requirement(
                requirement, Origin(str(path), lines.quoted(requirement)), "requirement", group
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
    if isinstance(project.get("requires-python"), str):
        result.python.append(
            (project["requires-python"], Origin(str(path), lines.find("requires-python")))
        )
    tool = document.get("tool", {}) if isinstance(document.get("tool"), dict) else {}
    if isinstance(tool.get("poetry"), dict):
        from compat.facts.declared.poetry import read_poetry

        def line_of(table: str, key: str) -> int | None:
            start = lines.table(f"[{table}]")
            return lines.find(f"{key} =", start) or lines.find(f'"{key}"', start)

        poetry, python, notes = read_poetry(document, path, line_of)
        out += poetry
        result.python += python
        result.notes += notes
    compat_tool = tool.get("compat", {})
    if isinstance(compat_tool, dict) and isinstance(compat_tool.get("hardware"), str):
        result.hardware.append((compat_tool["hardware"], Origin(str(path), lines.find("hardware"))))
    result.indexes += _uv_indexes(tool.get("uv"), path, lines)
    result.requirements[:] = _uv_direct_sources(tool.get("uv"), result.requirements)
    return result


def _uv_direct_sources(uv: Any, requirements: list[Declared]) -> list[Declared]:
    """A package `[tool.uv.sources]` sends to a git repository, a URL, a local path or a
    workspace member is installed from there, not from the package index (uv reads the
    sources for `uv sync` and `uv pip install -r pyproject.toml`): it is a direct reference,
    which the resolve does not ask the index for. Only a single source without a marker is
    read; a list of sources per platform keeps the registry requirement."""
    from dataclasses import replace

    if not isinstance(uv, dict) or not isinstance(uv.get("sources"), dict):
        return requirements
    urls: dict[NormalizedName, str] = {}
    for package, source in uv["sources"].items():
        if not isinstance(source, dict) or "marker" in source or "index" in source:
            continue
        if isinstance(source.get("git"), str):
            ref = next(
                (
                    str(source[k])
                    for k in ("rev", "tag", "branch")
                    if isinstance(source.get(k), str)
                ),
                None,
            )
            url = f"git+{source['git']}" + (f"@{ref}" if ref else "")
            if isinstance(source.get("subdirectory"), str):
                url += f"#subdirectory={source['subdirectory']}"
        elif isinstance(source.get("url"), str):
            url = source["url"]
        elif isinstance(source.get("path"), str):
            url = f"file:{source['path']}"
        elif source.get("workspace") is True:
            url = "file:(a uv workspace member)"
        else:
            continue
        urls[canonicalize_name(str(package))] = url
    return [
        replace(item, url=urls[item.name]) if item.name in urls and not item.url else item
        for item in requirements
    ]


def _uv_indexes(uv: Any, path: Path, lines: _LineFinder) -> list[IndexLine]:
    """`[[tool.uv.index]]` (default = true replaces PyPI) and the packages `[tool.uv.sources]`
    sends to an index, with the source's marker, and whether it is bound to a group or extra
    that is not installed by default (`[tool.uv] default-groups`, else uv's `dev`)."""
    if not isinstance(uv, dict):
        return []
    indexes = [
        i for i in uv.get("index", []) if isinstance(i, dict) and isinstance(i.get("url"), str)
    ]
    by_name = {str(i.get("name")): i for i in indexes}
    default_groups = uv.get("default-groups", ["dev"])
    if not isinstance(default_groups, list):
        default_groups = []  # "all": no group is a default over another
    out = []
    for package, sources in (uv.get("sources") or {}).items():
        for source in sources if isinstance(sources, list) else [sources]:
            if not isinstance(source, dict) or source.get("index") not in by_name:
                continue
            index = by_name[source["index"]]
            optional = "extra" in source or (
                "group" in source and source["group"] not in default_groups
            )
            out.append(
                IndexLine(
                    index["url"],
                    Origin(str(path), lines.quoted(index["url"])),
                    packages=(canonicalize_name(package),),
                    marker=str(source.get("marker", "")),
                    optional=optional,
                )
            )
    for index in indexes:
        if not index.get("explicit"):  # explicit indexes serve only what sources send them
            origin = Origin(str(path), lines.quoted(index["url"]))
            out.append(IndexLine(index["url"], origin, replaces_default=bool(index.get("default"))))
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


def uv_lock_python(
    path: Path, loaded: tuple[dict[str, Any], str] | None = None
) -> list[tuple[str, Origin]]:
    """A uv.lock's top-level `requires-python`."""
    document, text = loaded or load_toml(path)
    value = document.get("requires-python")
    if not isinstance(value, str):
        return []
    return [(value, Origin(str(path), _LineFinder(text).find("requires-python")))]


def read_uv_lock(
    path: Path,
    markers: Mapping[str, str] | None = None,
    loaded: tuple[dict[str, Any], str] | None = None,
) -> list[Declared]:
    """uv.lock (`version = 1`): the packages installed for the target environment.

    uv locks every platform at once: a name can have several entries (one per fork, told apart by
    `resolution-markers`), and dependency edges carry markers. With a target, the packages are
    those reachable from the project's own entries (editable/virtual: its dependencies and
    extras, and the `dev` group `uv sync` installs by default; other groups only by choice) along
    edges whose marker holds for the target, with no conflicting group chosen. Without a project
    entry, entries whose resolution markers hold. Without a target, every entry.
    """
    document, text = loaded or load_toml(path)
    lines = _LineFinder(text)
    version = document.get("version")
    if version != SUPPORTED_UV_LOCK_VERSION:
        raise InputError(
            f"uv.lock: lock version {version!r} is not supported (compat reads version {SUPPORTED_UV_LOCK_VERSION})",
            origin=Origin(str(path), lines.find("version")),
        )
    entries = _entries(document, "package", path, "uv.lock")
    # Each [[package]] table's `name = "..."` line, in document order (edges name packages too).
    name_lines = [
        number
        for number, line in enumerate(lines.lines, start=1)
        if line.startswith("name = ") and number > 1 and lines.lines[number - 2] == "[[package]]"
    ]
    origins: list[Origin] = []
    for position, entry in enumerate(entries):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            raise InputError("uv.lock: a [[package]] entry has no name", origin=Origin(str(path)))
        line = name_lines[position] if position < len(name_lines) else None
        origins.append(Origin(str(path), line or lines.find(f'name = "{name}"')))
    chosen = _uv_reachable(entries, markers) if markers is not None else None
    out = []
    for position, entry in enumerate(entries):
        name, pinned = entry["name"], entry.get("version")
        if _is_project(entry) or pinned is None:
            continue
        if chosen is not None and position not in chosen:
            continue
        if not isinstance(pinned, str):
            raise InputError(f"uv.lock: {name}: version must be a string", origin=origins[position])
        out.append(locked(name, pinned, origins[position], "lock"))
    return out


def _entries(document: dict[str, Any], key: str, path: Path, what: str) -> list[dict[str, Any]]:
    entries = document.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InputError(f"{what}: {key} must be an array of tables", origin=Origin(str(path)))
    return entries


def _is_project(entry: dict[str, Any]) -> bool:
    source = entry.get("source", {})
    return isinstance(source, dict) and ("editable" in source or "virtual" in source)


def _holds(marker: Any, env: Mapping[str, str]) -> bool:
    if not marker:
        return True
    try:
        return parse_marker(str(marker)).evaluate({**env, "extra": ""})
    except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName, InvalidVersion):
        return True  # a marker compat cannot read: keep the edge rather than lose a package
    except RecursionError:
        return True


def _uv_reachable(entries: list[dict[str, Any]], env: Mapping[str, str]) -> set[int]:
    by_name: dict[str, list[int]] = {}
    for position, entry in enumerate(entries):
        by_name.setdefault(str(entry["name"]), []).append(position)
    roots = [i for i, e in enumerate(entries) if _is_project(e)]
    if not roots:
        return {
            i
            for i, e in enumerate(entries)
            if not e.get("resolution-markers")
            or any(_holds(m, env) for m in e["resolution-markers"])
        }
    # (entry, extra) pairs: "" stands for the entry's own dependencies, a name for an extra's.
    done: set[tuple[int, str]] = set()
    queue = [(r, "") for r in roots]
    queue += [(r, x) for r in roots for x in _table(entries[r].get("optional-dependencies"))]
    queue += [(r, "group:dev") for r in roots]  # uv sync's default group
    while queue:
        position, extra = queue.pop()
        if (position, extra) in done:
            continue
        done.add((position, extra))
        entry = entries[position]
        if not extra:
            edges = entry.get("dependencies", [])
        elif extra == "group:dev":
            edges = _table(entry.get("dev-dependencies")).get("dev", [])
        else:
            edges = _table(entry.get("optional-dependencies")).get(extra, [])
        for edge in edges if isinstance(edges, list) else []:
            if not isinstance(edge, dict) or not _holds(edge.get("marker"), env):
                continue
            candidates = by_name.get(str(edge.get("name")), [])
            if len(candidates) > 1:
                candidates = [c for c in candidates if _same_entry(entries[c], edge)]
            for candidate in candidates:
                queue.append((candidate, ""))
                extras = edge.get("extra", [])
                queue += [(candidate, str(x)) for x in extras if isinstance(extras, list)]
    return {position for position, _ in done}


def _table(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _same_entry(entry: dict[str, Any], edge: dict[str, Any]) -> bool:
    """An edge names one of several entries of a name by version and/or source."""
    if "version" in edge and str(edge["version"]) != str(entry.get("version")):
        return False
    return "source" not in edge or edge["source"] == entry.get("source")
