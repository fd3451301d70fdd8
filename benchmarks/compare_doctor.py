"""`compat doctor` start-up of two trees, timed together: did a change make it slower?

Installs each tree (not editable) into its own virtual environment under benchmarks/.work/,
with the same 300 distributions as bench_doctor.py and the same 2,000 generated rules, then runs
doctor from both, interleaved round by round (a busy moment on the machine weighs on both alike),
each with its own warm rule cache, and prints the median wall and CPU (user+sys) time per run.

Run: .venv/bin/python benchmarks/compare_doctor.py --before /path/to/old/tree [--runs 21]
(an old tree: `git worktree add /tmp/old REV`, or `git archive REV | tar -x -C /tmp/old`).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_doctor import STACK, add_distributions
from benchmarks.common import ROOT, WORK
from benchmarks.gen_kb import generate


def build(venv: Path, tree: Path) -> Path:
    """A venv with `tree` installed (re-installed on every run) and the benchmark's dists."""
    pip = str(venv / "bin" / "pip")
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([pip, "install", "--quiet", str(tree)], check=True)
    else:
        subprocess.run(
            [pip, "install", "--quiet", "--no-deps", "--force-reinstall", str(tree)], check=True
        )
    add_distributions(next(venv.glob("lib/python*/site-packages")))
    return venv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the tree to compare against")
    parser.add_argument("--after", type=Path, default=ROOT, help="default: this tree")
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()

    work = WORK / "compare"
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    venvs = {label: build(work / label, tree) for label, tree in trees.items()}
    rules = work / "rules"
    shutil.rmtree(rules, ignore_errors=True)
    names = [
        *STACK,
        *(f"bench-package-{i:03d}" for i in range(0, 280, 3)),
        *(f"absent-{i}" for i in range(200)),
    ]
    generate(rules, 2000, names)

    commands: dict[str, tuple[list[str], dict[str, str]]] = {}
    for label, venv in venvs.items():
        env = {**os.environ, "COMPAT_CACHE_DIR": str(work / f"cache-{label}"), "NO_COLOR": "1"}
        env.pop("PYTHONPATH", None)
        doctor = [str(venv / "bin" / "compat"), "doctor", "--format", "json"]
        commands[f"{label} shipped KB"] = (doctor, env)
        commands[f"{label} --no-probe"] = ([*doctor, "--no-probe"], env)
        commands[f"{label} 2000 rules"] = ([*doctor, "--matrix", str(rules)], env)
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(args.runs + 1):  # round 0 warms the rule caches
        for name, (command, env) in commands.items():
            used = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = subprocess.run(command, capture_output=True, env=env, check=False)
            elapsed = time.perf_counter() - start
            now = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode not in (0, 1):
                raise SystemExit(f"{name}: exit {proc.returncode}: {proc.stderr.decode()[-800:]}")
            if round_:
                wall[name].append(elapsed)
                cpu[name].append(now.ru_utime - used.ru_utime + now.ru_stime - used.ru_stime)
    print(f"before: {trees['before']}\nafter:  {trees['after']}")
    print(f"{args.runs} interleaved rounds, median per run:")
    for name in commands:
        print(
            f"  {name:18} wall {statistics.median(wall[name]) * 1000:7.1f} ms"
            f"   cpu {statistics.median(cpu[name]) * 1000:7.1f} ms"
        )


if __name__ == "__main__":
    main()
