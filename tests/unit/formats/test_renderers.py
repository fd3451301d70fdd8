"""Snapshot tests per renderer: one fixed Report (an affected and a possible finding, with
packages, unknowns, a fix, symptoms and notes) rendered by text, markdown, github, sarif and
json, compared byte for byte with tests/snapshots/report.<format>. A renderer change shows as a
diff here, not as a surprise in a user's CI log.

    COMPAT_UPDATE_SNAPSHOTS=1 pytest tests/unit/formats/test_renderers.py   # after an intended change
"""

from __future__ import annotations

import os

import pytest
from packaging.utils import NormalizedName
from packaging.version import Version

from compat import __version__
from compat.formats import formatter
from compat.model import (
    Evidence,
    Finding,
    Fix,
    Gpu,
    Hardware,
    MatchedPackage,
    Origin,
    Rule,
    Severity,
    Status,
    Symptom,
    Unknown,
)
from compat.report import Report
from tests.lib import paths

SNAPSHOTS = paths.SNAPSHOTS
FORMATS = ("text", "markdown", "github", "sarif", "json", "junit", "gitlab")


class _Never:
    """A rule condition the renderers never read."""


def _rule(rule_id: str, severity: Severity, evidence: Evidence, fix: Fix) -> Rule:
    return Rule(
        id=rule_id,
        title=f"{rule_id.replace('-', ' ')} (title)",
        severity=severity,
        evidence=evidence,
        when=_Never(),  # type: ignore[arg-type]
        fix=fix,
        references=("https://github.com/example/project/issues/1",),
        symptoms=(Symptom(r"CUDA error: no kernel image .* device \d+"),),
        description="What goes wrong, and when.",
        origin=Origin("compat/matrix/example.yaml", 12),
    )


def report() -> Report:
    affected = Finding(
        _rule(
            "deepspeed-zero3-example",
            Severity.ERROR,
            Evidence.VERIFIED,
            Fix("upgrade deepspeed", ("deepspeed>=0.14.3",)),
        ),
        Status.AFFECTED,
        packages=(
            MatchedPackage(NormalizedName("deepspeed"), "0.14.2", Origin("requirements.txt", 3)),
        ),
        matched=("deepspeed 0.14.2 in <0.14.3", "usage.zero_stage 3"),
    )
    possible = Finding(
        _rule(
            "vllm-gpu-example",
            Severity.WARNING,
            Evidence.REPORTED,
            Fix("pin vllm", ("vllm<0.7",), change="set VLLM_USE_V1=0"),
        ),
        Status.POSSIBLE,
        packages=(MatchedPackage(NormalizedName("vllm"), "0.7.3"),),
        unknown=(Unknown("usage.use_vllm", "--set use_vllm=true"),),
        matched=("vllm 0.7.3 in >=0.7",),
    )
    hardware = Hardware(
        driver_version=Version("535.104.5"),
        cuda_driver_version=Version("12.2"),
        gpus=(Gpu(0, "NVIDIA A100-SXM4-80GB", compute_capability=Version("8.0")),),
        source="profile r535.json",
        driver_text="535.104.05",
    )
    return Report(
        findings=(affected, possible),
        kb_rules=98,
        kb_digest="sha256:" + "0" * 64,
        environment={"source": "files requirements.txt", "python": "3.11", "packages": 2},
        hardware=hardware,
        hardware_note="profile r535.json",
        notes=("a note the run says once",),
        usage={"zero_stage": 3},
        files=("requirements.txt",),
        kb_version="0.0.0",
    )


@pytest.mark.parametrize("name", FORMATS)
def test_renderer_matches_its_snapshot(name: str) -> None:
    from compat.formats.locations import repository_root

    text = formatter(name)(report(), False).replace(__version__, "<VERSION>")
    # SARIF's SRCROOT is where the repository lies on this machine (issue 42 item 4)
    text = text.replace(repository_root().as_uri() + "/", "file:///<SRCROOT>/")
    path = SNAPSHOTS / f"report.{name}"
    if os.environ.get("COMPAT_UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with COMPAT_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")


def test_a_changed_renderer_fails_its_snapshot() -> None:
    """The comparison can fail: a report with one finding less is not the snapshot."""
    base = report()
    smaller = Report(**{**base.__dict__, "findings": base.findings[:1]})
    text = formatter("text")(smaller, False).replace(__version__, "<VERSION>")
    assert text != (SNAPSHOTS / "report.text").read_text(encoding="utf-8")
