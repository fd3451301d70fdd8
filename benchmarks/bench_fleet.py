"""Speed and memory of `compat fleet --reports` (issues #13, #28, #35): merging N per-node reports.

Writes (under benchmarks/.work/fleet/) real `compat doctor --format json` reports of a GRPO
training stack (torch, vLLM, TRL, DeepSpeed, transformers, ... with findings) on 8x A100, in two
distinct node states (driver 535 on most nodes, 550 on every tenth), one file per node as
`srun compat doctor -o reports/%N.json` leaves them on a real cluster: each node has its own
identity — hostname, IP and Slurm node name, eight GPUs with their own NVML UUIDs and PCI bus ids,
and an environment under a path that embeds the node's name (`/scratch/nodeNNNNN/venv`, in the
report's `environment.source` and every finding's package sources). Not copies: doctor ran once
per state, on a site under `/scratch/STATE/...`, and each node's report is that state with the
node's identity written where doctor writes it.
Then runs `compat fleet --reports DIR --format json` in a fresh interpreter for each node count
and prints the child's CPU time (user+system: steadier than wall time on a shared machine),
wall time, peak RSS and output size.

Run: .venv/bin/python benchmarks/bench_fleet.py [--nodes 1000 10000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
import uuid
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
            {
                "index": i,
                "name": "NVIDIA A100-SXM4-80GB",
                "uuid": f"GPU-{uuid.UUID(int=i)}",
                "pci_bus_id": f"00000000:{0x07 + 0x10 * i:02X}:00.0",
                "compute_capability": "8.0",
                "memory_total_mib": 81920,
                "mig": False,
            }
            for i in range(8)
        ],
    }


SITE_NAME = "state-site"  # the site directory's name in doctor's runs, replaced per node


def state_reports(work: Path) -> list[dict[str, Any]]:
    """One real doctor report per node state."""
    packages = {**STACK, **{f"filler-{i}": "1.0" for i in range(288)}}
    site = make_env(work / SITE_NAME / "venv" / "site-packages", packages)
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


def node_report(state: dict[str, Any], index: int, work: Path) -> tuple[str, str]:
    """The state's report as node `index` would write it: its host, its GPUs' UUIDs and bus ids
    (random, as NVML's are), its environment under /scratch/<node>/."""
    name = f"node{index:05d}"
    text = json.dumps(state, ensure_ascii=False).replace(str(work / SITE_NAME), f"/scratch/{name}")
    report = json.loads(text)
    report["host"] = {
        "hostname": f"{name}.cluster.example",
        "ip": f"10.{index // 65536}.{index // 256 % 256}.{index % 256}",
        "slurm_node": name,
    }
    bus = random.randrange(1, 0xF0)
    for gpu in report["hardware"]["gpus"]:
        gpu["uuid"] = f"GPU-{uuid.uuid4()}"
        gpu["pci_bus_id"] = f"00000000:{(bus + 0x10 * gpu['index']) % 256:02X}:00.0"
    return name, json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def write_reports(
    directory: Path, states: list[dict[str, Any]], nodes: int, work: Path
) -> tuple[int, int]:
    """The reports, and how many distinct UUIDs they hold (a check that they are not copies)."""
    directory.mkdir(parents=True)
    size = 0
    uuids: set[str] = set()
    for index in range(1, nodes + 1):
        state = states[1] if index % 10 == 7 else states[0]
        name, text = node_report(state, index, work)
        (directory / f"{name}.json").write_text(text, encoding="utf-8")
        uuids.update(g["uuid"] for g in json.loads(text)["hardware"]["gpus"])
        size += len(text.encode())
    return size, len(uuids)


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
        size, uuids = write_reports(directory, states, nodes, work)
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
            groups = json.loads(proc.stdout)["summary"]["groups"]
        peak = peak_rss(command)
        print(
            f"{nodes:>6} nodes ({size / 2**20:.0f} MiB of reports, {uuids} GPU UUIDs): "
            f"CPU {statistics.median(cpu):.2f} s, wall {statistics.median(wall):.2f} s "
            f"(median of {args.runs}), peak RSS {peak / 2**20:.0f} MiB, "
            f"output {output / 1024:.0f} KiB, {groups} groups"
        )


if __name__ == "__main__":
    main()
