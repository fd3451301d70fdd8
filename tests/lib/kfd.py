"""A fake AMD machine at the boundary compat reads it through: a sysfs tree on disk (the KFD
topology, /sys/module/amdgpu/version), an `amd-smi` stand-in script answering
`amd-smi static --json` as the real one prints it, and ROCm installs with their `.info/version`.
Pointed at by COMPAT_SYSFS_ROOT, COMPAT_AMD_SMI and COMPAT_ROCM_PREFIXES (compat.probes.amd)."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# A CPU node as the KFD lists it: no SIMDs, gfx_target_version 0.
CPU_NODE = {"cpu_cores_count": 96, "simd_count": 0, "gfx_target_version": 0, "vendor_id": 0}


def gpu_node(
    gfx_target_version: int,
    *,
    device_id: int,
    location_id: int,
    unique_id: int,
    capability: int = 0,
    memory_bytes: int = 0,
) -> dict[str, int]:
    return {
        "cpu_cores_count": 0,
        "simd_count": 1216,
        "gfx_target_version": gfx_target_version,
        "vendor_id": 0x1002,
        "device_id": device_id,
        "location_id": location_id,
        "domain": 0,
        "unique_id": unique_id,
        "capability": capability,
        "memory_bytes": memory_bytes,
    }


def write_machine(
    root: Path,
    nodes: Sequence[Mapping[str, int]],
    *,
    amdgpu_version: str | None = None,
    smi: Sequence[Mapping[str, Any]] | None = None,
    rocm: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The machine under `root`; returns the variables that point compat's probe at it."""
    sysfs = root / "sys"
    base = sysfs / "class" / "kfd" / "kfd" / "topology" / "nodes"
    for number, node in enumerate(nodes):
        directory = base / str(number)
        directory.mkdir(parents=True)
        props = {k: v for k, v in node.items() if k != "memory_bytes"}
        (directory / "properties").write_text(
            "".join(f"{k} {v}\n" for k, v in props.items()), encoding="ascii"
        )
        if node.get("memory_bytes"):
            bank = directory / "mem_banks" / "0"
            bank.mkdir(parents=True)
            (bank / "properties").write_text(
                f"heap_type 1\nsize_in_bytes {node['memory_bytes']}\nflags 0\n", encoding="ascii"
            )
    if amdgpu_version is not None:
        module = sysfs / "module" / "amdgpu"
        module.mkdir(parents=True)
        (module / "version").write_text(amdgpu_version + "\n", encoding="ascii")
    env = {"COMPAT_SYSFS_ROOT": str(sysfs), "COMPAT_AMD_SMI": "", "COMPAT_ROCM_PREFIXES": ""}
    if smi is not None:
        answer = root / "amd-smi.json"
        answer.write_text(json.dumps(list(smi)), encoding="utf-8")
        script = root / "bin" / "amd-smi"
        script.parent.mkdir(parents=True)
        script.write_text(
            f"#!{sys.executable}\n"
            "import sys\n"
            "if sys.argv[1:2] != ['static'] or '--json' not in sys.argv:\n"
            "    sys.exit(2)\n"
            f"sys.stdout.write(open({str(answer)!r}).read())\n",
            encoding="utf-8",
        )
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        env["COMPAT_AMD_SMI"] = str(script)
    if rocm is not None:
        prefixes = []
        for name, version in rocm.items():
            prefix = root / "opt" / name
            (prefix / ".info").mkdir(parents=True)
            (prefix / ".info" / "version").write_text(version + "\n", encoding="ascii")
            prefixes.append(str(prefix))
        env["COMPAT_ROCM_PREFIXES"] = os.pathsep.join(prefixes)
    return env


def smi_gpu(name: str, target: str, driver: str, bdf: str) -> dict[str, Any]:
    """One GPU of `amd-smi static --asic --driver --bus --json` (ROCm 6.x field names)."""
    return {
        "gpu": 0,
        "asic": {"market_name": name, "vendor_id": "0x1002", "target_graphics_version": target},
        "driver": {"name": "amdgpu", "version": driver},
        "bus": {"bdf": bdf},
    }
