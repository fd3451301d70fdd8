"""HIP device-code containers as clang and LLVM write them, for ELF sections in tests: clang
offload bundles (ClangOffloadBundler.html), compressed `CCOB` bundles v1/v2/v3 (LLVM
OffloadBundler.cpp, CompressedOffloadBundle) and LLVM OffloadBinary images (OffloadBinary.h)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

HOST = "host-x86_64-unknown-linux-gnu-"
SPIRV_ID = "hip-spirv64-amd-amdhsa--amdgcnspirv"  # clang HIPSupport.rst, SPIR-V on HIPAMD


def bundle(
    targets: Sequence[str], *, host: bool = True, code: bytes = b"\x7fELF" + b"\0" * 60
) -> bytes:
    """An uncompressed bundle: the host entry (empty) and one code object per target ID
    (`amdgcnspirv`: the SPIR-V entry as clang names it, `hip-spirv64-amd-amdhsa--amdgcnspirv`)."""
    ids = ([HOST] if host else []) + [
        SPIRV_ID if t == "amdgcnspirv" else f"hipv4-amdgcn-amd-amdhsa--{t}" for t in targets
    ]
    header = len(b"__CLANG_OFFLOAD_BUNDLE__") + 8 + sum(24 + len(i) for i in ids)
    offset = (header + 4095) // 4096 * 4096
    table = b""
    blobs = b""
    for entry_id in ids:
        size = 0 if entry_id == HOST else len(code)
        table += struct.pack("<QQQ", offset + len(blobs), size, len(entry_id)) + entry_id.encode()
        if size:
            blobs += code
    head = b"__CLANG_OFFLOAD_BUNDLE__" + struct.pack("<Q", len(ids)) + table
    return head + b"\0" * (offset - len(head)) + blobs


def ccob(inner: bytes, *, version: int = 2, method: int = 0) -> bytes:
    """A compressed bundle of `inner` (method 0 zlib, 1 zstd: needs `zstandard`)."""
    if method == 0:
        payload = zlib.compress(inner)
    else:
        import zstandard  # type: ignore[import-not-found,unused-ignore]

        payload = zstandard.ZstdCompressor().compress(inner)
    fixed = b"CCOB" + struct.pack("<HH", version, method)
    if version == 1:
        return fixed + struct.pack("<IQ", len(inner), 0x1234) + payload
    if version == 2:
        total = 24 + len(payload)
        return fixed + struct.pack("<IIQ", total, len(inner), 0x1234) + payload
    total = 32 + len(payload)
    return fixed + struct.pack("<QQQ", total, len(inner), 0x1234) + payload


def aligned(*blobs: bytes) -> bytes:
    """Bundles back to back in a `.hip_fatbin` section, each aligned to 4 KiB as hipcc does."""
    out = b""
    for blob in blobs:
        out += blob + b"\0" * (-len(blob) % 4096)
    return out


def offload_binary(
    arch: str, triple: str = "amdgcn-amd-amdhsa", image: bytes = b"\0" * 16
) -> bytes:
    """One LLVM OffloadBinary (version 1): header, one entry, its string map and image."""
    header = struct.Struct("<IIQQQ")
    entry = struct.Struct("<HHIQQQQ")
    strings = [("triple", triple), ("arch", arch)]
    map_at = header.size + entry.size
    text_at = map_at + 16 * len(strings)
    text = b""
    pairs = b""
    for key, value in strings:
        key_at = text_at + len(text)
        text += key.encode() + b"\0"
        value_at = text_at + len(text)
        text += value.encode() + b"\0"
        pairs += struct.pack("<QQ", key_at, value_at)
    image_at = text_at + len(text)
    size = image_at + len(image)
    return (
        header.pack(0x10FF10AD, 1, size, header.size, entry.size)
        + entry.pack(1, 3, 0, map_at, len(strings), image_at, len(image))
        + pairs
        + text
        + image
    )
