"""Score `compat check --offline` on a held-out set of real install cases for one rule.

A set is a folder with a `cases.yaml`: top-level `rule` (the rule scored) and `cases`, each with
an `id`, the requirement lines the thread shows (`lines`, or one `pin`), the GPU (`gpu`: name and
`gfx_target`, an AMD profile is built from it), an optional `override`
(HSA_OVERRIDE_GFX_VERSION in the profile) and `expect`: what the rule should say (`affected`,
`possible` or `clear`). benchmarks/heldout/torch-rocm-table-1/ and xformers-rocm-1/ document
their fields in their headers.

Each case runs `compat check --offline --format json --hardware PROFILE REQS` as a subprocess of
this interpreter's compat. A `possible` where the case expects a verdict is counted apart: compat
asked for a fact it lacks (no row for the release), which is neither a false clear nor a false
affected.

Run from the repository root:
  .venv/bin/python benchmarks/score_check_cases.py benchmarks/heldout/torch-rocm-table-1
  .venv/bin/python benchmarks/score_check_cases.py benchmarks/heldout/xformers-rocm-1
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml


def _profile(case: dict[str, Any]) -> dict[str, Any]:
    profile: dict[str, Any] = {
        "schema": "compat.hardware/1",
        "gpus": [{"index": 0, "vendor": "amd", **case["gpu"]}],
        "platform": "linux/x86_64",
    }
    if case.get("override"):
        profile["hsa_override_gfx_version"] = case["override"]
    return profile


def _said(rule: str, case: dict[str, Any], tmp: Path) -> str:
    hardware = tmp / f"{case['id']}.json"
    hardware.write_text(json.dumps(_profile(case)))
    requirements = tmp / f"{case['id']}.txt"
    lines = case["lines"] if "lines" in case else [case["pin"]]
    requirements.write_text("\n".join(lines) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "compat", "check", "--offline", "--format", "json",
         "--hardware", str(hardware), str(requirements)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    try:
        findings = json.loads(done.stdout)["findings"]
    except (ValueError, KeyError):
        return f"no report (exit {done.returncode})"
    hits = [finding["status"] for finding in findings if finding["rule"] == rule]
    return hits[0] if hits else "clear"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("set_dir", type=Path, help="a held-out folder holding cases.yaml")
    args = parser.parse_args(argv)
    document = yaml.safe_load((args.set_dir / "cases.yaml").read_text())
    rule, cases = document["rule"], document["cases"]
    right = asked = 0
    print(f"{rule}\n\n| case | expected | compat said |\n| --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            said = _said(rule, case, Path(tmp))
            right += said == case["expect"]
            asked += said == "possible" and case["expect"] != "possible"
            print(f"| {case['id']} | {case['expect']} | {said} |")
    wrong = len(cases) - right - asked
    print(f"\n{right}/{len(cases)} as the sources say; {asked} asked (possible), {wrong} wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
