"""The GPU probe through the NVML binding boundary: the real nvidia-ml-py on this driverless
machine, and a stand-in `pynvml` replaying recorded machines (tests/fake_nvml)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import ModuleType

import pytest
from packaging.version import Version

from compat.probes.gpu import kernel_module_version, probe_hardware
from compat.probes.profile import load_profile, profile_document
from tests.conftest import run_subprocess
from tests.lib.nvml import fake_nvml_env, stand_in


@pytest.fixture
def fake_nvml(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The stand-in binding in place of `pynvml` (restored afterwards)."""
    return stand_in(monkeypatch)


def probe(monkeypatch: pytest.MonkeyPatch, machine: str, **kwargs: object):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("COMPAT_FAKE_NVML", machine)
    env = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES"}
    env.update(kwargs.pop("environ", {}))  # type: ignore[arg-type]
    return probe_hardware(environ=env, **kwargs)  # type: ignore[arg-type]


def test_real_binding_on_a_machine_without_a_driver() -> None:
    # No stand-in here: the installed nvidia-ml-py finds no libnvidia-ml.so.1.
    hardware = probe_hardware(sys_root=Path("/nonexistent"), proc_root=Path("/nonexistent"))
    assert hardware.gpus == ()
    assert hardware.driver_version is None
    assert hardware.extra["nvml_error"] == "library-not-found"
    assert "no NVIDIA driver" in hardware.problems[0]


def test_cli_probe_without_a_gpu_exits_0_with_empty_gpus() -> None:
    result = run_subprocess(["probe", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert document["schema"] == "compat.hardware/1"
    assert (
        document["gpus"] == []
        and document["driver_version"] is None
        and document["cuda_driver_version"] is None
    )


def test_recorded_h100(monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType) -> None:
    hardware = probe(monkeypatch, "h100")
    assert hardware.driver_label == "580.159.04"  # as nvidia-smi prints it
    assert hardware.cuda_driver_version == Version("13.0")
    (gpu,) = hardware.gpus
    assert gpu.name == "NVIDIA H100 80GB HBM3"
    assert gpu.compute_capability == Version("9.0")
    assert gpu.memory_total_mib == 81559
    assert gpu.pci_bus_id == "00000000:00:06.0"
    assert gpu.mig is False
    assert gpu.uuid is not None and gpu.uuid.startswith("GPU-")
    assert hardware.extra["sources"]["gpus"] == "nvml"  # type: ignore[index]


def test_a100x8_with_nvlink(monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType) -> None:
    hardware = probe(monkeypatch, "a100x8")
    assert [g.index for g in hardware.gpus] == list(range(8))
    assert {g.memory_total_mib for g in hardware.gpus} == {81920}
    assert hardware.extra["topology"] == {"gpu_pairs": 28, "p2p_read_pairs": 28, "nvlink_pairs": 28}


@pytest.mark.parametrize(
    ("visible", "expected"),
    [
        ("3,1", ["00000000:4E:00.0", "00000000:0F:00.0"]),  # CUDA's order, renumbered from 0
        ("GPU-4f6a5b2e", ["00000000:90:00.0"]),  # a UUID prefix
        ("4f6a2b2e", ["00000000:47:00.0"]),  # the prefix without GPU-
        ("", []),
        ("-1", []),
        ("0,9,1", ["00000000:07:00.0"]),  # CUDA stops at the first invalid entry
    ],
)
def test_cuda_visible_devices(
    monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType, visible: str, expected: list[str]
) -> None:
    hardware = probe(monkeypatch, "a100x8", environ={"CUDA_VISIBLE_DEVICES": visible})
    assert [g.pci_bus_id for g in hardware.gpus] == expected
    assert [g.index for g in hardware.gpus] == list(range(len(expected)))
    assert f"{len(expected)} of 8 GPUs visible" in hardware.problems[0]


@pytest.mark.parametrize(
    ("machine", "name", "cc", "mib", "mig"),
    [
        ("v100", "Tesla V100-SXM2-32GB", "7.0", 32768, None),  # MIG: NOT_SUPPORTED -> unknown
        ("t4", "Tesla T4", "7.5", 15360, None),
        ("rtx5090x2", "NVIDIA GeForce RTX 5090", "12.0", 32607, None),
        ("a100-mig", "NVIDIA A100-SXM4-40GB", "8.0", 40960, True),
    ],
)
def test_recorded_machines(
    monkeypatch: pytest.MonkeyPatch,
    fake_nvml: ModuleType,
    machine: str,
    name: str,
    cc: str,
    mib: int,
    mig: bool | None,
) -> None:
    hardware = probe(monkeypatch, machine)
    gpu = hardware.gpus[0]
    assert (gpu.name, str(gpu.compute_capability), gpu.memory_total_mib, gpu.mig) == (
        name,
        cc,
        mib,
        mig,
    )
    assert "nvml_error" not in hardware.extra


def test_unsupported_calls_become_unknown_facts(
    monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType
) -> None:
    hardware = probe(monkeypatch, "not-supported")
    (gpu,) = hardware.gpus
    assert gpu.uuid is None and gpu.compute_capability is None and gpu.mig is None
    assert hardware.cuda_driver_version is None
    assert hardware.driver_label == "535.104.05"


@pytest.mark.parametrize(
    ("machine", "code", "fragment"),
    [
        ("library-not-found", "library-not-found", "no NVIDIA driver"),
        ("driver-not-loaded", "driver-not-loaded", "Driver Not Loaded"),
        ("no-permission", "no-permission", "Insufficient Permissions"),
    ],
)
def test_failures_are_facts(
    monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType, machine: str, code: str, fragment: str
) -> None:
    hardware = probe(
        monkeypatch, machine, sys_root=Path("/nonexistent"), proc_root=Path("/nonexistent")
    )
    assert hardware.gpus == ()
    assert hardware.extra["nvml_error"] == code
    assert fragment in hardware.problems[0]


def fake_kernel_module(tmp_path: Path, version: str) -> tuple[Path, Path]:
    sys_root, proc_root = tmp_path / "sys", tmp_path / "proc"
    (sys_root / "module" / "nvidia").mkdir(parents=True)
    (sys_root / "module" / "nvidia" / "version").write_text(version + "\n")
    (proc_root / "driver" / "nvidia").mkdir(parents=True)
    (proc_root / "driver" / "nvidia" / "version").write_text(
        f"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  {version}  Release Build  (dvs-builder@U16)\n"
        "GCC version:  gcc version 12.3.0\n"
    )
    return sys_root, proc_root


def test_driver_library_mismatch_says_what_happened(
    monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType, tmp_path: Path
) -> None:
    sys_root, proc_root = fake_kernel_module(tmp_path, "550.54.15")
    hardware = probe(monkeypatch, "mismatch", sys_root=sys_root, proc_root=proc_root)
    assert hardware.extra["nvml_error"] == "driver-library-mismatch"
    assert hardware.driver_label == "550.54.15"  # the kernel module: what is really running
    problem = hardware.problems[0]
    assert (
        "kernel module is 550.54.15" in problem
        and "12.550.90.07" in problem
        and "reboot" in problem
    )


def test_kernel_module_version_from_proc_when_sys_lacks_it(tmp_path: Path) -> None:
    _, proc_root = fake_kernel_module(tmp_path, "535.104.05")
    assert kernel_module_version(proc_root=proc_root, sys_root=tmp_path / "none") == "535.104.05"
    assert kernel_module_version(proc_root=tmp_path / "none", sys_root=tmp_path / "none") is None


def test_a_hung_driver_never_hangs_the_probe(
    monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType
) -> None:
    start = time.perf_counter()
    hardware = probe(monkeypatch, "hang", timeout=0.3)
    assert time.perf_counter() - start < 2
    assert hardware.extra["nvml_error"] == "timeout"
    assert "did not answer within 0.3s" in hardware.problems[0]


def test_zero_devices(monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType) -> None:
    hardware = probe(monkeypatch, "zero-devices")
    assert hardware.gpus == () and hardware.driver_label == "535.104.05"


def test_profile_round_trip(
    monkeypatch: pytest.MonkeyPatch, fake_nvml: ModuleType, tmp_path: Path
) -> None:
    hardware = probe(monkeypatch, "a100x8")
    path = tmp_path / "cluster.json"
    path.write_text(json.dumps(profile_document(hardware)))
    loaded = load_profile(path)
    assert loaded.gpus == hardware.gpus
    assert loaded.driver_label == "535.104.05" and loaded.cuda_driver_version == Version("12.2")
    assert loaded.extra["topology"] == hardware.extra["topology"]


def test_probe_cli_with_the_stand_in_and_doctor_sees_the_mismatch(tmp_path: Path) -> None:
    result = run_subprocess(["probe", "--format", "json"], env=fake_nvml_env("rtx5090x2"))
    assert result.exit_code == 0, result.stderr
    assert [g["name"] for g in result.json()["gpus"]] == ["NVIDIA GeForce RTX 5090"] * 2
    text = run_subprocess(["probe"], env=fake_nvml_env("rtx5090x2")).stdout
    assert "GPU 1: NVIDIA GeForce RTX 5090 (compute capability 12.0, sm_120, 32607 MiB" in text
    site = tmp_path / "site"
    from tests.dists import make_env

    make_env(site, {"torch": "2.6.0", "nvidia-nccl-cu12": "2.21.5"})
    doctor = run_subprocess(
        ["doctor", "--path", str(site), "--format", "json"],
        env=fake_nvml_env("rtx5090x2"),
    )
    rules = {f["rule"]: f["status"] for f in doctor.json()["findings"]}
    assert rules["nccl-before-2.26.2-on-rtx-5090"] == "affected"
    assert doctor.exit_code == 1
    mismatch = run_subprocess(
        ["doctor", "--path", str(site), "--format", "json"],
        env=fake_nvml_env("mismatch"),
    )
    assert {f["rule"]: f["status"] for f in mismatch.json()["findings"]}[
        "nvml-driver-library-mismatch"
    ] == "affected"


def _probe_json(machine: str, extra: dict[str, str] | None = None) -> dict[str, object]:
    env = fake_nvml_env(machine, **(extra or {}))
    for name in (
        "NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION",
        "NV_VARIANT_PROVIDER_FORCE_SM_ARCH",
        "UV_CUDA_DRIVER_VERSION",
    ):
        env.setdefault(name, "")
    result = run_subprocess(["probe", "--format", "json"], env=env)
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert document["schema"] == "compat.hardware/1"
    variants = document["wheel_variants"]
    assert isinstance(variants, dict)
    return variants


def test_probe_states_the_nvidia_variant_properties_and_their_overrides() -> None:
    variants = _probe_json("h100")  # driver 580.159.04, CUDA 13.0, one sm_90
    nvidia = variants["namespaces"]["nvidia"]  # type: ignore[index]
    # As wheelnext/nvidia-variant-provider orders them: most preferred first.
    lower = nvidia["cuda_version_lower_bound"]
    assert lower[:3] == ["13.0", "13", "12.20"] and lower[-2:] == ["11.0", "11"]
    upper = nvidia["cuda_version_upper_bound"]
    assert upper[0] == "15.20" and upper[-1] == "13.1" and "13.0" not in upper and "13" not in upper
    assert nvidia["sm_arch"] == ["90_real", "90_virtual"]
    assert variants["reproduce"] == {
        "NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION": "13.0",
        "NV_VARIANT_PROVIDER_FORCE_SM_ARCH": "9.0",
        "UV_CUDA_DRIVER_VERSION": "580.159.04",
    }
    assert variants["notes"] == []


def test_pascal_on_r580_gets_a_cuda13_build_from_uvs_auto_backend() -> None:
    variants = _probe_json("gtx1080ti-r580")
    nvidia = variants["namespaces"]["nvidia"]  # type: ignore[index]
    assert nvidia["sm_arch"] == ["61_real", "60_real", "60_virtual"]
    (note,) = variants["notes"]  # type: ignore[misc]
    assert "--torch-backend=auto" in note and "sm_61" in note and "cu126" in note
    assert "cuda13-build-drops-pre-turing" in note
    text = run_subprocess(["probe"], env=fake_nvml_env("gtx1080ti-r580")).stdout
    assert "wheel variants: nvidia :: cuda_version_lower_bound :: 13.0" in text
    assert "nvidia :: sm_arch :: 61_real" in text
    assert (
        "reproduce elsewhere: NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION=13.0 "
        "NV_VARIANT_PROVIDER_FORCE_SM_ARCH=6.1" in text
    )
    assert "note: uv --torch-backend=auto reads the driver only" in text


def test_mixed_host_advertises_only_its_highest_sm() -> None:
    variants = _probe_json("mixed-h100-t4")  # R570, CUDA 12.8: uv's cu129 keeps sm_75
    assert variants["namespaces"]["nvidia"]["sm_arch"] == ["90_real", "90_virtual"]  # type: ignore[index]
    (note,) = variants["notes"]  # type: ignore[misc]
    assert "only the highest SM (sm_90)" in note and "GPU 1 (sm_75)" in note


def test_no_driver_no_variant_properties_and_an_override_in_force_is_said() -> None:
    variants = _probe_json(
        "library-not-found", {"NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION": "12.8"}
    )
    assert variants["namespaces"] == {} and variants["reproduce"] == {}
    notes = variants["notes"]
    assert isinstance(notes, list)
    assert any("supports no nvidia variant" in n for n in notes)
    assert any(
        n.startswith("NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION=12.8 is set") for n in notes
    )


def test_a_saved_profile_does_not_carry_the_derived_variants(tmp_path: Path) -> None:
    result = run_subprocess(["probe", "--format", "json"], env=fake_nvml_env("gtx1080ti-r580"))
    path = tmp_path / "box.json"
    path.write_text(result.stdout)
    loaded = load_profile(path)
    assert "wheel_variants" not in loaded.extra
    assert loaded.gpus[0].compute_capability == Version("6.1")
