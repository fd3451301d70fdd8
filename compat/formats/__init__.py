"""Output formats, one module each, chosen by name. Formatters return text; only compat/cli/ writes it."""

from __future__ import annotations

from collections.abc import Callable

from compat.report import Report

Formatter = Callable[[Report, bool], str]  # (report, colour) -> text

# Every report format by name: what `--format` and `--report FORMAT=FILE` choose from.
REPORT_FORMATS = ("text", "json", "markdown", "html", "sarif", "github", "junit", "gitlab")
# pin's: its --format's (the constraints file, its compat.pin/1 JSON). The CI formats above carry
# findings at file lines; pin's result is a plan.
PIN_FORMATS = ("text", "json")


def report_formats(command: str) -> tuple[str, ...]:
    """What `compat COMMAND --report FORMAT=FILE` writes (check's and doctor's: every one)."""
    return PIN_FORMATS if command == "pin" else REPORT_FORMATS


def formatter(name: str) -> Formatter:
    """The formatter for `--format NAME` (imported lazily: each run needs exactly one)."""
    if name == "text":
        from compat.formats.text import render
    elif name == "json":
        from compat.formats.json import render
    elif name == "markdown":
        from compat.formats.markdown import render
    elif name == "sarif":
        from compat.formats.sarif import render
    elif name == "github":
        from compat.formats.github import render
    elif name == "html":
        from compat.formats.html import render
    elif name == "junit":
        from compat.formats.junit import render
    elif name == "gitlab":
        from compat.formats.gitlab import render
    else:  # pragma: no cover - typer validates the choice
        raise ValueError(name)
    return render
