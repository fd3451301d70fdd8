"""Which CUDA build a torch release comes in, from data generated out of published wheels.

`compat/data/torch-builds.json` is written by `scripts/gen_torch_builds.py` from recorded inputs:
the `torch/version.py` of the wheel a plain `pip install torch==V` gets from PyPI on each platform
(machine-read through range requests), and the per-CUDA indexes PyTorch publishes each release on.
Nothing here is typed by hand, and nothing here imports torch.

A declared `torch==2.11.0` therefore carries a CUDA build fact (13.0 on Linux x86_64) although no
`+cu130` label was written, and pin can name an index that serves a build the driver can run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal

from packaging.version import InvalidVersion, Version

from compat.kb.releasetable import ReleaseTable

PYTORCH_INDEX = "https://download.pytorch.org/whl"
DEFAULT_PLATFORM = "linux/x86_64"

# check's --platform spelling ("linux", "linux/aarch64", "win32", "darwin") -> the table's keys
_PLATFORM_ALIASES = {
    "linux": "linux/x86_64",
    "linux/x86_64": "linux/x86_64",
    "linux/amd64": "linux/x86_64",
    "linux/aarch64": "linux/aarch64",
    "linux/arm64": "linux/aarch64",
    "win32": "win32/AMD64",
    "win32/amd64": "win32/AMD64",
    "darwin": "darwin/arm64",
    "darwin/arm64": "darwin/arm64",
    "darwin/x86_64": "darwin/arm64",  # both macOS wheels are CPU builds
}
# The last path segment of a PyTorch index URL: cu126, cu130, cpu (also under /whl/nightly/ or
# /whl/test/). ROCm and XPU indexes are not CUDA builds: the caller gets None for them.
_INDEX_SEGMENT = re.compile(r"/whl/(?:nightly/|test/)?(cu\d{3,4}|cpu)(?:/|$)")


@cache
def _table() -> ReleaseTable[Mapping[str, Any]]:
    text = resources.files("compat").joinpath("data/torch-builds.json").read_text("utf-8")
    releases: Mapping[str, Mapping[str, Any]] = json.loads(text)["releases"]
    return ReleaseTable(releases)


def _entry(torch_version: Version) -> Mapping[str, Any] | None:
    # A local label (+cu126) names its own build (the table drops it); a pre-release or dev build
    # of a release (NGC's 2.5.0a0+...) is read as that release's row.
    return _table().get(Version(torch_version.base_version))


def platform_key(platform: str | None) -> str:
    """Map a check-style platform ("linux", "linux/aarch64", ...) onto the table's keys."""
    if not platform:
        return DEFAULT_PLATFORM
    return _PLATFORM_ALIASES.get(platform.lower(), _PLATFORM_ALIASES.get(platform, platform))


def known_release(torch_version: Version) -> bool:
    return _entry(torch_version) is not None


def default_cuda(torch_version: Version, platform: str | None = DEFAULT_PLATFORM) -> Version | None:
    """The CUDA version of the wheel that `pip install torch==V` gets from PyPI on `platform`.

    None when that wheel is a CPU build (Windows and macOS on PyPI, Linux aarch64 before 2.11) or
    the release is not in the table (then nothing is claimed).
    """
    entry = _entry(torch_version)
    if entry is None:
        return None
    value = entry["default"].get(platform_key(platform))
    return Version(value) if value else None


def cuda_variants(torch_version: Version) -> tuple[Version, ...] | None:
    """The CUDA versions PyTorch publishes builds of this release for (one index per CUDA
    version), oldest first; None when the table does not know (then only the PyPI default is
    known to exist)."""
    entry = _entry(torch_version)
    if entry is None or entry["variants"] is None:
        return None
    return tuple(sorted(Version(v) for v in entry["variants"]))


def releases() -> tuple[Version, ...]:
    """Every release in the table, oldest first."""
    return _table().releases()


def index_cuda(url: str) -> Version | Literal["cpu"] | None:
    """The build a PyTorch index URL serves: `.../whl/cu126` -> 12.6, `.../whl/cpu` -> "cpu".

    None for any other URL (PyPI, a private mirror, a ROCm index): it says nothing of CUDA.
    """
    match = _INDEX_SEGMENT.search(url.rstrip("/") + "/")
    if match is None:
        return None
    return "cpu" if match.group(1) == "cpu" else local_label_cuda(match.group(1))


_ROCM_SEGMENT = re.compile(r"/(?:whl/(?:nightly/|test/)?)?rocm(\d+\.\d+(?:\.\d+)?)(?:/|$)")


def index_rocm(url: str) -> Version | None:
    """The ROCm release a PyTorch ROCm index serves: `.../whl/rocm6.2.4` -> 6.2 (major.minor,
    as the `+rocm6.2.4` label is read); None for any other URL."""
    match = _ROCM_SEGMENT.search(url.rstrip("/") + "/")
    if match is None:
        return None
    parts = match.group(1).split(".")
    return Version(f"{parts[0]}.{parts[1]}")


def local_label_cuda(label: str) -> Version | None:
    """`cu126` -> 12.6, `cu130` -> 13.0, `cu92` -> 9.2; anything else -> None."""
    match = re.fullmatch(r"cu(\d+)", label)
    if match is None:
        return None
    digits = match.group(1)
    try:
        return Version(f"{digits[:-1]}.{digits[-1]}")
    except InvalidVersion:
        return None


def index_url(cuda: Version | None) -> str:
    """The PyTorch index that serves builds for `cuda` (None: the CPU builds)."""
    if cuda is None:
        return f"{PYTORCH_INDEX}/cpu"
    return f"{PYTORCH_INDEX}/{cuda_tag(cuda)}"


def cuda_tag(cuda: Version) -> str:
    """12.6 -> cu126: the local label and index name PyTorch uses."""
    major, minor = (*cuda.release, 0)[:2]
    return f"cu{major}{minor}"


def build_cuda(torch_version: Version, platform: str | None = DEFAULT_PLATFORM) -> Version | None:
    """The CUDA build a torch version denotes: its local label (`2.8.0+cu126` -> 12.6,
    `+cpu` -> None) when it has one, else the PyPI default for the platform."""
    if torch_version.local:
        return local_label_cuda(torch_version.local.split(".")[0])
    return default_cuda(torch_version, platform)


def published_cudas() -> tuple[Version, ...]:
    """Every CUDA version PyTorch published a torch 2.x build for (PyPI defaults and indexes)."""
    found: set[Version] = set()
    for version, entry in _table().items():
        if version < Version("2.0"):
            continue
        found |= {Version(c) for c in entry["variants"] or ()}
        found |= {Version(c) for c in entry["default"].values() if c}
    return tuple(sorted(found))
