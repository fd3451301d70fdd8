"""Resolving more often must not mean failing more often (issue 32 item 1).

A source distribution whose own code fails to build on the target's Python is what the user's
`pip install` hits there: an `affected` finding `build-fails:NAME` (exit 1). A build that fails
because of the checking machine (a module the build environment lacks, a build on another
Python) stays no verdict (exit 3). A source-only release whose complete requirements compat
records (compat/data/sdist-requires.json) is handed to uv as dependency metadata: uv never
builds it. Real pip and uv, real source distributions on an index on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from compat.resolve.resolvers.resolver import find_uv
from tests.checkcli import TOOLS, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer

pytestmark = pytest.mark.usefixtures("resolver_env")

HERE = "{}.{}".format(*sys.version_info[:2])


def backend(body: str) -> str:
    """An in-tree build backend whose import runs `body` (as a setup.py runs its code)."""
    return (
        f"{body}\n"
        "def get_requires_for_build_wheel(config_settings=None):\n"
        "    return []\n"
        "get_requires_for_build_sdist = get_requires_for_build_wheel\n"
        "def prepare_metadata_for_build_wheel(directory, config_settings=None):\n"
        "    raise RuntimeError('not reached')\n"
        "build_wheel = build_sdist = prepare_metadata_for_build_wheel\n"
    )


# collections.Mapping went in Python 3.10 (compat's oldest): what pyext 0.7's
# `inspect.getargspec` is on 3.11.
GONE_FROM_THE_STDLIB = backend("import collections\nMapping = collections.Mapping")
# flash-attn's setup.py imports torch, which no build environment holds: the machine's failure.
NEEDS_TORCH = backend("import torch")


def check(requirements: Path, index: IndexServer, tool: str, python: str) -> tuple[int, Any]:
    result = run_cli(
        ["check", str(requirements), "--index-url", index.url, "--resolver", tool,
         "--python-version", python, "--platform", "linux", "--no-probe", "--format", "json"]
    )  # fmt: skip
    assert result.exit_code in (0, 1, 3), result.stderr
    return result.exit_code, result.json()


def projects(body: str) -> dict[str, list[Dist]]:
    return {
        "transformers": [Dist("transformers", "4.40.0")],
        "oldext": [Dist("oldext", "0.7", wheel=False, metadata_file=False, backend=body)],
    }


@TOOLS
def test_a_build_that_fails_on_the_target_python_is_an_affected_finding(
    tmp_path: Path, tool: str
) -> None:
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\noldext==0.7\n")
    with IndexServer(projects(GONE_FROM_THE_STDLIB)) as index:
        code, report = check(requirements, index, tool, HERE)
    assert code == 1
    (finding,) = [f for f in report["findings"] if f["rule"] == "build-fails:oldext"]
    assert finding["status"] == "affected" and finding["severity"] == "error"
    assert finding["kind"] == "build"
    (package,) = finding["packages"]
    assert package["name"] == "oldext" and package["version"] == "0.7"
    assert package["source"] == f"{requirements}:2"
    assert any(
        "AttributeError: module 'collections' has no attribute 'Mapping'" in m
        for m in finding["matched"]
    )
    assert report["summary"]["resolve_failed"] is None  # a verdict, not a tool failure


@TOOLS
def test_a_build_that_fails_for_want_of_a_module_stays_no_verdict(
    tmp_path: Path, tool: str
) -> None:
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\noldext==0.7\n")
    with IndexServer(projects(NEEDS_TORCH)) as index:
        code, report = check(requirements, index, tool, HERE)
    assert code == 3
    assert not any(f["rule"].startswith("build-fails:") for f in report["findings"])
    assert "No module named 'torch'" in report["summary"]["resolve_failed"]


def _python_not_here(uv: str) -> str | None:
    for version in ("3.9", "3.8", "3.15", "3.14", "3.13", "3.12", "3.10"):
        found = subprocess.run(
            [uv, "python", "find", "--no-python-downloads", version],
            capture_output=True,
            check=False,
        )
        if found.returncode != 0:
            return version
    return None


def test_a_build_on_another_python_than_the_target_stays_no_verdict(tmp_path: Path) -> None:
    # uv builds with an interpreter of the target's version where one is installed, else with
    # another one (and says so in a warning): a failure there says nothing about the target.
    uv = find_uv()
    assert uv is not None
    absent = _python_not_here(uv)
    if absent is None:
        pytest.skip("every Python version is installed here")
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\noldext==0.7\n")
    with IndexServer(projects(GONE_FROM_THE_STDLIB)) as index:
        code, report = check(requirements, index, "uv", absent)
    assert code == 3
    assert not any(f["rule"].startswith("build-fails:") for f in report["findings"])
    assert f"not on the target's Python {absent}" in report["summary"]["resolve_failed"]


# flash-attn 2.8.3 is recorded in compat/data/sdist-requires.json (torch, einops); 2.8.2 is not.
# The index serves both as source distributions that must never be built.
NEVER_BUILD = backend("raise SystemExit('this source distribution was built')")


@pytest.mark.parametrize(("version", "built"), [("2.8.3", False), ("2.8.2", True)])
def test_uv_reads_the_requirements_compat_records_instead_of_building(
    tmp_path: Path, version: str, built: bool
) -> None:
    requirements = write(tmp_path / "requirements.txt", f"flash-attn=={version}\n")
    index_projects = {
        "flash-attn": [
            Dist("flash-attn", v, wheel=False, metadata_file=False, backend=NEVER_BUILD)
            for v in ("2.8.2", "2.8.3")
        ],
        "torch": [Dist("torch", "2.8.0")],
        "einops": [Dist("einops", "0.8.1")],
    }
    with IndexServer(index_projects) as index:
        code, report = check(requirements, index, "uv", HERE)
    failed = report["summary"]["resolve_failed"]
    if built:  # the control: without the record uv builds it, and the build fails
        assert code == 3 and "this source distribution was built" in failed
        return
    assert failed is None and code in (0, 1)
    assert any(str(note).startswith("judged the install uv") for note in report["notes"])
    facts = {p["name"]: p["version"] for f in report["findings"] for p in f["packages"]}
    assert facts.get("flash-attn", version) == version
