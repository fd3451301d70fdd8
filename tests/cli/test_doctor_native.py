"""doctor reads the installed native files (issue 33): symbols against the installed torch's
exports, GPU code against the GPUs, needed libraries against what the environment provides, and
files two distributions own. Real ELF files written by tests/lib/elfbuild, real dist-info
directories, the CLI through typer's runner; nothing of compat's reader is faked."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.dists import make_dist
from tests.lib.doctor import doctor_report, finding
from tests.lib.hardware import profile
from tests.lib.nativeenv import (
    CHECK_FAIL_CXX11,
    CHECK_FAIL_OLD,
    TENSOR_DIM,
    library,
    native_dist,
)

TORCH_EXPORTS = (CHECK_FAIL_CXX11, TENSOR_DIM)
REGISTERS = ("__cudaRegisterFatBinary", "__cudaRegisterFunction")


def torch_site(site: Path, version: str = "2.8.0") -> Path:
    native_dist(
        site,
        "torch",
        version,
        {
            "torch/lib/libc10.so": library(soname="libc10.so", defines=TORCH_EXPORTS[:1]),
            "torch/lib/libtorch_cpu.so": library(
                soname="libtorch_cpu.so", needed=("libc10.so",), defines=TORCH_EXPORTS[1:]
            ),
        },
    )
    return site


def extension(
    site: Path,
    *,
    name: str = "ext",
    version: str = "1.0",
    undefined: tuple[str, ...] = (CHECK_FAIL_CXX11, TENSOR_DIM),
    requires: tuple[str, ...] = (),
    **elf: Any,
) -> Path:
    data = library(needed=("libc10.so", "libtorch_cpu.so"), undefined=undefined, **elf)
    native_dist(site, name, version, {f"{name}/_C.so": data}, requires=requires)
    return site / name / "_C.so"


def binary_findings(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["rule"]: f for f in report["findings"] if f["kind"] == "binary"}


def a100(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return profile(tmp_path, "NVIDIA A100-SXM4-80GB", "8.0", "570.133.20", "12.8", count=1)


def rtx5090(tmp_path: Path) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return profile(tmp_path, "NVIDIA GeForce RTX 5090", "12.0", "575.57.08", "12.9", count=1)


def test_a_clean_environment_lists_every_native_file_and_finds_nothing(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    extension(site, sass=(80, 90))
    _, report = doctor_report(site, hardware=a100(tmp_path))
    assert binary_findings(report) == {}
    native = report["environment"]["native"]
    assert native["read"] == 3 and native["unreadable"] == 0
    files = {f["path"]: f for f in native["files"]}
    assert set(files) == {"ext/_C.so", "torch/lib/libc10.so", "torch/lib/libtorch_cpu.so"}
    assert files["ext/_C.so"]["sass"] == ["sm_80", "sm_90"]
    assert files["ext/_C.so"]["torch_symbols"] == 2
    assert files["torch/lib/libtorch_cpu.so"]["needed"] == ["libc10.so"]
    assert any(n.startswith("read 3 native files of 2 distributions") for n in report["notes"])


def test_an_extension_built_against_another_torch_is_affected(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    path = extension(site, undefined=(CHECK_FAIL_OLD, TENSOR_DIM), requires=("torch==2.5.1",))
    code, report = doctor_report(site)
    assert code == 1
    found = binary_findings(report)["binary-symbols:ext"]
    assert found["status"] == "affected" and found["evidence"] == "observed"
    assert found["source"] == str(path)
    assert "c10::detail::torchCheckFail" in found["title"]  # demangled
    assert "other C++ ABI" in found["title"]  # torch exports the name under the C++11 ABI
    assert found["fix"]["constraints"] == ["torch==2.5.1"]  # the torch ext's metadata pins
    assert [p["name"] for p in found["packages"]] == ["ext", "torch"]
    # observed findings rank first among affected ones
    affected = [f for f in report["findings"] if f["status"] == "affected"]
    assert affected[0]["rule"] == "binary-symbols:ext"


def test_without_torch_the_symbols_are_a_note_not_a_finding(tmp_path: Path) -> None:
    site = tmp_path / "site"
    extension(site, undefined=(CHECK_FAIL_OLD,))
    _, report = doctor_report(site)
    assert binary_findings(report) == {}
    assert any("torch is not installed here" in n for n in report["notes"])


def test_no_kernel_for_the_gpu_ptx_only_and_no_device_code(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    extension(site, name="sassonly", sass=(80, 90))
    extension(site, name="withptx", sass=(80,), ptx=(80,))
    extension(site, name="nocode", undefined=(TENSOR_DIM, *REGISTERS))
    extension(site, name="emptyfat", undefined=REGISTERS, empty_fatbin=True)
    _, report = doctor_report(site, hardware=rtx5090(tmp_path))
    found = binary_findings(report)
    assert found["binary-no-kernel-image:sassonly"]["status"] == "affected"
    assert "sm_120" in found["binary-no-kernel-image:sassonly"]["title"]
    assert "binary-no-kernel-image:withptx" not in found  # PTX at or below sm_120: JIT
    assert any("withptx" in n and "JIT-compiles" in n for n in report["notes"])
    assert found["binary-no-device-code:nocode"]["status"] == "affected"
    assert found["binary-no-device-code:emptyfat"]["status"] == "affected"
    # the same files on an A100 (sm_80): every kernel has an image
    _, report = doctor_report(site, hardware=a100(tmp_path / "a100"))
    assert set(binary_findings(report)) == {
        "binary-no-device-code:nocode",
        "binary-no-device-code:emptyfat",
    }


def test_arch_specific_sass_runs_only_on_its_own_capability(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    from tests.lib.elfbuild import FatEntry, build, fatbin_container

    fat = fatbin_container([FatEntry(2, 90, flags=0x11 | 0x10_0000)])  # sm_90a
    native_dist(site, "hopper", "1.0", {"hopper/_C.so": build(sections={".nv_fatbin": fat}).data})
    h100 = profile(tmp_path, "NVIDIA H100 80GB HBM3", "9.0", "570.133.20", "12.8", count=1)
    _, report = doctor_report(site, hardware=h100)
    assert binary_findings(report) == {}
    _, report = doctor_report(site, hardware=rtx5090(tmp_path / "b"))
    assert "binary-no-kernel-image:hopper" in binary_findings(report)


# (target, GPU capability) -> how the GPU runs it. PTX ISA §11.1.2 (`.target`) and the CUDA
# Programming Guide §5.1.2.3: plain PTX runs on its capability and every later one; family `f`
# PTX only on later devices of its family (100f: 10.0, 10.3; 120f: 12.0, 12.1); arch-specific `a`
# PTX only on its own architecture. SASS: its major at an equal or higher minor, `a` exactly.
# At dcac521 `f` PTX ran everywhere later (100f on 12.0: a wrong JIT note, no finding) and `a`
# PTX nowhere (90a on 9.0: a false binary-no-kernel-image).
_A, _F = 0x11 | 0x10_0000, 0x11 | 0x20_0000
_TARGETS: dict[str, tuple[int, int, int]] = {  # dist name -> (kind, arch, flags)
    "ptx80": (1, 80, 0x11),
    "ptx90a": (1, 90, _A),
    "ptx100f": (1, 100, _F),
    "ptx100a": (1, 100, _A),
    "ptx120f": (1, 120, _F),
    "sm100f": (2, 100, _F),
    "sm90a": (2, 90, _A),
}
_GPUS = {
    "9.0": ("NVIDIA H100 80GB HBM3", {"ptx80", "ptx90a", "sm90a"}),
    "10.0": ("NVIDIA B200", {"ptx80", "ptx100f", "ptx100a", "sm100f"}),
    "10.3": ("NVIDIA B300 SXM6 AC", {"ptx80", "ptx100f", "sm100f"}),
    "12.0": ("NVIDIA GeForce RTX 5090", {"ptx80", "ptx120f"}),
    "12.1": ("NVIDIA GB10", {"ptx80", "ptx120f"}),
}


def test_which_targets_a_gpu_runs_follow_nvidias_table(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    from tests.lib.elfbuild import FatEntry, build, fatbin_container

    for name, (kind, arch, flags) in _TARGETS.items():
        fat = fatbin_container([FatEntry(kind, arch, flags=flags)])
        native_dist(site, name, "1.0", {f"{name}/_C.so": build(sections={".nv_fatbin": fat}).data})
    for cc, (gpu, runs) in _GPUS.items():
        (tmp_path / cc).mkdir()
        hardware = profile(tmp_path / cc, gpu, cc, "590.44.01", "13.1", count=1)
        _, report = doctor_report(site, hardware=hardware)
        no_image = {
            rule.partition(":")[2]
            for rule in binary_findings(report)
            if rule.startswith("binary-no-kernel-image:")
        }
        assert no_image == set(_TARGETS) - runs, cc
        jit = {
            n
            for n in _TARGETS
            if any(f"{n} " in note and "JIT" in note for note in report["notes"])
        }
        assert jit == {name for name in runs if _TARGETS[name][0] == 1}, cc


def test_per_cuda_variant_libraries_judge_only_the_one_torch_loads(tmp_path: Path) -> None:
    """bitsandbytes ships one library per CUDA runtime; only torch's CUDA build's is loaded."""
    site = tmp_path / "site"
    from tests.dists import torch_dist

    torch_dist(site, "2.5.1+cu124", "12.4")
    native_dist(
        site,
        "bitsandbytes",
        "0.45.0",
        {
            "bitsandbytes/libbitsandbytes_cuda118.so": library(sass=(80,)),
            "bitsandbytes/libbitsandbytes_cuda124.so": library(sass=(80, 120)),
        },
    )
    _, report = doctor_report(site, hardware=rtx5090(tmp_path))
    assert "binary-no-kernel-image:bitsandbytes" not in binary_findings(report)


def test_a_library_in_another_major_and_one_nobody_provides(tmp_path: Path) -> None:
    site = tmp_path / "site"
    native_dist(
        site,
        "nvidia-cuda-runtime-cu12",
        "12.4.127",
        {"nvidia/cuda_runtime/lib/libcudart.so.12": library(soname="libcudart.so.12")},
    )
    native_dist(
        site, "old", "1.0", {"old/_C.so": library(needed=("libcudart.so.11.0", "libfoo.so.3"))}
    )
    code, report = doctor_report(site)
    assert code == 1
    found = binary_findings(report)["binary-library-major:old"]
    assert "libcudart.so.11.0" in found["title"] and "libcudart.so.12" in found["title"]
    assert any("libfoo.so.3 (old)" in n for n in report["notes"])  # a note: the system may have it
    assert not any(f.endswith("libfoo.so.3") for f in binary_findings(report))


def test_a_wrong_major_names_what_fails_import_or_the_provider(tmp_path: Path) -> None:
    """onnxruntime-gpu's layout: the extension module `import onnxruntime` loads needs no CUDA
    library; the CUDA execution provider (libonnxruntime_providers_cuda.so) is opened when a CUDA
    session is created. A provider built for CUDA 11 beside CUDA 12 libraries: the import works,
    the session fails. The title used to say "its import fails" for both."""
    site = tmp_path / "site"
    native_dist(
        site,
        "nvidia-cublas-cu12",
        "12.4.5.8",
        {"nvidia/cublas/lib/libcublas.so.12": library(soname="libcublas.so.12")},
    )
    native_dist(
        site,
        "onnxruntime-gpu",
        "1.16.3",
        {
            "onnxruntime/capi/onnxruntime_pybind11_state.so": library(
                needed=("libonnxruntime_providers_shared.so",)
            ),
            "onnxruntime/capi/libonnxruntime_providers_shared.so": library(
                soname="libonnxruntime_providers_shared.so"
            ),
            "onnxruntime/capi/libonnxruntime_providers_cuda.so": library(
                soname="libonnxruntime_providers_cuda.so", needed=("libcublas.so.11",)
            ),
        },
    )
    native_dist(site, "ext", "1.0", {"ext/_C.so": library(needed=("libcublas.so.11",))})
    _, report = doctor_report(site)
    title = binary_findings(report)["binary-library-major:onnxruntime-gpu"]["title"]
    assert "onnxruntime-gpu's import works" in title and "session" in title, title
    assert "its import fails" not in title
    title = binary_findings(report)["binary-library-major:ext"]["title"]
    assert "its import fails with `libcublas.so.11" in title


def test_two_majors_from_two_packages_are_possible(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for major, package in (("8", "nvidia-cudnn-cu11"), ("9", "nvidia-cudnn-cu12")):
        native_dist(
            site,
            package,
            "1.0",
            {f"{package}/lib/libcudnn.so.{major}": library(soname=f"libcudnn.so.{major}")},
        )
    _, report = doctor_report(site)
    found = binary_findings(report)["binary-library-majors:libcudnn.so"]
    assert found["status"] == "possible"


def test_a_file_two_distributions_own(tmp_path: Path) -> None:
    site = tmp_path / "site"
    # cu13 installed last: its library (another build, another size) is the one on disk
    for name, needed in (("nvidia-nccl-cu12", ()), ("nvidia-nccl-cu13", ("libcudart.so.13",))):
        data = library(soname="libnccl.so.2", needed=needed)
        native_dist(site, name, "2.28.3", {"nvidia/nccl/lib/libnccl.so.2": data})
    code, report = doctor_report(site)
    assert code == 1
    found = binary_findings(report)["binary-shared-file:nvidia-nccl-cu12+nvidia-nccl-cu13"]
    assert "nvidia/nccl/lib/libnccl.so.2" in found["title"]
    assert "the copy on disk is nvidia-nccl-cu13 2.28.3's" in found["title"], found["title"]
    assert "its RECORD's sha256 matches the file" in found["title"]  # the bytes, not the size
    assert {p["name"] for p in found["packages"]} == {"nvidia-nccl-cu12", "nvidia-nccl-cu13"}


def test_hostile_native_files_are_one_note_each(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    good = library(sass=(80,))
    native_dist(
        site,
        "hostile",
        "1.0",
        {
            "hostile/truncated.so": good[:40],
            "hostile/magic.so": b"MZ" + good[2:],
            "hostile/ok.so": good,
        },
    )
    loop = site / "hostile" / "loop.so"
    os.symlink(loop, loop)
    record = next(site.glob("hostile-*.dist-info")) / "RECORD"
    record.write_text(record.read_text() + "hostile/loop.so,,\n")
    result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report = result.json()
    problems = [f for f in report["environment"]["native"]["files"] if "problem" in f]
    assert {f["path"] for f in problems} == {"hostile/truncated.so", "hostile/magic.so"}
    notes = " ".join(report["notes"])
    assert "truncated.so" in notes and "magic.so" in notes and "loop.so" in notes
    assert binary_findings(report) == {}


def test_the_files_settle_a_version_rule_that_asks_their_question(tmp_path: Path) -> None:
    """flash-attn-pre-cxx11-abi-wheel-on-torch-2.7 judges a label; where flash-attn's extension
    was read and every torch symbol it needs is exported, the files rule it out."""
    site = torch_site(tmp_path / "site", "2.8.0")
    label = "2.8.3+cu12torch2.8cxx11abiFALSE"
    rule = "flash-attn-pre-cxx11-abi-wheel-on-torch-2.7"
    extension(site, name="flash_attn", version=label)
    _, report = doctor_report(site)
    assert finding(report, rule) is None
    assert any(n.startswith(f"{rule}: ruled out by the installed files") for n in report["notes"])
    # the same label with the old ABI's symbols: the rule stays, and the files agree
    other = torch_site(tmp_path / "other", "2.8.0")
    extension(other, name="flash_attn", version=label, undefined=(CHECK_FAIL_OLD,))
    _, report = doctor_report(other)
    assert finding(report, rule) is not None
    assert "binary-symbols:flash-attn" in binary_findings(report)


def test_a_warm_cache_gives_the_same_answer_and_a_changed_file_a_new_one(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    extension(site, undefined=(CHECK_FAIL_OLD,))
    time.sleep(2.1)  # files younger than 2 s are never trusted by their stat signature
    first = doctor_report(site)
    again = doctor_report(site)  # from the cache: no file read
    assert first == again
    # torch's library now exports the old-ABI name as well: the extension resolves
    lib = site / "torch" / "lib" / "libc10.so"
    lib.write_bytes(library(soname="libc10.so", defines=(CHECK_FAIL_CXX11, CHECK_FAIL_OLD)))
    _, report = doctor_report(site)
    assert "binary-symbols:ext" not in binary_findings(report)


# torch 1.8.0's real flags (scripts/inputs/torch-wheel-arch.json) and its libtorch_cuda.so's fat
# binary, which also carries the sm_35 and sm_61 kernels of the cuDNN and cuBLAS linked in.
TORCH18_FLAGS = (
    b"-gencode;arch=compute_37,code=sm_37;-gencode;arch=compute_50,code=sm_50;"
    b"-gencode;arch=compute_60,code=sm_60;-gencode;arch=compute_70,code=sm_70"
)


def torch18_site(site: Path, rodata: bytes | None) -> Path:
    native_dist(
        site,
        "torch",
        "1.8.0+cu102",
        {
            "torch/lib/libc10.so": library(soname="libc10.so", defines=TORCH_EXPORTS[:1]),
            "torch/lib/libtorch_cuda.so": library(
                soname="libtorch_cuda.so", sass=(35, 37, 50, 60, 61, 70), rodata=rodata
            ),
        },
    )
    return site


def test_torch_own_arch_list_is_its_build_flags_not_every_kernel_it_links(tmp_path: Path) -> None:
    k40 = profile(tmp_path, "Tesla K40m", "3.5", "470.256.02", "11.4", count=1)
    site = torch18_site(tmp_path / "flags", b"\0error text\0" + TORCH18_FLAGS + b"\0more\0")
    code, report = doctor_report(site, hardware=k40)
    assert report["environment"]["native"]["torch_arch_list"] == [
        "sm_37", "sm_50", "sm_60", "sm_70",
    ]  # fmt: skip
    found = finding(report, "torch-no-kernel-image-for-gpu")
    assert found is not None and found["status"] == "affected", report["findings"]
    assert code == 1
    # Without the flags (a library that records none), the union of its fat binaries stands in:
    # sm_35 is there, so the K40 is served.
    _, union = doctor_report(torch18_site(tmp_path / "union", None), hardware=k40)
    assert "sm_35" in union["environment"]["native"]["torch_arch_list"]
    assert finding(union, "torch-no-kernel-image-for-gpu") is None


def test_a_malformed_flags_string_is_not_read(tmp_path: Path) -> None:
    k40 = profile(tmp_path, "Tesla K40m", "3.5", "470.256.02", "11.4", count=1)
    broken = b"-gencode;arch=compute_37,code=sm_37;-gencode;arch=compute_5" + b"x" * 5000 + b"\0"
    site = torch18_site(tmp_path / "site", broken)
    _, report = doctor_report(site, hardware=k40)
    assert "sm_35" in report["environment"]["native"]["torch_arch_list"]  # the union, not garbage


# --- conda environments: conda writes no RECORD; its records in conda-meta list the files ------


def conda_torch_prefix(prefix: Path, *, flags: bytes | None = TORCH18_FLAGS) -> Path:
    """A conda prefix linked from real conda-forge records (tests/condaprefix.py) whose
    dist-infos have no RECORD, as conda's have none, and whose `pytorch` and `libtorch` records
    list torch's native files: libtorch_cuda.so in PREFIX/lib (conda-forge's libtorch output
    moves torch/lib/* there), torch's extension in site-packages."""
    import json

    from tests import condaprefix

    condaprefix.build(prefix)
    site = condaprefix.site_packages(prefix)
    for record in site.glob("*.dist-info/RECORD"):
        record.unlink()
    cuda = library(soname="libtorch_cuda.so", sass=(35, 37, 50, 60, 61, 70), rodata=flags)
    files = {
        "libtorch": {"lib/libtorch_cuda.so": cuda, "lib/libc10.so": library(soname="libc10.so")},
        "pytorch": {
            f"lib/python{condaprefix.PYTHON}/site-packages/torch/_C.cpython-313-x86_64-linux-gnu.so": (
                library(needed=("libtorch_cuda.so",))
            )
        },
    }
    for conda_name, members in files.items():
        (record,) = (prefix / "conda-meta").glob(f"{conda_name}-[0-9]*.json")
        data = json.loads(record.read_text())
        for relpath, content in members.items():
            (prefix / relpath).parent.mkdir(parents=True, exist_ok=True)
            (prefix / relpath).write_bytes(content)
            data["files"].append(relpath)
        record.write_text(json.dumps(data))
    return prefix


def test_a_conda_environment_is_read_through_its_conda_records(tmp_path: Path) -> None:
    prefix = conda_torch_prefix(tmp_path / "env")
    k40 = profile(tmp_path, "Tesla K40m", "3.5", "470.256.02", "11.4", count=1)
    _, report = doctor_report(prefix / "lib" / "python3.13" / "site-packages", hardware=k40)
    native = report["environment"]["native"]
    paths = {(f["package"], f["path"]) for f in native["files"]}
    assert ("torch", "lib/libtorch_cuda.so") in paths and ("torch", "lib/libc10.so") in paths
    assert any(p.endswith("torch/_C.cpython-313-x86_64-linux-gnu.so") for _, p in paths)
    assert native["torch_arch_list"] == ["sm_37", "sm_50", "sm_60", "sm_70"]
    # no line per distribution about a RECORD conda never writes
    assert not any("RECORD" in note for note in report["notes"]), report["notes"]
    _, again = doctor_report(prefix / "lib" / "python3.13" / "site-packages", hardware=k40)
    assert again["environment"]["native"] == native  # a second run (its cache) says the same


def test_record_less_distributions_without_a_conda_record_are_one_note(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for name in ("numpy", "scipy", "six"):
        (make_dist(site, name, "1.0") / "RECORD").unlink()
    _, report = doctor_report(site)
    lines = [note for note in report["notes"] if "RECORD" in note]
    assert len(lines) == 1 and "3 distribution(s)" in lines[0], report["notes"]
    assert all(name in lines[0] for name in ("numpy", "scipy", "six"))
