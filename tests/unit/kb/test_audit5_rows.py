"""Audit 5's corrections (shared/research/kb-audit-5.md, issue 34 items 4 and 5), each through the
generator that writes the row or the CLI that reads it.

flash-attn: scripts/gen_wheels.py decided whether a release's setup.py downloads a prebuilt
wheel by the name of the function that does it in 2.1.2 and later (`def get_wheel_url`). 2.0.6
to 2.1.1 format BASE_WHEEL_URL and call urlretrieve inline in CachedWheelsCommand.run, so they
were recorded as always compiling. The test below builds a real git repository with one tag of
each form (the setup.py files are skeletons of the three forms, not flash-attn's code) and runs
the script's refresh on a copy of the project, as a maintainer does with a clone.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.checkcli import by_rule, check, write
from tests.lib import paths

ROOT = paths.REPO

PUBLISH = """\
name: publish
on: push
jobs:
  build_wheels:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-20.04]
        python-version: ['3.9', '3.10']
        torch-version: ['2.0.1', '2.1.0.dev20230731']
        cuda-version: ['11.8.0', '12.1.0']
        exclude:
          - torch-version: '2.0.1'
            cuda-version: '12.1.0'
"""
# 0.2.1-2.0.5: no download at all
COMPILES = """\
from setuptools import setup
setup(name="flash_attn", cmdclass={"build_ext": BuildExtension})
"""
# 2.0.6-2.1.1: the URL and the download inline in the bdist_wheel command's run()
INLINE = """\
import urllib.request
BASE_WHEEL_URL = "https://github.com/Dao-AILab/flash-attention/releases/download/{tag_name}/{wheel_name}"
class CachedWheelsCommand(_bdist_wheel):
    def run(self):
        wheel_url = BASE_WHEEL_URL.format(tag_name="v2.1.1", wheel_name=wheel_filename)
        try:
            urllib.request.urlretrieve(wheel_url, wheel_filename)
        except urllib.error.HTTPError:
            super().run()
"""
# 2.1.2 and later: the same download moved into get_wheel_url()
FUNCTION = """\
import urllib.request
BASE_WHEEL_URL = (
    "https://github.com/Dao-AILab/flash-attention/releases/download/{tag_name}/{wheel_name}"
)
def get_wheel_url():
    return BASE_WHEEL_URL.format(tag_name="v2.1.2", wheel_name="x.whl"), "x.whl"
class CachedWheelsCommand(_bdist_wheel):
    def run(self):
        wheel_url, wheel_filename = get_wheel_url()
        urllib.request.urlretrieve(wheel_url, wheel_filename)
"""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=repo, check=True, capture_output=True,
    )  # fmt: skip


def _clone_with_tags(repo: Path, tags: dict[str, str]) -> Path:
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "publish.yml").write_text(PUBLISH)
    for tag, setup in tags.items():
        (repo / "setup.py").write_text(setup)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", tag)
        _git(repo, "tag", tag)
    return repo / ".git"


def test_flash_attn_release_detection_reads_the_download_not_a_function_name(
    tmp_path: Path,
) -> None:
    git_dir = _clone_with_tags(
        tmp_path / "flash-attention",
        {"v2.0.5": COMPILES, "v2.1.1": INLINE, "v2.1.2.post3": FUNCTION},
    )
    copy = tmp_path / "project"
    for part in ("scripts", "compat/data"):
        shutil.copytree(ROOT / part, copy / part)
    proc = subprocess.run(
        [sys.executable, str(copy / "scripts" / "gen_wheels.py"), "--refresh",
         "--flash-attn-git", str(git_dir)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    recorded = json.loads((copy / "scripts" / "inputs" / "flash-attn-assets.json").read_text())
    downloads = {v: e["setup_downloads_prebuilt"] for v, e in recorded["releases"].items()}
    assert downloads == {"2.0.5": False, "2.1.1": True, "2.1.2.post3": True}
    table = json.loads((copy / "compat" / "data" / "wheels.json").read_text())
    assets = table["flash_attn_assets"]
    assert assets["2.0.5"]["combos"] == [] and assets["2.0.5"]["built_against"] == {}
    for release in ("2.1.1", "2.1.2.post3"):
        assert assets[release]["built_against"] == {"2.0": ["2.0.1"], "2.1": ["2.1.0.dev20230731"]}
        assert "3.10|2.1|12" in assets[release]["combos"]
        assert "3.10|2.0|12" not in assets[release]["combos"]  # excluded in the matrix


def test_the_recorded_flash_attn_releases_that_download_inline() -> None:
    """The committed input, re-read from the clone at every tag: 2.0.6-2.1.1 download."""
    recorded = json.loads((ROOT / "scripts" / "inputs" / "flash-attn-assets.json").read_text())
    inline = ("2.0.6", "2.0.6.post2", "2.0.7", "2.0.8", "2.0.9", "2.1.0", "2.1.1")
    for release in inline:
        entry = recorded["releases"][release]
        assert entry["setup_downloads_prebuilt"], release
        assert "2.1.0.dev20230731" in entry["torch"], release
    assert not recorded["releases"]["2.0.5"]["setup_downloads_prebuilt"]


def test_the_flash_attn_prerelease_pairs_are_37() -> None:
    """(release, torch series) pairs whose wheel was compiled against a nightly of the series:
    30 before, 37 with 2.0.6-2.1.1's torch 2.1 wheels (2.1.0.dev20230731)."""
    from compat.kb import wheels

    assert wheels.flash_attn_prerelease_rows() == 37


DS_FLOOR = "transformers-deepspeed-below-0.9.3"


@pytest.mark.parametrize(
    ("transformers", "deepspeed", "status"),
    [
        ("4.30.2", "0.9.2", None),  # 4.30.x: deepspeed>=0.8.3 (the 4.30.0 and 4.30.2 wheels)
        ("4.31.0", "0.9.2", "affected"),  # PR #24541: deepspeed>=0.9.3 (the 4.31.0 wheel)
        ("4.40.0", "0.8.3", "affected"),  # read in the 4.40.0 wheel
        ("4.31.0", "0.9.3", None),
    ],
)
def test_transformers_refuses_deepspeed_below_0_9_3_from_4_31(
    tmp_path: Path, transformers: str, deepspeed: str, status: str | None
) -> None:
    requirements = write(
        tmp_path / "requirements.txt", f"transformers=={transformers}\ndeepspeed=={deepspeed}\n"
    )
    _, report = check(str(requirements), "--offline", "--set", "distributed=deepspeed")
    found = by_rule(report).get(DS_FLOOR)
    assert (found["status"] if found else None) == status


def test_torch_1_8_0_from_the_cu101_index_is_its_cuda_10_1_build(tmp_path: Path) -> None:
    """torch 1.8.0 also had a +cu101 build (audit 5 row 21): a requirements file routing torch to
    the cu101 index gets that build, not PyPI's CUDA 10.2 default (as 1.8.1 always did)."""
    for release in ("1.8.0", "1.8.1"):
        requirements = write(
            tmp_path / f"requirements-{release}.txt",
            f"--extra-index-url https://download.pytorch.org/whl/cu101\ntorch=={release}\n",
        )
        _, report = check(str(requirements), "--offline")
        builds = [n for n in report["notes"] if n.startswith("torch's CUDA build")]
        assert len(builds) == 1 and "10.1" in builds[0] and "/whl/cu101" in builds[0], builds


def test_yanked_releases_are_marked_in_the_wheel_table() -> None:
    """PEP 592: the releases audit 5 found unmarked (part 2 rows 11-12) are marked, with PyPI's
    reason where it gives one, from the recorded listing; a release beside them is not."""
    recorded = json.loads((ROOT / "scripts" / "inputs" / "wheels-files.json").read_text())
    assert recorded["packages"]["ray"]["releases"]["1.7.1"]["yanked"]
    assert "yanked" not in recorded["packages"]["ray"]["releases"]["1.7.0"]
    table = json.loads((ROOT / "compat" / "data" / "wheels.json").read_text())
    yanked = table["yanked"]
    assert set(yanked["huggingface-hub"]) >= {"1.16.3", "2.1.0"}
    assert "1.7.1" in yanked["ray"] and "1.7.0" not in yanked["ray"]
    assert "2.1.1" not in yanked["huggingface-hub"]
    # a yanked release still lists its wheels: pip installs it when pinned with ==
    runs = [run for run in table["packages"]["ray"] if "1.7.1" in run["releases"]]
    assert runs and runs[0]["wheels"]
