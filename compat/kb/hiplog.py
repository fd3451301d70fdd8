"""What a ROCm failure a log reports says about its cause (issue 43): derived conditions.

Each reads only facts the failing run stated (compat.facts.rocmlog, machinefacts): the build
fact a failure message leaves (`hsa_invalid_isa`, `hip_no_device`, `hip_library_missing`,
`missing_hip`, `missing_rocm_lib`) is there only where a log printed that failure, so none of
these is ever true of an installed environment (`doctor` reads the files instead). What the log
settles decides; what it leaves open is asked, one fact at a time.
"""

from __future__ import annotations

from compat.kb.conditions import FALSE
from compat.model import Facts, Gpu, Hardware, Tri, Unknown, Verdict

_NVIDIA_WORDS = ("NVIDIA", "GeForce", "Tesla", "Quadro", "TITAN")
_OVERRIDE_HINT = (
    "whether HSA_OVERRIDE_GFX_VERSION was set for the run (env | grep HSA_OVERRIDE, or --hardware "
    "FILE: a compat probe profile records it): the runtime then loads code built for the target "
    "it names"
)
_ISA = "the GPU rejected the instructions of a loaded code object (INVALID_ISA)"
_NO_GPU = "a ROCm (HIP) build found no AMD GPU it can use"
_FAULT = "the GPU faulted on a memory access under HSA_OVERRIDE_GFX_VERSION"
_LOADER = "the loader could not open a ROCm library"
_TENSILE_DIR = (
    "rocBLAS found no Tensile kernel library for the GPU in the directory it read (the message "
    "names the directory, not the target)"
)
_TENSILE_HINT = (
    "the GPU's target (rocminfo | grep gfx) against the TensileLibrary*_gfx* files of the "
    "directory the message names (ls it): none of the target there means the library lacks it; "
    "none at all, or no such directory, means rocBLAS read the wrong one (a librocblas.so loaded "
    "from elsewhere on LD_LIBRARY_PATH; ROCBLAS_TENSILE_LIBPATH names the right one)"
)
_ROCM_HINT = (
    "the ROCm user space the process loads (--hardware FILE: a compat probe profile records "
    "it; or ls /opt/rocm*/.info/version, pip list | grep "
    "rocm-sdk (TheRock's wheels keep the libraries under site-packages/_rocm_sdk_*/lib), and "
    "LD_LIBRARY_PATH)"
)


def _open(held: str, *unknown: Unknown) -> Verdict:
    """The failure the log printed holds (it anchors the finding); what settles its cause is
    asked."""
    return Verdict(Tri.UNKNOWN, (held,), unknown, anchored=True)


def _amd(hardware: Hardware | None) -> list[Gpu]:
    return [g for g in (hardware.gpus if hardware else ()) if g.is_amd]


def _nvidia_only(hardware: Hardware | None) -> bool:
    """The log shows GPUs and every one is NVIDIA's (by vendor or by its name)."""
    gpus = hardware.gpus if hardware else ()
    return bool(gpus) and all(
        g.vendor == "nvidia" or (not g.is_amd and any(w in g.name for w in _NVIDIA_WORDS))
        for g in gpus
    )


def _override(hardware: Hardware | None) -> tuple[str | None, str | None]:
    """(the override as set, the target it names) where a log states the variable."""
    from compat.binary.gfxtarget import override_target

    if hardware is None or not hardware.gfx_override:
        return None, None
    return hardware.gfx_override, override_target(hardware.gfx_override)


def isa_rejected(facts: Facts) -> Verdict:
    """HSA_STATUS_ERROR_INVALID_ISA: a code object was loaded for the target the runtime reports
    and the GPU rejected its instructions. With HSA_OVERRIDE_GFX_VERSION naming another target
    than the GPU's own (both stated), that is the cause; with the override stated and the GPU's
    target not, the target is asked; with no override stated, whether one was set is asked
    (without one, the rejected kernel is a library's, built for the GPU's family but invalid
    for its target: the log's `Kernel Name:` says whose). The build's target list is never
    asked: the code object was found."""
    if "hsa_invalid_isa" not in facts.builds or _nvidia_only(facts.hardware):
        return FALSE
    hardware = facts.hardware
    value, target = _override(hardware)
    if value is None:
        return _open(_ISA, Unknown("hardware.hsa_override_gfx_version", _OVERRIDE_HINT))
    own = [g for g in _amd(hardware) if g.gfx_target]
    other = [g for g in own if g.gfx_target != target]
    if target is not None and other:
        names = "; ".join(f"GPU {g.index} {g.name} ({g.gfx_target})" for g in other)
        text = (
            f"HSA_OVERRIDE_GFX_VERSION={value} makes the runtime load {target} code objects on "
            f"{names}, whose instruction set rejects them"
        )
        return Verdict(Tri.TRUE, (text,))
    hint = (
        f"the GPU's own target (--hardware FILE, or rocminfo | grep gfx run without the variable: "
        f"under it rocminfo "
        f"reports {target or value}); HSA_OVERRIDE_GFX_VERSION={value} loads "
        f"{target or 'another target'}'s code objects on it"
    )
    return _open(_ISA, Unknown("hardware.gfx_target", hint))


def library_kernels_missing(facts: Facts) -> Verdict:
    """rocBLAS / hipBLASLt cannot read their Tensile kernel library for the target the runtime
    reports (the message names it: `TensileLibrary_lazy_gfx1102.dat`, `for GPU arch : gfx1032`):
    the installed library carries no kernels for that target. TRUE where the log states an
    HSA_OVERRIDE_GFX_VERSION naming it (the override sent the library to a target it lacks);
    otherwise whether an override was set is asked (without one the target is the GPU's own,
    and the fix is a library build with it, or an override to a target the library has)."""
    if "hip_library_missing" not in facts.builds or _nvidia_only(facts.hardware):
        return FALSE
    hardware = facts.hardware
    value, target = _override(hardware)
    named = sorted({g.gfx_target for g in _amd(hardware) if g.gfx_target})
    if value is not None and target is not None and target in named:
        text = (
            f"HSA_OVERRIDE_GFX_VERSION={value} makes the library look for {target} kernels, "
            "which it does not carry"
        )
        return Verdict(Tri.TRUE, (text,))
    if not named:
        # rocBLAS 5.x's generic `Cannot read <dir>/TensileLibrary.dat` names no target, and the
        # log shows none: which target it looked for (and whether <dir> is the library's) is open
        return _open(_TENSILE_DIR, Unknown("hardware.gfx_target", _TENSILE_HINT))
    held = "the library found no kernels for the GPU target the runtime reports"
    return _open(held, Unknown("hardware.hsa_override_gfx_version", _OVERRIDE_HINT))


def no_amd_gpu(facts: Facts) -> Verdict:
    """A ROCm (HIP) build of torch found no AMD GPU (`No HIP GPUs are available`). TRUE where the
    log shows the machine's GPUs and all are NVIDIA's (a CUDA build was needed); where it shows
    an AMD GPU, what hides it from the process is asked; otherwise the machine's GPUs."""
    if "hip_no_device" not in facts.builds:
        return FALSE
    hardware = facts.hardware
    if _nvidia_only(hardware):
        names = ", ".join(sorted({g.name for g in hardware.gpus})) if hardware else ""
        text = f"a ROCm (HIP) build of torch on NVIDIA GPUs ({names}): it finds no AMD GPU"
        return Verdict(Tri.TRUE, (text,))
    if _amd(hardware):
        hint = (
            "what hides the AMD GPU from the process: /dev/kfd and /dev/dri/renderD* access "
            "(groups render, video; a container's --device flags), HIP_VISIBLE_DEVICES / "
            "ROCR_VISIBLE_DEVICES, WSL's ROCm runtime"
        )
        return _open(_NO_GPU, Unknown("hardware.amd_gpu_visible", hint))
    hint = (
        "the machine's GPUs (--hardware FILE, nvidia-smi, or rocminfo | grep gfx): a ROCm build of "
        "torch runs on AMD GPUs only"
    )
    return _open(_NO_GPU, Unknown("hardware.gpus", hint))


def rocm_library_missing(facts: Facts) -> Verdict:
    """The loader could not open a ROCm library. The HIP runtime's soname major is the ROCm major
    the file that needs it was built for (libamdhip64.so.7: ROCm 7): beside a torch of another
    ROCm major that is the cause (the file was built for another ROCm); of torch's own major,
    or any other ROCm library (MIOpen, rocBLAS, ... keep majors of their own), the library is
    not installed or not on the loader's path, and where the ROCm user space is is asked.
    torch's ROCm build is asked only where torch's own import failed (missing_hip_torch: the
    traceback runs through torch's files); of a program the log shows no torch in, never."""
    hip = facts.builds.get("missing_hip")
    if hip is None and "missing_rocm_lib" not in facts.builds:
        return FALSE
    torch_rocm = facts.builds.get("torch_rocm")
    if hip is not None and torch_rocm is not None and torch_rocm.major != hip.major:
        text = (
            f"libamdhip64.so.{hip.major} is ROCm {hip.major}'s HIP runtime: the file that needs "
            f"it was built for ROCm {hip.major}, torch is a ROCm {torch_rocm} build"
        )
        return Verdict(Tri.TRUE, (text,))
    if (
        hip is not None
        and torch_rocm is None
        and not facts.packages_known
        and "missing_hip_torch" in facts.builds
    ):
        # torch's ROCm build bears on it only where torch's own import failed (its frames);
        # a program the log shows no torch in (llamafile's ggml-rocm.so) is asked nothing of torch
        hint = "torch's ROCm build (torch.version.hip, or the +rocmX.Y of its version)"
        return _open(
            _LOADER, Unknown("build.torch_rocm", hint), Unknown("hardware.rocm", _ROCM_HINT)
        )
    return _open(_LOADER, Unknown("hardware.rocm", _ROCM_HINT))


def bitsandbytes_rocm_library(facts: Facts) -> Verdict:
    """bitsandbytes did not find the libbitsandbytes_rocmNN.so it named. It names it by the ROCm
    torch was built with (torch.version.hip), 0.49.2 as major*10+minor, so ROCm 7.10+ reads as
    a version it is not (7.12 -> 82, 7.14 -> 84: bitsandbytes#1890, #2014), while a source build
    names its file by the ROCm hipconfig reports (bitsandbytes PR #1878). TRUE where the log
    states torch's ROCm: the package has no library for it; otherwise torch's ROCm is asked."""
    looked = facts.builds.get("bnb_rocm_library")
    if looked is None:
        return FALSE
    number = looked.major  # the digits of the file's name (80), however the fact is spelled
    name = f"libbitsandbytes_rocm{number}.so (.dll on Windows)"
    torch_rocm = facts.builds.get("torch_rocm")
    if torch_rocm is not None:
        major, minor = torch_rocm.major, torch_rocm.minor
        if minor >= 10 and number == major * 10 + minor:
            text = (
                f"bitsandbytes read torch's ROCm {torch_rocm} as {number} ({major}*10+{minor}) "
                f"and looked for {name}, which no build of it names so"
            )
        else:
            text = f"bitsandbytes has no {name} for torch's ROCm {torch_rocm} build"
        return Verdict(Tri.TRUE, (text,))
    held = (
        f"bitsandbytes looked for {name}, named by the ROCm torch was built with (0.49.2 writes "
        "major*10+minor: 7.10 is 80), and the package has no library of that name"
    )
    hint = (
        "torch's ROCm build (explain --python <the run's interpreter> reads it; or python -c "
        "'import torch; print(torch.version.hip)') against the libbitsandbytes_rocm*.so files of "
        "site-packages/bitsandbytes"
    )
    return _open(held, Unknown("build.torch_rocm", hint))


def flash_attn_arch_refused(facts: Facts) -> Verdict:
    """flash-attention's setup.py (its ROCm build) asserts that every target it is asked to build
    for (GPU_ARCHS, or the GPU's) is one of the few it lists; the assertion failed, naming the
    targets asked for: the release builds for none of them (the log settles it)."""
    if "flash_attn_arch_refused" not in facts.builds:
        return FALSE
    text = (
        "flash-attention's setup.py builds only for the GPU targets it lists, and one asked for "
        "(the assertion names them) is not among them"
    )
    return Verdict(Tri.TRUE, (text,))


def flash_attn_nvcc(facts: Facts) -> Verdict:
    """flash-attn's setup.py took its CUDA path (it asked for nvcc) under a ROCm build of torch:
    that release builds only for CUDA (ROCm support came with the ROCm backend of FlashAttention
    2, Dao-AILab/flash-attention PR #1010). TRUE where the log states torch's ROCm build;
    otherwise torch's build is asked (on a CUDA torch it is a missing CUDA toolkit instead)."""
    if "flash_attn_needs_nvcc" not in facts.builds or "torch_cuda" in facts.builds:
        return FALSE  # on a CUDA torch the CUDA toolkit is what is missing
    torch_rocm = facts.builds.get("torch_rocm")
    if torch_rocm is not None:
        text = (
            f"flash-attn's build asked for nvcc (CUDA) under torch's ROCm {torch_rocm} build: "
            "this release of flash-attn builds only for CUDA"
        )
        return Verdict(Tri.TRUE, (text,))
    held = "flash-attn's build asked for nvcc, the CUDA compiler"
    hint = (
        "torch's build (explain --python <the run's interpreter> reads it; or python -c "
        "'import torch; print(torch.version.hip, torch.version.cuda)'): a ROCm torch needs a "
        "flash-attn release with a ROCm build; a CUDA torch, the CUDA toolkit"
    )
    return _open(held, Unknown("build.torch_rocm", hint))


def override_fault(facts: Facts) -> Verdict:
    """The GPU faulted on a memory access (`Memory access fault by GPU node-N`) in a run whose
    HSA_OVERRIDE_GFX_VERSION, as the log states it, names another target than the GPU's own: the
    runtime then runs that target's code objects on this GPU, built for another register file
    and ISA (ROCm/ROCm#4557: gfx1100 kernels need more VGPRs than a gfx1103 has; ROCm#5238: a
    forgotten override faulted an MI210). The log cannot settle it (a fault has other causes:
    firmware, the kernel driver, a library's kernel, ROCm#5724, ROCm/MIOpen#3540) where the
    override names a target of the GPU's own generation (gfx1100 on gfx1151: the ISA is shared,
    what differs is resources and some instructions); an override to another generation (gfx1030
    code on a gfx90a, ROCm#5238) runs code of another instruction set: TRUE. With the GPU's own
    target not stated, it is asked. A fault where the log states no override, or one naming the
    GPU's own target, is not this rule's."""
    if "gpu_memory_fault" not in facts.builds or _nvidia_only(facts.hardware):
        return FALSE
    hardware = facts.hardware
    value, target = _override(hardware)
    if value is None:
        return FALSE
    own = [g for g in _amd(hardware) if g.gfx_target]
    if not own:
        hint = (
            f"the GPU's own target (--hardware FILE, or rocminfo | grep gfx run without the "
            f"variable); HSA_OVERRIDE_GFX_VERSION={value} runs {target or 'another target'}'s "
            "code objects on it"
        )
        return _open(_FAULT, Unknown("hardware.gfx_target", hint))
    other = [g for g in own if g.gfx_target != target]
    if target is None or not other:
        return FALSE
    names = "; ".join(f"GPU {g.index} {g.name} ({g.gfx_target})" for g in other)
    foreign = [g for g in other if _generation(g.gfx_target) != _generation(target)]
    if foreign:
        # gfx9 (GCN/CDNA, wave64) code on a gfx10+ GPU (RDNA, wave32) or the reverse: no kernel
        # of that target is built for this GPU's instruction set at all
        text = (
            f"HSA_OVERRIDE_GFX_VERSION={value} makes the runtime run {target} code objects, "
            f"built for another GPU generation's instruction set, on {names}"
        )
        return Verdict(Tri.TRUE, (text,))
    text = (
        f"HSA_OVERRIDE_GFX_VERSION={value} makes the runtime run {target} code objects on "
        f"{names}; code built for another target of the generation can fault there (a run with "
        "the variable unset, on a build that carries the GPU's own target, tells whether the "
        "fault is the override's)"
    )
    return Verdict(Tri.UNKNOWN, (text,), (), anchored=True)


def _generation(target: str | None) -> str:
    """gfx90a -> 9, gfx942 -> 9, gfx1100 -> 11, gfx1201 -> 12: the ISA generation (the digits
    before the last two of the target's number)."""
    number = (target or "").removeprefix("gfx")
    return number[:-2] if len(number) > 2 else number


def kfd_not_accessible(facts: Facts) -> Verdict:
    """The ROCm runtime could not open /dev/kfd, the node every compute process opens first
    (rocminfo's `Unable to open /dev/kfd read-write: <errno>`), or the kernel said its KFD does
    not support the GPU. The kernel's word (`not supported in kfd`) and EACCES / ENOENT settle
    it: the GPU is not one KFD drives; the process may not open the node (its user is not in the
    node's group: render on current distributions, video on older ones; a container needs the
    node and the group passed in); there is no node (KFD not loaded, or a container started
    without --device=/dev/kfd). Another errno (EPERM, ENOMEM) is the driver refusing: what the
    kernel log says is asked."""
    unsupported = "kfd_unsupported_gpu" in facts.builds
    failed = facts.builds.get("kfd_open_failed")
    if not unsupported and failed is None:
        return FALSE
    if unsupported:
        text = (
            "the kernel's amdgpu driver says its KFD (compute) does not support this GPU: no "
            "ROCm runtime can use it"
        )
        return Verdict(Tri.TRUE, (text,))
    assert failed is not None
    if failed.major == 1:
        text = (
            "the process may not open /dev/kfd (Permission denied): its user is not in the "
            "node's group (render on current distributions, video on older ones), or the "
            "container was not given the group (--group-add render)"
        )
        return Verdict(Tri.TRUE, (text,))
    if failed.major == 2:
        text = (
            "there is no /dev/kfd: the amdgpu driver's KFD is not loaded (no amdgpu kernel "
            "module, or one without KFD), or the container was started without "
            "--device=/dev/kfd"
        )
        return Verdict(Tri.TRUE, (text,))
    held = "the amdgpu driver refused to open /dev/kfd"
    hint = (
        "what the kernel log says (sudo dmesg | grep -i -e kfd -e amdgpu, or --hardware FILE: a "
        "compat probe profile records the amdgpu driver): a GPU KFD does not support, a driver "
        "that failed to load (a DKMS build error), or a resource it lacks"
    )
    return _open(held, Unknown("hardware.amdgpu_driver", hint))


def target_refused(facts: Facts) -> Verdict:
    """A package's own check named the GPU target the runtime reports and refused it (it requires
    another target, does not know this one, or its per-target table lacks it): that package
    does not run on this target, and the message settles it. The target is the GPU's own or
    the one HSA_OVERRIDE_GFX_VERSION names; either way the package refuses what it was given."""
    if "gpu_target_refused" not in facts.builds or _nvidia_only(facts.hardware):
        return FALSE
    text = (
        "a package's own check refused the GPU target the runtime reports (the message names "
        "it): that package has no code or no entry for it"
    )
    return Verdict(Tri.TRUE, (text,))


def cuda_build_no_driver_on_amd(facts: Facts) -> Verdict:
    """torch's CUDA build found no NVIDIA driver (`Found no NVIDIA driver on your system`,
    `cuda_no_driver`): where the log shows AMD GPUs and no NVIDIA one, torch is the wrong build
    for the machine (a ROCm build says `No HIP GPUs are available` instead). TRUE where the log
    lists the machine's GPUs and all are AMD's; where it only names AMD GPUs (rocminfo's
    `Name: gfx1030`, a banner), whether an NVIDIA GPU is there too is asked. A log that shows no
    GPU, or an NVIDIA one, is not this rule's: the same message is a machine without an NVIDIA
    driver (a container without the GPU, a CPU-only runtime)."""
    if "cuda_no_driver" not in facts.builds:
        return FALSE
    hardware = facts.hardware
    amd = _amd(hardware)
    if hardware is None or not amd or len(amd) != len(hardware.gpus):
        return FALSE
    names = ", ".join(sorted({g.gfx_target or g.name for g in amd}))
    text = (
        f"torch is a CUDA build (its message: no NVIDIA driver) on AMD GPUs ({names}): it "
        "carries no HIP code; torch's ROCm build drives them"
    )
    if hardware.partial:
        hint = (
            "whether the machine also has an NVIDIA GPU (nvidia-smi -L; rocminfo | grep gfx): "
            "with AMD GPUs only, install torch's ROCm build"
        )
        return _open(text, Unknown("hardware.gpus", hint))
    return Verdict(Tri.TRUE, (text,))


CHECKS = {
    "hip_isa": isa_rejected,
    "hip_library": library_kernels_missing,
    "hip_device": no_amd_gpu,
    "rocm_loader": rocm_library_missing,
    "bitsandbytes_rocm_library": bitsandbytes_rocm_library,
    "flash_attn_rocm_arch": flash_attn_arch_refused,
    "flash_attn_nvcc": flash_attn_nvcc,
    "hip_target": target_refused,
    "hip_override_fault": override_fault,
    "rocm_kfd": kfd_not_accessible,
    "torch_cuda_no_driver": cuda_build_no_driver_on_amd,
}


def evaluate(key: str, facts: Facts) -> Verdict:
    """The derived condition `key` (compat.kb.derived.HIP_LOG) for these facts."""
    return CHECKS[key](facts)
