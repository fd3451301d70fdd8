"""CUDA fat binaries: the architectures of the device code an ELF file carries, read from the
containers' and entries' headers only, never from the payloads (docs/fatbin.md: the layout, its
public sources and the fields relied on).

A `.nv_fatbin` (or `__nv_relfatbin`) section holds fat-binary containers back to back, each a
16-byte header and its entries; each entry is a header (64 bytes or more) followed by its
payload (a cubin, PTX text, either possibly compressed). Entries are walked by their own
header and payload sizes, so no payload byte is read."""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass

Buffer = bytes | mmap.mmap

MAGIC = 0xBA55ED50
MAGIC_BYTES = struct.pack("<I", MAGIC)
CONTAINER_HEADER = struct.Struct("<IHHQ")  # magic, version, header size, size of the entries
ENTRY_HEADER = struct.Struct("<HHIQ")  # kind, version, header size, payload size (padded)
ENTRY_ARCH = struct.Struct("<I")  # at ENTRY_ARCH_AT: the SM number (80, 90, 100, 120)
ENTRY_FLAGS = struct.Struct("<Q")  # at ENTRY_FLAGS_AT
ENTRY_ARCH_AT = 28
ENTRY_FLAGS_AT = 40
ENTRY_MIN = 64  # the smallest entry header any toolkit writes (64, 80, 96, 112 are seen)
KIND_PTX = 1
KIND_ELF = 2
FLAG_ARCH_SPECIFIC = 0x10_0000  # sm_90a, sm_100a: `a`
FLAG_FAMILY = 0x20_0000  # sm_100f, sm_120f: `f`
# Padding between two containers (alignment) is a few bytes; more is not a fat binary.
MAX_GAP = 4096


class FatbinError(ValueError):
    """The section is not a well-formed sequence of fat-binary containers (one line)."""


@dataclass(frozen=True)
class Fatbin:
    sass: tuple[str, ...]  # sorted unique, e.g. ("sm_70", "sm_80", "sm_90a")
    ptx: tuple[str, ...]  # sorted unique, e.g. ("compute_50",)
    entries: int  # how many entries were read


def arch_key(name: str) -> tuple[int, str]:
    """Sort key of `sm_90a` / `compute_100f`: by number, then suffix (sm_100 before sm_100a)."""
    digits = name.rpartition("_")[2]
    number = "".join(c for c in digits if c.isdigit())
    return (int(number) if number else 0, digits[len(number) :])


def _suffix(flags: int) -> str:
    if flags & FLAG_ARCH_SPECIFIC:
        return "a"
    if flags & FLAG_FAMILY:
        return "f"
    return ""


def read_fatbin(data: Buffer, start: int = 0, end: int | None = None) -> Fatbin:
    """The architectures in `data[start:end]`, the bytes of one fat-binary section (an mmap
    reads only the header pages: no payload byte is touched). Raises FatbinError."""
    stop_all = len(data) if end is None else end
    sass: set[str] = set()
    ptx: set[str] = set()
    entries = 0
    pos = start
    while stop_all - pos >= CONTAINER_HEADER.size:
        if data[pos : pos + 4] != MAGIC_BYTES:
            window = bytes(data[pos : min(stop_all, pos + MAX_GAP + 4)])
            found = window.find(MAGIC_BYTES)
            gap = window[:found] if found >= 0 else window[:MAX_GAP]
            if gap.count(0) != len(gap) or (found < 0 and stop_all - pos > MAX_GAP):
                raise FatbinError(f"no fat-binary header at section offset {pos - start}")
            if found < 0:
                break
            pos += found
            if stop_all - pos < CONTAINER_HEADER.size:
                break
        _magic, version, header_size, size = CONTAINER_HEADER.unpack_from(data, pos)
        if version != 1 or header_size < CONTAINER_HEADER.size:
            raise FatbinError(
                f"fat-binary container at section offset {pos - start}: version {version}, "
                f"header {header_size}"
            )
        first = pos + header_size
        stop = first + size
        if stop > stop_all:
            raise FatbinError(
                f"fat-binary container at section offset {pos - start} claims {size} bytes, "
                "past the section end"
            )
        entry = first
        while entry < stop:
            if stop - entry < ENTRY_MIN:
                raise FatbinError(
                    f"fat-binary entry at section offset {entry - start} is cut short"
                )
            kind, _version, entry_size, payload = ENTRY_HEADER.unpack_from(data, entry)
            if entry_size < ENTRY_MIN or entry + entry_size + payload > stop:
                raise FatbinError(
                    f"fat-binary entry at section offset {entry - start}: header {entry_size} "
                    f"and payload {payload} bytes overrun the container"
                )
            (arch,) = ENTRY_ARCH.unpack_from(data, entry + ENTRY_ARCH_AT)
            (flags,) = ENTRY_FLAGS.unpack_from(data, entry + ENTRY_FLAGS_AT)
            if kind == KIND_ELF:
                sass.add(f"sm_{arch}{_suffix(flags)}")
            elif kind == KIND_PTX:
                ptx.add(f"compute_{arch}{_suffix(flags)}")
            entries += 1
            entry += entry_size + payload
        pos = stop
    return Fatbin(
        sass=tuple(sorted(sass, key=arch_key)),
        ptx=tuple(sorted(ptx, key=arch_key)),
        entries=entries,
    )
