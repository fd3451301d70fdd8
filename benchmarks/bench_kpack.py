"""Time to read a TheRock `.kpack` archive's TOC (compat.binary.kpack.read_archive), the cost
doctor pays once per archive a multi-arch library's `.rocm_kpack_ref` names: archives written as
ROCm/rocm-kpack documents them (tests/lib/kpackbuild.py), with 1,000 to 20,000 code objects
(torch's libraries register thousands), "none" scheme (a blob entry per code object: the TOC's
largest shape). Only the targets are built; the blob list and entries are skipped.

Run: .venv/bin/python benchmarks/bench_kpack.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compat.binary.kpack import read_archive
from tests.lib.kpackbuild import archive

SIZES = (1_000, 5_000, 20_000)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print("| code objects | TOC bytes | median s |")
    print("| --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            path = Path(tmp) / f"torch_gfx942_{n}.kpack"
            data = archive({f"torch/lib/libtorch_hip.so#{i}": ["gfx942"] for i in range(n)})
            path.write_bytes(data)
            times = []
            for _ in range(args.runs):
                start = time.perf_counter()
                toc = read_archive(str(path))
                times.append(time.perf_counter() - start)
            assert len(toc) == n
            print(f"| {n} | {len(data) - 64 - 64 * n} | {statistics.median(times):.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
