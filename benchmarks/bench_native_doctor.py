"""What reading the native files adds to `compat doctor` (issue 33 item 5), on a real environment.

    python benchmarks/bench_native_doctor.py --site DIR [--runs 7]

DIR is a site-packages holding real wheels' files (torch, torchaudio, xformers, bitsandbytes:
`pip install --target DIR ...` or an existing venv's). The script copies DIR's dist-info
directories alone into a twin directory (the same distributions, no native file on disk, so the
inventory finds nothing to read) and times, in alternating rounds:

- `doctor --path DIR` with an empty cache directory: **cold** (every ELF header read);
- `doctor --path DIR` with the cache the cold run left: **warm**;
- `doctor --path TWIN`: the same metadata, no native file.

It prints the medians and warm minus twin (the target: at most 0.1 s) and cold (at most 2 s).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(site: Path, cache: Path) -> float:
    env = {**os.environ, "COMPAT_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    argv = [sys.executable, "-m", "compat", "doctor", "--path", str(site), "--no-probe"]
    argv += ["--format", "json"]
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr.decode(errors="replace"))
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        twin = Path(scratch) / "twin"
        twin.mkdir()
        for meta in args.site.glob("*.dist-info"):
            shutil.copytree(meta, twin / meta.name)
        cold, warm, plain = [], [], []
        for n in range(args.runs):
            cache = Path(scratch) / f"cache-{n}"
            cold.append(run(args.site, cache))
            warm.append(run(args.site, cache))
            plain.append(run(twin, cache))
    median = statistics.median
    print(f"doctor on {args.site}, {args.runs} rounds (medians)")
    print(f"  cold (no cache):          {median(cold):.3f} s")
    print(f"  warm (cache of the cold): {median(warm):.3f} s")
    print(f"  same metadata, no files:  {median(plain):.3f} s")
    print(
        f"  warm - no files:          {median(w - p for w, p in zip(warm, plain, strict=True)):+.3f} s"
    )


if __name__ == "__main__":
    main()
