"""`pip install --dry-run --report FILE` JSON (report version 1): the exact set pip resolved."""

from __future__ import annotations

from pathlib import Path

from compat.errors import InputError
from compat.jsonio import parse_json
from compat.model import Origin
from compat.sources.declared import Declared, locked


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
    lines = text.splitlines()
    out = []
    cursor = 0
    for item in document["install"]:
        metadata = item.get("metadata", {}) if isinstance(item, dict) else {}
        name, version = metadata.get("name"), metadata.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            raise InputError(
                "pip report: an install entry without metadata name/version",
                origin=Origin(str(path)),
            )
        line = None
        for index in range(cursor, len(lines)):  # the entry's "name" line, in document order
            if f'"name": "{name}"' in lines[index]:
                line, cursor = index + 1, index + 1
                break
        out.append(locked(name, version, Origin(str(path), line or 1), "report"))
    return out
