"""torch's ROCm build, as the installed files state it (never by importing torch):

- the local label: `2.6.0+rocm6.2.4`, `2.9.1+rocm7.10.0`, `2.10.0a0+rocm7.10.0a20251024`,
  `+devrocm7.10.0.dev0-<sha>` (TheRock's docs/packaging/versioning.md);
- `torch/version.py`'s `hip = '6.2.41133-dd7f95766'` (what `torch.version.hip` prints);
- TheRock's per-GPU device distributions: `amd-torch-device-gfx942` (torch's kernels),
  `rocm-sdk-device-gfx942` (the libraries' kernels), beside `rocm-sdk-core` /
  `rocm-sdk-libraries` (the user space the wheel brings).

A ROCm version is read as its numbers (`Version("10.0")` > `Version("7.14")`): never by PEP 440
ordering of the whole torch version, under which `2.12.0+rocm10.0` sorts below `2.12.0+rocm7.0`
(the local segment `rocm10` compares as text; TheRock#7183)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from packaging.version import InvalidVersion, Version

from compat.lazyre import Lazy

_LOCAL_ROCM = Lazy(r"^(?:dev)?rocm(\d+(?:\.\d+){0,2})")
_VERSION_PY_HIP = Lazy(r"""^hip\s*(?::\s*[^=]+)?=\s*['"]([0-9][0-9.]*)""", re.MULTILINE)
DEVICE_PREFIXES = ("amd-torch-device-", "rocm-sdk-device-")
_DEVICE = re.compile(r"(amd-torch-device|rocm-sdk-device)-(gfx[0-9a-z-]+)")


def rocm_from_local_label(version: Version) -> Version | None:
    """`+rocm6.2.4` -> 6.2 (major.minor, as torch's `ROCM used to build` line gives it);
    `+rocm10.1.0a20260811.bkc...` -> 10.1; None for `+cu124`, `+cpu`, no label."""
    match = _LOCAL_ROCM.match(version.local or "")
    if not match:
        return None
    parts = [int(p) for p in match.group(1).split(".")]
    return Version(f"{parts[0]}.{parts[1] if len(parts) > 1 else 0}")


def rocm_from_version_py(dist_info: str) -> Version | None:
    """`hip = '6.2.41133-dd7f95766'` in torch/version.py next to the dist-info -> 6.2."""
    path = Path(dist_info).parent / "torch" / "version.py"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:65536]
    except OSError:
        return None
    match = _VERSION_PY_HIP.search(text)
    if match is None:
        return None
    try:
        release = Version(match.group(1).rstrip(".")).release
    except InvalidVersion:
        return None
    return Version(f"{release[0]}.{release[1] if len(release) > 1 else 0}")


def device_targets(versions: Mapping[str, Version]) -> dict[str, dict[str, Version]]:
    """{"amd-torch-device": {"gfx942": 2.11.0+rocm7.14.0}, "rocm-sdk-device": {...}} of the
    installed per-GPU distributions."""
    found: dict[str, dict[str, Version]] = {}
    for name, version in versions.items():
        match = _DEVICE.fullmatch(name)
        if match:
            found.setdefault(match.group(1), {})[match.group(2)] = version
    return found


def rocm_builds(
    versions: Mapping[str, Version], torch_location: str | None = None
) -> dict[str, Version]:
    """`torch_rocm` (the ROCm release torch was built against, major.minor) and `rocm_sdk`
    (rocm-sdk-core's release: the ROCm user space the wheels bring) where they are known."""
    builds: dict[str, Version] = {}
    torch = versions.get("torch")
    if torch is not None:
        rocm = rocm_from_local_label(torch)
        if rocm is None and torch.local is None and torch_location is not None:
            rocm = rocm_from_version_py(torch_location)
        if rocm is not None:
            builds["torch_rocm"] = rocm
    for name in ("rocm-sdk-core", "rocm-sdk-libraries", "rocm"):
        sdk = versions.get(name)
        if sdk is not None and sdk.release and sdk.release[0] > 0:
            builds["rocm_sdk"] = Version(".".join(str(p) for p in sdk.release[:2]))
            break
    return builds
