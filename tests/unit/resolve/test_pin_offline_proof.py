"""pin --offline proves its plan with check's offline solve (issue 32 item 6): the user's
requirements under the constraints, solved over the dependency snapshot, then re-checked. Real
files of public training repositories, on the A100 / R535 profile."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.lib import paths
from tests.lib.hardware import R535, profile_file


def pin_offline(tmp_path: Path, requirements: Path, *more: str) -> tuple[int, dict[str, Any], str]:
    hardware = profile_file(tmp_path, R535)
    args = ["pin", "-r", str(requirements), "--offline", "--hardware", str(hardware), *more]
    text = run_cli(args)
    document = run_cli([*args, "--format", "json"])
    assert document.exit_code == text.exit_code, document.stderr
    return text.exit_code, json.loads(document.stdout), text.stdout


def test_the_offline_solve_proves_a_real_file(tmp_path: Path) -> None:
    # trl's own requirements: every release the install takes is in the snapshot.
    code, document, text = pin_offline(tmp_path, paths.REAL / "trl-requirements.txt")
    assert code == 0, text
    proof = document["proof"]
    assert proof["status"] == "proven"
    assert "offline solve" in proof["detail"]
    assert len(proof["resolved"]) > 10  # the install, transitive packages included
    assert "# proof: " in text and "# proof skipped" not in text
    # The proven install is the plan: every `==` line is the release the solve took.
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line)
        if match and match[1].lower() in proof["resolved"]:
            assert proof["resolved"][match[1].lower()] == match[2], line


def test_what_the_snapshot_cannot_decide_is_not_proven(tmp_path: Path) -> None:
    # verl: hydra-core requires antlr4-python3-runtime==4.9.*, published as source only, so
    # the snapshot lacks what it requires: the proof names it and is never "proven".
    code, document, text = pin_offline(tmp_path, paths.REAL / "verl-requirements.txt")
    assert code == 0, text
    proof = document["proof"]
    assert proof["status"] == "unproven"
    assert "antlr4-python3-runtime" in proof["detail"]
    assert "# proof: not proven offline: " in text


def test_requirements_that_cannot_install_together_fail_the_proof(tmp_path: Path) -> None:
    # gpt-neox's pyproject asks for huggingface-hub<0.12 (through tokenizers 0.12 beside
    # transformers==4.38.0) and >=0.19.3: no install exists, online (uv says so) or offline.
    code, document, text = pin_offline(tmp_path, paths.REAL / "check" / "gpt-neox-pyproject.toml")
    assert code == 1
    proof = document["proof"]
    assert proof["status"] == "failed"
    assert "huggingface-hub" in proof["detail"]  # the conflict, named
    assert "# PROOF FAILED: " in text


def test_no_verify_still_skips_the_offline_proof(tmp_path: Path) -> None:
    code, document, _ = pin_offline(tmp_path, paths.REAL / "trl-requirements.txt", "--no-verify")
    assert code == 0
    assert document["proof"]["status"] == "skipped"
