"""JSON documents the user gives us (configs, profiles, reports, baselines): one place that turns
a parse error into a one-line InputError naming file, line and column."""

from __future__ import annotations

from typing import Any


def parse_json(text: str, path: str) -> Any:
    """Strict JSON (no NaN/Infinity), nesting and integer size bounded (see compat.files.readers)."""
    from compat.files.readers import parse_json as bounded

    return bounded(text, path)
