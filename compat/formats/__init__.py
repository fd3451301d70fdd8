"""Output formats, one module each, chosen by name. Formatters return text; only cli.py writes it."""

from __future__ import annotations

import re
from collections.abc import Callable

from compat.report import Report

Formatter = Callable[[Report, bool], str]  # (report, colour) -> text


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
    else:  # pragma: no cover - typer validates the choice
        raise ValueError(name)
    return render


_ESCAPED = re.compile(r"\\([^dswDSWbB])")


def readable_symptom(pattern: str) -> str:
    """A symptom regex as the message a person would see: `cuda:\\d+` -> `cuda:N`."""
    text = pattern.replace(r"\d+", "N").replace(r"\d", "N").replace(".*", "…").replace(".+", "…")
    text = _ESCAPED.sub(r"\1", text)
    return text.strip("^$")
