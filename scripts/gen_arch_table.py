#!/usr/bin/env python3
"""Regenerate compat/data/torch-arch.json: the GPU code each torch build carries.

For every torch release in compat/data/torch-builds.json and every CUDA build of it (the PyPI
default and each download.pytorch.org/whl/cuXYZ index), the SASS architectures (machine code for
one compute capability major, run by GPUs of that major with an equal or higher minor) and the
PTX architectures (JIT-compiled by the driver for that capability and every newer one) that
PyTorch's own build configuration put into the wheel: TORCH_CUDA_ARCH_LIST as the binary build
script sets it for that CUDA version on Linux x86_64.

Three recorded inputs. scripts/inputs/torch-wheel-arch.json: the nvcc architecture flags compiled
into the CUDA library of each release's PyPI default Linux x86_64 wheel (read through range
requests; primary for that build), and what that library's fat binaries really carry, read with
compat's own reader (`fatbin`): the generator refuses a wheel whose fat binaries disagree with its
flags on PTX or lack an architecture the flags name. scripts/inputs/torch-arch-lists.json: per release series, the
arch list per CUDA version for the other indexes' builds and the source it was read from
(repository, path, ref, commit, sha256 of the file, fetch date), of two kinds:

* `script`: the build script itself, evaluated here for each CUDA version (`--refresh` re-reads
  it from a local git mirror: pytorch/builder's release/X.Y branches carry
  manywheel/build_cuda.sh, manywheel/build.sh before 1.11; pytorch/pytorch's vX.Y.0 tags carry
  .ci/manywheel/build_cuda.sh from 2.6 on).
* `recorded`: the lists transcribed from PyTorch's published support matrix (RELEASE.md, "PyTorch
  CUDA Support Matrix", and the RFC/PR that changed it), with each reference named and an
  `evidence` saying how close to the tag it is, until a `--refresh --pytorch-git DIR` reads it.
  A row whose source has `release_strips_ptx` (with its note and references) is the recorded
  list without +PTX: PyTorch's release process strips it from release wheels where the published
  matrix still lists the nightlies' +PTX.

Without --refresh the script is offline and deterministic;
tests/unit/kb/test_arch_table.py fails when the committed JSON differs from what it writes.
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
WHEELS = ROOT / "scripts" / "inputs" / "torch-wheel-arch.json"
PYPI_BUILDS = ROOT / "scripts" / "inputs" / "torch-pypi-builds.json"
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


def without_ptx(text: str) -> str:
    """`7.5;12.0+PTX` -> `7.5;12.0`: the list a release build compiles where the release process
    strips +PTX (the input's `release_strips_ptx`)."""
    return text.replace("+PTX", "")


def _capability(name: str) -> str:
    """`sm_90a` / `compute_120` -> `9.0a` / `12.0` (TORCH_CUDA_ARCH_LIST spelling)."""
    digits = name.partition("_")[2]
    suffix = digits.lstrip("0123456789")
    number = digits[: len(digits) - len(suffix)]
    return f"{number[:-1]}.{number[-1]}{suffix}"


def check_fatbin(version: str, wheel: dict[str, Any]) -> None:
    """The flags say what torch's build compiled its kernels for; the wheel's fat binaries what
    the wheel carries. Refuse a reading where they disagree on PTX, or where an architecture the
    flags name has no entry (the fat binaries may hold more: kernels of libraries linked in
    statically, a few arch-specific ones)."""
    fatbin = wheel.get("fatbin")
    if fatbin is None:
        return
    listed = parse_list(wheel["arch_list"])
    ptx = sorted(_capability(name) for name in fatbin["ptx"])
    sass = {_capability(name) for name in fatbin["sass"]}
    if sorted(listed["ptx"]) != ptx:
        raise ScriptError(f"{version}: the flags' PTX {listed['ptx']} but the fat binaries' {ptx}")
    missing = [arch for arch in listed["sass"] if arch not in sass]
    if missing:
        raise ScriptError(f"{version}: no fat-binary entry for the flags' {', '.join(missing)}")


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


# nvcc's architecture flags as CMake compiled them into torch's CUDA library (the string
# torch.cuda.get_arch_list() is built from): `-gencode;arch=compute_80,code=sm_80;...`, where
# `code=compute_XY` is PTX.
_GENCODE = re.compile(
    rb"-gencode;arch=compute_\d+a?,code=(?:sm|compute)_\d+a?(?:;-gencode;arch=compute_\d+a?,code=(?:sm|compute)_\d+a?)+"
)
# 1.13 split the library: the flags live in libtorch_cuda_cpp.so there.
_CUDA_LIBRARIES = (
    "torch/lib/libtorch_cuda.so",
    "torch/lib/libtorch_cuda_cpp.so",
    "torch/lib/libtorch_cuda_cu.so",
)


def flags_to_list(flags: str) -> str:
    """`-gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_90,code=compute_90` ->
    `8.0;9.0+PTX` (TORCH_CUDA_ARCH_LIST spelling)."""
    sass: list[str] = []
    ptx: set[str] = set()
    for kind, number in re.findall(r"code=(sm|compute)_(\d+a?)", flags):
        arch = f"{number[:-2] if number.endswith('a') else number[:-1]}.{number.rstrip('a')[-1]}"
        arch += "a" if number.endswith("a") else ""
        if kind == "compute":
            ptx.add(arch)
        if arch not in sass:
            sass.append(arch)
    return ";".join(f"{a}+PTX" if a in ptx else a for a in sass)


def read_wheel_flags(client: Any, url: str) -> tuple[str, str]:
    """(member, nvcc flags) from the CUDA library inside a torch wheel, read through range
    requests: the flags sit in the library's first ~100 MB, so the stream stops there."""
    import io
    import zipfile

    from gen_torch_builds import _RangeFile

    with zipfile.ZipFile(io.BufferedReader(_RangeFile(client, url), 8 << 20)) as wheel:
        names = set(wheel.namelist())
        present = [n for n in _CUDA_LIBRARIES if n in names]
        if not present:
            raise ScriptError(f"{url}: no CUDA library")
        for member in present:
            tail = b""
            with wheel.open(member) as library:
                while chunk := library.read(4 << 20):
                    match = _GENCODE.search(tail + chunk)
                    if match:
                        return member, match.group(0).decode()
                    tail = chunk[-4096:]
    raise ScriptError(f"{url}: no nvcc architecture flags in {', '.join(present)}")


def read_wheel_fatbin(client: Any, url: str) -> dict[str, Any]:
    """The GPU code the wheel's CUDA libraries really carry: every fat-binary entry of each, read
    with compat's own reader (compat/binary, the one doctor uses on installed files). The member
    is streamed out of the wheel through range requests into a temporary file, read, deleted."""
    import io
    import shutil
    import tempfile
    import zipfile

    from gen_torch_builds import _RangeFile

    from compat.binary.elf import read_elf
    from compat.binary.fatbin import arch_key

    sass: set[str] = set()
    ptx: set[str] = set()
    entries = 0
    with zipfile.ZipFile(io.BufferedReader(_RangeFile(client, url), 8 << 20)) as wheel:
        present = [n for n in _CUDA_LIBRARIES if n in set(wheel.namelist())]
        for member in present:
            with tempfile.NamedTemporaryFile(suffix=".so") as copy:
                with wheel.open(member) as library:
                    shutil.copyfileobj(library, copy, 8 << 20)
                copy.flush()
                fatbin = read_elf(copy.name).fatbin
            if fatbin is not None:
                sass.update(fatbin.sass)
                ptx.update(fatbin.ptx)
                entries += fatbin.entries
    return {
        "members": present,
        "entries": entries,
        "sass": sorted(sass, key=arch_key),
        "ptx": sorted(ptx, key=arch_key),
    }


def refresh_fatbins() -> None:
    """Add each PyPI default wheel's fatbin reading (read_wheel_fatbin) to
    scripts/inputs/torch-wheel-arch.json; a wheel already read keeps its reading."""
    from urllib.parse import urljoin

    import httpx

    sys.path.insert(0, str(ROOT))  # read_wheel_fatbin reads with compat's own reader
    document = json.loads(WHEELS.read_text())
    project_url = "https://pypi.org/pypi/torch/json"
    with httpx.Client(timeout=300) as client:
        project = client.get(project_url).json()["releases"]
        for version, known in sorted(
            document["releases"].items(), key=lambda item: _release_key(item[0])
        ):
            if "fatbin" in known:
                continue
            (file,) = [f for f in project[version] if f["filename"] == known["wheel"]]
            print(f"reading the fat binaries of {known['wheel']}", file=sys.stderr)
            known["fatbin"] = read_wheel_fatbin(client, urljoin(project_url, file["url"]))
            WHEELS.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def refresh_wheels() -> None:
    """Read the nvcc flags of every PyPI default Linux x86_64 CUDA wheel (the wheel
    torch-pypi-builds.json records) into scripts/inputs/torch-wheel-arch.json."""
    from urllib.parse import urljoin

    import httpx

    builds = json.loads(PYPI_BUILDS.read_text())["releases"]
    previous = json.loads(WHEELS.read_text())["releases"] if WHEELS.exists() else {}
    releases: dict[str, Any] = {}
    project_url = "https://pypi.org/pypi/torch/json"
    with httpx.Client(timeout=120) as client:
        project = client.get(project_url).json()["releases"]
        for version, platforms in sorted(builds.items(), key=lambda item: _release_key(item[0])):
            build = platforms.get(X86)
            if not build or not build["cuda"]:
                continue
            known = previous.get(version)
            if known and known["sha256"] == build["sha256"]:
                releases[version] = known  # wheels are immutable: never read one twice
                continue
            (file,) = [f for f in project[version] if f["filename"] == build["wheel"]]
            print(f"reading {build['wheel']}", file=sys.stderr)
            member, flags = read_wheel_flags(client, urljoin(project_url, file["url"]))
            releases[version] = {
                "wheel": build["wheel"],
                "sha256": build["sha256"],
                "cuda": build["cuda"],
                "member": member,
                "nvcc_flags": flags,
                "arch_list": flags_to_list(flags),
            }
    document = {
        "note": "nvcc architecture flags compiled into the CUDA library of each torch release's "
        "PyPI default Linux x86_64 wheel, read through HTTP range requests (primary: the wheel "
        "pip installs). They decide the table's row for that release and CUDA version.",
        "source": f"{project_url} + the CUDA library inside each wheel",
        "fetched": datetime.date.today().isoformat(),
        "releases": releases,
    }
    WHEELS.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


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
    refresh_wheels()
    refresh_fatbins()


def generate() -> str:
    document = json.loads(INPUT.read_text())
    builds = json.loads(BUILDS.read_text())["releases"]
    wheels = json.loads(WHEELS.read_text())["releases"]
    releases: dict[str, Any] = {}
    for version in sorted(builds, key=_release_key):
        series = ".".join(version.split(".")[:2])
        row = document["releases"].get(series)
        if row is None:
            continue
        cudas = set(builds[version]["variants"] or ())
        if builds[version]["default"].get(X86):
            cudas.add(builds[version]["default"][X86])
        lists = {cuda: row["cuda"][cuda] for cuda in cudas if row["cuda"].get(cuda)}
        if row["source"].get("release_strips_ptx"):
            lists = {cuda: without_ptx(text) for cuda, text in lists.items()}
        wheel = wheels.get(version)
        if wheel is not None:
            check_fatbin(version, wheel)
            # The wheel pip installs is the primary source for its own build: it wins over the
            # script or the support matrix (2.12-2.14's PyPI CUDA 13.0 wheel has no PTX,
            # whatever RELEASE.md lists for the 13.0 builds).
            lists[wheel["cuda"]] = wheel["arch_list"]
        table = {cuda: parse_list(lists[cuda]) for cuda in sorted(lists, key=_release_key)}
        source = row["source"]
        where = f"{source['repo']} {source['path']} @ {source['ref']}"
        if source.get("commit"):
            where += f" ({source['commit'][:12]})"
        evidence = dict.fromkeys(
            table, "build-script" if source["kind"] == "script" else source["evidence"]
        )
        if wheel is not None:
            evidence[wheel["cuda"]] = "wheel"
        releases[version] = {
            "builds": table,
            "evidence": evidence,
            "source": where,
            **({"wheel": wheel["wheel"]} if wheel else {}),
        }
    output = {
        "schema": "compat.torch-arch/1",
        "generated_by": "scripts/gen_arch_table.py",
        "inputs": {
            "arch_lists": "scripts/inputs/torch-arch-lists.json",
            "builds": "compat/data/torch-builds.json",
            "wheels": "scripts/inputs/torch-wheel-arch.json",
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
