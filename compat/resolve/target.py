"""The target a check or pin judges for: a Python version and a platform that need not be this
machine's, as a complete PEP 508 marker environment."""

from __future__ import annotations

import platform as _platform
from collections.abc import Mapping
from dataclasses import dataclass

from packaging.markers import default_environment
from packaging.version import Version

from compat.errors import UsageError

PLATFORMS: Mapping[str, dict[str, str]] = {
    "linux": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
    "darwin": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"},
    "win32": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
}


@dataclass(frozen=True)
class TargetOptions:
    python_version: str | None = None  # "3.11" or "3.11.7"
    platform: str | None = None  # linux | darwin | win32, optionally with a machine: linux/aarch64
    pixi_environment: str | None = None  # the pixi environment judged (default: `default`)


def target_markers(options: TargetOptions) -> tuple[dict[str, str], Version]:
    """A complete PEP 508 environment for the target (defaults: this interpreter)."""
    env = {key: str(value) for key, value in default_environment().items()}
    if options.python_version is not None:
        try:
            version = Version(options.python_version)
        except ValueError:
            raise UsageError(
                f"--python-version {options.python_version!r}: expected X.Y or X.Y.Z"
            ) from None
        release = (*version.release, 0, 0)[:3]
        env["python_version"] = f"{release[0]}.{release[1]}"
        env["python_full_version"] = ".".join(str(part) for part in release)
        env["implementation_version"] = env["python_full_version"]
    if options.platform is not None:
        system, _, machine = options.platform.partition("/")
        if system not in PLATFORMS:
            raise UsageError(
                f"--platform {options.platform!r}: expected one of {', '.join(PLATFORMS)}"
            )
        env.update(PLATFORMS[system])
        env["platform_machine"] = machine or ("AMD64" if system == "win32" else "x86_64")
        if system != _platform.system().lower():
            env["platform_release"] = ""
            env["platform_version"] = ""
    return env, Version(env["python_full_version"])
