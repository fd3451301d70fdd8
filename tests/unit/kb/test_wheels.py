"""Which platforms and Pythons each release has wheels for: a generated table, and the rules that
read it.

compat/data/wheels.json is written by scripts/gen_wheels.py from scripts/inputs/wheels-files.json
(PyPI's PEP 691 file list of each package, read on the date it records, with the sha256 of the
listing, and the Requires-Dist lines of torch's Linux aarch64 wheels). These tests regenerate it
offline, check the facts the issue names against the recorded input, and run the three rules
through the CLI on a real file: DeepSeek-V3's inference requirements
(tests/data/real/platform/PROVENANCE.md) for a GB200 node.
"""

from __future__ import annotations

import json
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from compat.kb import wheels
from tests.checkcli import by_rule, check, write
from tests.conftest import run_cli
from tests.dists import make_dist
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.resolvers import pip_resolve
from tests.profiles import R580

ROOT = paths.REPO
SCRIPT = ROOT / "scripts" / "gen_wheels.py"
INPUT = ROOT / "scripts" / "inputs" / "wheels-files.json"
DEEPSEEK = paths.DATA / "real" / "platform" / "DeepSeek-V3-inference-requirements.txt"
TORCHBRICKS = paths.DATA / "conda" / "torchbricks-environment.yml"
GB200: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "570.133.20",
    "cuda_driver_version": "12.8",
    "gpus": [{"name": "NVIDIA GB200", "compute_capability": "10.0"}] * 4,
}
NONE, SOURCE, CPU = "no-wheel-for-target", "source-build-for-target", "torch-cpu-build-on-gpu-host"


def profile(tmp_path: Path, document: dict[str, Any], name: str = "hw.json") -> str:
    return str(write(tmp_path / name, json.dumps(document)))


def test_the_table_is_what_the_script_writes_from_its_recorded_inputs(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, "compat/data/wheels.json is stale: run scripts/gen_wheels.py"
    copy = tmp_path / "repo"
    for part in ("scripts", "compat/data"):
        shutil.copytree(ROOT / part, copy / part)
    table = copy / "compat" / "data" / "wheels.json"
    table.write_text(table.read_text().replace('"aarch64_cuda": true', '"aarch64_cuda": false', 1))
    edited = subprocess.run(
        [sys.executable, str(copy / "scripts" / "gen_wheels.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert edited.returncode == 1


def test_the_recorded_input_says_where_and_when_each_listing_was_read() -> None:
    document = json.loads(INPUT.read_text())
    table = json.loads((ROOT / "compat" / "data" / "wheels.json").read_text())
    assert set(document["packages"]) == set(wheels.TABLE_PACKAGES) == set(table["packages"])
    for name, listing in document["packages"].items():
        assert listing["url"] == f"https://pypi.org/simple/{name}/"
        assert len(listing["listing_sha256"]) == 64 and listing["fetched"]
        assert table["inputs"]["fetched"][name]["listing_sha256"] == listing["listing_sha256"]
    for entry in document["cuda_metadata"]["torch"].values():
        assert len(entry["sha256"]) == 64 and entry["wheel"].endswith(".whl")
        assert "aarch64" in entry["wheel"]


def test_the_facts_the_issue_names_are_the_index_s() -> None:
    document = json.loads(INPUT.read_text())
    triton = document["packages"]["triton"]["releases"]
    with_aarch64 = [v for v, r in triton.items() if any("aarch64" in w for w in r["wheels"])]
    assert min(with_aarch64, key=Version) == "3.5.0"  # triton's first Linux aarch64 wheels
    assert not triton["3.0.0"]["sdist"]
    assert not any("aarch64" in w for w in triton["3.0.0"]["wheels"])
    # torch 2.4.1's aarch64 wheel declares no CUDA runtime there; 2.11.0's declares CUDA 13
    torch = document["cuda_metadata"]["torch"]
    assert torch["2.4.1"]["cuda_requires"] == []
    assert (
        torch["2.4.1"]["wheel"].startswith("torch-2.4.1-") and "aarch64" in torch["2.4.1"]["wheel"]
    )
    assert any(line.startswith("nvidia-") for line in torch["2.11.0"]["cuda_requires"])
    assert wheels.aarch64_cpu(Version("2.10.0")) is True
    assert wheels.aarch64_cpu(Version("2.11.0")) is False
    assert wheels.first_aarch64_cuda() == Version("2.11.0")
    # torch 1.12.1: CPython 3.7-3.10 wheels, no sdist
    py311, py310 = Version("3.11"), Version("3.10")
    assert wheels.availability("torch", Version("1.12.1"), "linux/x86_64", py311)[0] == "none"  # type: ignore[index]
    assert wheels.availability("torch", Version("1.12.1"), "linux/x86_64", py310)[0] == "wheel"  # type: ignore[index]
    assert wheels.availability("torch", Version("9.9.9"), "linux/x86_64", py310) is None


def test_deepseek_v3_for_linux_aarch64_cannot_install_triton() -> None:
    code, report = check(str(DEEPSEEK), "--offline", "--platform", "linux/aarch64")
    assert code == 1
    found = by_rule(report)
    assert found[NONE]["status"] == "affected"
    assert [(p["name"], p["version"]) for p in found[NONE]["packages"]] == [("triton", "3.0.0")]
    assert found[NONE]["fix"]["constraints"] == ["triton>=3.5.0"]
    # torch's CPU build is a question for the machine: no hardware was given
    assert [f["rule"] for f in report["needs_hardware"]] == [CPU]
    assert "transformers" not in json.dumps(found[NONE])


def test_deepseek_v3_on_a_gb200_profile_is_judged_for_linux_aarch64(tmp_path: Path) -> None:
    code, report = check(str(DEEPSEEK), "--offline", "--hardware", profile(tmp_path, GB200))
    assert code == 1
    found = by_rule(report)
    assert found[NONE]["status"] == "affected"
    assert found[CPU]["status"] == "affected"
    assert found[CPU]["packages"][0]["name"] == "torch"
    assert found[CPU]["fix"]["constraints"] == ["torch>=2.11.0"]
    assert "torch-no-kernel-image-for-gpu" not in found  # no CUDA build there to lack kernels
    assert any("target platform linux/aarch64" in note for note in report["notes"])
    # --platform says otherwise: the x86_64 wheels install, and their kernels lack sm_100
    code, report = check(
        str(DEEPSEEK), "--offline", "--hardware", profile(tmp_path, GB200), "--platform", "linux"
    )
    found = by_rule(report)
    assert NONE not in found and CPU not in found
    assert found["torch-no-kernel-image-for-gpu"]["status"] == "affected"


def test_a_profile_states_its_platform_and_a_bad_one_is_one_line(tmp_path: Path) -> None:
    arm = {**R580, "platform": "linux/aarch64"}  # an H100 in an Arm server
    _, report = check(str(DEEPSEEK), "--offline", "--hardware", profile(tmp_path, arm))
    assert by_rule(report)[CPU]["status"] == "affected"
    x86 = {**GB200, "platform": "linux/x86_64"}  # the profile's word beats the GPU's name
    _, report = check(str(DEEPSEEK), "--offline", "--hardware", profile(tmp_path, x86))
    assert CPU not in by_rule(report) and NONE not in by_rule(report)
    bad = profile(tmp_path, {**GB200, "platform": "aarch64"}, "bad.json")
    result = run_cli(["check", str(DEEPSEEK), "--offline", "--hardware", bad])
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "bad.json" in result.stderr


def test_a_release_without_a_wheel_for_the_target_python(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "torch==1.12.1\n")
    code, report = check(str(requirements), "--offline", "--python-version", "3.11")
    found = by_rule(report)
    assert code == 1 and found[NONE]["status"] == "affected"
    assert found[NONE]["fix"]["constraints"] == ["torch>=1.13.0"]
    _, report = check(str(requirements), "--offline", "--python-version", "3.10")
    assert NONE not in by_rule(report)


def test_a_source_build_names_the_cuda_toolkit_and_sdist_only_projects_are_not_reported(
    tmp_path: Path,
) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "vllm==0.6.3\ndeepspeed==0.15.4\nflash-attn==2.7.4.post1\n"
    )
    _, report = check(
        str(requirements), "--offline", "--platform", "linux/aarch64", "--python-version", "3.11"
    )
    found = by_rule(report)
    assert found[SOURCE]["status"] == "affected"
    # flash-attn's release assets are linux_x86_64 only: setup.py compiles it on aarch64
    assert [p["name"] for p in found[SOURCE]["packages"]] == ["flash-attn", "vllm"]
    text = json.dumps(found[SOURCE])
    assert "nvcc" in text and "deepspeed" not in text
    assert NONE not in found


def test_flash_attn_builds_where_its_release_has_no_asset_for_the_torch_series(
    tmp_path: Path,
) -> None:
    assets = json.loads((ROOT / "scripts" / "inputs" / "flash-attn-assets.json").read_text())
    v283 = assets["releases"]["2.8.3"]
    assert v283["setup_downloads_prebuilt"] and v283["os"] == ["ubuntu-22.04"]
    assert v283["torch"] == ["2.4.0", "2.5.1", "2.6.0", "2.7.1", "2.8.0"]
    fetched = write(tmp_path / "ok.txt", "torch==2.4.1\nflash-attn==2.8.3\n")
    _, report = check(str(fetched), "--offline", "--python-version", "3.11", "--platform", "linux")
    assert SOURCE not in by_rule(report)  # cu12torch2.4cxx11abiFALSE-cp311 exists
    built = write(tmp_path / "build.txt", "torch==2.9.0\nflash-attn==2.8.3\n")
    _, report = check(str(built), "--offline", "--python-version", "3.11", "--platform", "linux")
    finding = by_rule(report)[SOURCE]
    assert finding["status"] == "possible" and "torch 2.9" in json.dumps(finding)
    assert [u["fact"] for u in finding["unknown"]] == ["packages.flash-attn.assets"]


def test_an_assumed_python_makes_a_question_not_a_finding(tmp_path: Path) -> None:
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    if Version(here) < Version("3.11"):
        pytest.skip("torch 1.12.1 has wheels for this interpreter's Python")
    requirements = write(tmp_path / "requirements.txt", "torch==1.12.1\n")
    _, report = check(str(requirements), "--offline")
    finding = by_rule(report)[NONE]
    assert finding["status"] == "possible"
    assert [u["fact"] for u in finding["unknown"]] == ["target.python"]


def test_conda_s_torch_is_conda_s_build_not_pypi_s_wheel(tmp_path: Path) -> None:
    _, report = check(
        str(TORCHBRICKS), "--offline", "--hardware", profile(tmp_path, GB200), "--platform",
        "linux/aarch64",
    )  # fmt: skip
    found = by_rule(report)
    assert CPU not in found and NONE not in found and SOURCE not in found


def test_probe_writes_the_machine_s_platform() -> None:
    result = run_cli(["probe", "--format", "json"])
    document = json.loads(result.stdout)
    machine = {"arm64": "aarch64", "amd64": "x86_64"}.get(platform.machine().lower())
    expected = f"linux/{machine or platform.machine()}"
    if sys.platform.startswith("linux"):
        assert document["platform"] == expected


def test_pin_moves_a_release_without_a_wheel_for_the_target_python(tmp_path: Path) -> None:
    if sys.version_info[:2] < (3, 11):
        pytest.skip("torch 1.12.1 has wheels for this interpreter's Python")
    requirements = write(tmp_path / "requirements.txt", "torch==1.12.1\n")
    projects = {"torch": [Dist("torch", v) for v in ("1.12.1", "1.13.0", "1.13.1")]}
    with IndexServer(projects) as index:
        result = run_cli(
            ["pin", "-r", str(requirements), "--no-probe", "--no-verify", "--index-url",
             index.url, "--pytorch-index", index.base]
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        pins = [line for line in result.stdout.splitlines() if line.startswith("torch==")]
        assert pins and pins[0].startswith("torch==1.13.0")
        assert "via no-wheel-for-target" in pins[0]
        constraints = write(tmp_path / "constraints.txt", result.stdout)
        assert pip_resolve(index.url, constraints, ["torch"], tmp_path) == {"torch": "1.13.0"}


def test_doctor_never_judges_installed_distributions_by_the_index(tmp_path: Path) -> None:
    # Installed is installed: torch 1.12.1 and triton 3.0.0 in this interpreter's site (a source
    # build, a conda copy, another index) are not "no wheel" findings, whatever PyPI lists.
    site = tmp_path / "site"
    make_dist(site, "torch", "1.12.1")
    make_dist(site, "triton", "3.0.0")
    make_dist(site, "vllm", "0.6.3")
    result = run_cli(
        ["doctor", "--path", str(site), "--hardware", profile(tmp_path, GB200), "--format",
         "json"]
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    rules = {f["rule"] for f in result.json()["findings"]}
    assert not rules & {NONE, SOURCE}
    if platform.machine() not in ("aarch64", "arm64"):
        assert CPU not in rules  # doctor judges the interpreter's own platform


def test_a_gb200_profile_named_in_pyproject_makes_the_target_linux_aarch64(tmp_path: Path) -> None:
    profile(tmp_path, GB200, "gb200.json")
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "infer"\nversion = "0"\nrequires-python = ">=3.10"\n'
        'dependencies = ["torch==2.4.1", "triton==3.0.0"]\n\n'
        '[tool.compat]\nhardware = "gb200.json"\n',
    )
    code, report = check(str(pyproject), "--offline")
    found = by_rule(report)
    assert code == 1 and found[NONE]["status"] == "affected"
    assert found[CPU]["status"] == "affected"
    assert any("target platform linux/aarch64" in note for note in report["notes"])
