"""`setup.py`, read statically: the literal `install_requires`, `extras_require` and
`python_requires` of its `setup(...)` call. The file is parsed with `ast`, never executed.

Literal lists, names bound to them at module level, `+` of those, and the table idiom of
Hugging Face projects (`deps["torch"]`, `deps_list("torch", ...)` looked up in a module-level
list of requirement strings) are followed. Anything computed (comprehensions, file reads, calls)
is not guessed at: when nothing can be read the error says how to get a report compat reads.
"""

from __future__ import annotations

import ast
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from compat.errors import InputError
from compat.facts.declared.entries import Declared, parse_requirement
from compat.model import Origin

REPORT_HINT = (
    "produce a report compat can read: `pip install --dry-run --ignore-installed "
    "--report report.json .` (or `-r requirements.txt`), then `compat check report.json`"
)
_Strings = list[tuple[str, int]]


class _Module:
    """Module-level bindings of a setup.py: names, `name[key] = value` items, the requirement table."""

    def __init__(self, tree: ast.Module) -> None:
        self.names: dict[str, ast.expr] = {}
        self.items: dict[str, dict[str, ast.expr]] = {}
        self.table: dict[str, tuple[str, int]] = {}
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
                target = statement.targets[0]
                if isinstance(target, ast.Name):
                    self.names[target.id] = statement.value
                    self.items.pop(target.id, None)
                elif (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                ):
                    self.items.setdefault(target.value.id, {})[target.slice.value] = statement.value
            if isinstance(statement, ast.Assign | ast.AnnAssign) and isinstance(
                statement.value, ast.List
            ):
                for element in statement.value.elts:
                    if isinstance(element, ast.Constant) and isinstance(element.value, str):
                        try:
                            name = canonicalize_name(Requirement(element.value).name)
                        except InvalidRequirement:
                            continue
                        self.table.setdefault(name, (element.value, element.lineno))

    def lookup(self, name: str) -> _Strings | None:
        found = self.table.get(canonicalize_name(name))
        return [found] if found else None

    def strings(self, node: ast.expr | None, depth: int = 0) -> _Strings | None:
        """The requirement strings an expression stands for, with lines; None when computed."""
        if node is None or depth > 20:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [(node.value, node.lineno)]
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return self._all(node.elts, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._all([node.left, node.right], depth)
        if isinstance(node, ast.Name) and node.id in self.names:
            return self.strings(self.names[node.id], depth + 1)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            key = node.slice.value
            if isinstance(node.value, ast.Name) and isinstance(key, str):
                item = self.items.get(node.value.id, {}).get(key)
                if item is not None:
                    return self.strings(item, depth + 1)
                bound = self.names.get(node.value.id)
                if isinstance(bound, ast.Dict):
                    for k, v in zip(bound.keys, bound.values, strict=True):
                        if isinstance(k, ast.Constant) and k.value == key:
                            return self.strings(v, depth + 1)
                return self.lookup(key)  # the requirement-table idiom: deps["torch"]
            return None
        if isinstance(node, ast.Call) and node.args and not node.keywords:
            names = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if len(names) == len(node.args) and all(isinstance(n, str) for n in names):
                return self._all_lookups([str(n) for n in names])  # deps_list("torch", ...)
        return None

    def _all(self, nodes: list[ast.expr], depth: int) -> _Strings | None:
        out: _Strings = []
        for element in nodes:
            found = self.strings(element, depth + 1)
            if found is None:
                return None
            out += found
        return out

    def _all_lookups(self, names: list[str]) -> _Strings | None:
        out: _Strings = []
        for name in names:
            found = self.lookup(name)
            if found is None:
                return None
            out += found
        return out

    def groups(self, node: ast.expr | None, depth: int = 0) -> dict[str, ast.expr] | None:
        """`extras_require`: a dict literal, or a name bound to one and filled item by item."""
        if isinstance(node, ast.Dict):
            out: dict[str, ast.expr] = {}
            for key, value in zip(node.keys, node.values, strict=True):
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    return None
                out[key.value] = value
            return out
        if isinstance(node, ast.Name) and depth < 20:
            base = self.groups(self.names.get(node.id), depth + 1) or {}
            return {**base, **self.items.get(node.id, {})} if node.id in self.names else None
        return None


def _setup_call(tree: ast.Module) -> ast.Call | None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "setup":
                return node
    return None


def read_setup_py(path: Path) -> tuple[list[Declared], list[tuple[str, Origin]], list[str]]:
    """(requirements, python_requires, notes) of a setup.py; InputError when nothing is literal."""
    from compat.files.readers import read_text

    text = read_text(path, "requirements")
    try:
        tree = ast.parse(text, filename=str(path))
    except (ValueError, RecursionError, MemoryError):  # NUL bytes, nesting the parser refuses
        raise InputError(
            "not valid Python (nested too deeply or NUL bytes)", origin=Origin(str(path))
        ) from None
    except SyntaxError as error:
        raise InputError(
            f"not valid Python: {error.msg}", origin=Origin(str(path), error.lineno)
        ) from None
    call = _setup_call(tree)
    if call is None:
        raise InputError(f"no setup(...) call found; {REPORT_HINT}", origin=Origin(str(path)))
    module = _Module(tree)
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    out: list[Declared] = []
    notes: list[str] = []
    unreadable: list[str] = []

    def add(strings: _Strings, group: str) -> None:
        for text_, line in strings:
            out.append(parse_requirement(text_, Origin(str(path), line), "requirement", group))

    if "install_requires" in keywords:
        found = module.strings(keywords["install_requires"])
        if found is None:
            unreadable.append("install_requires")
        else:
            add(found, "")
    if "extras_require" in keywords:
        groups = module.groups(keywords["extras_require"])
        if groups is None:
            unreadable.append("extras_require")
        else:
            for group, value in groups.items():
                found = module.strings(value)
                if found is None:
                    unreadable.append(f"extras_require[{group!r}]")
                else:
                    add(found, f"extras.{group}")
    python: list[tuple[str, Origin]] = []
    requires_python = module.strings(keywords.get("python_requires"))
    if requires_python:
        python.append((requires_python[0][0], Origin(str(path), requires_python[0][1])))
    if unreadable:
        where = Origin(str(path), call.lineno)
        if not out:
            raise InputError(
                f"{', '.join(unreadable)} computed at run time, not read (compat never runs "
                f"setup.py); {REPORT_HINT}",
                origin=where,
            )
        notes.append(
            f"{where}: {', '.join(unreadable)} computed at run time: not checked ({REPORT_HINT})"
        )
    return out, python, notes
