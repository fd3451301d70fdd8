#!/usr/bin/env python3
"""Regenerate compat/data/xformers-rocm-arch.json: the GPU targets of xFormers' ROCm wheels.

xFormers' release CI builds its ROCm wheels (uploaded to download.pytorch.org/whl/rocmA.B, with
no local version label) since facebookresearch/xformers#1081 ("build rocm wheels",
e6397462, first tagged in v0.0.28). At each release tag three files decide what they carry:

* `.github/workflows/wheels_build.yml`: the job's environment sets
  `HIP_ARCHITECTURES: ${{ contains(inputs.toolkit_type, 'rocm') && 'gfx90a gfx942' || '' }}`;
* `setup.py`: `arch_list = os.getenv("HIP_ARCHITECTURES", "native").split()` becomes one
  `--offload-arch=` flag per target in the hipcc flags of every source of `xformers._C`. Because
  the flags name a target, torch's cpp_extension adds none of its own (`_get_rocm_arch_flags`
  returns early when a flag contains `offload-arch`): torch's PYTORCH_ROCM_ARCH is not what the
  wheel carries, and setup.py names PYTORCH_ROCM_ARCH only to record it in the build info;
* `.github/workflows/wheels.yml`: `ROCM_VERSIONS`, the ROCm versions built, the torch version
  built against, and the `rocm*` suffixes the `upload_pt` jobs copy to PyTorch's indexes
  (download.pytorch.org/whl/rocmA.B). The wheels' versions carry no local label
  (wheels_build.yml's BUILD_VERSION suffix names a step the job does not have: `local_label`),
  so the index, not the version, says which build a declared xformers is.

No check at import or run time refuses a GPU (xformers/ops/fmha/ck.py has no target list); a
GPU outside the list fails at its first kernel launch (HIP invalid device function).

The recorded input is scripts/inputs/xformers-rocm-arch.json: per tag the commit, each file's
sha256 and what was read. `--xformers-git DIR --refresh` reads every release tag from v0.0.28
and rewrites it; every run with `--xformers-git` re-reads a sample of the recorded tags at their
commits and fails when one differs. Without it the script is offline and deterministic:
tests/unit/kb/test_xformers_rocm_arch.py fails when the committed JSON differs.

Usage: python scripts/gen_xformers_rocm_arch.py [--xformers-git DIR [--refresh]] [--check]
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
INPUT = ROOT / "scripts" / "inputs" / "xformers-rocm-arch.json"
OUTPUT = ROOT / "compat" / "data" / "xformers-rocm-arch.json"
REPO = "facebookresearch/xformers"
BUILD = ".github/workflows/wheels_build.yml"
MATRIX = ".github/workflows/wheels.yml"
SETUP = "setup.py"
FIRST = "0.0.28"  # the first tag after e6397462 (#1081, "build rocm wheels")

_TAG = re.compile(r"^v(\d+\.\d+\.\d+(?:\.post\d+)?)$")
_HIP = re.compile(
    r"^\s*HIP_ARCHITECTURES:\s*\$\{\{\s*contains\(inputs\.toolkit_type,\s*'rocm'\)\s*&&\s*"
    r"'([^']*)'\s*\|\|\s*''\s*\}\}\s*$",
    re.MULTILINE,
)
_ROCM_VERSIONS = re.compile(r"^\s*ROCM_VERSIONS\s*=\s*\[([^\]]*)\]", re.MULTILINE)
_TORCH = re.compile(r"^\s*for torch_version in \[([^\]]*)\]:", re.MULTILINE)
_UPLOAD = re.compile(r"s3://pytorch/whl/(rocm[\d.]+)/|^\s*-\s*(rocm[\d.]+)\s*$")
# setup.py's two lines that make HIP_ARCHITECTURES the hipcc targets
_SETUP_ARCH = 'arch_list = os.getenv("HIP_ARCHITECTURES", "native").split()'
_SETUP_FLAG = '*[f"--offload-arch={arch}" for arch in arch_list]'
_TARGET = re.compile(r"gfx[0-9a-f]+(?::[a-z]+[+-])*")


class ScriptError(ValueError):
    """A file has a shape this reader does not understand: refuse, never guess."""


def _strings(listed: str) -> list[str]:
    return [v.strip().strip("\"'") for v in listed.split(",") if v.strip()]


def hip_architectures(workflow: str) -> list[str]:
    """wheels_build.yml's HIP_ARCHITECTURES for a ROCm toolkit, as a list of targets."""
    found = _HIP.findall(workflow)
    if len(found) != 1 or workflow.count("HIP_ARCHITECTURES") != 1:
        # another line naming it (a step writing it to GITHUB_ENV) could change it: not read
        raise ScriptError(f"{BUILD}: HIP_ARCHITECTURES is not set once, in the known shape")
    targets: list[str] = str(found[0]).split()
    if not targets or not all(_TARGET.fullmatch(t) for t in targets):
        raise ScriptError(f"{BUILD}: HIP_ARCHITECTURES {found[0]!r} is not a target list")
    return targets


_BUILD_VERSION = re.compile(
    r"BUILD_VERSION=\$version\$\{\{\s*steps\.(\w+)\.outputs\.CUDA_VERSION_SUFFIX\s*\}\}"
)


def local_label(workflow: str) -> str:
    """The local version label wheels_build.yml gives the wheel: `BUILD_VERSION=$version${{
    steps.cuda_info.outputs.CUDA_VERSION_SUFFIX }}` names a step id that no step of the job
    has (`cuda_info` is a step inside the setup-build-cuda composite action, whose outputs the
    calling job does not see), so the expression is empty and the wheel has no label: PyTorch's
    ROCm index serves `xformers-0.0.28.post3-cp310-cp310-manylinux_2_28_x86_64.whl`. A job
    step with that id would make the label `+rocmA.B`: refused, not guessed."""
    found = _BUILD_VERSION.findall(workflow)
    if not found or len(set(found)) != 1:
        raise ScriptError(f"{BUILD}: no BUILD_VERSION of the known shape")
    if re.search(rf"^\s*(?:-\s+)?id:\s*{found[0]}\s*$", workflow, re.MULTILINE):
        raise ScriptError(f"{BUILD}: a step of the job has id {found[0]}: the wheel is labelled")
    return ""


def check_setup(setup: str) -> None:
    """setup.py turns HIP_ARCHITECTURES into the hipcc targets (refuse another mechanism)."""
    for needed in (_SETUP_ARCH, _SETUP_FLAG):
        if needed not in setup:
            raise ScriptError(f"{SETUP}: no {needed!r}")


def matrix(workflow: str) -> dict[str, Any]:
    """wheels.yml's ROCm builds: the versions, the torch version, the uploaded suffixes."""
    rocm = _ROCM_VERSIONS.findall(workflow)
    torch = _TORCH.findall(workflow)
    if len(rocm) != 1 or len(torch) != 1:
        raise ScriptError(f"{MATRIX}: no single ROCM_VERSIONS / torch_version list")
    lines = [line for line in workflow.splitlines() if not line.lstrip().startswith("#")]
    start = next((i for i, line in enumerate(lines) if line.startswith("  upload_pt")), None)
    if start is None:
        raise ScriptError(f"{MATRIX}: no upload_pt job")
    uploaded = sorted(
        {m[1] or m[2] for line in lines[start:] for m in _UPLOAD.finditer(line)}, key=str
    )
    return {"rocm": _strings(rocm[0]), "torch": _strings(torch[0]), "uploaded": uploaded}


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(mirror), *args], capture_output=True, text=True, check=True
    ).stdout


def read_tag(mirror: Path, commit: str) -> dict[str, Any]:
    """One release as read at its tag's commit."""
    texts = {path: _git(mirror, "show", f"{commit}:{path}") for path in (BUILD, MATRIX, SETUP)}
    check_setup(texts[SETUP])
    return {
        "commit": commit,
        "files": {path: hashlib.sha256(text.encode()).hexdigest() for path, text in texts.items()},
        "targets": hip_architectures(texts[BUILD]),
        "local_label": local_label(texts[BUILD]),
        **matrix(texts[MATRIX]),
    }


def _key(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", release))


def release_tags(mirror: Path) -> dict[str, str]:
    """release -> tag for every release tag from FIRST on."""
    tags = _git(mirror, "tag", "--list", "v*").split()
    found = {m[1]: tag for tag in tags if (m := _TAG.match(tag))}
    return {r: found[r] for r in sorted(found, key=_key) if _key(r) >= _key(FIRST)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--xformers-git", type=Path, help="a git mirror of " + REPO)
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the committed table is not what it writes"
    )
    args = parser.parse_args()
    recorded: dict[str, Any] = json.loads(INPUT.read_text()) if INPUT.is_file() else {}
    if args.refresh:
        if args.xformers_git is None:
            raise SystemExit("--refresh needs --xformers-git DIR")
        mirror = args.xformers_git
        recorded = {
            "about": f"HIP_ARCHITECTURES and the ROCm build matrix of {REPO}'s release tags",
            "repo": REPO,
            "releases": {
                release: {
                    "tag": tag,
                    **read_tag(mirror, _git(mirror, "rev-parse", f"{tag}^{{commit}}").strip()),
                }
                for release, tag in release_tags(mirror).items()
            },
        }
        INPUT.write_text(json.dumps(recorded, indent=1) + "\n")
    releases: dict[str, Any] = recorded["releases"]
    if args.xformers_git is not None:
        sample = random.Random(json.dumps(releases, sort_keys=True)).sample(
            sorted(releases), min(4, len(releases))
        )
        for name in sample:
            row = releases[name]
            again = read_tag(args.xformers_git, row["commit"])
            if again != {k: v for k, v in row.items() if k != "tag"}:
                raise SystemExit(f"xformers {name}: the recorded row differs from {row['commit']}")
        print(f"re-read {len(sample)} tags of {REPO}: {', '.join(sample)} agree")
    table = {
        "about": (
            "GPU targets (HIP_ARCHITECTURES of .github/workflows/wheels_build.yml, setup.py's "
            "--offload-arch list) of xFormers' ROCm wheels per release and the ROCm versions "
            "they were built for (wheels.yml ROCM_VERSIONS, served from "
            "download.pytorch.org/whl/rocmA.B; the wheels' versions carry no local label: "
            "local_label ''); generated by "
            "scripts/gen_xformers_rocm_arch.py from scripts/inputs/xformers-rocm-arch.json. "
            f"Releases before {FIRST} had no ROCm wheels from xFormers' CI."
        ),
        "first": FIRST,
        "releases": {
            name: {
                "rocm": row["rocm"],
                "targets": row["targets"],
                "local_label": row["local_label"],
                "torch": row["torch"],
                "uploaded": row["uploaded"],
                "source": (
                    f"{REPO} {BUILD} HIP_ARCHITECTURES @ {row['tag']} ({row['commit'][:12]}), "
                    f"ROCm versions from {MATRIX}"
                ),
            }
            for name, row in releases.items()
        },
    }
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    return write_or_check(OUTPUT, text, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
