"""check judges a declared TheRock multi-arch torch by the device packages declared with it:
the host wheel carries no kernels, `torch[device-gfx1100]` / `amd-torch-device-gfx1100` carry
gfx1100's (ROCm/TheRock RELEASES.md; TheRock#7839)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_subprocess

RULE = "hip-no-code-object-for-gpu"


def _hits(
    tmp_path: Path, lines: str, target: str, override: str | None = None
) -> list[dict[str, object]]:
    profile: dict[str, object] = {
        "schema": "compat.hardware/1",
        "gpus": [{"index": 0, "name": "AMD GPU", "vendor": "amd", "gfx_target": target}],
        "platform": "linux/x86_64",
    }
    if override:
        profile["hsa_override_gfx_version"] = override
    hardware = tmp_path / "amd.json"
    hardware.write_text(json.dumps(profile), encoding="utf-8")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(lines, encoding="utf-8")
    result = run_subprocess(
        ["check", "--offline", "--hardware", str(hardware), "--format", "json", str(requirements)]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return [f for f in result.json()["findings"] if f["rule"] == RULE]


def test_a_device_extra_for_another_gpu_is_affected(tmp_path: Path) -> None:
    (hit,) = _hits(tmp_path, "torch[device-gfx1100]==2.13.0+rocm10.0.0\n", "gfx1151")
    assert hit["status"] == "affected"
    text = json.dumps(hit)
    assert "device packages of gfx1100" in text
    assert "amd-torch-device-<target>" in text


def test_a_locked_device_package_of_torchs_version_counts(tmp_path: Path) -> None:
    # a lock or pip freeze lists the device distribution itself
    lock = "torch==2.11.0+rocm7.14.0\namd-torch-device-gfx942==2.11.0+rocm7.14.0\n"
    assert [h["status"] for h in _hits(tmp_path, lock, "gfx950")] == ["affected"]
    assert _hits(tmp_path, lock, "gfx942") == []


@pytest.mark.parametrize(
    ("lines", "target", "override"),
    [
        ("torch[device-gfx1151]==2.13.0+rocm10.0.0\n", "gfx1151", None),
        ("torch[device-gfx942,device-gfx950]==2.13.0+rocm10.0.0\n", "gfx950", None),
        # the override loads gfx1100 code, which the gfx1100 package carries
        ("torch[device-gfx1100]==2.13.0+rocm10.0.0\n", "gfx1151", "11.0.0"),
    ],
)
def test_served_is_no_finding(
    tmp_path: Path, lines: str, target: str, override: str | None
) -> None:
    assert _hits(tmp_path, lines, target, override) == []


@pytest.mark.parametrize(
    ("lines", "target"),
    [
        ("torch[device-all]==2.13.0+rocm10.0.0\n", "gfx1151"),
        # a device package of another version is another build's (doctor's version finding);
        # it says nothing of this torch's kernels here
        ("torch==2.11.0+rocm7.14.0\namd-torch-device-gfx942==2.10.0+rocm7.13.0\n", "gfx950"),
        # no device package declared: whether the build is multi-arch is not known
        ("torch==2.13.0+rocm10.0.0\n", "gfx1151"),
    ],
)
def test_not_known_is_asked_never_cleared(tmp_path: Path, lines: str, target: str) -> None:
    # compat's table has no row for these releases: what the build carries is a question
    hits = _hits(tmp_path, lines, target, None)
    assert [h["status"] for h in hits] == ["possible"]
    assert "build.hip_targets" in str(hits[0]["unknown"])
