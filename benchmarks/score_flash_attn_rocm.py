"""Score `compat check --offline` on benchmarks/heldout/flash-attn-rocm-1/cases.yaml: for each real
flash-attn install on an AMD GPU, does flash-attn-rocm-ck-build-lacks-gpu-target say what the
sources say? (The table and the check are score_xformers_rocm.score's.)

Usage: python benchmarks/score_flash_attn_rocm.py [DIR]   (run from the repository root)"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score_xformers_rocm import score

RULE = "flash-attn-rocm-ck-build-lacks-gpu-target"

if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/heldout/flash-attn-rocm-1")
    raise SystemExit(score(folder, RULE))
