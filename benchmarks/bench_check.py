"""Speed of `compat check` (issue #5): a 500-line requirements file split over includes, checked
offline, against `compat doctor` on a comparable environment (500 distributions). Target: <= 2x.

Run: .venv/bin/python benchmarks/bench_check.py [--runs 11]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK, timed_together
from tests.dists import make_env

STACK = {
    "deepspeed": "0.14.2",
    "torch": "2.3.0",
    "trl": "0.15.1",
    "vllm": "0.7.1",
    "transformers": "4.40.0",
}


def write_requirements(root: Path, lines: int = 500, files: int = 5) -> Path:
    """requirements.txt including requirements/part-N.txt, with comments, markers and hashes."""
    (root / "requirements").mkdir(parents=True)
    names = [*STACK, *(f"bench-package-{i:03d}" for i in range(lines - len(STACK)))]
    per_file = len(names) // files
    for part in range(files):
        chunk = (
            names[part * per_file : (part + 1) * per_file]
            if part < files - 1
            else names[part * per_file :]
        )
        body = []
        for name in chunk:
            version = STACK.get(name, "1.2.3")
            body.append(f"{name}=={version} \\\n    --hash=sha256:{'0' * 64}  # pinned\n")
        (root / "requirements" / f"part-{part}.txt").write_text("# generated\n" + "".join(body))
    top = root / "requirements.txt"
    top.write_text("".join(f"-r requirements/part-{part}.txt\n" for part in range(files)))
    return top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    root = WORK / "check-project"
    shutil.rmtree(root, ignore_errors=True)
    top = write_requirements(root)
    site = WORK / "check-site"
    shutil.rmtree(site, ignore_errors=True)
    make_env(site, {**STACK, **{f"bench-package-{i:03d}": "1.2.3" for i in range(495)}})
    env = {**os.environ, "COMPAT_CACHE_DIR": str(WORK / "cache-check")}
    compat = [sys.executable, "-m", "compat"]
    times = timed_together(
        {
            "check": [*compat, "check", str(top), "--offline", "--no-probe", "--format", "json"],
            "doctor": [*compat, "doctor", "--path", str(site), "--no-probe", "--format", "json"],
        },
        args.runs,
        env,
    )
    lines = sum(len(p.read_text().splitlines()) for p in (root / "requirements").glob("*.txt"))
    print(f"requirements: {lines} lines in 5 included files; environment: 500 distributions")
    print(f"check --offline   {times['check'] * 1000:7.1f} ms")
    print(f"doctor            {times['doctor'] * 1000:7.1f} ms")
    print(f"check / doctor = {times['check'] / times['doctor']:.2f}   (target <= 2)")


if __name__ == "__main__":
    main()
