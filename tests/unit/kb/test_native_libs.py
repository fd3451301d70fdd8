"""The CUDA libraries each bitsandbytes wheel ships: a generated table, and the rule reading it.

compat/data/native-libs.json is written by scripts/gen_native_libs.py from
scripts/inputs/bitsandbytes-libs.json (each release's wheel name, URL, sha256, upload date and the
libbitsandbytes_cudaXYZ files in its zip directory). These tests regenerate it offline and run
`bitsandbytes-no-library-for-torch-cuda` through the CLI: doctor on real dist-info trees, check on
a requirement file, and pin moving bitsandbytes to the first release that ships the library,
installed by real pip from a loopback index.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from compat.kb import nativelibs
from tests.conftest import run_cli
from tests.dists import make_dist, torch_dist
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.resolvers import pip_resolve

ROOT = paths.REPO
SCRIPT = ROOT / "scripts" / "gen_native_libs.py"
RULE = "bitsandbytes-no-library-for-torch-cuda"
RUNTIME_RULE = "bitsandbytes-runtime-loader-no-library-for-torch-cuda-major"


def test_the_table_is_what_the_script_writes_from_its_recorded_inputs(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, "compat/data/native-libs.json is stale: run gen_native_libs.py"
    copy = tmp_path / "repo"
    for part in ("scripts", "compat/data"):
        shutil.copytree(ROOT / part, copy / part)
    table = copy / "compat" / "data" / "native-libs.json"
    table.write_text(table.read_text().replace('"13.2"', '"13.1"', 1))
    edited = subprocess.run(
        [sys.executable, str(copy / "scripts" / "gen_native_libs.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert edited.returncode == 1


def test_every_release_names_the_wheel_it_was_read_from() -> None:
    document = json.loads((ROOT / "scripts" / "inputs" / "bitsandbytes-libs.json").read_text())
    assert document["fetched"] and document["loaders"]["exact"]
    for entry in document["releases"]:
        assert entry["url"].startswith("https://") and entry["url"].endswith(entry["wheel"])
        assert len(entry["sha256"]) == 64 and entry["uploaded"]
        assert entry["loader"] in document["loaders"]


@pytest.mark.parametrize(
    ("release", "cuda", "loads"),
    [
        ("0.42.0", "12.3", True),
        ("0.42.0", "12.4", False),  # cuda110..cuda123 only
        ("0.43.1", "12.4", True),
        ("0.45.2", "12.8", False),
        ("0.45.3", "12.8", True),
        ("0.49.2", "13.0", True),
        ("0.49.2", "13.2", False),  # cuda130 but no cuda132 in 0.48/0.49
        ("0.50.0", "13.2", True),
        ("0.50.0", "12.9", True),  # same-major fallback (cuda128)
        ("0.41.3", "12.1", True),
        ("0.41.3", "12.4", False),  # 0.40.1-0.41.x: cuda110..cuda122
        ("0.40.1", "11.6", False),
        ("0.40.0", "13.2", None),  # picks by the machine's runtime: see lacks_major
        ("0.30.0", "11.1", None),  # never published: not judged
    ],
)
def test_what_the_wheels_ship(release: str, cuda: str, loads: bool | None) -> None:
    assert nativelibs.loads(Version(release), Version(cuda)) is loads


@pytest.mark.parametrize(
    ("release", "cuda", "lacks"),
    [
        ("0.40.0", "13.2", True),  # cuda110..cuda122: nothing of CUDA 13
        ("0.40.0.post4", "13.0", True),
        ("0.40.0", "11.8", False),
        ("0.40.0", "12.4", False),  # a CUDA 12 library: the machine's runtime decides
        ("0.39.0", "10.2", True),  # 0.39.0 dropped cuda102
        ("0.38.1", "10.2", False),
        ("0.31.8", "12.1", True),  # cuda102..cuda117
        ("0.40.1", "13.2", None),  # reads torch's build: see loads
    ],
)
def test_what_the_runtime_loader_releases_ship(release: str, cuda: str, lacks: bool | None) -> None:
    assert nativelibs.lacks_major(Version(release), Version(cuda)) is lacks


def test_every_release_with_a_wheel_is_recorded_with_the_loader_its_source_shows() -> None:
    """From the first wheel with CUDA libraries (0.31.8), post-releases included; the loader
    read in each wheel's cuda_setup/main.py changes once at 0.40.1 (torch.version.cuda) and
    once at 0.50.0 (same-major fallback), never back."""
    document = json.loads((ROOT / "scripts" / "inputs" / "bitsandbytes-libs.json").read_text())
    versions = [Version(entry["version"]) for entry in document["releases"]]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert versions[0] == Version("0.31.8")
    assert {Version("0.40.0"), Version("0.40.0.post4"), Version("0.41.3.post2")} <= set(versions)
    for version, entry in zip(versions, document["releases"], strict=True):
        expected = (
            "system-runtime"
            if version < Version("0.40.1")
            else ("exact" if version < Version("0.50.0") else "same-major")
        )
        assert entry["loader"] == expected, version
        assert entry["cuda_libraries"], version


def findings(result: Any) -> dict[str, dict[str, Any]]:
    assert result.exit_code in (0, 1), result.stderr
    return {f["rule"]: f for f in result.json()["findings"]}


def test_doctor_bitsandbytes_0_42_beside_a_cuda_12_4_torch(tmp_path: Path) -> None:
    site = tmp_path / "site"
    torch_dist(site, "2.4.0", "12.4")
    make_dist(site, "bitsandbytes", "0.42.0", requires=["scipy"])
    result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"])
    finding = findings(result)[RULE]
    assert finding["status"] == "affected" and result.exit_code == 1
    assert finding["fix"]["constraints"] == ["bitsandbytes>=0.43.1"]
    assert any("CUDA 12.4" in line for line in finding["matched"])


def test_doctor_is_silent_for_the_fix_and_for_a_cpu_torch(tmp_path: Path) -> None:
    fixed = tmp_path / "fixed"
    torch_dist(fixed, "2.4.0", "12.4")
    make_dist(fixed, "bitsandbytes", "0.43.1")
    cpu = tmp_path / "cpu"
    torch_dist(cpu, "2.4.0+cpu", None)
    make_dist(cpu, "bitsandbytes", "0.42.0")
    for site in (fixed, cpu):
        result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"])
        assert RULE not in findings(result)


def test_check_torch_2_15_from_pypi_needs_bitsandbytes_0_50(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.15.0\nbitsandbytes==0.49.2\n")
    result = run_cli(["check", str(requirements), "--offline", "--format", "json"])
    finding = findings(result)[RULE]
    assert finding["status"] == "affected"
    assert finding["fix"]["constraints"] == ["bitsandbytes>=0.50.0"]
    requirements.write_text("torch==2.15.0\nbitsandbytes==0.50.0\n")
    assert RULE not in findings(run_cli(["check", str(requirements), "--offline", "-f", "json"]))


def test_check_bitsandbytes_0_40_picks_by_the_runtime_and_ships_nothing_for_cuda_13(
    tmp_path: Path,
) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.15.0\nbitsandbytes==0.40.0\n")
    found = findings(run_cli(["check", str(requirements), "--offline", "--format", "json"]))
    assert found[RUNTIME_RULE]["status"] == "affected" and RULE not in found
    assert found[RUNTIME_RULE]["fix"]["constraints"] == ["bitsandbytes>=0.50.0"]
    for torch in ("2.0.1+cu118", "2.4.0+cu124"):  # 0.40.0 ships CUDA 11 and 12 libraries
        requirements.write_text(f"torch=={torch}\nbitsandbytes==0.40.0\n")
        found = findings(run_cli(["check", str(requirements), "--offline", "--format", "json"]))
        assert RUNTIME_RULE not in found and RULE not in found, torch


def test_doctor_bitsandbytes_0_41_beside_a_cuda_12_4_torch(tmp_path: Path) -> None:
    site = tmp_path / "site"
    torch_dist(site, "2.4.0", "12.4")
    make_dist(site, "bitsandbytes", "0.41.3.post2", requires=["scipy"])
    found = findings(run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"]))
    assert found[RULE]["status"] == "affected" and RUNTIME_RULE not in found
    assert found[RULE]["fix"]["constraints"] == ["bitsandbytes>=0.43.1"]


def test_pin_moves_bitsandbytes_to_the_first_release_with_the_library(tmp_path: Path) -> None:
    site = tmp_path / "site"
    torch_dist(
        site,
        "2.15.0",
        "13.2",
        requires=['cuda-toolkit[cudart]==13.2.1; platform_system == "Linux"'],
    )
    make_dist(site, "bitsandbytes", "0.49.2", requires=["torch>=2.3,<3"])
    projects = {
        "torch": [Dist("torch", "2.15.0")],
        "bitsandbytes": [
            Dist("bitsandbytes", v, requires=["torch>=2.3,<3"]) for v in ("0.49.2", "0.50.0")
        ],
    }
    with IndexServer(projects) as index:
        result = run_cli(
            ["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
             "--pytorch-index", index.base]
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        by_pip = pip_resolve(index.url, constraints, ["torch", "bitsandbytes"], tmp_path)
    assert f"via {RULE}" in result.stdout
    assert by_pip == {"torch": "2.15.0", "bitsandbytes": "0.50.0"}
