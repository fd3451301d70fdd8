"""The HIP fat-binary wrappers in `.hipFatBinSegment` (issue 43): a `HIPK` magic, which TheRock's
kpack transform writes when it moves the device code into `.kpack` archives and zero-pages
`.hip_fatbin` (ROCm/rocm-kpack, python/rocm_kpack/elf/kpack_transform.py), makes the file's device
code "in kpack archives", whatever is left in `.hip_fatbin`; a `HIPF` wrapper changes nothing."""

from __future__ import annotations

import struct
from pathlib import Path

from compat.binary.elf import read_elf
from tests.lib.elfbuild import build
from tests.lib.hipbuild import aligned, bundle

HIPF, HIPK = 0x48495046, 0x4B504948


def wrappers(*magics: int) -> bytes:
    """`__CudaFatBinaryWrapper`s: magic, version 1, the bundle's address (relocated), unused."""
    return b"".join(struct.pack("<IIQQ", m, 1, 0, 0) for m in magics)


def leftover(targets: list[str]) -> bytes:
    """What the kpack transform leaves of a `.hip_fatbin`: the whole pages zeroed, the first
    (partial) page, with the first bundle's header in it, kept."""
    section = aligned(bundle(targets), bundle(["gfx1100"]))
    return section[:4096] + b"\0" * (len(section) - 4096)


def _elf(tmp_path: Path, sections: dict[str, bytes]) -> str:
    path = tmp_path / "lib.so"
    path.write_bytes(build(soname="lib.so", sections=sections).data)
    return str(path)


def test_hipk_wrapper_means_the_device_code_is_in_kpack_archives(tmp_path: Path) -> None:
    sections = {".hipFatBinSegment": wrappers(HIPK, HIPK), ".hip_fatbin": leftover(["gfx90a"])}
    hip = read_elf(_elf(tmp_path, sections)).hip
    assert hip is not None
    assert hip.kpack and hip.targets == () and hip.bundles == 0


def test_hipf_wrapper_reads_the_bundles(tmp_path: Path) -> None:
    section = aligned(bundle(["gfx90a"]), bundle(["gfx1100"]))
    sections = {".hipFatBinSegment": wrappers(HIPF), ".hip_fatbin": section}
    hip = read_elf(_elf(tmp_path, sections)).hip
    assert hip is not None and not hip.kpack and hip.targets == ("gfx90a", "gfx1100")


def test_a_wrapper_segment_cut_mid_wrapper_is_read_to_its_last_whole_one(tmp_path: Path) -> None:
    for segment in (wrappers(HIPF, HIPK)[:40], b"HIP", wrappers(HIPF)[:23]):
        hip = read_elf(_elf(tmp_path, {".hipFatBinSegment": segment})).hip
        assert hip is None or hip.targets == ()
