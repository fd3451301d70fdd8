"""A Python traceback as structure, not text: its frames (package, file, line), the exception
line (type and message), chained exceptions, and the lines that only echo source code.

Tracebacks are printed in three shapes that explain meets:

- CPython's: `File "/.../site-packages/pkg/mod.py", line 12, in f` then the source line,
  indented, then (3.11+) `^^^^` markers; the exception line `Type: message` closes it;
- IPython/Jupyter's: `File /.../mod.py:12, in f()` or `Cell In[3], line 5`, then numbered
  context lines, the failing one marked `----> 12 raise ImportError(`;
- pytest's: the failing source line marked `>` and the exception line prefixed `E   `.

A source echo holds the text of the message it raises (`raise ImportError("... requires
accelerate>=0.20.1")`), so a symptom can match it first: the cited line must be the exception,
the loader's or the driver's message, never an echo (issue 40).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ----> 12     raise ImportError(   /   13         "message"   (IPython's numbered context)
_IPYTHON_ECHO = re.compile(r"^\s*-*>\s*\d+\s|^\s+\d+\s")
# pytest's failing source line: `>       raise ImportError(`
_PYTEST_ECHO = re.compile(r"^>\s")
# pytest's exception line: `E       ImportError: ...`
_PYTEST_ERROR = re.compile(r"^E\s{1,12}")
# Statements and string literals, indented: what a source line looks like, never a message.
_SOURCE = re.compile(r"^\s+(?:raise\b|assert\b|return\b|warnings\.warn\(|[rfbRFB]{0,2}[\"'])")
_FRAME_CPYTHON = re.compile(
    r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?'
)
_FRAME_IPYTHON = re.compile(r"^\s*File (?P<file>\S[^:]*\.py):(?P<line>\d+)(?:, in (?P<func>\w+))?")
_PACKAGE = re.compile(r"[\\/](?:site|dist)-packages[\\/](?P<package>[A-Za-z_][\w.-]{0,80})[\\/]")
# `ImportError: msg`, `torch.OutOfMemoryError: msg`, `E   RuntimeError: msg` (pytest)
_EXCEPTION = re.compile(
    r"^(?:E\s{1,12})?(?P<type>(?:[A-Za-z_][\w]*\.){0,6}[A-Z]\w*(?:Error|Exception|Warning|Interrupt|Exit))"
    r"(?::\s?(?P<message>.*))?$"
)
CHAINED = (
    "The above exception was the direct cause of the following exception",
    "During handling of the above exception, another exception occurred",
)


@dataclass(frozen=True)
class Frame:
    file: str  # as printed
    line: int
    func: str
    package: str | None  # the `site-packages/<pkg>/` directory, as printed


@dataclass(frozen=True)
class ExceptionLine:
    type: str
    message: str


def is_source_echo(text: str, previous: str = "") -> bool:
    """Whether a log line only echoes source code: a frame's source line, IPython's numbered
    context, pytest's `>` line, an indented `raise`/string literal. `previous`: the line before
    it (a CPython frame line makes the next indented line its source)."""
    if _IPYTHON_ECHO.match(text) or _PYTEST_ECHO.match(text) or _SOURCE.match(text):
        return True
    return bool(text[:1].isspace() and _FRAME_CPYTHON.match(previous))


def frame(text: str) -> Frame | None:
    """A frame line in CPython's or IPython's shape."""
    found = _FRAME_CPYTHON.match(text) or _FRAME_IPYTHON.match(text)
    if found is None:
        return None
    file = found.group("file")
    package = _PACKAGE.search(file)
    return Frame(
        file,
        int(found.group("line")[:9]),
        found.group("func") or "",
        package.group("package") if package else None,
    )


def exception_line(text: str) -> ExceptionLine | None:
    """`Type: message` (an exception as Python prints it, pytest's `E` prefix allowed)."""
    stripped = text.strip()
    if _PYTEST_ERROR.match(stripped):
        stripped = _PYTEST_ERROR.sub("", stripped, count=1)
    found = _EXCEPTION.match(stripped)
    if found is None:
        return None
    return ExceptionLine(found.group("type"), (found.group("message") or "").strip())


def is_chain_marker(text: str) -> bool:
    return any(marker in text for marker in CHAINED)
