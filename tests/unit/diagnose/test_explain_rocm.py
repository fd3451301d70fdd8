"""explain on ROCm logs (issue 43): HIP's invalid-device-function family maps to the missing code
object for the GPU's target, confirmed only where the log states both the GPU's target and the
build's target list; collect_env's and rocminfo's ROCm lines are read as facts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import run_subprocess
from tests.lib.paths import DATA

LOGS = DATA / "logs"
RULE = "hip-no-code-object-for-gpu"


def explain(name: str) -> dict[str, Any]:
    result = run_subprocess(["explain", "--format", "json", str(LOGS / name)])
    assert result.exit_code in (0, 1), result.stderr
    return result.json()


def match(document: dict[str, Any]) -> dict[str, Any] | None:
    return next((m for m in document["matches"] if m["rule"] == RULE), None)


def test_collect_env_target_and_arch_list_confirm_it() -> None:
    document = explain("composed-rocm-gfx1151-collect-env.log")
    found = match(document)
    assert found is not None and found["verdict"] == "confirmed" and found["line"] == 21
    facts = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}
    assert facts[("build", "torch_rocm")] == "6.2"  # ROCM used to build PyTorch: 6.2.41134-...
    assert facts[("build", "hip_runtime")] == "6.2"
    assert facts[("build", "miopen")] == "3.2.0"
    assert facts[("gfx_target", "0")] == "gfx1151"
    assert "gfx1100" in facts[("arch_list", "torch_hip")]


def test_a_target_the_list_carries_is_not_confirmed() -> None:
    found = match(explain("composed-rocm-gfx1100-served.log"))
    assert found is not None and found["verdict"] != "confirmed"


@pytest.mark.parametrize(
    ("name", "line"),
    [
        ("composed-rocm-rocminfo-no-binary.log", 8),
        ("composed-rocm-bitsandbytes-ops-hip.log", 2),
    ],
)
def test_symptom_alone_names_the_cause_and_asks_for_the_list(name: str, line: int) -> None:
    document = explain(name)
    found = match(document)
    assert found is not None and found["line"] == line
    assert found["verdict"] not in ("confirmed", "ruled-out")  # nothing firmer than the log


def test_rocminfo_name_is_the_gpu_target() -> None:
    facts = {
        (f["kind"], f["key"]): f["value"]
        for f in explain("composed-rocm-rocminfo-no-binary.log")["facts"]
    }
    assert facts[("gfx_target", "0")] == "gfx1032"


def test_invalid_isa_under_an_override_asks_the_gpu_target_not_the_list() -> None:
    # INVALID_ISA: a code object was loaded (for the override's gfx1100) and rejected, so the
    # build's target list is not the question; the GPU's own target is (its own rule now).
    found = next(
        m
        for m in explain("composed-rocm-invalid-isa.log")["matches"]
        if m["rule"] == "hip-code-object-isa-rejected-by-gpu"
    )
    assert found["line"] == 2 and found["verdict"] == "symptom-only"
    assert [u.split(" — ")[0] for u in found["unknown"]] == ["hardware.gfx_target"]


def test_rocblas_tensile_and_device_properties() -> None:
    # rocBLAS's missing Tensile library for gfx1032 is the failure printed (its own rule); the
    # target comes from the message and from torch's device properties
    document = explain("composed-rocm-rocblas-tensile-gfx1032.log")
    first = next(m for m in document["matches"] if m["verdict"] in ("confirmed", "symptom-only"))
    assert first["rule"] == "hip-library-kernels-missing-for-gpu-target" and first["line"] == 5
    facts = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}
    assert facts[("gfx_target", "0")] == "gfx1032"


def test_an_override_the_list_carries_is_not_confirmed() -> None:
    document = explain("composed-rocm-override-served.log")
    facts = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}
    assert facts[("gfx_override", "gfx_override")] == "10.3.0"
    found = match(document)
    assert found is not None and found["verdict"] != "confirmed"
