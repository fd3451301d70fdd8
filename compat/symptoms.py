"""Symptom regexes as people read them, for every format that shows one.

A symptom is shown as the text a person would paste into a search box, never as the regex: the
pattern is parsed (Python's own regex parser) and each piece said as it reads in a log —
`\\d+` is `N`, a run of anything is `…`, an alternation its first alternative, an optional part
and an anchor nothing, an escaped character itself.
"""

from __future__ import annotations

import functools
from typing import Any

_ELLIPSIS = "…"


def _parser() -> Any:
    try:  # Python 3.11+: the parser moved inside `re`; the old name warns
        from re import _parser as parser  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # pragma: no cover - Python 3.10
        import sre_parse as parser  # type: ignore[no-redef,unused-ignore]
    return parser


@functools.lru_cache(maxsize=1024)
def readable_symptom(pattern: str) -> str:
    """A symptom regex as the message a person would see: `cuda:\\d+` -> `cuda:N`,
    `(?:^|\\s)vllm/[\\w./-]+\\.so: undefined` -> `vllm/….so: undefined`."""
    parser = _parser()
    try:
        parsed = parser.parse(pattern)
    except (
        Exception
    ):  # re.error, and anything else: the rule's own lint compiles it; show it as written
        return pattern
    text = _render(list(parsed), parser)
    while _ELLIPSIS * 2 in text:
        text = text.replace(_ELLIPSIS * 2, _ELLIPSIS)
    return " ".join(text.split()) or pattern


def _render(items: list[Any], parser: Any) -> str:
    return "".join(_piece(op, arg, parser) for op, arg in items)


def _piece(op: Any, arg: Any, parser: Any) -> str:
    name = str(op)
    if name == "LITERAL":
        return chr(arg)
    if name == "ANY":  # an unescaped `.` between words is almost always a dot (`_C.so`)
        return "."
    if name in ("NOT_LITERAL", "GROUPREF"):
        return _ELLIPSIS
    if name == "IN":
        return _class(arg)
    if name == "CATEGORY":
        return _category(str(arg))
    if name in ("AT", "ASSERT", "ASSERT_NOT"):
        return ""
    if name == "SUBPATTERN":
        return _render(list(arg[-1]), parser)
    if name == "ATOMIC_GROUP":
        return _render(list(arg), parser)
    if name == "BRANCH":
        return _branch(arg[1], parser)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        return _repeat(arg, parser)
    return _ELLIPSIS


def _branch(alternatives: Any, parser: Any) -> str:
    """The first alternative that reads as plain text, else the first."""
    rendered = [_render(list(alternative), parser) for alternative in alternatives]
    return next((text for text in rendered if _ELLIPSIS not in text), rendered[0])


def _repeat(arg: Any, parser: Any) -> str:
    low, _high, item = arg
    items = list(item)
    if len(items) == 1:
        op, inner = items[0]
        kind = str(op)
        one = _piece(op, inner, parser)
        if kind == "LITERAL" or (kind == "IN" and len(one) == 1 and one not in "N …"):
            return one * int(low)  # `=+` is `=`, `s?` and `['"]?` are nothing
        if one in ("N", " "):  # `\d+` is N; `\s+` a space, `\s*` nothing
            return one if low else ""
        return _ELLIPSIS  # `.*`, `[\w./-]{1,300}`: some text
    return _render(items, parser) if low else ""


def _category(name: str) -> str:
    if name.endswith("DIGIT") and "NOT" not in name:
        return "N"
    if name.endswith("SPACE") and "NOT" not in name:
        return " "
    return _ELLIPSIS


def _class(members: Any) -> str:
    """A character class: one character when it is one, `N` for digits, a space for spaces, the
    first of a set of characters (`[iI]nvalid` is `invalid`, `['"]` a quote): the rule writes
    the spelling logs print first."""
    members = list(members)
    if members and all(_digits(str(op), arg) for op, arg in members):
        return "N"  # `[0-5]`, `[0-9]`
    if members and all(str(op) == "LITERAL" for op, _arg in members):
        letters = {chr(arg) for _op, arg in members}
        if len(letters) > 1 and len({letter.lower() for letter in letters}) == 1:
            return min(letters).lower()  # `[Ii]nvalid`: one letter in either case, as logs print it
        return chr(members[0][1])
    if len(members) == 1:
        op, arg = members[0]
        if str(op) == "LITERAL":
            return chr(arg)
        if str(op) == "CATEGORY":
            return _category(str(arg))
    return _ELLIPSIS


def _digits(kind: str, arg: Any) -> bool:
    if kind == "RANGE":
        return bool(48 <= arg[0] <= arg[1] <= 57)
    if kind == "LITERAL":
        return bool(48 <= arg <= 57)
    return kind == "CATEGORY" and str(arg).endswith("_DIGIT") and "NOT" not in str(arg)
