"""The stand-in NVML binding (tests/fake_nvml): the only fake the suite allows, at the binding
boundary. It replays the recorded machine named by COMPAT_FAKE_NVML
(tests/fake_nvml/machines/<name>.json), for a `compat` subprocess (the stand-in first on its
PYTHONPATH: fake_nvml_env) or for the CLI in-process through typer's runner (the stand-in
imported as `pynvml`: run_cli_on_machine)."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from tests.lib.paths import FAKE_NVML

if TYPE_CHECKING:
    from tests.conftest import Result


def fake_nvml_env(machine: str, **extra: str) -> dict[str, str]:
    """Variables for run_subprocess(env=...): the stand-in first on PYTHONPATH, `machine` replayed."""
    return {
        "PYTHONPATH": f"{FAKE_NVML}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        **machine_env(machine, **extra),
    }


def machine_env(machine: str, **extra: str) -> dict[str, str]:
    """The variables naming the replayed machine (and the test's own, `extra`)."""
    return {
        "COMPAT_FAKE_NVML": machine,
        # A recorded machine has no loader cache of this one: read none unless a test names one.
        "COMPAT_LD_SO_CACHE": "",
        **extra,
    }


def stand_in(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The stand-in binding imported as `pynvml` in this process (restored after the test), as
    the first entry of PYTHONPATH makes it in a subprocess."""
    spec = importlib.util.spec_from_file_location("pynvml", FAKE_NVML / "pynvml.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "pynvml", module)
    return module


def run_cli_on_machine(
    monkeypatch: pytest.MonkeyPatch, args: Sequence[str], machine: str, **extra: str
) -> Result:
    """`compat ARGS` through typer's runner on the recorded `machine`, with `extra` in its
    environment: what run_subprocess(args, env=fake_nvml_env(machine, **extra)) answers, without
    starting a Python process (~1 s of CPU each)."""
    from tests.conftest import run_cli

    stand_in(monkeypatch)
    return run_cli(args, env=machine_env(machine, **extra))
