"""Hardware profiles (`compat.hardware/1`): what `compat probe --format json` writes and
`--hardware FILE` reads, so that a CPU-only CI runner can gate for the GPU cluster."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from compat.errors import InputError
from compat.files.jsonio import parse_json
from compat.lazyre import Lazy
from compat.model import Gpu, Hardware, Origin
from compat.versions import parse_version

PROFILE_SCHEMA = "compat.hardware/1"


PROFILE_READ = "cannot read hardware profile"  # what a read error of a profile says


def load_profile(path: Path) -> Hardware:
    """Read a profile (JSON, or YAML) and validate it; InputError names the file and the problem."""
    from compat.files.readers import read_text

    return profile_from_text(read_text(path, "config", what=PROFILE_READ), str(path))


def profile_from_text(text: str, source: str) -> Hardware:
    """A profile read from the file named `source` (YAML where the name says so, else JSON),
    validated; no I/O: the caller read the file (compat.facts.gather, load_profile)."""
    if Path(source).suffix.lower() in (".yaml", ".yml"):
        from compat.files.yamlio import load_plain_text

        document = load_plain_text(text, source)
    else:
        document = parse_json(text, source)
    return hardware_from_document(document, source)


def _version(value: Any, what: str, where: str) -> Version | None:
    if value is None:
        return None
    try:
        return parse_version(str(value))
    except InvalidVersion:
        raise InputError(f"{what} {value!r} is not a version", origin=Origin(where)) from None


def hardware_from_document(document: Any, where: str) -> Hardware:
    if not isinstance(document, Mapping):
        raise InputError("a hardware profile must be a JSON object", origin=Origin(where))
    schema = document.get("schema")
    if schema is not None and schema != PROFILE_SCHEMA:
        raise InputError(f"schema is {schema!r}, expected {PROFILE_SCHEMA!r}", origin=Origin(where))
    gpus_doc = document.get("gpus", [])
    if not isinstance(gpus_doc, list):
        raise InputError("gpus must be a list", origin=Origin(where))
    gpus = []
    for position, item in enumerate(gpus_doc):
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise InputError(f"gpus[{position}] needs at least a name", origin=Origin(where))
        memory = item.get("memory_total_mib")
        if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int)):
            raise InputError(
                f"gpus[{position}].memory_total_mib must be an integer", origin=Origin(where)
            )
        mig = item.get("mig")
        if mig is not None and not isinstance(mig, bool):
            raise InputError(f"gpus[{position}].mig must be true or false", origin=Origin(where))
        index = item.get("index", position)
        vendor, gfx_target, gfx_features = _amd_gpu(item, position, where)
        gpus.append(
            Gpu(
                index=index if isinstance(index, int) else position,
                name=item["name"],
                uuid=item.get("uuid"),
                pci_bus_id=item.get("pci_bus_id"),
                compute_capability=_version(
                    item.get("compute_capability"), f"gpus[{position}].compute_capability", where
                ),
                memory_total_mib=memory,
                mig=mig,
                vendor=vendor,
                gfx_target=gfx_target,
                gfx_features=gfx_features,
            )
        )
    from compat.files.readers import jsonable

    extra = {str(k): jsonable(v) for k, v in document.items() if k not in _CORE_KEYS}
    problems = document.get("problems", [])
    driver = document.get("driver_version")
    platform = document.get("platform")
    if platform is not None and (
        not isinstance(platform, str) or _PLATFORM.fullmatch(platform) is None
    ):
        raise InputError(
            f"platform {platform!r}: expected linux, darwin or win32 and a machine, as in "
            "linux/aarch64",
            origin=Origin(where),
        )
    hardware = Hardware(
        driver_version=_version(driver, "driver_version", where),
        cuda_driver_version=_version(
            document.get("cuda_driver_version"), "cuda_driver_version", where
        ),
        gpus=tuple(gpus),
        source=f"profile {where}",
        problems=tuple(str(p) for p in problems) if isinstance(problems, list) else (),
        extra=extra,
        driver_text=str(driver) if driver is not None else None,
        platform=platform,
        rocm_version=_text(document, "rocm_version", where),
        amdgpu_driver_version=_text(document, "amdgpu_driver_version", where),
        gfx_override=_text(document, "hsa_override_gfx_version", where),
    )
    return _with_user_driver(hardware, document.get("user_mode_driver"), where)


def _text(document: Mapping[str, Any], key: str, where: str) -> str | None:
    value = document.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f"{key} must be a version string", origin=Origin(where))
    return str(value)


def _amd_gpu(
    item: Mapping[str, Any], position: int, where: str
) -> tuple[str | None, str | None, str | None]:
    """A GPU's `vendor` (nvidia | amd), and an AMD GPU's `gfx_target` ("gfx942", or a target ID
    "gfx90a:sramecc+:xnack-") and `gfx_features` ("sramecc+:xnack-")."""
    from compat.binary.gfxtarget import split_target_id

    vendor = item.get("vendor")
    if vendor is not None and vendor not in ("nvidia", "amd"):
        raise InputError(
            f"gpus[{position}].vendor {vendor!r}: expected nvidia or amd", origin=Origin(where)
        )
    target = item.get("gfx_target")
    features = item.get("gfx_features")
    if target is None:
        return vendor, None, None
    parsed = split_target_id(target) if isinstance(target, str) else None
    if parsed is None:
        raise InputError(
            f"gpus[{position}].gfx_target {target!r} is not an AMD GPU target (gfx942, "
            "gfx90a:sramecc+:xnack-)",
            origin=Origin(where),
        )
    if features is not None and (
        not isinstance(features, str) or split_target_id(f"{parsed[0]}:{features}") is None
    ):
        raise InputError(
            f"gpus[{position}].gfx_features {features!r}: expected settings such as "
            "sramecc+:xnack-",
            origin=Origin(where),
        )
    own = target.partition(":")[2] or None
    if vendor == "nvidia":
        raise InputError(
            f"gpus[{position}] is an nvidia GPU with a gfx_target", origin=Origin(where)
        )
    return "amd", parsed[0], features or own


def _with_user_driver(hardware: Hardware, value: Any, where: str) -> Hardware:
    """A profile's `user_mode_driver`: the libcuda a process in the described container loads
    ("580.65.06", or the object `compat probe` writes, whose `version` and `path` are read; what
    it gives is judged again here, never carried)."""
    if value is None:
        return hardware
    path = None
    if isinstance(value, Mapping):
        path = value.get("path")
        value = value.get("version")
        if path is not None and not isinstance(path, str):
            raise InputError("user_mode_driver.path must be a string", origin=Origin(where))
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(
            'user_mode_driver must be a driver version ("580.65.06") or an object with one',
            origin=Origin(where),
        )
    text = str(value)
    _version(text, "user_mode_driver", where)  # exit 2 naming the file when it is no version
    from compat.probes.libcuda import judge

    user = judge(hardware, text, path=path, found_by=f"profile {where}")
    return dataclasses.replace(hardware, user_driver=user) if user is not None else hardware


_PLATFORM = Lazy(r"(linux|darwin|win32)/[A-Za-z0-9_]+")
# Grace-based nodes: the GPU's name says the CPU is Arm (GH200 Grace Hopper, GB200/GB300 Grace
# Blackwell, GB10 in DGX Spark), so a profile without `platform` still says linux/aarch64.
_GRACE = Lazy(r"\bG[BH]\d{2,3}\b")


def implied_platform(hardware: Hardware) -> tuple[str, str] | None:
    """The platform a profile implies, and why: its `platform`, else linux/aarch64 for a
    Grace-based GPU (GH200, GB200, GB300, GB10); None when it says nothing."""
    if hardware.platform:
        return hardware.platform, f"the hardware profile's platform ({hardware.source})"
    for gpu in hardware.gpus:
        if _GRACE.search(gpu.name):
            return "linux/aarch64", f"{gpu.name} is a Grace (Arm) node ({hardware.source})"
    return None


_CORE_KEYS = {
    "schema", "driver_version", "cuda_driver_version", "gpus", "problems",
    "wheel_variants",  # derived from the rest by `compat probe`: recomputed, never carried
    "conda_virtual_packages",  # the same
    "platform",
    "user_mode_driver",
    "rocm_version",
    "amdgpu_driver_version",
    "hsa_override_gfx_version",
}  # fmt: skip


def profile_document(hardware: Hardware) -> dict[str, Any]:
    """The contract document; extra facts (topology, /dev/shm, sources) follow the core keys."""
    document: dict[str, Any] = {
        "schema": PROFILE_SCHEMA,
        "driver_version": hardware.driver_label,
        "cuda_driver_version": str(hardware.cuda_driver_version)
        if hardware.cuda_driver_version is not None
        else None,
        "gpus": [
            {
                "index": gpu.index,
                "name": gpu.name,
                "uuid": gpu.uuid,
                "pci_bus_id": gpu.pci_bus_id,
                "compute_capability": str(gpu.compute_capability)
                if gpu.compute_capability is not None
                else None,
                "memory_total_mib": gpu.memory_total_mib,
                "mig": gpu.mig,
                **_gpu_vendor(gpu),
            }
            for gpu in hardware.gpus
        ],
    }
    for key, value in (
        ("rocm_version", hardware.rocm_version),
        ("amdgpu_driver_version", hardware.amdgpu_driver_version),
        ("hsa_override_gfx_version", hardware.gfx_override),
    ):
        if value is not None:
            document[key] = value
    if hardware.platform:
        document["platform"] = hardware.platform
    if hardware.user_driver is not None:
        from compat.probes.libcuda import user_driver_document

        document["user_mode_driver"] = {
            **user_driver_document(hardware.user_driver),
            "effective_cuda_version": str(hardware.process_cuda_version)
            if hardware.process_cuda_version is not None
            else None,
        }
    if hardware.problems:
        document["problems"] = list(hardware.problems)
    document.update({k: v for k, v in hardware.extra.items() if k not in _CORE_KEYS})
    return document


def _gpu_vendor(gpu: Gpu) -> dict[str, Any]:
    """The vendor keys of one GPU: written where known (an older profile's GPUs have none)."""
    if gpu.is_amd:
        keys: dict[str, Any] = {"vendor": "amd"}
        if gpu.gfx_target:  # unknown (a KFD without gfx_target_version): left out, not null
            keys["gfx_target"] = gpu.gfx_target
        if gpu.gfx_features:
            keys["gfx_features"] = gpu.gfx_features
        return keys
    return {"vendor": gpu.vendor} if gpu.vendor else {}


def render_profile_text(hardware: Hardware) -> str:
    """`compat probe` for a person."""
    lines = []
    driver = hardware.driver_label or "none"
    cuda = (
        f" (supports CUDA {hardware.cuda_driver_version})" if hardware.cuda_driver_version else ""
    )
    amd_only = bool(hardware.gpus) and all(g.is_amd for g in hardware.gpus)
    if not (amd_only and hardware.driver_label is None):  # no NVIDIA driver to speak of
        lines.append(f"driver: {driver}{cuda}")
    if hardware.user_driver is not None:
        from compat.probes.libcuda import describe

        lines.append(describe(hardware.user_driver, hardware))
        if hardware.user_driver.path:
            lines.append(f"       {hardware.user_driver.path}")
        if hardware.user_driver.note:
            lines.append(f"note: {hardware.user_driver.note}")
    if not hardware.gpus:
        # both vendors were asked: say so, or an AMD user reads only "no NVIDIA driver" below
        lines.append("GPUs: none visible (no NVIDIA GPU via NVML, no AMD GPU in the KFD topology)")
    has_amd = any(g.is_amd for g in hardware.gpus)
    if has_amd or hardware.amdgpu_driver_version or hardware.rocm_version:
        # on an AMD machine both are said, unknown or not: an absent line reads as "fine"
        lines.append(
            f"amdgpu driver: {hardware.amdgpu_driver_version or 'unknown'}, "
            f"ROCm: {hardware.rocm_version or 'none found (/opt/rocm*, $ROCM_PATH)'}"
        )
    if hardware.gfx_override:
        from compat.binary.gfxtarget import override_target

        loads = override_target(hardware.gfx_override)
        lines.append(
            f"HSA_OVERRIDE_GFX_VERSION={hardware.gfx_override}: every GPU below runs {loads} code"
            if loads
            else f"HSA_OVERRIDE_GFX_VERSION={hardware.gfx_override}: not a version the runtime reads"
        )
    physical = hardware.extra.get("amd_physical_gpus")
    if isinstance(physical, int):
        amd = sum(1 for g in hardware.gpus if g.is_amd)
        lines.append(
            f"compute partitions: {amd} devices of {physical} GPUs (each partition a GPU below)"
        )
    for gpu in hardware.gpus:
        if gpu.is_amd:
            target = gpu.gfx_target or "target unknown"
            if gpu.gfx_features:
                target += ":" + gpu.gfx_features
            memory = f", {gpu.memory_total_mib} MiB" if gpu.memory_total_mib is not None else ""
            bus = f", {gpu.pci_bus_id}" if gpu.pci_bus_id else ""
            # the probe's placeholder `AMD gfx90a` repeats the target: say the name is unknown
            name = "AMD GPU, name unknown" if gpu.name == f"AMD {gpu.gfx_target}" else gpu.name
            lines.append(f"GPU {gpu.index}: {name} ({target}{memory}{bus})")
            continue
        cc = (
            f"sm_{str(gpu.compute_capability).replace('.', '')}"
            if gpu.compute_capability
            else "sm_?"
        )
        memory = f", {gpu.memory_total_mib} MiB" if gpu.memory_total_mib is not None else ""
        mig = ", MIG on" if gpu.mig else ""
        bus = f", {gpu.pci_bus_id}" if gpu.pci_bus_id else ""
        lines.append(
            f"GPU {gpu.index}: {gpu.name} (compute capability {gpu.compute_capability}, {cc}{memory}{mig}{bus})"
        )
        if gpu.uuid:
            lines.append(f"       {gpu.uuid}")
    if hardware.platform:
        lines.append(f"platform: {hardware.platform}")
    for key, value in hardware.extra.items():
        if key in ("sources", "nvml_index", "amd_physical_gpus"):  # said above
            continue
        if key == "nvml_error" and hardware.problems:  # the note below says it in words
            continue
        if key == "rocm_environment" and isinstance(value, Mapping):
            shown = {k: v for k, v in value.items() if k != "HSA_OVERRIDE_GFX_VERSION"}
            if shown:  # the override has its own line above
                lines.append("ROCm variables: " + " ".join(f"{k}={v}" for k, v in shown.items()))
            continue
        lines.append(f"{key}: {json.dumps(value) if not isinstance(value, str) else value}")
    for problem in hardware.problems:
        lines.append(f"note: {problem}")
    sources = hardware.extra.get("sources")
    unnamed = [g for g in hardware.gpus if g.is_amd and g.name == f"AMD {g.gfx_target}"]
    if unnamed and not any("amd-smi" in p for p in hardware.problems):
        said = isinstance(sources, Mapping) and "amd_names" in sources
        lines.append(  # an unknown is named, with where the fact would come from
            "note: GPU names unknown: amd-smi "
            + ("gave none for these GPUs" if said else "was not found (or gave none)")
        )
    if isinstance(sources, Mapping) and sources:  # never a bare "sources: "
        lines.append("sources: " + ", ".join(f"{_source(k)} from {v}" for k, v in sources.items()))
    return "\n".join(lines) + "\n"


def _source(key: str) -> str:
    """A `sources` key as words: `amd_amdgpu_driver_version` -> `amdgpu driver version`."""
    if not key.startswith("amd_"):
        return key
    return "AMD GPUs" if key == "amd_gpus" else key[4:].replace("_", " ")
