#!/usr/bin/env python3
"""Regenerate compat/data/flash-attn-rocm-arch.json: the GPU targets flash-attention's ROCm
(composable_kernel) build accepts, per release.

PyPI's flash-attn is an sdist only: pip runs its setup.py on the user's machine. Under a ROCm
torch (`IS_HIP_EXTENSION`, or BUILD_TARGET=rocm) setup.py takes its ROCm path, which exists
since v2.6.2 (Dao-AILab/flash-attention#1010). What decides the GPU targets at each tag:

* `validate_and_update_archs(archs)`: `allowed_archs = ["native", "gfx90a", ...]` and
  `assert all(arch in allowed_archs ...)`, "One of GPU archs of [...] is invalid or not
  supported by Flash-Attention";
* `archs = os.getenv("GPU_ARCHS", "native").split(";")` is the one list it validates: the
  literal "native" passes, and the GPU's own target (hipcc's native, or from v2.7.0
  torch.cuda.get_device_properties(...).gcnArchName) is then passed to hipcc unchecked
  (`native_checked: false`). Only main after Dao-AILab/flash-attention#2400 (5301a359,
  in no release tag) validates the detected target too;
* from v2.7.1 `FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE` sets SKIP_CK_BUILD: no CK kernels are
  built and validate_and_update_archs is not called (its Triton backend, flash_attn_triton_amd,
  is chosen at build time by an environment variable: `triton_env`);
* `.github/workflows/publish.yml` builds the GitHub release wheels that setup.py's
  CachedWheelsCommand tries first: a CUDA matrix only at every tag (`publish_rocm: false`), so
  a ROCm torch always builds from source (the `+rocm` wheel name it guesses is never uploaded).

The recorded input is scripts/inputs/flash-attn-rocm-arch.json: per tag the commit, each file's
sha256 and what was read; PyPI releases without a tag (2.8.3.post2) are read from the sdist,
recorded by its sha256. `--flash-attn-git DIR --refresh` reads every v2 tag and rewrites the
tags' rows; every run with `--flash-attn-git` re-reads a sample of the recorded tags at their
commits (and `--flash-attn-sdist FILE` the sdist rows of that file) and fails when one differs.
Without them the script is offline and deterministic: tests/unit/kb/test_flash_attn_rocm_arch.py
fails when the committed JSON differs.

Usage: python scripts/gen_flash_attn_rocm_arch.py [--flash-attn-git DIR [--refresh]]
       [--flash-attn-sdist FILE ...] [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tarfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_xformers_rocm_arch import ScriptError, _git, _key
from tablegen import write_or_check  # a sibling script, not a package

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "flash-attn-rocm-arch.json"
OUTPUT = ROOT / "compat" / "data" / "flash-attn-rocm-arch.json"
REPO = "Dao-AILab/flash-attention"
SETUP = "setup.py"
PUBLISH = ".github/workflows/publish.yml"

_TAG = re.compile(r"^v(2\.\d+\.\d+(?:\.post\d+)?)$")
_ALLOWED = re.compile(r"^\s*allowed_archs\s*=\s*\[([^\]]*)\]\s*$", re.MULTILINE)
_ARCHS = 'archs = os.getenv("GPU_ARCHS", "native").split(";")'
_VALIDATE = re.compile(r"^\s*validate_and_update_archs\((\w+)\)\s*$", re.MULTILINE)
_ASSERT = "arch in allowed_archs for arch in archs"
_TRITON = 'USE_TRITON_ROCM = os.getenv("FLASH_ATTENTION_TRITON_AMD_ENABLE", "FALSE") == "TRUE"'
_SKIP_CK = (
    'SKIP_CK_BUILD = os.getenv("FLASH_ATTENTION_SKIP_CK_BUILD", "TRUE") == "TRUE" '
    "if USE_TRITON_ROCM else False"
)
_TARGET = re.compile(r"gfx[0-9a-f]+")


def read_setup(setup: str) -> dict[str, Any]:
    """What one setup.py says of its ROCm build; `rocm: false` where it has no ROCm path."""
    if "IS_HIP_EXTENSION" not in setup:
        if "allowed_archs" in setup or "TRITON_AMD" in setup:
            raise ScriptError("ROCm words without IS_HIP_EXTENSION: an unknown shape")
        return {"rocm": False}
    allowed = _ALLOWED.findall(setup)
    calls = _VALIDATE.findall(setup)
    if len(allowed) != 1 or _ASSERT not in setup or setup.count(_ARCHS) != 1:
        raise ScriptError(f"{SETUP}: no single allowed_archs / GPU_ARCHS of the known shape")
    if calls != ["archs"]:
        # main after #2400 validates the detected target as well (a second call): not a shape
        # any release tag has; refused rather than recorded as unchecked
        raise ScriptError(f"{SETUP}: validate_and_update_archs called as {calls}")
    targets = [v.strip().strip("\"'") for v in allowed[0].split(",") if v.strip()]
    if "native" not in targets or not all(t == "native" or _TARGET.fullmatch(t) for t in targets):
        raise ScriptError(f"{SETUP}: allowed_archs {allowed[0]!r} is not a target list")
    triton = _TRITON in setup
    if "FLASH_ATTENTION_TRITON_AMD_ENABLE" in setup and not triton:
        raise ScriptError(f"{SETUP}: FLASH_ATTENTION_TRITON_AMD_ENABLE in an unknown shape")
    # v2.7.1-v2.7.4: `if USE_TRITON_ROCM: pass` before the CK build; from v2.8.0 SKIP_CK_BUILD
    skips = "if USE_TRITON_ROCM:" in setup or (
        _SKIP_CK in setup and "if not SKIP_CK_BUILD:" in setup
    )
    if triton and not skips:
        raise ScriptError(f"{SETUP}: the CK build is not skipped under the Triton backend")
    return {
        "rocm": True,
        "allowed": [t for t in targets if t != "native"],
        "native_checked": False,
        "triton_env": triton,
    }


def publishes_rocm(workflow: str) -> bool:
    """Whether the release workflow builds a ROCm wheel (it names ROCm or HIP anywhere)."""
    return bool(re.search(r"rocm|hip", workflow, re.IGNORECASE))


def read_tag(mirror: Path, commit: str) -> dict[str, Any]:
    """One release as read at its tag's commit."""
    texts = {path: _git(mirror, "show", f"{commit}:{path}") for path in (SETUP, PUBLISH)}
    return {
        "commit": commit,
        "files": {path: hashlib.sha256(text.encode()).hexdigest() for path, text in texts.items()},
        **read_setup(texts[SETUP]),
        "publish_rocm": publishes_rocm(texts[PUBLISH]),
    }


def read_sdist(path: Path, release: str) -> dict[str, Any]:
    """A PyPI release without a tag, read from its sdist's setup.py (an sdist carries no
    workflow: the wheels its CachedWheelsCommand guesses are the release's, recorded as none)."""
    data = path.read_bytes()
    with tarfile.open(path) as archive:
        member = archive.extractfile(f"flash_attn-{release}/{SETUP}")
        if member is None:
            raise ScriptError(f"{path}: no {SETUP}")
        setup = member.read().decode()
    return {
        "sdist": path.name,
        "sdist_sha256": hashlib.sha256(data).hexdigest(),
        "files": {SETUP: hashlib.sha256(setup.encode()).hexdigest()},
        **read_setup(setup),
        "publish_rocm": False,
    }


def release_tags(mirror: Path) -> dict[str, str]:
    """release -> tag for every v2 release tag."""
    tags = _git(mirror, "tag", "--list", "v2*").split()
    found = {m[1]: tag for tag in tags if (m := _TAG.match(tag))}
    return {r: found[r] for r in sorted(found, key=_key)}


def _source(name: str, row: dict[str, Any]) -> str:
    if "tag" in row:
        return f"{REPO} {SETUP} @ {row['tag']} ({row['commit'][:12]})"
    return f"PyPI flash_attn-{name}.tar.gz {SETUP} (sdist sha256 {row['sdist_sha256'][:12]})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flash-attn-git", type=Path, help="a git mirror of " + REPO)
    parser.add_argument("--flash-attn-sdist", type=Path, action="append", default=[])
    parser.add_argument("--refresh", action="store_true")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when the committed table is not what it writes"
    )
    args = parser.parse_args()
    recorded: dict[str, Any] = json.loads(INPUT.read_text()) if INPUT.is_file() else {}
    mirror: Path | None = args.flash_attn_git
    if args.refresh:
        if mirror is None:
            raise SystemExit("--refresh needs --flash-attn-git DIR")
        kept = {n: r for n, r in recorded.get("releases", {}).items() if "sdist" in r}
        tags = {
            release: {
                "tag": tag,
                **read_tag(mirror, _git(mirror, "rev-parse", f"{tag}^{{commit}}").strip()),
            }
            for release, tag in release_tags(mirror).items()
        }
        recorded = {
            "about": f"setup.py's ROCm build of {REPO}'s v2 release tags (and untagged sdists)",
            "repo": REPO,
            "releases": {**tags, **kept},
        }
    releases: dict[str, Any] = recorded["releases"]
    for sdist in args.flash_attn_sdist:
        release = re.sub(r"^flash_attn-|\.tar\.gz$", "", sdist.name)
        row = read_sdist(sdist, release)
        if args.refresh:
            releases[release] = row
        elif releases.get(release) != row:
            raise SystemExit(f"flash-attn {release}: the recorded row differs from {sdist}")
    if args.refresh:
        recorded["releases"] = dict(sorted(releases.items(), key=lambda kv: _key(kv[0])))
        INPUT.write_text(json.dumps(recorded, indent=1) + "\n")
        releases = recorded["releases"]
    if mirror is not None:
        tagged = sorted(n for n, r in releases.items() if "tag" in r and r.get("rocm"))
        sample = random.Random(json.dumps(releases, sort_keys=True)).sample(
            tagged, min(4, len(tagged))
        )
        for name in sample:
            row = releases[name]
            again = read_tag(mirror, row["commit"])
            if again != {k: v for k, v in row.items() if k != "tag"}:
                raise SystemExit(
                    f"flash-attn {name}: the recorded row differs from {row['commit']}"
                )
        print(f"re-read {len(sample)} tags of {REPO}: {', '.join(sample)} agree")
    with_rocm = sorted((n for n, r in releases.items() if r.get("rocm")), key=_key)
    table = {
        "about": (
            "GPU targets flash-attention's ROCm (composable_kernel) build accepts per release: "
            "setup.py's allowed_archs, checked against GPU_ARCHS only (the default 'native' "
            "passes and the GPU's own target is not checked: native_checked false); "
            "triton_env: FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE at build time builds no CK "
            "kernels; publish_rocm: the release workflow builds no ROCm wheel (PyPI has the "
            "sdist only, so a ROCm torch builds from source). Generated by "
            "scripts/gen_flash_attn_rocm_arch.py from scripts/inputs/flash-attn-rocm-arch.json. "
            f"Releases before {with_rocm[0]} have no ROCm path (their CUDA build asks for nvcc)."
        ),
        "first": with_rocm[0],
        "last": max(releases, key=_key),
        "releases": {
            name: {
                "allowed": row["allowed"],
                "native_checked": row["native_checked"],
                "triton_env": row["triton_env"],
                "publish_rocm": row["publish_rocm"],
                "source": _source(name, row),
            }
            for name, row in releases.items()
            if row.get("rocm")
        },
    }
    text = json.dumps(table, indent=1, sort_keys=True) + "\n"
    return write_or_check(OUTPUT, text, check=args.check)


if __name__ == "__main__":
    raise SystemExit(main())
