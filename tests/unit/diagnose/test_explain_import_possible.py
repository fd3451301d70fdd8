"""`cannot import name 'X' from 'M'` is a possible cause even without the environment (issue 40):
the message itself says the M that ran does not define X (AutoModelForVision2Seq, removed in
transformers 5: open-compass/VLMEvalKit#1675, intel/auto-round#1412). Listed and counted as a
cause (exit 0, as a symptom-only match is), with the printed release where the log shows one.
Real wordings: MaraScott/ComfyUI_MaraScott_Nodes#213 (Windows, ImportError), 1038lab/
ComfyUI-QwenVL#137 (a loader printing the message), transformers 5.0.0 as in VLMEvalKit#1418."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli

COMFY = r"H:\ComfyUI\ComfyUI_windows_portable_nvidia_cu128_v0.3.67"
MARASCOTT = (
    "Traceback (most recent call last):\n"
    f'  File "{COMFY}\\ComfyUI\\nodes.py", line 2223, in load_custom_node\n'
    "    module_spec.loader.exec_module(module)\n"
    '  File "<frozen importlib._bootstrap_external>", line 999, in exec_module\n'
    f'  File "{COMFY}\\ComfyUI\\custom_nodes\\comfyui_marascott_nodes\\py\\inc\\lib\\llm.py", '
    "line 6, in <module>\n"
    "    from transformers import AutoProcessor, AutoModelForVision2Seq, AutoModelForCausalLM\n"
    "ImportError: cannot import name 'AutoModelForVision2Seq' from 'transformers' "
    f"({COMFY}\\python_embeded\\Lib\\site-packages\\transformers\\__init__.py)\n"
    "\n"
    f"Cannot import {COMFY}\\ComfyUI\\custom_nodes\\comfyui_marascott_nodes module for custom "
    "nodes: cannot import name 'AutoModelForVision2Seq' from 'transformers' "
    f"({COMFY}\\python_embeded\\Lib\\site-packages\\transformers\\__init__.py)\n"
)
QWENVL = (
    "transformers==5.0.0\n"
    "Error loading module AILab_QwenVL: cannot import name 'AutoModelForVision2Seq' from "
    "'transformers' (/home/username/ai/ComfyUI/venv/lib/python3.12/site-packages/transformers/"
    "__init__.py)\n"
)


def explain(tmp_path: Path, text: str, fmt: str = "json") -> tuple[int, str]:
    log = tmp_path / "run.log"
    log.write_text(text)
    result = run_cli(["explain", str(log), "--format", fmt])
    return result.exit_code, result.stdout


def imports(tmp_path: Path, text: str) -> tuple[int, list[dict[str, Any]]]:
    code, out = explain(tmp_path, text)
    found: list[dict[str, Any]] = json.loads(out)["imports"]
    return code, found


def test_an_import_error_without_the_files_is_a_possible_cause(tmp_path: Path) -> None:
    code, found = imports(tmp_path, MARASCOTT)
    assert code == 0  # a cause is listed
    # one failure, though the loader repeats its message on line 10
    assert [(f["line"], f["module"], f["name"], f["installed"]) for f in found] == [
        (7, "transformers", "AutoModelForVision2Seq", "not-read")
    ]
    assert (
        "the transformers that ran does not provide `AutoModelForVision2Seq`"
        in (found[0]["detail"])
    )
    assert found[0]["importer"].endswith("llm.py:6")
    code, text = explain(tmp_path, MARASCOTT, "text")
    assert "1 known cause(s)" in text and "no known cause" not in text
    assert "import failure (line 7, possible cause)" in text


def test_a_loader_printing_the_message_names_the_release_the_log_shows(tmp_path: Path) -> None:
    code, found = imports(tmp_path, QWENVL)
    assert code == 0
    ((entry),) = found
    assert (entry["line"], entry["version"], entry["version_from"]) == (2, "5.0.0", "log")
    assert (
        "transformers 5.0.0 (from the log) does not provide `AutoModelForVision2Seq`"
        in (entry["detail"])
    )


def test_a_missing_attribute_is_not_counted(tmp_path: Path) -> None:
    # `module 'M' has no attribute 'X'` has other causes (a circular import, a local file named
    # like the module): listed as a reading, not counted as a cause.
    code, found = imports(tmp_path, "AttributeError: module 'numpy' has no attribute 'float'\n")
    assert code == 1 and [f["kind"] for f in found] == ["no-attribute"]
