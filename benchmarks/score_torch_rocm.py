"""Score `compat check --offline` on benchmarks/heldout/torch-rocm-table-1/cases.yaml: for each
real report, does hip-no-code-object-for-gpu say what the thread found?

Usage: python benchmarks/score_torch_rocm.py [DIR]   (run from the repository root)"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

RULE = "hip-no-code-object-for-gpu"


def main() -> int:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/heldout/torch-rocm-table-1")
    cases = yaml.safe_load((folder / "cases.yaml").read_text())["cases"]
    right = asked = 0
    print("| case | expected | compat said |\n| --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            gpu = {"index": 0, "vendor": "amd", **case["gpu"]}
            profile: dict[str, object] = {
                "schema": "compat.hardware/1",
                "gpus": [gpu],
                "platform": "linux/x86_64",
            }
            if case.get("override"):
                profile["hsa_override_gfx_version"] = case["override"]
            hardware = Path(tmp) / f"{case['id']}.json"
            hardware.write_text(json.dumps(profile))
            requirements = Path(tmp) / f"{case['id']}.txt"
            requirements.write_text(case["pin"] + "\n")
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
                hits = [f["status"] for f in findings if f["rule"] == RULE]
                said = hits[0] if hits else "clear"
            right += said == case["expect"]
            # `possible`: compat asks for the fact it lacks (no row for the release): not a
            # verdict either way, so neither right nor a false clear/affected
            asked += said == "possible" and case["expect"] != "possible"
            print(f"| {case['id']} | {case['expect']} | {said} |")
    wrong = len(cases) - right - asked
    print(f"\n{right}/{len(cases)} as the threads found; {asked} asked (possible), {wrong} wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
