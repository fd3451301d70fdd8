"""The first NumPy-2 build of each compiled package: a generated table and the rule reading it.

compat/data/numpy-abi.json is written by scripts/gen_numpy_abi.py from
scripts/inputs/numpy-abi.json (per package: the first release built against NumPy 2, the release
note that says so, and what PyPI lists before it). The rule `numpy1-build-beside-numpy2` runs
through the CLI: check on requirement files (pinned, and unpinned numpy resolved by real pip
against a loopback index) and doctor on real dist-info trees.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from packaging.utils import canonicalize_name

from compat.resolve.sources import snapshot
from tests.conftest import run_cli
from tests.dists import make_env
from tests.indexserver import Dist, IndexServer
from tests.lib import paths

ROOT = paths.REPO
RULE = "numpy1-build-beside-numpy2"


def findings(result: Any) -> dict[str, dict[str, Any]]:
    assert result.exit_code in (0, 1), result.stderr
    return {f["rule"]: f for f in result.json()["findings"]}


def test_the_table_is_what_the_script_writes_from_its_recorded_inputs() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_numpy_abi.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, "compat/data/numpy-abi.json is stale: run gen_numpy_abi.py"


def test_every_entry_cites_its_release_note_and_pypi_knows_the_release() -> None:
    document = json.loads((ROOT / "scripts" / "inputs" / "numpy-abi.json").read_text())
    assert document["fetched"]
    for name, entry in document["packages"].items():
        assert entry["source"].startswith("https://") and entry["says"], name
        assert entry["pypi"]["uploaded"] and entry["pypi"]["previous"], name


@pytest.mark.parametrize(
    ("lines", "affected"),
    [
        ("scikit-learn==1.2.2\nnumpy==2.1.3\n", True),
        ("scikit-learn==1.4.2\nnumpy==2.1.3\n", False),  # the first NumPy-2 build
        ("scikit-learn==1.2.2\nnumpy==1.26.4\n", False),
        ("scipy==1.12.0\nopencv-python-headless==4.10.0.84\nnumpy==2.0.0\n", True),
    ],
)
def test_check_pinned_files(tmp_path: Path, lines: str, affected: bool) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(lines)
    found = findings(run_cli(["check", str(requirements), "--offline", "--format", "json"]))
    assert (RULE in found) is affected
    if affected:
        assert found[RULE]["status"] == "affected"
        assert found[RULE]["fix"]["constraints"][0].split(">=")[0] in lines


def test_check_offline_names_the_rule_the_unpinned_numpy_allows(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("scikit-learn==1.2.2\nnumpy\n")
    result = run_cli(["check", str(requirements), "--offline", "--format", "json"])
    # Offline the install is solved over the snapshot: a fresh install takes NumPy 2. Where the
    # snapshot lacks scikit-learn's own requirements (which could cap numpy), that pick is
    # possible, naming the missing fact; where it has them, it is affected.
    found = findings(result)[RULE]
    if snapshot.covers(canonicalize_name("scikit-learn")):
        assert found["status"] == "affected"
    else:
        assert found["status"] == "possible"
        assert "packages.numpy.release" in [u["fact"] for u in found["unknown"]]


@pytest.mark.usefixtures("resolver_env")
def test_check_unpinned_numpy_is_judged_at_what_pip_resolves(tmp_path: Path) -> None:
    # scikit-learn 1.2.2 declares numpy>=1.17.3 and nothing caps it: pip installs NumPy 2.
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("scikit-learn==1.2.2\nnumpy\n")
    projects = {
        "numpy": [Dist("numpy", v) for v in ("1.26.4", "2.1.3")],
        "scikit-learn": [Dist("scikit-learn", "1.2.2", requires=["numpy>=1.17.3"])],
    }
    with IndexServer(projects) as index:
        result = run_cli(
            [
                "check",
                str(requirements),
                "--index-url",
                index.url,
                "--resolver",
                "pip",
                "-f",
                "json",
            ]
        )
    found = findings(result)
    assert found[RULE]["status"] == "affected" and result.exit_code == 1
    assert found[RULE]["fix"]["constraints"] == ["scikit-learn>=1.4.2"]


def test_doctor_names_every_old_build(tmp_path: Path) -> None:
    site = make_env(
        tmp_path / "site",
        {"numpy": "2.0.2", "matplotlib": "3.8.3", "h5py": "3.10.0", "scipy": "1.13.1"},
    )
    result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"])
    finding = findings(result)[RULE]
    assert finding["status"] == "affected" and result.exit_code == 1
    assert finding["fix"]["constraints"] == ["h5py>=3.11.0", "matplotlib>=3.8.4"]
    assert {p["name"] for p in finding["packages"]} >= {"h5py", "matplotlib"}
