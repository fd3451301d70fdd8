"""Safe YAML loading with line numbers: the only module that imports `yaml`.

Uses the C loader (libyaml) where available; never the full loader. Before anything is composed,
one pass over libyaml's event stream (iterative, so it cannot overflow the C stack the way the
composer does on 50,000 nested `[`) bounds the nesting depth and the number of nodes alias
expansion would produce (a "billion laughs" document is a few hundred bytes). `load_with_lines` returns
plain Python data plus, for every mapping and list, the 1-based line it started on, so that
validators can name `file:line` for any node.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from compat.errors import InputError
from compat.files.readers import MAX_DEPTH, MAX_YAML_NODES, read_text
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


def check_structure(text: str, path: str) -> None:
    """Refuse documents nested deeper than MAX_DEPTH or expanding (aliases counted in full) to
    more than MAX_YAML_NODES nodes, and recursive aliases; runs before composing."""
    expanded = 0
    sizes: dict[str, int] = {}  # anchor -> nodes its alias expands to
    open_: list[tuple[int, str | None]] = []  # per open collection: (expanded at start, anchor)
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_) >= MAX_DEPTH:
                raise InputError(
                    f"invalid YAML: nested deeper than {MAX_DEPTH} levels",
                    origin=Origin(path, _line(event)),
                )
            open_.append((expanded, event.anchor))
            expanded += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            start, anchor = open_.pop()
            if anchor is not None:
                sizes[anchor] = expanded - start
        elif isinstance(event, yaml.ScalarEvent):
            expanded += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in sizes:
                raise InputError(
                    f"invalid YAML: alias *{event.anchor} is recursive or undefined",
                    origin=Origin(path, _line(event)),
                )
            expanded += sizes[event.anchor]
        else:
            continue
        if expanded > MAX_YAML_NODES:
            raise InputError(
                f"invalid YAML: aliases expand to more than {MAX_YAML_NODES} nodes",
                origin=Origin(path, _line(event)),
            )


def _line(event: yaml.Event) -> int | None:
    return event.start_mark.line + 1 if event.start_mark is not None else None


def _invalid(error: Exception, path: str) -> InputError:
    if isinstance(error, yaml.YAMLError):
        return InputError(
            f"invalid YAML: {describe_error(error)}", origin=Origin(path, parse_error_line(error))
        )
    # ValueError: an integer over 4,300 digits, a timestamp like 2020-13-45; and the like
    text = str(error).splitlines()[0] if str(error).strip() else error.__class__.__name__
    if not isinstance(error, ValueError):
        text = f"cannot construct a value ({error.__class__.__name__}: {text})"
    return InputError(f"invalid YAML: {text}", origin=Origin(path))


def load_with_lines(text: str, path: str) -> Any:
    """Parse YAML text into LinedDict/LinedList/scalars; InputError names file:line on failure."""
    try:
        check_structure(text, path)
        node = yaml.compose(text, Loader=_Loader)
        return None if node is None else _convert(node)
    except InputError:
        raise
    except (Exception, RecursionError, MemoryError) as error:  # PyYAML's constructors raise
        # IndexError (`!!int` with no value), ValueError (a 4,301-digit integer), TypeError...
        raise _invalid(error, path) from None


def load_plain(path: Path, *, kind: str = "config", what: str = "") -> Any:
    """Load a YAML file into plain data (no line bookkeeping) — for configs and profiles."""
    return load_plain_text(read_text(path, kind, what=what), str(path))


def load_plain_text(text: str, path: str) -> Any:
    """load_plain for text already read (through compat.files.readers); NaN/Infinity refused."""
    from compat.files.readers import check_depth

    try:
        check_structure(text, path)
        return check_depth(yaml.load(text, Loader=_Loader), path)
    except InputError:
        raise
    except (Exception, RecursionError, MemoryError) as error:  # PyYAML's constructors raise
        # IndexError (`!!int` with no value), ValueError (a 4,301-digit integer), TypeError...
        raise _invalid(error, path) from None
