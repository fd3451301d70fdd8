"""The AMD GPU probe: the facts ROCm decides by, read without ROCm installed and without torch.

- Each GPU's target from the KFD topology, `/sys/class/kfd/kfd/topology/nodes/*/properties`:
  `gfx_target_version` is `major * 10000 + minor * 100 + stepping`, printed as
  `gfx{major}{minor}{stepping:x}` (90010 -> gfx90a, 90402 -> gfx942, 110501 -> gfx1151): what
  LLVM's `amdgpu-arch` reads (AMDGPUArchByKFD.cpp). CPU nodes read 0. The KFD lists every GPU;
  `ROCR_VISIBLE_DEVICES` then `HIP_VISIBLE_DEVICES` (else `CUDA_VISIBLE_DEVICES`, which HIP
  honours the same way) choose what a process sees, here as ROCr and HIP apply them.
- The marketing name and the amdgpu driver version from the `amdsmi` library where it is
  installed (ctypes over libamd_smi.so, imported lazily as pynvml is), else the `amd-smi` command
  (`static --asic --driver --bus --json`), bounded in time; the loaded module's own version from
  `/sys/module/amdgpu/version` (DKMS builds write it; an in-tree amdgpu has none).
- The user-space ROCm version(s): `.info/version` of `$ROCM_PATH`, `/opt/rocm` and `/opt/rocm-*`.
- `HSA_OVERRIDE_GFX_VERSION` (`11.0.0`: the runtime reports gfx1100 and loads gfx1100 code).

Test and expert knobs, like COMPAT_LD_SO_CACHE: `COMPAT_SYSFS_ROOT` (the /sys to read),
`COMPAT_AMD_SMI` (the amd-smi command; empty: none is run, nor the library used),
`COMPAT_ROCM_PREFIXES` (the ROCm installs to read, os.pathsep-separated; empty: none).
Nothing here raises: what cannot be read becomes a note.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from compat.binary.gfxtarget import gfx_name, override_target
from compat.model import Gpu, Hardware

SYSFS_VARIABLE = "COMPAT_SYSFS_ROOT"
AMD_SMI_VARIABLE = "COMPAT_AMD_SMI"
ROCM_PREFIXES_VARIABLE = "COMPAT_ROCM_PREFIXES"
OVERRIDE = "HSA_OVERRIDE_GFX_VERSION"
VISIBILITY = ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")
AMD_VENDOR_ID = 0x1002
_MAX_NODES = 256  # a KFD lists CPUs and GPUs; 8-GPU nodes with many CPU sockets stay far below
_MAX_PROPERTIES = 64 * 1024
# KFD capability bit HSA_CAP_SRAM_EDCSUPPORTED (kfd_topology.h): ECC on, the `sramecc+` feature.
# 0x04000000 since the kernel moved it; the old 0x00080000 is HSA_CAP_RESERVED_WAS_SRAM_EDCSUPPORTED,
# kept 0 for old user space (an MI210's capability reads 0x2c77a280: sramecc+ as rocminfo says).
_CAP_SRAM_EDC = 0x04000000
# Targets whose code objects carry an sramecc setting (LLVM AMDGPUUsage, "Processors" table).
_SRAMECC_TARGETS = frozenset({"gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"})
_TARGET = re.compile(r"gfx[0-9]+[0-9a-f]*(?::(?:sramecc|xnack)[+-])*")


@dataclass(frozen=True)
class AmdGpu:
    """One GPU node of the KFD topology."""

    node: int  # the KFD node number
    gfx_target: str | None  # "gfx942"; None: the KFD does not say (no gfx_target_version line)
    features: str | None  # "sramecc+" / "sramecc+:xnack-" where known, else None
    name: str
    vendor_id: int | None
    device_id: int | None
    pci_bus_id: str | None  # "0000:0c:00.0"; a partition's is its GPU's
    unique_id: str | None  # what ROCR_VISIBLE_DEVICES's "GPU-<hex>" names
    memory_total_mib: int | None


@dataclass(frozen=True)
class AmdFacts:
    gpus: tuple[AmdGpu, ...]  # the visible ones, in the order a process numbers them
    listed: int  # GPU nodes the KFD lists (one per compute partition)
    physical: int  # the GPUs they are partitions of (== listed where none is partitioned)
    driver_version: str | None  # amdgpu's version (the module's, else amd-smi's)
    rocm_version: str | None  # the ROCm user space a process finds first
    rocm_installs: tuple[tuple[str, str], ...]  # (prefix, version) of every one found
    override: str | None  # HSA_OVERRIDE_GFX_VERSION as set
    environment: Mapping[str, str]  # the variables that change what runs, as set
    problems: tuple[str, ...]
    sources: Mapping[str, str]


def probe_amd(environ: Mapping[str, str], *, timeout: float = 5.0) -> AmdFacts | None:
    """The AMD facts of this machine; None where the KFD lists no GPU (no amdgpu/amdkfd loaded,
    or not an AMD machine): then nothing else is run."""
    sys_root = Path(environ.get(SYSFS_VARIABLE) or "/sys")
    problems: list[str] = []
    nodes = read_topology(sys_root, problems)
    if not nodes and not problems:
        return None
    sources = {"gpus": "kfd topology"}
    driver = _module_version(sys_root)
    if driver:
        sources["amdgpu_driver_version"] = "/sys/module/amdgpu/version"
    smi = _smi(environ, timeout, problems) if nodes else []
    if smi:
        nodes = _named(nodes, smi)
        sources["names"] = smi[0].get("source", "amd-smi")
        smi_driver = next((g["driver"] for g in smi if g.get("driver")), None)
        if driver is None and smi_driver:
            driver = smi_driver
            sources["amdgpu_driver_version"] = sources["names"]
    visible, note = select_visible(nodes, environ)
    if note:
        problems.append(note)
    installs = rocm_installs(environ)
    rocm = installs[0][1] if installs else None
    if installs:
        sources["rocm_version"] = f"{installs[0][0]}/.info/version"
    override = environ.get(OVERRIDE) or None
    if override is not None and override_target(override) is None:
        problems.append(f"{OVERRIDE}={override!r} is not a major.minor.stepping version")
    environment = {
        k: environ[k] for k in (OVERRIDE, *VISIBILITY) if environ.get(k) not in (None, "")
    }
    return AmdFacts(
        gpus=tuple(visible),
        listed=len(nodes),
        # partitions of one GPU share its unique_id; a node without one is a GPU of its own
        physical=len({g.unique_id or f"node {g.node}" for g in nodes}),
        driver_version=driver,
        rocm_version=rocm,
        rocm_installs=tuple(installs),
        override=override,
        environment=environment,
        problems=tuple(problems),
        sources=sources,
    )


def _properties(path: Path) -> dict[str, int] | None:
    try:
        with path.open("rb") as handle:
            raw = handle.read(_MAX_PROPERTIES)
    except OSError:
        return None
    values: dict[str, int] = {}
    for line in raw.decode("ascii", errors="replace").splitlines():
        key, _, value = line.strip().partition(" ")
        try:
            values[key] = int(value.strip(), 0)
        except ValueError:
            continue
    return values


def read_topology(sys_root: Path, problems: list[str]) -> list[AmdGpu]:
    """The GPU nodes of the KFD topology, in node order (ROCr's enumeration order)."""
    base = sys_root / "class" / "kfd" / "kfd" / "topology" / "nodes"
    try:
        entries = sorted((int(p.name), p) for p in base.iterdir() if p.name.isdigit())
    except OSError:
        return []
    gpus = []
    # Compute partitions (MI300X's CPX: 8 KFD nodes per GPU) share their GPU's unique_id; the
    # KFD ORs the partition number into each one's location_id (0x2700 ... 0x2707), which is
    # no PCI function: every partition takes the address of its GPU's first node.
    partition_of: dict[tuple[int, int], int | None] = {}
    unknown_targets = []
    for number, node in entries[:_MAX_NODES]:
        props = _properties(node / "properties")
        if props is None:
            continue
        if props.get("simd_count", 1) == 0 or props.get("gfx_target_version", 1) == 0:
            continue  # a CPU node (no SIMDs; gfx_target_version 0)
        version = props.get("gfx_target_version")
        target = gfx_name(version) if version is not None else None
        if version is None:
            # kernels before gfx_target_version (5.x) list the GPU without saying its target
            unknown_targets.append(str(number))
        elif target is None:
            problems.append(f"{node}/properties: gfx_target_version {version} is not a target")
            continue
        features = None
        capability = props.get("capability")
        if target in _SRAMECC_TARGETS and capability is not None:
            features = "sramecc+" if capability & _CAP_SRAM_EDC else "sramecc-"
        unique = props.get("unique_id")
        domain = props.get("domain", 0)
        own = props.get("location_id")
        location = partition_of.setdefault((domain, unique), own) if unique else own
        device = props.get("device_id")
        gpus.append(
            AmdGpu(
                node=number,
                gfx_target=target,
                features=features,
                name=f"AMD {target}" if target else f"AMD GPU (device {device or 0:#06x})",
                vendor_id=props.get("vendor_id"),
                device_id=props.get("device_id"),
                pci_bus_id=_address(domain, location),
                unique_id=f"GPU-{unique:016x}" if unique else None,
                memory_total_mib=_memory(node),
            )
        )
    if unknown_targets:
        problems.append(
            f"KFD nodes {', '.join(unknown_targets)}: no gfx_target_version in their properties "
            "(a kernel older than the field): the GPU target is unknown"
        )
    return gpus


def _address(domain: int, location: int | None) -> str | None:
    """KFD's location_id as a PCI address (bus [15:8], device [7:3], function [2:0]; ROCm SMI
    reads a partition number from [31:28] on kernels that put it there)."""
    if location is None:
        return None
    return f"{domain:04x}:{(location >> 8) & 0xFF:02x}:{(location >> 3) & 0x1F:02x}.{location & 7}"


def _memory(node: Path) -> int | None:
    """The local memory of a GPU node (its mem_banks' frame-buffer heaps), in MiB."""
    total = 0
    try:
        banks = sorted(node.joinpath("mem_banks").iterdir())[:16]
    except OSError:
        return None
    for bank in banks:
        props = _properties(bank / "properties") or {}
        if props.get("heap_type") in (1, 2):  # HSA_HEAPTYPE_FRAME_BUFFER_PUBLIC / _PRIVATE
            total = max(total, props.get("size_in_bytes", 0))
    return total // 2**20 if total else None


def _module_version(sys_root: Path) -> str | None:
    try:
        text = (sys_root / "module" / "amdgpu" / "version").read_text("ascii", "replace").strip()
    except OSError:
        return None
    return text if re.fullmatch(r"\d+(\.\d+)+(-\S+)?", text) else None


def select_visible(
    gpus: Sequence[AmdGpu], environ: Mapping[str, str]
) -> tuple[list[AmdGpu], str | None]:
    """ROCR_VISIBLE_DEVICES (indices or GPU-<uuid>) then HIP_VISIBLE_DEVICES (indices into what
    ROCr left; CUDA_VISIBLE_DEVICES where HIP's is unset), each stopping at its first bad entry."""
    chosen = list(gpus)
    notes = []
    rocr = environ.get("ROCR_VISIBLE_DEVICES")
    if rocr is not None:
        chosen = _pick(chosen, rocr, uuids=True)
        notes.append(f"ROCR_VISIBLE_DEVICES={rocr!r}")
    hip_name = "HIP_VISIBLE_DEVICES" if "HIP_VISIBLE_DEVICES" in environ else "CUDA_VISIBLE_DEVICES"
    hip = environ.get(hip_name)
    if hip is not None:
        chosen = _pick(chosen, hip, uuids=False)
        notes.append(f"{hip_name}={hip!r}")
    if not notes:
        return chosen, None
    return chosen, f"{' and '.join(notes)}: {len(chosen)} of {len(gpus)} AMD GPUs visible"


def _pick(gpus: Sequence[AmdGpu], text: str, *, uuids: bool) -> list[AmdGpu]:
    chosen: list[AmdGpu] = []
    for raw in text.split(","):
        entry = raw.strip()
        match: AmdGpu | None = None
        if entry.isdigit():
            number = int(entry)
            match = gpus[number] if number < len(gpus) else None
        elif uuids and entry.upper().startswith("GPU-"):
            found = [g for g in gpus if g.unique_id and g.unique_id.lower() == entry.lower()]
            match = found[0] if found else None
        if match is None:
            break
        if match not in chosen:
            chosen.append(match)
    return chosen


def rocm_installs(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """(prefix, version) of the ROCm user spaces found: $ROCM_PATH first (what HIP reads), then
    /opt/rocm (the default link), then every /opt/rocm-X.Y.Z, each read from `.info/version`."""
    listed = environ.get(ROCM_PREFIXES_VARIABLE)
    if listed is not None:
        prefixes = [p for p in listed.split(os.pathsep) if p]
    else:
        prefixes = [environ.get("ROCM_PATH", ""), "/opt/rocm"]
        with contextlib.suppress(OSError):
            prefixes += sorted(str(p) for p in Path("/opt").glob("rocm-*"))
    found: list[tuple[str, str]] = []
    seen: set[str] = set()
    for prefix in prefixes:
        if not prefix:
            continue
        try:
            real = os.path.realpath(prefix)
            text = Path(prefix, ".info", "version").read_text("ascii", "replace")[:200].strip()
        except OSError:
            continue
        version = text.splitlines()[0].strip() if text else ""
        if version and real not in seen:
            seen.add(real)
            found.append((prefix, version))
    return found


# --- names and driver: the amdsmi library, else the amd-smi command -------------------------


def _smi(environ: Mapping[str, str], timeout: float, problems: list[str]) -> list[dict[str, str]]:
    command = environ.get(AMD_SMI_VARIABLE)
    if command == "":
        return []
    if command is None:
        library = _library()
        if library:
            return library
        command = shutil.which("amd-smi", path=environ.get("PATH")) or ""
        if not command:
            return []
    try:
        done = subprocess.run(
            [command, "static", "--asic", "--driver", "--bus", "--json"],
            capture_output=True,
            timeout=timeout,
            check=False,
            env=dict(environ),
        )
    except subprocess.TimeoutExpired:
        problems.append(f"amd-smi did not answer within {timeout:g}s: GPU names unknown")
        return []
    except OSError as error:
        problems.append(f"amd-smi could not run: {error.strerror or error}")
        return []
    if done.returncode != 0:
        # its last words say why (ROCm 7's "RuntimeError: WARNING: User is missing the
        # following required groups: render, video", ROCm/amdsmi#184)
        said = done.stderr[-4096:].decode("utf-8", "replace").strip().splitlines()
        why = f" ({said[-1].strip()[:200]})" if said else ""
        problems.append(f"amd-smi exited {done.returncode}{why}: GPU names unknown")
        return []
    return parse_amd_smi(done.stdout[: 4 * 2**20].decode("utf-8", "replace"), problems)


def parse_amd_smi(text: str, problems: list[str]) -> list[dict[str, str]]:
    """`amd-smi static --json`: a list of GPUs (ROCm 6.x) or {"gpu_data": [...]} (later),
    each with asic.market_name, asic.target_graphics_version, driver.version, bus.bdf."""
    document = _json_after_warnings(text)
    if document is None:
        problems.append("amd-smi printed no JSON: GPU names unknown")
        return []
    if isinstance(document, Mapping):
        document = document.get("gpu_data", [])
    if not isinstance(document, list):
        return []
    gpus = []
    for item in document:
        if not isinstance(item, Mapping):
            continue
        asic, driver, bus = (_section(item, key) for key in ("asic", "driver", "bus"))
        gpus.append(
            {
                "name": _market_name(asic.get("market_name")),
                "target": _clean(asic.get("target_graphics_version")),
                # `version` since amd-smi of 2024-02 (a719ae9); `driver_version` before it
                "driver": _clean(driver.get("version") or driver.get("driver_version")),
                "bdf": _clean(bus.get("bdf")).lower(),
                "source": "amd-smi",
            }
        )
    return gpus


def _json_after_warnings(text: str) -> Any:
    """The JSON document amd-smi printed, after any warning lines it wrote to stdout before it
    (the render/video groups WARNING: ROCm/amdsmi#114); None where there is none."""
    decoder = json.JSONDecoder()
    start = 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith(("[", "{")):
            try:
                return decoder.raw_decode(text, start + len(line) - len(line.lstrip()))[0]
            except ValueError:
                return None
        start += len(line)
    return None


def _section(item: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = item.get(key)
    return value if isinstance(value, Mapping) else {}


def _clean(value: Any) -> str:
    text = str(value).strip() if isinstance(value, (str, int, float)) else ""
    return "" if text.upper() in ("N/A", "NONE") else text[:200]


def _market_name(value: Any) -> str:
    """A marketing name; amd-smi of 2023 printed the device ID (`0x73bf`) where it had none."""
    text = _clean(value)
    return "" if re.fullmatch(r"(0x)?[0-9a-fA-F]+", text) else text


def _library() -> list[dict[str, str]]:
    """The amdsmi binding, where installed and its library loads; [] otherwise."""
    try:
        import amdsmi  # type: ignore[import-not-found]
    except Exception:  # not installed, or libamd_smi.so missing: the command may still answer
        return []
    gpus: list[dict[str, str]] = []
    try:
        amdsmi.amdsmi_init()
    except Exception:
        return []
    try:
        for handle in amdsmi.amdsmi_get_processor_handles():
            asic = _call(amdsmi.amdsmi_get_gpu_asic_info, handle) or {}
            driver = _call(amdsmi.amdsmi_get_gpu_driver_info, handle) or {}
            bdf = _call(amdsmi.amdsmi_get_gpu_device_bdf, handle)
            gpus.append(
                {
                    "name": _market_name(asic.get("market_name")),
                    "target": _clean(asic.get("target_graphics_version")),
                    "driver": _clean(driver.get("driver_version")),
                    "bdf": _clean(bdf).lower(),
                    "source": "amdsmi",
                }
            )
    except Exception:
        return gpus
    finally:
        with contextlib.suppress(Exception):
            amdsmi.amdsmi_shut_down()
    return gpus


def _call(function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except Exception:  # AmdSmiLibraryException (not supported, no permission)
        return None


def _named(nodes: list[AmdGpu], smi: list[dict[str, str]]) -> list[AmdGpu]:
    """Each node named by the amd-smi entry of its PCI address; without one, by the entries of
    its target where they all say the same. Never by position: amd-smi lists GPUs by PCI
    address, the KFD (and HIP) in another order (TheRock#1737: HIP-IDs 0, 2, 1)."""
    by_bdf = {g["bdf"]: g for g in smi if g.get("bdf")}
    named = []
    for node in nodes:
        entry = by_bdf.get(node.pci_bus_id or "")
        if entry is None:
            entry = _same_kind(node, smi, len(nodes))
        if entry is None or not entry.get("name"):
            named.append(node)
            continue
        features = node.features
        target = entry.get("target", "")
        if _TARGET.fullmatch(target) and ":" in target:
            features = target.partition(":")[2]
        named.append(replace(node, name=entry["name"], features=features))
    return named


def _same_kind(node: AmdGpu, smi: list[dict[str, str]], listed: int) -> dict[str, str] | None:
    """The amd-smi entry for a node it gives no address of: one whose entries of the node's
    target (else, where amd-smi states no targets and lists as many GPUs, all of its entries)
    agree on name and target; None where they differ (a name by guess is a false fact)."""
    pool = [e for e in smi if e.get("target", "").partition(":")[0] == node.gfx_target]
    if not pool and len(smi) == listed and not any(e.get("target") for e in smi):
        pool = smi
    kinds = {(e.get("name"), e.get("target")) for e in pool}
    return pool[0] if len(kinds) == 1 else None


def with_amd(hardware: Hardware, amd: AmdFacts | str | None) -> Hardware:
    """The NVML probe's answer with the AMD GPUs added after its own (numbered on), the ROCm
    facts set, and NVML's "no NVIDIA driver" dropped where AMD GPUs answer for the machine."""
    if isinstance(amd, str):
        return replace(hardware, problems=(*hardware.problems, f"AMD GPU probe failed: {amd}"))
    if amd is None:
        return hardware
    first = len(hardware.gpus)
    gpus = tuple(
        Gpu(
            index=first + i,
            name=g.name,
            uuid=g.unique_id,
            pci_bus_id=g.pci_bus_id,
            memory_total_mib=g.memory_total_mib,
            vendor="amd",
            gfx_target=g.gfx_target,
            gfx_features=g.features,
        )
        for i, g in enumerate(amd.gpus)
    )
    problems = hardware.problems
    extra = dict(hardware.extra)
    if not hardware.gpus and extra.get("nvml_error") == "library-not-found":
        problems = ()  # "no NVIDIA driver": true, and no news on an AMD machine
        extra.pop("nvml_error", None)
    sources = dict(extra.get("sources") or {})  # type: ignore[call-overload]
    sources.update({f"amd_{k}": v for k, v in amd.sources.items()})
    extra["sources"] = sources
    if amd.environment:
        extra["rocm_environment"] = dict(amd.environment)
    if len(amd.rocm_installs) > 1:
        extra["rocm_installs"] = dict(amd.rocm_installs)
    if amd.listed != len(amd.gpus):
        extra["amd_gpus_listed"] = amd.listed
    if amd.physical != amd.listed:
        # compute partitions: each is a device a process sees (gpus[]), these are the GPUs
        extra["amd_physical_gpus"] = amd.physical
    return replace(
        hardware,
        gpus=hardware.gpus + gpus,
        problems=(*problems, *amd.problems),
        extra=extra,
        rocm_version=amd.rocm_version,
        amdgpu_driver_version=amd.driver_version,
        gfx_override=amd.override,
    )
