#!/usr/bin/env python3
"""Regenerate compat/data/rocm-targets.json: the GPU targets TheRock (ROCm's build, whose
multi-arch torch ships one `amd-torch-device-<target>` distribution per target) builds, each
with its product name, its package families and its support tier per OS.

Two files of ROCm/TheRock are the primary sources: `cmake/therock_amdgpu_targets.cmake`
(`therock_add_amdgpu_target(gfx942 "MI300A/MI300X CDNA" FAMILY dcgpu-all gfx94X-all ...)`: every
target built, its name and families, and the projects EXCLUDE_TARGET_PROJECTS leaves out for it,
rccl on gfx1150 for one) and `SUPPORTED_GPUS.md` (per OS, per target: *Build
Passing*, *Sanity Tested*, *Release Ready*; "A ✅ in the Build Passing column only indicates that
a wheel or tarball is produced ... `pip install` will succeed, but device enumeration, kernel
launch, or library loads may fail at runtime").

The recorded input is scripts/inputs/therock-targets.json: the rows as read, the repository,
commit and each file's sha256. `--refresh --therock-git DIR` re-reads both files from a local
git mirror at `--commit` (default: the recorded one) and rewrites the input. Every run with
`--therock-git` also re-reads a sample of the recorded rows from the source and fails when one
differs. Without it the script is offline and deterministic: tests/unit/kb/test_rocm_targets.py
fails when the committed JSON differs from what it writes.

Usage: python scripts/gen_rocm_targets.py [--therock-git DIR [--refresh] [--commit SHA]]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tablegen import write_or_check  # a sibling script, not a package

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "therock-targets.json"
OUTPUT = ROOT / "compat" / "data" / "rocm-targets.json"
CMAKE = "cmake/therock_amdgpu_targets.cmake"
SUPPORTED = "SUPPORTED_GPUS.md"
_TARGET = re.compile(r'therock_add_amdgpu_target\(\s*(gfx[0-9a-z]+)\s+"([^"]*)"\s+FAMILY\s+([^)]*)')
_ROW = re.compile(r"^\|\s*\**[^|]*?\**\s*\|\s*\**(gfx[0-9a-z]+)\**\s*\|([^|]*)\|([^|]*)\|([^|]*)\|")


def _git(mirror: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(mirror), "show", f"{commit}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def parse(cmake: str, supported: str) -> list[dict[str, Any]]:
    """The rows: target, name, families (cmake) and the tier per OS (SUPPORTED_GPUS.md)."""
    rows: dict[str, dict[str, Any]] = {}
    text = "\n".join(line.split("#", 1)[0] for line in cmake.splitlines())  # comments out
    for target, name, rest in _TARGET.findall(text):
        words = rest.split()
        families: list[str] = []
        excluded: list[str] = []
        bucket = families
        for word in words:
            if word.isupper():  # a keyword (EXCLUDE_TARGET_PROJECTS, ...)
                bucket = excluded if word == "EXCLUDE_TARGET_PROJECTS" else []
                continue
            bucket.append(word)
        rows[target] = {
            "target": target,
            "name": name,
            "families": families,
            "excluded_projects": sorted(excluded),
            "tiers": {},
        }
    system = None
    for line in supported.splitlines():
        heading = re.match(r"^##\s+ROCm on (Linux|Windows)", line)
        if heading:
            system = heading.group(1).lower()
            continue
        match = _ROW.match(line)
        if match is None or system is None:
            continue
        target = match.group(1)
        tier = {
            "build_passing": "✅" in match.group(2),
            "sanity_tested": "✅" in match.group(3),
            "release_ready": "✅" in match.group(4),
        }
        row = rows.setdefault(
            target,
            {"target": target, "name": "", "families": [], "excluded_projects": [], "tiers": {}},
        )
        row["tiers"].setdefault(system, tier)
    return [rows[t] for t in sorted(rows, key=_key)]


def _key(target: str) -> tuple[int, int, int, str]:
    match = re.fullmatch(r"gfx(\d+)([0-9a-f])([0-9a-f])", target)
    if match is None:
        return (0, 0, 0, target)
    return (int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16), target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--therock-git", type=Path)
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--commit", default="")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the committed table is not what it writes"
    )
    args = parser.parse_args()
    recorded: dict[str, Any] = json.loads(INPUT.read_text()) if INPUT.is_file() else {}
    if args.refresh:
        if args.therock_git is None:
            raise SystemExit("--refresh needs --therock-git DIR")
        commit = args.commit or recorded.get("source", {}).get("commit") or "HEAD"
        cmake, supported = (
            _git(args.therock_git, commit, CMAKE),
            _git(args.therock_git, commit, SUPPORTED),
        )
        full = subprocess.run(
            ["git", "--git-dir", str(args.therock_git), "rev-parse", commit],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        recorded = {
            "about": "TheRock's GPU targets, names, families and support tiers, as read",
            "source": {
                "repository": "ROCm/TheRock",
                "commit": full,
                "files": {
                    CMAKE: hashlib.sha256(cmake.encode()).hexdigest(),
                    SUPPORTED: hashlib.sha256(supported.encode()).hexdigest(),
                },
            },
            "rows": parse(cmake, supported),
        }
        INPUT.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n")
    if args.therock_git is not None:
        commit = recorded["source"]["commit"]
        again = {
            r["target"]: r
            for r in parse(
                _git(args.therock_git, commit, CMAKE), _git(args.therock_git, commit, SUPPORTED)
            )
        }
        sample = random.Random(commit).sample(recorded["rows"], min(8, len(recorded["rows"])))
        for row in sample:
            if again.get(row["target"]) != row:
                raise SystemExit(f"{row['target']}: the recorded row differs from {commit}")
        print(f"re-read {len(sample)} rows from ROCm/TheRock {commit[:9]}: they agree")
    source = recorded["source"]
    table = {
        "about": (
            "GPU targets TheRock builds (ROCm/TheRock cmake/therock_amdgpu_targets.cmake) and "
            "their support tier per OS (SUPPORTED_GPUS.md); generated by "
            "scripts/gen_rocm_targets.py from scripts/inputs/therock-targets.json"
        ),
        "source": f"https://github.com/ROCm/TheRock/tree/{source['commit']}",
        "targets": {
            row["target"]: {k: row[k] for k in ("name", "families", "excluded_projects", "tiers")}
            for row in recorded["rows"]
        },
    }
    text = json.dumps(table, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    return write_or_check(OUTPUT, text, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
