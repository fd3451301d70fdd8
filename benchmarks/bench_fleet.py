"""Speed of `compat fleet --reports` (issue #13): merging N per-node doctor reports.

Writes (under benchmarks/.work/fleet/) N copies of a real `compat doctor --format json` report of
a 300-distribution training stack, each with its own host and some nodes with another driver and
NCCL (so heterogeneity findings are computed, not skipped), then times
`compat fleet --reports DIR --format json` in a fresh interpreter, and the doctor run that wrote
the first report, for scale.

Run: .venv/bin/python benchmarks/bench_fleet.py [--nodes 64] [--runs 11]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK, timed_together
from tests.dists import make_env

STACK = {
    "torch": "2.3.0+cu121", "deepspeed": "0.14.2", "transformers": "4.40.0", "vllm": "0.7.1",
    "flash-attn": "2.5.8", "accelerate": "0.30.1", "nvidia-nccl-cu12": "2.20.5",
}  # fmt: skip
PROFILE = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [{"index": i, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"} for i in range(8)],
}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=64)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    work = WORK / "fleet"
    shutil.rmtree(work, ignore_errors=True)
    site = make_env(work / "site", {**STACK, **{f"filler-{i}": "1.0" for i in range(293)}})
    (work / "hw.json").write_text(json.dumps(PROFILE), encoding="utf-8")
    compat = [sys.executable, "-m", "compat"]
    doctor = [*compat, "doctor", "--path", str(site), "--hardware", str(work / "hw.json")]
    proc = subprocess.run(
        [*doctor, "--format", "json"], capture_output=True, text=True, check=False
    )
    report = json.loads(proc.stdout)
    reports = work / "reports"
    reports.mkdir()
    for index in range(args.nodes):
        node = dict(report)
        node["host"] = {"hostname": f"gpu{index:03d}", "ip": f"10.0.0.{index}", "slurm_node": None}
        if index % 16 == 5:  # a few nodes drift, as they do
            node["hardware"] = {**PROFILE, "driver_version": "550.54.15"}
            node["stack"] = {
                **report["stack"],
                "builds": {**report["stack"]["builds"], "nccl": "2.21.5"},
            }
        (reports / f"gpu{index:03d}.json").write_text(json.dumps(node, indent=2), encoding="utf-8")
    size = sum(p.stat().st_size for p in reports.iterdir())
    env = dict(os.environ)
    times = timed_together(
        {
            "fleet": [*compat, "fleet", "--reports", str(reports), "--format", "json"],
            "doctor": doctor,
        },
        args.runs,
        env,
    )
    print(f"{args.nodes} reports, {size / 1024:.0f} KiB in all")
    print(
        f"fleet --reports (merge {args.nodes}): {times['fleet'] * 1000:.0f} ms (median of {args.runs})"
    )
    print(f"doctor (one node, for scale):   {times['doctor'] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
