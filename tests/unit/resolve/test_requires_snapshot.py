"""compat/data/requires-snapshot.json: the dated dependency metadata offline inference reads.

Written by scripts/gen_requires_snapshot.py from its recorded input (PyPI's PEP 658 metadata,
each file's sha256 recorded); the offline check infers what a file pulls in from one consistent
set of releases in it (issue 23, item 3).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from packaging.utils import canonicalize_name

from tests.checkcli import by_rule, check, write
from tests.lib import paths

ROOT = paths.REPO


def test_the_snapshot_is_what_the_script_writes_from_its_recorded_input() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_requires_snapshot.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, f"requires-snapshot.json is stale: {proc.stderr}"


def test_every_read_is_recorded_with_its_sha256_and_date() -> None:
    document = json.loads((ROOT / "scripts" / "inputs" / "requires-snapshot.json").read_text())
    assert document["fetched"] and document["since"]
    for name, releases in document["packages"].items():
        for entry in releases:
            if entry["requires_dist"] is not None:
                assert len(entry["metadata_sha256"]) == 64, (name, entry["version"])
                assert len(entry["wheel_sha256"]) == 64, (name, entry["version"])


def test_the_packages_rules_speak_of_and_their_carriers_are_covered() -> None:
    from compat.resolve import snapshot

    for name in ("torch", "torchvision", "torchaudio", "triton", "vllm", "transformers",
                 "tokenizers", "accelerate", "peft", "trl", "deepspeed", "flash-attn",
                 "xformers", "bitsandbytes", "numpy", "openrlhf", "verl"):  # fmt: skip
        assert snapshot.covers(canonicalize_name(name)), name


def test_real_pins_the_issue_rests_on() -> None:
    """vllm 0.6.3 pins torch 2.4.0; torch 2.4.0 pins triton 3.0.0 (their PyPI metadata)."""
    from compat.resolve import snapshot

    vllm = snapshot.releases(canonicalize_name("vllm"))
    torch = snapshot.releases(canonicalize_name("torch"))
    from packaging.version import Version

    assert "torch==2.4.0" in (vllm[Version("0.6.3")] or ())
    assert any(line.startswith("triton==3.0.0") for line in torch[Version("2.4.0")] or ())


def test_a_pin_infers_the_exact_release_chain(tmp_path: Path) -> None:
    """`vllm==0.6.3` installs torch 2.4.0 and, through it, triton 3.0.0: judged exactly."""
    requirements = write(tmp_path / "requirements.txt", "vllm==0.6.3\n")
    _, report = check(str(requirements), "--offline", "--python-version", "3.11",
                      "--platform", "linux")  # fmt: skip
    (install,) = report["environment"]["installs"]
    assert install["by"].startswith("compat's offline solve over its dependency snapshot of")
    assert install["packages"]["torch"] == "2.4.0"  # vllm 0.6.3's pin
    assert install["packages"]["triton"] == "3.0.0"  # torch 2.4.0's pin
    assert "torch-triton-series-mismatch" not in by_rule(report)
