"""One reader of the rule language: outside compat/kb/, no module reads a rule's raw `when:`.

A walk of `when:` written twice drifts (the solver's and the check's copies once disagreed about
derived conditions); compat.kb.questions answers what the other layers ask of a rule."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tests.lib import paths

ROOT = paths.COMPAT


def raw_when_reads(source: str) -> Iterator[int]:
    """Lines that read `["when"]` or `.get("when")` (or `.pop`/`.setdefault`)."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == "when"
        ) or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop", "setdefault")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "when"
        ):
            yield node.lineno


def test_no_raw_when_outside_kb() -> None:
    found = [
        f"{path.relative_to(ROOT.parent)}:{line}"
        for path in sorted(ROOT.rglob("*.py"))
        if "kb" not in path.relative_to(ROOT).parts[:1]
        for line in raw_when_reads(path.read_text(encoding="utf-8"))
    ]
    assert not found, "raw `when:` reads outside compat/kb/ (ask compat.kb.questions):\n" + (
        "\n".join(found)
    )


def test_the_reader_finds_raw_reads() -> None:
    source = 'a = plain["when"]\nb = rule.get("when", {})\nc = plain["id"]\nd = x.get("whence")\n'
    assert list(raw_when_reads(source)) == [1, 2]
