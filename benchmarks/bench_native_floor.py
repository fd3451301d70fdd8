"""An environment without native extensions pays nothing measurable (issue 33, item 5).

Builds (under benchmarks/.work/native-floor/) a virtual environment with this tree installed
(not editable: an editable finder and coverage hooks would weigh on both sides alike and hide
the ratio) and a directory DIR of 300 plain distributions (dist-info directories as pip writes
them, each with its RECORD, no native file), then times, paired round by round (alternating,
so a busy moment on the shared machine weighs on both alike):

  floor    python -c "import importlib.metadata as m;
                      [(d.version, d.requires) for d in m.distributions(path=['DIR'])]"
  doctor   compat doctor --path DIR --no-probe --format json     (warm caches)

and prints both medians and the median of the paired ratios (target: <= 1.5). The native-file
inventory (compat/facts/native.py) runs inside doctor, so its cost is in the number. A second
floor that reads versions only is printed beside it, for reference.

Run: .venv/bin/python benchmarks/bench_native_floor.py [--runs 31]
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

from benchmarks.bench_doctor import STACK
from benchmarks.common import ROOT, WORK, run_once
from tests.dists import make_dist

TOTAL = 300
# What the inventory itself costs, in-process: the environment read, then native_inventory warm
# (its cache written by the rounds above) and without the cache (every RECORD read).
_INVENTORY_COST = """
import statistics, sys, time
from pathlib import Path
from compat.facts.installed import read_paths
from compat.facts.native import native_inventory
env = read_paths([Path(sys.argv[1])])
def median(use_cache):
    runs = []
    for _ in range(31):
        start = time.perf_counter()
        native_inventory(env, use_cache=use_cache)
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000
start = time.perf_counter()
read_paths([Path(sys.argv[1])])
read = (time.perf_counter() - start) * 1000
print(f"warm {median(True):.1f} ms, no cache {median(False):.1f} ms "
      f"(reading the environment itself: {read:.1f} ms)")
"""
HERE = WORK / "native-floor"


def build_venv(venv: Path) -> Path:
    """A venv with this tree installed, re-installed on every run (never a stale copy)."""
    pip = str(venv / "bin" / "pip")
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(ROOT)], check=True)
    else:
        subprocess.run(
            [pip, "install", "--quiet", "--no-deps", "--force-reinstall", str(ROOT)],
            check=True,
        )
    return venv


def build_dir(site: Path) -> Path:
    """TOTAL plain distributions: the stack's names first (so rules meet them), then filler."""
    if (site / ".complete").exists():
        return site
    shutil.rmtree(site, ignore_errors=True)
    for name, version in STACK.items():
        make_dist(site, name, version, requires=["numpy", "packaging>=20"])
    for index in range(TOTAL - len(STACK)):
        make_dist(
            site, f"bench-package-{index:03d}", f"1.{index % 7}.{index % 13}", requires=["numpy"]
        )
    (site / ".complete").write_text("ok")
    return site


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    args = parser.parse_args()

    venv = build_venv(HERE / "venv")
    site = build_dir(HERE / "site")
    time.sleep(2.1)  # files older than the caches' racy window, as a user's install is
    python = str(venv / "bin" / "python")
    env = {**os.environ, "COMPAT_CACHE_DIR": str(HERE / "cache"), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    commands = {
        "floor": [
            python,
            "-c",
            "import importlib.metadata as m; "
            f"[(d.version, d.requires) for d in m.distributions(path=[{str(site)!r}])]",
        ],
        "doctor": [
            str(venv / "bin" / "compat"),
            "doctor",
            "--path",
            str(site),
            "--no-probe",
            "--format",
            "json",
        ],
        "versions": [
            python,
            "-c",
            f"import importlib.metadata as m; [d.version for d in m.distributions(path=[{str(site)!r}])]",
        ],
    }
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(args.runs + 1):  # round 0 warms the caches and the page cache
        order = list(commands) if round_ % 2 else list(reversed(commands))
        for name in order:
            elapsed = run_once(commands[name], env)
            if round_:
                samples[name].append(elapsed)
    median = {name: statistics.median(values) for name, values in samples.items()}
    paired = statistics.median(
        d / f for d, f in zip(samples["doctor"], samples["floor"], strict=True)
    )
    paired_versions = statistics.median(
        d / f for d, f in zip(samples["doctor"], samples["versions"], strict=True)
    )
    inventory = subprocess.run(
        [python, "-c", _INVENTORY_COST, str(site)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.strip()
    print(f"{TOTAL} plain distributions in {site}; {args.runs} paired rounds")
    print(f"floor (version + requires)   {median['floor'] * 1000:7.1f} ms")
    print(f"floor (versions only)        {median['versions'] * 1000:7.1f} ms")
    print(f"compat doctor --no-probe     {median['doctor'] * 1000:7.1f} ms")
    print(
        f"doctor / floor = {paired:.2f} (median of paired ratios; target <= 1.5; "
        f"ratio of medians {median['doctor'] / median['floor']:.2f}); "
        f"against the versions-only floor {paired_versions:.2f}"
    )
    print(f"the native-file inventory inside doctor, in-process: {inventory}")


if __name__ == "__main__":
    main()
