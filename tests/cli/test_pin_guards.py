"""pin's `guarded by` (JSON `guarded_by`) names the rules that could apply with the facts pin has.

Every rule that speaks of a package is in the solve, but a user reads "guarded by X" as "X is
why this line matters here". A rule the engine finds FALSE on the plan's known facts (a compute
capability on an all-AMD machine, a ROCm build on an NVIDIA one, a CUDA build of torch where the
plan's torch is a ROCm build, a package the plan does not hold) is not named; an unknown fact
(no hardware) never drops one; the rules that weighed on the solve come first. The versions
chosen are not touched (tests/unit/resolve/test_pin_*.py, tests/product/test_same_answer_pin.py).
Through the CLI in-process, the AMD example profiles and the NVIDIA ones of tests/profiles.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from compat.kb.knowledge import load_knowledge_base
from tests.conftest import run_cli
from tests.lib.paths import REAL, REPO
from tests.profiles import R470, R580

MI300X = REPO / "docs" / "examples" / "hardware" / "amd-mi300x-8.json"
# The file of the amd-ux review: a ROCm torch pin beside CUDA-minded packages.
REVIEW = "torch==2.4.1+rocm6.1\nbitsandbytes\nflash-attn==2.7.4.post1\ntransformers\n"
NVIDIA = "torch==2.4.1\nbitsandbytes\nflash-attn==2.7.4.post1\ntransformers\n"


def _pin(tmp_path: Path, text: str, *args: str) -> dict[str, dict[str, Any]]:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(text, encoding="utf-8")
    result = run_cli(["pin", "--offline", "-r", str(requirements), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    return {p["name"]: p for p in result.json()["pins"]}


def _profile(tmp_path: Path, profile: dict[str, Any]) -> str:
    path = tmp_path / "hardware.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    return str(path)


def _asking(section: str, key: str) -> set[str]:
    """Rules of the shipped knowledge base with a `section: {key: ...}` condition anywhere."""

    def walk(when: Any) -> bool:
        if isinstance(when, dict):
            if isinstance(when.get(section), dict) and key in when[section]:
                return True
            return any(walk(v) for v in when.values())
        return isinstance(when, list) and any(walk(v) for v in when)

    return {plain["id"] for plain in load_knowledge_base().plain if walk(plain["when"])}


def _rocm_rules() -> set[str]:
    data = yaml.safe_load((REPO / "compat" / "matrix" / "rocm.yaml").read_text(encoding="utf-8"))
    return {rule["id"] for rule in data["rules"]}


def test_an_amd_machine_is_not_guarded_by_nvidia_only_rules(tmp_path: Path) -> None:
    pins = _pin(tmp_path, REVIEW, "--hardware", str(MI300X))
    shown = {rule for pin in pins.values() for rule in pin["guarded_by"]}
    # a CUDA compute capability: no AMD GPU has one (flash-attention-2-needs-ampere)
    assert not shown & _asking("hardware", "compute_capability")
    # bitsandbytes' CUDA library for torch's CUDA build: the plan's torch is its ROCm 6.1 build
    assert "bitsandbytes-no-library-for-torch-cuda" not in pins["torch"]["guarded_by"]
    assert not pins["flash-attn"]["guarded_by"]  # nothing on this machine speaks for it
    assert (pins["torch"]["version"], pins["torch"]["action"]) == ("2.4.1", "kept")  # as pinned


def test_the_text_line_says_what_the_json_says(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(REVIEW, encoding="utf-8")
    result = run_cli(["pin", "--offline", "-r", str(requirements), "--hardware", str(MI300X)])
    assert result.exit_code == 0, result.stderr
    lines = {line.split("==")[0]: line for line in result.stdout.splitlines() if "==" in line}
    assert lines["flash-attn"].split("#")[1].strip() == "kept (your pin)"
    assert "flash-attention-2-needs-ampere" not in result.stdout
    assert "bitsandbytes-no-library-for-torch-cuda" not in result.stdout


def test_the_rules_that_moved_a_companion_come_first(tmp_path: Path) -> None:
    pins = _pin(tmp_path, REVIEW, "--hardware", str(MI300X))
    # transformers moved off 5.x because of torch's kept pin: those rules are why torch's
    # line matters, so they lead its guards (the knowledge base's order put others first)
    moved = pins["transformers"]["via"]
    assert pins["transformers"]["action"] == "downgrade" and moved
    assert pins["torch"]["guarded_by"][: len(moved)] == moved


def test_an_nvidia_machine_is_not_guarded_by_rocm_rules(tmp_path: Path) -> None:
    pins = _pin(tmp_path, NVIDIA, "--hardware", _profile(tmp_path, R580))
    shown = {rule for pin in pins.values() for rule in pin["guarded_by"]}
    assert not shown & _rocm_rules()
    assert not shown & _asking("hardware", "gfx_target")
    assert pins["torch"]["guarded_by"]  # the CUDA build's own rules stay


def test_a_rule_the_machine_meets_still_guards(tmp_path: Path) -> None:
    # A V100 (compute capability 7.0): FlashAttention-2 refuses it, so the rule speaks here
    pins = _pin(tmp_path, NVIDIA, "--hardware", _profile(tmp_path, R470))
    assert "flash-attention-2-needs-ampere" in pins["flash-attn"]["guarded_by"]


def test_unknown_hardware_drops_no_hardware_rule(tmp_path: Path) -> None:
    pins = _pin(tmp_path, NVIDIA, "--no-probe")
    assert "flash-attention-2-needs-ampere" in pins["flash-attn"]["guarded_by"]
    # a rule whose fact is not known is kept: on the AMD ones, the GPU's target is unknown
    assert pins["torch"]["guarded_by"]


def test_a_real_file_on_an_amd_machine(tmp_path: Path) -> None:
    text = (REAL / "OpenRLHF-requirements.txt").read_text(encoding="utf-8")
    pins = _pin(tmp_path, text, "--hardware", str(MI300X))
    shown = {rule for pin in pins.values() for rule in pin["guarded_by"]}
    assert not shown & _asking("hardware", "compute_capability")
    assert not shown & _asking("hardware", "driver")  # the NVIDIA driver: none on this machine
