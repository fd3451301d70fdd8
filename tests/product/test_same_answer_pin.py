"""One offline pin whatever compat's cache holds (issue 23, item 3).

`compat pin --offline` chooses among the releases the knowledge base names and the shipped
dependency snapshot records, with the snapshot's Requires-Dist: never what the index cache holds.
Each case runs as a real process with its own COMPAT_CACHE_DIR: cold, warm (an online pin of the
same file against a loopback index filled it first) and polluted (unrelated online runs cached
releases whose metadata contradicts the snapshot). The constraints must be the same bytes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_subprocess
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.cache import POLLUTING, pollute

REAL = paths.REAL / "resolve"
GRPO_VLLM = ["--set", "trainer=grpo", "--set", "use_vllm=true"]

# What the warm-up's online pin reads: releases the snapshot does not have, or has otherwise
# (a vllm 0.7.9 pinning torch 2.1.2 would escape without moving the user's torch pin).
WARMING = {
    **POLLUTING,
    "torch": [*POLLUTING["torch"], *(Dist("torch", v) for v in ("2.1.2", "2.5.1"))],
    "trl": [Dist("trl", "0.14.0")],
    "vllm": [Dist("vllm", "0.7.1", requires=["torch==2.5.1"]),
             Dist("vllm", "0.7.9", requires=["torch==2.1.2"])],
    "bitsandbytes": [Dist("bitsandbytes", v, requires=["torch"]) for v in ("0.45.2", "0.50.1")],
    "deepspeed": [Dist("deepspeed", v, requires=["torch"]) for v in ("0.13.5", "0.99.0")],
}  # fmt: skip


def hardware(tmp_path: Path) -> Path:
    gpu = {"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
    path = tmp_path / "a100x2.json"
    path.write_text(json.dumps({"schema": "compat.hardware/1", "driver_version": "535.104.05",
                                "cuda_driver_version": "12.2", "gpus": [gpu, gpu]}))  # fmt: skip
    return path


def pin(files: list[Path], extra: list[str], cache: Path, index_url: str, *more: str) -> str:
    result = run_subprocess(
        ["pin", *(a for f in files for a in ("-r", str(f))), *extra,
         "--index-url", index_url, *more],
        env={"COMPAT_CACHE_DIR": str(cache)},
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("case", ["issue23-item6", "litgpt", "internvl"])
def test_offline_pin_is_the_same_with_cold_warm_and_polluted_caches(
    case: str, tmp_path: Path
) -> None:
    if case == "issue23-item6":
        requirements = tmp_path / "requirements.txt"
        requirements.write_text("torch==2.1.2\ntrl==0.14.0\nvllm==0.7.1\n")
        files, extra = [requirements], GRPO_VLLM
    elif case == "litgpt":
        files, extra = [REAL / "litgpt-pyproject.toml"], []
    else:
        files, extra = [REAL / "InternVL-requirements-internvl_chat.txt"], []
    extra = [*extra, "--hardware", str(hardware(tmp_path))]
    with IndexServer(WARMING) as index:
        cold = pin(files, extra, tmp_path / "cold", index.url, "--offline")
        warm_cache = tmp_path / "warm"
        pin(files, extra, warm_cache, index.url, "--no-verify")  # online: fills the cache
        assert any(warm_cache.rglob("*")), "the online pin cached nothing"
        warm = pin(files, extra, warm_cache, index.url, "--offline")
        polluted_cache = tmp_path / "polluted"
        pollute(polluted_cache, tmp_path, index)
        polluted = pin(files, extra, polluted_cache, index.url, "--offline")
    assert "# candidates: offline (dependency snapshot" in cold
    assert warm == cold
    assert polluted == cold
