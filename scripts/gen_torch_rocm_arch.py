#!/usr/bin/env python3
"""Regenerate compat/data/torch-rocm-arch.json: the GPU targets each torch ROCm build carries.

For every torch release series whose ROCm wheels (download.pytorch.org/whl/rocmX.Y) were built
from pytorch/builder, and every ROCm version of it, PYTORCH_ROCM_ARCH as the build set it: the
targets hipcc compiled torch's kernels for (one code object each in libtorch_hip.so).

Two files of pytorch/builder's `release/X.Y` branch are the primary sources (the release's
binary builds ran in the `pytorch/manylinux-builder:rocmV-X.Y` images that branch built):

* `manywheel/build_docker.sh`, the `rocm)` branch of `case ${GPU_ARCH_TYPE}`: the base list and
  its `if [[ $ROCM_VERSION_INT -ge N ]]` additions, passed to the image as
  `--build-arg PYTORCH_ROCM_ARCH` (`manywheel/Dockerfile`: `ENV PYTORCH_ROCM_ARCH`), which
  `manywheel/build_rocm.sh` keeps;
* `.github/workflows/build-manywheel-images.yml`: the `rocm_version` matrix, the ROCm versions an
  image (and so a wheel index) was built for.

Before 1.11 the branch set no PYTORCH_ROCM_ARCH (torch's own cmake default applied: not read
here). From 2.5 the scripts live in pytorch/pytorch: `.ci/docker/manywheel/build.sh` (its
`rocm` case: the list the image is built with) and `.github/scripts/generate_binary_build_matrix.py`
(`ROCM_ARCHES`: the ROCm versions, the wheels' `+rocmX.Y` labels). The recorded input names each
series' release commit as the release's own PyPI wheel states it (torch/version.py
`git_version`, the wheel's sha256 beside it); `--pytorch-git DIR` (a clone holding those
commits) reads both files there, fills the series' rows and re-reads a sample of those already
read. The repository could not be read here (4 GB; no fork stored under the 500 MiB bound), so
those series stay unread: the table names them under `unread` and has no row for them, and
compat says the table has no row rather than guess.

The recorded input is scripts/inputs/torch-rocm-arch.json: per series the ref, the commit, each
file's sha256 and the lists evaluated. `--refresh --builder-git DIR` re-reads both files at the
branch heads and rewrites it. Every run with `--builder-git` re-reads a sample of the recorded
series at their commits and fails when one differs. Without it the script is offline and
deterministic: tests/unit/kb/test_torch_rocm_arch.py fails when the committed JSON differs.

Usage: python scripts/gen_torch_rocm_arch.py [--builder-git DIR [--refresh]] [--pytorch-git DIR]
       [--check]
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
INPUT = ROOT / "scripts" / "inputs" / "torch-rocm-arch.json"
OUTPUT = ROOT / "compat" / "data" / "torch-rocm-arch.json"
SCRIPT = "manywheel/build_docker.sh"
MATRIX = ".github/workflows/build-manywheel-images.yml"
SERIES = ("1.11", "1.12", "1.13", "2.0", "2.1", "2.2", "2.3", "2.4")

_SET = re.compile(r'^PYTORCH_ROCM_ARCH="([^"$]*)"$')
_EXTEND = re.compile(r'^PYTORCH_ROCM_ARCH="\$\{PYTORCH_ROCM_ARCH\}(;[^"$]*)"$')
_APPEND = re.compile(r'^PYTORCH_ROCM_ARCH\+="(;[^"$]*)"$')
_IF = re.compile(r"^if \[\[ \$ROCM_VERSION_INT -(ge|gt|lt|le|eq) (\d+) \]\]; then$")
_MATRIX = re.compile(r"rocm_version:\s*\[([^\]]*)\]")
PYTORCH_SCRIPT = ".ci/docker/manywheel/build.sh"
PYTORCH_MATRIX = ".github/scripts/generate_binary_build_matrix.py"
# the rocm branch of pytorch's `case`: `rocm)`, `rocm|rocm-manylinux_2_28)`,
# `manylinux2_28-builder:rocm*)` as its versions have spelt it
_PYTORCH_LABEL = re.compile(r"^[\w|:.*-]*rocm[\w|:.*-]*\)$")
_ROCM_ARCHES = re.compile(r"^ROCM_ARCHES\s*=\s*\[([^\]]*)\]", re.MULTILINE)
_CONTAINS = re.compile(
    r'\[\[ "\$(?:GPU_ARCH_VERSION|\{GPU_ARCH_VERSION\})" == \*"([^"*]+)"\* \]\]; then'
)
_PREPEND = re.compile(r'^PYTORCH_ROCM_ARCH="([^"$]*;)\$\{PYTORCH_ROCM_ARCH\}"$')
_OPS = {
    "ge": int.__ge__,
    "gt": int.__gt__,
    "lt": int.__lt__,
    "le": int.__le__,
    "eq": int.__eq__,
}


class ScriptError(ValueError):
    """The script has a shape this evaluator does not understand: refuse, never guess."""


def version_int(rocm: str) -> int:
    """build_docker.sh's ROCM_VERSION_INT: major*10000 + minor*100 + patch."""
    match = re.fullmatch(r"(\d+)\.(\d+)(?:\.(\d+))?", rocm)
    if match is None:
        raise ScriptError(f"ROCm version {rocm!r}: the script's regex would fail")
    return int(match[1]) * 10000 + int(match[2]) * 100 + int(match[3] or 0)


def evaluate(script: str, rocm: str) -> list[str]:
    """PYTORCH_ROCM_ARCH the `rocm)` branch sets for ROCm `rocm`, as a list of targets.

    Understands an assignment, `${PYTORCH_ROCM_ARCH};...` and `+=";..."` extensions, and
    `if [[ $ROCM_VERSION_INT -OP N ]]; then ... fi` around them; anything else that touches
    the variable raises ScriptError."""
    lines = [line.split("#", 1)[0].strip() for line in script.splitlines()]
    start = next((i for i, line in enumerate(lines) if line == "rocm)"), None)
    if start is None:
        raise ScriptError("no `rocm)` branch")
    number = version_int(rocm)
    value: str | None = None
    active: list[bool] = []
    for line in lines[start + 1 :]:
        if line == ";;":
            break
        if match := _IF.match(line):
            active.append(_OPS[match[1]](number, int(match[2])))
            continue
        if line == "fi" and active:
            active.pop()
            continue
        if line.startswith("else") and active:
            raise ScriptError(f"an else branch: {line!r}")
        if "PYTORCH_ROCM_ARCH" not in line or line.startswith(("DOCKER_GPU_BUILD_ARG", "echo")):
            continue
        if not all(active):
            continue
        if match := _SET.match(line):
            value = match[1]
        elif (match := _EXTEND.match(line) or _APPEND.match(line)) and value is not None:
            value += match[1]
        else:
            raise ScriptError(f"an assignment this evaluator does not read: {line!r}")
    if value is None:
        raise ScriptError("the `rocm)` branch sets no PYTORCH_ROCM_ARCH")
    return [t for t in value.split(";") if t]


def rocm_versions(workflow: str) -> list[str]:
    """The `rocm_version` matrix of the image workflow."""
    match = _MATRIX.search(workflow)
    if match is None:
        raise ScriptError("no rocm_version matrix")
    return [v.strip().strip("\"'") for v in match[1].split(",") if v.strip()]


class _Block:
    """One `if ... fi` of the branch: whether the lines now read run (None: not known), and
    whether an earlier arm of an if/elif/else chain ran."""

    def __init__(self, active: bool | None) -> None:
        self.active = active
        self.taken = active is True

    def arm(self, active: bool | None) -> None:
        """An `elif` (active: its condition) or `else` (active: True)."""
        if self.active is None or active is None:
            self.active = None
            return
        self.active = active and not self.taken
        self.taken = self.taken or self.active


def _condition(line: str, rocm: str, number: int, rewritten: bool) -> bool | None:
    """An `if`/`elif` condition's truth for ROCm `rocm`; None where it is not one this reads (or
    names GPU_ARCH_VERSION after the branch rewrote it)."""
    body = re.sub(r"^(?:el)?if ", "", line)
    if match := _IF.match(f"if {body}"):
        if rewritten:
            return None
        return bool(_OPS[match[1]](number, int(match[2])))
    if match := _CONTAINS.fullmatch(body):
        return None if rewritten else match[1] in rocm
    return None


def evaluate_pytorch(script: str, rocm: str) -> list[str]:
    """PYTORCH_ROCM_ARCH the `rocm` case of pytorch's .ci/docker/manywheel/build.sh sets for
    ROCm `rocm` (the image tag's version, as the label spells it).

    Reads what `evaluate` reads, plus if/elif/else chains on `$ROCM_VERSION_INT -OP N` and on
    `"$GPU_ARCH_VERSION" == *"X"*` (the tag contains X), and a `"...;${PYTORCH_ROCM_ARCH}"`
    prefix. Other `if` blocks (the ROCM_REGEX check, the base image's patch-version fix-ups)
    are stepped over while they set no PYTORCH_ROCM_ARCH; an assignment under one, or under a
    condition on GPU_ARCH_VERSION after the branch rewrote it, is refused."""
    lines = [line.split("#", 1)[0].strip() for line in script.splitlines()]
    start = next((i for i, line in enumerate(lines) if _PYTORCH_LABEL.match(line)), None)
    if start is None:
        raise ScriptError("no rocm case in the script")
    number = version_int(rocm)
    value: str | None = None
    rewritten = False
    stack: list[_Block] = []
    for line in lines[start + 1 :]:
        if line == ";;":
            break
        if line.startswith("if ") and line.endswith("then"):
            stack.append(_Block(_condition(line, rocm, number, rewritten)))
            continue
        if line.startswith("elif ") and stack:
            stack[-1].arm(_condition(line, rocm, number, rewritten))
            continue
        if line == "else" and stack:
            stack[-1].arm(True)
            continue
        if line == "fi" and stack:
            stack.pop()
            continue
        if line.startswith("GPU_ARCH_VERSION="):
            rewritten = True
            continue
        if "PYTORCH_ROCM_ARCH" not in line or line.startswith(("DOCKER_GPU_BUILD_ARG", "echo")):
            continue
        if any(block.active is None for block in stack):
            raise ScriptError(f"an assignment under a condition not read: {line!r}")
        if not all(block.active for block in stack):
            continue
        if match := _SET.match(line):
            value = match[1]
        elif (match := _EXTEND.match(line) or _APPEND.match(line)) and value is not None:
            value += match[1]
        elif (match := _PREPEND.match(line)) and value is not None:
            value = match[1] + value
        else:
            raise ScriptError(f"an assignment this evaluator does not read: {line!r}")
    if value is None:
        raise ScriptError("the rocm case sets no PYTORCH_ROCM_ARCH")
    return [t for t in value.split(";") if t]


def rocm_arches(matrix: str) -> list[str]:
    """generate_binary_build_matrix.py's `ROCM_ARCHES = ["6.1", "6.2"]`: the ROCm versions the
    release's wheels were built for."""
    match = _ROCM_ARCHES.search(matrix)
    if match is None:
        raise ScriptError("no ROCM_ARCHES list")
    return [v.strip().strip("\"'") for v in match[1].split(",") if v.strip()]


def read_pytorch_series(clone: Path, commit: str) -> dict[str, Any]:
    """One pytorch/pytorch series as read at its release commit."""
    script = _git(clone, "show", f"{commit}:{PYTORCH_SCRIPT}")
    matrix = _git(clone, "show", f"{commit}:{PYTORCH_MATRIX}")
    return {
        "files": {
            PYTORCH_SCRIPT: hashlib.sha256(script.encode()).hexdigest(),
            PYTORCH_MATRIX: hashlib.sha256(matrix.encode()).hexdigest(),
        },
        "rocm": {rocm: evaluate_pytorch(script, rocm) for rocm in rocm_arches(matrix)},
    }


def _pytorch(recorded: dict[str, Any], clone: Path) -> None:
    """Read the unread pytorch/pytorch series at their release commits; re-read a sample of
    those already read and refuse one that differs."""
    series: dict[str, Any] = recorded.get("pytorch", {})
    done = sorted(name for name, row in series.items() if "rocm" in row)
    sample = random.Random(json.dumps(series, sort_keys=True)).sample(done, min(4, len(done)))
    for name in sample:
        row = series[name]
        again = read_pytorch_series(clone, row["commit"])
        if again != {"files": row["files"], "rocm": row["rocm"]}:
            raise SystemExit(f"torch {name}: the recorded row differs from {row['commit']}")
    for row in series.values():
        if "rocm" not in row:
            row.update(read_pytorch_series(clone, row["commit"]))
    INPUT.write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"re-read {len(sample)} pytorch/pytorch series: {', '.join(sample) or 'none yet'}")


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(mirror), *args], capture_output=True, text=True, check=True
    ).stdout


def read_series(mirror: Path, ref: str) -> dict[str, Any]:
    """One series as read at `ref` (a branch or a commit)."""
    commit = _git(mirror, "rev-parse", ref).strip()
    script = _git(mirror, "show", f"{commit}:{SCRIPT}")
    workflow = _git(mirror, "show", f"{commit}:{MATRIX}")
    return {
        "repo": "pytorch/builder",
        "commit": commit,
        "files": {
            SCRIPT: hashlib.sha256(script.encode()).hexdigest(),
            MATRIX: hashlib.sha256(workflow.encode()).hexdigest(),
        },
        "rocm": {rocm: evaluate(script, rocm) for rocm in rocm_versions(workflow)},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builder-git", type=Path, help="a git mirror of pytorch/builder")
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument(
        "--pytorch-git", type=Path, help="a pytorch/pytorch clone holding the release commits"
    )
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the committed table is not what it writes"
    )
    args = parser.parse_args()
    recorded: dict[str, Any] = json.loads(INPUT.read_text()) if INPUT.is_file() else {}
    if args.refresh:
        if args.builder_git is None:
            raise SystemExit("--refresh needs --builder-git DIR")
        recorded = {
            "about": "PYTORCH_ROCM_ARCH per ROCm version of pytorch/builder's release branches",
            "series": {
                series: {
                    "ref": f"release/{series}",
                    **read_series(args.builder_git, f"release/{series}"),
                }
                for series in SERIES
            },
            **({"pytorch": recorded["pytorch"]} if "pytorch" in recorded else {}),
        }
        INPUT.write_text(json.dumps(recorded, indent=1) + "\n")
    if args.builder_git is not None:
        series = recorded["series"]
        sample = random.Random(json.dumps(series, sort_keys=True)).sample(sorted(series), 4)
        for name in sample:
            row = series[name]
            again = read_series(args.builder_git, row["commit"])
            if {k: again[k] for k in ("commit", "files", "rocm")} != {
                k: row[k] for k in ("commit", "files", "rocm")
            }:
                raise SystemExit(f"torch {name}: the recorded row differs from {row['commit']}")
        print(f"re-read {len(sample)} series from pytorch/builder: {', '.join(sample)} agree")
    if args.pytorch_git is not None:
        _pytorch(recorded, args.pytorch_git)
    pytorch: dict[str, Any] = recorded.get("pytorch", {})
    table = {
        "about": (
            "GPU targets (PYTORCH_ROCM_ARCH) of torch's ROCm wheels per release series and ROCm "
            "version; generated by scripts/gen_torch_rocm_arch.py from "
            "scripts/inputs/torch-rocm-arch.json (pytorch/builder release branches to 2.4, "
            "pytorch/pytorch release commits from 2.5). Series not listed (before 1.11: torch's "
            "cmake default; those under `unread`: their release commit's scripts not read) "
            "have no row."
        ),
        "releases": {
            **{
                name: {
                    "rocm": row["rocm"],
                    "source": (
                        f"pytorch/builder {SCRIPT} @ {row['ref']} ({row['commit'][:12]}), "
                        f"ROCm versions from {MATRIX}"
                    ),
                }
                for name, row in recorded["series"].items()
            },
            **{
                name: {
                    "rocm": row["rocm"],
                    "source": (
                        f"pytorch/pytorch {PYTORCH_SCRIPT} @ v{row['release']} "
                        f"({row['commit'][:12]}), ROCm versions from {PYTORCH_MATRIX}"
                    ),
                }
                for name, row in pytorch.items()
                if "rocm" in row
            },
        },
        "unread": {
            name: f"pytorch/pytorch {PYTORCH_SCRIPT} @ v{row['release']} ({row['commit'][:12]})"
            for name, row in pytorch.items()
            if "rocm" not in row
        },
    }
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    return write_or_check(OUTPUT, text, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
