"""HIP code objects: the AMD GPU targets an ELF file's device code serves, from headers only.

Three containers and one marker (docs/fatbin.md, "HIP"):

- `.hip_fatbin`: clang offload bundles back to back (aligned): magic `__CLANG_OFFLOAD_BUNDLE__`
  (24 bytes), the entry count (u64), then per entry its offset, size and ID length (u64 each)
  and the ID, `hipv4-amdgcn-amd-amdhsa--gfx942:xnack-` (the host entry `host-x86_64-...`) —
  clang.llvm.org/docs/ClangOffloadBundler.html. No code object byte is read.
- a compressed bundle (`--offload-compress`, on in PyTorch's ROCm builds): `CCOB`, a version
  (u16), the method (u16: 0 zlib, 1 zstd), then v1: uncompressed size (u32) and hash (u64);
  v2: total size (u32), uncompressed size (u32), hash; v3: total and uncompressed sizes (u64),
  hash (LLVM OffloadBundler.cpp, RawCompressedBundleHeader V1/V2/V3Header). A v1 bundle ends
  where its compressed stream ends: the zstd frame walked by its block headers, the zlib stream
  inflated to its end (output thrown away, bounded by the stated uncompressed size); the
  stream may hold the bytes `CCOB`, so no search for the next magic. The bundle header with
  the IDs is the start of the payload: only the first KiB that hold it are decompressed. zstd
  needs the `zstandard` package (or Python 3.14's compression.zstd), imported lazily; without
  it the bundle is counted unread, never guessed.
- `.llvm.offloading`: LLVM OffloadBinary (magic 0x10FF10AD, version, size, entries offset and
  size; each entry's string map holds `triple` and `arch`).
- Entries for `amdgcnspirv` (AMDGCN-flavoured SPIR-V, triple `spirv64-amd-amdhsa`) are listed as
  that target: the runtime compiles them for the GPU (compat.binary.gfxtarget).
- `.rocm_kpack_ref`: TheRock's multi-arch marker: the device code lies in `.kpack` archives
  shipped by per-GPU distributions; the file itself carries no target. So does a `HIPK`
  fat-binary wrapper in `.hipFatBinSegment` (compat.binary.elf._kpack_wrapped).
- Entry IDs: `<kind>-<triple>-<target ID>`, the triple of 3 or 4 components
  (compat.binary.gfxtarget.bundle_target).

Every offset and size comes from a file that may be hostile: each is checked; a bad one is a
HipError (one line)."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any

from compat.binary.gfxtarget import SPIRV, bundle_target, split_target_id, target_key

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
CCOB_MAGIC = b"CCOB"
OFFLOAD_MAGIC = struct.pack("<I", 0x10FF10AD)
U64 = struct.Struct("<Q")
ENTRY = struct.Struct("<QQQ")  # offset, size, ID length
CCOB_FIXED = struct.Struct("<HH")  # version, method
OFFLOAD_HEADER = struct.Struct("<IIQQQ")  # magic, version, size, entries offset, entries size
OFFLOAD_ENTRY = struct.Struct("<HHIQQQQ")  # image kind, offload kind, flags, strings, n, image
MAX_ENTRIES = 4096  # a bundle per target: tens in the largest real files
MAX_ID = 1024
MAX_BUNDLES = 1 << 16
HEADER_OUT = 64 * 1024  # decompressed bytes enough for any real bundle header
COMPRESSED_IN = 256 * 1024  # compressed bytes given to the decompressor at most
ALIGN_GAP = 64 * 1024  # zero padding between two bundles (they are aligned to 4 KiB)
V1_HEADER = 4 + 2 + 2 + 4 + 8  # magic, version, method, uncompressed size (u32), hash
INFLATE_CHUNK = 1 << 20  # zlib input fed, and output taken, at a time to find a v1 stream's end


class HipError(ValueError):
    """Device code that is not a well-formed bundle (one line)."""


@dataclass(frozen=True)
class HipCode:
    targets: tuple[str, ...]  # target IDs, sorted unique: ("gfx90a:xnack-", "gfx942")
    bundles: int  # bundles (or offload binaries) read
    compressed: int  # of them compressed (CCOB)
    unread: int  # compressed bundles that could not be opened (zstd missing): targets partial
    kpack: bool = False  # the device code was split out into .kpack archives (TheRock)
    note: str | None = None  # why some bundle was not read


def read_hip_fatbin(data: Any, start: int, end: int) -> HipCode:
    """The targets of the bundles in data[start:end] (a `.hip_fatbin` section). Raises HipError."""
    targets: set[str] = set()
    bundles = compressed = unread = 0
    note = None
    pos = start
    while end - pos >= 4 and bundles < MAX_BUNDLES:
        head = bytes(data[pos : pos + len(BUNDLE_MAGIC)])
        if head == BUNDLE_MAGIC:
            found, size = _bundle(data, pos, end)
            targets.update(found)
            bundles += 1
            pos += size
        elif head[:4] == CCOB_MAGIC:
            opened, total, why = _compressed(data, pos, end)
            bundles += 1
            compressed += 1
            if opened is None:
                unread += 1
                note = note or why
            else:
                targets.update(opened)
            if total is None:  # v1 states no size: its end is where the compressed stream ends
                total = V1_HEADER + _v1_stream_length(data, pos, end)
            if total <= 0:  # a hostile size: never read the same bytes twice
                raise HipError(f"compressed bundle at section offset {pos - start} states no size")
            pos += total
        else:
            skip = _padding(data, pos, end)
            if not skip:  # not zeros, or a magic's first bytes with no whole magic after them
                raise HipError(f"no offload bundle at section offset {pos - start}")
            pos += skip
    return HipCode(tuple(sorted(targets, key=target_key)), bundles, compressed, unread, note=note)


def _padding(data: Any, pos: int, end: int) -> int | None:
    """The zero bytes before the next bundle (alignment), or None where they are not zeros."""
    window = bytes(data[pos : min(end, pos + ALIGN_GAP)])
    stripped = window.lstrip(b"\0")
    if not stripped:
        return len(window)
    if stripped.startswith((BUNDLE_MAGIC[:4], CCOB_MAGIC)):
        return len(window) - len(stripped)
    return None


def _v1_stream_length(data: Any, pos: int, end: int) -> int:
    """The compressed stream's length of the v1 bundle at `pos` (its header read already)."""
    _version, method, stated = struct.unpack("<HHI", bytes(data[pos + 4 : pos + 12]))
    return _stream_length(data, pos + V1_HEADER, end, method, stated)


def _stream_length(data: Any, pos: int, end: int, method: int, stated: int = 1 << 32) -> int:
    """The length of the compressed stream at data[pos:end]: a v1 bundle states no size, and
    a search for the next magic would stop at "CCOB" bytes inside the stream. zstd: the frame
    is walked, header and block headers only (RFC 8878, 3.1.1), never decompressed; zlib: the
    stream is inflated to its end (the output thrown away, INFLATE_CHUNK at a time), never past
    the uncompressed size the header states (`stated`): a stream that inflates further is not
    the bundle the header describes, and a hostile one would cost without bound. Raises HipError
    where the stream does not end before `end`."""
    if method == 1:
        return _zstd_frame_length(data, pos, end)
    if method != 0:
        raise HipError(f"compressed bundle method {method}")
    inflater = zlib.decompressobj()
    at = pos
    out = 0
    try:
        while not inflater.eof:
            if out > stated:
                raise HipError(f"compressed bundle: zlib stream inflates past its {stated} bytes")
            if inflater.unconsumed_tail:
                out += len(inflater.decompress(inflater.unconsumed_tail, INFLATE_CHUNK))
                continue
            if at >= end:
                break
            chunk = bytes(data[at : min(end, at + INFLATE_CHUNK)])
            at += len(chunk)
            out += len(inflater.decompress(chunk, INFLATE_CHUNK))
    except zlib.error:
        raise HipError("compressed bundle: zlib data is corrupt") from None
    if not inflater.eof:
        raise HipError("compressed bundle: zlib stream runs past the section end")
    return at - len(inflater.unused_data) - pos


ZSTD_MAGIC = 0xFD2FB528
ZSTD_SKIPPABLE = 0x184D2A50  # ... 0x184D2A5F: a skippable frame (magic, size, bytes)
MAX_ZSTD_BLOCKS = 1 << 16  # blocks hold up to 128 KiB each: 8 GiB, past any real bundle


def _zstd_frame_length(data: Any, pos: int, end: int) -> int:
    """The length of the zstd frame at data[pos:end] (RFC 8878: magic, frame header, blocks
    of a 3-byte header each, the last flagged, then the optional 4-byte checksum)."""
    head = bytes(data[pos : min(end, pos + 18)])
    if len(head) < 6:
        raise HipError("compressed bundle: zstd frame cut short")
    (magic,) = struct.unpack_from("<I", head)
    if magic & 0xFFFFFFF0 == ZSTD_SKIPPABLE:  # LLVM writes none; a hostile stream may
        raise HipError("compressed bundle: zstd stream starts with a skippable frame")
    if magic != ZSTD_MAGIC:
        raise HipError("compressed bundle: not a zstd frame")
    descriptor = head[4]
    if descriptor & 0x08:
        raise HipError("compressed bundle: zstd frame header reserved bit set")
    single_segment = bool(descriptor & 0x20)
    content_size = (0 if not single_segment else 1, 2, 4, 8)[descriptor >> 6]
    at = pos + 5 + (0 if single_segment else 1) + (0, 1, 2, 4)[descriptor & 0x03] + content_size
    for _ in range(MAX_ZSTD_BLOCKS):
        raw = bytes(data[at : at + 3])
        if at + 3 > end or len(raw) < 3:
            raise HipError("compressed bundle: zstd frame runs past the section end")
        header = int.from_bytes(raw, "little")
        last, kind, size = header & 1, (header >> 1) & 3, header >> 3
        if kind == 3:
            raise HipError("compressed bundle: zstd block of the reserved type")
        at += 3 + (1 if kind == 1 else size)  # RLE: one byte, repeated `size` times
        if last:
            break
    else:
        raise HipError(f"compressed bundle: zstd frame of over {MAX_ZSTD_BLOCKS} blocks")
    if descriptor & 0x04:  # content checksum
        at += 4
    if at > end:
        raise HipError("compressed bundle: zstd frame runs past the section end")
    return at - pos


def _bundle(data: Any, pos: int, end: int) -> tuple[list[str], int]:
    """The targets of one uncompressed bundle at `pos` and its size (its furthest entry's end)."""
    header = bytes(data[pos : min(end, pos + len(BUNDLE_MAGIC) + 8)])
    found, size = parse_bundle_header(header + b"", lambda n: bytes(data[pos : min(end, pos + n)]))
    if pos + size > end:
        raise HipError(f"offload bundle claims {size} bytes, past the section end")
    return found, size


def parse_bundle_header(first: bytes, read: Any) -> tuple[list[str], int]:
    """Entry IDs -> targets, and the bundle's extent. `read(n)` gives the bundle's first n bytes
    (a mapped section, or a decompressed stream). Raises HipError."""
    at = len(BUNDLE_MAGIC)
    if len(first) < at + 8:
        raise HipError("offload bundle header cut short")
    (count,) = U64.unpack_from(first, at)
    if count == 0 or count > MAX_ENTRIES:
        raise HipError(f"offload bundle with {count} entries")
    # Each entry takes 24 bytes and its ID: read what the IDs can need at most, once.
    head = read(at + 8 + count * (ENTRY.size + MAX_ID))
    pos = at + 8
    targets = []
    extent = 0
    for _ in range(count):
        if len(head) < pos + ENTRY.size:
            raise HipError("offload bundle entry table cut short")
        offset, size, length = ENTRY.unpack_from(head, pos)
        pos += ENTRY.size
        if length == 0 or length > MAX_ID or len(head) < pos + length:
            raise HipError(f"offload bundle entry ID of {length} bytes")
        try:
            entry_id = head[pos : pos + length].decode("ascii")
        except UnicodeDecodeError:
            raise HipError("offload bundle entry ID is not text") from None
        pos += length
        extent = max(extent, offset + size)
        target = bundle_target(entry_id)
        if target is not None:
            targets.append(target)
    return targets, max(extent, pos)


def _compressed(data: Any, pos: int, end: int) -> tuple[list[str] | None, int | None, str]:
    """(targets or None where unread, total size or None where v1 states none, why unread)."""
    fixed = bytes(data[pos + 4 : pos + 8])
    if len(fixed) < 4:
        raise HipError("compressed bundle header cut short")
    version, method = CCOB_FIXED.unpack(fixed)
    if version == 1:
        header, total = V1_HEADER, None
    elif version == 2:
        header = 4 + 4 + 4 + 4 + 8
        raw = bytes(data[pos + 8 : pos + 12])
        total = struct.unpack("<I", raw)[0] if len(raw) == 4 else 0
    elif version == 3:
        header = 4 + 4 + 8 + 8 + 8
        raw = bytes(data[pos + 8 : pos + 16])
        total = U64.unpack(raw)[0] if len(raw) == 8 else 0
    else:
        raise HipError(f"compressed bundle version {version}")
    if total is not None and (total <= header or pos + total > end):
        raise HipError(f"compressed bundle of {total} bytes overruns the section")
    stop = end if total is None else pos + total
    payload = bytes(data[pos + header : min(stop, pos + header + COMPRESSED_IN)])
    if method == 0:
        try:
            out = zlib.decompressobj().decompress(payload, HEADER_OUT)
        except zlib.error:
            raise HipError("compressed bundle: zlib data is corrupt") from None
    elif method == 1:
        decompressed = _zstd(payload)
        if decompressed is None:
            why = "zstd-compressed bundles not read: install `zstandard` to read their targets"
            return None, total, why
        out = decompressed
    else:
        raise HipError(f"compressed bundle method {method}")
    if not out.startswith(BUNDLE_MAGIC):
        raise HipError("compressed bundle does not hold an offload bundle")
    targets, _extent = parse_bundle_header(out, lambda n: out[:n])
    return targets, total, ""


def _zstd(payload: bytes) -> bytes | None:
    """The first HEADER_OUT bytes of a zstd stream; None where no zstd module is importable."""
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14

        try:
            return bytes(zstd.ZstdDecompressor().decompress(payload, HEADER_OUT))
        except zstd.ZstdError:
            raise HipError("compressed bundle: zstd data is corrupt") from None
    except ImportError:
        pass
    try:
        import io

        import zstandard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(payload))
        return bytes(reader.read(HEADER_OUT))
    except zstandard.ZstdError:
        raise HipError("compressed bundle: zstd data is corrupt") from None


def read_offloading(data: Any, start: int, end: int) -> HipCode:
    """The AMD targets of the LLVM OffloadBinary images in data[start:end] (`.llvm.offloading`)."""
    targets: set[str] = set()
    count = 0
    pos = start
    while end - pos >= OFFLOAD_HEADER.size and count < MAX_BUNDLES:
        if bytes(data[pos : pos + 4]) != OFFLOAD_MAGIC:
            window = bytes(data[pos : min(end, pos + ALIGN_GAP)])
            rest = window.lstrip(b"\0")
            if rest and not rest.startswith(OFFLOAD_MAGIC):
                raise HipError(f"no offload binary at section offset {pos - start}")
            pos += len(window) - len(rest)
            continue
        _magic, _version, size, entries_at, entries_size = OFFLOAD_HEADER.unpack_from(data, pos)
        if size < OFFLOAD_HEADER.size or pos + size > end:
            raise HipError(f"offload binary of {size} bytes overruns the section")
        if entries_at + entries_size > size or entries_size > MAX_ENTRIES * OFFLOAD_ENTRY.size:
            raise HipError("offload binary entries past its end")
        for n in range(entries_size // OFFLOAD_ENTRY.size):
            entry = OFFLOAD_ENTRY.unpack_from(data, pos + entries_at + n * OFFLOAD_ENTRY.size)
            strings_at, strings = entry[3], entry[4]
            if strings > 64 or strings_at + strings * 16 > size:
                raise HipError("offload binary string table past its end")
            values = {}
            for s in range(strings):
                key_at, value_at = struct.unpack_from("<QQ", data, pos + strings_at + s * 16)
                values[_cstring(data, pos, size, key_at)] = _cstring(data, pos, size, value_at)
            triple, arch = values.get("triple", ""), values.get("arch", "")
            amdgcn = triple.startswith("amdgcn") and split_target_id(arch) is not None
            if amdgcn or (triple.startswith("spirv64-amd") and arch == SPIRV):
                targets.add(arch)
        count += 1
        pos += (size + 7) // 8 * 8
    return HipCode(tuple(sorted(targets, key=target_key)), count, 0, 0)


def _cstring(data: Any, base: int, size: int, at: int) -> str:
    if at >= size:
        raise HipError("offload binary string past its end")
    raw = bytes(data[base + at : base + min(size, at + 256)])
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")
