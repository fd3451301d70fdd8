"""pin writes only releases that exist for the target (issue 32 item 3, problem 5), as a property
over every real requirement file and pyproject under tests/data/real, offline on an A100 / R535
profile: every `==` line names a release the snapshot or the wheel table records (or the user's
own pin, kept), installable on the target's Python, and a torch CUDA build is one PyTorch
publishes for that release. Plus the two cases the issue names."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.kb import torchbuilds, wheels
from compat.resolve.sources import snapshot
from tests.checkcli import write
from tests.conftest import run_cli
from tests.lib import paths
from tests.lib.hardware import profile_file
from tests.lib.sessioncache import built_once, run_root

PYTHON = Version(f"{sys.version_info.major}.{sys.version_info.minor}")
REAL = sorted(
    path
    for path in paths.REAL.rglob("*")
    if path.is_file()
    and (
        (path.suffix == ".txt" and "requirements" in path.name.lower())
        or path.name.endswith("pyproject.toml")
    )
)


def pin(request: pytest.FixtureRequest, file: Path) -> dict[str, Any]:
    """`compat pin -r FILE --offline` on the R535 profile, run once per run of the suite for
    this file's path and bytes (sessioncache): LLaVA's pin serves two tests."""

    def build(directory: Path) -> None:
        hardware = profile_file(directory / "hw")
        argv = ["pin", "-r", str(file), "--offline", "--hardware", str(hardware)]
        result = run_cli([*argv, "--format", "json"])
        (directory / "exit_code").write_text(str(result.exit_code))
        (directory / "stderr").write_text(result.stderr, "utf-8")
        (directory / "stdout").write_text(result.stdout, "utf-8")

    directory = built_once("pin-r535", [str(file), file], build, run_root(request))
    exit_code = int((directory / "exit_code").read_text())
    stderr = (directory / "stderr").read_text("utf-8")
    if exit_code == 3 and "no distributions found" in stderr:
        return {"pins": []}  # a file of includes and options only: nothing to pin
    assert exit_code in (0, 1), stderr
    document: dict[str, Any] = json.loads((directory / "stdout").read_text("utf-8"))
    return document


def user_pins(text: str) -> set[tuple[NormalizedName, Version]]:
    from packaging.requirements import InvalidRequirement, Requirement

    out = set()
    for line in text.replace('"', "\n").replace("'", "\n").splitlines():
        try:
            requirement = Requirement(line.split("#")[0].strip().rstrip(","))
        except InvalidRequirement:
            continue
        for spec in requirement.specifier:
            if spec.operator in ("==", "===") and not spec.version.endswith(".*"):
                out.add((canonicalize_name(requirement.name), Version(spec.version)))
    return out


def exists(name: NormalizedName, version: Version) -> bool | None:
    """Whether a table records the release (None: no table covers the package)."""
    public = Version(version.public)
    if snapshot.covers(name):
        if public not in snapshot.published(name):
            return False
    elif name not in wheels.names():
        return None
    elif public not in wheels.releases(name):
        return False
    if version.local and name == "torch":
        cuda = torchbuilds.local_label_cuda(str(version.local))
        if cuda is None or cuda not in (torchbuilds.cuda_variants(public) or ()):
            return False
    found = wheels.availability(name, public, "linux/x86_64", PYTHON)
    if found is not None and found[0] == "none":
        return False
    record = next((r for r in snapshot.records(name) if r.version == public), None)
    return not (record is not None and (record.yanked or record.installable(PYTHON) is False))


@pytest.mark.parametrize("file", REAL, ids=lambda p: str(p.relative_to(paths.REAL)))
def test_every_exact_pin_pin_writes_is_a_release_for_the_target(
    request: pytest.FixtureRequest, file: Path
) -> None:
    document = pin(request, file)
    own = user_pins(file.read_text(encoding="utf-8"))
    for entry in document["pins"]:
        constraint = entry.get("constraint") or ""
        if "==" not in constraint:
            continue  # a range (no release list offline) or left to the resolver
        name = canonicalize_name(entry["name"])
        version = Version(constraint.split("==", 1)[1].split(";")[0].strip())
        if not entry["changed"] and (name, Version(version.public)) in {
            (n, Version(v.public)) for n, v in own
        }:
            continue  # the user's own pin, kept: check judges whether it exists
        assert exists(name, version) is not False, (constraint, entry)
        assert exists(name, version) is not None, f"{constraint}: no release list, yet `==`"


def test_llava_gets_a_numpy_release_not_a_rule_boundary(request: pytest.FixtureRequest) -> None:
    """NumPy went from 1.26 to 2.0: `numpy==1.27` (a rule's boundary) is refused by pip."""
    document = pin(request, paths.REAL / "resolve" / "LLaVA-pyproject.toml")
    (numpy,) = [p for p in document["pins"] if p["name"] == "numpy"]
    version = Version(numpy["constraint"].split("==")[1])
    assert version in snapshot.published(NormalizedName("numpy")) and version < Version("2")


@pytest.mark.skipif(Version("3.11") != PYTHON, reason="the case is about CPython 3.11")
def test_torch_is_never_moved_to_a_build_with_no_wheel_for_the_python(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """torch 1.12.1's wheels stop at CPython 3.10, on PyPI and on PyTorch's cu116 index alike:
    `torch==1.12.1+cu116` cannot install on 3.11 (the issue's PROOF FAILED)."""
    requirements = write(
        tmp_path / "requirements.txt",
        "datasets==2.11.0\nsentencepiece==0.1.97\nprotobuf==4.22.1\naccelerate==0.18.0\n"
        "torch==1.12.1\ndeepspeed @ git+https://github.com/microsoft/DeepSpeed.git\n"
        "transformers @ git+https://github.com/huggingface/transformers.git\n",
    )
    document = pin(request, requirements)
    (torch,) = [p for p in document["pins"] if p["name"] == "torch"]
    version = Version(torch["constraint"].split("==")[1])
    assert Version(version.public) >= Version("1.13")
    assert exists(NormalizedName("torch"), version)
