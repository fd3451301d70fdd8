"""doctor on TheRock's multi-arch torch whose device code lies in `.kpack` archives (issue 43
item 3): the archives the library's `.rocm_kpack_ref` marker names are read (header and TOC, as
ROCm/rocm-kpack documents them) and their targets judged like any code objects; hostile markers
and archives are one note each and leave the device-package shortcut to judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.lib.doctor import doctor_report
from tests.lib.elfbuild import build
from tests.lib.kpackbuild import archive, marker, msgpack
from tests.lib.nativeenv import native_dist

LIB = "torch/lib/libtorch_hip.so"
KEY = "torch/lib/libtorch_hip.so"  # the marker's kernel_name; the TOC appends #N
VERSION = "2.11.0+rocm7.14.0"


def _amd(tmp: Path, target: str, name: str) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / f"{target}.json"
    gpu = {"index": 0, "name": name, "vendor": "amd", "gfx_target": target}
    path.write_text(json.dumps({"schema": "compat.hardware/1", "gpus": [gpu]}))
    return path


def _site(tmp: Path, kpacks: dict[str, bytes], ref: bytes | None = None) -> Path:
    site = tmp / "site"
    ref = marker(KEY, "../.kpack/torch_@GFXARCH@.kpack") if ref is None else ref
    lib = build(soname="libtorch_hip.so", sections={".rocm_kpack_ref": ref}).data
    native_dist(site, "torch", VERSION, {LIB: lib})
    for target, data in kpacks.items():
        native_dist(
            site,
            f"amd-torch-device-{target}",
            VERSION,
            {f"torch/.kpack/torch_{target}.kpack": data},
        )
    return site


def _report(site: Path, tmp: Path, target: str, name: str) -> dict[str, Any]:
    _, report = doctor_report(site, hardware=_amd(tmp, target, name))
    return report


def _findings(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["rule"]: f for f in report["findings"] if f["kind"] == "binary"}


def test_the_archives_toc_lists_the_targets_and_a_served_gpu_gets_nothing(tmp_path: Path) -> None:
    site = _site(tmp_path, {"gfx942": archive({f"{KEY}#0": ["gfx942"], "other.so#0": ["gfx942"]})})
    report = _report(site, tmp_path, "gfx942", "AMD Instinct MI300X")
    assert _findings(report) == {}
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files[LIB]["gfx_targets"] == ["gfx942"] and files[LIB]["kpack"] is True


def test_a_gpu_the_archives_do_not_carry_is_affected_naming_the_file(tmp_path: Path) -> None:
    # a device package installed for the family, but its archive carries gfx1100 only: the TOC
    # decides, not the package's name
    pack = archive(
        {f"{KEY}#0": ["gfx1100"], f"{KEY}#1": ["gfx1100"]},
        family="gfx110X",
        arches=["gfx1100", "gfx1101"],
    )
    site = _site(tmp_path, {"gfx11": pack})
    report = _report(site, tmp_path, "gfx1101", "AMD Radeon RX 7800 XT")
    found = _findings(report)["binary-no-kernel-image:torch"]
    assert found["status"] == "affected" and found["evidence"] == "observed"
    assert found["source"].endswith("libtorch_hip.so") and "gfx1101" in found["title"]
    assert _findings(_report(site, tmp_path / "b", "gfx1100", "AMD Radeon RX 7900 XTX")) == {}


def test_two_archives_add_up_and_another_librarys_entries_are_not_this_ones(tmp_path: Path) -> None:
    site = _site(
        tmp_path,
        {
            "gfx942": archive({f"{KEY}#0": ["gfx942"]}),
            "gfx950": archive({"torch/lib/libcaffe2_nvrtc.so#0": ["gfx950"]}, family="gfx950"),
        },
    )
    report = _report(site, tmp_path, "gfx950", "AMD Instinct MI355X")
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files[LIB]["gfx_targets"] == ["gfx942"]
    assert "binary-no-kernel-image:torch" in _findings(report)


HEADER_ONLY = b"KPAK" + (1).to_bytes(4, "little")
HOSTILE = {
    "magic": archive({f"{KEY}#0": ["gfx942"]}, magic=b"KPAC"),
    "version": archive({f"{KEY}#0": ["gfx942"]}, version=2),
    "offset past the end": archive({f"{KEY}#0": ["gfx942"]}, toc_offset=1 << 40),
    "truncated header": HEADER_ONLY,
    "truncated TOC": archive({f"{KEY}#0": ["gfx942"]})[:-7],
    "TOC not a map": archive({}, toc=msgpack(["gfx942"])),
    "toc entry not a map": archive({}, toc=msgpack({"gfx_arches": ["gfx942"], "toc": {KEY: 7}})),
    "container longer than data": archive({}, toc=b"\xdf\xff\xff\xff\xff"),
    "nested too deep": archive({}, toc=b"\x91" * 5000 + b"\xc0"),
    "ext type": archive({}, toc=b"\xd4\x01\x00"),
    "string not utf-8": archive({}, toc=b"\x81\xa2\xff\xfe\xc0"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_archive_is_one_note_and_the_shortcut_judges(tmp_path: Path, case: str) -> None:
    site = _site(tmp_path, {"gfx942": HOSTILE[case]})
    report = _report(site, tmp_path, "gfx942", "AMD Instinct MI300X")
    notes = [n for n in report["notes"] if "torch_gfx942.kpack" in n]
    assert len(notes) == 1, report["notes"]
    # the archive unread, amd-torch-device-gfx942 (the installed-package shortcut) serves it
    assert _findings(report) == {}
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files[LIB]["gfx_targets"] == []


@pytest.mark.parametrize(
    "ref",
    [b"\xc1garbage", msgpack({"kernel_name": KEY}), msgpack(["not", "a", "map"]), b"\x85"],
)
def test_a_hostile_marker_is_one_note(tmp_path: Path, ref: bytes) -> None:
    site = _site(tmp_path, {"gfx942": archive({f"{KEY}#0": ["gfx942"]})}, ref=ref)
    report = _report(site, tmp_path, "gfx942", "AMD Instinct MI300X")
    assert len([n for n in report["notes"] if ".rocm_kpack_ref not read" in n]) == 1
    assert _findings(report) == {}
