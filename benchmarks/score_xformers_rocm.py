"""Score `compat check --offline` on benchmarks/heldout/xformers-rocm-1/cases.yaml: for each real
install line of xFormers' ROCm wheels, does xformers-rocm-wheel-without-gpu-target say what the
sources say of the GPU?

Usage: python benchmarks/score_xformers_rocm.py [DIR]   (run from the repository root)"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

RULE = "xformers-rocm-wheel-without-gpu-target"


def main() -> int:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/heldout/xformers-rocm-1")
    return score(folder, RULE)


def score(folder: Path, rule: str) -> int:
    """Print the table of cases.yaml's expectations against what check said of `rule`."""
    cases = yaml.safe_load((folder / "cases.yaml").read_text())["cases"]
    right = 0
    print("| case | expected | compat said |\n| --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            profile = {
                "schema": "compat.hardware/1",
                "gpus": [{"index": 0, "vendor": "amd", **case["gpu"]}],
                "platform": "linux/x86_64",
            }
            hardware = Path(tmp) / f"{case['id']}.json"
            hardware.write_text(json.dumps(profile))
            requirements = Path(tmp) / f"{case['id']}.txt"
            requirements.write_text("\n".join(case["lines"]) + "\n")
            done = subprocess.run(
                [sys.executable, "-m", "compat", "check", "--offline", "--format", "json",
                 "--hardware", str(hardware), str(requirements)],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            try:
                findings = json.loads(done.stdout)["findings"]
            except (ValueError, KeyError):
                said = f"no report (exit {done.returncode})"
            else:
                hits = [f["status"] for f in findings if f["rule"] == rule]
                said = hits[0] if hits else "clear"
            right += said == case["expect"]
            print(f"| {case['id']} | {case['expect']} | {said} |")
    print(f"\n{right}/{len(cases)} as the sources say")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
