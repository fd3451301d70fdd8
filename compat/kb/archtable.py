"""Which GPUs a torch build has kernels for, from data generated out of PyTorch's build scripts.

`compat/data/torch-arch.json` (written by `scripts/gen_arch_table.py`) lists, per torch release
and CUDA build, the SASS architectures (machine code) and PTX architectures (driver-compiled)
TORCH_CUDA_ARCH_LIST put into the wheel. The table is read only when a rule asks (a GPU is
visible and torch is installed), never at start-up.

How a GPU of compute capability M.m runs code (CUDA C++ Programming Guide, "Binary
Compatibility" and "PTX Compatibility"):
* SASS built for M.n runs when the major is the same and m >= n (sm_80 code runs on an sm_86 A10,
  sm_86 code on an sm_89 L4); an arch-specific `a` build (9.0a) runs on M.n only;
* PTX built for M'.n' is JIT-compiled by the driver for any capability >= M'.n', provided the
  driver is at least as new as the toolkit that produced the PTX.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from packaging.version import Version

from compat.kb.releasetable import ReleaseTable
from compat.versions import release_key


class ArchList(NamedTuple):
    sass: tuple[str, ...]
    ptx: tuple[str, ...]

    def describe(self) -> str:
        text = "SASS " + ", ".join(f"sm_{a.replace('.', '')}" for a in self.sass)
        if self.ptx:
            text += "; PTX " + ", ".join(f"compute_{a.replace('.', '')}" for a in self.ptx)
        return text


class Build(NamedTuple):
    release: Version
    cuda: Version


@cache
def _table() -> ReleaseTable[Mapping[str, Any]]:
    text = resources.files("compat").joinpath("data/torch-arch.json").read_text("utf-8")
    releases: Mapping[str, Mapping[str, Any]] = json.loads(text)["releases"]
    return ReleaseTable(releases)


def release_of(torch_version: Version) -> Version | None:
    """The public release a wheel's version denotes, or None for builds the table cannot speak
    for: pre-releases, dev and source builds (`2.5.0a0+872d972`, NGC's `2.5.0a0+...nv24.08`)
    and local labels other than a CUDA index's (`+cu126`) carry their own arch lists."""
    if torch_version.is_prerelease or torch_version.is_devrelease:
        return None
    local = torch_version.local or ""
    if local and not (local.startswith("cu") and local[2:].isdigit()):
        return None
    return Version(Version(torch_version.public).base_version)


def arch_list(release: Version, cuda: Version) -> ArchList | None:
    """What the `cuda` build of `release` carries, or None when the table does not know it."""
    entry = _table().get(release)
    if entry is None:
        return None
    major, minor = (*cuda.release, 0)[:2]
    build = entry["builds"].get(f"{major}.{minor}")
    if build is None:
        return None
    return ArchList(tuple(build["sass"]), tuple(build["ptx"]))


def evidence(release: Version, cuda: Version) -> str | None:
    """How a row was read: `wheel` (the nvcc flags inside the PyPI wheel, checked against its fat
    binaries), `build-script` (the
    build script at the release branch), `support-matrix`, `build-script-snapshot`, `secondary`."""
    entry = _table().get(release)
    if entry is None:
        return None
    major, minor = (*cuda.release, 0)[:2]
    found = entry["evidence"].get(f"{major}.{minor}")
    return None if found is None else str(found)


def _capability(arch: str) -> tuple[int, int]:
    major, minor = arch.rstrip("af").split(".")
    return int(major), int(minor)


def runs(
    arches: ArchList, capability: Version, build_cuda: Version, driver_cuda: Version | None
) -> bool | None:
    """Whether a GPU of `capability` finds code in the build: True, False, or None when only PTX
    could serve it and the driver's CUDA version is unknown."""
    major, minor = (*capability.release, 0)[:2]
    for arch in arches.sass:
        arch_major, arch_minor = _capability(arch)
        exact_only = arch.endswith("a")
        if arch_major == major and (arch_minor == minor or (not exact_only and minor > arch_minor)):
            return True
    if any(_ptx_serves(arch, (major, minor)) for arch in arches.ptx):
        if driver_cuda is None:
            return None
        return driver_cuda >= build_cuda  # an older driver cannot JIT a newer toolkit's PTX
    return False


def _ptx_serves(arch: str, gpu: tuple[int, int]) -> bool:
    """PTX ISA 11.1.2: plain PTX JIT-compiles for its capability and every later one; `f` PTX
    only within its family (same major, equal or higher minor); `a` PTX only on its own."""
    here = _capability(arch)
    if arch.endswith("a"):
        return here == gpu
    if arch.endswith("f"):
        return here[0] == gpu[0] and here[1] <= gpu[1]
    return here <= gpu


def releases() -> tuple[Version, ...]:
    return _table().releases()


def builds_of(release: Version) -> tuple[Version, ...]:
    entry = _table().get(release)
    return tuple(sorted(Version(c) for c in entry["builds"])) if entry else ()


def fixing_builds(
    release: Version, capabilities: Sequence[Version], driver_cuda: Version | None
) -> tuple[Build, ...]:
    """Builds that run on every capability, nearest release first: the same release's other CUDA
    builds when one serves, else the nearest releases that have one (newer first on a tie).

    A build the driver cannot run at all (a CUDA major newer than the driver's) is skipped when
    the driver is known: the fix must not trade a missing kernel for a driver too old."""

    def serves(build: Build) -> bool:
        if driver_cuda is not None and build.cuda.major > driver_cuda.major:
            return False
        arches = arch_list(build.release, build.cuda)
        return arches is not None and all(
            runs(arches, cc, build.cuda, driver_cuda) for cc in capabilities
        )

    ordered = releases()
    if release not in _table():
        return ()
    here = ordered.index(release_key(release))
    by_distance = sorted(range(len(ordered)), key=lambda i: (abs(i - here), i < here))
    for position in by_distance:
        candidate = ordered[position]
        found = tuple(b for c in builds_of(candidate) if serves(b := Build(candidate, c)))
        if found:
            return found
    return ()


def row_count() -> int:
    """Distinct (release series, CUDA build) rows the table decides: how `compat matrix list`
    counts the rule that reads it (one per build, as one hand-written rule per build would)."""
    return len(
        {
            ((version.major, version.minor), cuda)
            for version, entry in _table().items()
            for cuda in entry["builds"]
        }
    )


# conda-forge's pytorch (compat/data/conda-forge-torch-arch.json, scripts/gen_conda_forge_arch.py
# from conda-forge/pytorch-cpu-feedstock's recipe): its own TORCH_CUDA_ARCH_LIST per CUDA build.


@cache
def _forge_table() -> Mapping[str, Any]:
    text = resources.files("compat").joinpath("data/conda-forge-torch-arch.json").read_text("utf-8")
    releases: Mapping[str, Any] = json.loads(text)["releases"]
    return {str(Version(v)): entry for v, entry in releases.items()}


def forge_releases() -> tuple[Version, ...]:
    """The releases conda-forge built CUDA variants of `pytorch` for (linux-64)."""
    return tuple(sorted(Version(v) for v in _forge_table()))


def forge_builds(release: Version) -> tuple[Version, ...]:
    entry = _forge_table().get(str(release))
    return tuple(sorted(Version(c) for c in entry["builds"])) if entry else ()


def forge_arch_lists(release: Version, cuda: Version) -> tuple[ArchList, ...] | None:
    """Every arch list conda-forge's `cuda` build of `release` was built with (one per change of
    the recipe across the release's builds), or None when the table does not know it."""
    entry = _forge_table().get(str(Version(Version(release.public).base_version)))
    if entry is None:
        return None
    major, minor = (*cuda.release, 0)[:2]
    variants = entry["builds"].get(f"{major}.{minor}")
    if not variants:
        return None
    return tuple(ArchList(tuple(v["sass"]), tuple(v["ptx"])) for v in variants)
