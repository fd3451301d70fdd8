"""Reading installed environments from real dist-info directories on disk."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from packaging.version import Version

from compat.errors import UsageError
from compat.facts.installed import read_paths, read_python, read_running
from tests.dists import git_install, make_dist


def test_names_are_normalized_and_versions_parsed(tmp_path: Path) -> None:
    make_dist(tmp_path, "DeepSpeed", "0.14.2+unknown")
    make_dist(tmp_path, "OpenRLHF", "0.3.6.post1")
    make_dist(tmp_path, "flash_attn", "2.8.3")
    make_dist(tmp_path, "torch", "2.3.0+cu121", requires=["nvidia-cuda-runtime-cu12==12.1.105"])
    make_dist(tmp_path, "vllm", "0.7.3rc1")
    env = read_paths([tmp_path])
    assert set(env.packages) == {"deepspeed", "openrlhf", "flash-attn", "torch", "vllm"}
    assert env.packages["deepspeed"].version == Version("0.14.2+unknown")
    assert env.packages["deepspeed"].display_name == "DeepSpeed"
    assert env.packages["vllm"].version.is_prerelease
    assert env.packages["torch"].requires == ("nvidia-cuda-runtime-cu12==12.1.105",)
    assert env.problems == ()


def test_metadata_wins_over_directory_name(tmp_path: Path) -> None:
    make_dist(tmp_path, "Trl", "0.15.2", dir_name="trl-0.15.1.dist-info")
    env = read_paths([tmp_path])
    assert env.packages["trl"].version == Version("0.15.2")


def test_git_install_commit_is_read(tmp_path: Path) -> None:
    make_dist(
        tmp_path,
        "openrlhf",
        "0.3.1",
        direct_url=git_install("01B8A23D79A8B4E965084CDF7D0C769DC569DC82"),
    )
    env = read_paths([tmp_path])
    assert env.packages["openrlhf"].commit == "01b8a23d79a8b4e965084cdf7d0c769dc569dc82"


def test_long_description_is_not_metadata(tmp_path: Path) -> None:
    # A header-looking line in the body must not override the header block.
    make_dist(
        tmp_path, "x", "1.0",
        metadata_text="Metadata-Version: 2.1\nName: x\nVersion: 1.0\n\nVersion: 9.9\nName: evil\n",
    )  # fmt: skip
    env = read_paths([tmp_path])
    assert env.packages["x"].version == Version("1.0")


@pytest.mark.parametrize(
    ("metadata", "kind", "fragment"),
    [
        (None, "broken-metadata", "no METADATA file"),
        ("", "broken-metadata", "no Name"),
        ("Metadata-Version: 2.1\nName: x\n\n", "broken-metadata", "no Version"),
        (
            "Metadata-Version: 2.1\nName: deepspeed\nVersion: 0.14.2-custom build\n\n",
            "invalid-version",
            "0.14.2-custom build",
        ),
    ],
)
def test_broken_distributions_are_problems_not_crashes(
    tmp_path: Path, metadata: str | None, kind: str, fragment: str
) -> None:
    make_dist(tmp_path, "good", "1.0")
    broken = make_dist(
        tmp_path, "x", "1.0", dir_name="broken-1.0.dist-info", metadata_text=metadata or ""
    )
    if metadata is None:
        (broken / "METADATA").unlink()
    env = read_paths([tmp_path])
    assert list(env.packages) == ["good"]
    (problem,) = env.problems
    assert problem.kind == kind
    assert fragment in problem.message
    assert problem.origin is not None and problem.origin.path == str(broken)


def test_two_installed_versions_are_flagged(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    make_dist(first, "deepspeed", "0.14.0")
    make_dist(second, "deepspeed", "0.14.2")
    env = read_paths([first, second])
    assert env.packages["deepspeed"].version == Version("0.14.0")  # first on the path is imported
    (problem,) = env.problems
    assert problem.kind == "duplicate"
    assert "0.14.0" in problem.message and "0.14.2" in problem.message


def test_egg_info_directories_and_files(tmp_path: Path) -> None:
    egg = tmp_path / "legacy.egg-info"
    egg.mkdir()
    (egg / "PKG-INFO").write_text(
        "Metadata-Version: 1.1\nName: legacy\nVersion: 0.1\n\n", encoding="utf-8"
    )
    (tmp_path / "old-0.2-py3.11.egg-info").write_text(
        "Metadata-Version: 1.0\nName: old\nVersion: 0.2\n", encoding="utf-8"
    )
    env = read_paths([tmp_path])
    assert {n: str(p.version) for n, p in env.packages.items()} == {"legacy": "0.1", "old": "0.2"}


def test_python_version_from_site_packages_path(tmp_path: Path) -> None:
    site = tmp_path / "lib" / "python3.10" / "site-packages"
    make_dist(site, "x", "1")
    assert read_paths([site]).python_version == Version("3.10")


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_bad_path_is_a_usage_error(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "nope"
    if kind == "file":
        target.write_text("x")
    with pytest.raises(UsageError, match="--path"):
        read_paths([target])


def test_running_interpreter_sees_its_own_packages() -> None:
    env = read_running()
    assert "packaging" in env.packages  # compat's own dependency is installed here
    assert env.python_version == Version(".".join(map(str, sys.version_info[:3])))
    assert env.markers["sys_platform"] == sys.platform


def test_other_interpreter_is_queried_without_compat(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    make_dist(site, "deepspeed", "0.14.2")
    make_dist(site, "trl", "0.15.2")
    env = read_python(venv / "bin" / "python")
    assert {"deepspeed", "trl"} <= set(env.packages)
    assert "compat" not in env.packages  # a venv without compat: nothing of ours leaked in
    assert env.markers["python_full_version"] == ".".join(map(str, sys.version_info[:3]))


def test_not_a_python_is_a_usage_error(tmp_path: Path) -> None:
    script = tmp_path / "python"
    script.write_text("#!/bin/sh\necho nope\nexit 3\n")
    script.chmod(0o755)
    with pytest.raises(UsageError, match="not a working Python"):
        read_python(script)
    with pytest.raises(UsageError, match="no such file"):
        read_python(tmp_path / "missing")
