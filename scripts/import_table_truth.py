#!/usr/bin/env python3
"""Write tests/data/pyimports/TABLE-TRUTH.json: the truth beside the import table's example breaks
(issue 41 item 2; scripts/gen_import_table.py), set by real imports, not by compat.

For each break the importing line is the one upstream reports failing (the reports are named).
Where the defining release's wheels import without torch, a fresh venv per release (real pip,
from PyPI, with its dependencies) runs `from MODULE import NAME`: the failing release's real
error line and the fixing release's `ok` are recorded. The importer's own `import` is not run
where it imports torch first (accelerate, PEFT): torch's wheel is 900 MB; that is said per case.

Usage: python scripts/import_table_truth.py [--venvs DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "pyimports" / "TABLE-TRUTH.json"

BREAKS: tuple[dict[str, Any], ...] = (
    {
        "importer": "accelerate==0.32.0",
        "defining": "huggingface_hub==0.20.3",
        "fixed by": "huggingface_hub==0.21.0",
        "line": "accelerate/accelerator.py:34",
        "statement": "from huggingface_hub import split_torch_state_dict_into_shards",
        "error": "ImportError: cannot import name 'split_torch_state_dict_into_shards' from "
        "'huggingface_hub'",
        "reports": [
            "https://github.com/ZhangXInFD/SpeechTokenizer/issues/12",
            "https://github.com/mlflow/mlflow/pull/12582",
        ],
        "not run": "import accelerate: accelerate/accelerator.py imports torch (line 32) first",
        "run": True,
    },
    {
        "importer": "peft==0.15.2",
        "defining": "accelerate==0.30.1",
        "fixed by": "accelerate==0.32.1",
        "line": "peft/utils/loftq_utils.py:25",
        "statement": "from accelerate.utils.memory import clear_device_cache",
        "error": "ImportError: cannot import name 'clear_device_cache' from "
        "'accelerate.utils.memory'",
        "reports": [
            "https://github.com/hiyouga/LlamaFactory/issues/8142",
            "https://github.com/OpenBMB/MiniCPM-V/issues/926",
        ],
        "not run": "accelerate's __init__ imports torch: neither import runs without it",
        "run": False,
    },
    {
        "importer": "peft==0.13.2",
        "defining": "huggingface_hub==0.21.0",
        "fixed by": "huggingface_hub==0.23.0",
        "line": "peft/utils/loftq_utils.py:26",
        "statement": "from huggingface_hub.errors import HFValidationError",
        "error": "ModuleNotFoundError: No module named 'huggingface_hub.errors'",
        "reports": [
            "https://github.com/huggingface/peft/issues/2116",
            "https://github.com/huggingface/peft/issues/2097",
        ],
        "not run": "import peft: peft imports torch first",
        "run": True,
    },
    {
        "importer": "trl==1.0.0",
        "defining": "torch==2.5.1",
        "fixed by": "torch==2.6.0",
        "line": "trl/models/utils.py:27",
        "statement": "from torch.distributed.fsdp import FSDPModule",
        "error": "ImportError: cannot import name 'FSDPModule' from 'torch.distributed.fsdp'",
        "reports": ["https://github.com/Algorineko/AgenticArXiv-RL/pull/61"],
        "not run": "torch's wheel is 900 MB; `import trl` does not run trl/models/utils.py "
        "(the trainers that import it do: `possible`, not `affected`)",
        "run": False,
    },
)


def run_in_venv(venvs: Path, release: str, statement: str) -> str:
    venv = venvs / release.replace("==", "-")
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", release],
            check=True,
            env=env,
        )
    done = subprocess.run([str(python), "-c", statement], capture_output=True, text=True)
    if done.returncode == 0:
        return "ok"
    last = [line for line in done.stderr.splitlines() if line.strip()][-1]
    return last.replace(str(venv), "/venv")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venvs", type=Path, default=Path("/tmp/compat-import-truth"))
    args = parser.parse_args()
    args.venvs.mkdir(parents=True, exist_ok=True)
    breaks = []
    for case in BREAKS:
        entry = {k: v for k, v in case.items() if k != "run"}
        if case["run"]:
            entry["defining import"] = {
                "statement": case["statement"],
                "result": run_in_venv(args.venvs, case["defining"], case["statement"]),
                case["fixed by"]: run_in_venv(args.venvs, case["fixed by"], case["statement"]),
            }
        breaks.append(entry)
    document = {
        "about": "The truth beside the import table's example breaks "
        "(scripts/import_table_truth.py): the upstream reports of the failing line, and the "
        "defining release's real import of the name in a venv built with pip from PyPI.",
        "breaks": breaks,
    }
    tmp = OUT.with_suffix(".part")
    tmp.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, OUT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
