"""Speed of `compat pin` (issues #4, #9, #19): guarded packages against a package index on
127.0.0.1, cold cache; warm cache with the resolver proof (uv, else pip; target < 5 s) and without
it (`--no-verify`; issue #19's target: <= 3x `compat doctor` on the same environment with a
2,000-rule stress knowledge base and 30 guarded packages).

The environment holds N packages that a generated knowledge base speaks of, each with 40
releases on the loopback index (PEP 691 JSON with PEP 658 metadata); three of them sit in a bad
range so that the solver has to move them.

Run: .venv/bin/python benchmarks/bench_pin.py [--runs 5] [--rules 2000] [--packages 30]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK, run_once
from benchmarks.gen_kb import generate
from tests.dists import make_env
from tests.indexserver import Dist, IndexServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rules", type=int, default=2000)
    parser.add_argument("--packages", type=int, default=30)
    args = parser.parse_args()
    names = [f"guarded-package-{i:02d}" for i in range(args.packages)]
    site = WORK / "pin-site"
    shutil.rmtree(site, ignore_errors=True)
    # Installed: 1.5.0 for most; three packages in 2.3.x, inside a generated bad range 2.3-2.5.
    make_env(site, {name: ("2.3.1" if i < 3 else "1.5.0") for i, name in enumerate(names)})
    rules = WORK / "pin-rules"
    shutil.rmtree(rules, ignore_errors=True)
    generate(rules, args.rules, names, seed=7)
    bad = rules / "bad-ranges.yaml"
    bad.write_text(
        "schema: compat.matrix/1\nrules:\n"
        + "".join(
            f"  - id: bench-bad-{i}\n    title: bad range\n    severity: error\n    evidence: reported\n"
            f"    when: {{packages: {{{name}: '>=2.3,<2.5'}}}}\n"
            f"    fix: {{summary: leave it, constraints: ['{name}<2.3']}}\n"
            f"    references: ['https://example.org/{i}']\n"
            f"    examples: {{affected: [{{packages: {{{name}: '2.3.1'}}}}], clear: [{{packages: {{{name}: '2.5.0'}}}}]}}\n"
            for i, name in enumerate(names[:3])
        )
    )
    releases = [
        f"{major}.{minor}.{patch}" for major in (1, 2) for minor in range(10) for patch in (0, 1)
    ]
    projects = {
        name: [Dist(name, version, requires=["numpy>=1.20"]) for version in releases]
        for name in names
    }
    projects["numpy"] = [Dist("numpy", v) for v in ("1.26.4", "2.0.2")]  # for the proof
    cache = WORK / "cache-pin"
    env = {**os.environ, "COMPAT_CACHE_DIR": str(cache)}
    with IndexServer(projects) as index:
        pin = [sys.executable, "-m", "compat", "pin", "--path", str(site), "--no-probe", "--matrix", str(rules),
               "--index-url", index.url]  # fmt: skip
        doctor = [
            sys.executable,
            "-m",
            "compat",
            "doctor",
            "--path",
            str(site),
            "--no-probe",
            "--matrix",
            str(rules),
        ]
        unproven = [*pin, "--no-verify"]
        cold = []
        for _ in range(args.runs):
            shutil.rmtree(cache, ignore_errors=True)
            cold.append(run_once(unproven, env))
        run_once(pin, env)
        proven = statistics.median(run_once(pin, env) for _ in range(args.runs))
        warm = statistics.median(run_once(unproven, env) for _ in range(args.runs))
        doctor_time = statistics.median(run_once(doctor, env) for _ in range(args.runs))
    print(
        f"{args.packages} guarded packages, {len(releases)} releases each, {args.rules} generated "
        "rules (+ the shipped ones), loopback index"
    )
    print(
        f"pin, cold cache   {statistics.median(cold) * 1000:7.1f} ms   (--no-verify; target <= 1500 ms)"
    )
    print(f"pin, warm, proof  {proven * 1000:7.1f} ms   (the resolver proves it; target < 5000 ms)")
    print(f"pin, warm cache   {warm * 1000:7.1f} ms   (--no-verify)")
    print(f"doctor            {doctor_time * 1000:7.1f} ms")
    print(f"warm pin (--no-verify) / doctor = {warm / doctor_time:.2f}   (target <= 3)")


if __name__ == "__main__":
    main()
