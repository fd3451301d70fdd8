"""Score compat's reading of the HIP code objects of real ELF files against LLVM's tools (issue
43, the format gaps): a measure, not a test. For each file given, the truth is
`clang-offload-bundler-14 --list --type=o` on each bundle of `.hip_fatbin`, a compressed bundle
decompressed whole first (zlib by Python, zstd by the `zstd` command; v2/v3 state their size,
v1 is cut where the next bundle starts as the file's own section lays them out), and compat's
answer is compat.binary.elf.read_elf(path).hip.targets of whichever compat is imported. Usage:
`python score.py FILE...`; prints one line per file and the total."""

from __future__ import annotations

import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from compat.binary.elf import read_elf
from compat.binary.gfxtarget import bundle_target

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
from hip_fixtures import section  # the fixture script's ELF section reader, not a package

BUNDLE = b"__CLANG_OFFLOAD_BUNDLE__"


def wholes(data: bytes, start: int, end: int) -> list[bytes]:
    out = []
    pos = start
    while pos < end:
        if data[pos : pos + 24] == BUNDLE:
            (count,) = struct.unpack_from("<Q", data, pos + 24)
            at, extent = pos + 32, 0
            for _ in range(count):
                offset, size, length = struct.unpack_from("<QQQ", data, at)
                at += 24 + length
                extent = max(extent, offset + size)
            out.append(data[pos : pos + max(extent, at - pos)])
            pos += max(extent, at - pos)
        elif data[pos : pos + 4] == b"CCOB":
            version, method = struct.unpack_from("<HH", data, pos + 4)
            header, total = {3: (32, None), 2: (24, None)}.get(version, (20, None))
            if version == 3:
                total = struct.unpack_from("<Q", data, pos + 8)[0]
            elif version == 2:
                total = struct.unpack_from("<I", data, pos + 8)[0]
            else:
                raise SystemExit("v1: not scored by this script (no real v1 bundle was found)")
            payload = data[pos + header : pos + total]
            if method == 0:
                out.append(zlib.decompress(payload))
            else:
                done = subprocess.run(
                    ["zstd", "-dc"], input=payload, capture_output=True, check=True
                )
                out.append(done.stdout)
            pos += total
        elif data[pos] == 0:
            pos += 1
        else:
            raise SystemExit(f"no bundle at {pos:#x}")
    return out


def truth(path: Path, scratch: Path) -> list[str] | None:
    data = path.read_bytes()
    found = section(data, b".hip_fatbin")
    if found is None:
        return None
    targets: set[str] = set()
    for blob in wholes(data, found[0], found[0] + found[1]):
        (scratch / "b.bin").write_bytes(blob)
        done = subprocess.run(
            ["clang-offload-bundler-14", "--list", "--type=o", f"--inputs={scratch / 'b.bin'}"],
            capture_output=True,
            text=True,
            check=True,
        )
        for entry in done.stdout.split():
            if entry.startswith("host-"):
                continue
            # LLVM's own split (OffloadTargetInfo): the target ID after the last "-" before ":"
            head, _, features = entry.partition(":")
            gpu = head.rsplit("-", 1)[1]
            if "-generic" in head:
                gpu = head[head.index("gfx") :]
            targets.add(gpu + (":" + features if features else ""))
            assert bundle_target(entry) is not None or not gpu.startswith("gfx"), entry
    return sorted(targets)


def main() -> int:
    agree = 0
    files = [Path(p) for p in sys.argv[1:]]
    with tempfile.TemporaryDirectory() as temp:
        for path in files:
            expected = truth(path, Path(temp))
            hip = read_elf(str(path)).hip
            got = sorted(hip.targets) if hip is not None else None
            ok = got == expected
            agree += ok
            print(f"{'ok  ' if ok else 'MISS'} {path.name}: llvm {expected} compat {got}")
    print(f"files agreeing: {agree}/{len(files)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
