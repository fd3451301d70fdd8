"""check judges a pinned torch `+rocmX.Y` build by the GPU targets its release branch built
(compat/data/torch-rocm-arch.json, PYTORCH_ROCM_ARCH from pytorch/builder) where no files can be
read; doctor reads the installed files instead; NVIDIA machines are never asked about it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_subprocess
from tests.dists import make_env
from tests.lib.hardware import amd_profile, check_report, rule_hits
from tests.lib.paths import REPO

HARDWARE = REPO / "docs" / "examples" / "hardware"
RULE = "hip-no-code-object-for-gpu"
_profile = amd_profile


def _check(tmp_path: Path, pin: str, profile: Path) -> dict[str, object]:
    return check_report(tmp_path, f"torch=={pin}\n", profile, process=True)


def _hits(report: dict[str, object]) -> list[dict[str, object]]:
    return rule_hits(report, RULE)


def test_a_build_without_the_gpus_target_is_affected(tmp_path: Path) -> None:
    # torch 2.0's ROCm builds: gfx900;gfx906;gfx908;gfx90a;gfx1030 (release/2.0), no gfx1100
    report = _check(tmp_path, "2.0.1+rocm5.4.2", HARDWARE / "amd-rx7900xtx.json")
    (hit,) = _hits(report)
    assert hit["status"] == "affected"
    text = json.dumps(hit)
    assert "carries code for gfx900 gfx906 gfx908 gfx90a gfx1030" in text
    assert "release/2.0" in text
    assert "2.1 +rocm5.5" in text  # the first build in the table with gfx1100


@pytest.mark.parametrize(
    ("pin", "profile", "hit"),
    [
        ("2.3.0+rocm5.7", "amd-mi300x-8.json", True),  # gfx942 came with the ROCm 6.0 build
        ("2.3.0+rocm6.0", "amd-mi300x-8.json", False),
        ("2.1.2+rocm5.6", "amd-rx7900xtx.json", False),
        ("2.4.1+rocm6.1", "amd-mi250x-8.json", False),
        ("1.13.1+rocm5.2", "amd-mi250x-8.json", False),
        ("2.4.1+rocm6.1", "amd-strix-halo.json", True),  # gfx1151: never in these lists
    ],
)
def test_builds_by_release_and_rocm(tmp_path: Path, pin: str, profile: str, hit: bool) -> None:
    report = _check(tmp_path, pin, HARDWARE / profile)
    assert bool(_hits(report)) is hit


def test_the_override_is_honoured(tmp_path: Path) -> None:
    # RX 7800 XT (gfx1101): torch 2.3's build has gfx1100 only; 11.0.0 loads that code
    plain = _check(tmp_path, "2.3.0+rocm6.0", _profile(tmp_path, "RX 7800 XT", "gfx1101"))
    assert [h["status"] for h in _hits(plain)] == ["affected"]
    served = _check(
        tmp_path, "2.3.0+rocm6.0", _profile(tmp_path, "RX 7800 XT", "gfx1101", "11.0.0")
    )
    assert _hits(served) == []
    # an override to a target the build lacks still fails
    wrong = _check(
        tmp_path, "2.0.1+rocm5.4.2", _profile(tmp_path, "RX 7800 XT", "gfx1101", "11.0.0")
    )
    assert [h["status"] for h in _hits(wrong)] == ["affected"]


def test_a_release_the_table_does_not_have_is_asked_not_cleared(tmp_path: Path) -> None:
    # compat's table has no row for 2.6: whether the build carries gfx1151 is a question
    # (possible, naming the missing row), never "no known-bad combination"
    report = _check(tmp_path, "2.6.0+rocm6.2.4", HARDWARE / "amd-strix-halo.json")
    hits = _hits(report)
    assert [h["status"] for h in hits] == ["possible"]
    unknown = json.dumps(hits[0]["unknown"])
    assert "build.hip_targets" in unknown
    assert "torch 2.6.0+rocm6.2.4" in unknown and "has torch 1.11-2.4 only" in unknown


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
    report = _check(tmp_path, "2.0.1+rocm5.4.2", profile)
    assert _hits(report) == []
    assert report["hardware"]["gpus"][0]["name"] == "NVIDIA H100 80GB HBM3"  # type: ignore[index]


def test_doctor_reads_files_not_the_table(tmp_path: Path) -> None:
    # an installed torch 2.0.1+rocm5.4.2 with no HIP library in it: the files say nothing of
    # gfx1100, and the table is not consulted for an installed build
    site = make_env(tmp_path / "site", {"torch": "2.0.1+rocm5.4.2"})
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


def test_another_spelling_of_the_rocm_version_is_another_build(tmp_path: Path) -> None:
    # PyTorch labels its builds with the matrix's string (+rocm6.0); AMD's own wheels
    # (repo.radeon.com: +rocm6.1.3, +rocm6.3.4.git...) carry their own target lists: a label
    # that is not the table's string is not judged by it
    profile = _profile(tmp_path, "RX 7800 XT", "gfx1101")
    assert [h["status"] for h in _hits(_check(tmp_path, "2.3.0+rocm6.0", profile))] == ["affected"]
    # ...and what it carries is asked, naming the builds the table has
    for pin in ("2.3.0+rocm6.0.2", "2.4.0+rocm6.1.git7cecbf6d"):
        hits = _hits(_check(tmp_path, pin, profile))
        assert [h["status"] for h in hits] == ["possible"]
        assert "another label is another build" in json.dumps(hits[0]["unknown"])


@pytest.mark.parametrize(
    "pin",
    [
        "2.2.0.dev20231010+rocm5.7",  # a 2.2 nightly: main's list at its date, not release/2.2's
        "2.3.0.dev20240115+rocm6.0",
        "2.4.0rc1+rocm6.1",
    ],
)
def test_a_nightly_is_not_judged_by_its_release_row(tmp_path: Path, pin: str) -> None:
    # the rows are read from release branches; a nightly carries main's PYTORCH_ROCM_ARCH of
    # its day (pytorch#164346: a 2.10 nightly without gfx1151), so neither verdict is known
    profile = _profile(tmp_path, "RX 7800 XT", "gfx1101")
    hits = _hits(_check(tmp_path, pin, profile))
    assert [h["status"] for h in hits] == ["possible"]  # asked, never cleared
    assert "a nightly, built from main" in json.dumps(hits[0]["unknown"])
    release = pin.split(".dev")[0].split("rc")[0] + "+" + pin.split("+")[1]
    assert [h["status"] for h in _hits(_check(tmp_path, release, profile))] == ["affected"]
