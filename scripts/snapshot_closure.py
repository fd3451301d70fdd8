#!/usr/bin/env python3
"""Recompute scripts/inputs/snapshot-names.json: the packages compat's dependency snapshot covers.

The snapshot (scripts/gen_requires_snapshot.py) covers what real training stacks install: the
closure a real resolve of every real requirement, project and lock file under tests/data pulls in
(tests/data/real/**, tests/data/requirements/**, and the PyPI parts of tests/data/conda and
tests/data/pixi), plus the packages the knowledge base's rules name and their CARRIERS.

Each file is read with compat's own readers (the requirements `compat check FILE` sees); a direct
reference (`name @ git+URL`) is resolved as the bare name from PyPI (its own requirements are not
on the index), and a conda package of a conda/pixi file is left out (conda installs it, not pip).
A local label (`torch==2.1.2+cu118`) is dropped: PyTorch's index is not PyPI, and the PyPI
release of that version declares the same requirements. The main requirements are resolved with `uv pip compile --python-version 3.11 --python-platform
x86_64-manylinux_2_28` (then 3.10 and 3.12 where 3.11 cannot resolve them), and each optional
group (extras, dependency groups, Pipfile's dev-packages) with the main ones in a second resolve:
a group that clashes with the others is left out, and said so in the output. A file none of this
resolves is recorded with uv's words and skipped, but for a lock file (uv.lock locks every
platform at once): the names it locks are taken as they are.

This is online (PyPI through uv) and not deterministic (new releases move a resolve): it is run
by hand or by the weekly refresh, and what it found is the recorded input the snapshot's
generator reads offline.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "scripts" / "inputs" / "snapshot-names.json"
PYTHONS = ("3.11", "3.10", "3.12")
PLATFORM = "x86_64-manylinux_2_28"
SKIP_SUFFIXES = (".md", ".json")
TIMEOUT = 300
WORKERS = 4  # resolves at once (uv's cache is shared safely)
LOCKS = ("uv.lock", "pixi.lock", "Pipfile.lock", "conda-lock.yml")


def real_files() -> list[Path]:
    data = ROOT / "tests" / "data"
    found: list[Path] = []
    for folder in ("real", "requirements", "conda", "pixi"):
        for path in sorted((data / folder).rglob("*")):
            if path.is_file() and not path.name.endswith(SKIP_SUFFIXES):
                found.append(path)
    return found


def _uv() -> str:
    local = ROOT / ".venv" / "bin" / "uv"
    return str(local) if local.exists() else "uv"


def requirement_sets(path: Path) -> dict[str, list[str]] | str:
    """The requirement lines of the file by group ("" = main), or why the file is skipped."""
    sys.path.insert(0, str(ROOT))
    from compat.errors import CompatError
    from compat.facts.declared.detect import pixi_environments, read_declared

    groups: dict[str, list[str]] = {"": []}
    why = ""
    environments: list[str | None] = [*pixi_environments([path])] or [None]
    for environment in environments:
        try:
            declared = read_declared(
                [path], environ={}, platform="linux", pixi_environment=environment
            )
        except (CompatError, OSError, ValueError) as error:
            why = f"not a requirement file compat reads: {str(error).splitlines()[0]}"
            continue
        _group(declared, groups, "" if environment in (None, "default") else environment)
    if not any(groups.values()):
        return why or "no PyPI requirement"
    return groups


def _group(declared: Any, groups: dict[str, list[str]], environment: str) -> None:
    conda = set(declared.conda.names) if declared.conda is not None else set()
    for item in declared.requirements:
        if item.name in conda or item.kind == "constraint":
            continue
        extras = f"[{','.join(item.extras)}]" if item.extras else ""
        # A local label (`torch==2.1.2+cu118`) names a build on another index (PyTorch's, not
        # reached here): its PyPI release declares the same requirements.
        spec = re.sub(r"(==\s*[^,+]+)\+[A-Za-z0-9.]+", r"\1", str(item.specifier))
        line = f"{item.name}{extras}" if item.url else f"{item.name}{extras}{spec}"
        if item.marker is not None:
            line += f"; {item.marker}"
        group = item.group if item.group not in ("dependencies", "pip", "packages") else ""
        group = "" if item.kind == "lock" else group
        group = f"pixi.{environment}" if environment else group
        groups.setdefault(group, [])
        if line not in groups[group]:
            groups[group].append(line)


def compile_lines(lines: list[str]) -> tuple[str, list[str], list[str]] | str:
    """(python, the names a resolve installs, the packages left out because they could not be
    built for their metadata), or uv's words on Python 3.11 where no Python resolves. A package
    whose sdist cannot be built here (flash-attn needs torch to build) is left out of the resolve
    and kept as a name: its own requirements are then not followed."""
    first = ""
    for python in PYTHONS:
        todo, dropped = list(lines), list[str]()
        for _ in range(8):
            found = _compile(todo, python)
            if isinstance(found, list):
                return python, sorted(set(found) | set(dropped)), dropped
            failed = _BUILD.search(found)
            name = canonicalize(failed.group(1)) if failed else None
            keep = [line for line in todo if name is None or _name(line) != name]
            if name is None or len(keep) == len(todo):
                first = first or found
                break
            todo, dropped = keep, [*dropped, name]
    return first


_BUILD = re.compile(r"(?:build|metadata for) `([A-Za-z0-9._-]+)")


def canonicalize(text: str) -> str:
    from packaging.utils import canonicalize_name

    return str(canonicalize_name(re.split(r"[=<>!~ @\[;]", text, maxsplit=1)[0]))


def _name(line: str) -> str:
    return canonicalize(line)


def _compile(lines: list[str], python: str) -> list[str] | str:
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "requirements.in"
        source.write_text("\n".join(lines) + "\n")
        command = [_uv(), "pip", "compile", str(source), "--python-version", python,
                   "--python-platform", PLATFORM, "--no-header", "--no-annotate",
                   "--quiet", "--no-strip-extras"]  # fmt: skip
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT,
                                  check=False, env={**os.environ, "UV_NO_CONFIG": "1"})  # fmt: skip
        except subprocess.TimeoutExpired:
            return f"uv ran past {TIMEOUT} s"
    if proc.returncode == 0:
        return parse_names(proc.stdout)
    return " ".join(line.strip() for line in proc.stderr.splitlines() if line.strip())[:600]


def parse_names(text: str) -> list[str]:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    names: set[str] = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        try:
            names.add(canonicalize_name(Requirement(line).name))
        except InvalidRequirement:
            continue
    return sorted(names)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from gen_requires_snapshot import covered

    version = subprocess.run([_uv(), "--version"], capture_output=True, text=True, check=True)
    files: dict[str, Any] = {}
    jobs: list[tuple[str, str, list[str], list[str]]] = []
    for path in real_files():
        where = str(path.relative_to(ROOT))
        sets = requirement_sets(path)
        if isinstance(sets, str):
            files[where] = {"skipped": sets}
            print(f"{where}: skipped ({sets})", file=sys.stderr)
            continue
        files[where] = {}
        main_lines = sets.pop("")
        for group, lines in [("", main_lines), *sorted(sets.items())]:
            both = lines if group == "" else main_lines + lines
            if both:
                jobs.append((where, group or "main", both, [_name(line) for line in lines]))
    union: set[str] = set()

    def run(job: tuple[str, str, list[str], list[str]]) -> None:
        where, key, lines, declared = job
        found = compile_lines(lines)
        if isinstance(found, str):
            record: dict[str, Any] = {"unresolvable": found}
            if where.endswith(LOCKS):  # a lock for several platforms: what it locks is installed
                record["locked"] = len(declared)
                union.update(declared)
        else:
            record = {"python": found[0], "installs": len(found[1])}
            if found[2]:
                record["not built"] = found[2]
            union.update(found[1])
        files[where][key] = record
        print(f"{where} [{key}]: {record}", file=sys.stderr)

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        list(pool.map(run, jobs))
    rules = covered()
    document = {
        "made_by": "scripts/snapshot_closure.py",
        "how": f"uv pip compile FILE --python-version {PYTHONS[0]} (then "
        f"{', '.join(PYTHONS[1:])}) --python-platform {PLATFORM}, for each real file under "
        "tests/data (main requirements, then each optional group with them); the union of the "
        "names installed, plus the packages the knowledge base's rules name and their carriers",
        "uv": version.stdout.strip(),
        "fetched": datetime.date.today().isoformat(),
        "files": files,
        "rules": rules,
        "closure": sorted(union),
        "names": sorted(union | set(rules)),
    }
    OUTPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    print(f"{len(document['names'])} names ({len(union)} from resolves, {len(rules)} from "
          f"rules)", file=sys.stderr)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
