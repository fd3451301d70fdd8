"""torch's CUDA build message read against the GPUs a log shows (issue 43 item 5; held-out set
explain-rocm-8): `Found no NVIDIA driver on your system` is what only torch's CUDA build says
(c10/cuda's device count with no driver), so where the log shows AMD GPUs torch is the wrong
build; where it shows an NVIDIA GPU or none, the same message is a machine without an NVIDIA
driver and no such cause is listed. The wordings are rocminfo's and collect_env's, not the
held-out set's (a GPU named in a sentence)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

RULE = "torch-cuda-build-finds-no-nvidia-driver-on-amd-gpu"
CAUSES = ("confirmed", "symptom-only")
ERROR = (
    "Traceback (most recent call last):\n"
    '  File "/srv/venv/lib/python3.10/site-packages/torch/cuda/__init__.py", line 302, in'
    " _lazy_init\n"
    "    torch._C._cuda_init()\n"
    "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA"
    " GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n"
)


def causes(tmp_path: Path, text: str) -> list[dict[str, Any]]:
    log = tmp_path / "run.log"
    log.write_text(text, encoding="utf-8")
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return [m for m in result.json()["matches"] if m["verdict"] in CAUSES]


@pytest.mark.parametrize(
    "machine",
    [
        # rocminfo's agent (an RX 6800 XT)
        "*******\nAgent 2\n*******\n  Name:                    gfx1030\n"
        "  Marketing Name:          AMD Radeon RX 6800 XT\n",
        # rocm-smi --showhw's target line (an RX 7900 XTX)
        "GPU[0]\t\t: GFX Version: \t\tgfx1100\n",
    ],
)
def test_the_cuda_builds_message_on_amd_gpus_is_the_wrong_build(
    tmp_path: Path, machine: str
) -> None:
    found = causes(tmp_path, machine + ERROR)
    assert [(m["rule"], m["verdict"]) for m in found] == [(RULE, "symptom-only")]
    # the log names AMD GPUs, not the machine's list: an NVIDIA one beside them is asked
    assert [u.split(" — ")[0] for u in found[0]["unknown"]] == ["hardware.gpus"]


@pytest.mark.parametrize(
    "machine",
    [
        "",  # a CPU-only runtime or a container without the GPU says the same
        "GPU models and configuration: GPU 0: NVIDIA GeForce RTX 3060\n",
    ],
)
def test_without_amd_gpus_the_message_is_no_such_cause(tmp_path: Path, machine: str) -> None:
    assert [m["rule"] for m in causes(tmp_path, machine + ERROR)] == []
