"""One exception hierarchy. Each error carries its user message, an optional hint and its exit code.

Only `compat/cli/` turns these into output and exit codes. Messages are one line, naming the file,
line and problem: `compat: error: <what>: <why>` and, optionally, `hint: <next step>`.
"""

from __future__ import annotations

import re

from compat.lazyre import Lazy
from compat.model import Origin

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2  # usage error or unreadable/invalid input
EXIT_UNCHECKED = 3  # the check could not be made (no distributions, no knowledge base)
EXIT_INTERNAL = 70  # EX_SOFTWARE: a crash is never read as a verdict
EXIT_READER_GONE = 141  # 128 + SIGPIPE: stdout's reader closed it (`| head`), as shell tools end


class CompatError(Exception):
    """Base of every error compat reports to the user on purpose."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, origin: Origin | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.origin = origin
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.origin}: {self.message}" if self.origin else self.message
        return shorten(one_line(text))


# C0 and C1 controls, DEL, the Unicode line/paragraph separators (anything a terminal could act
# on or that would split the message over two lines) and lone surrogates (undecodable bytes of a
# file name, which no UTF-8 stream can write).
_CONTROL = Lazy(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def one_line(text: str) -> str:
    """`text` with every control character escaped (`\\n`, `\\x1b`): one line, nothing a
    terminal would interpret. Used for every message built from a file's or a flag's content."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(_escape, text)


# An error line echoes what it refuses (a requirement, a marker, a pattern, quoted as Python's
# repr quotes it): each quoted echo is cut to MAX_ECHO characters, and the whole line, whatever
# else it carries, to MAX_LINE, so it stays one short line a person and a CI log can read.
MAX_ECHO = 120
MAX_LINE = 500
_QUOTED = Lazy(f"'[^'\\n]{{{MAX_ECHO},}}'|\"[^\"\\n]{{{MAX_ECHO},}}\"")


def shorten(text: str, limit: int = MAX_LINE) -> str:
    """`text` with every long quoted echo cut in its middle (`'trl==0.1; (((…)))'`), then, if
    still over `limit`, cut in the middle itself: the start (which file, line and what) and the
    end (why) are kept."""
    if len(text) <= MAX_ECHO:
        return text
    text = _QUOTED.sub(lambda m: _middle(m.group(0), MAX_ECHO), text)
    return _middle(text, limit)


def _middle(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head - 1
    return f"{text[:head]}…{text[-tail:]}"


def short_line(text: str, limit: int = MAX_LINE) -> str:
    """Text from input made one short line for stderr: escaped, then cut."""
    return shorten(one_line(text), limit)


def error_line(message: str, hint: str | None = None) -> str:
    """The one `compat: error: ...` line, at most MAX_LINE characters: escaped, echoed input
    cut, the hint riding on it."""
    prefix = "compat: error: "
    suffix = f" (hint: {short_line(hint, MAX_LINE // 3)})" if hint else ""
    return f"{prefix}{short_line(message, MAX_LINE - len(prefix) - len(suffix))}{suffix}\n"


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if char in named:
        return named[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


class UsageError(CompatError):
    """A bad flag value (`--set garbage`, a nonexistent `--path`)."""


class InputError(CompatError):
    """A file the user gave us is unreadable or invalid (config, requirements, profile)."""


class KnowledgeBaseError(CompatError):
    """A rule file is malformed or violates the schema."""


class IndexAccessError(CompatError):
    """The package index could not be reached or answered nonsense."""

    def __init__(self, message: str, *, origin: Origin | None = None, hint: str | None = None):
        super().__init__(
            message, origin=origin, hint=hint or "use --offline to work from the cache"
        )


class UncheckedError(CompatError):
    """Nothing could be checked: no distributions found, no knowledge base."""

    exit_code = EXIT_UNCHECKED


class NothingDeclared(UncheckedError):
    """check: the files declare no requirement (a pyproject.toml holding only `[tool.ruff]`).
    Exit 3 on the command line; the pre-commit hook's `--pre-commit` passes such a file."""
