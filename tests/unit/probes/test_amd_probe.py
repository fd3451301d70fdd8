"""The AMD GPU probe through its boundary: a KFD topology written on disk, an `amd-smi`
stand-in script, ROCm installs with their `.info/version` (tests/lib/kfd.py). No ROCm, no torch."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from compat.binary.gfxtarget import gfx_name, override_target
from compat.probes.gpu import probe_hardware
from compat.probes.profile import load_profile, profile_document
from tests.conftest import run_subprocess
from tests.lib.kfd import CPU_NODE, gpu_node, smi_gpu, write_machine

MI300X = 90402
# HSA_CAP_SRAM_EDCSUPPORTED (kfd_topology.h); 0x00080000 is the reserved bit it moved from
SRAM_EDC = 0x04000000


def _environ(machine: dict[str, str], **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.endswith("VISIBLE_DEVICES")}
    base.pop("HSA_OVERRIDE_GFX_VERSION", None)
    return {**base, **machine, **extra}


def _mi300x_node(n: int) -> dict[str, int]:
    return gpu_node(
        MI300X,
        device_id=0x74A1,
        location_id=(0x0C + n * 0x10) << 8,
        unique_id=0x1A2B3C4D5E6F0000 + n,
        capability=SRAM_EDC,
        memory_bytes=192 * 2**30,
    )


@pytest.fixture
def mi300x_node(tmp_path: Path) -> dict[str, str]:
    """Two MI300X on a two-socket host, amdgpu 6.12.12, ROCm 6.4.1 and an older 6.2.4 beside it."""
    return write_machine(
        tmp_path,
        [CPU_NODE, CPU_NODE, _mi300x_node(0), _mi300x_node(1)],
        amdgpu_version="6.12.12",
        smi=[
            smi_gpu("AMD Instinct MI300X", "gfx942", "6.12.12", "0000:0c:00.0"),
            smi_gpu("AMD Instinct MI300X", "gfx942", "6.12.12", "0000:1c:00.0"),
        ],
        rocm={"rocm-6.4.1": "6.4.1-103", "rocm-6.2.4": "6.2.4-120"},
    )


@pytest.mark.parametrize(
    ("value", "target"),
    [
        (90402, "gfx942"),
        (90010, "gfx90a"),
        (90012, "gfx90c"),
        (90008, "gfx908"),
        (110000, "gfx1100"),
        (110501, "gfx1151"),
        (100300, "gfx1030"),
        (120001, "gfx1201"),
        (90500, "gfx950"),
        (0, None),
    ],
)
def test_kfd_target_encoding(value: int, target: str | None) -> None:
    # major*10000 + minor*100 + stepping, stepping (and minor) printed in hex as LLVM's
    # amdgpu-arch does: gfx90a is 9.0.10.
    assert gfx_name(value) == target


def test_override_names_the_target_the_runtime_reports() -> None:
    assert override_target("11.0.0") == "gfx1100"
    assert override_target("9.4.2") == "gfx942"
    assert override_target("10.3.0") == "gfx1030"
    assert override_target("gfx1100") is None


def test_mi300x_node_with_amd_smi(mi300x_node: dict[str, str]) -> None:
    hardware = probe_hardware(
        environ=_environ(mi300x_node), sys_root=Path("/nonexistent"), proc_root=Path("/nonexistent")
    )
    assert [g.gfx_target for g in hardware.gpus] == ["gfx942", "gfx942"]
    assert [g.name for g in hardware.gpus] == ["AMD Instinct MI300X"] * 2
    first = hardware.gpus[0]
    assert first.vendor == "amd" and first.is_amd
    assert first.gfx_features == "sramecc+"  # the KFD's SRAM_EDC capability bit
    assert first.pci_bus_id == "0000:0c:00.0"
    assert first.memory_total_mib == 192 * 1024
    assert first.compute_capability is None
    assert hardware.amdgpu_driver_version == "6.12.12"
    assert hardware.rocm_version == "6.4.1-103"
    assert len(hardware.extra["rocm_installs"]) == 2  # type: ignore[arg-type]
    # "no NVIDIA driver" is not news on an AMD machine
    assert not any("NVIDIA" in p for p in hardware.problems)


def test_names_without_amd_smi_and_every_target(tmp_path: Path) -> None:
    nodes = [
        CPU_NODE,
        gpu_node(90010, device_id=0x740C, location_id=0x3200, unique_id=1),
        gpu_node(110000, device_id=0x744C, location_id=0x0300, unique_id=2),
        gpu_node(110501, device_id=0x1586, location_id=0xC500, unique_id=3),
    ]
    machine = write_machine(tmp_path, nodes)
    hardware = probe_hardware(environ=_environ(machine))
    assert [g.gfx_target for g in hardware.gpus] == ["gfx90a", "gfx1100", "gfx1151"]
    assert [g.name for g in hardware.gpus] == ["AMD gfx90a", "AMD gfx1100", "AMD gfx1151"]
    assert hardware.amdgpu_driver_version is None and hardware.rocm_version is None


def test_visible_devices_as_rocr_and_hip_apply_them(tmp_path: Path) -> None:
    nodes = [
        gpu_node(90402, device_id=0x74A1, location_id=(0x10 * n) << 8, unique_id=0x100 + n)
        for n in range(4)
    ]
    machine = write_machine(tmp_path, [CPU_NODE, *nodes])
    hardware = probe_hardware(
        environ=_environ(machine, ROCR_VISIBLE_DEVICES="3,1,2", HIP_VISIBLE_DEVICES="1")
    )
    (gpu,) = hardware.gpus
    assert gpu.uuid == "GPU-0000000000000101" and gpu.index == 0
    assert any("1 of 4 AMD GPUs visible" in p for p in hardware.problems)
    by_uuid = probe_hardware(
        environ=_environ(machine, ROCR_VISIBLE_DEVICES="GPU-0000000000000102,bad,0")
    )
    assert [g.uuid for g in by_uuid.gpus] == ["GPU-0000000000000102"]


def test_override_and_a_failing_amd_smi_are_notes(tmp_path: Path) -> None:
    machine = write_machine(
        tmp_path, [gpu_node(110501, device_id=0x1586, location_id=0xC500, unique_id=7)], smi=[]
    )
    script = Path(machine["COMPAT_AMD_SMI"])
    script.write_text("#!/bin/sh\nexit 5\n", encoding="utf-8")
    hardware = probe_hardware(environ=_environ(machine, HSA_OVERRIDE_GFX_VERSION="11.0.0"))
    assert hardware.gfx_override == "11.0.0"
    assert hardware.gpus[0].gfx_target == "gfx1151"  # the GPU's own; the override is separate
    assert "amd-smi exited 5: GPU names unknown" in hardware.problems
    assert hardware.extra["rocm_environment"] == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}


def test_hostile_topology_is_no_traceback(tmp_path: Path) -> None:
    base = tmp_path / "sys" / "class" / "kfd" / "kfd" / "topology" / "nodes"
    (base / "0").mkdir(parents=True)
    (base / "0" / "properties").write_bytes(b"gfx_target_version 99999999\nsimd_count x\n\xff\xfe")
    (base / "1").mkdir()
    (base / "1" / "properties").mkdir()  # a directory where a file belongs
    (base / "junk").mkdir()
    hardware = probe_hardware(
        environ=_environ({"COMPAT_SYSFS_ROOT": str(tmp_path / "sys"), "COMPAT_AMD_SMI": ""})
    )
    assert hardware.gpus == ()
    assert any("99999999 is not a target" in p for p in hardware.problems)


def test_cli_probe_on_a_faked_kfd_tree_and_the_profile_read_back(
    mi300x_node: dict[str, str], tmp_path: Path
) -> None:
    result = run_subprocess(
        ["probe", "--format", "json"], env={**mi300x_node, "COMPAT_LD_SO_CACHE": ""}
    )
    assert result.exit_code == 0, result.stderr
    document = result.json()
    assert [(g["vendor"], g["gfx_target"]) for g in document["gpus"]] == [("amd", "gfx942")] * 2
    assert document["amdgpu_driver_version"] == "6.12.12"
    assert document["rocm_version"] == "6.4.1-103"
    profile = tmp_path / "mi300x.json"
    profile.write_text(json.dumps(document), encoding="utf-8")
    again = load_profile(profile)
    assert [g.gfx_target for g in again.gpus] == ["gfx942", "gfx942"]
    assert profile_document(again)["gpus"] == document["gpus"]
    text = run_subprocess(["probe"], env={**mi300x_node, "COMPAT_LD_SO_CACHE": ""})
    assert "GPU 0: AMD Instinct MI300X (gfx942:sramecc+" in text.stdout, text.stdout


def test_a_slow_amd_smi_still_gives_the_kfd_gpus(tmp_path: Path) -> None:
    machine = write_machine(
        tmp_path, [gpu_node(90402, device_id=0x74A1, location_id=0xC00, unique_id=9)], smi=[]
    )
    Path(machine["COMPAT_AMD_SMI"]).write_text("#!/bin/sh\nsleep 5\n", encoding="utf-8")
    hardware = probe_hardware(environ=_environ(machine), timeout=1.0)
    assert [g.gfx_target for g in hardware.gpus] == ["gfx942"]
    assert any("did not answer" in p for p in hardware.problems)


# --- real KFD and amd-smi shapes (benchmarks/heldout/amd-probe-1 scored them; these tests use
# other values than that set) ---


def test_sramecc_is_the_kfds_current_capability_bit(tmp_path: Path) -> None:
    # An MI250X-like node: capability as a real gfx90a writes it (0x2c77a280: SRAM_EDC
    # 0x04000000 set, the old 0x00080000 clear); one with only the reserved old bit is ECC-off.
    nodes = [
        CPU_NODE,
        gpu_node(90010, device_id=0x740C, location_id=0x2900, unique_id=11, capability=0x2C77A280),
        gpu_node(90010, device_id=0x740C, location_id=0x2A00, unique_id=12, capability=0x00080000),
        gpu_node(90008, device_id=0x738C, location_id=0x0800, unique_id=13, capability=0x04000000),
    ]
    hardware = probe_hardware(environ=_environ(write_machine(tmp_path, nodes)))
    assert [(g.gfx_target, g.gfx_features) for g in hardware.gpus] == [
        ("gfx90a", "sramecc+"),
        ("gfx90a", "sramecc-"),
        ("gfx908", "sramecc+"),
    ]


def _partitioned(domain: int, bus: int, unique: int, count: int) -> list[dict[str, int]]:
    """One GPU in a compute-partition mode as the KFD lists it: a node per partition, the same
    unique_id, the partition number ORed into location_id."""
    nodes = []
    for partition in range(count):
        node = gpu_node(
            MI300X, device_id=0x74A5, location_id=(bus << 8) | partition, unique_id=unique,
            capability=0x2C77A280, memory_bytes=64 * 2**30,
        )  # fmt: skip
        nodes.append({**node, "domain": domain, "simd_count": 152})
    return nodes


def test_compute_partitions_are_devices_of_one_gpu_each(tmp_path: Path) -> None:
    nodes = [CPU_NODE, *_partitioned(2, 0x85, 0x77, 4), *_partitioned(2, 0x95, 0x78, 4)]
    machine = write_machine(tmp_path, nodes)
    result = run_subprocess(
        ["probe", "--format", "json"], env={**_environ(machine), "COMPAT_LD_SO_CACHE": ""}
    )
    assert result.exit_code == 0, result.stderr
    document = result.json()
    # each partition is a device a process numbers (HIP sees 8); their addresses are the GPUs'
    assert len(document["gpus"]) == 8
    assert [g["pci_bus_id"] for g in document["gpus"]] == ["0002:85:00.0"] * 4 + [
        "0002:95:00.0"
    ] * 4
    assert document["amd_physical_gpus"] == 2
    assert {g["gfx_features"] for g in document["gpus"]} == {"sramecc+"}
    profile = tmp_path / "cpx.json"
    profile.write_text(json.dumps(document), encoding="utf-8")
    assert len(load_profile(profile).gpus) == 8
    text = run_subprocess(["probe"], env={**_environ(machine), "COMPAT_LD_SO_CACHE": ""})
    assert "compute partitions: 8 devices of 2 GPUs" in text.stdout, text.stdout


def test_a_kfd_without_gfx_target_version_lists_the_gpu_target_unknown(tmp_path: Path) -> None:
    old = {"cpu_cores_count": 0, "simd_count": 224, "vendor_id": 0x1002, "device_id": 0x687F,
           "location_id": 0x0A00, "unique_id": 21}  # fmt: skip
    machine = write_machine(tmp_path, [CPU_NODE, old])
    result = run_subprocess(
        ["probe", "--format", "json"], env={**_environ(machine), "COMPAT_LD_SO_CACHE": ""}
    )
    assert result.exit_code == 0, result.stderr
    document = result.json()  # validates against schema/: no `gfx_target: null`
    (gpu,) = document["gpus"]
    assert gpu["vendor"] == "amd" and "gfx_target" not in gpu
    assert gpu["name"] == "AMD GPU (device 0x687f)"
    assert any(
        "no gfx_target_version" in p and "target is unknown" in p for p in document["problems"]
    )
    profile = tmp_path / "old.json"
    profile.write_text(json.dumps(document), encoding="utf-8")
    again = load_profile(profile)
    assert again.gpus[0].is_amd and again.gpus[0].gfx_target is None


def test_amd_smi_of_2023_driver_version_and_no_market_name(tmp_path: Path) -> None:
    # amd-smi before a719ae9 (2024-02) wrote driver.driver_version, and printed the device ID
    # as MARKET_NAME where the library had no name: the version is read, the ID is no name.
    entry = {
        "gpu": 0,
        "asic": {"market_name": "0x744c", "vendor_id": "0x1002", "device_id": "0x744c"},
        "bus": {"bdf": "0000:2d:00.0"},
        "driver": {"driver_version": "6.3.6", "driver_date": "2015/01/01 00:00"},
    }
    node = gpu_node(110000, device_id=0x744C, location_id=0x2D00, unique_id=31)
    machine = write_machine(tmp_path, [CPU_NODE, node], smi=[entry])
    hardware = probe_hardware(environ=_environ(machine))
    assert hardware.amdgpu_driver_version == "6.3.6"
    assert [g.name for g in hardware.gpus] == ["AMD gfx1100"]


def test_gpus_without_an_id_or_address_are_each_a_gpu(tmp_path: Path) -> None:
    # nodes that share no unique_id are no partitions of one GPU, whatever else they lack
    bare = {"cpu_cores_count": 0, "simd_count": 80, "gfx_target_version": 110501}
    machine = write_machine(tmp_path, [CPU_NODE, bare, {**bare, "gfx_target_version": 120001}])
    hardware = probe_hardware(environ=_environ(machine))
    assert [g.gfx_target for g in hardware.gpus] == ["gfx1151", "gfx1201"]
    assert "amd_physical_gpus" not in hardware.extra


def test_names_follow_addresses_not_positions(tmp_path: Path) -> None:
    # amd-smi lists GPUs by PCI address; the KFD (and HIP) number them otherwise. An amd-smi
    # without addresses names a GPU only by its target's entries, never by position.
    nodes = [
        CPU_NODE,
        gpu_node(110000, device_id=0x744C, location_id=0xC300, unique_id=41),
        gpu_node(100301, device_id=0x73DF, location_id=0x0800, unique_id=42),
    ]
    smi = [
        smi_gpu("AMD Radeon RX 6700 XT", "gfx1031", "6.10.5", ""),
        smi_gpu("AMD Radeon RX 7900 XTX", "gfx1100", "6.10.5", ""),
    ]
    hardware = probe_hardware(environ=_environ(write_machine(tmp_path, nodes, smi=smi)))
    assert [g.name for g in hardware.gpus] == ["AMD Radeon RX 7900 XTX", "AMD Radeon RX 6700 XT"]


def test_partitions_are_named_by_their_gpus_address(tmp_path: Path) -> None:
    # amd-smi prints a partition's address with its number in the function (location_id's low
    # bits, as ROCm SMI reads them); two GPUs listed in the other order than the KFD's: each
    # partition takes its GPU's name and address
    nodes = [CPU_NODE, *_partitioned(0, 0x85, 0x91, 2), *_partitioned(0, 0x15, 0x92, 2)]
    smi = [
        smi_gpu("AMD Instinct MI325X", "gfx942", "6.12.12", f"0000:15:00.{n}") for n in (0, 1)
    ] + [smi_gpu("AMD Instinct MI300X", "gfx942", "6.12.12", f"0000:85:00.{n}") for n in (0, 1)]
    hardware = probe_hardware(environ=_environ(write_machine(tmp_path, nodes, smi=smi)))
    assert [g.name for g in hardware.gpus] == ["AMD Instinct MI300X"] * 2 + [
        "AMD Instinct MI325X"
    ] * 2
    assert [g.pci_bus_id for g in hardware.gpus] == ["0000:85:00.0"] * 2 + ["0000:15:00.0"] * 2


def test_amd_smi_warnings_before_its_json_and_its_last_words(tmp_path: Path) -> None:
    # amd-smi writes some warnings to stdout ahead of the JSON (ROCm/amdsmi#114); a failing one
    # says why on stderr
    node = gpu_node(120001, device_id=0x7551, location_id=0x0300, unique_id=51)
    smi = smi_gpu("AMD Radeon AI PRO R9700", "gfx1201", "6.14.4", "0000:03:00.0")
    machine = write_machine(tmp_path, [CPU_NODE, node], smi=[])
    script = Path(machine["COMPAT_AMD_SMI"])
    answer = json.dumps({"gpu_data": [smi]})
    script.write_text(
        f"#!/bin/sh\necho 'WARNING: the amdgpu driver is not the one this build expects'\n"
        f"echo ''\necho '{answer}'\n",
        encoding="utf-8",
    )
    hardware = probe_hardware(environ=_environ(machine))
    assert [g.name for g in hardware.gpus] == ["AMD Radeon AI PRO R9700"]
    assert hardware.amdgpu_driver_version == "6.14.4"
    script.write_text(
        "#!/bin/sh\necho 'Traceback (most recent call last):' >&2\n"
        "echo 'PermissionError: /dev/kfd: permission denied' >&2\nexit 1\n",
        encoding="utf-8",
    )
    hardware = probe_hardware(environ=_environ(machine))
    assert hardware.gpus[0].name == "AMD gfx1201"
    assert (
        "amd-smi exited 1 (PermissionError: /dev/kfd: permission denied): GPU names unknown"
        in hardware.problems
    )
    script.write_text("#!/bin/sh\necho 'WARNING: x'\necho '[{\"gpu\": 0,'\n", encoding="utf-8")
    hardware = probe_hardware(environ=_environ(machine))
    assert "amd-smi printed no JSON: GPU names unknown" in hardware.problems
