#!/usr/bin/env python3
"""Regenerate compat/data/conda-forge-torch-arch.json: the GPU code conda-forge's pytorch carries.

conda-forge builds `pytorch` from its own recipe (conda-forge/pytorch-cpu-feedstock), not from
PyTorch's wheel build scripts: `recipe/build.sh` sets TORCH_CUDA_ARCH_LIST per CUDA compiler
version, and `.ci_support/linux_64_*.yaml` (one file per variant conda-smithy renders) says which
CUDA versions a commit builds for linux-64. Its lists differ from the PyPI wheels' of the same
release: the CUDA 12.8/12.9 builds keep sm_50 and sm_60 (`5.0;6.0;7.0;...;12.0+PTX`) where
PyTorch's cu128/cu129 wheels start at sm_70 or sm_75.

Recorded input: scripts/inputs/conda-forge-pytorch.json. For each release branch of the feedstock
(v2.4.x ... and main), every first-parent commit (what CI built and uploaded from that branch)
that touched the recipe: its version and build number (recipe/meta.yaml), the linux-64 CUDA
compiler versions its .ci_support files render for the main label (release candidates, the
`pytorch_rc` label, are left out), and TORCH_CUDA_ARCH_LIST evaluated for each of them by bash
itself over the selection block of recipe/build.sh at that commit (target_platform=linux-64, no
tegra variant). A commit whose block bash cannot evaluate is recorded as such and adds nothing.

Output, per release: every (CUDA version -> arch lists) the release was built with across its
builds; a CUDA version built with different lists over time keeps each list (`variants`), and
the reader judges a GPU clear only where every variant runs it.

    python scripts/gen_conda_forge_arch.py                      # from the recorded input, offline
    python scripts/gen_conda_forge_arch.py --refresh --feedstock-git DIR   # re-read the feedstock

The mirror DIR is a bare clone of https://github.com/conda-forge/pytorch-cpu-feedstock.
What the script cannot see: conda-forge's repodata (conda.anaconda.org is not reachable from the
machine that wrote the input), so a build CI rendered but failed to upload, or one later marked
broken, is still listed; such a build only widens the candidates (a verdict that becomes
`possible`, never a false `affected`).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "conda-forge-pytorch.json"
OUTPUT = ROOT / "compat" / "data" / "conda-forge-torch-arch.json"
REPOSITORY = "https://github.com/conda-forge/pytorch-cpu-feedstock"
BRANCHES = (
    "v2.4.x", "v2.5.x", "v2.6.x", "v2.7.x", "v2.8.x", "v2.9.x", "v2.10.x", "v2.11.x",
    "v2.12.x", "main",
)  # fmt: skip

_VERSION = re.compile(r'{%\s*set\s+version\s*=\s*"([^"]+)"\s*%}')
_BUILD = re.compile(r"{%\s*set\s+build\s*=\s*(\d+)\s*%}")
_CUDA = re.compile(r"cuda_compiler_version(\d+\.\d+|None)")
_ASSIGN = re.compile(r'TORCH_CUDA_ARCH_LIST="([^"]+)"')
_OPENER = re.compile(r"^(\s*)(if\s+\[\[|case\s)")


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(directory), *args], check=True, capture_output=True, text=True
    ).stdout


def selection_block(script: str) -> str | None:
    """The `if`/`case` block of build.sh that picks TORCH_CUDA_ARCH_LIST by CUDA version (the
    outermost one around the first non-empty assignment), or None."""
    lines = script.splitlines()
    first = next((i for i, line in enumerate(lines) if _ASSIGN.search(line)), None)
    if first is None:
        return None
    start, indent = None, len(lines[first]) - len(lines[first].lstrip())
    for i in range(first - 1, -1, -1):
        opener = _OPENER.match(lines[i])
        if opener is None or len(opener.group(1)) >= indent:
            continue
        if "cuda_compiler_version" not in lines[i] and "arm_variant_type" not in lines[i]:
            break
        start, indent = i, len(opener.group(1))
    if start is None:
        return None
    closer = "fi" if lines[start].lstrip().startswith("if") else "esac"
    for j in range(start + 1, len(lines)):
        if lines[j].strip() == closer and len(lines[j]) - len(lines[j].lstrip()) == indent:
            return "\n".join(lines[start : j + 1])
    return None


def evaluate(block: str, cuda: str) -> str | None:
    """TORCH_CUDA_ARCH_LIST the block sets for `cuda` on linux-64, run by bash; None when the
    block refuses that CUDA version (its `exit 1` branch)."""
    program = (
        f'cuda_compiler_version="{cuda}"; target_platform="linux-64"; arm_variant_type="None"\n'
        f'TORCH_CUDA_ARCH_LIST=""\n{block}\nprintf "%s" "$TORCH_CUDA_ARCH_LIST"\n'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 and done.stdout else None


def read_feedstock(directory: Path) -> dict[str, Any]:
    commits: dict[str, dict[str, Any]] = {}
    for branch in BRANCHES:
        tip = _git(directory, "rev-parse", branch).strip()
        for line in _git(
            directory, "log", "--first-parent", "--format=%H %cs", tip, "--",
            "recipe/meta.yaml", "recipe/build.sh", ".ci_support",
        ).splitlines():  # fmt: skip
            sha, date = line.split()
            if sha in commits:
                continue
            try:
                meta = _git(directory, "show", f"{sha}:recipe/meta.yaml")
                script = _git(directory, "show", f"{sha}:recipe/build.sh")
            except subprocess.CalledProcessError:
                continue
            version, build = _VERSION.search(meta), _BUILD.search(meta)
            if version is None or "rc" in version.group(1):
                continue
            files = _git(directory, "ls-tree", "--name-only", sha, ".ci_support/").split()
            cudas = sorted(
                {
                    found.group(1)
                    for name in files
                    if name.startswith(".ci_support/linux_64_")
                    and "pytorch_rc" not in name
                    and (found := _CUDA.search(name)) is not None
                    and found.group(1) != "None"
                },
                key=lambda c: tuple(int(p) for p in c.split(".")),
            )
            block = selection_block(script)
            lists = {c: (evaluate(block, c) if block else None) for c in cudas}
            commits[sha] = {
                "branch": branch,
                "date": date,
                "version": version.group(1),
                "build": int(build.group(1)) if build else None,
                "arch_lists": lists,
            }
    ordered = sorted(commits.items(), key=lambda item: (item[1]["date"], item[0]))
    return {
        "repository": REPOSITORY,
        "read": "recipe/meta.yaml (version, build), .ci_support/linux_64_*.yaml (CUDA versions), "
        "recipe/build.sh (TORCH_CUDA_ARCH_LIST, evaluated by bash) at each first-parent commit",
        "commits": [{"commit": sha, **entry} for sha, entry in ordered],
    }


def _arches(text: str) -> dict[str, list[str]]:
    sass, ptx = [], []
    for part in text.replace(" ", ";").split(";"):
        if not part:
            continue
        arch = part.removesuffix("+PTX")
        sass.append(arch)
        if part.endswith("+PTX"):
            ptx.append(arch)
    return {"sass": sass, "ptx": ptx}


def build_table(recorded: dict[str, Any]) -> dict[str, Any]:
    releases: dict[str, dict[str, Any]] = {}
    for entry in recorded["commits"]:
        release = releases.setdefault(entry["version"], {"builds": {}, "commits": []})
        added = False
        for cuda, text in entry["arch_lists"].items():
            if text is None:
                continue
            variants = release["builds"].setdefault(cuda, [])
            arches = _arches(text)
            if arches not in variants:
                variants.append(arches)
            added = True
        if added:
            release["commits"].append(entry["commit"])
    ordered = sorted(releases, key=lambda v: tuple(int(p) for p in re.findall(r"\d+", v)))
    return {
        "schema": "compat.conda-forge-torch-arch/1",
        "generated_by": "scripts/gen_conda_forge_arch.py",
        "source": {
            "repository": recorded["repository"],
            "input": "scripts/inputs/conda-forge-pytorch.json",
            "read": recorded["read"],
        },
        "releases": {
            v: {
                "builds": releases[v]["builds"],
                "commits": [c[:12] for c in releases[v]["commits"]],
            }
            for v in ordered
            if releases[v]["builds"]
        },
    }


def render(table: dict[str, Any]) -> str:
    return json.dumps(table, indent=1, sort_keys=False) + "\n"


VERIFY_ROWS = 8  # recorded commits re-read


def verify(directory: Path, path: Path = INPUT, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the recorded commits from the feedstock by a second route:
    each recorded TORCH_CUDA_ARCH_LIST must be one of the literal assignments of build.sh at
    that commit (the input evaluated the selection block with bash), with the version in
    meta.yaml and the linux-64 CUDA versions of .ci_support as recorded. Raises
    tablegen.SampleDisagrees on the first commit that differs."""
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import resample

    record = json.loads(path.read_text(encoding="utf-8"))
    rows = [entry for entry in record["commits"] if any(entry["arch_lists"].values())]

    def reread(entry: dict[str, Any]) -> tuple[str, Any, Any]:
        sha = entry["commit"]
        meta = _git(directory, "show", f"{sha}:recipe/meta.yaml")
        literals = set(_ASSIGN.findall(_git(directory, "show", f"{sha}:recipe/build.sh")))
        files = _git(directory, "ls-tree", "--name-only", sha, ".ci_support/").split()
        cudas = {
            found.group(1)
            for name in files
            if name.startswith(".ci_support/linux_64_")
            and "pytorch_rc" not in name
            and (found := _CUDA.search(name)) is not None
            and found.group(1) != "None"
        }
        version = _VERSION.search(meta)
        lists = sorted(text for text in entry["arch_lists"].values() if text)
        recorded = (entry["version"], sorted(entry["arch_lists"]), lists)
        read = (
            version.group(1) if version else None,
            sorted(cudas),
            [text for text in lists if text in literals],
        )
        return f"{entry['version']} at {sha[:12]}", recorded, read

    return resample(str(path), rows, reread, count=count, seed=str(len(record["commits"])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument("--feedstock-git", type=Path)
    parser.add_argument("--check", action="store_true", help="fail when the output differs")
    parser.add_argument(
        "--verify",
        nargs="?",
        const=INPUT,
        type=Path,
        metavar="INPUT",
        help="with --feedstock-git: re-read a sample of the recorded commits and exit",
    )
    args = parser.parse_args(argv)
    if args.refresh:
        if args.feedstock_git is None:
            parser.error("--refresh needs --feedstock-git DIR")
        INPUT.write_text(json.dumps(read_feedstock(args.feedstock_git), indent=1) + "\n")
    if args.refresh or args.verify is not None:
        if args.feedstock_git is None:
            parser.error("--verify needs --feedstock-git DIR")
        sys.path.insert(0, str(Path(__file__).parent))
        from tablegen import SampleDisagrees

        try:
            print(verify(args.feedstock_git, args.verify or INPUT))
        except SampleDisagrees as error:
            print(f"scripts/gen_conda_forge_arch.py: refused: {error}", file=sys.stderr)
            return 1
        except subprocess.CalledProcessError as error:  # a commit the mirror does not have
            print(f"scripts/gen_conda_forge_arch.py: could not re-read: {error}", file=sys.stderr)
            return 3
        if args.verify is not None:
            return 0
    text = render(build_table(json.loads(INPUT.read_text(encoding="utf-8"))))
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            print(f"{OUTPUT} is out of date: run {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
