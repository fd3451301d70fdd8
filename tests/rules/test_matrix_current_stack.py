"""A clean, current stack must give no affected finding: false alarms are bugs.

The environment is what `pip install "trl[vllm]==1.16.0" deepspeed bitsandbytes flash-attn` resolves
to in November 2026 on Python 3.12, written to disk as pip leaves it, with an 8x H100 (R580 driver)
hardware profile. Versions follow the pins and ranges recorded in scripts/inputs/ (vLLM 0.31.0 pins
torch 2.13.0, numba 0.65.0 and flashinfer-python 0.7.0.post1 and caps transformers below 5.18;
trl 1.16.0 allows vLLM up to 0.31.0; datasets 5.2.0 needs huggingface-hub 1.31+ and pyarrow 24+).
Each usage set exercises a different family of rules: no configuration at all (a file that never
uses the feature), GRPO with vLLM under ZeRO-3 with CPU offload, FSDP2 with PEFT, and
flash-attention 2 with bf16.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_dist

TORCH_REQUIRES = [
    'nvidia-cudnn-cu13==9.20.0.48; platform_system == "Linux"',
    'nvidia-nccl-cu13==2.29.7; platform_system == "Linux"',
    'triton==3.7.1; platform_system == "Linux" and python_version < "3.15"',
    'cuda-toolkit[cublas,cudart]==13.0.2; platform_system == "Linux"',
]
CURRENT = {
    "triton": "3.7.1", "nvidia-cudnn-cu13": "9.20.0.48", "nvidia-nccl-cu13": "2.29.7",
    "torchvision": "0.28.0", "torchaudio": "2.11.0", "vllm": "0.31.0", "numba": "0.65.0",
    "numpy": "2.4.4", "flashinfer-python": "0.7.0.post1", "transformers": "5.17.0",
    "tokenizers": "0.23.3", "huggingface-hub": "1.33.0", "safetensors": "0.8.0", "peft": "0.21.2",
    "accelerate": "1.15.0", "trl": "1.16.0", "datasets": "5.2.0", "fsspec": "2026.9.0",
    "pyarrow": "26.0.1", "deepspeed": "0.19.8", "flash-attn": "2.8.3", "bitsandbytes": "0.50.2",
    "pandas": "2.3.3",
}  # fmt: skip
H100_R580 = {
    "schema": "compat.hardware/1",
    "driver_version": "580.95.05",
    "cuda_driver_version": "13.0",
    "gpus": [
        {"index": i, "name": "NVIDIA H100 80GB HBM3", "uuid": f"GPU-{i}", "compute_capability": "9.0",
         "memory_total_mib": 81559, "mig": False}
        for i in range(8)
    ],
}  # fmt: skip
USAGE = {
    "nothing-configured": [],
    "grpo-vllm-zero3-offload": [
        "trainer=grpo", "use_vllm=true", "distributed=deepspeed", "zero_stage=3",
        "offload_optimizer=cpu", "gradient_clipping=1.0", "mixed_precision=bf16", "peft=true",
        "gradient_checkpointing=true", "num_processes=8", "beta=0.04",
    ],
    "sft-fsdp2-lora": [
        "trainer=sft", "use_vllm=false", "distributed=fsdp", "fsdp_version=2", "peft=true",
        "mixed_precision=bf16",
    ],
    "flash-attention-2-bf16": ["attn_implementation=flash_attention_2", "mixed_precision=bf16"],
}  # fmt: skip


def current_stack(site: Path) -> Path:
    make_dist(site, "torch", "2.13.0", requires=TORCH_REQUIRES)
    for name, version in CURRENT.items():
        make_dist(site, name, version)
    return site


def findings(site: Path, profile: Path, settings: list[str]) -> list[dict[str, Any]]:
    args = [arg for item in settings for arg in ("--set", item)]
    result = run_cli(
        ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json", *args]
    )
    assert result.exit_code in (0, 1), result.stderr
    found: list[dict[str, Any]] = result.json()["findings"]
    return found


@pytest.mark.parametrize("usage", list(USAGE), ids=list(USAGE))
def test_current_stack_gives_no_affected_finding(tmp_path: Path, usage: str) -> None:
    site = current_stack(tmp_path / "venv" / "lib" / "python3.12" / "site-packages")
    profile = tmp_path / "h100x8.json"
    profile.write_text(json.dumps(H100_R580))
    found = findings(site, profile, USAGE[usage])
    assert [f["rule"] for f in found if f["status"] == "affected"] == []
    # Python is known from lib/python3.12/site-packages and every usage fact a rule could ask for
    # is either given or irrelevant: not even a possible finding is left.
    assert [f["rule"] for f in found] == []


def test_the_stack_is_read_as_written(tmp_path: Path) -> None:
    # Guard against a test that passes because nothing was read: the same stack with torch moved
    # one release on its own breaks vLLM's and torchvision's pins at once.
    site = current_stack(tmp_path / "venv" / "lib" / "python3.12" / "site-packages")
    (site / "torch-2.13.0.dist-info").rename(site / "torch-2.14.0.dist-info")
    meta = site / "torch-2.14.0.dist-info" / "METADATA"
    meta.write_text(meta.read_text().replace("Version: 2.13.0", "Version: 2.14.0"))
    profile = tmp_path / "h100x8.json"
    profile.write_text(json.dumps(H100_R580))
    affected = {f["rule"] for f in findings(site, profile, []) if f["status"] == "affected"}
    assert {"vllm-torch-pin-mismatch", "torchvision-torch-pair-mismatch"} <= affected
