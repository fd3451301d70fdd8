"""Speed of judging the install a file makes (issue 32): `compat check` of a fully pinned 30-line
training requirements file online (the real resolver: uv, its cache warm after the first round)
must stay within 3 s, and the same check offline (compat's offline solve over its dependency
snapshot) within 1 s. Also times the offline solve alone, in-process, on a file with ranges.

Online needs the package index (PyPI, or what pip/uv are configured with).

Run: .venv/bin/python benchmarks/bench_resolve.py [--runs 7] [--offline-only]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK, sampled

# A real training stack, every line pinned (the shape of a `pip freeze` of a fine-tuning repo).
PINNED = """\
accelerate==1.2.1
aiohttp==3.11.11
bitsandbytes==0.45.0
datasets==3.2.0
deepspeed==0.16.2
einops==0.8.0
evaluate==0.4.3
fsspec==2024.9.0
huggingface-hub==0.27.1
jinja2==3.1.5
numpy==1.26.4
packaging==24.2
pandas==2.2.3
peft==0.14.0
protobuf==5.29.2
psutil==6.1.1
pyarrow==18.1.0
pyyaml==6.0.2
regex==2024.11.6
requests==2.32.3
safetensors==0.5.0
scipy==1.14.1
sentencepiece==0.2.0
tokenizers==0.21.0
torch==2.5.1
tqdm==4.67.1
transformers==4.47.1
trl==0.13.0
wandb==0.19.1
xformers==0.0.28.post3
"""

RANGED = "transformers>=4.40\npeft\ntrl\naccelerate\ndatasets\nbitsandbytes\nvllm\ndeepspeed\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--offline-only", action="store_true")
    args = parser.parse_args()
    work = WORK / "resolve"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    pinned = work / "requirements.txt"
    pinned.write_text(PINNED)
    assert len(PINNED.splitlines()) == 30
    compat = [sys.executable, "-m", "compat", "check", str(pinned), "--python-version", "3.11",
              "--platform", "linux", "--format", "json", "-o", str(work / "out.json")]  # fmt: skip
    commands = {"check --offline (pinned, 30 lines)": [*compat, "--offline"]}
    online = "check online, uv (pinned, 30 lines)"
    floor = "uv pip compile alone (the same resolve)"
    if not args.offline_only:
        from compat.resolve.resolvers.resolver import find_uv

        commands[online] = [*compat, "--resolver", "uv"]
        commands[floor] = [str(find_uv()), "pip", "compile", str(pinned), "--no-header",
                           "--no-annotate", "--quiet", "--no-python-downloads", "--python-version",
                           "3.11", "--python-platform", "x86_64-manylinux_2_28"]  # fmt: skip
    env = {**os.environ, "NO_COLOR": "1"}
    timed = sampled(commands, args.runs, env)
    for name, values in timed.items():
        seconds = statistics.median(values)
        target = 1.0 if "offline" in name else 3.0
        verdict = "" if name == floor else "within" if seconds <= target else "OVER"
        said = f"  ({verdict} the {target:g} s target)" if verdict else ""
        print(f"{name:40s} {seconds * 1000:8.0f} ms{said}")
    if not args.offline_only:
        # uv's own time is the index's: an index that sends no Cache-Control makes uv revalidate
        # every page on every run. What compat adds to it, run by run:
        own = statistics.median(a - b for a, b in zip(timed[online], timed[floor], strict=True))
        print(f"{'compat beyond uv (median of paired runs)':40s} {own * 1000:8.0f} ms")

    # The offline solve alone, in this process (the snapshot read once, as in one check run).
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    from compat.resolve.check import offline

    markers = {"python_version": "3.11", "python_full_version": "3.11.0", "sys_platform": "linux",
               "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix",
               "implementation_name": "cpython", "platform_python_implementation": "CPython"}  # fmt: skip
    for label, text in (("pinned", PINNED), ("ranged", RANGED)):
        wanted = []
        for line in text.splitlines():
            requirement = Requirement(line)
            wanted.append(
                offline.Wanted(canonicalize_name(requirement.name), requirement.specifier)
            )
        samples = []
        for _ in range(args.runs):
            start = time.perf_counter()
            offline.solve(wanted, Version("3.11"), markers)
            samples.append(time.perf_counter() - start)
        print(f"offline solve alone ({label}){'':18s} {statistics.median(samples) * 1000:8.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
