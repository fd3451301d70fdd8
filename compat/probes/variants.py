"""This machine in the vocabulary installers choose GPU builds by, from the facts the NVML probe
already has (never by running a provider plugin).

- Wheel variants (PEP 825 format, provider API in the PEP 817 draft): the NVIDIA provider
  (wheelnext/nvidia-variant-provider, nvidia_variant_provider/plugin.py @ 2ab9659) describes a
  machine with `nvidia :: cuda_version_lower_bound`, `nvidia :: cuda_version_upper_bound` (from
  the driver's CUDA version, decoded from nvmlSystemGetCudaDriverVersion; 11.0 to 15.20, none
  outside) and `nvidia :: sm_arch` (`{M}{m}_real` for the local minor down to 0, then
  `{M}0_virtual`, of the *highest* compute capability on the machine only; none below 5.0).
  NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION / NV_VARIANT_PROVIDER_FORCE_SM_ARCH override the
  detection: their values here reproduce this machine's selection elsewhere (CI, a laptop).
- uv's `--torch-backend=auto` (crates/uv-torch @ 26a9dd4, uv 0.12.5) reads the driver version
  only (UV_CUDA_DRIVER_VERSION, /sys/module/nvidia/version, /proc, nvidia-smi), never the
  compute capability (astral-sh/uv#14742), and tries the newest PyTorch CUDA index whose minimum
  driver is met first (Linux: 580 for cu130/cu132, 525.60.13 for cu120-cu129).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packaging.version import Version

from compat.model import Hardware

FORCE_CUDA = "NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION"
FORCE_SM = "NV_VARIANT_PROVIDER_FORCE_SM_ARCH"
UV_DRIVER = "UV_CUDA_DRIVER_VERSION"
_UMD_MAJORS = range(11, 16)  # the provider's UMD_MAJOR_RANGE
_UMD_MINORS = 20  # its UMD_MINOR_RANGE is range(21)
_UV_CUDA13 = Version("580")  # uv's LINUX_CUDA_DRIVERS: cu130/cu132
_UV_CUDA12 = Version("525.60.13")  # cu120..cu129


def _lower_bounds(major: int, minor: int) -> list[str]:
    values = []
    for m in range(major, _UMD_MAJORS.start - 1, -1):
        top = minor if m == major else _UMD_MINORS
        values += [f"{m}.{n}" for n in range(top, -1, -1)] + [f"{m}"]
    return values


def _upper_bounds(major: int, minor: int) -> list[str]:
    values = []
    for m in range(_UMD_MAJORS.stop - 1, major - 1, -1):
        if m > major:
            values += [f"{m}.{n}" for n in range(_UMD_MINORS, -1, -1)] + [f"{m}"]
        else:  # the upper bound is exclusive: the local minor is not one
            values += [f"{m}.{n}" for n in range(_UMD_MINORS, minor, -1)]
    return values


def _sm(cc: Version) -> str:
    return f"sm_{cc.major}{cc.minor}"


def wheel_variants(hardware: Hardware, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The `wheel_variants` section of `compat probe --format json`."""
    nvidia: dict[str, list[str]] = {}
    reproduce: dict[str, str] = {}
    notes: list[str] = []
    cuda = hardware.cuda_driver_version
    if cuda is not None:
        major, minor = cuda.major, cuda.minor
        if Version("11.0") <= Version(f"{major}.{minor}") <= Version(f"15.{_UMD_MINORS}"):
            nvidia["cuda_version_lower_bound"] = _lower_bounds(major, minor)
            nvidia["cuda_version_upper_bound"] = _upper_bounds(major, minor)
            reproduce[FORCE_CUDA] = f"{major}.{minor}"
        else:
            notes.append(
                f"the driver's CUDA {major}.{minor} is outside the NVIDIA provider's 11.0-15.20: "
                "it supports no nvidia variant"
            )
    else:
        notes.append("no CUDA driver version: the NVIDIA provider supports no nvidia variant")
    capabilities = [g.compute_capability for g in hardware.gpus if g.compute_capability]
    if capabilities and nvidia:
        top = max(capabilities)
        if top.minor > 9 or top.major > 99:  # not a compute capability: never a long list
            notes.append(f"compute capability {top} is not one the provider names")
        elif top >= Version("5.0"):
            nvidia["sm_arch"] = [
                *(f"{top.major}{m}_real" for m in range(top.minor, -1, -1)),
                f"{top.major}0_virtual",
            ]
            reproduce[FORCE_SM] = f"{top.major}.{top.minor}"
        else:
            notes.append(f"compute capability {top} is below 5.0: the provider has no sm_arch")
        lowest = min(capabilities)
        if lowest != top:
            others = ", ".join(
                f"GPU {g.index} ({_sm(g.compute_capability)})"
                for g in hardware.gpus
                if g.compute_capability is not None and g.compute_capability < top
            )
            notes.append(
                f"the NVIDIA provider advertises only the highest SM ({_sm(top)}): a variant "
                f"chosen for it may have no kernels for {others}"
            )
    driver = hardware.driver_version
    if driver is not None:
        reproduce[UV_DRIVER] = hardware.driver_label or str(driver)
        notes += _uv_auto_notes(driver, hardware)
    env = environ or {}
    for name in (FORCE_CUDA, FORCE_SM, UV_DRIVER):
        if env.get(name):
            notes.append(f"{name}={env[name]} is set here: installers use it, not this machine")
    return {
        "namespaces": {"nvidia": nvidia} if nvidia else {},
        "reproduce": reproduce,
        "notes": notes,
    }


def _uv_auto_notes(driver: Version, hardware: Hardware) -> list[str]:
    """When uv's driver-only choice gives a torch build without kernels for a GPU here
    (the KB rules cuda13-build-drops-pre-turing and torch-cu128-default-drops-maxwell-pascal)."""
    if driver >= _UV_CUDA13:
        index, floor, rule = "a CUDA 13 index (cu132/cu130)", Version("7.5"), "CUDA 13 builds"
        builds = "cuda13-build-drops-pre-turing"
    elif driver >= _UV_CUDA12:
        index, floor, rule = "the cu129 index", Version("7.0"), "torch 2.8+ CUDA 12.8/12.9 builds"
        builds = "torch-cu128-default-drops-maxwell-pascal"
    else:
        return []
    short = [
        g
        for g in hardware.gpus
        if g.compute_capability is not None and g.compute_capability < floor
    ]
    if not short:
        return []
    gpus = ", ".join(f"GPU {g.index} {g.name} ({_sm(g.compute_capability)})" for g in short)  # type: ignore[arg-type]
    return [
        f"uv --torch-backend=auto reads the driver only ({hardware.driver_label or driver}): it "
        f"tries {index} first, and {rule} have no kernels below {_sm(floor)} for {gpus}; "
        f"pass --torch-backend=cu126 (rule {builds}; astral-sh/uv#14742)"
    ]


def render_variants_text(section: Mapping[str, Any], *, amd_only: bool = False) -> str:
    """The text lines of `compat probe` for the section above. On a machine whose GPUs are all
    AMD's the NVIDIA provider's "no CUDA driver" note is no news: one line says why it is empty."""
    lines = []
    nvidia = section["namespaces"].get("nvidia", {})
    if nvidia:
        best = ", ".join(
            f"nvidia :: {feature} :: {values[0]}" for feature, values in nvidia.items()
        )
        lines.append(f"wheel variants: {best} (most preferred of each)")
    elif amd_only:
        lines.append("wheel variants: no nvidia properties (no NVIDIA GPU)")
    else:
        lines.append("wheel variants: no nvidia properties")
    if section["reproduce"]:
        lines.append(
            "reproduce elsewhere: " + " ".join(f"{k}={v}" for k, v in section["reproduce"].items())
        )
    notes = section["notes"]
    if amd_only and not nvidia:  # every note is the NVIDIA provider's, about no NVIDIA driver
        notes = [n for n in notes if "NVIDIA provider" not in n]
    lines += [f"note: {note}" for note in notes]
    return "\n".join(lines) + "\n"
