"""PEP 508 environment markers evaluated without packaging.markers, for doctor's pip check.

packaging.markers costs about 4 ms to import and each distinct marker a parse; a real training
environment has a hundred distinct markers. This evaluator follows packaging's own rules
as pip 26's vendored packaging 26 applies them (`_eval_op`: for the four version variables, a
comparison whose right side forms a valid `Specifier` is a version comparison with pre-releases
allowed; everything else compares strings; `extra` names are normalized) and gives up
— `Unsupported` — on anything it does not parse, so the caller falls back to packaging. The
tests compare both on a table of markers and environments.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import TYPE_CHECKING

from compat.names import canonicalize_name
from compat.specifiers import parse_specifiers
from compat.versions import too_long_number

if TYPE_CHECKING:
    pass

_TOKEN = re.compile(
    r"""\s*(?:(?P<paren>[()])|(?P<string>'[^']*'|"[^"]*")|"""
    r"""(?P<op>===|==|!=|~=|<=|>=|<|>|not\s+in\b|in\b)|(?P<bool>and\b|or\b)|"""
    r"""(?P<var>[A-Za-z_][A-Za-z0-9_.]*))"""
)
_ALIASES = {
    "os.name": "os_name",
    "sys.platform": "sys_platform",
    "platform.version": "platform_version",
    "platform.machine": "platform_machine",
    "platform.python_implementation": "platform_python_implementation",
    "python_implementation": "platform_python_implementation",
}
_VARIABLES = {
    "implementation_name", "implementation_version", "os_name", "platform_machine",
    "platform_release", "platform_system", "platform_version", "python_full_version",
    "platform_python_implementation", "python_version", "sys_platform", "extra",
}  # fmt: skip
_VERSION_VARIABLES = {
    "implementation_version",
    "platform_release",
    "python_full_version",
    "python_version",
}
_STRING_OPS: dict[str, Callable[[str, str], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda lhs, rhs: lhs in rhs,
    "not in": lambda lhs, rhs: lhs not in rhs,
}

Token = tuple[str, str]  # (kind, text)


class Unsupported(Exception):
    """A marker this evaluator does not handle: use packaging.markers."""


def evaluate(text: str, environment: Mapping[str, str]) -> bool | None:
    """The marker's value in `environment`; None when it depends on a variable the environment
    lacks (three-valued: `extra == "x" and sys_platform == "linux"` is False without "x" even
    when the platform is unknown)."""
    tokens = _tokens(text)
    verdict, position = _or(tokens, 0, environment)
    if position != len(tokens):
        raise Unsupported(text)
    return verdict


def marker_parses(text: str) -> bool:
    """Whether this evaluator parses `text` (then it is a valid PEP 508 marker)."""
    try:
        tokens = _tokens(text)
        return _or(tokens, 0, None)[1] == len(tokens)
    except Unsupported:
        return False


@cache
def _tokens(text: str) -> tuple[Token, ...]:
    tokens: list[Token] = []
    position = 0
    stripped = text.rstrip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if match is None or match.end() == position:
            raise Unsupported(text)
        kind = match.lastgroup
        assert kind is not None
        value = match.group(kind)
        if kind == "op":
            value = " ".join(value.split())  # "not   in" -> "not in"
        tokens.append((kind, value))
        position = match.end()
    return tuple(tokens)


Verdict = bool | None  # None: depends on a variable the environment lacks


def _or(tokens: tuple[Token, ...], i: int, env: Mapping[str, str] | None) -> tuple[Verdict, int]:
    values = []
    value, i = _and(tokens, i, env)
    values.append(value)
    while i < len(tokens) and tokens[i] == ("bool", "or"):
        value, i = _and(tokens, i + 1, env)
        values.append(value)
    return (True if True in values else None if None in values else False), i


def _and(tokens: tuple[Token, ...], i: int, env: Mapping[str, str] | None) -> tuple[Verdict, int]:
    values = []
    value, i = _atom(tokens, i, env)
    values.append(value)
    while i < len(tokens) and tokens[i] == ("bool", "and"):
        value, i = _atom(tokens, i + 1, env)
        values.append(value)
    return (False if False in values else None if None in values else True), i


def _atom(tokens: tuple[Token, ...], i: int, env: Mapping[str, str] | None) -> tuple[Verdict, int]:
    if i < len(tokens) and tokens[i] == ("paren", "("):
        value, i = _or(tokens, i + 1, env)
        if i >= len(tokens) or tokens[i] != ("paren", ")"):
            raise Unsupported("unbalanced parenthesis")
        return value, i + 1
    if i + 3 > len(tokens):
        raise Unsupported("incomplete comparison")
    left, op, right = tokens[i : i + 3]
    if op[0] != "op" or left[0] not in ("var", "string") or right[0] not in ("var", "string"):
        raise Unsupported("not a comparison")
    if left[0] == right[0]:
        raise Unsupported("a comparison needs one variable and one string")
    return _compare(left, op[1], right, env), i + 3


def _compare(left: Token, op: str, right: Token, env: Mapping[str, str] | None) -> Verdict:
    variable = left[1] if left[0] == "var" else right[1]
    name = _ALIASES.get(variable, variable)
    if name not in _VARIABLES:
        raise Unsupported(f"unknown variable {variable}")
    if env is None or name not in env:  # parsing only, or not known for this environment
        return None
    lhs, rhs = (_value(token, env) for token in (left, right))
    if name == "extra":  # packaging compares extra names normalized
        lhs, rhs = canonicalize_name(lhs), canonicalize_name(rhs)
    if name in _VERSION_VARIABLES:
        if too_long_number(lhs) or too_long_number(rhs):  # packaging could never compare them
            raise Unsupported(f"{name}: a number too long to compare")
        # One clause, as packaging's Specifier(op + rhs): a comma makes it no specifier at all.
        specifier = parse_specifiers(op + rhs) if "," not in rhs else None
        if specifier is not None:
            return bool(specifier.contains(lhs, prereleases=True))
    if op not in _STRING_OPS:
        raise Unsupported(f"{op} between strings")
    return _STRING_OPS[op](lhs, rhs)


def _value(token: Token, env: Mapping[str, str]) -> str:
    if token[0] == "string":
        return token[1][1:-1]
    return env[_ALIASES.get(token[1], token[1])]
