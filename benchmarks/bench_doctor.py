"""Speed of `compat doctor` against its floor, as issue #2 asks.

Builds (under benchmarks/.work/) a virtual environment with compat installed and 300
distributions in all, generates a 2,000-rule knowledge base, then times, over the same
environment:

  floor      python -c "import importlib.metadata as m; [d.version for d in m.distributions()]"
  doctor     compat doctor --format json --matrix <2,000 rules>   (warm rule cache, live probe)
  pip check  python -m pip check

and prints both ratios (doctor / floor must be <= 2; doctor / pip check must be < 1). Also
reports a cold-cache doctor run and the probe's own cost (doctor with and without --no-probe).

Run: .venv/bin/python benchmarks/bench_doctor.py [--runs 15]
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

from benchmarks.common import ROOT, WORK, cpu_time, paired_ratio, run_once, sampled
from benchmarks.gen_kb import generate
from tests.dists import make_dist

TOTAL_DISTRIBUTIONS = 300
# Real names of a training stack first (so rules meet installed packages), then filler.
STACK = {
    "torch": "2.3.0+cu121", "deepspeed": "0.14.2", "transformers": "4.40.0", "trl": "0.15.1",
    "vllm": "0.7.1", "accelerate": "0.30.1", "peft": "0.11.1", "flash-attn": "2.5.8",
    "bitsandbytes": "0.43.1", "datasets": "2.19.1", "openrlhf": "0.3.6.post1", "xformers": "0.0.26.post1",
    "nvidia-cuda-runtime-cu12": "12.1.105", "nvidia-nccl-cu12": "2.20.5", "nvidia-cudnn-cu12": "8.9.2.26",
    "triton": "2.3.0", "numpy": "1.26.4", "safetensors": "0.4.3", "tokenizers": "0.19.1", "ray": "2.12.0",
}  # fmt: skip


def build_env(venv: Path) -> Path:
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(ROOT)], check=True)
    else:  # always measure the code in this tree, never a copy installed by an earlier run
        subprocess.run(
            [
                str(venv / "bin" / "pip"),
                "install",
                "--quiet",
                "--no-deps",
                "--force-reinstall",
                str(ROOT),
            ],
            check=True,
        )
    site = next(venv.glob("lib/python*/site-packages"))
    add_distributions(site)
    return site


def add_distributions(site: Path) -> None:
    """The stack and filler up to TOTAL_DISTRIBUTIONS, once per site-packages."""
    existing = len(list(site.glob("*.dist-info")))
    marker = site / ".compat-bench"
    if not marker.exists():
        for name, version in STACK.items():
            make_dist(site, name, version, requires=["numpy", "packaging>=20"])
        filler = TOTAL_DISTRIBUTIONS - existing - len(STACK)
        for index in range(max(filler, 0)):
            make_dist(
                site,
                f"bench-package-{index:03d}",
                f"1.{index % 7}.{index % 13}",
                requires=["numpy"],
            )
        marker.write_text("ok")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--rules", type=int, default=2000)
    args = parser.parse_args()

    venv = WORK / "venv"
    site = build_env(venv)
    rules_dir = WORK / "rules"
    if rules_dir.exists():
        shutil.rmtree(rules_dir)
    names = [
        *STACK,
        *(f"bench-package-{i:03d}" for i in range(0, 280, 3)),
        *(f"absent-{i}" for i in range(200)),
    ]
    generate(rules_dir, args.rules, names)
    # As a user's install is: rule files older than the cache's 2 s racy window, so that the
    # cache vouches for them by their stat signature (compat/kb/knowledge.py).
    time.sleep(2.1)
    python = str(venv / "bin" / "python")
    compat = str(venv / "bin" / "compat")
    env = {**os.environ, "COMPAT_CACHE_DIR": str(WORK / "cache"), "NO_COLOR": "1"}
    count = int(
        subprocess.run(
            [python, "-c", "import importlib.metadata as m; print(len(list(m.distributions())))"],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
    )

    doctor_cmd = [compat, "doctor", "--format", "json", "--matrix", str(rules_dir)]
    floor_cmd = [
        python,
        "-c",
        "import importlib.metadata as m; [d.version for d in m.distributions()]",
    ]
    samples = sampled(
        {
            "floor": [
                python,
                "-c",
                "import importlib.metadata as m; [d.version for d in m.distributions()]",
            ],
            "doctor": doctor_cmd,
            "no_probe": [*doctor_cmd, "--no-probe"],
            # What every user runs: the shipped knowledge base alone.
            "shipped": [compat, "doctor", "--format", "json"],
        },
        args.runs,
        env,
    )
    times = {name: statistics.median(values) for name, values in samples.items()}
    floor, doctor, no_probe = times["floor"], times["doctor"], times["no_probe"]
    shipped = times["shipped"]
    pip_check = statistics.median(
        run_once([python, "-m", "pip", "check"], env) for _ in range(max(3, args.runs // 3))
    )
    shutil.rmtree(WORK / "cache", ignore_errors=True)
    cold = run_once(doctor_cmd, env)

    print(f"environment: {count} distributions in {site}")
    print(f"knowledge base: {args.rules} generated rules + the shipped ones")
    print(f"floor (importlib.metadata)      {floor * 1000:7.1f} ms")
    print(
        f"compat doctor --format json     {doctor * 1000:7.1f} ms   (cold rule cache: {cold * 1000:.1f} ms)"
    )
    print(
        f"  of which the GPU probe        {(doctor - no_probe) * 1000:7.1f} ms   (doctor --no-probe: {no_probe * 1000:.1f} ms)"
    )
    print(
        f"compat doctor, shipped KB only  {shipped * 1000:7.1f} ms   ({shipped / floor:.2f}x the floor)"
    )
    print(f"pip check                       {pip_check * 1000:7.1f} ms")
    floor_cpu = cpu_time(floor_cmd, env, args.runs)
    doctor_cpu = cpu_time(doctor_cmd, env, args.runs)
    print(
        f"doctor / floor     = {doctor / floor:.2f}   (target <= 2; paired by round: {paired_ratio(samples, 'doctor', 'floor'):.2f}; CPU time: {doctor_cpu * 1000:.0f} / {floor_cpu * 1000:.0f} ms = {doctor_cpu / floor_cpu:.2f})"
    )
    print(f"doctor / pip check = {doctor / pip_check:.2f}   (target < 1)")


if __name__ == "__main__":
    main()
