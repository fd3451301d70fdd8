"""Real ROCm wheels (tests/data/native-rocm, scripts/hip_fixtures.py): every file's HIP targets
as LLVM's clang-offload-bundler lists them in the original, read by compat from the skeleton;
and doctor on environments of those wheels against AMD profiles: a GPU none of a package's code
objects serve is affected naming the file, a served GPU gets nothing."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

import pytest

from compat.binary.elf import read_elf
from tests.lib.doctor import doctor_report
from tests.lib.paths import DATA
from tests.lib.skeleton import restore

ROCM = DATA / "native-rocm"
MANIFEST: dict[str, Any] = json.loads((ROCM / "MANIFEST.json").read_text())
MEMBERS = [(w, m) for w in MANIFEST["wheels"] for m in w["members"]]


@pytest.mark.parametrize(
    ("wheel", "member"), MEMBERS, ids=[f"{w['project']}:{m['path']}" for w, m in MEMBERS]
)
def test_targets_as_the_bundler_lists_them(
    wheel: dict[str, Any], member: dict[str, Any], tmp_path: Path
) -> None:
    path = restore(ROCM / member["skeleton"], tmp_path / "lib.so")
    hip = read_elf(str(path)).hip
    expected = member.get("hip")
    if expected is None:
        assert hip is None
        return
    assert hip is not None and hip.unread == 0
    assert sorted(hip.targets) == sorted(expected["targets"])
    assert hip.bundles == expected["bundles"] and hip.compressed == expected["compressed"]


def install(site: Path, *projects: str) -> Path:
    """The wheels' dist-info files and their skeleton native files, as pip lays them out."""
    for wheel in MANIFEST["wheels"]:
        if wheel["project"] not in projects:
            continue
        folder = ROCM / wheel["wheel"].removesuffix(".whl")
        for name in wheel["dist_info"]:
            target = site / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(lzma.decompress((folder / f"{name}.xz").read_bytes()))
        for member in wheel["members"]:
            restore(ROCM / member["skeleton"], site / member["path"])
    return site


def amd(tmp: Path, target: str, name: str, **top: Any) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / f"{target}.json"
    gpu = {"index": 0, "name": name, "vendor": "amd", "gfx_target": target}
    path.write_text(json.dumps({"schema": "compat.hardware/1", "gpus": [gpu], **top}))
    return path


def no_kernel(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        f["rule"]: f for f in report["findings"] if f["rule"].startswith("binary-no-kernel-image:")
    }


def test_mi300x_cupy_for_rocm_5_has_no_gfx942_and_jax_is_served(tmp_path: Path) -> None:
    site = install(tmp_path / "site", "jax-rocm60-plugin", "jax-rocm7-plugin", "cupy-rocm-5-0")
    _, report = doctor_report(site, hardware=amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    found = no_kernel(report)
    assert set(found) == {"binary-no-kernel-image:cupy-rocm-5-0"}
    cupy = found["binary-no-kernel-image:cupy-rocm-5-0"]
    assert cupy["status"] == "affected" and cupy["evidence"] == "observed"
    assert cupy["source"].endswith(".cpython-311-x86_64-linux-gnu.so")
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files["jax_rocm7_plugin/_linalg.so"]["gfx_targets"] == [
        "gfx908", "gfx90a", "gfx9-4-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic",
    ]  # fmt: skip


def test_strix_halo_generic_code_serves_it_and_rocm6_jax_does_not(tmp_path: Path) -> None:
    site = install(tmp_path / "site", "jax-rocm60-plugin", "jax-rocm7-plugin")
    _, report = doctor_report(site, hardware=amd(tmp_path, "gfx1151", "AMD Radeon 8060S Graphics"))
    found = no_kernel(report)
    # jax-rocm7-plugin's gfx11-generic serves gfx1151; jax-rocm60-plugin 0.5.0 stops at gfx1100
    assert set(found) == {"binary-no-kernel-image:jax-rocm60-plugin"}
    assert "gfx1151" in found["binary-no-kernel-image:jax-rocm60-plugin"]["title"]
    # with HSA_OVERRIDE_GFX_VERSION=11.0.0 the runtime loads gfx1100 code: served
    _, report = doctor_report(
        site,
        hardware=amd(
            tmp_path / "o",
            "gfx1151",
            "AMD Radeon 8060S Graphics",
            hsa_override_gfx_version="11.0.0",
        ),
    )
    assert no_kernel(report) == {}


def test_onnxruntime_rocm_on_a_strix_halo_and_an_mi300x(tmp_path: Path) -> None:
    site = install(tmp_path / "site", "onnxruntime-rocm")
    _, report = doctor_report(site, hardware=amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    assert no_kernel(report) == {}
    _, report = doctor_report(
        site, hardware=amd(tmp_path / "s", "gfx1151", "AMD Radeon 8060S Graphics")
    )
    found = no_kernel(report)["binary-no-kernel-image:onnxruntime-rocm"]
    assert found["source"].endswith("libonnxruntime_providers_rocm.so")


def test_bitsandbytes_rocm_variant_is_the_one_torchs_rocm_build_loads(tmp_path: Path) -> None:
    # bitsandbytes 0.50.2 ships libbitsandbytes_rocm64/70/71/714/715/72.so; it loads the one
    # torch.version.hip names. gfx950 (MI355X) is in rocm70+ but not in rocm64.
    from tests.dists import make_dist

    for torch, affected in (("2.9.1+rocm7.1", False), ("2.8.0+rocm6.4", True)):
        site = install(tmp_path / torch / "site", "bitsandbytes")
        make_dist(site, "torch", torch)
        _, report = doctor_report(
            site, hardware=amd(tmp_path / torch, "gfx950", "AMD Instinct MI355X")
        )
        found = no_kernel(report).get("binary-no-kernel-image:bitsandbytes")
        if affected:
            assert found is not None and found["source"].endswith("libbitsandbytes_rocm64.so")
        else:
            assert found is None, found
        libraries = [f for f in report["findings"] if f["rule"].startswith("binary-library")]
        assert libraries == []  # the other variants' libhipblas.so.2 is never loaded


def _rocm_runtime(site: Path, dist: str, version: str, sonames: dict[str, str]) -> None:
    """A ROCm runtime distribution laid out as TheRock's rocm-sdk wheels are: each library file
    under _rocm_sdk_*/lib/ with its SONAME."""
    from tests.lib.elfbuild import build
    from tests.lib.nativeenv import native_dist

    native_dist(site, dist, version, {path: build(soname=s).data for path, s in sonames.items()})


def library_major(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        f["rule"]: f for f in report["findings"] if f["rule"].startswith("binary-library-major")
    }


def test_real_rocm_wheels_dt_needed_majors_against_the_rocm_installed(tmp_path: Path) -> None:
    # The real wheels' DT_NEEDED (read from the skeletons, as the originals list them):
    # jax-rocm7-plugin 0.10.0 needs libamdhip64.so.7 / libhipblas.so.3 / libMIOpen.so.1,
    # cupy-rocm-5-0 libamdhip64.so.5, onnxruntime-rocm 1.22.2.post3's provider libamdhip64.so.7,
    # libhipblas.so.3 and libMIOpen.so.1. Beside ROCm 6 (libamdhip64.so.6, libhipblas.so.2):
    site = install(tmp_path / "site", "jax-rocm7-plugin", "cupy-rocm-5-0", "onnxruntime-rocm")
    six = {
        "_rocm_sdk_core/lib/libamdhip64.so.6": "libamdhip64.so.6",
        "_rocm_sdk_libraries/lib/libhipblas.so.2": "libhipblas.so.2",
        "_rocm_sdk_libraries/lib/libMIOpen.so.1": "libMIOpen.so.1",
    }
    _rocm_runtime(site, "rocm-sdk-core", "6.4.1", six)
    _, report = doctor_report(site, hardware=amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    found = library_major(report)
    assert set(found) == {
        "binary-library-major:jax-rocm7-plugin",
        "binary-library-major:cupy-rocm-5-0",
        "binary-library-major:onnxruntime-rocm",
    }
    jax = found["binary-library-major:jax-rocm7-plugin"]
    assert jax["status"] == "affected" and jax["evidence"] == "observed"
    assert "libamdhip64.so.6" in jax["title"] and "import fails" in jax["title"]
    needed = " ".join(found["binary-library-major:cupy-rocm-5-0"]["matched"])
    assert "DT_NEEDED libamdhip64.so.5" in needed
    # onnxruntime's ROCm provider is opened at run time: the import works, the session fails
    onnx = found["binary-library-major:onnxruntime-rocm"]["title"]
    assert "libonnxruntime_providers_rocm.so" in onnx and "import works" in onnx
    # MIOpen keeps soname major 1 across ROCm 5-7: provided, never a wrong major
    assert all("libMIOpen" not in f["title"] for f in found.values())


def test_real_rocm_wheels_served_by_their_own_rocm_major(tmp_path: Path) -> None:
    site = install(tmp_path / "site", "jax-rocm7-plugin")
    seven = {
        "_rocm_sdk_core/lib/libamdhip64.so.7": "libamdhip64.so.7",
        "_rocm_sdk_libraries/lib/libhipblas.so.3": "libhipblas.so.3",
        "_rocm_sdk_libraries/lib/libMIOpen.so.1": "libMIOpen.so.1",
    }
    _rocm_runtime(site, "rocm-sdk-core", "7.10.0", seven)
    _, report = doctor_report(site, hardware=amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    assert library_major(report) == {}


def test_real_rocm7_wheel_on_a_machine_whose_rocm_is_6(tmp_path: Path) -> None:
    # jax-rocm7-plugin 0.10.0 brings no HIP runtime (its files need libamdhip64.so.7): on a
    # machine whose /opt/rocm is 6.4.1 the loader finds ROCm 6's, a possible finding
    site = install(tmp_path / "site", "jax-rocm7-plugin", "jax-rocm60-plugin")
    hardware = amd(tmp_path, "gfx942", "AMD Instinct MI300X", rocm_version="6.4.1")
    _, report = doctor_report(site, hardware=hardware)
    found = {f["rule"]: f for f in report["findings"] if f["rule"].startswith("binary-rocm-major")}
    assert set(found) == {"binary-rocm-major:jax-rocm7-plugin"}  # rocm60's .so.6 is served
    jax = found["binary-rocm-major:jax-rocm7-plugin"]
    assert jax["status"] == "possible" and jax["evidence"] == "observed"
    assert "libamdhip64.so.7" in jax["title"] and "6.4.1" in jax["title"]
    # ROCm 7 on the machine serves it, and then the ROCm 6 plugin is the one left without
    seven = amd(tmp_path / "7", "gfx942", "AMD Instinct MI300X", rocm_version="7.1.0")
    _, report = doctor_report(site, hardware=seven)
    rules = {f["rule"] for f in report["findings"] if f["rule"].startswith("binary-rocm-major")}
    assert rules == {"binary-rocm-major:jax-rocm60-plugin"}
    # an installed runtime (TheRock's wheels) decides instead of the machine's
    _rocm_runtime(
        site, "rocm-sdk-core", "7.10.0", {"_rocm_sdk_core/lib/libamdhip64.so.7": "libamdhip64.so.7"}
    )
    _, report = doctor_report(site, hardware=hardware)
    assert not [f for f in report["findings"] if f["rule"].startswith("binary-rocm-major")]
