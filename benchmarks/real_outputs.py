"""`compat check` and `compat pin` on every real file the slow tests use, offline: each run's CPU
seconds (user + sys of the process, the machine is shared: wall time is not a measure here) and
its output, written to a folder so that two trees' outputs can be compared byte for byte (issue
45: a faster solve must give the same answers).

    python benchmarks/real_outputs.py OUT [--only NAME] [--no-pin] [--no-check]
    diff -r OUT_BEFORE OUT_AFTER   # the outputs (the .cpu files hold the times)

Run it with PYTHONPATH naming another tree to measure that tree (`git archive` of a commit).
The runs: check --format json, without and with an R535 / A100 profile (tests/profiles.py), on
tests/data/real/check and issue23's files; pin --offline --format json on the R535 profile on every
requirements file and pyproject under tests/data/real (tests/unit/resolve/test_pin_releases.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, WORK

REAL = ROOT / "tests" / "data" / "real"


def check_files() -> list[Path]:
    checked = sorted(p for p in (REAL / "check").iterdir() if not p.name.startswith("PROVENANCE"))
    return checked + sorted(p for p in (REAL / "issue23").rglob("*") if _requirements(p))


def _requirements(path: Path) -> bool:
    return path.is_file() and (
        (path.suffix == ".txt" and "requirements" in path.name.lower())
        or path.name.endswith("pyproject.toml")
    )


def pin_files() -> list[Path]:
    return sorted(p for p in REAL.rglob("*") if _requirements(p))


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(argv: list[str], out: Path, env: dict[str, str], cwd: Path) -> tuple[float, float]:
    before, start = cpu(), time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "compat", *argv], capture_output=True, env=env, check=False, cwd=cwd
    )
    spent, wall = cpu() - before, time.perf_counter() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(proc.stdout)
    out.with_suffix(".stderr").write_bytes(proc.stderr)
    out.with_suffix(".rc").write_text(f"{proc.returncode}\n")
    out.with_suffix(".cpu").write_text(f"{spent:.2f} {wall:.2f}\n")
    return spent, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", help="only files whose path holds this")
    parser.add_argument("--no-pin", action="store_true")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    from tests.profiles import R535

    work = WORK / "real_outputs"  # one fixed place: the outputs name the files' paths
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = {**os.environ, "COMPAT_CACHE_DIR": str(work / "cache"), "NO_COLOR": "1"}
    hardware = work / "r535.json"
    hardware.write_text(json.dumps(R535), encoding="utf-8")
    jobs: list[tuple[str, list[str]]] = []
    for path in [] if args.no_check else check_files():
        name = path.relative_to(REAL).as_posix().replace("/", "+")
        checked = path
        if path.name.endswith("setup.py"):  # found by its name
            (work / path.stem).mkdir()
            checked = work / path.stem / "setup.py"
            shutil.copy(path, checked)
        base = ["check", "--offline", str(checked), "--format", "json"]
        jobs.append((f"check/{name}.json", base))
        jobs.append((f"check-r535/{name}.json", [*base, "--hardware", str(hardware)]))
    for path in [] if args.no_pin else pin_files():
        name = path.relative_to(REAL).as_posix().replace("/", "+")
        argv = ["pin", "-r", str(path), "--offline", "--hardware", str(hardware)]
        jobs.append((f"pin-r535/{name}.json", [*argv, "--format", "json"]))
    total = 0.0
    for label, argv in jobs:
        if args.only and args.only not in label:
            continue
        spent, wall = run(argv, args.out / label, env, work)
        total += spent
        print(f"{spent:7.2f} s CPU {wall:7.2f} s wall  {label}", flush=True)
    print(f"{total:7.2f} s CPU in all")


if __name__ == "__main__":
    main()
