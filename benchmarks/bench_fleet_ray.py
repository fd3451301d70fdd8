"""Speed of `compat fleet --ray` (issue #13) on a 3-node Ray cluster on this machine.

Starts ray.cluster_utils.Cluster (head + 2 workers, 127.0.0.1), then times `compat fleet --ray
ADDRESS --format json` in a fresh interpreter: import, connect, one pinned task per node (a new
job each run, so the workers and the runtime env are set up each time), shutdown. The Ray
settings below are for a single machine (see research/fleet-ray.md), set before `import ray`.

Run: .venv/bin/python benchmarks/bench_fleet_ray.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
os.environ.setdefault("RAY_AUTH_MODE", "disabled")
os.environ["RAY_TMPDIR"] = tempfile.mkdtemp(prefix="cb", dir="/tmp")

from benchmarks.common import run_once

NODE = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "object_store_memory": 80 * 2**20}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from ray.cluster_utils import Cluster

    started = time.perf_counter()
    cluster = Cluster(initialize_head=True, head_node_args=NODE)
    for _ in range(2):
        cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    print(f"cluster start (head + 2): {time.perf_counter() - started:.1f} s")
    try:
        command = [sys.executable, "-m", "compat", "fleet", "--ray", cluster.address, "-f", "json"]
        samples = [run_once(command, dict(os.environ)) for _ in range(args.runs)]
        print(
            f"compat fleet --ray, 3 nodes: median {statistics.median(samples):.2f} s, "
            f"min {min(samples):.2f} s, max {max(samples):.2f} s ({args.runs} runs)"
        )
    finally:
        cluster.shutdown()
        shutil.rmtree(os.environ["RAY_TMPDIR"], ignore_errors=True)


if __name__ == "__main__":
    main()
