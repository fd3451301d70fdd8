"""conda's `__cuda` and `__cuda_arch` virtual packages, computed as CEP 30 and CEP 46 say (the
driver's CUDA; the lowest compute capability of the GPUs; `CONDA_OVERRIDE_CUDA` and
`CONDA_OVERRIDE_CUDA_ARCH`), through `compat probe` on the stand-in NVML binding, and the
override a CPU-only runner needs before pixi installs an environment that requires `__cuda`
(`compat check` on a real pixi.toml)."""

from __future__ import annotations

import os
from typing import Any

from tests.conftest import run_subprocess
from tests.lib import paths
from tests.lib.nvml import fake_nvml_env

PIXI_TOML = paths.DATA / "pixi" / "pytorch-gpu-pixi-example-pixi.toml"
UNSET = ("CONDA_OVERRIDE_CUDA", "CONDA_OVERRIDE_CUDA_ARCH")


def probe(machine: str, **overrides: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(fake_nvml_env(machine, **overrides))
    result = run_subprocess(["probe", "--format", "json"], env=env)
    assert result.exit_code == 0, result.stderr
    section: dict[str, Any] = result.json()["conda_virtual_packages"]
    return section


def test_cuda_arch_is_the_lowest_compute_capability_present() -> None:
    # an H100 (sm_90) beside a T4 (sm_75) on a CUDA 12.x driver: conda installs for the T4
    section = probe("mixed-h100-t4")
    assert section["packages"]["__cuda_arch"] == "7.5"
    assert section["packages"]["__cuda"] is not None
    assert section["overrides"] == {}
    assert probe("h100")["packages"] == {"__cuda": "13.0", "__cuda_arch": "9.0"}


def test_overrides_win_and_the_empty_string_removes() -> None:
    section = probe("h100", CONDA_OVERRIDE_CUDA="12.4", CONDA_OVERRIDE_CUDA_ARCH="8.0")
    assert section["packages"] == {"__cuda": "12.4", "__cuda_arch": "8.0"}
    assert section["overrides"] == {
        "CONDA_OVERRIDE_CUDA": "12.4",
        "CONDA_OVERRIDE_CUDA_ARCH": "8.0",
    }
    # no __cuda: no __cuda_arch either, whatever the arch override says (CEP 46)
    section = probe("h100", CONDA_OVERRIDE_CUDA="", CONDA_OVERRIDE_CUDA_ARCH="8.0")
    assert section["packages"] == {"__cuda": None, "__cuda_arch": None}
    section = probe("h100", CONDA_OVERRIDE_CUDA_ARCH="")
    assert section["packages"] == {"__cuda": "13.0", "__cuda_arch": None}


def test_a_driver_without_devices_has_cuda_but_no_cuda_arch() -> None:
    section = probe("zero-devices")
    assert section["packages"]["__cuda_arch"] is None
    # a CPU-only runner (no driver) has neither; setting the override gives __cuda only
    assert probe("library-not-found")["packages"] == {"__cuda": None, "__cuda_arch": None}
    section = probe("library-not-found", CONDA_OVERRIDE_CUDA="12.0")
    assert section["packages"] == {"__cuda": "12.0", "__cuda_arch": None}


def _check_notes(**env: str) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if k not in UNSET}
    result = run_subprocess(
        ["check", str(PIXI_TOML), "--offline", "--platform", "linux", "--format", "json"],
        env={**clean, **env},
    )
    assert result.exit_code in (0, 1), result.stderr
    notes: list[str] = result.json()["notes"]
    return notes


def test_a_pixi_cuda_requirement_says_which_override_a_cpu_runner_needs() -> None:
    hint = [n for n in _check_notes() if "CONDA_OVERRIDE_CUDA=" in n]
    assert len(hint) == 1 and "CONDA_OVERRIDE_CUDA=12.0" in hint[0]
    assert "[system-requirements] cuda = '12.0'" in hint[0]
    assert not [n for n in _check_notes(CONDA_OVERRIDE_CUDA="12.4") if "CONDA_OVERRIDE" in n]
    low = [n for n in _check_notes(CONDA_OVERRIDE_CUDA="11.8") if "CONDA_OVERRIDE" in n]
    assert len(low) == 1 and "below the 12.0" in low[0]
