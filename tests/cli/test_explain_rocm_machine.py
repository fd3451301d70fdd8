"""explain on a machine it knows: a probed or profiled AMD GPU settles the GPU's target, never
what the failing library carries. Before, a `--hardware` profile (or the probe on a real AMD
machine, explain's default) turned `HIP error: invalid device function` into OUTSIDE-RANGE and
"no known cause found", as if an environment's files had been read; without the profile the
same log asked for the library's targets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_subprocess
from tests.lib.paths import DATA, REPO
from tests.profiles import R580

LOGS = DATA / "logs"
PROFILES = REPO / "docs" / "examples" / "hardware"


def _hip_rule(*args: str) -> dict[str, Any]:
    result = run_subprocess(["explain", "--format", "json", "--no-probe", *args])
    assert result.exit_code in (0, 1), result.stderr
    return next(m for m in result.json()["matches"] if m["rule"] == "hip-no-code-object-for-gpu")


@pytest.mark.parametrize("profile", ["amd-rx7900xtx.json", "amd-strix-halo.json"])
def test_a_profiled_amd_gpu_still_asks_what_the_library_carries(profile: str) -> None:
    log = str(LOGS / "composed-rocm-bitsandbytes-ops-hip.log")
    alone = _hip_rule(log)
    profiled = _hip_rule("--hardware", str(PROFILES / profile), log)
    assert alone["verdict"] == "symptom-only"
    assert profiled["verdict"] == "symptom-only", profiled
    assert [u.split(" — ")[0] for u in profiled["unknown"]] == ["build.hip_targets"]


def test_an_nvidia_machine_is_still_outside_the_rule(tmp_path: Path) -> None:
    log = str(LOGS / "composed-rocm-bitsandbytes-ops-hip.log")
    nvidia = tmp_path / "h100.json"
    nvidia.write_text(json.dumps(R580))
    assert _hip_rule("--hardware", str(nvidia), log)["verdict"] == "outside-range"
