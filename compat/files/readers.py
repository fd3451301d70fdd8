"""Bounded readers: the one way compat reads a file it did not write.

Every input (configs, profiles, requirement and lock files, reports, baselines, waivers, rule
files) can come from a pull request. So a read here:

* opens regular files only (or `-`, stdin, where the caller allows it): a FIFO, a device such as
  /dev/zero or a directory is an input error, never a hang or an unbounded read;
* stops at a size cap per kind of file, with a message naming the cap;
* turns a decoding problem into an input error naming the line of the bad byte;
* bounds nesting depth and integer size before or while the parser runs, so that no parser can
  recurse until the interpreter (or libyaml's composer, in C) gives up.

The limits are documented in docs/security.md.
"""

from __future__ import annotations

import json
import math
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.model import Origin

MIB = 1024 * 1024
# Caps per kind of file. Generous for real files (a pip report of a 600-package environment is
# about 2 MiB, the biggest uv.lock we have seen 4 MiB) and small enough to refuse /dev/zero-like
# input quickly.
SIZE_LIMITS: dict[str, int] = {
    "config": 4 * MIB,  # DeepSpeed JSON, accelerate YAML, hardware profiles, waivers
    "requirements": 16 * MIB,
    "lock": 64 * MIB,  # pylock.toml, uv.lock, pip --report JSON, baselines
    "rules": 16 * MIB,
    "metadata": 16 * MIB,
}
# Deeper than any real config, report or rule file (a pip report nests 6 levels, a rule's `any:`
# 2 per level), far below what any parser or our own recursive code can survive.
MAX_DEPTH = 64
# YAML aliases may be expanded at most this many nodes in total (a "billion laughs" document
# expands to 9**9 nodes from a few hundred bytes).
MAX_YAML_NODES = 200_000


def origin_of(path: Path | str, line: int | None = None) -> Origin:
    return Origin(str(path), line)


def open_regular_fd(path: Path | str, what: str = "") -> int:
    """A blocking descriptor on `path`, which must be a regular file: a FIFO is opened without
    waiting for a writer and then refused, like a directory, socket or device."""
    prefix = f"{what}: " if what else ""
    if str(path) == "":
        raise InputError(f"{prefix}empty file name", origin=Origin("''"))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError(f"{prefix}no such file", origin=origin_of(path)) from None
    except OSError as error:
        raise InputError(
            f"{prefix}cannot read: {error.strerror or error}", origin=origin_of(path)
        ) from None
    except ValueError:  # a NUL byte in a name read from a file (`-r \x00`)
        raise InputError(f"{prefix}file name holds a NUL byte", origin=origin_of(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{prefix}is a directory, not a file", origin=origin_of(path))
        if not stat.S_ISREG(mode):
            raise InputError(
                f"{prefix}not a regular file (a FIFO, socket or device is not read)",
                origin=origin_of(path),
            )
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: Path, kind: str, *, what: str = "", stdin_ok: bool = False) -> bytes:
    """The file's bytes: regular files only (or `-` with stdin_ok), at most SIZE_LIMITS[kind]."""
    limit = SIZE_LIMITS[kind]
    prefix = f"{what}: " if what else ""
    if stdin_ok and str(path) == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputError(f"{prefix}stdin exceeds the {_size(limit)} limit", origin=Origin("-"))
        return data
    fd = open_regular_fd(path, what)
    try:
        info = os.fstat(fd)
        if info.st_size > limit:
            raise InputError(
                f"{prefix}file is {_size(info.st_size)}, over the {_size(limit)} limit",
                origin=origin_of(path),
            )
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, MIB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as error:
        raise InputError(
            f"{prefix}cannot read: {error.strerror or error}", origin=origin_of(path)
        ) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:  # the file grew while we read it
        raise InputError(f"{prefix}file is over the {_size(limit)} limit", origin=origin_of(path))
    return data


def decode(data: bytes, path: Path | str, *, what: str = "", encoding: str = "utf-8") -> str:
    """UTF-8 text; a bad byte is an input error naming its line."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        prefix = f"{what}: " if what else ""
        raise InputError(
            f"{prefix}not valid UTF-8 (byte 0x{data[error.start]:02x})",
            origin=origin_of(path, line),
        ) from None


def read_text(
    path: Path, kind: str, *, what: str = "", stdin_ok: bool = False, encoding: str = "utf-8"
) -> str:
    return decode(
        read_bytes(path, kind, what=what, stdin_ok=stdin_ok), path, what=what, encoding=encoding
    )


def _size(n: int) -> str:
    return f"{n / MIB:.0f} MiB" if n >= MIB else f"{n} bytes"


# ---------------------------------------------------------------------------------------------
# Parsers with bounded depth and integers


def check_depth(value: Any, path: Path | str, *, what: str = "", limit: int = MAX_DEPTH) -> Any:
    """Raise InputError when lists/dicts nest deeper than `limit` (iterative: cannot recurse),
    or hold NaN/Infinity (YAML's .nan/.inf), which no strict JSON output could carry."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            prefix = f"{what}: " if what else ""
            raise InputError(
                f"{prefix}{node} is not a number compat accepts", origin=origin_of(path)
            )
        if isinstance(node, dict):
            children: Any = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            continue
        if depth > limit:
            prefix = f"{what}: " if what else ""
            raise InputError(f"{prefix}nested deeper than {limit} levels", origin=origin_of(path))
        stack.extend((child, depth + 1) for child in children)
    return value


def jsonable(value: Any) -> Any:
    """`value` with what JSON cannot hold (YAML dates, non-string keys) turned into strings."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    return str(value)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(text: str, path: Path | str, *, what: str = "") -> Any:
    """Strict JSON (no NaN/Infinity), depth-bounded, big integers refused; InputError on failure."""
    prefix = f"{what}: " if what else ""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{prefix}invalid JSON: {error.msg} (column {error.colno})",
            origin=origin_of(path, error.lineno),
        ) from None
    except RecursionError:
        raise InputError(
            f"{prefix}invalid JSON: nested deeper than {MAX_DEPTH} levels", origin=origin_of(path)
        ) from None
    except (ValueError, MemoryError) as error:  # NaN, or an integer over 4,300 digits
        raise InputError(
            f"{prefix}invalid JSON: {_first_line(error)}", origin=origin_of(path)
        ) from None
    return check_depth(value, path, what=what)


def parse_toml(text: str, path: Path | str, *, what: str = "") -> dict[str, Any]:
    """tomllib with positions in the message, depth-bounded; InputError on failure."""
    import re

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    prefix = f"{what}: " if what else ""
    try:
        document: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        line = int(match.group(1)) if match else getattr(error, "lineno", None)
        reason = message.split(" (at line")[0]
        raise InputError(f"{prefix}invalid TOML: {reason}", origin=origin_of(path, line)) from None
    except RecursionError:
        raise InputError(
            f"{prefix}invalid TOML: nested deeper than {MAX_DEPTH} levels", origin=origin_of(path)
        ) from None
    except (ValueError, MemoryError) as error:  # integers over 4,300 digits
        raise InputError(
            f"{prefix}invalid TOML: {_first_line(error)}", origin=origin_of(path)
        ) from None
    check_depth(document, path, what=what)
    return document


def _first_line(error: BaseException) -> str:
    text = str(error) or error.__class__.__name__
    return text.splitlines()[0] if text.strip() else error.__class__.__name__


def guarded(parse: Callable[[], Any], path: Path | str, what: str) -> Any:
    """Run a parser; RecursionError/ValueError/MemoryError inside it become an InputError."""
    try:
        return parse()
    except RecursionError:
        raise InputError(f"{what}: nested too deeply", origin=origin_of(path)) from None
    except (ValueError, MemoryError) as error:
        raise InputError(f"{what}: {_first_line(error)}", origin=origin_of(path)) from None
