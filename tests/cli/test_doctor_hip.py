"""doctor on environments whose native files carry HIP code objects, judged against AMD
hardware profiles: each file's targets listed, a GPU no code object serves is affected naming
the file, a served GPU gets nothing, HSA_OVERRIDE_GFX_VERSION honoured, NVIDIA unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.lib.doctor import doctor_report
from tests.lib.elfbuild import Symbol, build
from tests.lib.hardware import profile
from tests.lib.hipbuild import aligned, bundle, ccob
from tests.lib.nativeenv import native_dist

REGISTERS = ("__hipRegisterFatBinary", "__hipRegisterFunction")


def _hip_library(section: bytes, needed: tuple[str, ...] = ("libamdhip64.so.6",)) -> bytes:
    symbols = tuple(Symbol(s, defined=False) for s in REGISTERS)
    return build(needed=needed, symbols=symbols, sections={".hip_fatbin": section}).data


def _amd(tmp: Path, target: str, name: str, count: int = 1, **top: Any) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / f"{target}.json"
    gpus = [{"index": i, "name": name, "vendor": "amd", "gfx_target": target} for i in range(count)]
    path.write_text(json.dumps({"schema": "compat.hardware/1", "gpus": gpus, **top}))
    return path


def _site(tmp: Path) -> Path:
    site = tmp / "site"
    native_dist(
        site,
        "ext",
        "1.0",
        {"ext/_C.so": _hip_library(aligned(ccob(bundle(["gfx90a:xnack-", "gfx942"]))))},
    )
    native_dist(
        site, "other", "2.0", {"other/_k.so": _hip_library(aligned(bundle(["gfx1100", "gfx942"])))}
    )
    return site


def _binary(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["rule"]: f for f in report["findings"] if f["kind"] == "binary"}


def test_targets_listed_and_a_served_gpu_gets_nothing(tmp_path: Path) -> None:
    site = _site(tmp_path)
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files["ext/_C.so"]["gfx_targets"] == ["gfx90a:xnack-", "gfx942"]
    assert files["other/_k.so"]["gfx_targets"] == ["gfx942", "gfx1100"]
    assert _binary(report) == {}


def test_a_gpu_no_code_object_serves_is_affected_naming_the_file(tmp_path: Path) -> None:
    site = _site(tmp_path)
    code, report = doctor_report(
        site, hardware=_amd(tmp_path, "gfx1151", "AMD Radeon 8060S Graphics")
    )
    found = _binary(report)
    assert set(found) == {"binary-no-kernel-image:ext", "binary-no-kernel-image:other"}
    ext = found["binary-no-kernel-image:ext"]
    assert ext["status"] == "affected" and ext["evidence"] == "observed"
    assert ext["source"].endswith("ext/_C.so")
    assert "gfx1151" in ext["title"] and "gfx90a:xnack- gfx942" in ext["title"]
    assert code == 1


def test_the_override_is_honoured(tmp_path: Path) -> None:
    site = _site(tmp_path)
    hardware = _amd(
        tmp_path, "gfx1151", "AMD Radeon 8060S Graphics", hsa_override_gfx_version="11.0.0"
    )
    _, report = doctor_report(site, hardware=hardware)
    found = _binary(report)
    # gfx1100 code loads under the override: `other` is served, `ext` still is not
    assert set(found) == {"binary-no-kernel-image:ext"}
    assert "HSA_OVERRIDE_GFX_VERSION=11.0.0" in found["binary-no-kernel-image:ext"]["title"]


def test_spirv_code_serves_a_gpu_no_native_code_object_names(tmp_path: Path) -> None:
    # one TU built for gfx942, another for amdgcnspirv (mixing the two in one --offload-arch
    # list is not supported: clang HIPSupport.rst): the runtime compiles the SPIR-V for a
    # Strix Halo when it loads it, so nothing there is affected; a file with gfx942 alone is
    site = tmp_path / "site"
    section = aligned(bundle(["gfx942"]), bundle(["amdgcnspirv"]))
    native_dist(site, "spv", "1.0", {"spv/_k.so": _hip_library(section)})
    native_dist(site, "native", "1.0", {"native/_k.so": _hip_library(aligned(bundle(["gfx942"])))})
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx1151", "AMD Radeon 8060S Graphics"))
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files["spv/_k.so"]["gfx_targets"] == ["gfx942", "amdgcnspirv"]
    assert set(_binary(report)) == {"binary-no-kernel-image:native"}


def test_gfx12_5_generic_code_serves_gfx1250_only(tmp_path: Path) -> None:
    # llvm-project#183381: gfx12-5-generic covers gfx1250 and gfx1251, not RDNA 4's gfx1201
    site = tmp_path / "site"
    native_dist(
        site, "gen", "1.0", {"gen/_k.so": _hip_library(aligned(bundle(["gfx12-5-generic"])))}
    )
    for target, affected in (("gfx1250", False), ("gfx1201", True)):
        _, report = doctor_report(site, hardware=_amd(tmp_path / target, target, "AMD GPU"))
        assert ("binary-no-kernel-image:gen" in _binary(report)) is affected, target


def test_mi250x_xnack_unknown_is_no_finding(tmp_path: Path) -> None:
    site = _site(tmp_path)
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx90a", "AMD Instinct MI250X", 2))
    assert "binary-no-kernel-image:ext" not in _binary(report)  # gfx90a:xnack- may run
    assert "binary-no-kernel-image:other" in _binary(report)


def test_nvidia_gpu_never_judges_hip_code(tmp_path: Path) -> None:
    site = _site(tmp_path)
    tmp_path.mkdir(exist_ok=True)
    hardware = profile(tmp_path, "NVIDIA A100-SXM4-80GB", "8.0", "570.133.20", "12.8", count=1)
    _, report = doctor_report(site, hardware=hardware)
    assert _binary(report) == {}


def _multi_arch(tmp: Path, device_version: str = "2.11.0+rocm7.14.0") -> Path:
    """TheRock's multi-arch torch: libtorch_hip.so with `.rocm_kpack_ref` and an emptied device
    section, its kernels in the per-GPU amd-torch-device-gfx942 distribution."""
    site = tmp / "site"
    lib = build(
        soname="libtorch_hip.so",
        needed=("libamdhip64.so.7",),
        sections={".rocm_kpack_ref": b"torch_lib.kpm\0"},
    ).data
    native_dist(site, "torch", "2.11.0+rocm7.14.0", {"torch/lib/libtorch_hip.so": lib})
    native_dist(site, "amd-torch-device-gfx942", device_version, {})
    return site


def test_multi_arch_torch_without_the_gpus_device_package(tmp_path: Path) -> None:
    site = _multi_arch(tmp_path)
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    assert _binary(report) == {}
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert files["torch/lib/libtorch_hip.so"]["kpack"] is True
    _, report = doctor_report(
        site, hardware=_amd(tmp_path / "n31", "gfx1100", "AMD Radeon RX 7900 XTX")
    )
    found = _binary(report)["binary-no-kernel-image:torch"]
    assert found["status"] == "affected" and "gfx1100" in found["title"]
    assert "device-gfx1100" in found["fix"]["summary"]
    # a family pack (amd-torch-device-gfx11) serves every gfx11 target
    native_dist(site, "amd-torch-device-gfx11", "2.11.0+rocm7.14.0", {})
    _, report = doctor_report(
        site, hardware=_amd(tmp_path / "n31b", "gfx1100", "AMD Radeon RX 7900 XTX")
    )
    assert _binary(report) == {}


def test_device_package_of_another_torch_build(tmp_path: Path) -> None:
    site = _multi_arch(tmp_path, device_version="2.11.0+rocm7.13.0")
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    found = _binary(report)["rocm-device-package-version:amd-torch-device-gfx942"]
    assert found["status"] == "affected" and found["evidence"] == "reported"
    assert "2.11.0+rocm7.13.0 beside torch 2.11.0+rocm7.14.0" in found["title"]
    placeholder = _multi_arch(tmp_path / "p", device_version="0.0.1.dev0")
    _, report = doctor_report(placeholder, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    title = _binary(report)["rocm-device-package-version:amd-torch-device-gfx942"]["title"]
    assert "placeholder" in title


def test_dt_needed_hip_major_another_than_the_environment_provides(tmp_path: Path) -> None:
    site = tmp_path / "site"
    runtime = build(soname="libamdhip64.so.6").data
    native_dist(site, "rocm-sdk-core", "6.4.1", {"_rocm_sdk_core/lib/libamdhip64.so.6": runtime})
    native_dist(
        site,
        "ext",
        "1.0",
        {"ext/_C.so": _hip_library(aligned(bundle(["gfx942"])), ("libamdhip64.so.7",))},
    )
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    found = _binary(report)
    assert any(rule.startswith("binary-library-major") for rule in found), found.keys()


def test_rocm_sdk_of_another_release_than_torch(tmp_path: Path) -> None:
    # rocm-cli#333: torch 2.11.0+rocm7.14.0 inside a ROCm 7.13.0 runtime
    site = _multi_arch(tmp_path)
    native_dist(site, "rocm-sdk-core", "7.13.0", {})
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    found = _binary(report)["rocm-sdk-against-torch:torch"]
    assert found["evidence"] == "reported" and "ROCm 7.14" in found["title"]
    same = _multi_arch(tmp_path / "same")
    native_dist(same, "rocm-sdk-core", "7.14.0", {})
    _, report = doctor_report(same, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    assert _binary(report) == {}


def test_multi_arch_torch_on_a_build_only_target_is_a_note(tmp_path: Path) -> None:
    site = _multi_arch(tmp_path)
    native_dist(site, "amd-torch-device-gfx90a", "2.11.0+rocm7.14.0", {})
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx90a", "AMD Instinct MI250X"))
    assert _binary(report) == {}
    assert any("gfx90a" in n and "not sanity-tested" in n for n in report["notes"])


def test_a_hipk_wrapped_file_is_never_judged_by_its_zeroed_fatbin(tmp_path: Path) -> None:
    """TheRock's kpack transform rewrites the fat-binary wrappers to HIPK and zero-pages
    `.hip_fatbin`, whose first page may keep a bundle header (ROCm/rocm-kpack,
    elf/kpack_transform.py): the runtime loads the device code from `.kpack` archives, so the
    leftover header's targets are not the file's, and a GPU they lack is no finding."""
    from tests.unit.binary.test_hip_wrapper import HIPK, leftover, wrappers

    symbols = tuple(Symbol(s, defined=False) for s in REGISTERS)
    sections = {".hipFatBinSegment": wrappers(HIPK), ".hip_fatbin": leftover(["gfx90a"])}
    lib = build(needed=("libamdhip64.so.7",), symbols=symbols, sections=sections).data
    site = tmp_path / "site"
    native_dist(site, "ext", "1.0", {"ext/_C.so": lib})
    _, report = doctor_report(site, hardware=_amd(tmp_path, "gfx942", "AMD Instinct MI300X"))
    assert _binary(report) == {}
    files = {f["path"]: f for f in report["environment"]["native"]["files"]}
    assert "gfx90a" not in files["ext/_C.so"].get("gfx_targets", [])
    assert any("HIPK" in n and "ext/_C.so" in n for n in report["notes"])
