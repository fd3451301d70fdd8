"""Facts a ROCm failure message states about the run that failed (issue 43).

Read from the line a rule's symptom matched (compat.facts.logversions.record_shapes), so they
are facts of that failure wherever the log prints it, never guesses from prose:

- `HSA_STATUS_ERROR_INVALID_ISA`: a code object *was* loaded and the GPU rejected its
  instructions (build fact `hsa_invalid_isa` = 1);
- `No HIP GPUs are available` / `hipErrorNoDevice` / its string `no ROCm-capable device is
  detected`: a ROCm (HIP) build found no AMD GPU (`hip_no_device` = 1);
- a ROCm library the loader cannot open, with its soname major: `libamdhip64.so.7` names the HIP
  runtime of ROCm 7 (`missing_hip` = 7); MIOpen, rocBLAS, hipBLASLt and the others keep majors of
  their own (`libMIOpen.so.1` under ROCm 5 to 7), so only that one is missing is recorded
  (`missing_rocm_lib`);
- a rocBLAS / hipBLASLt kernel library that is not there for a GPU target: `Cannot read
  ".../TensileLibrary_lazy_gfx1102.dat"`, `TensileLibrary.dat: No such file or directory for GPU
  arch : gfx1032` (`hip_library_missing` = 1, and the target the runtime reported, `gfx1102`);
  rocBLAS 5.x's `Cannot read <dir>/TensileLibrary.dat` names no target (`hip_library_missing`
  only: the target is then asked); hipBLASLt's `No paths matched <dir>/*gfx906*co` names the
  target its glob looked for;
- a package's own check that names the GPU target the runtime reports and refuses it:
  `mla_gluon requires gfx950 (CDNA4), got gfx942`, `Unknown GPU architecture: gfx1151`, a
  per-target table without it (`KeyError: 'gfx1151'`), `One of GPU archs of ['gfx1151'] is
  invalid or not supported with ...` (`gpu_target_refused` = 1; flash-attention's setup.py
  wording is its own rule's, `flash_attn_arch_refused`);
- a GPU memory access fault (`Memory access fault by GPU node-1 ... Reason: Page not present
  or supervisor privilege.`: `gpu_memory_fault` = 1), judged against an override the log states;
- whose import the loader failed in: the HIP runtime missing where the failure's traceback runs
  through torch's own files (`from torch._C import *`: `missing_hip_torch` = 1), so torch's
  ROCm build bears on it; a program that is not torch's (llamafile's ggml-rocm.so, a C++
  binary) leaves torch out of it;
- the compute device node the runtime could not open (`Unable to open /dev/kfd read-write:
  Permission denied`: `kfd_open_failed` = 1; `No such file or directory`: 2; any other errno,
  `Operation not permitted`, `Cannot allocate memory`: 3) and the kernel's word that its KFD
  does not support the GPU (`kfd kfd: amdgpu: PITCAIRN  not supported in kfd`:
  `kfd_unsupported_gpu` = 1);
- the ROCm library bitsandbytes looked for and did not find, `libbitsandbytes_rocm80.so`
  (`bnb_rocm_library` = 80; `libbitsandbytes_rocm72.dll` on Windows = 72);
- torch's CUDA build finding no NVIDIA driver, `Found no NVIDIA driver on your system` (c10/cuda's
  device count, CUDA builds only; a ROCm build says `No HIP GPUs are available`):
  `cuda_no_driver` = 1, judged against the AMD GPUs the log shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compat.facts.logfacts import FactCollector
    from compat.facts.shapes import Shape

# The HIP runtime's soname major is the ROCm major it ships with (libamdhip64.so.5/.6/.7).
HIP_SONAME = "libamdhip64.so"
# ROCm libraries whose sonames keep majors of their own (not ROCm's): present or missing only.
ROCM_SONAMES = frozenset({
    "libMIOpen.so", "librocblas.so", "libhipblas.so", "libhipblaslt.so", "librccl.so",
    "libhsa-runtime64.so", "libhiprtc.so", "librocsolver.so", "libhipsolver.so",
    "libhipsparse.so", "librocsparse.so", "libhipfft.so", "librocfft.so", "librocrand.so",
    "libhiprand.so", "libamd_comgr.so", "libroctx64.so", "libroctracer64.so",
    "librocprofiler-register.so", "libhipfile.so",
})  # fmt: skip
# A GPU target as a word of its own (gfx1201, gfx90a), not a family build name (gfx120X)
_GPU_TARGET = re.compile(r"\b(gfx[0-9a-f]{3,4})\b")
# A Tensile kernel library named for its target: TensileLibrary_lazy_gfx1102.dat,
# TensileLibrary_Type_..._gfx90a.co
_TENSILE = re.compile(
    r"TensileLibrary\w{0,200}?_(?P<gfx>gfx[0-9a-f]{3,4})\w{0,40}\.(?:dat|co|hsaco)"
)
_TENSILE_MISSING = re.compile(r"Cannot read|Could not load|No such file|cannot open", re.IGNORECASE)
_ARCH = re.compile(r"for GPU arch\s*:\s*(?P<gfx>gfx[0-9a-f]{3,4})")
# hipBLASLt's glob for the target's kernel files matched nothing: "No paths matched
# <dir>/hipblaslt/library/*gfx906*co" (tensile_host.cpp globs `*<processor>*co`)
_GLOB = re.compile(r"No paths matched \S{0,400}?\*(?P<gfx>gfx[0-9a-f]{3,4})\*co\b")
# rocBLAS 5.x names no target: the generic file of the directory it read (no per-target file
# there, or the wrong directory)
_TENSILE_GENERIC = re.compile(
    r"rocBLAS error: Cannot read \S.{0,400}?TensileLibrary\.(?:dat|yaml)\b"
)

# bitsandbytes' loader did not find the ROCm library it named (`Configured ROCm binary not found
# at .../libbitsandbytes_rocm80.so`, `Could not find the bitsandbytes ROCm binary at ...`); on
# Windows the same name ends in .dll (TheRock's Windows torch: `libbitsandbytes_rocm72.dll`)
_BNB_ROCM = re.compile(
    r"(?:binary not found|Could not find the bitsandbytes ROCm binary)"
    r"[^\n]{0,400}?libbitsandbytes_rocm(?P<nn>\d{2,4})\.(?:so|dll)\b"
)

# A package's own check refuses the GPU target by name: it requires another target (`requires
# gfx950 (CDNA4), got gfx942`: aiter's mla_gluon), does not know it (`Unknown GPU architecture:
# gfx1151`: aiter's chip_info), or looks it up in a per-target table that lacks it (`KeyError:
# 'gfx1151'`); `GPU archs of [...] is invalid or not supported` from anything but
# flash-attention's setup.py (that wording is its own rule's).
_TARGET_REFUSED = re.compile(
    r"\brequires? gfx[0-9a-f]{3,4}\b[^\n]{0,120}?\bgot gfx[0-9a-f]{3,4}"
    r"|Unknown GPU arch(?:itecture)?:? ['\"]?gfx[0-9a-f]{3,4}"
    r"|KeyError: ['\"]gfx[0-9a-f]{3,4}[\w:+-]{0,40}['\"]"
    r"|GPU archs? of \[[^\]\n]{0,400}\] is invalid or not supported(?! by Flash-Attention)"
    # ollama's ROCm check against the targets its bundled libraries carry (0.1.x: `amdgpu [0]
    # gfx1103 is not supported by /tmp/.../rocm [gfx1030 ...]`; later: `amdgpu is not supported
    # (supported types:[gfx1030 ...])" gpu_type=gfx1103`). An empty list (`supported
    # types:[]`) is no library found at all, not a target refused: left out
    r"|amdgpu \[[^\]\n]{1,3}\] gfx[0-9a-f]{3,4}\S{0,40} is not supported by"
    r"|amdgpu is not supported \(supported types:\[gfx[^\n]{0,600}?gpu_type=gfx[0-9a-f]{3,4}"
    # flash-attention's CK backend at run time (flash_api.cpp's TORCH_CHECK on the GPU)
    r"|FlashAttention (?:only supports AMD MI200 GPUs or newer"
    r"|currently only supports MI100 and RX7000 and above)"
)

# The GPU faulted on a memory access (ROCr's message); alone it names no cause (firmware, the
# kernel driver, a library's kernel: ROCm/ROCm#5724, ROCm/MIOpen#3540)
# (ROCr prints `... node-N (Agent handle: 0x...) on address ...`; prose quoting it does not)
_MEMORY_FAULT = re.compile(r"Memory access fault by GPU node-\d+ \(Agent handle: ")

# ROCr/rocminfo could not open the KFD device node; the errno says why (EACCES: the process may
# not; ENOENT: there is no node, the driver's KFD is not loaded or a container was not given it)
_KFD_OPEN = re.compile(
    r"(?:Unable|Failed) to open /dev/kfd(?: read-write)?:\s*(?P<errno>[A-Za-z][\w ]{0,40})"
)
_KFD_ERRNO = {"Permission denied": "1", "No such file or directory": "2"}
# the kernel's amdgpu driver: its KFD (compute) does not support this GPU
_KFD_UNSUPPORTED = re.compile(r"\bkfd\b[^\n]{0,120}?\bnot supported in kfd\b")

# flash-attention's setup.py (ROCm): the targets asked for (GPU_ARCHS, or the GPU's) are not in
# the list it builds for
_FA_ARCH = re.compile(
    r"GPU archs? of \[[^\]\n]{0,400}\] is invalid or not supported by Flash-Attention"
)
# flash-attn's setup.py took its CUDA path and found no CUDA compiler
_FA_NVCC = re.compile(r"flash_attn was requested, but nvcc was not found")


def record(
    collector: FactCollector, text: str, shapes: Iterable[Shape], line: int, source: str
) -> None:
    """The ROCm facts of one matched message line."""
    if "INVALID_ISA" in text:
        collector.add("build", "hsa_invalid_isa", "1", line, text, source)
    if "Found no NVIDIA driver on your system" in text:
        collector.add("build", "cuda_no_driver", "1", line, text, source)
    if (
        "No HIP GPUs are available" in text
        or "hipErrorNoDevice" in text
        or "no ROCm-capable device is detected" in text
        or "Could not initialize Tensile host: No devices found" in text
    ):
        collector.add("build", "hip_no_device", "1", line, text, source)
        # the failure line that names the GPU's target (`... no ROCm-capable device is detected
        # (gfx1201 & RX 9070 XT)`): one target, not a family build name (gfx120X)
        named = set(_GPU_TARGET.findall(text))
        if len(named) == 1 and ("gfx_target", "0") not in collector.facts:
            collector.add("gfx_target", "0", named.pop(), line, text, source)
    for shape in shapes:
        if shape.kind != "soname" or shape.role != "missing":
            continue
        if shape.name == HIP_SONAME:
            collector.add("build", "missing_hip", shape.value, line, text, source)
            break
        if shape.name in ROCM_SONAMES:
            collector.add("build", "missing_rocm_lib", shape.value, line, text, source)
            break
    found = _ARCH.search(text) or _GLOB.search(text)
    if found is None and _TENSILE_MISSING.search(text):
        found = _TENSILE.search(text)
    if found is not None:
        collector.add("gfx_target", "0", found.group("gfx"), line, text, source)
        collector.add("build", "hip_library_missing", "1", line, text, source)
    elif _TENSILE_GENERIC.search(text):
        collector.add("build", "hip_library_missing", "1", line, text, source)
    bnb = _BNB_ROCM.search(text)
    if bnb is not None:
        collector.add("build", "bnb_rocm_library", bnb.group("nn"), line, text, source)
    kfd = _KFD_OPEN.search(text)
    if kfd is not None:
        errno = kfd.group("errno").strip()
        value = _KFD_ERRNO.get(errno, "3")
        collector.add("build", "kfd_open_failed", value, line, text, source)
    if _KFD_UNSUPPORTED.search(text):
        collector.add("build", "kfd_unsupported_gpu", "1", line, text, source)
    if _MEMORY_FAULT.search(text):
        collector.add("build", "gpu_memory_fault", "1", line, text, source)
    if _TARGET_REFUSED.search(text):
        collector.add("build", "gpu_target_refused", "1", line, text, source)
    if _FA_ARCH.search(text):
        collector.add("build", "flash_attn_arch_refused", "1", line, text, source)
    if _FA_NVCC.search(text):
        collector.add("build", "flash_attn_needs_nvcc", "1", line, text, source)


def record_traceback(
    collector: FactCollector, line: int, text: str, packages: Iterable[str], source: str
) -> None:
    """The facts a matched line's traceback adds (its frames' `site-packages/<pkg>/`
    directories): a HIP runtime the loader could not open while torch's own files imported it
    is torch's (`missing_hip_torch`)."""
    missing = collector.facts.get(("build", "missing_hip"))
    if missing is not None and missing.line == line and "torch" in packages:
        collector.add("build", "missing_hip_torch", "1", line, text, source)
