"""Symptom regexes as people read them, for every format that shows one."""

from __future__ import annotations

from compat.lazyre import Lazy

_ESCAPED = Lazy(r"\\([^dswDSWbB])")


def readable_symptom(pattern: str) -> str:
    """A symptom regex as the message a person would see: `cuda:\\d+` -> `cuda:N`."""
    text = pattern.replace(r"\d+", "N").replace(r"\d", "N").replace(".*", "…").replace(".+", "…")
    text = _ESCAPED.sub(r"\1", text)
    return text.strip("^$")
