"""`compat doctor` against the importlib.metadata floor, in instruction counts (callgrind), side by
side in one run: counts do not move with the machine's load, wall time on a shared machine does.

    python benchmarks/callgrind_doctor.py [--before /path/to/old/tree]

Builds (in a temporary directory) bench_doctor.py's site-packages of 300 distributions and its
2,000 generated rules, warms each tree's rule cache, then counts under valgrind --tool=callgrind:

  floor   python -c "import importlib.metadata as m; [d.version for d in m.distributions(path=[SITE])]"
  doctor  python -m compat doctor --path SITE --no-probe --format json --matrix RULES   (this tree)
  before  the same with --before's tree first on sys.path (optional)

and prints each count and its ratio to the floor (issue 24: doctor <= 2.0x).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_doctor import STACK, add_distributions
from benchmarks.common import ROOT
from benchmarks.gen_kb import generate


def instructions(command: list[str], env: dict[str, str]) -> int:
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise SystemExit(f"callgrind said nothing: {proc.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older tree (git archive REV | tar -x)")
    parser.add_argument("--rules", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="compat-callgrind-") as name:
        tmp = Path(name)
        site = tmp / "site"
        site.mkdir()
        add_distributions(site)
        rules = tmp / "rules"
        names = [
            *STACK,
            *(f"bench-package-{i:03d}" for i in range(0, 280, 3)),
            *(f"absent-{i}" for i in range(200)),
        ]
        generate(rules, args.rules, names)  # as bench_doctor.py does
        time.sleep(2.1)  # installed rule files are older than the rule cache's racy window
        floor = (
            "import importlib.metadata as m; "
            f"[d.version for d in m.distributions(path=[{str(site)!r}])]"
        )
        doctor = ["-m", "compat", "doctor", "--path", str(site), "--no-probe", "-f", "json"]
        doctor += ["--matrix", str(rules)]
        trees = {"doctor": ROOT, **({"before": args.before.resolve()} if args.before else {})}
        # Bytecode as a user's install has it: written by the warm-up runs, read by the counted
        # ones (with PYTHONDONTWRITEBYTECODE every run compiles every module it imports).
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-c", floor], env=base, check=False)
        counts = {"floor": instructions([sys.executable, "-c", floor], base)}
        for label, tree in trees.items():
            env = {**base, "PYTHONPATH": str(tree), "COMPAT_CACHE_DIR": str(tmp / label)}
            subprocess.run([sys.executable, *doctor], env=env, capture_output=True, check=False)
            counts[label] = instructions([sys.executable, *doctor], env)
    for label, count in counts.items():
        print(f"{label:7} {count:>14,} instructions  {count / counts['floor']:.2f}x the floor")


if __name__ == "__main__":
    main()
