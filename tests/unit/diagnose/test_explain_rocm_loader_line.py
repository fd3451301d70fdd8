"""HIP's fatbin loader line read as the missing-code-object failure and the GPU's target (issue
43 item 5; held-out set explain-rocm-8): at AMD_LOG_LEVEL>=1 ROCm/clr's hip_fatbin.cpp prints
`No compatible code objects found for: <the device's target ID>` before it fails, and a launch
may segfault with no HIP error after it. The wordings here are other programs', targets' and
releases' than the held-out set's (its llama.cpp gfx1152 log)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

CAUSES = ("confirmed", "symptom-only")


def explain(tmp_path: Path, text: str) -> dict[str, Any]:
    log = tmp_path / "run.log"
    log.write_text(text, encoding="utf-8")
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def causes(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in document["matches"] if m["verdict"] in CAUSES]


@pytest.mark.parametrize(
    ("text", "line", "target"),
    [
        # aiter's prebuilt gfx94x/95x modules loaded on an RDNA4 GPU, then a segfault (HIP 7.x)
        (
            "[aiter] import [module_pa] under /opt/aiter/jit/module_pa.so\n"
            ":1:hip_fatbin.cpp           :662 : 2281730101 us:  No compatible code objects found"
            " for: gfx1201, value of HIP_FORCE_SPIRV_CODEOBJECT: 0\n"
            "Segmentation fault (core dumped)\n",
            2,
            "gfx1201",
        ),
        # the target ID with its features (an MI250X), with HIP 6's pid/tid prefix
        (
            ":1:hip_fatbin.cpp           :576 : 88123 us: [pid:4120 tid:0x7f3a] No compatible"
            " code objects found for: gfx90a:sramecc+:xnack-, value of"
            " HIP_FORCE_SPIRV_CODEOBJECT: 0\n",
            1,
            "gfx90a",
        ),
    ],
)
def test_the_loader_line_is_the_missing_code_object_and_names_the_gpu(
    tmp_path: Path, text: str, line: int, target: str
) -> None:
    document = explain(tmp_path, text)
    first = causes(document)[0]
    assert (first["rule"], first["line"]) == ("hip-no-code-object-for-gpu", line)
    assert first["verdict"] == "symptom-only"  # which library lacks it is still the question
    stated = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}
    assert stated[("gfx_target", "0")] == target


def test_a_summary_without_a_target_is_not_the_loader_line(tmp_path: Path) -> None:
    document = explain(
        tmp_path,
        "Known issues: on some APUs no compatible code objects found for the iGPU; see notes.\n"
        "No compatible code objects found\n",
    )
    assert causes(document) == []
    assert [f for f in document["facts"] if f["kind"] == "gfx_target"] == []
