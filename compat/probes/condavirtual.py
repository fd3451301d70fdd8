"""This machine as conda's solvers see it: the `__cuda` and `__cuda_arch` virtual packages,
computed the way conda, mamba and rattler (pixi) compute them, from the facts the NVML probe or a
hardware profile holds.

* `__cuda` (CEP 30): present when an NVIDIA driver is; its version is the newest CUDA the driver
  supports (cuDriverGetVersion, `{major}.{minor}`). `CONDA_OVERRIDE_CUDA` set to a version
  exposes that version instead; set to the empty string, none.
* `__cuda_arch` (CEP 46, accepted 2026-05; rattler implements it, conda through the
  nvidia-virtual-packages plugin): absent whenever `__cuda` is; else the *lowest* compute
  capability of the visible GPUs (`{major}.{minor}`, no `a`/`f` suffix), absent with no GPU.
  `CONDA_OVERRIDE_CUDA_ARCH` (a compute capability, optionally `=build`) overrides it; the empty
  string removes it.

The overrides are read from the environment of the process that computes them, as conda does:
they describe the machine compat runs on, so a profile of another machine ignores them.

pixi refuses to install an environment whose CUDA requirement (`[system-requirements] cuda`, a
rich platform's `cuda`) the machine's `__cuda` does not meet, and a CPU-only CI runner has no
`__cuda` at all: `CONDA_OVERRIDE_CUDA` set to the requirement lets the solve go on there. pixi
0.71 made the requirement a platform match ("no platform supported by environment ... matches
the current system" on a driverless runner; NVIDIA/cuCascade#153 sets the override on its CPU
job); before it, "Virtual package '__cuda' does not match any of the available virtual packages
on your machine" with the same override as its help (fieldsoftheworld/ftw-baselines#117).
prefix-dev/pixi#6626 (0.73) is a neighbouring bug: a detected `__cuda` missing from the resolved
rich platform.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from packaging.version import InvalidVersion, Version

from compat.model import Hardware

CUDA, CUDA_ARCH = "__cuda", "__cuda_arch"
OVERRIDES = {CUDA: "CONDA_OVERRIDE_CUDA", CUDA_ARCH: "CONDA_OVERRIDE_CUDA_ARCH"}
_ARCH = re.compile(r"(\d+)\.(\d+)[af]?(=[A-Za-z0-9_.]+)?")
SOURCES = (
    "https://github.com/conda/ceps/blob/main/cep-0030.md",
    "https://github.com/conda/ceps/blob/main/cep-0046.md",
    "https://github.com/NVIDIA/cuCascade/pull/153",
)


def _version(text: str) -> Version | None:
    try:
        return Version(text)
    except InvalidVersion:
        return None


def virtual_packages(
    hardware: Hardware | None, environ: Mapping[str, str] | None = None
) -> dict[str, tuple[Version | None, str]]:
    """{name: (version, how)}; version None: the package is absent. `environ` is the environment
    of the machine the hardware facts describe (None for a profile of another machine)."""
    env = environ or {}
    out: dict[str, tuple[Version | None, str]] = {}
    override = env.get(OVERRIDES[CUDA])
    if override is not None:
        out[CUDA] = (_version(override) if override else None, f"{OVERRIDES[CUDA]}={override!r}")
    elif hardware is not None and hardware.cuda_driver_version is not None:
        major, minor = (*hardware.cuda_driver_version.release, 0)[:2]
        out[CUDA] = (Version(f"{major}.{minor}"), "the driver's CUDA version")
    else:
        out[CUDA] = (None, "no NVIDIA driver" if hardware is not None else "hardware unknown")
    if out[CUDA][0] is None:
        out[CUDA_ARCH] = (None, f"absent with {CUDA}")
        return out
    arch = env.get(OVERRIDES[CUDA_ARCH])
    if arch is not None:
        match = _ARCH.fullmatch(arch)
        version = Version(f"{match.group(1)}.{match.group(2)}") if match else None
        out[CUDA_ARCH] = (version, f"{OVERRIDES[CUDA_ARCH]}={arch!r}")
        return out
    capabilities = [
        gpu.compute_capability
        for gpu in (hardware.gpus if hardware is not None else ())
        if gpu.compute_capability is not None
    ]
    if capabilities:
        low = min(capabilities)
        major, minor = (*low.release, 0)[:2]
        out[CUDA_ARCH] = (Version(f"{major}.{minor}"), "the lowest compute capability of the GPUs")
    else:
        out[CUDA_ARCH] = (None, "no GPU visible")
    return out


def section(hardware: Hardware, environ: Mapping[str, str]) -> dict[str, Any]:
    """The `conda_virtual_packages` section of `compat probe --format json`."""
    found = virtual_packages(hardware, environ)
    return {
        "packages": {name: str(v) if v is not None else None for name, (v, _) in found.items()},
        "overrides": {var: environ[var] for var in OVERRIDES.values() if var in environ},
        "sources": list(SOURCES),
    }


def render_text(document: Mapping[str, Any]) -> str:
    packages = document["packages"]
    shown = ", ".join(f"{name}={value}" for name, value in packages.items() if value is not None)
    line = f"conda virtual packages: {shown or f'no {CUDA} (no NVIDIA driver)'}"
    if document["overrides"]:
        line += " (" + ", ".join(f"{k}={v!r}" for k, v in document["overrides"].items()) + ")"
    return line + "\n"


def _is_here(hardware: Hardware | None) -> bool:
    """Facts probed on this machine (NVML), not a profile of another one."""
    return hardware is not None and not hardware.source.startswith("profile")


def cuda_requirement_notes(
    required: Version, where: str, hardware: Hardware | None, environ: Mapping[str, str]
) -> list[str]:
    """What a pixi/conda CUDA requirement (`__cuda >= required`) means for the machine judged
    and for the machine compat runs on (a CPU-only CI runner needs the override)."""
    notes: list[str] = []
    major, minor = (*required.release, 0)[:2]
    value = f"{major}.{minor}"
    here = virtual_packages(hardware if _is_here(hardware) else None, environ)
    cuda, how = here[CUDA]
    if OVERRIDES[CUDA] in environ:
        if cuda is None or cuda < required:
            notes.append(
                f"{where}: {how} here gives {CUDA} {cuda or '(absent)'}, below the {value} this "
                f"environment requires: pixi refuses to solve it; set {OVERRIDES[CUDA]}={value}"
            )
    elif cuda is None:
        notes.append(
            f"{where}: on a machine without an NVIDIA driver (a CPU-only CI runner) there is no "
            f"{CUDA} virtual package, so pixi cannot install this environment there: set "
            f"{OVERRIDES[CUDA]}={value} for that job (the GPU machines keep their detected "
            f"{CUDA})"
        )
    return notes
