"""A compat cache filled by unrelated online runs whose index serves releases that contradict
the real ones: an answer must not change with what the cache holds (issue 23)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_subprocess
from tests.indexserver import Dist, IndexServer

# What the unrelated runs read: releases whose metadata contradicts the real ones.
POLLUTING = {
    "torch": [
        Dist("torch", "2.4.0", requires=["triton~=3.9.0"]),
        Dist("torch", "2.15.0", requires=["triton~=3.9.0"]),
    ],
    "triton": [Dist("triton", "3.9.0")],
    "accelerate": [Dist("accelerate", "1.2.0", requires=["torch>=2.15"])],
    "peft": [Dist("peft", "0.13.2", requires=["torch>=2.15", "accelerate"])],
    "vllm": [Dist("vllm", "0.6.3", requires=["torch==2.15.0"])],
    "transformers": [Dist("transformers", "4.47.1", requires=["tokenizers"])],
    "tokenizers": [Dist("tokenizers", "0.21.0")],
    "flash-attn": [Dist("flash-attn", "2.7.3", requires=["torch"])],
}
UNRELATED = "torch\naccelerate==1.2.0\npeft==0.13.2\nvllm==0.6.3\ntransformers==4.47.1\n"


def pollute(cache: Path, tmp_path: Path, index: IndexServer) -> None:
    """Unrelated online runs that fill the cache with index pages and metadata: pin reads each
    candidate's Requires-Dist through compat's index client, which caches them."""
    unrelated = tmp_path / "unrelated.txt"
    unrelated.write_text(UNRELATED)
    result = run_subprocess(
        ["pin", "-r", str(unrelated), "--no-verify", "--no-probe", "--index-url", index.url],
        env={"COMPAT_CACHE_DIR": str(cache)},
    )
    assert result.exit_code in (0, 1), result.stderr
    asked = [r.path for r in index.requests if r.path.endswith(".metadata")]
    assert asked  # the cache now holds metadata the snapshot contradicts
    assert any(cache.rglob("*")), "the unrelated run cached nothing"
