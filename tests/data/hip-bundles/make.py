"""Regenerate the bundles in this folder with the real tools (issue 43, the format gaps):
`clang-offload-bundler-14` (Debian clang-tools-14) writes the offload bundles, the `zstd` command
and zlib compress them, and a compressed bundle v1 header (LLVM OffloadBundler.cpp,
RawCompressedBundleHeader::V1Header: magic `CCOB`, version u16, method u16, uncompressed size
u32, hash u64) is put in front. Run from the repository root: `python
tests/data/hip-bundles/make.py [OUTDIR]`; tests/unit/binary/test_hip_tools.py runs it into a
temporary folder where the tools are installed and checks the output reads as the committed
bytes do.

The code objects are stand-ins (bytes the bundler does not look into): pseudo-random bytes,
which neither compressor can shrink, with `CCOB` in them, so the compressed streams carry the
bytes `CCOB` where a search for the next bundle's magic would stop."""

from __future__ import annotations

import random
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

BUNDLER = "clang-offload-bundler-14"
HOST = "host-x86_64-unknown-linux-gnu"


def code_object(seed: int, size: int = 3000) -> bytes:
    """Noise with `CCOB` and a v1 zlib header's next bytes near its end (deflate stores the
    blocks of noise as they are, after a first block that also codes the bundle header)."""
    noise = random.Random(seed).randbytes(size)
    cut = size - 200
    return b"\x7fELF" + noise[:cut] + b"CCOB\x01\x00\x00\x00" + noise[cut:]


def bundle(work: Path, name: str, targets: list[str], seed: int, size: int = 3000) -> bytes:
    """clang-offload-bundler's bundle of one stand-in code object per target (host: empty)."""
    inputs = ["/dev/null"]
    for n, _target in enumerate(targets):
        path = work / f"{name}.{n}.co"
        path.write_bytes(code_object(seed + n, size))
        inputs.append(str(path))
    out = work / f"{name}.hipfb"
    subprocess.run(
        [
            BUNDLER,
            "--type=o",
            "--bundle-align=4096",
            "--targets=" + ",".join([HOST, *targets]),
            "--inputs=" + ",".join(inputs),
            f"--outputs={out}",
        ],
        check=True,
    )
    return out.read_bytes()


def ccob_v1(inner: bytes, method: int, payload: bytes) -> bytes:
    header = b"CCOB" + struct.pack("<HHIQ", 1, method, len(inner), 0x43434F42)
    return header + payload


def zstd(work: Path, data: bytes) -> bytes:
    raw = work / "zstd.in"
    raw.write_bytes(data)
    subprocess.run(["zstd", "-q", "-f", "-19", str(raw), "-o", str(work / "zstd.out")], check=True)
    return (work / "zstd.out").read_bytes()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = bundle(
            work,
            "env",
            [
                "hip-amdgcn-amd-amdhsa-unknown-gfx90a",
                "hipv4-amdgcn-amd-amdhsa-unknown-gfx942:sramecc+:xnack-",
            ],
            1,
        )
        generic = bundle(
            work,
            "generic",
            [
                "hipv4-amdgcn-amd-amdhsa-unknown-gfx11-generic",
                "hipv4-amdgcn-amd-amdhsa--gfx9-4-generic:xnack-",
            ],
            3,
        )
        first = bundle(work, "first", ["hipv4-amdgcn-amd-amdhsa--gfx1100"], 5)
        second = bundle(work, "second", ["hipv4-amdgcn-amd-amdhsa--gfx1201"], 6, 40000)
        with_zstd = ccob_v1(first, 1, zstd(work, first))
        with_zlib = ccob_v1(second, 0, zlib.compress(second, 9))
    for name, blob in (("with_zstd", with_zstd), ("with_zlib", with_zlib)):
        assert b"CCOB" in blob[20:], f"{name}: the compressed stream lost the stray magic"
    (out / "env-triple.hipfb").write_bytes(env)
    (out / "generic.hipfb").write_bytes(generic)
    (out / "ccob-v1-zstd.bin").write_bytes(with_zstd)
    (out / "ccob-v1-zlib.bin").write_bytes(with_zlib)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
