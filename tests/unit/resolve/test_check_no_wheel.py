"""Releases without a wheel for the target (issue 44 item 3), online through a real index on
127.0.0.1: an exact pin whose release the index lists with no wheel for the target's Python and
platform and no sdist is affected (pip and uv install nothing); with only an sdist it is a
`build` finding, possible, whether or not this machine could build it. The facts of the two
examples, read from PyPI's simple JSON API: mediapipe 0.10.11 ships cp38-cp311 wheels and no
sdist; av 10.0.0 ships only its sdist."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checkcli import by_rule, check, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer

pytestmark = pytest.mark.usefixtures("resolver_env")

MEDIAPIPE = [
    Dist("mediapipe", "0.10.11", tag=f"cp3{minor}-cp3{minor}-manylinux_2_17_x86_64")
    for minor in (8, 9, 10, 11)
]


def test_a_pin_with_no_wheel_for_the_python_and_no_sdist_is_affected(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "mediapipe==0.10.11\n")
    with IndexServer({"mediapipe": MEDIAPIPE}) as index:
        code, report = check(
            str(requirements), "--index-url", index.url, "--python-version", "3.12",
            "--platform", "linux/x86_64", "--resolver", "pip",
        )  # fmt: skip
        _, fits = check(
            str(requirements), "--index-url", index.url, "--python-version", "3.11",
            "--platform", "linux/x86_64", "--resolver", "pip",
        )  # fmt: skip
    found = by_rule(report)["release:no-distribution:mediapipe"]
    assert code == 1 and found["status"] == "affected"
    assert found["packages"][0]["source"] == f"{requirements}:1"
    assert "no wheel for Python 3.12 on linux/x86_64" in found["title"]
    assert "cp311" in found["title"] and "no sdist" in found["title"]
    assert "release:no-distribution:mediapipe" not in by_rule(fits)  # cp311 installs


def test_a_pin_with_only_an_sdist_is_a_possible_build(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "av==10.0.0\n")
    # The sdist cannot even be read here: the finding does not rest on this machine's build.
    projects = {"av": [Dist("av", "10.0.0", wheel=False, metadata_file=False)]}
    with IndexServer(projects) as index:
        result = run_cli(
            ["check", str(requirements), "--index-url", index.url, "--python-version", "3.11",
             "--platform", "linux/x86_64", "--resolver", "pip", "--format", "json"]
        )  # fmt: skip
    code, report = result.exit_code, result.json()
    found = by_rule(report)["build-from-source:av"]
    assert found["status"] == "possible" and found["kind"] == "build"
    assert "no wheel at all" in found["title"] and "builds it from its sdist" in found["title"]
    # possible never fails the default gate; the resolve that could not read the sdist: 3
    assert code in (0, 3), result.stderr


@pytest.mark.parametrize(
    ("tag", "fits_312"),
    [
        ("cp311-cp311-manylinux_2_17_x86_64", False),  # another CPython
        ("cp312-cp312-manylinux_2_17_x86_64", True),
        ("cp39-abi3-manylinux2014_x86_64", True),  # abi3: its Python and every later one
        ("py3-none-any", True),
        ("py37-none-any", True),  # pip takes py3X on 3.Y >= X
        ("cp312-cp312-manylinux_2_17_aarch64", False),  # another architecture
        ("cp312-cp312-win_amd64", False),  # another system
        ("pp39-pypy39_pp73-manylinux_2_17_x86_64", False),  # PyPy's
    ],
)
def test_which_wheel_tags_install_on_cpython_3_12_linux_x86_64(tag: str, fits_312: bool) -> None:
    from packaging.tags import parse_tag
    from packaging.version import Version

    from compat.resolve.sources.nowheel import fits

    assert any(fits(t, Version("3.12"), "linux/x86_64") for t in parse_tag(tag)) is fits_312


@pytest.mark.parametrize("tool", ["pip", "uv"])
def test_a_pulled_in_release_with_only_an_sdist_that_fails_here_is_a_build(
    tmp_path: Path, tool: str
) -> None:
    """An older faster-whisper requires av==10.* (only an sdist, which fails under Cython 3):
    the resolver cannot build it on this machine, so the run is still no clean verdict (exit 3),
    but av is judged: a build on the target, at the line that pulls it in."""
    requirements = write(tmp_path / "requirements.txt", "faster-whisper==0.4.1\n")
    projects = {
        "faster-whisper": [Dist("faster-whisper", "0.4.1", requires=["av==10.*"])],
        "av": [Dist("av", "10.0.0", wheel=False, metadata_file=False)],
    }
    with IndexServer(projects) as index:
        result = run_cli(
            ["check", str(requirements), "--index-url", index.url, "--resolver", tool,
             "--no-probe", "--format", "json"]
        )  # fmt: skip
    assert result.exit_code == 3, result.stderr
    report = result.json()
    found = by_rule(report)["build-from-source:av"]
    assert found["status"] == "possible" and found["kind"] == "build"
    assert found["packages"][0]["source"] == f"{requirements}:1"
    assert found["packages"][0]["version"] == "10.0.0"
    assert "no wheel at all" in found["title"]


# An in-tree build backend that builds: its metadata is the sdist's PKG-INFO (the hook runs in
# the unpacked source tree), so pip and uv resolve the release by building it here.
BUILDS = """
import os, shutil
def get_requires_for_build_wheel(config_settings=None):
    return []
def prepare_metadata_for_build_wheel(directory, config_settings=None):
    with open("PKG-INFO") as info:
        name, version = [l.split(": ", 1)[1].strip() for l in info if l.startswith(("Name:", "Version:"))][:2]
    target = os.path.join(directory, f"{name}-{version}.dist-info")
    os.makedirs(target)
    shutil.copy("PKG-INFO", os.path.join(target, "METADATA"))
    return os.path.basename(target)
def build_wheel(directory, config_settings=None, metadata_directory=None):
    raise RuntimeError("a dry run builds no wheel")
"""


@pytest.mark.parametrize("tool", ["pip", "uv"])
def test_a_pulled_in_release_built_here_is_still_a_build_on_the_target(
    tmp_path: Path, tool: str
) -> None:
    """The resolver succeeds (it builds av's sdist on this machine), yet av 10.0.0 has no wheel:
    the target builds it too. Judged from the index's files, at the line that pulls it in; a
    pulled-in release with a wheel is not."""
    requirements = write(tmp_path / "requirements.txt", "faster-whisper==0.4.1\n")
    projects = {
        "faster-whisper": [
            Dist("faster-whisper", "0.4.1", requires=["av==10.*", "tokenizers", "sdistonly"])
        ],
        "av": [
            Dist("av", "10.0.0", wheel=False, metadata_file=False, backend=BUILDS),
            Dist("av", "11.0.0", tag="cp311-cp311-manylinux_2_17_x86_64"),  # av ships wheels
        ],
        "tokenizers": [Dist("tokenizers", "0.13.3")],
        # A project with no wheel in any release: its sdist is its ordinary install (DeepSpeed).
        "sdistonly": [Dist("sdistonly", "1.0", wheel=False, metadata_file=False, backend=BUILDS)],
    }
    with IndexServer(projects) as index:
        result = run_cli(
            ["check", str(requirements), "--index-url", index.url, "--resolver", tool,
             "--no-probe", "--format", "json"]
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr  # possible: the default gate passes
    report = result.json()
    assert report["environment"]["installs"][0]["packages"]["av"] == "10.0.0"  # resolved
    found = by_rule(report)["build-from-source:av"]
    assert found["status"] == "possible" and found["kind"] == "build"
    assert found["packages"][0]["source"] == f"{requirements}:1"
    assert found["packages"][0]["version"] == "10.0.0"
    assert "no wheel at all" in found["title"] and "builds it from its sdist" in found["title"]
    assert report["environment"]["installs"][0]["packages"]["sdistonly"] == "1.0"
    assert not [r for r in by_rule(report) if r.endswith((":tokenizers", ":sdistonly"))]


def test_pip_for_another_target_names_the_pulled_in_release_without_a_wheel(
    tmp_path: Path,
) -> None:
    """pip resolves another Python from wheels only, so it stops at av==10.* (no verdict, exit
    3); the release it could not take is read from the index: a build on the target. A project
    that publishes no wheel at all is its sdist's ordinary install: not reported."""
    import sys

    other = "3.12" if sys.version_info[:2] != (3, 12) else "3.11"
    requirements = write(tmp_path / "requirements.txt", "faster-whisper==0.4.1\n")
    sdist_only = write(tmp_path / "sdist-only.txt", "whisper-helper==1.0\n")
    projects = {
        "faster-whisper": [Dist("faster-whisper", "0.4.1", requires=["av==10.*"])],
        "av": [
            Dist("av", "10.0.0", wheel=False, metadata_file=False, backend=BUILDS),
            Dist("av", "11.0.0", tag="cp311-cp311-manylinux_2_17_x86_64"),
        ],
        "whisper-helper": [Dist("whisper-helper", "1.0", requires=["sdistonly"])],
        "sdistonly": [Dist("sdistonly", "1.0", wheel=False, metadata_file=False, backend=BUILDS)],
    }
    reports = []
    with IndexServer(projects) as index:
        for path in (requirements, sdist_only):
            result = run_cli(
                ["check", str(path), "--index-url", index.url, "--resolver", "pip",
                 "--python-version", other, "--platform", "linux/x86_64", "--no-probe",
                 "--format", "json"]
            )  # fmt: skip
            assert result.exit_code == 3, result.stderr  # pip gave no verdict
            reports.append(result.json())
    found = by_rule(reports[0])["build-from-source:av"]
    assert found["packages"][0]["version"] == "10.0.0"  # the newest release av==10.* allows
    assert found["packages"][0]["source"] == f"{requirements}:1"
    assert not [r for r in by_rule(reports[1]) if r.startswith("build-from-source")]
