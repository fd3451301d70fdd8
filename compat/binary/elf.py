"""ELF shared objects, read as the dynamic loader reads them: the ELF header, the program headers
(PT_DYNAMIC and the PT_LOAD segments that map the dynamic tables), the dynamic section, the
dynamic symbol table and its hash tables; the section headers only to find the `.dynsym` size
and the CUDA fat-binary sections.

The file is mapped (`mmap`), never read whole: only the pages of the tables touched are read
from disk. Every offset, count and index comes from a file that may be hostile, so each is
checked against the file's size before it is used; every failure is one `BinaryError` line.

Little-endian ELF32 and ELF64 are read; a big-endian file is refused (no wheel compat judges
ships one)."""

from __future__ import annotations

import mmap
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from types import TracebackType

from compat.binary.fatbin import Fatbin, FatbinError, read_fatbin
from compat.binary.gfxtarget import target_key
from compat.binary.hipfatbin import HipCode, HipError, read_hip_fatbin, read_offloading
from compat.errors import InputError
from compat.files.readers import open_regular_fd


class BinaryError(Exception):
    """The file is not a readable ELF shared object: one line saying what is wrong
    (the caller names the file)."""


MACHINES = {3: "i386", 21: "ppc64le", 40: "arm", 62: "x86_64", 183: "aarch64", 243: "riscv"}

ET_EXEC = 2
ET_DYN = 3
PT_LOAD = 1
PT_DYNAMIC = 2
SHT_NOBITS = 8
SHT_DYNSYM = 11
SHN_UNDEF = 0
SHN_XINDEX = 0xFFFF
STB_GLOBAL = 1
STB_WEAK = 2
DT_NULL = 0
DT_NEEDED = 1
DT_HASH = 4
DT_STRTAB = 5
DT_SYMTAB = 6
DT_STRSZ = 10
DT_SYMENT = 11
DT_SONAME = 14
DT_RPATH = 15
DT_RUNPATH = 29
DT_GNU_HASH = 0x6FFFFEF5
FATBIN_SECTIONS = (b".nv_fatbin", b"__nv_relfatbin")
RODATA = b".rodata"
# AMD device code (compat.binary.hipfatbin) and TheRock's marker of device code split out.
HIP_SECTIONS = (b".hip_fatbin", b".llvm.offloading", b".rocm_kpack_ref")
# The fat-binary wrappers `__hipRegisterFatBinary` is handed (compat.binary.elf._kpack_wrapped).
HIP_WRAPPERS = b".hipFatBinSegment"
WRAPPER = struct.Struct("<IIQQ")  # magic, version, bundle address, unused
HIPK_MAGIC = 0x4B504948  # "HIPK": the device code was moved into .kpack archives
MAX_WRAPPERS = 4096  # one per translation unit with device code that was linked in
# nvcc's architecture flags as torch's build compiled them into its CUDA library (Module.cpp's
# CUDA_ARCH_FLAGS, the string torch.cuda.get_arch_list() and torch's "supports CUDA capabilities"
# warning are made from): `-gencode;arch=compute_80,code=sm_80;...;code=compute_90` (PTX).
ARCH_FLAGS_START = b"-gencode;arch=compute_"
ARCH_FLAGS = re.compile(
    rb"-gencode;arch=compute_\d+[af]?,code=(?:sm|compute)_\d+[af]?"
    rb"(?:;-gencode;arch=compute_\d+[af]?,code=(?:sm|compute)_\d+[af]?)*"
)
MAX_ARCH_FLAGS = 4096  # 40 architectures take under 2,000 bytes

# Bounds no real shared object comes near (libtorch_cuda.so: 40 sections, 12 program headers,
# about 60 dynamic entries); a file past them is refused rather than walked.
MAX_SECTIONS = 1 << 16
MAX_SEGMENTS = 1 << 12
MAX_DYNAMIC = 1 << 16
MAX_SYMBOLS = 1 << 24


@dataclass(frozen=True)
class Layout:
    """The field layout of one ELF class (32 or 64 bits, little-endian)."""

    bits: int
    header: struct.Struct  # after e_ident
    segment: struct.Struct
    section: struct.Struct
    dynamic: struct.Struct
    symbol_size: int
    name_at: int  # st_name offset in a symbol
    info_at: int  # st_info
    shndx_at: int  # st_shndx
    bloom: struct.Struct  # one word of the GNU hash's Bloom filter

    def segment_fields(self, raw: tuple[int, ...]) -> tuple[int, int, int, int]:
        """(p_type, p_offset, p_vaddr, p_filesz) of an unpacked program header."""
        if self.bits == 64:
            return raw[0], raw[2], raw[3], raw[5]
        return raw[0], raw[1], raw[2], raw[4]


LAYOUT64 = Layout(
    bits=64,
    header=struct.Struct("<HHIQQQIHHHHHH"),
    segment=struct.Struct("<IIQQQQQQ"),
    section=struct.Struct("<IIQQQQIIQQ"),
    dynamic=struct.Struct("<qQ"),
    symbol_size=24,
    name_at=0,
    info_at=4,
    shndx_at=6,
    bloom=struct.Struct("<Q"),
)
LAYOUT32 = Layout(
    bits=32,
    header=struct.Struct("<HHIIIIIHHHHHH"),
    segment=struct.Struct("<IIIIIIII"),
    section=struct.Struct("<IIIIIIIIII"),
    dynamic=struct.Struct("<iI"),
    symbol_size=16,
    name_at=0,
    info_at=12,
    shndx_at=14,
    bloom=struct.Struct("<I"),
)
U32 = struct.Struct("<I")
U16 = struct.Struct("<H")


@dataclass(frozen=True)
class ElfFacts:
    machine: str  # "x86_64", "aarch64", else "EM_<n>"
    soname: str | None  # DT_SONAME
    needed: tuple[str, ...]  # DT_NEEDED, in file order
    runpath: tuple[str, ...]  # DT_RUNPATH (else DT_RPATH) entries, raw ("$ORIGIN/../lib")
    undefined: tuple[str, ...]  # undefined GLOBAL dynamic symbols (mangled), sorted, unique
    weak_undefined: tuple[str, ...]  # undefined WEAK dynamic symbols
    fatbin: Fatbin | None  # None: the file carries no CUDA fat binary
    # `__nv_relfatbin`: relocatable device code kept for a later device link. The CUDA runtime
    # never loads it (cuobjdump does not list it); `fatbin` is what a process can run.
    relfatbin: Fatbin | None = None
    # The `-gencode` list the library records of its own build (ARCH_FLAGS), read from `.rodata`
    # of a file that carries device code; None where it has none. For torch's CUDA library this
    # is its own arch list: `fatbin` also holds the code of libraries linked in statically
    # (torch 1.x's cuDNN and cuBLAS carry sm_35 and sm_61 beside torch's 3.7;5.0;6.0;7.0).
    arch_flags: str | None = None
    # AMD device code: the HIP code objects' targets (compat.binary.hipfatbin); None: none.
    hip: HipCode | None = None


def _map(path: str) -> tuple[mmap.mmap, int]:
    """The file mapped read-only, and its size. Regular files only (a FIFO or device is
    refused without waiting); a symlink loop, a missing file, an empty file: BinaryError."""
    try:
        fd = open_regular_fd(path)
    except InputError as error:
        raise BinaryError(error.message) from None
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            raise BinaryError("empty file, not an ELF file")
        try:
            data = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as error:
            raise BinaryError(f"cannot map the file: {error}") from None
        # Headers are scattered through the file (a fat-binary entry header every few hundred
        # KiB): read-ahead around each would read most of libtorch_cuda.so's 500 MB.
        if hasattr(mmap, "MADV_RANDOM"):
            data.madvise(mmap.MADV_RANDOM)
        return data, size
    finally:
        os.close(fd)


class _Image:
    """One mapped ELF file: its layout, segments and dynamic tables, bounds-checked."""

    def __init__(self, data: mmap.mmap, size: int) -> None:
        self.data = data
        self.size = size
        if size < 16 or data[:4] != b"\x7fELF":
            raise BinaryError("not an ELF file (wrong magic)")
        klass, order = data[4], data[5]
        if order == 2:
            raise BinaryError("big-endian ELF is not read")
        if order != 1:
            raise BinaryError(f"bad ELF data encoding {order}")
        if klass == 2:
            self.layout = LAYOUT64
        elif klass == 1:
            self.layout = LAYOUT32
        else:
            raise BinaryError(f"bad ELF class {klass}")
        header = self.layout.header
        self.check(16, header.size, "ELF header")
        (
            e_type,
            e_machine,
            _version,
            _entry,
            e_phoff,
            e_shoff,
            _flags,
            _ehsize,
            e_phentsize,
            e_phnum,
            e_shentsize,
            e_shnum,
            e_shstrndx,
        ) = header.unpack_from(data, 16)
        if e_type not in (ET_DYN, ET_EXEC):
            raise BinaryError(f"not a shared object or executable (ELF type {e_type})")
        self.machine = MACHINES.get(e_machine, f"EM_{e_machine}")
        self.segments = self._segments(e_phoff, e_phentsize, e_phnum)
        self.sections = self._sections(e_shoff, e_shentsize, e_shnum, e_shstrndx)
        self.dynamic = self._dynamic()
        strtab = self.dynamic.get(DT_STRTAB, [])
        strsz = self.dynamic.get(DT_STRSZ, [])
        if strtab:
            start = self.offset_of(strtab[0], "DT_STRTAB")
            length = strsz[0] if strsz else 0
            self.check(start, length, "dynamic string table")
            self.strtab = (start, start + length)
        else:
            self.strtab = (0, 0)

    def check(self, offset: int, length: int, what: str) -> None:
        if offset < 0 or length < 0 or offset + length > self.size:
            raise BinaryError(f"{what} at offset {offset} ({length} bytes) is past the end")

    def table(
        self, offset: int, entsize: int, count: int, least: int, most: int, what: str
    ) -> None:
        if count > most:
            raise BinaryError(f"absurd {what} count {count}")
        if count and entsize < least:
            raise BinaryError(f"bad {what} entry size {entsize}")
        self.check(offset, entsize * count, what)

    def _segments(self, phoff: int, phentsize: int, phnum: int) -> list[tuple[int, int, int, int]]:
        layout = self.layout
        self.table(phoff, phentsize, phnum, layout.segment.size, MAX_SEGMENTS, "program header")
        return [
            layout.segment_fields(layout.segment.unpack_from(self.data, phoff + i * phentsize))
            for i in range(phnum)
        ]

    def _sections(
        self, shoff: int, shentsize: int, shnum: int, shstrndx: int
    ) -> dict[bytes, tuple[int, int, int, int]]:
        """Section name -> (type, offset, size, entsize), for the named sections compat reads.
        A file without section headers (stripped of them) has none: the loader needs none."""
        if shoff == 0:
            return {}
        layout = self.layout
        section = layout.section
        if shentsize < section.size:
            raise BinaryError(f"bad section header entry size {shentsize}")
        if shnum == 0 or shstrndx == SHN_XINDEX:
            # More than 0xff00 sections: the real count and index are in section 0.
            self.check(shoff, section.size, "section header")
            first = section.unpack_from(self.data, shoff)
            if shnum == 0:
                shnum = first[5]
            if shstrndx == SHN_XINDEX:
                shstrndx = first[6]
        self.table(shoff, shentsize, shnum, section.size, MAX_SECTIONS, "section")
        rows = [section.unpack_from(self.data, shoff + i * shentsize) for i in range(shnum)]
        if not 0 < shstrndx < shnum:
            return {}
        names = rows[shstrndx]
        names_at, names_size = names[4], names[5]
        self.check(names_at, names_size, "section name table")
        wanted: dict[bytes, tuple[int, int, int, int]] = {}
        for row in rows:
            name = self.string(names_at, names_at + names_size, row[0], "section name")
            if (
                row[1] == SHT_DYNSYM
                or name in FATBIN_SECTIONS
                or name in (RODATA, HIP_WRAPPERS)
                or name in HIP_SECTIONS
            ):
                key = b".dynsym" if row[1] == SHT_DYNSYM else name
                wanted.setdefault(key, (row[1], row[4], row[5], row[9]))
        return wanted

    def _dynamic(self) -> dict[int, list[int]]:
        """Dynamic tag -> its values in file order (DT_NEEDED repeats)."""
        dynamic = [seg for seg in self.segments if seg[0] == PT_DYNAMIC]
        if not dynamic:
            return {}
        _type, offset, _vaddr, filesz = dynamic[0]
        entry = self.layout.dynamic
        count = filesz // entry.size
        self.table(
            offset, entry.size, min(count, MAX_DYNAMIC + 1), entry.size, MAX_DYNAMIC, "dynamic"
        )
        tags: dict[int, list[int]] = {}
        for i in range(count):
            tag, value = entry.unpack_from(self.data, offset + i * entry.size)
            if tag == DT_NULL:
                break
            tags.setdefault(tag, []).append(value)
        return tags

    def offset_of(self, address: int, what: str) -> int:
        """The file offset of a virtual address, through the PT_LOAD segment that maps it."""
        for p_type, p_offset, p_vaddr, p_filesz in self.segments:
            if p_type == PT_LOAD and p_vaddr <= address < p_vaddr + p_filesz:
                return address - p_vaddr + p_offset
        raise BinaryError(f"{what} address {address:#x} is in no loaded segment")

    def string(self, start: int, end: int, index: int, what: str) -> bytes:
        at = start + index
        if index < 0 or at >= end:
            raise BinaryError(f"{what} index {index} is past its string table")
        stop = self.data.find(b"\0", at, end)
        if stop < 0:
            raise BinaryError(f"{what} at {index} runs past its string table")
        return self.data[at:stop]

    def dynstr(self, index: int, what: str) -> str:
        start, end = self.strtab
        return self.string(start, end, index, what).decode("utf-8", "replace")

    def symbols(self) -> tuple[int, int]:
        """(file offset, count) of the dynamic symbol table."""
        layout = self.layout
        listed = self.sections.get(b".dynsym")
        if listed is not None:
            _type, offset, size, entsize = listed
            if entsize != layout.symbol_size:
                raise BinaryError(f"bad dynamic symbol entry size {entsize}")
            count = size // layout.symbol_size
        elif DT_SYMTAB in self.dynamic:
            offset = self.offset_of(self.dynamic[DT_SYMTAB][0], "DT_SYMTAB")
            count = self._count_from_hash()
        else:
            return 0, 0
        self.table(offset, layout.symbol_size, count, layout.symbol_size, MAX_SYMBOLS, "symbol")
        return offset, count

    def _count_from_hash(self) -> int:
        """The symbol count without section headers: DT_HASH's nchain, else the GNU hash's
        highest symbol (the end of the last chain)."""
        if DT_HASH in self.dynamic:
            at = self.offset_of(self.dynamic[DT_HASH][0], "DT_HASH")
            self.check(at, 8, "hash table")
            return int(U32.unpack_from(self.data, at + 4)[0])
        if DT_GNU_HASH not in self.dynamic:
            return 0
        table = GnuHash(self, self.offset_of(self.dynamic[DT_GNU_HASH][0], "DT_GNU_HASH"))
        return table.symbol_count()


@lru_cache(maxsize=1 << 14)
def _gnu_hash(name: bytes) -> int:
    """dl_new_hash: one name is looked up in every torch library, hashed once."""
    h = 5381
    for byte in name:
        h = (h * 33 + byte) & 0xFFFFFFFF
    return h


class GnuHash:
    """The `.gnu.hash` table: header, Bloom filter, buckets, chains (symbols from `symoffset`
    on, in bucket order; each chain ends with a hash whose lowest bit is set)."""

    def __init__(self, image: _Image, at: int) -> None:
        self.image = image
        data = image.data
        image.check(at, 16, "GNU hash header")
        self.nbuckets, self.symoffset, self.bloom_size, self.shift = struct.unpack_from(
            "<IIII", data, at
        )
        word = image.layout.bloom.size
        if self.nbuckets == 0 or self.bloom_size == 0:
            raise BinaryError("GNU hash table with no buckets")
        self.bloom_at = at + 16
        self.buckets_at = self.bloom_at + self.bloom_size * word
        self.chains_at = self.buckets_at + self.nbuckets * 4
        image.check(self.bloom_at, self.chains_at - self.bloom_at, "GNU hash table")
        self.bits = word * 8

    def symbol_count(self) -> int:
        data = self.image.data
        with (
            memoryview(data) as whole,
            whole[self.buckets_at : self.chains_at] as part,
            part.cast("I") as buckets,
        ):
            top = max(buckets)
        if top < self.symoffset:
            return int(self.symoffset)
        index = top
        while True:
            at = self.chains_at + (index - self.symoffset) * 4
            self.image.check(at, 4, "GNU hash chain")
            if int(U32.unpack_from(data, at)[0]) & 1:
                return index + 1
            index += 1
            if index > MAX_SYMBOLS:
                raise BinaryError("GNU hash chain without end")

    def candidates(self, name: bytes) -> list[int]:
        """The symbol indexes whose hash is the name's (the caller compares names)."""
        h = _gnu_hash(name)
        data = self.image.data
        bits = self.bits
        word_at = self.bloom_at + ((h // bits) % self.bloom_size) * (bits // 8)
        (word,) = self.image.layout.bloom.unpack_from(data, word_at)
        mask = (1 << (h % bits)) | (1 << ((h >> self.shift) % bits))
        if word & mask != mask:
            return []
        (index,) = U32.unpack_from(data, self.buckets_at + (h % self.nbuckets) * 4)
        if index == 0:
            return []
        if index < self.symoffset:
            raise BinaryError(f"GNU hash bucket points below its first symbol ({index})")
        found: list[int] = []
        for _ in range(MAX_SYMBOLS):
            at = self.chains_at + (index - self.symoffset) * 4
            self.image.check(at, 4, "GNU hash chain")
            (chained,) = U32.unpack_from(data, at)
            if (chained | 1) == (h | 1):
                found.append(index)
            if chained & 1:
                return found
            index += 1
        raise BinaryError("GNU hash chain without end")


class SysvHash:
    """The SysV `DT_HASH` table: nbucket, nchain, buckets, chains."""

    def __init__(self, image: _Image, at: int) -> None:
        self.image = image
        image.check(at, 8, "hash table")
        self.nbucket, self.nchain = struct.unpack_from("<II", image.data, at)
        if self.nbucket == 0:
            raise BinaryError("hash table with no buckets")
        self.buckets_at = at + 8
        self.chains_at = self.buckets_at + self.nbucket * 4
        image.check(self.buckets_at, (self.nbucket + self.nchain) * 4, "hash table")

    def candidates(self, name: bytes) -> list[int]:
        h = 0
        for byte in name:
            h = ((h << 4) + byte) & 0xFFFFFFFF
            h ^= (h >> 24) & 0xF0
        h &= 0x0FFFFFFF
        data = self.image.data
        (index,) = U32.unpack_from(data, self.buckets_at + (h % self.nbucket) * 4)
        found: list[int] = []
        for _ in range(self.nchain + 1):
            if index == 0:
                return found
            if index >= self.nchain:
                raise BinaryError(f"hash chain index {index} past its {self.nchain} symbols")
            found.append(index)
            (index,) = U32.unpack_from(data, self.chains_at + index * 4)
        raise BinaryError("hash chain loops")


def _guard(read: Callable[[], ElfFacts]) -> ElfFacts:
    try:
        return read()
    except BinaryError:
        raise
    except (FatbinError, HipError) as error:
        raise BinaryError(str(error)) from None
    except (struct.error, ValueError, IndexError, OverflowError, TypeError) as error:
        # A bound the checks above missed: still one line, never a traceback.
        raise BinaryError(f"malformed ELF file ({type(error).__name__})") from None


def read_elf(path: str) -> ElfFacts:
    """The facts of one ELF file: raises BinaryError, never anything else."""
    data, size = _map(path)
    try:
        return _guard(lambda: _facts(_Image(data, size)))
    except OSError as error:  # an I/O error on a page of the mapping
        raise BinaryError(f"cannot read: {error.strerror or error}") from None
    finally:
        data.close()


def read_section(path: str, name: bytes, limit: int) -> bytes | None:
    """The first `limit` bytes of one of the sections compat reads (HIP_SECTIONS ...), None
    where the file has none or it holds no bytes. Raises BinaryError, never anything else."""
    data, size = _map(path)
    try:

        def read() -> bytes | None:
            image = _Image(data, size)
            section = image.sections.get(name)
            if section is None or section[0] == SHT_NOBITS or section[2] == 0:
                return None
            _type, offset, length, _entsize = section
            image.check(offset, length, name.decode())
            return bytes(data[offset : offset + min(length, limit)])

        try:
            return read()
        except (struct.error, ValueError, IndexError, OverflowError, TypeError) as error:
            raise BinaryError(f"malformed ELF file ({type(error).__name__})") from None
    except OSError as error:
        raise BinaryError(f"cannot read: {error.strerror or error}") from None
    finally:
        data.close()


def _facts(image: _Image) -> ElfFacts:
    dynamic = image.dynamic
    needed = tuple(image.dynstr(v, "DT_NEEDED") for v in dynamic.get(DT_NEEDED, []))
    sonames = dynamic.get(DT_SONAME, [])
    soname = image.dynstr(sonames[0], "DT_SONAME") if sonames else None
    paths = dynamic.get(DT_RUNPATH) or dynamic.get(DT_RPATH) or []
    runpath = tuple(
        entry for value in paths for entry in image.dynstr(value, "DT_RUNPATH").split(":") if entry
    )
    undefined, weak = _undefined(image)
    fatbin = _fatbin(image, b".nv_fatbin")
    return ElfFacts(
        machine=image.machine,
        soname=soname,
        needed=needed,
        runpath=runpath,
        undefined=undefined,
        weak_undefined=weak,
        fatbin=fatbin,
        relfatbin=_relocatable(image),
        arch_flags=_arch_flags(image) if fatbin is not None else None,
        hip=_hip(image),
    )


def _hip(image: _Image) -> HipCode | None:
    """The HIP code objects' targets: `.hip_fatbin` bundles, `.llvm.offloading` images; a
    `.rocm_kpack_ref` marker (device sections emptied into .kpack archives) says so, and so
    does a `HIPK` fat-binary wrapper: then `.hip_fatbin` is what the kpack transform left of
    it (zeroed pages, a stray first header), never read."""
    split = _kpack_wrapped(image)
    kpack = split or b".rocm_kpack_ref" in image.sections
    found: list[HipCode] = []
    for name, read in ((b".hip_fatbin", read_hip_fatbin), (b".llvm.offloading", read_offloading)):
        section = image.sections.get(name)
        if section is None or (split and name == b".hip_fatbin"):
            continue
        sh_type, offset, size, _entsize = section
        if sh_type == SHT_NOBITS or size == 0:
            continue
        image.check(offset, size, name.decode())
        found.append(read(image.data, offset, offset + size))
    if not found:
        return HipCode((), 0, 0, 0, kpack=True) if kpack else None
    targets = sorted({t for code in found for t in code.targets}, key=target_key)
    return HipCode(
        tuple(targets),
        sum(c.bundles for c in found),
        sum(c.compressed for c in found),
        sum(c.unread for c in found),
        kpack=kpack,
        note=next((c.note for c in found if c.note), None),
    )


def _kpack_wrapped(image: _Image) -> bool:
    """Whether a HIP fat-binary wrapper in `.hipFatBinSegment` has the magic `HIPK`.

    Each wrapper (`__CudaFatBinaryWrapper`, 24 bytes: magic u32, version u32, the bundle's
    address, one more pointer) is what the host code hands `__hipRegisterFatBinary`; its magic
    is `HIPF` (0x48495046). TheRock's kpack transform (ROCm/rocm-kpack@18d2eefec8ba,
    python/rocm_kpack/elf/kpack_transform.py) rewrites every wrapper to `HIPK` (0x4B504948),
    points it at the `.rocm_kpack_ref` marker and zero-pages `.hip_fatbin`: the runtime then
    loads the device code from `.kpack` archives. Only the magics are read (the pointers are
    relocated at load time)."""
    section = image.sections.get(HIP_WRAPPERS)
    if section is None or section[0] == SHT_NOBITS or section[2] == 0:
        return False
    _type, offset, size, _entsize = section
    size = min(size, MAX_WRAPPERS * WRAPPER.size)
    image.check(offset, size, HIP_WRAPPERS.decode())
    return any(
        WRAPPER.unpack_from(image.data, at)[0] == HIPK_MAGIC
        for at in range(offset, offset + size - WRAPPER.size + 1, WRAPPER.size)
    )


def _arch_flags(image: _Image) -> str | None:
    """The first well-formed ARCH_FLAGS string in `.rodata`, bounded; None without one. A find
    over the section (9 MB in libtorch_cuda.so, a few ms), read only of files with device code."""
    section = image.sections.get(RODATA)
    if section is None or section[0] == SHT_NOBITS:
        return None
    _type, offset, size, _entsize = section
    image.check(offset, size, ".rodata")
    end = offset + size
    at = image.data.find(ARCH_FLAGS_START, offset, end)
    while at >= 0:
        text = image.data[at : min(at + MAX_ARCH_FLAGS, end)].split(b"\0", 1)[0]
        match = ARCH_FLAGS.fullmatch(text)
        if match:
            return match.group(0).decode("ascii")
        at = image.data.find(ARCH_FLAGS_START, at + 1, end)
    return None


def _undefined(image: _Image) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Undefined GLOBAL and WEAK dynamic symbols. The st_shndx column is sliced out of the
    table in C (one bytes slice per byte of it), so only the undefined rows are unpacked:
    libtorch_cpu.so's 300,000 exports cost two slices and a few finds."""
    offset, count = image.symbols()
    if count <= 1:
        return (), ()
    layout = image.layout
    entsize = layout.symbol_size
    table = image.data[offset : offset + count * entsize]
    low = table[layout.shndx_at :: entsize]
    high = table[layout.shndx_at + 1 :: entsize]
    strong: set[str] = set()
    weak: set[str] = set()
    index = low.find(0, 1)
    while index >= 0:
        if high[index] == 0:
            row = index * entsize
            (name,) = U32.unpack_from(table, row + layout.name_at)
            binding = table[row + layout.info_at] >> 4
            if name and binding in (STB_GLOBAL, STB_WEAK):
                text = image.dynstr(name, "symbol name")
                (strong if binding == STB_GLOBAL else weak).add(text)
        index = low.find(0, index + 1)
    return tuple(sorted(strong)), tuple(sorted(weak))


def _relocatable(image: _Image) -> Fatbin | None:
    """`__nv_relfatbin`, or None where it cannot be read: no process loads it, so a bad one
    takes nothing from the facts that matter (the file's dynamic section, symbols, `.nv_fatbin`)."""
    try:
        return _fatbin(image, b"__nv_relfatbin")
    except (BinaryError, FatbinError):
        return None


def _fatbin(image: _Image, name: bytes) -> Fatbin | None:
    section = image.sections.get(name)
    if section is None:
        return None
    sh_type, offset, size, _entsize = section
    if sh_type == SHT_NOBITS:
        return None
    image.check(offset, size, name.decode())
    return read_fatbin(image.data, offset, offset + size)


class Exports:
    """The defined dynamic symbols of one library, looked up by name through its hash table
    (`.gnu.hash`, else `DT_HASH`): no listing of the exports. A context manager; the file
    stays mapped until `close()`.

    The constructor raises BinaryError; so does a look-up that meets a corrupt hash chain or
    string index (a table the constructor could not check without walking it)."""

    def __init__(self, path: str) -> None:
        self._data, size = _map(path)
        try:
            self._image = _Image(self._data, size)
            self._table = self._hash_table()
            self._symbols_at = self._symbol_table()
        except BinaryError:
            self._data.close()
            raise
        except (struct.error, ValueError, IndexError, OverflowError, TypeError) as error:
            self._data.close()
            raise BinaryError(f"malformed ELF file ({type(error).__name__})") from None

    def _hash_table(self) -> GnuHash | SysvHash | None:
        image = self._image
        if DT_GNU_HASH in image.dynamic:
            return GnuHash(image, image.offset_of(image.dynamic[DT_GNU_HASH][0], "DT_GNU_HASH"))
        if DT_HASH in image.dynamic:
            return SysvHash(image, image.offset_of(image.dynamic[DT_HASH][0], "DT_HASH"))
        return None

    def _symbol_table(self) -> int:
        image = self._image
        if self._table is None or DT_SYMTAB not in image.dynamic:
            return 0
        return image.offset_of(image.dynamic[DT_SYMTAB][0], "DT_SYMTAB")

    def __contains__(self, symbol: object) -> bool:
        if not isinstance(symbol, str) or self._table is None:
            return False
        name = symbol.encode("utf-8", "surrogateescape")
        image = self._image
        layout = image.layout
        start, end = image.strtab
        try:
            for index in self._table.candidates(name):
                row = self._symbols_at + index * layout.symbol_size
                image.check(row, layout.symbol_size, "symbol")
                (shndx,) = U16.unpack_from(image.data, row + layout.shndx_at)
                if shndx == SHN_UNDEF:
                    continue
                (at,) = U32.unpack_from(image.data, row + layout.name_at)
                if image.string(start, end, at, "symbol name") == name:
                    return True
        except (struct.error, ValueError, IndexError, OverflowError) as error:
            raise BinaryError(f"malformed ELF file ({type(error).__name__})") from None
        return False

    def close(self) -> None:
        self._data.close()

    def __enter__(self) -> Exports:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
