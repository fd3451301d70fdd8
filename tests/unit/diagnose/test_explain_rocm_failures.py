"""explain on ROCm failures read by what the log states (issue 43, the explain-rocm-2 fixes),
each on other real wordings than the held-out sets': an INVALID_ISA abort is a loaded code object
rejected (the override against the GPU's own target; never the build's target list), a
rocBLAS/hipBLASLt Tensile library absent for the reported target, a ROCm torch that finds no AMD
GPU, a ROCm library the loader cannot open (the HIP runtime's soname major against torch's ROCm
build). Logs: tests/data/logs/PROVENANCE.md."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import run_subprocess
from tests.lib.paths import DATA

LOGS = DATA / "logs"
CAUSES = ("confirmed", "symptom-only")


def explain(name: str) -> dict[str, Any]:
    result = run_subprocess(["explain", "--format", "json", "--no-probe", str(LOGS / name)])
    assert result.exit_code in (0, 1), result.stderr
    return result.json()


def first_cause(document: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in document["matches"] if m["verdict"] in CAUSES)


def asked(match: dict[str, Any]) -> list[str]:
    return [u.split(" — ")[0] for u in match["unknown"]]


def facts(document: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(f["kind"], f["key"]): f["value"] for f in document["facts"]}


@pytest.mark.parametrize(
    ("name", "rule", "line", "verdict", "questions", "words"),
    [
        # the override set from Python (putenv) and rocminfo's ISA name: gfx1100 code on gfx1102
        (
            "composed-rocm-isa-putenv-rocminfo-isa.log",
            "hip-code-object-isa-rejected-by-gpu",
            7,
            "confirmed",
            [],
            ("gfx1100", "gfx1102"),
        ),
        # no override printed: whether one was set is the question, not the build's targets
        (
            "composed-rocm-isa-library-kernel.log",
            "hip-code-object-isa-rejected-by-gpu",
            1,
            "symptom-only",
            ["hardware.hsa_override_gfx_version"],
            (),
        ),
        (
            "composed-rocm-hipblaslt-lazy-gfx1030.log",
            "hip-library-kernels-missing-for-gpu-target",
            1,
            "symptom-only",
            ["hardware.hsa_override_gfx_version"],
            (),
        ),
        # Windows' `set HSA_OVERRIDE_GFX_VERSION=10.3.0` names the target the library lacks
        (
            "composed-rocm-hipblaslt-lazy-gfx1030-override.log",
            "hip-library-kernels-missing-for-gpu-target",
            2,
            "confirmed",
            [],
            ("10.3.0", "gfx1030"),
        ),
        # rocBLAS 5.x names no target (`Cannot read <dir>/TensileLibrary.dat: Illegal seek`) and
        # the log shows none: the GPU's target is asked, not an override
        (
            "composed-rocm-rocblas54-tensile-generic.log",
            "hip-library-kernels-missing-for-gpu-target",
            4,
            "symptom-only",
            ["hardware.gfx_target"],
            ("directory",),
        ),
        # the same message (a Windows path with a space) where rocminfo printed the target
        (
            "composed-rocm-rocblas-tensile-generic-windows-rocminfo.log",
            "hip-library-kernels-missing-for-gpu-target",
            4,
            "symptom-only",
            ["hardware.hsa_override_gfx_version"],
            (),
        ),
        # bitsandbytes looked for the library of torch's ROCm (collect_env states 6.3): none
        (
            "composed-rocm-bnb-rocm63-not-found-collect-env.log",
            "bitsandbytes-no-library-for-torch-rocm",
            5,
            "confirmed",
            [],
            ("libbitsandbytes_rocm63.so", "6.3"),
        ),
        # torch of ROCm 7.12 read as 82 (major*10+minor)
        (
            "composed-rocm-bnb-rocm712-read-as-82.log",
            "bitsandbytes-no-library-for-torch-rocm",
            2,
            "confirmed",
            [],
            ("7.12", "82"),
        ),
        # Windows names the library .dll (the older WindowsPath wording): torch of ROCm 6.4
        (
            "composed-rocm-bnb-windows-dll-rocm64.log",
            "bitsandbytes-no-library-for-torch-rocm",
            3,
            "confirmed",
            [],
            ("libbitsandbytes_rocm64.so (.dll on Windows)", "6.4"),
        ),
        (
            "composed-rocm-bnb-windows-dll-no-torch.log",
            "bitsandbytes-no-library-for-torch-rocm",
            1,
            "symptom-only",
            ["build.torch_rocm"],
            ("libbitsandbytes_rocm71",),
        ),
        # flash-attention's setup.py refuses a target (two asked for, Dao-AILab's newer layout)
        (
            "composed-rocm-flash-attn-archs-two-targets.log",
            "flash-attn-rocm-build-refuses-gpu-target",
            8,
            "confirmed",
            [],
            ("setup.py",),
        ),
        # a package's own check refuses the GPU's target by name: aiter's table's later wording
        # (the supported targets listed) and vLLM's AITER path on Strix Halo
        (
            "composed-rocm-aiter-unknown-arch-supported-list.log",
            "gpu-target-unsupported-by-package",
            5,
            "confirmed",
            [],
            ("refused the GPU target",),
        ),
        (
            "composed-rocm-vllm-aiter-archs-invalid.log",
            "gpu-target-unsupported-by-package",
            3,
            "confirmed",
            [],
            ("refused the GPU target",),
        ),
        # ollama's check of the GPU against its bundled libraries' targets (0.1.32's wording),
        # and flash-attention's CK backend refusing the GPU at run time
        (
            "composed-rocm-ollama-gfx1103-not-supported.log",
            "gpu-target-unsupported-by-package",
            4,
            "confirmed",
            [],
            ("refused the GPU target",),
        ),
        (
            "composed-rocm-flash-attn-ck-mi200-check.log",
            "gpu-target-unsupported-by-package",
            3,
            "confirmed",
            [],
            ("refused the GPU target",),
        ),
        # the loader refuses a library's executable stack: glibc 2.41's EINVAL (RCCL under
        # torch's import; conda-forge's libtorch_cpu.so), and another errno's refusal
        (
            "composed-loader-execstack-librccl.log",
            "shared-library-executable-stack-refused",
            7,
            "confirmed",
            [],
            ("glibc 2.41",),
        ),
        (
            "composed-loader-execstack-libtorch-cpu.log",
            "shared-library-executable-stack-refused",
            3,
            "confirmed",
            [],
            ("glibc 2.41",),
        ),
        (
            "composed-loader-execstack-permission-denied.log",
            "shared-library-executable-stack-refused",
            1,
            "confirmed",
            [],
            ("refused to make the stack executable",),
        ),
        # a memory fault under an override (printed after it, by the shell) to gfx1030 on a
        # gfx1031: the generation's ISA is shared, the fault may have another cause (possible)
        (
            "composed-rocm-override-gfx1031-fault.log",
            "hsa-override-gpu-memory-fault",
            5,
            "symptom-only",
            [],
            ("10.3.0", "gfx1030", "gfx1031"),
        ),
        # gfx1030 (RDNA2) code on an MI210 (gfx90a, CDNA2): another generation's ISA
        (
            "composed-rocm-override-mi210-gfx1030-fault.log",
            "hsa-override-gpu-memory-fault",
            3,
            "confirmed",
            [],
            ("another GPU generation", "gfx90a"),
        ),
        # the override stated (a systemd unit's Environment=), the GPU's target not: asked
        (
            "composed-rocm-override-fault-no-target.log",
            "hsa-override-gpu-memory-fault",
            3,
            "symptom-only",
            ["hardware.gfx_target"],
            (),
        ),
        # hipErrorNoDevice's string from TheRock's hipInfo on Windows (ROCm/hip#3910's wording)
        (
            "composed-rocm-hipinfo-no-device-windows.log",
            "torch-rocm-build-finds-no-amd-gpu",
            2,
            "symptom-only",
            ["hardware.gpus"],
            (),
        ),
        # rocBLAS's own words for it (koboldcpp-rocm#103's HIP backend on Windows)
        (
            "composed-rocm-tensile-host-no-devices.log",
            "torch-rocm-build-finds-no-amd-gpu",
            4,
            "symptom-only",
            ["hardware.gpus"],
            (),
        ),
        # the failure line names the GPU's target (TheRock#7985's gfx90c): an AMD GPU is there,
        # what hides it is asked, not the machine's GPUs; a family build name (gfx120X) is no
        # GPU's target
        (
            "composed-rocm-no-device-line-names-gfx90c.log",
            "torch-rocm-build-finds-no-amd-gpu",
            1,
            "symptom-only",
            ["hardware.amd_gpu_visible"],
            (),
        ),
        (
            "composed-rocm-no-device-family-build-name.log",
            "torch-rocm-build-finds-no-amd-gpu",
            1,
            "symptom-only",
            ["hardware.gpus"],
            (),
        ),
        # rocminfo cannot open /dev/kfd: no node in the container (ROCm#1798), and EPERM with
        # the user in render (ROCm#1211: a failed DKMS build), where the kernel log is asked
        (
            "composed-rocm-kfd-no-such-file-container.log",
            "rocm-kfd-device-not-accessible",
            3,
            "confirmed",
            [],
            ("no /dev/kfd",),
        ),
        (
            "composed-rocm-kfd-operation-not-permitted.log",
            "rocm-kfd-device-not-accessible",
            3,
            "symptom-only",
            ["hardware.amdgpu_driver"],
            (),
        ),
        # flash-attn's CUDA path (nvcc) under a torch of ROCm 5.7 (collect_env)
        (
            "composed-rocm-flash-attn-nvcc-collect-env.log",
            "flash-attn-cuda-only-release-on-rocm-torch",
            2,
            "confirmed",
            [],
            ("5.7",),
        ),
        (
            "composed-rocm-no-hip-gpu-on-nvidia.log",
            "torch-rocm-build-finds-no-amd-gpu",
            20,
            "confirmed",
            [],
            ("NVIDIA A100",),
        ),
        (
            "composed-rocm-hip-no-device.log",
            "torch-rocm-build-finds-no-amd-gpu",
            6,
            "symptom-only",
            ["hardware.gpus"],
            (),
        ),
        (
            "composed-rocm-no-hip-gpu-amd-present.log",
            "torch-rocm-build-finds-no-amd-gpu",
            4,
            "symptom-only",
            ["hardware.amd_gpu_visible"],
            (),
        ),
        # a file built for ROCm 7 (libamdhip64.so.7) beside torch of ROCm 6.2
        (
            "composed-rocm-libamdhip64-so7-beside-rocm62.log",
            "rocm-library-not-found-by-loader",
            5,
            "confirmed",
            [],
            ("ROCm 7", "6.2"),
        ),
        # the HIP runtime of a program that is not torch's (llama.cpp's binary): torch's ROCm
        # build bears on nothing here, only where the ROCm user space is, is asked
        (
            "composed-rocm-libamdhip64-so6-cpp-binary.log",
            "rocm-library-not-found-by-loader",
            2,
            "symptom-only",
            ["hardware.rocm"],
            (),
        ),
        # torch's own import failed (its frames): torch's ROCm build is asked, then the user space
        (
            "composed-rocm-libamdhip64-so7-torch-import.log",
            "rocm-library-not-found-by-loader",
            4,
            "symptom-only",
            ["build.torch_rocm", "hardware.rocm"],
            (),
        ),
        # a ROCm library whose soname major is its own: where the ROCm user space is, is asked
        (
            "composed-rocm-libhipfile-missing.log",
            "rocm-library-not-found-by-loader",
            1,
            "symptom-only",
            ["hardware.rocm"],
            (),
        ),
    ],
)
def test_each_failure_is_read_by_what_the_log_states(
    name: str, rule: str, line: int, verdict: str, questions: list[str], words: tuple[str, ...]
) -> None:
    found = first_cause(explain(name))
    assert (found["rule"], found["line"], found["verdict"]) == (rule, line, verdict)
    assert asked(found) == questions
    assert "build.hip_targets" not in asked(found)
    held = " ".join(found["held"])
    assert all(word in held for word in words), held


def test_the_failures_state_their_facts() -> None:
    assert facts(explain("composed-rocm-isa-putenv-rocminfo-isa.log")) == {
        ("gfx_target", "0"): "gfx1102",  # rocminfo's `Name: amdgcn-amd-amdhsa--gfx1102`
        ("gfx_override", "gfx_override"): "11.0.0",  # putenv("HSA_OVERRIDE_GFX_VERSION", ...)
        ("build", "hsa_invalid_isa"): "1",
    }
    library = facts(explain("composed-rocm-hipblaslt-lazy-gfx1030.log"))
    assert library[("gfx_target", "0")] == "gfx1030"  # from the library file's name
    assert library[("build", "hip_library_missing")] == "1"


def test_a_cuda_library_is_not_a_rocm_one() -> None:
    # NVIDIA's loader failure keeps its own rule; no ROCm cause is invented for it
    document = explain("composed-cuda-libcudart12-beside-cu118.log")
    assert first_cause(document)["rule"] == "extension-built-for-another-cuda-major"
    rules = {m["rule"] for m in document["matches"] if m["verdict"] in CAUSES}
    assert not rules & {
        "rocm-library-not-found-by-loader",
        "torch-rocm-build-finds-no-amd-gpu",
        "hip-code-object-isa-rejected-by-gpu",
        "hip-library-kernels-missing-for-gpu-target",
        "bitsandbytes-no-library-for-torch-rocm",
    }


def test_a_cuda_bitsandbytes_library_is_not_a_rocm_one() -> None:
    # bitsandbytes' CUDA loader message (libbitsandbytes_cuda129.so) never reads as the ROCm rule
    document = explain("bitsandbytes-1688-cuda129-library.log")
    rules = {m["rule"] for m in document["matches"] if m["verdict"] in CAUSES}
    assert "bitsandbytes-no-library-for-torch-rocm" not in rules
    assert ("build", "bnb_rocm_library") not in facts(document)


def test_flash_attn_asking_for_nvcc_on_a_cuda_torch_is_not_a_rocm_cause() -> None:
    # torch 2.1.0+cu121: the CUDA toolkit is missing, not a ROCm build of flash-attn
    document = explain("composed-cuda-flash-attn-nvcc-cu121.log")
    rules = {m["rule"] for m in document["matches"] if m["verdict"] in CAUSES}
    assert "flash-attn-cuda-only-release-on-rocm-torch" not in rules


def test_flash_attention_targets_are_not_torchs_arch_list() -> None:
    # the assertion lists the targets setup.py was asked for; reading them as torch's
    # get_arch_list() would judge torch's build by flash-attention's list
    stated = facts(explain("composed-rocm-flash-attn-archs-two-targets.log"))
    assert ("arch_list", "torch_hip") not in stated
    assert stated[("build", "flash_attn_arch_refused")] == "1"


def test_flash_attentions_own_wording_stays_its_rule() -> None:
    # setup.py's "... is invalid or not supported by Flash-Attention" has its own rule and fix
    document = explain("composed-rocm-flash-attn-archs-two-targets.log")
    rules = {m["rule"] for m in document["matches"] if m["verdict"] in CAUSES}
    assert "gpu-target-unsupported-by-package" not in rules
    assert ("build", "gpu_target_refused") not in facts(document)


def test_a_memory_fault_without_a_stated_override_is_no_cause() -> None:
    # a fault alone has causes compat cannot read (firmware, the kernel driver, a library's
    # kernel): no rule claims it
    document = explain("composed-rocm-fault-no-override.log")
    assert not [m for m in document["matches"] if m["verdict"] in CAUSES]


def test_a_library_the_loader_cannot_find_is_not_an_executable_stack() -> None:
    document = explain("composed-rocm-libamdhip64-so7-beside-rocm62.log")
    rules = {m["rule"] for m in document["matches"] if m["verdict"] in CAUSES}
    assert "shared-library-executable-stack-refused" not in rules
    assert ("build", "execstack_refused") not in facts(document)


def test_hips_no_kernel_image_is_the_rocm_rules() -> None:
    # HIP's own string for hipErrorNoBinaryForGpu (rocm_sdk_builder#228's dtype loop): the ROCm
    # rule, asking what the failing library carries; the CUDA rule's fix installs a +cu build
    document = explain("composed-rocm-hip-no-kernel-image-dtypes.log")
    found = first_cause(document)
    assert (found["rule"], found["line"], found["verdict"]) == (
        "hip-no-code-object-for-gpu",
        4,
        "symptom-only",
    )
    assert asked(found) == ["build.hip_targets"]
    rules = {m["rule"] for m in document["matches"] if m["verdict"] in CAUSES}
    assert "torch-no-kernel-image-for-gpu" not in rules


def test_ollamas_empty_supported_list_is_no_target_refused() -> None:
    # `supported types:[]`: ollama found no ROCm library at all (and the override is malformed,
    # gfx1102 for 11.0.2): no target was refused, and no cause is invented
    document = explain("composed-rocm-ollama-supported-types-empty.log")
    assert not [m for m in document["matches"] if m["verdict"] in CAUSES]
    assert ("build", "gpu_target_refused") not in facts(document)
