"""Bounded time of `compat check --offline` (issue 42 item 13): every real dependency file under
tests/data/real (the check tests' files, verl@4879d61's setup.py among them, whose `sglang` extra
backtracked for over ten minutes before the offline solve was bounded), each as its own process,
its wall time and exit status. The bounds: compat.resolve.check.offline's counts of work
(MAX_ROUNDS, MAX_REJECTED per solve, SOLVE_STEPS per check); a file past one says so and exits 3.

Run: .venv/bin/python benchmarks/bench_bounded.py [--runs 1] [--limit SECONDS]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, WORK

REAL = ROOT / "tests" / "data" / "real"
KINDS = ("requirements", ".txt", ".toml", "setup.py", ".lock", "Pipfile", ".yml", ".yaml")


def real_files() -> list[Path]:
    """The real dependency files check reads (not provenance notes, not logs)."""
    out = []
    for path in sorted(REAL.rglob("*")):
        if not path.is_file() or path.name.startswith("PROVENANCE") or path.suffix == ".md":
            continue
        if any(kind in path.name for kind in KINDS):
            out.append(path)
    return out


def as_checked(path: Path, work: Path) -> Path:
    """setup.py is found by its name: a copy named so, in a directory of its own."""
    if not path.name.endswith("setup.py"):
        return path
    target = work / path.stem
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, target / "setup.py")
    return target / "setup.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--limit", type=float, default=120.0, help="kill a check after this")
    args = parser.parse_args()
    work = WORK / "bounded"
    shutil.rmtree(work, ignore_errors=True)
    env = {**os.environ, "COMPAT_CACHE_DIR": str(WORK / "cache-bounded")}
    rows = []
    for path in real_files():
        checked = as_checked(path, work)
        times, code = [], None
        for _ in range(args.runs):
            start = time.perf_counter()
            try:
                proc = subprocess.run(
                    [sys.executable, "-m", "compat", "check", "--offline", str(checked), "-q"],
                    capture_output=True, env=env, timeout=args.limit, check=False,
                )  # fmt: skip
                code = proc.returncode
            except subprocess.TimeoutExpired:
                code = "killed"
            times.append(time.perf_counter() - start)
        rows.append((statistics.median(times), code, path.relative_to(REAL)))
    for seconds, code, name in rows:
        print(f"{seconds:7.2f} s  exit {code!s:6}  {name}")
    print(f"{len(rows)} files; slowest {max(r[0] for r in rows):.2f} s; "
          f"median {statistics.median(r[0] for r in rows):.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
