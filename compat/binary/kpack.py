"""TheRock's kpack archives: the GPU targets of device code split out of a library (issue 43).

A multi-arch build empties a library's device sections and adds a `.rocm_kpack_ref` section;
the HIP runtime then loads the kernels from `.kpack` archives. The format, as ROCm/rocm-kpack
writes and reads it (python/rocm_kpack/kpack.py `PackedKernelArchive`,
elf_offload_kpacker.py, runtime/src/toc_parser.cpp; docs/multi_arch_packaging_with_kpack.md):

- `.rocm_kpack_ref`: a MessagePack map `{"kernel_name": str, "kpack_search_paths": [str, ...]}`;
  the paths are relative to the library's directory, `@GFXARCH@` standing for each target
  (`../.kpack/torch_@GFXARCH@.kpack`);
- a `.kpack` archive: a 16-byte little-endian header `<4sIQ>` (magic `KPAK`, format version 1,
  TOC offset), blobs, then a MessagePack TOC map with `gfx_arches` and `toc`:
  `{binary key: {gfx arch: {"type": "hsaco", "ordinal": N, ...}}}`, the binary key being the
  marker's `kernel_name`, or it with `#<code object index>` appended.

Only the header and the TOC are read, each bounded; kernels are never decompressed. Anything
else (another magic or version, an offset past the end, a TOC that does not decode) is a
KpackError: one line, never a traceback.
"""

from __future__ import annotations

import fnmatch
import os
import struct
from dataclasses import dataclass
from typing import Any

from compat.binary.gfxtarget import split_target_id, target_key

MAGIC = b"KPAK"
VERSION = 1
HEADER = struct.Struct("<4sIQ")
MAX_MARKER = 64 * 1024  # a marker is a name and a few paths
MAX_TOC = 32 * 1024 * 1024  # bytes of TOC read at most (torch's: one entry per code object)
MAX_DEPTH = 8  # the TOC nests four levels
MAX_ARCHIVES = 64  # archives one marker's search paths may name (one per target)
PLACEHOLDER = "@GFXARCH@"


class KpackError(ValueError):
    """A marker or archive that is not what the format says (one line)."""


@dataclass(frozen=True)
class KpackRef:
    kernel_name: str
    search_paths: tuple[str, ...]


@dataclass(frozen=True)
class KpackTargets:
    targets: tuple[str, ...]  # the targets the archives carry code for this library for
    archives: tuple[str, ...]  # the archives read (paths)
    notes: tuple[str, ...]  # one line per archive that could not be read


# --- MessagePack (the subset the format uses; bounded) ----------------------------------------


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.data):
            raise KpackError("MessagePack data ends early")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")

    def count(self, n: int) -> int:
        """A container's length, bounded by the bytes left (each item takes one at least)."""
        if n > len(self.data) - self.pos:
            raise KpackError("MessagePack container longer than its data")
        return n

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise KpackError("MessagePack nested too deep")
        tag = self.take(1)[0]
        if tag <= 0x7F:
            return tag
        if tag >= 0xE0:
            return tag - 0x100
        if 0x80 <= tag <= 0x8F:
            return self.map(tag & 0x0F, depth)
        if 0x90 <= tag <= 0x9F:
            return self.array(tag & 0x0F, depth)
        if 0xA0 <= tag <= 0xBF:
            return self.text(tag & 0x1F)
        simple: dict[int, Any] = {0xC0: None, 0xC2: False, 0xC3: True}
        if tag in simple:
            return simple[tag]
        sizes = {0xC4: 1, 0xC5: 2, 0xC6: 4}  # bin 8/16/32
        if tag in sizes:
            return self.take(self.uint(sizes[tag]))
        if tag == 0xCA:
            return struct.unpack(">f", self.take(4))[0]
        if tag == 0xCB:
            return struct.unpack(">d", self.take(8))[0]
        if 0xCC <= tag <= 0xCF:  # uint 8/16/32/64
            return self.uint(1 << (tag - 0xCC))
        if 0xD0 <= tag <= 0xD3:  # int 8/16/32/64
            n = 1 << (tag - 0xD0)
            return int.from_bytes(self.take(n), "big", signed=True)
        if tag in (0xD9, 0xDA, 0xDB):  # str 8/16/32
            return self.text(self.uint(1 << (tag - 0xD9)))
        if tag in (0xDC, 0xDD):  # array 16/32
            return self.array(self.uint(2 if tag == 0xDC else 4), depth)
        if tag in (0xDE, 0xDF):  # map 16/32
            return self.map(self.uint(2 if tag == 0xDE else 4), depth)
        raise KpackError(f"MessagePack type 0x{tag:02x} not used by the format")

    def length(self, tag: int, fixed: int, small: int, wide: tuple[int, int]) -> int | None:
        """A map's or array's length from its tag (fixmap/fixarray, 16, 32), else None."""
        if fixed <= tag <= fixed + 0x0F:
            return self.count(tag & 0x0F)
        if tag in wide:
            return self.count(self.uint(2 if tag == wide[0] else 4))
        return None

    def skip(self, depth: int = 0) -> None:
        """Past one value without building it (the TOC's blob lists and kernel entries)."""
        if depth > MAX_DEPTH:
            raise KpackError("MessagePack nested too deep")
        tag = self.take(1)[0]
        if tag <= 0x7F or tag >= 0xE0 or tag in (0xC0, 0xC2, 0xC3):
            return
        if 0xA0 <= tag <= 0xBF:
            self.take(tag & 0x1F)
            return
        items = self.length(tag, 0x80, 0x0F, (0xDE, 0xDF))
        if items is not None:
            for _ in range(2 * items):
                self.skip(depth + 1)
            return
        items = self.length(tag, 0x90, 0x0F, (0xDC, 0xDD))
        if items is not None:
            for _ in range(items):
                self.skip(depth + 1)
            return
        fixed = {0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4}
        if tag in fixed or tag == 0xD3:
            self.take(fixed.get(tag, 8))
            return
        sized = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4}  # bin and str
        if tag in sized:
            self.take(self.uint(sized[tag]))
            return
        raise KpackError(f"MessagePack type 0x{tag:02x} not used by the format")

    def map_length(self) -> int:
        items = self.length(self.take(1)[0], 0x80, 0x0F, (0xDE, 0xDF))
        if items is None:
            raise KpackError("expected a MessagePack map")
        return items

    def text(self, n: int) -> str:
        try:
            return self.take(n).decode("utf-8")
        except UnicodeDecodeError:
            raise KpackError("MessagePack string is not UTF-8") from None

    def array(self, n: int, depth: int) -> list[Any]:
        return [self.value(depth + 1) for _ in range(self.count(n))]

    def map(self, n: int, depth: int) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for _ in range(self.count(n)):
            key = self.value(depth + 1)
            if not isinstance(key, (str, int)):
                raise KpackError("MessagePack map key is not a string")
            out[key] = self.value(depth + 1)
        return out


def unpack(data: bytes) -> Any:
    """The first MessagePack value of `data` (trailing bytes are ignored: a marker section is
    padded). Raises KpackError."""
    return _Reader(data).value()


# --- the marker and the archives ---------------------------------------------------------------


def read_marker(raw: bytes) -> KpackRef:
    """A `.rocm_kpack_ref` section's content."""
    value = unpack(raw[:MAX_MARKER])
    if not isinstance(value, dict):
        raise KpackError(".rocm_kpack_ref is not a MessagePack map")
    name, paths = value.get("kernel_name"), value.get("kpack_search_paths")
    if not isinstance(name, str) or not name:
        raise KpackError(".rocm_kpack_ref has no kernel_name")
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
        raise KpackError(".rocm_kpack_ref has no kpack_search_paths")
    return KpackRef(name, tuple(paths))


def read_archive(path: str) -> dict[str, tuple[str, ...]]:
    """A `.kpack` archive's TOC: binary key -> the targets it has code objects for."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            head = handle.read(HEADER.size)
            if len(head) < HEADER.size:
                raise KpackError("shorter than a kpack header")
            magic, version, offset = HEADER.unpack(head)
            if magic != MAGIC:
                raise KpackError(f"not a kpack archive (magic {magic!r})")
            if version != VERSION:
                raise KpackError(f"kpack format version {version}, not {VERSION}")
            if not HEADER.size <= offset < size:
                raise KpackError(f"TOC offset {offset} outside the file ({size} bytes)")
            handle.seek(offset)
            return _toc(_Reader(handle.read(min(size - offset, MAX_TOC))))
    except OSError as error:
        raise KpackError(f"cannot read: {error.strerror or error}") from None


def _toc(reader: _Reader) -> dict[str, tuple[str, ...]]:
    """The TOC map's `toc` (binary key -> the targets of its entries) and `gfx_arches`; the
    rest (blob lists, the entries' ordinals) is skipped, not built: a torch TOC lists
    thousands of code objects."""
    try:
        items = reader.map_length()
    except KpackError:
        raise KpackError("the TOC is not a MessagePack map") from None
    binaries: dict[str, tuple[str, ...]] | None = None
    listed = None
    for _ in range(items):
        key = reader.value(1)
        if key == "gfx_arches":
            listed = reader.value(1)
        elif key == "toc":
            binaries = {}
            for _ in range(reader.map_length()):
                name = reader.value(2)
                try:
                    arches = reader.map_length()
                except KpackError:
                    raise KpackError("a TOC entry is not a binary's map of targets") from None
                targets = []
                for _ in range(arches):
                    arch = reader.value(3)
                    reader.skip(3)
                    if isinstance(arch, str) and split_target_id(arch) is not None:
                        targets.append(arch)
                if not isinstance(name, str):
                    raise KpackError("a TOC key is not a binary's name")
                binaries[name] = tuple(targets)
        else:
            reader.skip(1)
    if binaries is None:
        raise KpackError("the TOC has no `toc` map")
    if not isinstance(listed, list) or not all(isinstance(a, str) for a in listed):
        raise KpackError("the TOC has no gfx_arches list")
    return binaries


def _candidates(directory: str, pattern: str) -> list[str]:
    """The archives a search path names, relative to the library's directory: itself, or with
    `@GFXARCH@` any target's (the files of its directory whose names fit)."""
    full = os.path.normpath(os.path.join(directory, pattern))
    if PLACEHOLDER not in pattern:
        return [full] if os.path.isfile(full) else []
    folder, name = os.path.split(full)
    if PLACEHOLDER in folder:
        return []  # the format puts the target in the file name
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    glob = name.replace("*", "[*]").replace("?", "[?]").replace(PLACEHOLDER, "*")
    return [os.path.join(folder, n) for n in names if fnmatch.fnmatchcase(n, glob)]


def device_targets(
    library: str,
    ref: KpackRef,
    read: dict[str, dict[str, tuple[str, ...]] | str] | None = None,
) -> KpackTargets:
    """The targets the archives a library's marker names carry code for it (its TOC key, or
    the key with `#N`). Archives not found add nothing; one that cannot be read is one note.
    `read`: archives already read in this run (path -> TOC, or why not), shared by the
    libraries of a package, which all point at the same few archives."""
    cache: dict[str, dict[str, tuple[str, ...]] | str] = {} if read is None else read
    directory = os.path.dirname(library)
    seen: list[str] = []
    for pattern in ref.search_paths:
        for found in _candidates(directory, pattern):
            if found not in seen and len(seen) < MAX_ARCHIVES:
                seen.append(found)
    targets: set[str] = set()
    notes: list[str] = []
    opened: list[str] = []
    for archive in seen:
        if archive not in cache:
            try:
                cache[archive] = read_archive(archive)
            except KpackError as error:
                cache[archive] = f"{archive}: {error}"
        toc = cache[archive]
        if isinstance(toc, str):
            notes.append(toc)
            continue
        opened.append(archive)
        for key, arches in toc.items():
            if key == ref.kernel_name or key.startswith(ref.kernel_name + "#"):
                targets.update(arches)
    return KpackTargets(tuple(sorted(targets, key=target_key)), tuple(opened), tuple(notes))
