"""check judges a declared xFormers ROCm wheel (xformers from a PyTorch ROCm index alone: its
wheels carry no label) by the targets its release CI built it for (compat/data/xformers-rocm-arch.json: HIP_ARCHITECTURES 'gfx90a gfx942' at every
tag from v0.0.28), not by torch's list; doctor reads the installed files instead; MI200/MI300
machines and NVIDIA machines get no finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_subprocess
from tests.dists import make_env
from tests.lib.doctor import doctor_report
from tests.lib.elfbuild import Symbol, build
from tests.lib.hardware import amd_profile, check_report, rule_hits
from tests.lib.hipbuild import aligned, bundle
from tests.lib.nativeenv import native_dist
from tests.lib.paths import REPO

HARDWARE = REPO / "docs" / "examples" / "hardware"
RULE = "xformers-rocm-wheel-without-gpu-target"
_check = check_report
_profile = amd_profile


def _hits(report: dict[str, object]) -> list[dict[str, object]]:
    return rule_hits(report, RULE)


ROCM = "--index-url https://download.pytorch.org/whl/rocm{}\n"


def test_a_wheel_without_the_gpus_target_is_affected(tmp_path: Path) -> None:
    # torch 2.7.0+rocm6.3 is served from the same index; xformers' own build has no gfx1100
    report = _check(
        tmp_path,
        ROCM.format("6.3") + "torch==2.7.0\nxformers==0.0.30\n",
        HARDWARE / "amd-rx7900xtx.json",
        process=True,
    )
    (hit,) = _hits(report)
    assert hit["status"] == "affected"
    text = json.dumps(hit)
    assert "carries code for gfx90a gfx942 only" in text
    assert "wheels_build.yml HIP_ARCHITECTURES @ v0.0.30" in text
    assert "xformers 0.0.30 from PyTorch's ROCm 6.3 index" in text


@pytest.mark.parametrize(
    ("rocm", "pin", "profile", "hit"),
    [
        ("6.3", "0.0.30", "amd-mi300x-8.json", False),  # gfx942: served
        ("6.1", "0.0.28", "amd-mi250x-8.json", False),  # gfx90a: served
        ("7.1", "0.0.35", "amd-mi300x-8.json", False),
        ("6.4", "0.0.33.post1", "amd-strix-halo.json", True),  # gfx1151
        ("6.2.4", "0.0.29.post2", "amd-rx7900xtx.json", True),  # gfx1100
        (None, "0.0.30", "amd-rx7900xtx.json", False),  # PyPI's build: not a ROCm build
    ],
)
def test_builds_by_release_and_gpu(
    tmp_path: Path, rocm: str | None, pin: str, profile: str, hit: bool
) -> None:
    index = ROCM.format(rocm) if rocm else ""
    report = _check(tmp_path, f"{index}xformers=={pin}\n", HARDWARE / profile)
    assert [h["status"] for h in _hits(report)] == (["affected"] if hit else [])


@pytest.mark.parametrize(
    ("lines", "profile", "said"),
    [
        # a range: the offline solve infers a release; rocm6.4 serves 0.0.32.post2-0.0.33.post2
        (ROCM.format("6.4") + "xformers>=0.0.30\n", "amd-rx7900xtx.json", "affected"),
        (ROCM.format("6.4") + "xformers>=0.0.30\n", "amd-mi300x-8.json", None),
        # 0.0.35 was built for ROCm 7.1 only: the rocm6.1 index serves 0.0.28-0.0.29.post3
        (ROCM.format("6.1") + "xformers==0.0.35\n", "amd-strix-halo.json", "affected"),
        # 0.0.32 built ROCm 6.4 but no upload job copied it (xformers#1311: none on rocm6.4)
        (ROCM.format("6.4") + "xformers==0.0.32\n", "amd-strix-halo.json", "affected"),
        # no xformers build of its CI for ROCm 5.7: nothing of this rule
        (ROCM.format("5.7") + "xformers==0.0.30\n", "amd-rx7900xtx.json", None),
    ],
)
def test_a_release_the_index_has_no_build_of_is_judged_by_what_the_index_serves(
    tmp_path: Path, lines: str, profile: str, said: str | None
) -> None:
    hits = _hits(_check(tmp_path, lines, HARDWARE / profile))
    assert [h["status"] for h in hits] == ([said] if said else [])
    if "0.0.32\n" in lines:
        assert "xformers 0.0.32 has no ROCm 6.4 build" in json.dumps(hits[0])
    if "0.0.35" in lines:
        text = json.dumps(hits[0])
        assert "xformers 0.0.35 has no ROCm 6.1 build" in text
        assert "(0.0.28-0.0.29.post3, what PyTorch's ROCm 6.1 index serves)" in text


def test_the_override_is_honoured_and_names_a_target_it_lacks(tmp_path: Path) -> None:
    lines = ROCM.format("6.3") + "xformers==0.0.30\n"
    # HSA_OVERRIDE_GFX_VERSION=9.4.2 makes the runtime load gfx942 code: the wheel has it
    served = _check(tmp_path, lines, _profile(tmp_path, "MI300A (gfx940)", "gfx940", "9.4.2"))
    assert _hits(served) == []
    # 11.0.0 on an RX 7800 XT asks for gfx1100: the wheel has no such code either
    wrong = _check(tmp_path, lines, _profile(tmp_path, "RX 7800 XT", "gfx1101", "11.0.0"))
    assert [h["status"] for h in _hits(wrong)] == ["affected"]
    assert "(gfx1100)" in json.dumps(_hits(wrong)[0])


def test_a_rocm_index_beside_pypi_is_asked(tmp_path: Path) -> None:
    # the ROCm wheel has no label: PyPI's CUDA build of 0.0.30 ties with it, and pip and uv
    # break the tie differently; which one installs is the question, never "clear"
    lines = "--extra-index-url https://download.pytorch.org/whl/rocm6.3\nxformers==0.0.30\n"
    hits = _hits(_check(tmp_path, lines, HARDWARE / "amd-rx7900xtx.json"))
    assert [h["status"] for h in hits] == ["possible"]
    assert "build.xformers_rocm" in json.dumps(hits[0]["unknown"])
    # on an MI300X either way nothing of this rule: the ROCm build carries gfx942
    assert _hits(_check(tmp_path, lines, HARDWARE / "amd-mi300x-8.json")) == []


_UV = """[project]
name = "demo"
version = "0.1.0"
requires-python = ">=3.10"
dependencies = ["torch==2.7.0", "xformers==0.0.30"]

[[tool.uv.index]]
name = "pytorch-rocm"
url = "https://download.pytorch.org/whl/rocm6.3"
explicit = true

[tool.uv.sources]
torch = { index = "pytorch-rocm" }
"""


@pytest.mark.parametrize(("bound", "hit"), [(True, True), (False, False)])
def test_a_uv_source_binds_xformers_to_the_rocm_index(
    tmp_path: Path, bound: bool, hit: bool
) -> None:
    # an explicit uv index serves only the packages bound to it: bound, xformers is the ROCm
    # build; unbound, it comes from PyPI (CUDA's build, another question)
    text = _UV + ('xformers = { index = "pytorch-rocm" }\n' if bound else "")
    project = tmp_path / "pyproject.toml"
    project.write_text(text, encoding="utf-8")
    rx7900 = str(HARDWARE / "amd-rx7900xtx.json")
    result = run_cli(["check", "--offline", "--hardware", rx7900, "--format", "json", str(project)])
    assert result.exit_code in (0, 1), result.stderr
    assert [h["status"] for h in _hits(result.json())] == (["affected"] if hit else [])


def test_the_index_flags_decide_where_the_files_name_none(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("xformers==0.0.30\n", encoding="utf-8")
    rx7900 = str(HARDWARE / "amd-rx7900xtx.json")
    base = ["check", "--offline", "--hardware", rx7900, "--format", "json"]
    rocm = "https://download.pytorch.org/whl/rocm6.3"
    alone = run_cli([*base, "--index-url", rocm, str(requirements)])
    assert [h["status"] for h in _hits(alone.json())] == ["affected"], alone.stderr
    beside = run_cli([*base, "--extra-index-url", rocm, str(requirements)])
    assert [h["status"] for h in _hits(beside.json())] == ["possible"], beside.stderr


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        (ROCM.format("6.1") + "xformers==0.0.27\n", "built no ROCm wheels before 0.0.28"),
        (ROCM.format("7.1") + "xformers==0.0.99\n", "has xformers 0.0.28-0.0.35 only"),
        (ROCM.format("6.3") + "xformers==0.0.31.dev1000\n", "a development build"),
        ("xformers==0.0.30+rocm6.3\n", "carry no local label"),
    ],
)
def test_a_build_the_table_does_not_describe_is_asked_not_cleared(
    tmp_path: Path, lines: str, said: str
) -> None:
    report = _check(tmp_path, lines, HARDWARE / "amd-mi300x-8.json")
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
    assert _hits(_check(tmp_path, ROCM.format("6.3") + "xformers==0.0.30\n", profile)) == []


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


def _xformers_wheel_site(tmp_path: Path) -> Path:
    """An installed xformers shaped as its ROCm wheel is (no label; xformers/_C.so with code
    objects for the table's gfx90a gfx942), beside torch's ROCm build."""
    site = make_env(tmp_path / "site", {"torch": "2.7.0+rocm6.3"})
    symbols = tuple(Symbol(s, defined=False) for s in ("__hipRegisterFatBinary",))
    library = build(
        needed=("libamdhip64.so.6",),
        symbols=symbols,
        sections={".hip_fatbin": aligned(bundle(["gfx90a", "gfx942"]))},
    ).data
    native_dist(site, "xformers", "0.0.30", {"xformers/_C.so": library})
    return site


@pytest.mark.parametrize(
    ("profile", "hit"), [("amd-rx7900xtx.json", True), ("amd-mi300x-8.json", False)]
)
def test_doctor_judges_the_installed_wheel_by_its_file(
    tmp_path: Path, profile: str, hit: bool
) -> None:
    # doctor reads xformers/_C.so itself: the same targets as the table, named by the file;
    # the table's rule, for declared builds, adds nothing; a served GPU gets nothing at all
    _, report = doctor_report(_xformers_wheel_site(tmp_path), hardware=HARDWARE / profile)
    binary = [f for f in report["findings"] if f["rule"] == "binary-no-kernel-image:xformers"]
    assert [f["status"] for f in binary] == (["affected"] if hit else [])
    assert _hits(report) == []


@pytest.mark.parametrize(
    ("profile", "hit"), [("amd-rx7900xtx.json", True), ("amd-mi300x-8.json", False)]
)
def test_pin_says_no_release_escapes_on_an_unserved_gpu(
    tmp_path: Path, profile: str, hit: bool
) -> None:
    # every xformers release's ROCm build carries gfx90a gfx942: pin keeps the pin and says
    # which rule no release escapes, rather than writing it as proven
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(ROCM.format("6.3") + "torch==2.7.0\nxformers==0.0.30\n")
    result = run_cli(
        ["pin", "--offline", "--hardware", str(HARDWARE / profile), "-r", str(requirements)]
    )
    assert "Traceback" not in result.stderr
    assert "xformers==0.0.30" in result.stdout
    unresolved = f"# UNRESOLVED {RULE} (affected)"
    assert (unresolved in result.stdout) is hit, result.stdout
