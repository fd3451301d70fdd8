"""The layering of docs/architecture.md, kept true: every import of compat's own modules points
down (or stays inside its own package), and no import circle exists.

Imports are read from the source with `ast`, all of them: module level, inside functions (the
lazy imports that keep start-up fast still make a dependency) and under `TYPE_CHECKING`. The
parent packages Python imports implicitly are not edges: `compat.facts.installed` does not
depend on whatever `compat/facts/__init__.py` might import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lib import paths

ROOT = paths.COMPAT

# Bottom first. A module may import modules of its own unit and of any unit on a lower floor;
# units on the same floor (facts, kb, reportdoc) never import each other. formats/ sits above
# commands/ and fleet/, so it renders every command's result; the report's JSON writer
# (reportdoc) stays low, beside Report, for fleet. The bottom floor is one
# unit: the model, errors and vocabulary every layer shares, and the engine.
FLOORS: tuple[tuple[str, ...], ...] = (
    (
        "compat",
        "compat.model",
        "compat.errors",
        "compat.names",
        "compat.usage",
        "compat.report",
        "compat.engine",
        "compat.envopts",
        "compat.specifiers",
        "compat.versions",
        "compat.symptoms",
        "compat.lazyre",
    ),
    ("compat.files",),
    ("compat.binary",),
    ("compat.probes",),
    ("compat.facts", "compat.kb", "compat.reportdoc"),
    ("compat.resolve", "compat.diagnose"),
    ("compat.commands",),
    ("compat.fleet",),
    ("compat.formats",),
    ("compat.cli",),
    ("compat.__main__",),
)
BOTTOM = FLOORS[0]


def module_files() -> dict[str, Path]:
    modules = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


MODULES = module_files()


def imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """(imported compat module, line) for every import statement in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "compat":
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base.split(".")[0] != "compat":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield (sub if sub in MODULES else base), node.lineno


def graph() -> dict[str, dict[str, int]]:
    return {
        name: {target: line for target, line in imports(name, path) if target != name}
        for name, path in MODULES.items()
    }


def unit_of(module: str) -> tuple[int, str] | None:
    """(floor, unit): the package it lives in, or itself for a bottom module."""
    for floor, units in enumerate(FLOORS):
        for unit in units:
            if (
                module == unit
                if unit in BOTTOM
                else module.startswith(unit + ".") or module == unit
            ):
                return floor, unit
    return None


def test_every_module_lives_on_a_floor() -> None:
    """A new module must be placed: in the package of its layer, or (rarely) named here."""
    homeless = sorted(name for name in MODULES if unit_of(name) is None)
    assert not homeless, f"modules on no floor of tests/product/test_layers.py: {homeless}"


def test_imports_point_down() -> None:
    upward = []
    for name, targets in graph().items():
        here = unit_of(name)
        assert here is not None
        for target, line in targets.items():
            there = unit_of(target)
            assert there is not None, f"{name} imports {target}, which does not exist"
            same_unit = here[1] == there[1] or (here[1] in BOTTOM and there[1] in BOTTOM)
            if not same_unit and there[0] >= here[0]:
                upward.append(f"{MODULES[name]}:{line}: {name} ({here[1]}) imports {target}")
    assert not upward, "imports that do not point down:\n" + "\n".join(upward)


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
                continue
            if child not in edges:
                continue
            if child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_no_import_circles() -> None:
    found = cycles(graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}, [["a", "b", "c"]]),
        ({"a": {"b": 1}, "b": {}}, []),
        ({"a": {"b": 1}, "b": {"a": 1}, "c": {"a": 1}}, [["a", "b"]]),
    ],
)
def test_the_circle_finder_finds_circles(
    edges: dict[str, dict[str, int]], expected: list[list[str]]
) -> None:
    assert cycles(edges) == expected


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    """The reader sees lazy and TYPE_CHECKING imports too (a test that cannot fail is no test)."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from compat.kb.knowledge import KnowledgeBase\n"
        "def f():\n"
        "    from compat.commands import doctor\n"
        "    import compat.cli\n"
    )
    found = list(imports("compat.probes.probe", source))
    assert found == [
        ("compat.kb.knowledge", 3),
        ("compat.commands.doctor", 5),
        ("compat.cli", 6),
    ]
    floors = [unit_of(target) for target, _ in found]
    probes = unit_of("compat.probes.gpu")
    assert probes is not None
    assert all(floor is not None and floor[0] > probes[0] for floor in floors)


def test_the_wiring_floors_hold_no_long_function() -> None:
    """commands/ and cli/ wire the layers below; an algorithm there (a body over 60 lines, the
    docstring and a long typer signature not counted) belongs on a lower floor (issue 24)."""
    long: list[str] = []
    for package in ("commands", "cli"):
        for path in sorted((ROOT / package).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                body = node.body
                docstring = (
                    isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)
                )
                first = body[1] if docstring and len(body) > 1 else body[0]
                length = (node.end_lineno or first.lineno) - first.lineno + 1
                if length > 60:
                    long.append(f"{path}:{node.lineno}: {node.name} is {length} lines")
    assert not long, "\n".join(long)
