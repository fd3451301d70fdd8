"""The stand-in NVML binding (tests/fake_nvml) for a `compat` subprocess: the only fake the
suite allows, at the binding boundary. The child imports the stand-in `pynvml` first, and it
replays the recorded machine named by COMPAT_FAKE_NVML (tests/fake_nvml/machines/<name>.json)."""

from __future__ import annotations

import os

from tests.lib.paths import FAKE_NVML


def fake_nvml_env(machine: str, **extra: str) -> dict[str, str]:
    """Variables for run_subprocess(env=...): the stand-in first on PYTHONPATH, `machine` replayed."""
    return {
        "PYTHONPATH": f"{FAKE_NVML}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        "COMPAT_FAKE_NVML": machine,
        # A recorded machine has no loader cache of this one: read none unless a test names one.
        "COMPAT_LD_SO_CACHE": "",
        **extra,
    }
