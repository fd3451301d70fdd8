#!/usr/bin/env python3
"""Regenerate compat/data/requires-snapshot.json: what each release of a stack package requires.

Offline, compat infers the packages a requirement file does not name (torch through accelerate,
triton through torch) from this dated snapshot, never from its index cache: a cache may make a
check faster, never give it another answer. The snapshot covers every package a knowledge-base
rule speaks of, plus the frameworks that pin them (CARRIERS), and for each final release it keeps
only the Requires-Dist lines that name a covered package (the walk follows nothing else).

The recorded input, scripts/inputs/requires-snapshot.json, holds for each release the Linux
x86-64 wheel read (the wheel pip takes there), the sha256 of its core metadata (PEP 658, as the
index lists it) and the filtered Requires-Dist. `--refresh` re-reads PyPI's simple API (PEP 691
JSON) and each release's `.metadata` file; without it the script is offline and deterministic,
and `--check` exits 1 when the committed snapshot is stale or the knowledge base names a package
the input does not cover (refresh then).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import io
import json
import sys
import urllib.error
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "requires-snapshot.json"
OUTPUT = ROOT / "compat" / "data" / "requires-snapshot.json"

# Frameworks that pin the packages rules speak of (a training repo names them, not torch).
CARRIERS = ("verl", "sglang", "liger-kernel", "ms-swift", "llamafactory", "axolotl")
# Releases uploaded since this day (torch 1.8's era): older ones are not judged offline through
# this snapshot (a pin below them falls back to compat/data/recorded-requires.json).
SINCE = "2021-01-01"


def covered() -> list[str]:
    """Every package a knowledge-base rule names (its conditions and fixes), and CARRIERS."""
    sys.path.insert(0, str(ROOT))
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    from compat.kb.knowledge import load_knowledge_base

    names: set[str] = set(CARRIERS)

    def walk(when: dict[str, Any]) -> None:
        packages = when.get("packages", {})
        if isinstance(packages, dict):
            names.update(canonicalize_name(n) for n in packages)
        for branch in when.get("any", []) or []:
            walk(branch)

    for rule in load_knowledge_base(()).plain:
        walk(rule["when"])
        names.update(canonicalize_name(Requirement(c).name) for c in rule["fix"]["constraints"])
    return sorted(names)


def _fields(text: str) -> list[tuple[str, str]]:
    """The header fields of a METADATA file, as (field, value) pairs."""
    fields: list[tuple[str, str]] = []
    for line in text.split("\n\n", 1)[0].splitlines():
        if ":" in line and not line.startswith((" ", "\t")):
            key, _, value = line.partition(":")
            fields.append((key.strip(), value.strip()))
    return fields


BLOCK = 4 << 20  # bytes per range request: a wheel's whole central directory, usually


class _Sparse(io.RawIOBase):
    """A remote file read in BLOCK-sized range requests, each fetched once."""

    def __init__(self, url: str, size: int) -> None:
        self.url, self.size, self.pos = url, size, 0
        self.blocks: dict[int, bytes] = {}

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self.pos = {0: 0, 1: self.pos, 2: self.size}[whence] + offset
        return self.pos

    def tell(self) -> int:
        return self.pos

    def readinto(self, buffer: Any) -> int:
        import pypi_inputs

        if self.pos >= self.size:
            return 0
        index = self.pos // BLOCK
        if index not in self.blocks:
            start = index * BLOCK
            end = min(self.size, start + BLOCK) - 1
            self.blocks[index] = pypi_inputs._get(self.url, {"Range": f"bytes={start}-{end}"})
        block = self.blocks[index]
        data = block[self.pos - index * BLOCK :][: len(buffer)]
        buffer[: len(data)] = data
        self.pos += len(data)
        return len(data)


def _wheel_metadata(url: str, size: int) -> tuple[str, bytes] | None:
    """(member name, text) of the wheel's .dist-info/METADATA."""
    import pypi_inputs

    if size <= BLOCK:
        archive = zipfile.ZipFile(io.BytesIO(pypi_inputs._get(url)))
    else:
        archive = zipfile.ZipFile(io.BufferedReader(_Sparse(url, size), buffer_size=BLOCK))
    with archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return (names[0], archive.read(names[0])) if names else None


def _release(name: str, version: str, wheel: dict[str, Any], names: set[str]) -> dict[str, Any]:
    import pypi_inputs
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    entry: dict[str, Any] = {
        "version": version,
        "wheel": wheel["filename"],
        "wheel_sha256": wheel["hashes"].get("sha256"),
        "metadata_sha256": None,
        "requires_dist": None,
    }
    try:  # the index may not list `core-metadata`, yet serve the file
        text = pypi_inputs._get(wheel["url"] + ".metadata")
        entry["metadata_from"] = "PEP 658 .metadata"
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        # No PEP 658 file: the wheel's own METADATA, read with a few large range requests.
        found = _wheel_metadata(wheel["url"], int(wheel.get("size") or 0))
        if found is None:
            return entry  # requirements unknown (said as such offline)
        entry["metadata_from"], text = found
    keep: list[str] = []
    for key, value in _fields(text.decode("utf-8", "replace")):
        if key != "Requires-Dist":
            continue
        try:
            requirement = Requirement(value)
        except InvalidRequirement:
            continue
        if canonicalize_name(requirement.name) in names and str(requirement) not in keep:
            keep.append(str(requirement))
    entry["metadata_sha256"] = hashlib.sha256(text).hexdigest()
    entry["requires_dist"] = keep
    return entry


def _read(name: str, names: frozenset[str], item: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return _release(name, item[0], item[1], set(names))


def refresh() -> None:
    """Re-read PyPI. A release already recorded from the same wheel (same sha256) and the same
    covered names is kept as recorded: a weekly refresh reads only new releases."""
    sys.path.insert(0, str(Path(__file__).parent))
    import pypi_inputs

    names = covered()
    old = json.loads(INPUT.read_text()) if INPUT.exists() else {}
    same_names = old.get("names") == names
    document: dict[str, Any] = {
        "fetched": datetime.date.today().isoformat(),
        "source": "https://pypi.org/simple/<name>/ (PEP 691 JSON) and each release's Linux "
        "x86-64 wheel's core metadata (PEP 658 <wheel url>.metadata)",
        "since": SINCE,
        "carriers": list(CARRIERS),
        "names": names,
        "packages": old.get("packages", {}) if same_names else {},
    }
    for name in names:
        files = [f for f in pypi_inputs.simple_files(name) if not f.get("yanked")]
        uploaded: dict[str, str] = {}
        for f in files:
            for version in pypi_inputs.release_versions([f]):
                day = str(f.get("upload-time", ""))[:10]
                uploaded[str(version)] = min(uploaded.get(str(version), day), day)
        releases = [v for v in pypi_inputs.release_versions(files) if uploaded[str(v)] >= SINCE]
        wheels = pypi_inputs.final_versions(files)
        before = {
            (e["version"], e.get("wheel_sha256")): e for e in document["packages"].get(name, [])
        }
        todo = []
        entries: dict[str, dict[str, Any]] = {}
        for version in releases:
            if version not in wheels:
                entries[str(version)] = {"version": str(version), "wheel": None,
                                         "requires_dist": None}  # fmt: skip
                continue  # sdists only (DeepSpeed, flash-attn): requirements unknown
            wheel = pypi_inputs.pick_wheel(wheels[version])
            known = before.get((str(version), wheel["hashes"].get("sha256")))
            if known is not None and known.get("metadata_sha256"):
                entries[str(version)] = known
            else:
                todo.append((str(version), wheel))
        read = functools.partial(_read, name, frozenset(names))
        for entry in pypi_inputs.parallel(read, todo, workers=16):
            entries[entry["version"]] = entry
        document["packages"][name] = [entries[str(v)] for v in releases]
        print(f"{name}: {len(releases)} releases since {SINCE}, {len(todo)} read", file=sys.stderr)
        INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")  # progress kept
    document["packages"] = {n: document["packages"][n] for n in names}
    INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def _merge_extras(lines: list[str]) -> list[str]:
    """One line per requirement that only extras ask for (`x>=1; extra == "a" or extra == "b"`
    for the two lines that differ in their extra alone): the same requirements, smaller."""
    import re

    extras: dict[str, list[str]] = {}
    out: list[str] = []
    for line in lines:
        head, _, marker = line.partition("; ")
        match = re.fullmatch(r'extra == "([^"]+)"', marker)
        if match:
            extras.setdefault(head, []).append(match.group(1))
        else:
            out.append(line)
    for head, names in extras.items():
        out.append(head + "; " + " or ".join(f'extra == "{n}"' for n in sorted(set(names))))
    return sorted(out)


def generate() -> str:
    document = json.loads(INPUT.read_text())
    if document["names"] != covered():
        missing = sorted(set(covered()) - set(document["names"]))
        raise SystemExit(
            f"{INPUT.name} does not cover {', '.join(missing) or 'the same packages'} as the "
            "knowledge base's rules: run with --refresh"
        )
    out: dict[str, Any] = {}
    for name, releases in sorted(document["packages"].items()):
        sets: list[list[str]] = []
        versions: list[list[Any]] = []
        for entry in releases:
            lines = entry["requires_dist"]
            if lines is None:
                versions.append([entry["version"], None])
                continue
            lines = _merge_extras(lines)
            if lines not in sets:
                sets.append(lines)
            versions.append([entry["version"], sets.index(lines)])
        out[name] = {"requires": sets, "releases": versions}
    body = ",\n".join(
        f" {json.dumps(name)}: {json.dumps(entry, separators=(',', ':'))}"
        for name, entry in out.items()
    )
    head = {
        "schema": "compat.requires-snapshot/1",
        "generated_by": "scripts/gen_requires_snapshot.py",
        "about": "Each final release's Requires-Dist lines that name a package of this snapshot "
        "(`requires`: distinct sets; `releases`: [version, set index, or null where the release "
        "ships no wheel and its requirements are unknown]). Offline inference reads this, never "
        "compat's index cache.",
        "inputs": {
            "file": "scripts/inputs/requires-snapshot.json",
            "fetched": document["fetched"],
            "sha256": hashlib.sha256(INPUT.read_bytes()).hexdigest(),
        },
    }
    text = json.dumps(head, indent=1, sort_keys=True)
    return text[:-2] + ',\n "packages": {\n' + body + "\n }\n}\n"


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import run

    return run(__doc__, OUTPUT, generate, lambda _: refresh())


if __name__ == "__main__":
    raise SystemExit(main())
