"""pin pins an unpinned requirement "because a hardware rule guards it" only where one can apply.

A requirement the user left unpinned, and that no proof resolved (`--no-verify`), is left to the
resolver unless a hardware rule speaks of it: then pin writes the release it judged against this
machine (`kept (the newest release your requirement allows; a hardware rule guards it)`). A rule
whose hardware conditions the machine fails (a compute capability or an NVIDIA driver on a
machine of AMD GPUs, the Ampere floor on an A100, two GPUs on a one-GPU node) flags no release
here, so it guards nothing; an unknown hardware fact (no driver in the profile) still counts.
Through the CLI in-process, the MI300X example profile and tests/profiles.py's NVIDIA ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.lib.paths import REPO
from tests.profiles import R470, R535, R580

MI300X = REPO / "docs" / "examples" / "hardware" / "amd-mi300x-8.json"
GUARDED = "kept (the newest release your requirement allows; a hardware rule guards it)"
# An A100 whose driver the profile does not say: the driver rules may apply, the Ampere one not.
NO_DRIVER = {
    "schema": "compat.hardware/1",
    "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}


def _hardware(tmp_path: Path, profile: dict[str, Any] | Path) -> str:
    if isinstance(profile, Path):
        return str(profile)
    path = tmp_path / "hardware.json"
    path.write_text(json.dumps(profile), encoding="utf-8")
    return str(path)


def _pin(tmp_path: Path, text: str, profile: dict[str, Any] | Path) -> tuple[str, dict[str, Any]]:
    """The constraints text and the JSON pins, by name, of one `--no-verify` pin."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(text, encoding="utf-8")
    argv = ["pin", "--offline", "--no-verify", "-r", str(requirements)]
    argv += ["--hardware", _hardware(tmp_path, profile)]
    text_run = run_cli(argv)
    json_run = run_cli([*argv, "--format", "json"])
    assert text_run.exit_code in (0, 1), text_run.stderr
    assert json_run.exit_code == text_run.exit_code, json_run.stderr
    return text_run.stdout, {p["name"]: p for p in json_run.json()["pins"]}


def _lines(text: str) -> dict[str, str]:
    return {line.split("==")[0]: line for line in text.splitlines() if "==" in line}


def _left(text: str) -> list[str]:
    prefix = "# left to the resolver (unpinned requirements, not proven here): "
    found = [line.removeprefix(prefix) for line in text.splitlines() if line.startswith(prefix)]
    return found[0].split(", ") if found else []


def test_an_amd_machine_leaves_what_only_nvidia_rules_speak_of(tmp_path: Path) -> None:
    # the amd-ux review's file: flash-attn's hardware rule is a compute capability,
    # bitsandbytes' are compute capabilities too; no AMD GPU has one
    text, pins = _pin(
        tmp_path, "torch==2.4.1+rocm6.1\nbitsandbytes\nflash-attn\ntransformers\n", MI300X
    )
    assert "a hardware rule guards it" not in text
    assert {"bitsandbytes", "flash-attn"} <= set(_left(text))
    assert "flash-attn" not in _lines(text) and "bitsandbytes" not in _lines(text)
    assert pins["flash-attn"]["constraint"] is None
    assert pins["bitsandbytes"]["constraint"] is None
    assert _lines(text)["torch"].split("#")[1].startswith(" kept (your pin)")  # the user's own


def test_a_one_gpu_ampere_node_leaves_what_no_rule_can_flag_there(tmp_path: Path) -> None:
    # A100 (8.0): FlashAttention-2's Ampere floor and vLLM's Volta one are met, bitsandbytes'
    # int8 rules ask for pre-Turing or Hopper, the GRPO device rules for two GPUs
    text, pins = _pin(tmp_path, "torch\nflash-attn\nbitsandbytes\nvllm\ntrl\n", R535)
    assert {"bitsandbytes", "flash-attn", "vllm"} <= set(_left(text))
    assert pins["vllm"]["constraint"] is None
    assert "a hardware rule guards it" not in text
    # the driver rules still judge torch: R535 cannot run its CUDA 13 builds
    assert _lines(text)["torch"].startswith("torch==2.14.0+cu126")


def test_a_rule_the_machine_meets_still_pins(tmp_path: Path) -> None:
    # 8x H100: bitsandbytes' int8 rule for Hopper and vLLM's multi-GPU GRPO rules can apply
    text, pins = _pin(tmp_path, "torch\nflash-attn\nbitsandbytes\nvllm\ntrl\n", R580)
    lines = _lines(text)
    for name in ("bitsandbytes", "vllm"):
        assert GUARDED in lines[name], lines[name]
        assert pins[name]["constraint"] == f"{name}=={pins[name]['version']}"
    assert "flash-attn" in _left(text)  # an H100 is past the Ampere floor


def test_a_pre_ampere_gpu_still_pins_flash_attn(tmp_path: Path) -> None:
    # 4x V100 (7.0): FlashAttention-2 refuses it, so its rule guards the release pin judged
    text, pins = _pin(tmp_path, "torch\nflash-attn\nbitsandbytes\nvllm\ntrl\n", R470)
    assert "flash-attention-2-needs-ampere" in pins["flash-attn"]["guarded_by"]
    assert pins["flash-attn"]["constraint"] is not None
    assert "flash-attn" not in _left(text)


def test_an_unknown_driver_still_guards_torch(tmp_path: Path) -> None:
    text, pins = _pin(tmp_path, "torch\nflash-attn\n", NO_DRIVER)
    torch = _lines(text)["torch"]
    assert GUARDED in torch and "cuda13-build-on-pre-580-driver" in torch
    assert pins["torch"]["constraint"] == f"torch=={pins['torch']['version']}"
    assert _left(text) == ["flash-attn"]
