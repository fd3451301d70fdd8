"""TheRock's kpack files, written as ROCm/rocm-kpack documents them (python/rocm_kpack/kpack.py
`PackedKernelArchive.write`, elf_offload_kpacker.py's marker): a `.rocm_kpack_ref` marker
(MessagePack `{"kpack_search_paths": [...], "kernel_name": ...}`) and `.kpack` archives (the
16-byte `<4sIQ` header `KPAK`, version, TOC offset; blobs at 64-byte alignment; a MessagePack
TOC). A MessagePack writer of its own, so the tests never use the reader they test."""

from __future__ import annotations

import struct
from typing import Any


def msgpack(value: Any) -> bytes:
    """MessagePack of str, int >= 0, bool, None, list and dict (what the format writes)."""
    if value is None:
        return b"\xc0"
    if value is True or value is False:
        return b"\xc3" if value else b"\xc2"
    if isinstance(value, int):
        if value < 0x80:
            return bytes([value])
        return b"\xcf" + struct.pack(">Q", value)
    if isinstance(value, str):
        data = value.encode()
        if len(data) < 32:
            return bytes([0xA0 | len(data)]) + data
        return b"\xda" + struct.pack(">H", len(data)) + data
    if isinstance(value, list):
        head = (
            bytes([0x90 | len(value)])
            if len(value) < 16
            else b"\xdc" + struct.pack(">H", len(value))
        )
        return head + b"".join(msgpack(v) for v in value)
    if isinstance(value, dict):
        head = (
            bytes([0x80 | len(value)])
            if len(value) < 16
            else b"\xde" + struct.pack(">H", len(value))
        )
        return head + b"".join(msgpack(k) + msgpack(v) for k, v in value.items())
    raise TypeError(type(value))


def marker(kernel_name: str, *search_paths: str) -> bytes:
    return msgpack({"kpack_search_paths": list(search_paths), "kernel_name": kernel_name})


def archive(
    kernels: dict[str, list[str]],
    *,
    group: str = "torch",
    family: str = "gfx942",
    arches: list[str] | None = None,
    magic: bytes = b"KPAK",
    version: int = 1,
    toc: bytes | None = None,
    toc_offset: int | None = None,
) -> bytes:
    """A `.kpack` with one zero blob per (binary key, target) of `kernels` ("none" scheme)."""
    blobs: list[dict[str, int]] = []
    entries: dict[str, dict[str, dict[str, Any]]] = {}
    body = bytearray()
    ordinal = 0
    for key, targets in kernels.items():
        entries[key] = {}
        for target in targets:
            blobs.append({"offset": 64 + len(body), "size": 64})
            entries[key][target] = {"type": "hsaco", "ordinal": ordinal, "original_size": 64}
            body += bytes(64)
            ordinal += 1
    document = {
        "format_version": 1,
        "group_name": group,
        "gfx_arch_family": family,
        "gfx_arches": arches
        if arches is not None
        else sorted({t for ts in kernels.values() for t in ts}),
        "toc": entries,
        "compression_scheme": "none",
        "blobs": blobs,
    }
    encoded = msgpack(document) if toc is None else toc
    offset = 64 + len(body) if toc_offset is None else toc_offset
    header = struct.pack("<4sIQ", magic, version, offset)
    return header + bytes(64 - len(header)) + bytes(body) + encoded
