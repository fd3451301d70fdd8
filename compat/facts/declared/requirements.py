"""Requirements files in pip's full syntax ("Requirements File Format" in pip's docs).

Handled: `\\` continuations, comments (`#` at line start or after whitespace), `${VAR}`
expansion (uppercase names, as pip), `-r`/`-c` includes relative to the including file (with
cycle detection), option lines, `-e` editables, per-requirement options (`--hash=...`), PEP 508
markers and direct references, bare URLs and paths (skipped unless they name a project with
`#egg=`). Every requirement remembers the file and the line it starts on.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from compat.errors import InputError
from compat.facts.declared.entries import Declared, IndexLine, parse_requirement, url_problem
from compat.model import Origin

# No `\s+` that can start at every blank of a long run: a line of 200,000 spaces must stay linear.
_COMMENT = re.compile(r"(^|(?<!\s)\s+)#.*$")
_ENV_VAR = re.compile(r"\$\{(?P<name>[A-Z0-9_]+)\}")
_PER_REQUIREMENT_OPTIONS = re.compile(
    r"(?<!\s)\s+(--hash|--config-settings|--global-option|--install-option)[=\s].*$"
)
_EGG = re.compile(r"[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)")
_URL_OR_PATH = re.compile(r"^(\.{0,2}/|~|[A-Za-z][A-Za-z0-9+.-]*://|git\+|hg\+|svn\+|bzr\+)")
# Options pip accepts in a requirements file, and whether they take a value.
_OPTIONS = {
    "-i": True, "--index-url": True, "--extra-index-url": True, "--no-index": False,
    "-f": True, "--find-links": True, "--pre": False, "--prefer-binary": False,
    "--only-binary": True, "--no-binary": True, "--trusted-host": True, "--use-feature": True,
    "--require-hashes": False, "--config-settings": True,
}  # fmt: skip
_INCLUDES = {
    "-r": "requirement",
    "--requirement": "requirement",
    "-c": "constraint",
    "--constraint": "constraint",
}
_EDITABLE = {"-e", "--editable"}
MAX_INCLUDE_DEPTH = 32  # -r/-c chains deeper than this are refused, not recursed into
MAX_LINE = 100_000  # characters in one physical line; hashes go on continuation lines


@dataclass
class RequirementsResult:
    requirements: list[Declared] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    options: dict[str, list[str]] = field(default_factory=dict)
    indexes: list[IndexLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, joined text) for each logical line, comments removed."""
    out: list[tuple[int, str]] = []
    buffer: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not buffer:
            start = number
        if line.endswith("\\") and not line.endswith("\\\\"):
            buffer.append(line[:-1])
            continue
        buffer.append(line)
        joined = _COMMENT.sub("", " ".join(part.strip() for part in buffer)).strip()
        buffer = []
        if joined:
            out.append((start, joined))
    if buffer:  # a file ending in a continuation
        joined = _COMMENT.sub("", " ".join(part.strip() for part in buffer)).strip()
        if joined:
            out.append((start, joined))
    return out


def read_requirements(
    path: Path,
    *,
    environ: Mapping[str, str],
    kind: str = "requirement",
    result: RequirementsResult | None = None,
    stack: tuple[Path, ...] = (),
    included_from: Origin | None = None,
) -> RequirementsResult:
    result = result or RequirementsResult()
    if "\x00" in str(path):
        raise InputError("file name holds a NUL byte", origin=included_from or Origin(str(path)))
    resolved = path.resolve()
    if resolved in stack:
        chain = " -> ".join(str(p) for p in (*stack, resolved))
        raise InputError(f"include cycle: {chain}", origin=included_from)
    if len(stack) > MAX_INCLUDE_DEPTH:
        raise InputError(
            f"-r/-c includes nested deeper than {MAX_INCLUDE_DEPTH} files", origin=included_from
        )
    text = _read(path, included_from)
    result.files.append(str(path))
    return read_requirement_lines(
        path,
        logical_lines(text),
        environ=environ,
        kind=kind,
        result=result,
        stack=(*stack, resolved),
    )


def read_requirement_lines(
    path: Path,
    lines: list[tuple[int, str]],
    *,
    environ: Mapping[str, str],
    kind: str = "requirement",
    result: RequirementsResult | None = None,
    stack: tuple[Path, ...] = (),
) -> RequirementsResult:
    """(line number, logical line) pairs in pip's syntax, as if they were the file `path` (a
    conda environment file's `pip:` list: includes resolve next to it)."""
    result = result or RequirementsResult()
    for number, line in lines:
        origin = Origin(str(path), number or None)
        line = _ENV_VAR.sub(lambda m: environ.get(m.group("name"), m.group(0)), line).strip()
        if not line:
            continue  # a line that was only a variable, set to nothing
        if line.startswith("-"):
            _option_line(line, origin, path, kind, environ, result, stack)
            continue
        line = _PER_REQUIREMENT_OPTIONS.sub("", line)
        declared = _requirement_line(line, origin, kind)
        if declared is not None:
            result.requirements.append(declared)
        else:
            result.notes.append(
                f"{origin}: {line} names no project (a bare URL or path): not checked"
            )
    return result


def _read(path: Path, included_from: Origin | None) -> str:
    from compat.files.readers import read_text

    if included_from is not None and not path.exists():
        raise InputError(f"included file not found: {path}", origin=included_from)
    try:
        text = read_text(path, "requirements", encoding="utf-8-sig")
    except InputError as error:
        if included_from is None:
            raise
        raise InputError(f"{path}: {error.message}", origin=included_from) from None
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE:
            raise InputError(
                f"line is {len(line):,} characters long (limit {MAX_LINE:,})",
                origin=Origin(str(path), number),
            )
    return text


def _requirement_line(line: str, origin: Origin, kind: str) -> Declared | None:
    if _URL_OR_PATH.match(line) or (line.endswith((".whl", ".tar.gz", ".zip")) and "@" not in line):
        egg = _EGG.search(line)
        if egg is None:
            return None  # a bare URL or path: no project name to check
        declared = parse_requirement(egg.group(1), origin, kind)
        return Declared(**{**declared.__dict__, "url": line.split("#")[0], "raw": line})
    return parse_requirement(line, origin, kind)


def _option_line(
    line: str,
    origin: Origin,
    path: Path,
    kind: str,
    environ: Mapping[str, str],
    result: RequirementsResult,
    stack: tuple[Path, ...],
) -> None:
    try:
        tokens = shlex.split(line)
    except ValueError as error:
        raise InputError(f"cannot parse option line: {error}", origin=origin) from None
    flag, _, value = tokens[0].partition("=")
    rest = tokens[1:]
    if not value and rest:
        value, rest = rest[0], rest[1:]
    if flag in _INCLUDES:
        if not value:
            raise InputError(f"{flag} needs a file name", origin=origin)
        target = Path(value) if Path(value).is_absolute() else path.parent / value
        include_kind = "constraint" if _INCLUDES[flag] == "constraint" else kind
        read_requirements(
            target,
            environ=environ,
            kind=include_kind,
            result=result,
            stack=stack,
            included_from=origin,
        )
        return
    if flag in _EDITABLE:
        egg = _EGG.search(value or "")
        if egg is not None:
            declared = parse_requirement(egg.group(1), origin, kind)
            result.requirements.append(Declared(**{**declared.__dict__, "url": value, "raw": line}))
        result.notes.append(f"{origin}: {line} is a local project: not checked")
        return  # an editable local project without #egg= names nothing we can check
    if flag not in _OPTIONS:
        raise InputError(f"unknown option {flag!r} in a requirements file", origin=origin)
    if _OPTIONS[flag] and not value:
        raise InputError(f"{flag} needs a value", origin=origin)
    result.options.setdefault(flag, []).append(value if _OPTIONS[flag] else "")
    if flag in ("-i", "--index-url", "--extra-index-url"):
        problem = url_problem(value)
        if problem is not None:
            raise InputError(problem, origin=origin)
        result.indexes.append(
            IndexLine(value, origin, replaces_default=flag != "--extra-index-url")
        )
