"""Safe YAML loading with line numbers: the only module that imports `yaml`.

Uses the C loader (libyaml) where available; never the full loader. `load_with_lines` returns
plain Python data plus, for every mapping and list, the 1-based line it started on, so that
validators can name `file:line` for any node.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from compat.errors import InputError
from compat.model import Origin

try:  # libyaml is several times faster; fall back to the pure-Python safe loader
    _Loader: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader


class LinedDict(dict[str, Any]):
    """A mapping that remembers the line it started on, and the line of each key."""

    line: int = 0
    key_lines: dict[str, int]


class LinedList(list[Any]):
    line: int = 0


def _convert(node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        out = LinedDict()
        out.line = node.start_mark.line + 1
        out.key_lines = {}
        for key_node, value_node in node.value:
            key = _convert(key_node)
            if not isinstance(key, str | int | float | bool):
                raise yaml.constructor.ConstructorError(
                    None, None, "mapping keys must be scalars", key_node.start_mark
                )
            out[str(key)] = _convert(value_node)
            out.key_lines[str(key)] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = LinedList(_convert(item) for item in node.value)
        seq.line = node.start_mark.line + 1
        return seq
    # Scalars: the safe constructor resolves ints, floats, bools, nulls, dates and strings.
    return _SCALARS.construct_object(node, deep=True)


# One safe constructor reused for scalars; composing nodes ourselves is what keeps line numbers.
_SCALARS = yaml.SafeLoader("")


def parse_error_line(error: yaml.YAMLError) -> int | None:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    return mark.line + 1 if mark is not None else None


def describe_error(error: yaml.YAMLError) -> str:
    """PyYAML's problem, plus where the unfinished construct started when that is elsewhere."""
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    context = getattr(error, "context", None)
    context_mark = getattr(error, "context_mark", None)
    problem_mark = getattr(error, "problem_mark", None)
    if (
        context
        and context_mark is not None
        and (problem_mark is None or context_mark.line != problem_mark.line)
    ):
        return f"{problem} ({context} started on line {context_mark.line + 1})"
    return str(problem)


def load_with_lines(text: str, path: str) -> Any:
    """Parse YAML text into LinedDict/LinedList/scalars; InputError names file:line on failure."""
    try:
        node = yaml.compose(text, Loader=_Loader)
        return None if node is None else _convert(node)
    except yaml.YAMLError as error:
        raise InputError(
            f"invalid YAML: {describe_error(error)}", origin=Origin(path, parse_error_line(error))
        ) from None


def load_plain(path: Path) -> Any:
    """Load a YAML file into plain data (no line bookkeeping) — for configs and profiles."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(
            f"cannot read file: {error.__class__.__name__}: {error}", origin=Origin(str(path))
        ) from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as error:
        raise InputError(
            f"invalid YAML: {describe_error(error)}",
            origin=Origin(str(path), parse_error_line(error)),
        ) from None
