#!/usr/bin/env python3
"""Regenerate compat/data/torch-arch.json: the GPU code each torch build carries.

For every torch release in compat/data/torch-builds.json and every CUDA build of it (the PyPI
default and each download.pytorch.org/whl/cuXYZ index), the SASS architectures (machine code for
one compute capability major, run by GPUs of that major with an equal or higher minor) and the
PTX architectures (JIT-compiled by the driver for that capability and every newer one) that
PyTorch's own build configuration put into the wheel: TORCH_CUDA_ARCH_LIST as the binary build
script sets it for that CUDA version on Linux x86_64.

The recorded input is scripts/inputs/torch-arch-lists.json: per release series, the arch list per
CUDA version and the source it was read from (repository, path, ref, commit, sha256 of the file,
fetch date). Two kinds of source:

* `script`: the build script itself, evaluated here for each CUDA version (`--refresh` re-reads
  it from a local git mirror: pytorch/builder's release/X.Y branches carry
  manywheel/build_cuda.sh, manywheel/build.sh before 1.11; pytorch/pytorch's vX.Y.0 tags carry
  .ci/manywheel/build_cuda.sh from 2.6 on).
* `recorded`: the lists transcribed from PyTorch's published support matrix (RELEASE.md, "PyTorch
  CUDA Support Matrix", and the RFC/PR that changed it), with each reference named and an
  `evidence` saying how close to the tag it is, until a `--refresh --pytorch-git DIR` reads it.

Without --refresh the script is offline and deterministic; tests/test_arch_table.py fails when
the committed JSON differs from what it writes.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "torch-arch-lists.json"
BUILDS = ROOT / "compat" / "data" / "torch-builds.json"
OUTPUT = ROOT / "compat" / "data" / "torch-arch.json"
X86 = "linux/x86_64"

_ASSIGN = re.compile(r'^\s*TORCH_CUDA_ARCH_LIST="([^"]*)"\s*(?:;;)?\s*$')
_BRANCH = re.compile(r"^\s*([0-9.*\[\]|]+)\)\s*(.*)$")
_BASE_REF = "${TORCH_CUDA_ARCH_LIST}"


class ScriptError(ValueError):
    """The build script has a shape this evaluator does not understand: refuse, never guess."""


def evaluate(script: str, cuda: str) -> str | None:
    """TORCH_CUDA_ARCH_LIST the script sets for `cuda` on a Linux x86_64 wheel build, or None
    when its `case ${CUDA_VERSION}` has no branch for that version.

    Understands what PyTorch's scripts have used since 1.8: a base assignment, a `case` whose
    branches assign (or append to `${TORCH_CUDA_ARCH_LIST}`), glob patterns (`11.[356])`),
    one-line branches (`12.6) ... ;;`), and an `if [[ "$GPU_ARCH_TYPE" = "cuda-aarch64" ]]`
    block whose `else` part is the x86_64 build. Anything else raises ScriptError."""
    lines = script.splitlines()
    start = next((i for i, line in enumerate(lines) if "case ${CUDA_VERSION} in" in line), None)
    if start is None:
        raise ScriptError("no `case ${CUDA_VERSION} in`")
    value = ""
    for line in lines[:start]:
        match = _ASSIGN.match(line)
        if match and "OVERRIDE" not in line:
            value = match.group(1).replace(_BASE_REF, value)
    branch: list[str] | None = None
    chosen: list[str] | None = None
    for line in lines[start + 1 :]:
        if line.strip() == "esac":
            break
        head = _BRANCH.match(line)
        if head and branch is None:
            patterns = head.group(1).split("|")
            branch = [head.group(2)] if head.group(2) else []
            if chosen is None and any(fnmatch.fnmatchcase(cuda, p) for p in patterns):
                chosen = branch
            if branch and branch[0].rstrip().endswith(";;"):
                branch = None
            continue
        if branch is not None:
            branch.append(line)
            if line.strip().endswith(";;"):
                branch = None
    if chosen is None or any("exit 1" in line for line in chosen):
        return None
    aarch64 = False
    for line in chosen:
        text = line.strip().removesuffix(";;").strip()
        if text.startswith("if ") and "aarch64" in text:
            aarch64 = True
            continue
        if text == "else":
            aarch64 = False
            continue
        if text == "fi" or aarch64 or not text.startswith("TORCH_CUDA_ARCH_LIST="):
            continue
        match = _ASSIGN.match(text)
        if match is None:
            raise ScriptError(f"unsupported assignment: {text}")
        value = match.group(1).replace(_BASE_REF, value)
    if "$" in value:
        raise ScriptError(f"unsupported expansion in {value!r}")
    return value


def parse_list(text: str) -> dict[str, list[str]]:
    """`3.7;5.0;9.0+PTX` -> SASS [3.7, 5.0, 9.0], PTX [9.0] (sorted by capability)."""
    sass: set[str] = set()
    ptx: set[str] = set()
    for item in filter(None, (part.strip() for part in text.replace(" ", ";").split(";"))):
        arch, _, suffix = item.partition("+")
        if not re.fullmatch(r"\d+\.\d+[af]?", arch) or suffix not in ("", "PTX"):
            raise ScriptError(f"unsupported arch {item!r}")
        sass.add(arch)
        if suffix:
            ptx.add(arch)

    def key(arch: str) -> tuple[int, int, str]:
        major, minor = arch.rstrip("af").split(".")
        return int(major), int(minor), arch

    return {"sass": sorted(sass, key=key), "ptx": sorted(ptx, key=key)}


def _release_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def _git_show(git_dir: str, ref: str, path: str) -> tuple[str, str, str]:
    """(text, commit, sha256) of `path` at `ref` in a bare or normal git directory."""
    commit = subprocess.run(
        ["git", "--git-dir", git_dir, "rev-parse", f"{ref}^{{commit}}"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    data = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], capture_output=True, check=True
    ).stdout
    return data.decode(), commit, hashlib.sha256(data).hexdigest()


def refresh(builder_git: str | None, pytorch_git: str | None) -> None:
    """Re-read every `script` row from its repository at its ref (and, with --pytorch-git, turn
    `recorded` rows of 2.6+ into script rows read at their vX.Y.0 tag)."""
    document = json.loads(INPUT.read_text())
    today = datetime.date.today().isoformat()
    for series, row in document["releases"].items():
        source = row["source"]
        git_dir = {"pytorch/builder": builder_git, "pytorch/pytorch": pytorch_git}.get(
            source["repo"]
        )
        if source["kind"] == "recorded" and pytorch_git and _release_key(series) >= (2, 6):
            source.update(
                kind="script", repo="pytorch/pytorch", path=".ci/manywheel/build_cuda.sh",
                ref=f"v{series}.0",
            )  # fmt: skip
            git_dir = pytorch_git
        if source["kind"] != "script" or git_dir is None:
            continue
        text, commit, sha = _git_show(git_dir, source["ref"], source["path"])
        row["cuda"] = {cuda: evaluate(text, cuda) for cuda in row["cuda"]}
        source.update(commit=commit, sha256=sha, fetched=today)
    INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def generate() -> str:
    document = json.loads(INPUT.read_text())
    builds = json.loads(BUILDS.read_text())["releases"]
    releases: dict[str, Any] = {}
    for version in sorted(builds, key=_release_key):
        series = ".".join(version.split(".")[:2])
        row = document["releases"].get(series)
        if row is None:
            continue
        cudas = set(builds[version]["variants"] or ())
        if builds[version]["default"].get(X86):
            cudas.add(builds[version]["default"][X86])
        table = {
            cuda: parse_list(row["cuda"][cuda])
            for cuda in sorted(cudas, key=_release_key)
            if row["cuda"].get(cuda)
        }
        source = row["source"]
        where = f"{source['repo']} {source['path']} @ {source['ref']}"
        if source.get("commit"):
            where += f" ({source['commit'][:12]})"
        releases[version] = {
            "builds": table,
            "evidence": "build-script" if source["kind"] == "script" else source["evidence"],
            "source": where,
        }
    output = {
        "schema": "compat.torch-arch/1",
        "generated_by": "scripts/gen_arch_table.py",
        "inputs": {
            "arch_lists": "scripts/inputs/torch-arch-lists.json",
            "builds": "compat/data/torch-builds.json",
        },
        "releases": releases,
    }
    return json.dumps(output, indent=1, sort_keys=True) + "\n"


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import run

    def arguments(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--builder-git", help="git directory of pytorch/builder (--refresh)")
        parser.add_argument("--pytorch-git", help="git directory of pytorch/pytorch (--refresh)")

    return run(
        __doc__,
        OUTPUT,
        generate,
        lambda args: refresh(args.builder_git, args.pytorch_git),
        arguments,
    )


if __name__ == "__main__":
    sys.exit(main())
