"""AMD hardware profiles (docs/examples/hardware/amd-*.json) on a CPU-only runner: they load in
doctor, check and pin, and a CUDA-only question (compute capability, the NVIDIA driver) is
answered "no" for an AMD GPU instead of being asked again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_subprocess
from tests.dists import make_env
from tests.lib.kfd import CPU_NODE, gpu_node, write_machine
from tests.lib.paths import REPO

EXAMPLES = sorted((REPO / "docs" / "examples" / "hardware").glob("amd-*.json"))
TARGETS = {
    "amd-mi300x-8.json": "gfx942",
    "amd-mi250x-8.json": "gfx90a",
    "amd-rx7900xtx.json": "gfx1100",
    "amd-strix-halo.json": "gfx1151",
}


def test_the_four_examples_exist() -> None:
    assert sorted(p.name for p in EXAMPLES) == sorted(TARGETS)


@pytest.mark.parametrize("profile", EXAMPLES, ids=lambda p: p.stem)
def test_doctor_reads_an_amd_profile(profile: Path, tmp_path: Path) -> None:
    site = make_env(
        tmp_path / "site",
        {"torch": "2.6.0+rocm6.2.4", "flash-attn": "2.7.4", "transformers": "4.51.0"},
    )
    result = run_subprocess(
        ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json"]
    )
    assert result.exit_code == 0, result.stderr
    report = result.json()
    gpus = report["hardware"]["gpus"]
    assert {g["gfx_target"] for g in gpus} == {TARGETS[profile.name]}
    assert {g["vendor"] for g in gpus} == {"amd"}
    asked = json.dumps(report.get("needs_hardware", [])) + json.dumps(report["findings"])
    # flash-attention-2-needs-ampere asks a CUDA compute capability: not of an AMD GPU
    assert "hardware.compute_capability" not in asked
    assert "hardware.driver" not in asked


def test_check_and_pin_read_an_amd_profile(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.4.1\nflash-attn==2.7.4\n", encoding="utf-8")
    profile = str(EXAMPLES[0])
    check = run_subprocess(["check", "--offline", "--hardware", profile, str(requirements)])
    assert check.exit_code in (0, 1), check.stderr
    assert "Traceback" not in check.stderr
    pin = run_subprocess(["pin", "--offline", "--hardware", profile, "-r", str(requirements)])
    # PyPI's torch 2.4.1 is the CUDA 12.1 build (torch-cuda-build-on-amd-gpu): on an MI300X pin
    # chooses a ROCm build from PyTorch's ROCm index instead (tests/cli/test_pin_rocm.py)
    assert pin.exit_code == 0, pin.stderr
    assert "+rocm" in pin.stdout
    assert "\n--extra-index-url https://download.pytorch.org/whl/rocm" in pin.stdout
    assert "# UNRESOLVED torch-cuda-build-on-amd-gpu" not in pin.stdout
    assert "Traceback" not in pin.stderr
    # the file routes torch to PyTorch's ROCm index: the +rocm build it serves is what installs
    requirements.write_text(
        "--extra-index-url https://download.pytorch.org/whl/rocm6.2.4\n"
        "torch==2.6.0\nflash-attn==2.7.4\n",
        encoding="utf-8",
    )
    pin = run_subprocess(["pin", "--offline", "--hardware", profile, "-r", str(requirements)])
    assert pin.exit_code == 0, pin.stderr
    assert "torch==2.6.0" in pin.stdout
    assert "torch-cuda-build-on-amd-gpu" not in pin.stdout + pin.stderr


def test_a_bad_gfx_target_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"schema": "compat.hardware/1", "gpus": [{"name": "x", "gfx_target": "sm_90"}]}),
        encoding="utf-8",
    )
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.6.0\n", encoding="utf-8")
    result = run_subprocess(["check", "--offline", "--hardware", str(bad), str(requirements)])
    assert result.exit_code == 2
    assert "gpus[0].gfx_target 'sm_90' is not an AMD GPU target" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("profile", EXAMPLES, ids=lambda p: p.stem)
def test_check_and_pin_read_every_amd_example(profile: Path, tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.4.1\n", encoding="utf-8")
    check = run_subprocess(["check", "--offline", "--hardware", str(profile), str(requirements)])
    assert check.exit_code in (0, 1), check.stderr
    assert profile.name in check.stdout and "Traceback" not in check.stderr
    pin = run_subprocess(["pin", "--offline", "--hardware", str(profile), "-r", str(requirements)])
    # 0: a ROCm build of torch 2.4.1 serves the GPU; 1: none does (gfx1151, not in 2.4's
    # PYTORCH_ROCM_ARCH), said as the unresolved finding, never a traceback
    assert pin.exit_code in (0, 1), pin.stderr
    header = next(line for line in pin.stdout.splitlines() if line.startswith("# python:"))
    assert f"({TARGETS[profile.name]})" in header, header
    if pin.exit_code == 1:
        assert "UNRESOLVED torch-cuda-build-on-amd-gpu" in pin.stdout


def test_a_probed_partitioned_machine_round_trips(tmp_path: Path) -> None:
    # `compat probe` on a KFD tree of 2 MI300X in CPX mode (8 partition nodes each), written to
    # a file, then read by doctor, check and pin as --hardware
    nodes = [CPU_NODE]
    for gpu, bus in enumerate((0x15, 0x35)):
        for partition in range(8):
            node = gpu_node(
                90402, device_id=0x74A1, location_id=(bus << 8) | partition,
                unique_id=0xABC0 + gpu, capability=0x2C77A280, memory_bytes=24 * 2**30,
            )  # fmt: skip
            nodes.append({**node, "simd_count": 152})
    machine = write_machine(tmp_path / "machine", nodes, amdgpu_version="6.10.5")
    probed = run_subprocess(
        ["probe", "--format", "json"], env={**machine, "COMPAT_LD_SO_CACHE": ""}
    )
    assert probed.exit_code == 0, probed.stderr
    profile = tmp_path / "cpx.json"
    profile.write_text(probed.stdout, encoding="utf-8")
    site = make_env(tmp_path / "site", {"torch": "2.6.0+rocm6.2.4"})
    doctor = run_subprocess(
        ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json"]
    )
    assert doctor.exit_code in (0, 1), doctor.stderr
    hardware = doctor.json()["hardware"]
    assert len(hardware["gpus"]) == 16 and hardware["amd_physical_gpus"] == 2
    assert {(g["gfx_target"], g["gfx_features"]) for g in hardware["gpus"]} == {
        ("gfx942", "sramecc+")
    }
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.4.1\n", encoding="utf-8")
    check = run_subprocess(["check", "--offline", "--hardware", str(profile), str(requirements)])
    assert check.exit_code in (0, 1), check.stderr
    assert "16x AMD GPU (gfx942), compute partitions of 2 GPUs, ROCm unknown" in check.stdout
    pin = run_subprocess(["pin", "--offline", "--hardware", str(profile), "-r", str(requirements)])
    assert pin.exit_code == 0, pin.stderr
    assert "+rocm" in pin.stdout and "compute partitions of 2 GPUs" in pin.stdout
