"""What the GPU probe adds to `compat doctor` on this machine (issue #3: at most 50 ms without a
driver). Measures, in fresh interpreters, the probe itself (import of the NVML binding, the
bounded NVML call, /proc and /sys reads) and the doctor run with and without --no-probe.

Run: .venv/bin/python benchmarks/bench_probe.py [--runs 21]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK, timed_together
from tests.dists import make_env

PROBE_ONLY = (
    "import time; from compat.probes import gpu; t = time.perf_counter(); gpu.probe_hardware();"
    " print(time.perf_counter() - t)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    env = {**os.environ, "COMPAT_CACHE_DIR": str(WORK / "cache-probe")}
    samples = []
    for _ in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-c", PROBE_ONLY], capture_output=True, text=True, env=env, check=True
        )
        samples.append(float(out.stdout.strip()))
    site = WORK / "probe-site"
    if not site.exists():
        make_env(site, {"deepspeed": "0.14.2", "torch": "2.3.0+cu121", "trl": "0.15.1"})
    compat = [sys.executable, "-m", "compat", "doctor", "--path", str(site), "--format", "json"]
    times = timed_together({"probe": compat, "no_probe": [*compat, "--no-probe"]}, args.runs, env)
    print(
        f"probe_hardware() in a fresh interpreter: {statistics.median(samples) * 1000:.1f} ms (median of {args.runs})"
    )
    print(f"doctor with the probe:    {times['probe'] * 1000:.1f} ms")
    print(f"doctor with --no-probe:   {times['no_probe'] * 1000:.1f} ms")
    print(
        f"the probe adds            {(times['probe'] - times['no_probe']) * 1000:.1f} ms   (target <= 50 ms)"
    )


if __name__ == "__main__":
    main()
