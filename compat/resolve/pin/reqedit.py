"""One requirement line of a pip requirements file rewritten to a new version specifier, in
place: the name, extras, environment marker, per-requirement options and comment stay as the
user wrote them, and every physical line keeps its own line ending (a CRLF file stays CRLF).
Only the specifier changes; `--hash` options go where the version changes, since they are the
hashes of the old release's files and pip would refuse the new one with them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from packaging.utils import canonicalize_name

# name [extras] specifier, up to what follows it: a marker (`;`), an option (` --`), a comment
# (` #`), a continuation (`\`) or the end. The specifier holds no `;`, `#` or `\`, and no `@`
# (a direct reference is not a version pin: left alone).
_REQUIREMENT = re.compile(
    r"(?P<lead>[ \t]*)(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)"
    r"(?P<extras>[ \t]*\[[^\]\n]*\])?"
    r"(?P<gap>[ \t]*)(?P<spec>(?:\(?[ \t]*[<>=!~][^;#\\@\n]*?)?)"
    r"(?P<rest>[ \t]*(?:;|--|#|\\$)|[ \t]*$)"
)
_HASH = re.compile(r"[ \t]*--hash(?:=|[ \t]+)[^ \t\\]+")
_CONTINUED = re.compile(r"(?<!\\)\\$")  # a line ending in one backslash continues on the next


@dataclass(frozen=True)
class LineEdit:
    """A rewritten requirement: physical lines `first`..`last` (1-based) replaced by `new`
    (their text with line endings, the last line's ending included)."""

    first: int
    last: int
    old: str
    new: str
    hashes_dropped: int = 0
    hashes_written: int = 0  # the new release's, in place of the dropped ones


def split_lines(text: str) -> list[str]:
    """Physical lines with their endings, numbered as the requirements reader numbers them
    (str.splitlines)."""
    return text.splitlines(keepends=True)


def _body(line: str) -> tuple[str, str]:
    """A physical line's text and its line ending."""
    stripped = line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    return stripped, line[len(stripped) :]


def logical_span(lines: Sequence[str], first: int) -> int:
    """The last physical line (1-based) of the logical line that starts at `first`."""
    last = first
    while last < len(lines) and _CONTINUED.search(_body(lines[last - 1])[0]):
        last += 1
    return last


class NotRewritable(Exception):
    """The line is not one this editor can rewrite safely; the message says why (a note)."""


def rewrite(
    lines: Sequence[str], first: int, name: str, spec: str, hashes: Sequence[str] = ()
) -> LineEdit:
    """The requirement starting at line `first` (1-based), naming `name`, with its specifier
    replaced by `spec` (`==0.14.3`); its hashes dropped (the caller rewrites only a version that
    changes), or, given the new release's `hashes` (sha256 hex), replaced by them in the line's
    own layout (continuation lines with the old ones' indent, or inline)."""
    if not 1 <= first <= len(lines):
        raise NotRewritable(f"line {first} is not in the file")
    last = logical_span(lines, first)
    text, ending = _body(lines[first - 1])
    match = _REQUIREMENT.match(text)
    if match is None or canonicalize_name(match["name"]) != canonicalize_name(name):
        raise NotRewritable(
            f"line {first} does not start with the requirement {name} on one line (a split or "
            "unusual line is left for you to edit)"
        )
    head = _respecified(match, text, spec)
    group = [(head, ending)] + [_body(line) for line in lines[first:last]]
    dropped = 0
    kept: list[tuple[str, str]] = []
    for index, (body, end) in enumerate(group):
        found = len(_HASH.findall(body))
        if found:
            dropped += found
            body = _HASH.sub("", body)
            if index and not body.replace("\\", "").strip():
                continue  # a continuation line that held only hashes: gone with them
        kept.append((body, end))
    if dropped and _CONTINUED.search(kept[-1][0]):
        # The lines it continued onto are gone: it ends here, with the group's own last ending.
        kept[-1] = (_CONTINUED.sub("", kept[-1][0]).rstrip(" \t"), group[-1][1])
    if dropped:
        kept[0] = (kept[0][0].rstrip(" \t") if len(kept) == 1 else kept[0][0], kept[0][1])
    if dropped and hashes:
        kept = _with_hashes(kept, group, hashes)
    new = "".join(body + end for body, end in kept)
    old = "".join(lines[first - 1 : last])
    return LineEdit(first, last, old, new, dropped, len(hashes) if dropped else 0)


_COMMENT = re.compile(r"[ \t]+#.*$")


def _with_hashes(
    kept: list[tuple[str, str]], group: Sequence[tuple[str, str]], hashes: Sequence[str]
) -> list[tuple[str, str]]:
    """The requirement's lines with `--hash=sha256:` options for `hashes`, laid out as the old
    ones were: one per continuation line (their indent), else inline before a comment."""
    options = [f"--hash=sha256:{h}" for h in hashes]
    continued = [body for body, _ in group[1:] if _HASH.search(body)]
    if not continued:  # inline: `name==1.0 --hash=sha256:... # comment`
        body, end = kept[0]
        comment = _COMMENT.search(body)
        at = comment.start() if comment else len(body)
        return [(body[:at].rstrip(" \t") + " " + " ".join(options) + body[at:], end), *kept[1:]]
    indent = continued[0][: len(continued[0]) - len(continued[0].lstrip(" \t"))]
    between, final = group[0][1], group[-1][1]
    out = [*kept[:-1], (kept[-1][0].rstrip(" \t") + " \\", between)]
    for number, option in enumerate(options, start=1):
        more = number < len(options)
        out.append((indent + option + (" \\" if more else ""), between if more else final))
    return out


def _respecified(match: re.Match[str], text: str, spec: str) -> str:
    before, after = text[: match.start("gap")], text[match.end("spec") :]
    gap = match["gap"]
    # `name ; marker`: the specifier goes straight after the name, the blank before the marker
    return before + gap + spec + after if match["spec"] else before + spec + gap + after


def rewrite_toml_string(
    lines: Sequence[str], number: int, name: str, requirement: str, spec: str
) -> LineEdit:
    """A PEP 508 string of a TOML array (`[project] dependencies`, optional-dependencies,
    dependency groups) on line `number`, its specifier replaced inside the quotes: a string edit
    in place, never a re-dump of the document. The string must stand on the line as written
    (`"deepspeed==0.14.2"` or `'...'`, no escapes)."""
    if not 1 <= number <= len(lines):
        raise NotRewritable(f"line {number} is not in the file")
    text, ending = _body(lines[number - 1])
    for quote in ('"', "'"):
        quoted = f"{quote}{requirement}{quote}"
        at = text.find(quoted)
        if at < 0 or "\\" in requirement:
            continue
        match = _REQUIREMENT.match(requirement)
        if match is None or canonicalize_name(match["name"]) != canonicalize_name(name):
            break
        new = _respecified(match, requirement, spec)
        line = text[:at] + quote + new + quote + text[at + len(quoted) :] + ending
        return LineEdit(number, number, lines[number - 1], line)
    raise NotRewritable(
        f"line {number}: the requirement {requirement!r} is not a plain string on that line "
        "(left for you to edit)"
    )


def apply(lines: Sequence[str], edits: Sequence[LineEdit]) -> str:
    """The file's text with the edits made; every other line byte for byte as it was."""
    out: list[str] = []
    by_first = {edit.first: edit for edit in edits}
    number = 1
    while number <= len(lines):
        edit = by_first.get(number)
        if edit is None:
            out.append(lines[number - 1])
            number += 1
            continue
        out.append(edit.new)
        number = edit.last + 1
    return "".join(out)
