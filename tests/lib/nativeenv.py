"""Distributions that install native files, written as pip writes them: a dist-info whose RECORD
lists each file, and the files at their RECORD paths (ELF files from tests/lib/elfbuild, or the
real-wheel skeletons of tests/data/native)."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.dists import make_dist
from tests.lib.elfbuild import FatEntry, Symbol, build, fatbin_container


def native_dist(
    site: Path,
    name: str,
    version: str,
    files: Mapping[str, bytes],
    *,
    requires: Sequence[str] = (),
) -> Path:
    """`name` `version` installing `files` (relpath -> bytes) under `site`."""
    dist = make_dist(site, name, version, requires=requires)
    lines = [f"{dist.name}/METADATA,,"]
    for relpath, data in files.items():
        target = site / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{relpath},sha256={digest},{len(data)}")
    (dist / "RECORD").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return dist


def library(
    *,
    soname: str | None = None,
    needed: Sequence[str] = (),
    defines: Sequence[str] = (),
    undefined: Sequence[str] = (),
    sass: Sequence[int] = (),
    ptx: Sequence[int] = (),
    empty_fatbin: bool = False,
    rodata: bytes | None = None,
) -> bytes:
    """An ELF shared object: exports `defines`, imports `undefined`, and carries a fat binary
    with SASS for `sass` and PTX for `ptx` (architectures as numbers: 80 is sm_80), and a
    `.rodata` section holding `rodata` (where torch's CUDA library keeps its nvcc flags)."""
    symbols = tuple(Symbol(s) for s in defines) + tuple(Symbol(s, defined=False) for s in undefined)
    entries = [FatEntry(2, arch) for arch in sass] + [FatEntry(1, arch) for arch in ptx]
    sections: dict[str, bytes] | None = None
    if rodata is not None:
        sections = {".rodata": rodata}
    if entries or empty_fatbin:
        sections = {**(sections or {}), ".nv_fatbin": fatbin_container(entries) if entries else b""}
    return build(soname=soname, needed=tuple(needed), symbols=symbols, sections=sections).data


# Real mangled names: c10::detail::torchCheckFail with the C++11 ABI's std::string (what torch
# 2.7+ exports) and with the old ABI's (what an extension built for torch <= 2.6 imports), and
# at::Tensor's dim().
CHECK_FAIL_CXX11 = (
    "_ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
)
CHECK_FAIL_OLD = "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs"
TENSOR_DIM = "_ZNK2at10TensorBase3dimEv"
