"""`pip install --dry-run --report FILE` JSON (report version 1): the exact set pip resolved."""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from compat.errors import InputError
from compat.facts.declared.entries import Declared, locked
from compat.files.jsonio import parse_json
from compat.model import Origin


def read_pip_report(path: Path, text: str) -> list[Declared]:
    document = parse_json(text, str(path))
    if not isinstance(document, dict) or "install" not in document:
        raise InputError(
            "not a pip --report document (no 'install' list)", origin=Origin(str(path), 1)
        )
    if str(document.get("version", "")).split(".")[0] != "1":
        raise InputError(
            f"pip report version {document.get('version')!r} is not supported (compat reads version 1)",
            origin=Origin(str(path), 1),
        )
    if not isinstance(document["install"], list):
        raise InputError(
            "pip report: 'install' must be a list", origin=Origin(str(path), _line(text, "install"))
        )
    name_lines = _name_lines(text)
    out = []
    cursor = 0
    for item in document["install"]:
        metadata = item.get("metadata", {}) if isinstance(item, dict) else {}
        if not isinstance(metadata, dict):
            metadata = {}
        name, version = metadata.get("name"), metadata.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            raise InputError(
                "pip report: an install entry without metadata name/version",
                origin=Origin(str(path)),
            )
        line = None
        candidates = name_lines.get(name, [])  # the entry's "name" line, in document order
        at = bisect.bisect_right(candidates, cursor)
        if at < len(candidates):
            line = cursor = candidates[at]
        out.append(locked(name, version, Origin(str(path), line or 1), "report"))
    return out


def _name_lines(text: str) -> dict[str, list[int]]:
    """Each `"name": "X"` in the text -> its 1-based lines, from one pass (a search per entry
    was quadratic when names are written with escapes and never match)."""
    out: dict[str, list[int]] = {}
    line, last = 1, 0
    for match in re.finditer(r'"name": "([^"\\\n]*)"', text):
        line += text.count("\n", last, match.start())
        last = match.start()
        out.setdefault(match.group(1), []).append(line)
    return out


def _line(text: str, key: str) -> int | None:
    at = text.find(f'"{key}"')
    return None if at < 0 else text.count("\n", 0, at) + 1
