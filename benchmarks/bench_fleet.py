"""Speed and memory of `compat fleet --reports` (issues #13, #28): merging N per-node reports.

Writes (under benchmarks/.work/fleet/) real `compat doctor --format json` reports of a GRPO
training stack (torch, vLLM, TRL, DeepSpeed, transformers, ... with findings) on 8x A100, in two
distinct node states (driver 535 on most nodes, 550 on every tenth), one file per node with its
own hostname, IP and Slurm node name, as `srun compat doctor -o reports/%N.json` leaves them.
Then runs `compat fleet --reports DIR --format json` in a fresh interpreter for each node count
and prints the child's CPU time (user+system: steadier than wall time on a shared machine),
wall time, peak RSS and output size.

Run: .venv/bin/python benchmarks/bench_fleet.py [--nodes 1000 10000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK
from tests.dists import make_env

# A GRPO stack (TRL + vLLM + DeepSpeed) with the drift real clusters show: findings included.
STACK = {
    "torch": "2.6.0+cu124", "vllm": "0.7.2", "trl": "0.14.0", "transformers": "4.45.0",
    "deepspeed": "0.16.3", "accelerate": "0.33.0", "peft": "0.14.0",
    "flash-attn": "2.7.4.post1", "nvidia-nccl-cu12": "2.21.5", "datasets": "3.2.0",
    "triton": "3.1.0", "xformers": "0.0.28.post3",
}  # fmt: skip
STATES = {"535.104.05": "12.2", "550.54.15": "12.4"}  # driver -> CUDA it supports


def profile(driver: str) -> dict[str, Any]:
    return {
        "schema": "compat.hardware/1",
        "driver_version": driver,
        "cuda_driver_version": STATES[driver],
        "gpus": [
            {"index": i, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
            for i in range(8)
        ],
    }


def state_reports(work: Path) -> list[dict[str, Any]]:
    """One real doctor report per node state."""
    site = make_env(work / "site", {**STACK, **{f"filler-{i}": "1.0" for i in range(288)}})
    documents = []
    for driver in STATES:
        hardware = work / f"hw-{driver}.json"
        hardware.write_text(json.dumps(profile(driver)), encoding="utf-8")
        command = [sys.executable, "-m", "compat", "doctor", "--path", str(site)]
        proc = subprocess.run(
            [*command, "--hardware", str(hardware), "--format", "json"],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode not in (0, 1):
            raise SystemExit(f"doctor failed: {proc.stderr[-800:]}")
        documents.append(json.loads(proc.stdout))
    return documents


def write_reports(directory: Path, states: list[dict[str, Any]], nodes: int) -> int:
    directory.mkdir(parents=True)
    size = 0
    for index in range(1, nodes + 1):
        name = f"node{index:05d}"
        report = dict(states[1] if index % 10 == 7 else states[0])
        report["host"] = {
            "hostname": f"{name}.cluster.example",
            "ip": f"10.{index // 65536}.{index // 256 % 256}.{index % 256}",
            "slurm_node": name,
        }
        text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
        (directory / f"{name}.json").write_text(text, encoding="utf-8")
        size += len(text.encode())
    return size


def peak_rss(command: list[str]) -> int:
    """Peak RSS of one run, from a wrapper process of its own (RUSAGE_CHILDREN's maximum is per
    waiting process, so every run gets a fresh one)."""
    probe = (
        "import resource, subprocess, sys;"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL);"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)"
    )
    proc = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True)
    return int(proc.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    work = WORK / "fleet"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    states = state_reports(work)
    print(f"node states: 2 (driver {' / '.join(STATES)}), findings per report: "
          f"{len(states[0]['findings'])}")  # fmt: skip
    for nodes in args.nodes:
        directory = work / f"reports-{nodes}"
        size = write_reports(directory, states, nodes)
        command = [sys.executable, "-m", "compat", "fleet", "--reports", str(directory)]
        command += ["--format", "json"]
        cpu, wall, output = [], [], 0
        for _ in range(args.runs):
            start = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            proc = subprocess.run(command, capture_output=True, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall.append(time.perf_counter() - start)
            if proc.returncode not in (0, 1):
                raise SystemExit(f"fleet failed ({proc.returncode}): {proc.stderr[-800:]!r}")
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            output = len(proc.stdout)
        peak = peak_rss(command)
        print(
            f"{nodes:>6} nodes ({size / 2**20:.0f} MiB of reports): "
            f"CPU {statistics.median(cpu):.2f} s, wall {statistics.median(wall):.2f} s "
            f"(median of {args.runs}), peak RSS {peak / 2**20:.0f} MiB, "
            f"output {output / 1024:.0f} KiB"
        )


if __name__ == "__main__":
    main()
