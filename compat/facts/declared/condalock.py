"""conda-lock lock files (`conda-lock.yml`, format `version: 1`): every platform's packages in one
`package:` list, each with `manager` (conda or pip), `platform`, `version` and its `url`.

Judged for the target platform (`--platform`, in conda's subdir names: linux-64, osx-arm64, ...)
like pixi.lock: conda entries through compat.facts.declared.condaspec (a PyPI project becomes a
locked package; the pytorch build string in the URL gives torch's CUDA build; python is the
target Python), pip entries as locked PyPI packages. Optional entries of a category other than
`main`/`dev` (extras) are installed only on request and are left out, with a note.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.facts.declared.condaspec import file_name_fields, locked_conda
from compat.facts.declared.entries import CondaFacts, FileResult, locked
from compat.model import Origin

SUPPORTED_VERSION = 1


def looks_like(head: str) -> bool:
    return re.search(r"^package:\s*$", head, re.MULTILINE) is not None and "manager:" in head


def read_conda_lock(path: Path, platform: str) -> tuple[FileResult, CondaFacts]:
    from compat.files.readers import read_text
    from compat.files.yamlio import load_with_lines

    text = read_text(path, "lock")
    document = load_with_lines(text, str(path))
    origin = Origin(str(path))
    if not isinstance(document, dict) or document.get("version") != SUPPORTED_VERSION:
        version = document.get("version") if isinstance(document, dict) else None
        raise InputError(
            f"conda-lock: lock version {version!r} is not supported (compat reads version "
            f"{SUPPORTED_VERSION})",
            origin=Origin(str(path), 1),
        )
    packages = document.get("package")
    if not isinstance(packages, list) or not all(isinstance(p, dict) for p in packages):
        raise InputError("conda-lock: `package` must be a list of tables", origin=origin)
    platforms = sorted({str(p.get("platform")) for p in packages})
    chosen = [p for p in packages if p.get("platform") == platform]
    if not chosen:
        raise InputError(
            f"conda-lock: no packages for {platform} (locked: {', '.join(platforms)}); choose the "
            "target with --platform",
            origin=origin,
        )
    result, facts = FileResult(), CondaFacts()
    lines = _name_lines(text)
    extras = [p for p in chosen if p.get("optional") and p.get("category") not in ("main", "dev")]
    if extras:
        result.notes.append(
            f"{path}: {len(extras)} optional packages of extra categories not judged "
            "(`conda-lock install` installs them only with `-e CATEGORY`)"
        )
    chosen = [p for p in chosen if p not in extras]
    pip_names = {str(p.get("name")).lower() for p in chosen if p.get("manager") == "pip"}
    for entry in chosen:
        name, version = entry.get("name"), entry.get("version")
        if not isinstance(name, str) or not isinstance(version, str | int | float):
            raise InputError("conda-lock: a package has no name or version", origin=origin)
        line = Origin(str(path), lines.get((name, platform)))
        if entry.get("manager") == "pip":
            result.requirements.append(locked(name, str(version), line, "lock"))
            continue
        record: dict[str, Any] = {**file_name_fields(str(entry.get("url", ""))), "name": name}
        record["version"] = str(version)
        locked_conda(record, line, facts, result, pip_names, "conda-lock")
    return result, facts


def _name_lines(text: str) -> dict[tuple[str, str], int]:
    """(name, platform) -> the line of the entry's `- name:` (its platform follows within it)."""
    out: dict[tuple[str, str], int] = {}
    name, start = "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("- name: "):
            name, start = line[len("- name: ") :].strip().strip("'\""), number
        elif line.startswith("  platform: ") and name:
            out.setdefault((name, line[len("  platform: ") :].strip().strip("'\"")), start)
            name = ""
    return out
