"""check and pin judge a declared flash-attn built from PyPI's sdist under a ROCm torch by its
release's setup.py allowed_archs (compat/data/flash-attn-rocm-arch.json): affected where only
the composable_kernel backend exists (2.6.2-2.7.0.post2) and the GPU's target is not listed;
possible, naming FLASH_ATTENTION_TRITON_AMD_ENABLE, from 2.7.1; nothing on a listed GPU (gfx90a,
gfx942, gfx950 from 2.8.0), under a CUDA torch or on an NVIDIA GPU; an installed flash-attn is
left to its files (doctor)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_subprocess
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.doctor import doctor_report
from tests.lib.elfbuild import Symbol, build
from tests.lib.hardware import amd_profile, check_report, rule_hits
from tests.lib.hipbuild import aligned, bundle
from tests.lib.nativeenv import native_dist
from tests.lib.paths import REPO
from tests.profiles import R580

HARDWARE = REPO / "docs" / "examples" / "hardware"
RULE = "flash-attn-rocm-ck-build-lacks-gpu-target"
_profile = amd_profile


def _findings(tmp_path: Path, lines: str, profile: Path) -> list[dict[str, object]]:
    return rule_hits(check_report(tmp_path, lines, profile), RULE)


ROCM = "--index-url https://download.pytorch.org/whl/rocm{}\n"


def test_a_ck_only_release_on_an_unlisted_gpu_is_affected(tmp_path: Path) -> None:
    hits = _findings(
        tmp_path, "torch==2.4.1+rocm6.1\nflash-attn==2.6.3\n", HARDWARE / "amd-rx7900xtx.json"
    )
    assert [h["status"] for h in hits] == ["affected"]
    said = json.dumps(hits[0])
    assert "gfx1100" in said and "gfx90a gfx940 gfx941 gfx942" in said and "v2.6.3" in said


@pytest.mark.parametrize(
    ("lines", "profile", "status"),
    [
        # the ROCm index decides torch's build; 2.7.0.post2 has no Triton switch yet
        (
            ROCM.format("6.2") + "torch==2.5.1\nflash-attn==2.7.0.post2\n",
            "amd-strix-halo.json",
            "affected",
        ),
        (ROCM.format("6.1") + "torch==2.4.1\nflash-attn==2.6.2\n", "amd-mi250x-8.json", None),
        (ROCM.format("6.3") + "torch==2.7.1\nflash-attn==2.8.3\n", "amd-mi300x-8.json", None),
        # PyPI's latest (an sdist with no tag): Triton may be chosen at build time
        (
            ROCM.format("6.3") + "torch==2.7.1\nflash-attn==2.8.3.post2\n",
            "amd-rx7900xtx.json",
            "possible",
        ),
        # a CUDA torch (PyPI's): not a ROCm build's question
        ("torch==2.4.1\nflash-attn==2.6.3\n", "amd-rx7900xtx.json", None),
        # before the ROCm path: another rule's (its CUDA build asks for nvcc)
        ("torch==2.4.1+rocm6.1\nflash-attn==2.5.8\n", "amd-rx7900xtx.json", None),
    ],
)
def test_releases_gpus_and_builds(
    tmp_path: Path, lines: str, profile: str, status: str | None
) -> None:
    hits = _findings(tmp_path, lines, HARDWARE / profile)
    assert [h["status"] for h in hits] == ([status] if status else [])


def test_the_triton_switch_is_the_question_named(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.6.0+rocm6.2.4\nflash-attn==2.7.4.post1\n")
    result = run_cli(
        [
            "check",
            "--offline",
            "--hardware",
            str(HARDWARE / "amd-rx7900xtx.json"),
            "--format",
            "json",
            str(requirements),
        ]
    )
    report = result.json()
    hits = [f for f in report["findings"] if f["rule"] == RULE]
    assert [h["status"] for h in hits] == ["possible"]
    assert "FLASH_ATTENTION_TRITON_AMD_ENABLE" in json.dumps(report)


def test_gfx950_is_listed_from_2_8_0(tmp_path: Path) -> None:
    # before 2.8.0 gfx950 is unlisted but has MFMA: whether the CK kernels build is asked
    mi355x = _profile(tmp_path, "AMD Instinct MI355X", "gfx950")
    rocm = ROCM.format("6.4") + "torch==2.7.1\n"
    (hit,) = _findings(tmp_path, rocm + "flash-attn==2.7.0\n", mi355x)
    assert hit["status"] == "possible"
    assert _findings(tmp_path, rocm + "flash-attn==2.8.0\n", mi355x) == []


@pytest.mark.parametrize(
    ("target", "release", "status"),
    [
        ("gfx906:sramecc+:xnack-", "2.6.2", "affected"),  # MI50: no MFMA
        ("gfx1030", "2.7.0", "affected"),  # RX 6800: RDNA2, no MFMA
        ("gfx1201", "2.6.3", "affected"),  # RX 9070: RDNA4
        ("gfx908:sramecc+:xnack-", "2.6.3", "possible"),  # MI100: unlisted, with MFMA
        ("gfx941", "2.8.1", "possible"),  # unlisted from 2.8.0; the Triton switch as well
        ("gfx941", "2.7.0", None),  # listed to 2.7.4.post1
    ],
)
def test_a_target_without_mfma_is_affected_one_with_it_asked(
    tmp_path: Path, target: str, release: str, status: str | None
) -> None:
    profile = _profile(tmp_path, "AMD GPU", target)
    hits = _findings(tmp_path, f"torch==2.4.1+rocm6.1\nflash-attn=={release}\n", profile)
    assert [h["status"] for h in hits] == ([status] if status else [])


def test_one_gpu_without_mfma_makes_the_machine_affected(tmp_path: Path) -> None:
    profile = tmp_path / "two.json"
    gpus = [
        {"index": 0, "name": "AMD Instinct MI100", "vendor": "amd", "gfx_target": "gfx908"},
        {"index": 1, "name": "AMD Radeon RX 7900 XTX", "vendor": "amd", "gfx_target": "gfx1100"},
    ]
    profile.write_text(json.dumps({"schema": "compat.hardware/1", "gpus": gpus}))
    hits = _findings(tmp_path, "torch==2.4.1+rocm6.1\nflash-attn==2.6.3\n", profile)
    assert [h["status"] for h in hits] == ["affected"]


def test_the_override_is_the_target_setup_py_detects(tmp_path: Path) -> None:
    # torch reports the override's target as the device's: native builds for gfx1100
    rx7800 = _profile(tmp_path, "AMD Radeon RX 7800 XT", "gfx1101", override="11.0.0")
    hits = _findings(tmp_path, "torch==2.4.1+rocm6.1\nflash-attn==2.6.3\n", rx7800)
    assert [h["status"] for h in hits] == ["affected"]
    assert "gfx1100" in json.dumps(hits[0])
    # an override to a listed target (gfx90a): native builds for it, as listed
    mi100 = _profile(tmp_path, "AMD Instinct MI100", "gfx908", override="9.0.10")
    assert _findings(tmp_path, "torch==2.4.1+rocm6.1\nflash-attn==2.6.3\n", mi100) == []


def test_an_nvidia_machine_is_not_asked(tmp_path: Path) -> None:
    profile = tmp_path / "h100.json"
    profile.write_text(json.dumps(R580), encoding="utf-8")
    assert _findings(tmp_path, "torch==2.4.1+rocm6.1\nflash-attn==2.6.3\n", profile) == []


def test_pin_keeps_the_pin_and_says_no_release_escapes(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(ROCM.format("6.1") + "torch==2.4.1\nflash-attn==2.6.3\n")
    for profile, hit in (("amd-rx7900xtx.json", True), ("amd-mi250x-8.json", False)):
        result = run_cli(
            ["pin", "--offline", "--hardware", str(HARDWARE / profile), "-r", str(requirements)]
        )
        assert "Traceback" not in result.stderr
        assert "flash-attn==2.6.3" in result.stdout
        assert (f"# UNRESOLVED {RULE} (affected)" in result.stdout) is hit, result.stdout


def test_doctor_leaves_an_installed_flash_attn_to_its_files(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"torch": "2.4.1+rocm6.1", "flash-attn": "2.6.3"})
    result = run_cli(
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
    assert [f for f in result.json()["findings"] if f["rule"] == RULE] == []


@pytest.mark.usefixtures("resolver_env")
def test_doctor_install_judges_the_flash_attn_it_would_add(tmp_path: Path) -> None:
    # a real venv holding torch's ROCm build; the real pip's dry run against an index on
    # 127.0.0.1 adds flash-attn 2.6.3: on an RX 7900 XTX that introduces the finding, on an
    # MI250X nothing (one pip run each: the only subprocess tests here)
    root = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = next((root / "lib").glob("python3*/site-packages"))
    make_dist(site, "torch", "2.4.1+rocm6.1")
    index = {"flash-attn": [Dist("flash-attn", "2.6.3", requires=["torch"])]}
    for profile, new in (("amd-rx7900xtx.json", True), ("amd-mi250x-8.json", False)):
        with IndexServer(index) as server:
            result = run_subprocess(
                ["doctor", "--python", str(root / "bin" / "python"), "--hardware",
                 str(HARDWARE / profile), "--resolver", "pip", "--install", "flash-attn==2.6.3",
                 "--format", "json"],
                env={"PIP_INDEX_URL": server.url},
            )  # fmt: skip
        assert "Traceback" not in result.stderr, result.stderr
        document = result.json()
        assert (RULE in document["install"]["new"]) is new, document["install"]


@pytest.mark.parametrize(
    ("profile", "hit"), [("amd-rx7900xtx.json", True), ("amd-mi300x-8.json", False)]
)
def test_an_installed_build_is_reported_once_by_its_file(
    tmp_path: Path, profile: str, hit: bool
) -> None:
    # a flash-attn 2.6.3 built with GPU_ARCHS=gfx90a;gfx942: doctor reads the code objects of
    # flash_attn_2_cuda itself (binary-no-kernel-image); the table's rule adds no second finding
    site = make_env(tmp_path / "site", {"torch": "2.4.1+rocm6.1"})
    library = build(
        needed=("libamdhip64.so.6",),
        symbols=(Symbol("__hipRegisterFatBinary", defined=False),),
        sections={".hip_fatbin": aligned(bundle(["gfx90a", "gfx942"]))},
    ).data
    so = "flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so"
    native_dist(site, "flash-attn", "2.6.3", {so: library})
    _, report = doctor_report(site, hardware=HARDWARE / profile)
    binary = [f for f in report["findings"] if f["rule"] == "binary-no-kernel-image:flash-attn"]
    assert [f["status"] for f in binary] == (["affected"] if hit else [])
    assert [f for f in report["findings"] if f["rule"] == RULE] == []
