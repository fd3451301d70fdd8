"""What a test pays for its own empty compat cache (issue 45): `compat check --offline` through
typer's runner, as the CLI tests run it, in an empty cache directory (every test before the
seed) and in one that starts with the shipped rules compiled (tests/conftest.py's
`compiled_rules`, hard links to one copy). Runs alternate, so a machine whose load changes
during the measurement weighs on both sides alike.

Run: .venv/bin/python benchmarks/bench_suite_cache.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import _compile_rules
from tests.lib import paths
from tests.lib.sessioncache import built_once


def one_check(requirements: Path, seed: Path | None) -> float:
    from typer.testing import CliRunner

    from compat.cli import app

    cache = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    if seed is not None:
        for item in seed.iterdir():
            os.link(item, cache / item.name)
    os.environ["COMPAT_CACHE_DIR"] = str(cache)
    started = time.perf_counter()
    result = CliRunner().invoke(app, ["check", str(requirements), "--offline", "--no-probe"])
    elapsed = time.perf_counter() - started
    assert result.exit_code in (0, 1), result.output
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    seed = built_once("compat-cache-seed", [sys.version, paths.COMPAT], _compile_rules)
    requirements = Path(tempfile.mkdtemp()) / "requirements.txt"
    requirements.write_text("deepspeed==0.14.2\ntorch==2.7.0\n", encoding="utf-8")
    one_check(requirements, seed)  # imports, once
    empty, seeded = [], []
    for _ in range(args.runs):
        empty.append(one_check(requirements, None))
        seeded.append(one_check(requirements, seed))
    for name, times in (("empty cache", empty), ("seeded cache", seeded)):
        print(f"{name:13} median {statistics.median(times):6.2f} s  {[round(t, 2) for t in times]}")


if __name__ == "__main__":
    main()
