#!/usr/bin/env python3
"""Regenerate tests/data/native-rocm/: skeletons of the native files of real ROCm wheels (issue 43).

The wheels (WHEELS, pinned by sha256) carry HIP device code: jax's ROCm plugins (a plain clang
offload bundle per file in jax-rocm60-plugin 0.5.0; zstd-compressed `CCOB` v3 bundles with
generic targets in jax-rocm7-plugin 0.10.0) and cupy-rocm-5-0 13.3.0 (plain bundles for the
ROCm 5.0 targets) and onnxruntime-rocm 1.22.2.post3 (95 plain bundles in its ROCm execution
provider, 0.5 GB) and bitsandbytes 0.50.2 (one library per ROCm release, zstd `CCOB`
bundles, targets differing between them). A skeleton keeps what scripts/native_fixtures.py keeps (ELF headers, section
table, dynamic tables) plus, in `.hip_fatbin`, each bundle's header and entry table (a plain
bundle), or a compressed bundle's header and the first 256 KiB of its compressed stream (what a
reader decompresses to reach the entry IDs). Every other byte is zero.

Each file's targets are checked, at generation, against LLVM's own tool on the **original**
file: `clang-offload-bundler --list --type=o` on each bundle of the section (for a compressed
bundle, on the bundle this script decompresses whole: clang-offload-bundler 14, the Debian
clang-tools-14 one, predates compression). The lists and the tool's version go to
tests/data/native-rocm/EXPECTED.md and MANIFEST.json; a skeleton is verified by `readelf
--dyn-syms -d -W` equal to the original's.

Usage: python scripts/hip_fixtures.py --wheels DIR [--bundler PATH]
"""

from __future__ import annotations

import argparse
import json
import lzma
import mmap
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from native_fixtures import (  # a sibling script, not a package
    MAGIC,
    elf_extents,
    merge,
    readelf,
    restore,
    sha256_file,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "native-rocm"
BUNDLE = b"__CLANG_OFFLOAD_BUNDLE__"
KEEP_COMPRESSED = 256 * 1024

# (project, version, wheel file, sha256, members: None = every ELF member)
WHEELS = (
    (
        "jax-rocm60-plugin",
        "0.5.0",
        "jax_rocm60_plugin-0.5.0-cp311-cp311-manylinux_2_28_x86_64.whl",
        "05414df017d473b77cae3b04e69d199cbdaa2ddb7cff0801edbae84f37a74308",
        None,
    ),
    (
        "jax-rocm7-plugin",
        "0.10.0",
        "jax_rocm7_plugin-0.10.0-cp311-cp311-manylinux_2_28_x86_64.whl",
        "41fc46f1ce64207f8f144cb0d89f304dadd4a4f4de5c541ad44de380afad43bd",
        None,
    ),
    (
        "cupy-rocm-5-0",
        "13.3.0",
        "cupy_rocm_5_0-13.3.0-cp311-cp311-manylinux2014_x86_64.whl",
        "00907762735d182737bee317f532dc381337fb8e978bd846acb268df463b2d7b",
        (
            "cupy/random/_generator_api.cpython-311-x86_64-linux-gnu.so",
            "cupy/cuda/cub.cpython-311-x86_64-linux-gnu.so",
            "cupy/cuda/thrust.cpython-311-x86_64-linux-gnu.so",
        ),
    ),
    (
        "onnxruntime-rocm",
        "1.22.2.post3",
        "onnxruntime_rocm-1.22.2.post3-cp311-cp311-manylinux_2_34_x86_64.whl",
        "705596b48933446ae6766921c5c8a46ef42f0c735bf158b6eb44a60bf7f95230",
        (
            "onnxruntime/capi/libonnxruntime_providers_rocm.so",
            "onnxruntime/capi/libonnxruntime_providers_shared.so",
        ),
    ),
    (
        "bitsandbytes",
        "0.50.2",
        "bitsandbytes-0.50.2-py3-none-manylinux_2_24_x86_64.whl",
        "55348a9a4a21bfd99cf8c7b32fe67b4030ae5c2a05738e03c1747f65fa6ec283",
        tuple(
            f"bitsandbytes/libbitsandbytes_rocm{tag}.so"
            for tag in ("64", "70", "71", "714", "715", "72")
        ),
    ),
)


def section(data: mmap.mmap, name: bytes) -> tuple[int, int] | None:
    """(offset, size) of a PROGBITS section by name (64-bit little-endian ELF)."""
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)[0]
    for index in range(shnum):
        at = shoff + index * shentsize
        label, kind = struct.unpack_from("<II", data, at)
        offset, size = struct.unpack_from("<QQ", data, at + 0x18)
        end = data.find(b"\0", names + label)
        if data[names + label : end] == name and kind != 8:
            return offset, size
    return None


def bundles(data: mmap.mmap, start: int, end: int) -> list[tuple[int, int, bytes | None]]:
    """(offset, kept length, whole uncompressed bundle or None) of every bundle in the section."""
    found = []
    pos = start
    while pos < end:
        if data[pos : pos + 24] == BUNDLE:
            (count,) = struct.unpack_from("<Q", data, pos + 24)
            at = pos + 32
            extent = 0
            for _ in range(count):
                offset, size, length = struct.unpack_from("<QQQ", data, at)
                at += 24 + length
                extent = max(extent, offset + size)
            found.append((pos, at - pos, bytes(data[pos : pos + max(extent, at - pos)])))
            pos += max(extent, at - pos)
        elif data[pos : pos + 4] == b"CCOB":
            version, method = struct.unpack_from("<HH", data, pos + 4)
            if version == 3:
                total, _raw, _hash = struct.unpack_from("<QQQ", data, pos + 8)
                header = 32
            elif version == 2:
                total, _raw, _hash = struct.unpack_from("<IIQ", data, pos + 8)
                header = 24
            else:
                raise SystemExit(f"CCOB version {version}: not written by this script")
            payload = bytes(data[pos + header : pos + total])
            if method == 0:
                whole = zlib.decompress(payload)
            else:
                import zstandard

                whole = zstandard.ZstdDecompressor().decompressobj().decompress(payload)
            found.append((pos, min(total, header + KEEP_COMPRESSED), whole))
            pos += total
        elif data[pos] == 0:
            pos += 1
        else:
            raise SystemExit(f"no bundle at {pos:#x}")
    return found


def bundler_list(tool: str, blob: bytes, scratch: Path) -> list[str]:
    path = scratch / "bundle.bin"
    path.write_bytes(blob)
    done = subprocess.run(
        [tool, "--list", "--type=o", f"--inputs={path}"], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def target(entry: str) -> str | None:
    kind, _, rest = entry.partition("-")
    if kind in ("hip", "hipv4") and rest.startswith("amdgcn-amd-amdhsa"):
        return rest[len("amdgcn-amd-amdhsa") :].lstrip("-")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheels", type=Path, required=True)
    parser.add_argument(
        "--bundler",
        default=shutil.which("clang-offload-bundler")
        or "/usr/lib/llvm-14/bin/clang-offload-bundler",
    )
    args = parser.parse_args()
    version = (
        subprocess.run([args.bundler, "--version"], capture_output=True, text=True, check=True)
        .stdout.split("\n")[0]
        .strip()
    )
    provenance = OUT / "PROVENANCE.md"
    kept_text = provenance.read_text() if provenance.is_file() else None
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    if kept_text is not None:  # written by hand: kept across regenerations
        provenance.write_text(kept_text)
    wheels = []
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        scratch = Path(temp)
        for project, release, filename, digest, members in WHEELS:
            path = args.wheels / filename
            if sha256_file(path) != digest:
                raise SystemExit(f"{filename}: sha256 differs from its pin")
            folder = OUT / filename.removesuffix(".whl")
            entry: dict[str, object] = {
                "wheel": filename,
                "project": project,
                "version": release,
                "sha256": digest,
            }
            dist_info, kept = [], []
            with zipfile.ZipFile(path) as archive:
                for info in archive.infolist():
                    parts = info.filename.split("/")
                    if (
                        len(parts) == 2
                        and parts[0].endswith(".dist-info")
                        and parts[1]
                        in (
                            "METADATA",
                            "RECORD",
                            "WHEEL",
                        )
                    ):
                        out = folder / (info.filename + ".xz")
                        out.parent.mkdir(parents=True, exist_ok=True)
                        out.write_bytes(lzma.compress(archive.read(info), preset=9))
                        dist_info.append(info.filename)
                        continue
                    if info.is_dir() or ".dist-info/" in info.filename:
                        continue
                    if members is not None and info.filename not in members:
                        continue
                    with archive.open(info) as member:
                        if member.read(4) != b"\x7fELF":
                            continue
                    original = scratch / "original"
                    with archive.open(info) as member, original.open("wb") as handle:
                        shutil.copyfileobj(member, handle, 1 << 22)
                    record = skeleton(original, folder, info.filename, args.bundler, scratch)
                    kept.append(record)
                    rows.append((filename, record))
            entry["dist_info"] = dist_info
            entry["members"] = kept
            wheels.append(entry)
    manifest = {
        "about": "Real ROCm wheels behind tests/data/native-rocm/ (scripts/hip_fixtures.py).",
        "bundler": version,
        "wheels": wheels,
    }
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    lines = [
        "# What the ROCm fixtures hold (measured; regenerate with scripts/hip_fixtures.py)",
        "",
        f"Targets listed by `{version}` (`clang-offload-bundler --list --type=o`) on each",
        "bundle of each original file's `.hip_fatbin` (a compressed bundle decompressed whole",
        "by the script first), host entries left out, sorted and unique. Do not edit by hand.",
        "",
        "| wheel | file | bundles | compressed | targets |",
        "| --- | --- | --- | --- | --- |",
    ]
    for filename, record in rows:
        hip = record.get("hip")
        if isinstance(hip, dict):
            lines.append(
                f"| {filename} | `{record['path']}` | {hip['bundles']} | {hip['compressed']} | "
                f"{', '.join(hip['targets'])} |"
            )
        else:
            lines.append(f"| {filename} | `{record['path']}` | 0 | 0 | (no .hip_fatbin) |")
    (OUT / "EXPECTED.md").write_text("\n".join(lines) + "\n")
    return 0


def skeleton(
    original: Path, folder: Path, name: str, bundler: str, scratch: Path
) -> dict[str, object]:
    with (
        original.open("rb") as handle,
        mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data,
    ):
        extents = list(elf_extents(data).extents)
        record: dict[str, object] = {
            "path": name,
            "size": len(data),
            "sha256": sha256_file(original),
        }
        where = section(data, b".hip_fatbin")
        if where is not None:
            found = bundles(data, where[0], where[0] + where[1])
            targets: set[str] = set()
            for start, length, whole in found:
                extents.append((start, length))
                assert whole is not None
                listed = bundler_list(bundler, whole, scratch)
                targets.update(t for e in listed if (t := target(e)) is not None)
            record["hip"] = {
                "bundles": len(found),
                "compressed": sum(1 for s, _l, _w in found if data[s : s + 4] == b"CCOB"),
                "targets": sorted(targets),
                "checked_by": "clang-offload-bundler --list",
            }
        length = len(data)
        parts = [MAGIC, struct.pack("<QI", length, 0)]
        merged = merge(extents)
        parts[1] = struct.pack("<QI", length, len(merged))
        for start, size in merged:
            parts.append(struct.pack("<QQ", start, size))
            parts.append(data[start : start + size])
    target_path = folder / (name + ".skel.xz")
    target_path.parent.mkdir(parents=True, exist_ok=True)
    target_path.write_bytes(lzma.compress(b"".join(parts), preset=9 | lzma.PRESET_EXTREME))
    restored = scratch / "restored"
    restore(target_path, restored)
    if readelf(original) != readelf(restored):
        raise SystemExit(f"{name}: readelf of the skeleton differs")
    record["skeleton"] = str(target_path.relative_to(OUT))
    record["skeleton_bytes"] = target_path.stat().st_size
    return record


if __name__ == "__main__":
    raise SystemExit(main())
