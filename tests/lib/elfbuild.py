"""Minimal, valid ELF shared objects written byte by byte, for the reader's tests
(compat/binary/): a chosen machine, DT_NEEDED/DT_SONAME/DT_RUNPATH, dynamic symbols
(defined or undefined, GLOBAL or WEAK) with a `.gnu.hash` or SysV `.hash` table, and CUDA
fat-binary sections (`fatbin_container`). `Built.at` names where each structure lies, so a test
can corrupt exactly one field of a valid file.

The files load nowhere (no code, one PT_LOAD mapping the file at address = offset); they carry
exactly the structures a dynamic loader and cuobjdump read, laid out as the ELF gABI, the GNU
hash convention (symbols past `symoffset` in bucket order, a chain ends with an odd hash) and
docs/fatbin.md describe."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

EM_X86_64 = 62
EM_AARCH64 = 183
EM_386 = 3


@dataclass(frozen=True)
class Symbol:
    name: str
    defined: bool = True
    weak: bool = False


@dataclass(frozen=True)
class FatEntry:
    """One fat-binary entry: kind 1 PTX, 2 ELF (cubin); `flags` as nvcc writes them (0x11: a
    64-bit Linux entry; 0x10_0000 arch-specific `a`, 0x20_0000 family `f`)."""

    kind: int
    arch: int
    flags: int = 0x11
    payload: bytes = b"\x7fELF-payload-not-read"
    header_size: int = 64


def gnu_hash(name: bytes) -> int:
    h = 5381
    for byte in name:
        h = (h * 33 + byte) & 0xFFFFFFFF
    return h


def sysv_hash(name: bytes) -> int:
    h = 0
    for byte in name:
        h = ((h << 4) + byte) & 0xFFFFFFFF
        h ^= (h >> 24) & 0xF0
    return h & 0x0FFFFFFF


def fatbin_container(entries: list[FatEntry], *, claimed: int | None = None) -> bytes:
    """A fat-binary container: 16-byte header and its entries (payloads padded to 8 bytes).
    `claimed` overrides the size the header states (a bad length)."""
    body = b""
    for entry in entries:
        payload = entry.payload + b"\0" * (-len(entry.payload) % 8)
        header = struct.pack(
            "<HHIQIIHHIIIQQQ",
            entry.kind,
            0x0101,
            entry.header_size,
            len(payload),
            0,
            0,
            8,
            1,
            entry.arch,
            0,
            0,
            entry.flags,
            0,
            len(entry.payload),
        )
        header += b"\0" * max(0, entry.header_size - len(header))
        body += header[: max(entry.header_size, 0)] + payload
    size = len(body) if claimed is None else claimed
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, size) + body


@dataclass
class Built:
    data: bytes
    at: dict[str, int] = field(default_factory=dict)  # structure -> file offset
    bits: int = 64

    def patched(self, offset: int, value: bytes) -> bytes:
        return self.data[:offset] + value + self.data[offset + len(value) :]


def build(
    *,
    bits: int = 64,
    machine: int = EM_X86_64,
    soname: str | None = None,
    needed: tuple[str, ...] = (),
    runpath: str | None = None,
    rpath: str | None = None,
    symbols: tuple[Symbol, ...] = (),
    hash_style: str = "gnu",  # "gnu", "sysv", "both" or "none"
    sections: dict[str, bytes] | None = None,  # extra PROGBITS sections: .nv_fatbin, ...
    section_headers: bool = True,
) -> Built:
    """A little-endian ELF shared object (ET_DYN) holding what the arguments name."""
    is64 = bits == 64
    word = "Q" if is64 else "I"
    ehsize, phentsize, shentsize = (64, 56, 64) if is64 else (52, 32, 40)
    symsize = 24 if is64 else 16
    at: dict[str, int] = {}

    # The dynamic string table.
    dynstr = bytearray(b"\0")
    names: dict[str, int] = {}

    def intern(text: str) -> int:
        if text not in names:
            names[text] = len(dynstr)
            dynstr.extend(text.encode() + b"\0")
        return names[text]

    # Symbol order: null, undefined (unhashed), then defined in GNU bucket order.
    undefined = [s for s in symbols if not s.defined]
    defined = [s for s in symbols if s.defined]
    nbuckets = max(1, len(defined) // 2)
    defined.sort(key=lambda s: gnu_hash(s.name.encode()) % nbuckets)
    ordered = [Symbol("", defined=False), *undefined, *defined]
    symoffset = 1 + len(undefined)

    needed_at = [intern(n) for n in needed]
    soname_at = intern(soname) if soname is not None else None
    runpath_at = intern(runpath) if runpath is not None else None
    rpath_at = intern(rpath) if rpath is not None else None
    symbol_names = [intern(s.name) if s.name else 0 for s in ordered]

    def symbol(index: int, sym: Symbol) -> bytes:
        binding = 2 if sym.weak else 1
        info = (binding << 4) | (2 if sym.defined else 0) if index else 0
        shndx = 7 if sym.defined else 0  # any section index but SHN_UNDEF
        value = 0x1000 + index * 16 if sym.defined else 0
        if is64:
            return struct.pack("<IBBHQQ", symbol_names[index], info, 0, shndx, value, 8)
        return struct.pack("<IIIBBH", symbol_names[index], value, 8, info, 0, shndx)

    dynsym = b"".join(symbol(i, s) for i, s in enumerate(ordered))

    gnu = b""
    if hash_style in ("gnu", "both"):
        hashes = [gnu_hash(s.name.encode()) for s in defined]
        shift = 5
        wbits = bits
        bloom = 0
        for h in hashes:
            bloom |= (1 << (h % wbits)) | (1 << ((h >> shift) % wbits))
        buckets = [0] * nbuckets
        chains = []
        for i, h in enumerate(hashes):
            bucket = h % nbuckets
            if buckets[bucket] == 0:
                buckets[bucket] = symoffset + i
            last = i + 1 == len(hashes) or hashes[i + 1] % nbuckets != bucket
            chains.append((h & ~1) | (1 if last else 0))
        gnu = struct.pack("<IIII", nbuckets, symoffset, 1, shift)
        gnu += struct.pack(f"<{word}", bloom)
        gnu += struct.pack(f"<{nbuckets}I", *buckets)
        gnu += struct.pack(f"<{len(chains)}I", *chains)
    sysv = b""
    if hash_style in ("sysv", "both"):
        nbucket = max(1, len(ordered) // 2)
        sbuckets = [0] * nbucket
        schain = [0] * len(ordered)
        for i in range(len(ordered) - 1, 0, -1):
            h = sysv_hash(ordered[i].name.encode()) % nbucket
            schain[i] = sbuckets[h]
            sbuckets[h] = i
        sysv = struct.pack(
            f"<II{nbucket}I{len(ordered)}I", nbucket, len(ordered), *sbuckets, *schain
        )

    # Lay the file out: header, program headers, then the tables, 8-aligned.
    phnum = 2
    cursor = ehsize + phnum * phentsize
    blobs: list[tuple[str, bytes]] = [("dynstr", bytes(dynstr)), ("dynsym", dynsym)]
    if gnu:
        blobs.append(("gnu.hash", gnu))
    if sysv:
        blobs.append(("hash", sysv))
    offsets: dict[str, int] = {}
    for name, blob in blobs:
        cursor += -cursor % 8
        offsets[name] = cursor
        cursor += len(blob)

    dyn: list[tuple[int, int]] = [(1, v) for v in needed_at]
    if soname_at is not None:
        dyn.append((14, soname_at))
    if rpath_at is not None:
        dyn.append((15, rpath_at))
    if runpath_at is not None:
        dyn.append((29, runpath_at))
    dyn += [(5, offsets["dynstr"]), (10, len(dynstr)), (6, offsets["dynsym"]), (11, symsize)]
    if gnu:
        dyn.append((0x6FFFFEF5, offsets["gnu.hash"]))
    if sysv:
        dyn.append((4, offsets["hash"]))
    dyn.append((0, 0))
    dynfmt = "<qQ" if is64 else "<iI"
    dynamic = b"".join(struct.pack(dynfmt, tag, value) for tag, value in dyn)
    cursor += -cursor % 8
    offsets["dynamic"] = cursor
    blobs.append(("dynamic", dynamic))
    cursor += len(dynamic)
    for name, blob in (sections or {}).items():
        cursor += -cursor % 8
        offsets[name] = cursor
        blobs.append((name, blob))
        cursor += len(blob)

    shstrtab = bytearray(b"\0")
    section_rows: list[
        tuple[int, int, int, int, int, int]
    ] = []  # name, type, off, size, link, entsize

    def section(
        name: str, sh_type: int, offset: int, size: int, link: int = 0, ent: int = 0
    ) -> None:
        section_rows.append((len(shstrtab), sh_type, offset, size, link, ent))
        shstrtab.extend(name.encode() + b"\0")

    section_rows.append((0, 0, 0, 0, 0, 0))
    section(".dynstr", 3, offsets["dynstr"], len(dynstr))
    section(".dynsym", 11, offsets["dynsym"], len(dynsym), 1, symsize)
    if gnu:
        section(".gnu.hash", 0x6FFFFFF6, offsets["gnu.hash"], len(gnu), 2)
    if sysv:
        section(".hash", 5, offsets["hash"], len(sysv), 2, 4)
    section(".dynamic", 6, offsets["dynamic"], len(dynamic), 1, 16 if is64 else 8)
    for name, blob in (sections or {}).items():
        section(name, 1, offsets[name], len(blob))
    cursor += -cursor % 8
    offsets["shstrtab"] = cursor
    section(".shstrtab", 3, cursor, 0)
    shstrndx = len(section_rows) - 1
    row = section_rows[-1]
    section_rows[-1] = (row[0], row[1], row[2], len(shstrtab), row[4], row[5])
    blobs.append(("shstrtab", bytes(shstrtab)))
    cursor += len(shstrtab)
    cursor += -cursor % 8
    shoff = cursor if section_headers else 0
    shnum = len(section_rows) if section_headers else 0
    total = cursor + (shnum * shentsize)

    out = bytearray(total)
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 1, 1, 0]) + b"\0" * 8
    hfmt = "<HHI" + ("QQQ" if is64 else "III") + "IHHHHHH"
    out[0:ehsize] = ident + struct.pack(
        hfmt,
        3,
        machine,
        1,
        0,
        ehsize,
        shoff,
        0,
        ehsize,
        phentsize,
        phnum,
        shentsize,
        shnum,
        shstrndx,
    )
    at["e_phoff"] = 32 if is64 else 28
    at["e_shoff"] = 40 if is64 else 32
    at["e_shnum"] = 60 if is64 else 48
    at["e_shstrndx"] = 62 if is64 else 50
    at["e_phnum"] = 56 if is64 else 44
    if is64:
        load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, total, total, 0x1000)
        dynph = struct.pack(
            "<IIQQQQQQ",
            2,
            6,
            offsets["dynamic"],
            offsets["dynamic"],
            0,
            len(dynamic),
            len(dynamic),
            8,
        )
    else:
        load = struct.pack("<IIIIIIII", 1, 0, 0, 0, total, total, 5, 0x1000)
        dynph = struct.pack(
            "<IIIIIIII",
            2,
            offsets["dynamic"],
            offsets["dynamic"],
            0,
            len(dynamic),
            len(dynamic),
            6,
            4,
        )
    out[ehsize : ehsize + phentsize] = load
    out[ehsize + phentsize : ehsize + 2 * phentsize] = dynph
    at["phdr"] = ehsize
    for name, blob in blobs:
        out[offsets[name] : offsets[name] + len(blob)] = blob
    if section_headers:
        for i, (name_at, sh_type, offset, size, link, ent) in enumerate(section_rows):
            if is64:
                raw = struct.pack(
                    "<IIQQQQIIQQ", name_at, sh_type, 0, offset, offset, size, link, 0, 8, ent
                )
            else:
                raw = struct.pack(
                    "<IIIIIIIIII", name_at, sh_type, 0, offset, offset, size, link, 0, 4, ent
                )
            out[shoff + i * shentsize : shoff + (i + 1) * shentsize] = raw
    at.update(offsets)
    at["shoff"] = shoff
    return Built(bytes(out), at, bits)
