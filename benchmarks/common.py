"""Timing helpers shared by the benchmark scripts (wall-clock medians, interleaved runs)."""

from __future__ import annotations

import resource
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "benchmarks" / ".work"


def run_once(command: list[str], env: dict[str, str], ok: tuple[int, ...] = (0, 1)) -> float:
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{command[0]} failed ({proc.returncode}): {proc.stderr.decode()[-800:]}")
    return elapsed


def timed_together(
    commands: dict[str, list[str]], runs: int, env: dict[str, str]
) -> dict[str, float]:
    """Median wall time of each command, interleaved run by run so that a busy moment on the
    machine weighs on all of them alike (one warm-up round first)."""
    return {
        name: statistics.median(values) for name, values in sampled(commands, runs, env).items()
    }


def sampled(
    commands: dict[str, list[str]], runs: int, env: dict[str, str]
) -> dict[str, list[float]]:
    """Each command's wall times, one per round, in the order of the rounds (warm-up dropped)."""
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(runs + 1):
        for name, command in commands.items():
            elapsed = run_once(command, env)
            if round_:
                samples[name].append(elapsed)
    return samples


def paired_ratio(samples: dict[str, list[float]], name: str, base: str) -> float:
    """The median over rounds of `name`'s time over `base`'s in the same round: on a VM whose
    speed drifts by tens of percent from minute to minute, the ratio of two runs made seconds
    apart is steadier than the ratio of two medians."""
    return statistics.median(a / b for a, b in zip(samples[name], samples[base], strict=True))


def cpu_time(command: list[str], env: dict[str, str], runs: int) -> float:
    """Median user+system CPU seconds of the child: steadier than wall time on a shared VM."""
    samples = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, capture_output=True, env=env, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        samples.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(samples)
