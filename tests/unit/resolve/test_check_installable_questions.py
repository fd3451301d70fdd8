"""Questions only about installs the target can make (issue 44 item 4). Where no resolve settles
which torch release a range installs, torch's CUDA build is unknown and a driver rule about it is
a question; it is asked only when a torch release the range allows, and the target's Python and
platform can install, has a build that makes it true. The facts, from compat's dependency
snapshot (PyPI's Requires-Python and wheel tags): the newest torch for Python 3.9 is 2.8.0
(2.9.0 requires Python >= 3.10), every CUDA 13 default build is 2.11 or later, and torch 2.0.x
and 2.1.x publish no cp312 wheel. Where installability cannot be known (a release published
after the snapshot, one it lists without its files), the question stays, and a note says why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.resolve.sources.installable import TargetInstalls
from tests.checkcli import write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib.hardware import R535, profile_file

CUDA13 = "cuda13-build-on-pre-580-driver"
CUDA12 = "cuda12-build-below-driver-floor"
CUDA11 = "cuda11-build-below-driver-floor"
# Two numpy lines no release satisfies together: no resolve is made, ranges are judged over
# every version they allow (the path a failed resolve takes too).
CLASH = "numpy==1.26.0\nnumpy==1.25.0\n"
NO_DRIVER = {
    "schema": "compat.hardware/1",
    "gpus": [{"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}


def asked(report: Any) -> set[str]:
    """Every rule the report raises, as a finding or a question waiting for hardware."""
    return {f["rule"] for f in report["findings"]} | {
        f["rule"] for f in report.get("needs_hardware", [])
    }


def offline(tmp_path: Path, text: str, python: str, hardware: Any) -> Any:
    requirements = write(tmp_path / "requirements.txt", text)
    profile = profile_file(tmp_path / "hw", hardware, name="hw.json")
    result = run_cli(
        ["check", str(requirements), "--offline", "--python-version", python,
         "--platform", "linux/x86_64", "--hardware", str(profile), "--format", "json"]
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    return result.json()


def test_no_cuda13_driver_question_where_python_39_installs_no_cuda13_torch(
    tmp_path: Path,
) -> None:
    on_39 = offline(tmp_path / "a", "torch>=2.0\n" + CLASH, "3.9", R535)
    on_312 = offline(tmp_path / "b", "torch>=2.0\n" + CLASH, "3.12", R535)
    assert CUDA13 not in asked(on_39)
    note = next(n for n in on_39["notes"] if n.startswith("torch's CUDA build: not settled;"))
    assert "Python 3.9 on linux/x86_64 can install torch 2.0.0 to 2.8.0" in note
    assert "CUDA 13" not in note and "CUDA 12.8" in note
    # On 3.12 a CUDA 13 torch installs (2.11 on): the question stays.
    assert CUDA13 in asked(on_312)


def test_a_question_some_installable_release_makes_true_is_still_asked(tmp_path: Path) -> None:
    """No driver known: the CUDA 11 and 12 floors stay questions on 3.9 (torch 2.0.0 is a CUDA
    11.7 build, 2.1-2.8 CUDA 12), only the CUDA 13 one goes."""
    report = offline(tmp_path, "torch>=2.0\n" + CLASH, "3.9", NO_DRIVER)
    rules = asked(report)
    assert CUDA11 in rules and CUDA12 in rules and CUDA13 not in rules


def test_a_bare_torch_on_39_gets_no_cuda13_question(tmp_path: Path) -> None:
    """A bare `torch` also allows 1.0.0-1.7.1, which the snapshot lists without their files:
    whether 3.9 installs them is not known, but their builds are (compat's build table, read
    from each PyPI wheel's torch/version.py: CUDA 9.0 to 10.2), and none is a CUDA 13 build."""
    on_39 = offline(tmp_path / "a", "torch\n" + CLASH, "3.9", R535)
    on_312 = offline(tmp_path / "b", "torch\n" + CLASH, "3.12", R535)
    assert CUDA13 not in asked(on_39)
    note = next(n for n in on_39["notes"] if n.startswith("torch's CUDA build: not settled;"))
    assert "can install torch 1.0.0 to 2.8.0" in note
    assert "1.0.0 to 1.7.1, listed there without their files, are taken as installable" in note
    assert "CUDA 13" not in note and "CUDA 9.0" in note
    assert CUDA13 in asked(on_312)  # 2.11 on installs on 3.12: the question stays


def test_a_range_of_only_unlisted_releases_is_judged_by_their_builds(tmp_path: Path) -> None:
    """`torch<1.8` allows only releases the snapshot lists without files. Their PyPI builds
    (CUDA 9.0-10.2, each wheel's torch/version.py) make no CUDA 11, 12 or 13 driver floor true:
    with no driver known, none of those questions is asked (before, all three were)."""
    report = offline(tmp_path, "torch<1.8\n" + CLASH, "3.8", NO_DRIVER)
    assert not {CUDA11, CUDA12, CUDA13} & asked(report)
    note = next(n for n in report["notes"] if n.startswith("torch's CUDA build: not settled;"))
    assert "can install torch 1.0.0 to 1.7.1 (12 releases" in note
    assert "CUDA 9.0" in note and "CUDA 11" not in note


def test_where_installability_cannot_be_known_the_question_stays_and_says_why(
    tmp_path: Path,
) -> None:
    """On 3.12 a range open past the snapshot's newest torch allows releases published since,
    whose builds compat's table cannot hold: the question stays, and a note says why."""
    report = offline(tmp_path, "torch>=2.15\n" + CLASH, "3.12", R535)
    assert CUDA13 in asked(report)
    note = next(n for n in report["notes"] if "not settled, and not bounded" in n)
    assert "published after compat's dependency snapshot" in note


@pytest.mark.usefixtures("resolver_env")
def test_online_where_the_resolver_gives_no_install_it_is_judged_the_same(tmp_path: Path) -> None:
    """Online, the resolver gives no install (the index serves no torch, as a resolve that
    cannot build an sdist gives none): the ranges are judged over every version, each
    release's installability read from the same snapshot."""
    requirements = write(tmp_path / "requirements.txt", "torch>=2.0\nhelper==1.0\n")
    profile = profile_file(tmp_path / "hw", R535, name="hw.json")
    with IndexServer({"helper": [Dist("helper", "1.0")]}) as index:
        reports = {}
        for python in ("3.9", "3.12"):
            result = run_cli(
                ["check", str(requirements), "--index-url", index.url, "--resolver", "pip",
                 "--python-version", python, "--platform", "linux/x86_64",
                 "--hardware", str(profile), "--format", "json"]
            )  # fmt: skip
            assert result.exit_code in (0, 1, 3), result.stderr
            reports[python] = result.json()
    for report in reports.values():  # the resolver ran and gave no install
        assert any("over every version they allow" in n for n in report["notes"]), report
    assert CUDA13 not in asked(reports["3.9"])
    assert CUDA13 in asked(reports["3.12"])


@pytest.mark.parametrize(
    ("version", "python", "platform", "expected"),
    [
        ("2.8.0", "3.9", "linux/x86_64", True),  # the newest torch with a cp39 wheel
        ("2.9.0", "3.9", "linux/x86_64", False),  # Requires-Python >=3.10
        ("2.1.2", "3.12", "linux/x86_64", False),  # no cp312 wheel, no sdist
        ("2.2.0", "3.12", "linux/x86_64", True),  # the first cp312 wheel
        ("2.16.0", "3.9", "linux/x86_64", False),  # later than the snapshot: 2.15.0's floor
        ("2.16.0", "3.12", "linux/x86_64", None),  # later, and 3.12 is above that floor
        ("2.9.0", "3.9", "darwin/arm64", False),  # Requires-Python holds on every platform
        ("2.1.2", "3.12", "darwin/arm64", None),  # the snapshot records Linux x86-64 files only
        ("1.7.1", "3.9", "linux/x86_64", None),  # listed without its files
    ],
)
def test_which_torch_releases_the_target_installs(
    version: str, python: str, platform: str, expected: bool | None
) -> None:
    installs = TargetInstalls(Version(python), platform)
    assert installs.release(canonicalize_name("torch"), Version(version)) is expected


def test_the_installable_releases_of_a_range() -> None:
    torch = canonicalize_name("torch")
    kept, unknown = TargetInstalls(Version("3.9"), "linux/x86_64").possible(
        torch, SpecifierSet(">=2.0")
    )
    assert (kept[0], kept[-1], unknown) == (Version("2.0.0"), Version("2.8.0"), "")
    kept, unknown = TargetInstalls(Version("3.12"), "linux/x86_64").possible(
        torch, SpecifierSet(">=2.0,<2.3")
    )
    assert (kept[0], kept[-1], unknown) == (Version("2.2.0"), Version("2.2.2"), "")
    _, unknown = TargetInstalls(Version("3.12"), "linux/x86_64").possible(
        torch, SpecifierSet(">=2.0")
    )
    assert "published after" in unknown
    assert json.dumps(unknown)  # one line of text
