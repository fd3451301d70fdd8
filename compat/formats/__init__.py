"""Output formats, one module each, chosen by name. Formatters return text; only compat/cli/ writes it."""

from __future__ import annotations

from collections.abc import Callable

from compat.report import Report

Formatter = Callable[[Report, bool], str]  # (report, colour) -> text

# Every report format by name: what `--format` and `--report FORMAT=FILE` choose from.
REPORT_FORMATS = ("text", "json", "markdown", "html", "sarif", "github", "junit", "gitlab")


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
