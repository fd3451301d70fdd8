"""check judges a declared xFormers ROCm wheel (`xformers==X+rocmA.B`) by the targets its release
CI built it for (compat/data/xformers-rocm-arch.json: HIP_ARCHITECTURES 'gfx90a gfx942' at every
tag from v0.0.28), not by torch's list; doctor reads the installed files instead; MI200/MI300
machines and NVIDIA machines get no finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_subprocess
from tests.dists import make_env
from tests.lib.paths import REPO

HARDWARE = REPO / "docs" / "examples" / "hardware"
RULE = "xformers-rocm-wheel-without-gpu-target"


def _check(tmp_path: Path, lines: str, profile: Path) -> dict[str, object]:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(lines, encoding="utf-8")
    result = run_subprocess(
        ["check", "--offline", "--hardware", str(profile), "--format", "json", str(requirements)]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report: dict[str, object] = result.json()
    return report


def _hits(report: dict[str, object]) -> list[dict[str, object]]:
    findings = report["findings"]
    assert isinstance(findings, list)
    return [f for f in findings if f["rule"] == RULE]


def _profile(tmp_path: Path, name: str, target: str, override: str | None = None) -> Path:
    data: dict[str, object] = {
        "schema": "compat.hardware/1",
        "gpus": [{"index": 0, "name": name, "vendor": "amd", "gfx_target": target}],
        "platform": "linux/x86_64",
    }
    if override:
        data["hsa_override_gfx_version"] = override
    path = tmp_path / f"{target}-{override}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_wheel_without_the_gpus_target_is_affected(tmp_path: Path) -> None:
    # torch 2.7.0+rocm6.3 carries gfx1100 (PYTORCH_ROCM_ARCH), xformers' own build does not
    report = _check(
        tmp_path,
        "torch==2.7.0+rocm6.3\nxformers==0.0.30+rocm6.3\n",
        HARDWARE / "amd-rx7900xtx.json",
    )
    (hit,) = _hits(report)
    assert hit["status"] == "affected"
    text = json.dumps(hit)
    assert "carries code for gfx90a gfx942 only" in text
    assert "wheels_build.yml HIP_ARCHITECTURES @ v0.0.30" in text
    assert "xformers 0.0.30+rocm6.3" in text


@pytest.mark.parametrize(
    ("pin", "profile", "hit"),
    [
        ("0.0.30+rocm6.3", "amd-mi300x-8.json", False),  # gfx942: served
        ("0.0.28+rocm6.1", "amd-mi250x-8.json", False),  # gfx90a: served
        ("0.0.35+rocm7.1", "amd-mi300x-8.json", False),
        ("0.0.33.post1+rocm6.4", "amd-strix-halo.json", True),  # gfx1151
        ("0.0.29.post2+rocm6.2.4", "amd-rx7900xtx.json", True),  # gfx1100
        ("0.0.30", "amd-rx7900xtx.json", False),  # PyPI's build: not a ROCm build
    ],
)
def test_builds_by_release_and_gpu(tmp_path: Path, pin: str, profile: str, hit: bool) -> None:
    report = _check(tmp_path, f"xformers=={pin}\n", HARDWARE / profile)
    assert [h["status"] for h in _hits(report)] == (["affected"] if hit else [])


def test_the_override_is_honoured_and_names_a_target_it_lacks(tmp_path: Path) -> None:
    # HSA_OVERRIDE_GFX_VERSION=9.4.2 makes the runtime load gfx942 code: the wheel has it
    served = _check(
        tmp_path, "xformers==0.0.30+rocm6.3\n", _profile(tmp_path, "MI300A", "gfx940", "9.4.2")
    )
    assert _hits(served) == []
    # 11.0.0 on an RX 7800 XT asks for gfx1100: the wheel has no such code either
    wrong = _check(
        tmp_path,
        "xformers==0.0.30+rocm6.3\n",
        _profile(tmp_path, "RX 7800 XT", "gfx1101", "11.0.0"),
    )
    assert [h["status"] for h in _hits(wrong)] == ["affected"]
    assert "(gfx1100)" in json.dumps(_hits(wrong)[0])


@pytest.mark.parametrize(
    ("pin", "said"),
    [
        ("0.0.27+rocm6.1", "built no ROCm wheels before 0.0.28"),
        ("0.0.30+rocm6.4", "built 0.0.30 as +rocm6.2.4, +rocm6.3 only"),
        ("0.0.99+rocm7.1", "has xformers 0.0.28-0.0.35 only"),
        ("0.0.31.dev1000+rocm6.3", "a development build"),
    ],
)
def test_a_build_the_table_does_not_describe_is_asked_not_cleared(
    tmp_path: Path, pin: str, said: str
) -> None:
    report = _check(tmp_path, f"xformers=={pin}\n", HARDWARE / "amd-mi300x-8.json")
    hits = _hits(report)
    assert [h["status"] for h in hits] == ["possible"]
    unknown = json.dumps(hits[0]["unknown"])
    assert "build.hip_targets" in unknown and said in unknown


def test_an_nvidia_machine_is_not_asked(tmp_path: Path) -> None:
    profile = tmp_path / "h100.json"
    profile.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": "570.133.20",
                "cuda_driver_version": "12.8",
                "gpus": [
                    {"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}
                ],
                "platform": "linux/x86_64",
            }
        ),
        encoding="utf-8",
    )
    assert _hits(_check(tmp_path, "xformers==0.0.30+rocm6.3\n", profile)) == []


def test_doctor_reads_files_not_the_table(tmp_path: Path) -> None:
    # an installed xformers +rocm wheel: its own files are what doctor reads, never the table
    site = make_env(tmp_path / "site", {"torch": "2.7.0+rocm6.3", "xformers": "0.0.30+rocm6.3"})
    result = run_subprocess(
        [
            "doctor",
            "--path",
            str(site),
            "--hardware",
            str(HARDWARE / "amd-rx7900xtx.json"),
            "--format",
            "json",
        ]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert _hits(result.json()) == []
