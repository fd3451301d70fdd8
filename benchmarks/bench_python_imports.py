"""What reading every installed module's imports costs doctor (issue 41, item 4).

Builds (once, under benchmarks/.work/pyimports/) a virtual environment from PyPI with real pip:
an HF fine-tune stack (torch from the local wheel, transformers, accelerate, peft, trl, datasets,
huggingface_hub, sentence-transformers, diffusers, bitsandbytes and what they pull in), or takes
`--site DIR` (any site-packages). Then, paired round by round (alternating, so a busy moment on
the shared machine weighs on both alike):

  floor    python -c "import importlib.metadata as m;
                      [(d.version, d.requires) for d in m.distributions(path=['SITE'])]"
  doctor   compat doctor --path SITE --no-probe --format json      (warm caches)

and prints both medians and the median of the paired ratios (target: <= 1.5). In-process, it
times the import check alone (compat.commands.pythoncheck.read_python): cold (no cache file: every
source scanned, the imported modules' definitions parsed) and warm (the cache written by the cold
run), wall and CPU time (the machine may be shared), and prints what the environment holds (distributions, Python files, imports checked).

Run: .venv/bin/python benchmarks/bench_python_imports.py [--runs 21] [--site DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK, run_once

HERE = WORK / "pyimports"
STACK = (
    "torch==2.13.0",  # the local wheel (/opt/wheels); download.pytorch.org is not reachable
    "transformers",
    "accelerate",
    "peft",
    "trl",
    "datasets",
    "huggingface_hub",
    "sentence-transformers",
    "diffusers",
    "bitsandbytes",
)
_IN_PROCESS = """
import json, sys, time
from pathlib import Path
from compat.facts.installed import read_paths
from compat.commands.pythoncheck import read_python
env = read_paths([Path(sys.argv[1])])
start, cpu = time.perf_counter(), time.process_time()
judgement = read_python(env)
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"seconds": elapsed, "cpu": cpu, "packages": len(env.packages), **judgement.document,
                  "findings": [f.rule.id for f in judgement.findings]}))
"""


def build_site() -> Path:
    venv = HERE / "venv"
    if not (venv / ".complete").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, *STACK], check=True)
        (venv / ".complete").write_text("ok")
    return next((venv / "lib").glob("python3*/site-packages"))


def in_process(site: Path, env: dict[str, str]) -> dict[str, object]:
    import json

    done = subprocess.run(
        [sys.executable, "-c", _IN_PROCESS, str(site)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--site", type=Path, help="a site-packages to read instead")
    args = parser.parse_args()
    site = args.site or build_site()
    cache = HERE / "cache"
    env = {**os.environ, "COMPAT_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    env.pop("PYTHONPATH", None)
    for old in cache.glob("python-*.json") if cache.exists() else ():  # per file and summary
        old.unlink()
    time.sleep(2.1)  # files older than the caches' racy window, as a user's install is
    cold = in_process(site, env)
    warm = in_process(site, env)
    commands = {
        "floor": [
            sys.executable,
            "-c",
            "import importlib.metadata as m; "
            f"[(d.version, d.requires) for d in m.distributions(path=[{str(site)!r}])]",
        ],
        "doctor": [
            str(Path(sys.executable).parent / "compat"),
            "doctor",
            "--path",
            str(site),
            "--no-probe",
            "--format",
            "json",
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
    print(
        f"{cold['packages']} distributions, {cold['files']} Python files, "
        f"{cold['imports_checked']} cross-distribution imports checked, "
        f"findings: {cold['findings']} ({site})"
    )
    print(
        f"import check alone, in-process: cold {float(cold['seconds']) * 1000:.0f} ms "  # type: ignore[arg-type]
        f"({float(cold['cpu']) * 1000:.0f} ms CPU; read {cold['read']}, parsed {cold['parsed']}); "  # type: ignore[arg-type]
        f"warm {float(warm['seconds']) * 1000:.0f} ms ({float(warm['cpu']) * 1000:.0f} ms CPU; "  # type: ignore[arg-type]
        f"read {warm['read']}, parsed {warm['parsed']})"
    )
    print(f"floor (version + requires)   {median['floor'] * 1000:7.1f} ms")
    print(f"compat doctor --no-probe     {median['doctor'] * 1000:7.1f} ms")
    print(
        f"doctor / floor = {paired:.2f} (median of {args.runs} paired ratios; target <= 1.5; "
        f"ratio of medians {median['doctor'] / median['floor']:.2f})"
    )


if __name__ == "__main__":
    main()
