"""torch's ROCm build read from the installed files (its label, torch/version.py's `hip`,
TheRock's device distributions), never by importing torch, and ROCm versions ordered as numbers
across the 7 -> 10 renumbering (TheRock#7183: PEP 440 sorts `+rocm10.0` below `+rocm7.0`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from compat.facts.installed import read_paths
from compat.probes.cuda import build_facts
from compat.probes.rocmbuild import device_targets, rocm_from_local_label
from tests.dists import make_dist


@pytest.mark.parametrize(
    ("label", "rocm"),
    [
        ("2.6.0+rocm6.2.4", "6.2"),
        ("2.9.1+rocm7.10.0", "7.10"),
        ("2.10.0a0+rocm7.10.0a20251024", "7.10"),
        ("2.12.0+rocm10.0", "10.0"),
        ("2.12.0+rocm10.1.0a20260811.bkc.20260813", "10.1"),
        ("2.4.1+rocm6.1", "6.1"),
        ("2.6.0+cu124", None),
        ("2.6.0+cpu", None),
        ("2.6.0", None),
    ],
)
def test_label(label: str, rocm: str | None) -> None:
    found = rocm_from_local_label(Version(label))
    assert (str(found) if found else None) == rocm


def test_rocm_10_is_above_7_as_numbers_not_as_pep440_labels() -> None:
    ten, seven = Version("2.12.0+rocm10.0"), Version("2.12.0+rocm7.0")
    assert ten < seven  # the PEP 440 ordering TheRock#7183 reports
    ten_build, seven_build = rocm_from_local_label(ten), rocm_from_local_label(seven)
    assert ten_build is not None and seven_build is not None and ten_build > seven_build


def _env(site: Path):  # type: ignore[no-untyped-def]
    return read_paths([site])


def test_build_facts_from_label_version_py_and_device_dists(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "torch", "2.11.0+rocm7.14.0")
    make_dist(site, "amd-torch-device-gfx942", "2.11.0+rocm7.14.0")
    make_dist(site, "rocm-sdk-device-gfx942", "7.13.0")
    make_dist(site, "rocm-sdk-core", "7.13.0")
    builds = build_facts(_env(site), with_nvcc=False)
    assert builds["torch_rocm"] == Version("7.14")
    assert builds["rocm_sdk"] == Version("7.13")
    assert "torch_cuda" not in builds
    versions = {n: p.version for n, p in _env(site).packages.items()}
    assert device_targets(versions) == {
        "amd-torch-device": {"gfx942": Version("2.11.0+rocm7.14.0")},
        "rocm-sdk-device": {"gfx942": Version("7.13.0")},
    }
    # no label: torch/version.py says it (`hip = '6.4.43482-0f2d60242'`)
    other = tmp_path / "other"
    make_dist(other, "torch", "2.8.0")
    (other / "torch").mkdir()
    (other / "torch" / "version.py").write_text(
        "__version__ = '2.8.0'\ncuda: Optional[str] = None\nhip: Optional[str] = '6.4.43482-0f2d60242'\n"
    )
    assert build_facts(_env(other), with_nvcc=False)["torch_rocm"] == Version("6.4")
