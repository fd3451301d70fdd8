"""Facts about the machine that frameworks print in their own messages, as a table.

torch, the CUDA runtime, NCCL, nvcc and bitsandbytes state what they found about the machine
when something goes wrong: the GPU and its compute capability, the architectures the build
carries, the CUDA version the *driver* supports, the NCCL release, the toolkit, the CUDA build a
library file is named for. Each row of `MESSAGES` is one such message: a literal anchor (the
log is scanned for it, compat.facts.logread), a bounded regex, and what its named groups mean.

The driver's CUDA version (`found version 11000`: the newest CUDA the driver supports, 11.0)
and a build's CUDA version (what torch or a library was compiled for) are different facts and
are never recorded as one another: the first is `cuda_driver` (hardware), the second a `build`.

Only what a message states is recorded; a GPU named by a warning is one GPU seen, never the
machine's GPU list (`gpu_seen`: the count stays unknown).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from compat.facts.logfacts import FactCollector, parse_version
from compat.facts.logread import Hit, Probe, clean, strip_rank


@dataclass(frozen=True)
class MachineKey:
    """The key of this module's probes, so that explain hands their hits here."""

    row: int


def _cuda_number(value: str) -> str:
    """cudaDriverGetVersion's integer (11000, 12080) -> "11.0", "12.8"."""
    number = int(value)
    return f"{number // 1000}.{number % 1000 // 10}"


def _cuda_tag(value: str) -> str:
    """A library tag's digits (129, 118, 110) -> "12.9", "11.8", "11.0"."""
    return f"{value[:-1]}.{value[-1]}" if len(value) == 2 else f"{value[:2]}.{value[2:]}"


def _sm(value: str) -> str:
    """sm_120 -> "12.0", sm_86 -> "8.6"."""
    return f"{value[:-1]}.{value[-1]}"


def _arch_list(value: str) -> str:
    """torch's list as printed: `sm_50 sm_60 ... compute_90` (SASS, then PTX)."""
    return " ".join(re.findall(r"\b(?:sm|compute)_\d{2,3}[af]?\b", value))


def _same(value: str) -> str:
    return value


def _major_minor(value: str) -> str:
    """A ROCm/HIP version as printed (6.2.41133-dd7f95766) -> its major.minor ("6.2")."""
    parts = value.split(".")
    return f"{parts[0]}.{parts[1]}" if len(parts) > 1 else value


def _gfx_list(value: str) -> str:
    """`['gfx900', 'gfx906', ..., 'gfx1100']` (torch.cuda.get_arch_list() on ROCm) -> targets."""
    return " ".join(re.findall(r"gfx[0-9a-f]{3,4}(?:-generic)?(?::[a-z]+[+-])*", value))


# The words of a field's key that say it names a GPU's target, and those that say the target is
# one a build, a check or an override asks for (a list, a requirement, a setting), not the GPU's.
_TARGET_WORDS = frozenset({"arch", "architecture", "gfx", "target", "isa", "compute", "gpu"})
_REQUEST_WORDS = frozenset({
    "targets", "archs", "architectures", "build", "building", "built", "compile", "compiling",
    "compiled", "offload", "override", "supported", "support", "requires", "required",
    "require", "expected", "requested", "want", "list",
})  # fmt: skip
_STATED = re.compile(
    r"^(?P<lead>--?)?(?P<key>.+?)\s{0,2}(?P<sep>[:=])\s{0,24}['\"]?(?:amdgcn-amd-amdhsa--)?"
    r"(?P<gfx>gfx[0-9a-f]{3,4})"
)
_VARIABLE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")


def _stated_target(raw: str) -> str:
    """The GPU target a `KEY: gfxNNN` / `key=gfxNNN` field states, or "" where the field is not
    the GPU's: a command-line flag (`--offload-arch=gfx1100`, `-mcpu=gfx906`), an environment or
    build variable (`AMDGPU_TARGETS=gfx1030`, `PYTORCH_ROCM_ARCH: gfx1100`: settings, not what
    the GPU is), or a key whose words say the target is one asked for (`Building for GPU arch:`,
    `supported:`, `requires:`). A word of the key (at most eight) must name a target."""
    found = _STATED.match(raw.strip())
    if found is None or found.group("lead"):
        return ""
    key = found.group("key").strip()
    if _VARIABLE.match(key.split()[-1]):
        return ""
    words = [w.lower() for w in re.split(r"[\s_.-]+|(?<=[a-z])(?=[A-Z])", key) if w]
    if not _TARGET_WORDS.intersection(words) or _REQUEST_WORDS.intersection(words):
        return ""
    return found.group("gfx")


class Field(NamedTuple):
    group: str  # the regex group read
    kind: str  # LogFact kind: gpu_seen | compute_capability | arch_list | cuda_driver | build | package | installed | undefined_symbol
    key: str  # the fact's key ("" with `package`: the group `name`; "@group": that group's text)
    convert: Callable[[str], str] = _same


class Message(NamedTuple):
    anchor: bytes
    pattern: re.Pattern[str]
    fields: tuple[Field, ...]
    source: str  # who prints it, as reported


_GPU = r"(?P<gpu>(?:NVIDIA|Tesla|Quadro|GeForce|TITAN|RTX|A\d{2,3}|H\d{2,3}|B\d{3}|L\d{1,2})[^:()]{0,80}?)"

# One row per message. Anchors are literals every matching line contains; rows are scanned where
# a run starts (compat.facts.logread: the first STARTUP bytes and after every start-up marker),
# which is where these messages are printed (CUDA and NCCL initialisation, imports).
MESSAGES: tuple[Message, ...] = (
    # torch/cuda/__init__.py _check_capability: "NVIDIA GeForce RTX 5090 with CUDA capability
    # sm_120 is not compatible with the current PyTorch installation."
    Message(
        b"with CUDA capability sm_",
        re.compile(_GPU + r" with CUDA capability sm_(?P<sm>\d{2,3}) is not compatible"),
        (
            Field("gpu", "gpu_seen", "0"),
            Field("sm", "compute_capability", "0", _sm),
            Field("gpu", "installed", "torch"),
        ),
        "torch capability warning",
    ),
    # "The current PyTorch install supports CUDA capabilities sm_50 sm_60 ... sm_90."
    Message(
        b"install supports CUDA capabilities",
        re.compile(
            r"install supports CUDA capabilities (?P<list>(?:(?:sm|compute)_\d{2,3}[af]?\s?){1,32})"
        ),
        (Field("list", "arch_list", "torch", _arch_list), Field("list", "installed", "torch")),
        "torch capability warning",
    ),
    # torch < 1.x: "Found GPU0 GeForce GTX 770 which is of cuda capability 3.0."
    Message(
        b"which is of cuda capability",
        re.compile(
            r"Found GPU(?P<index>\d{1,2}) (?P<gpu>\S.{0,80}?) which is of cuda capability "
            r"(?P<cc>\d{1,2}\.\d)"
        ),
        (
            Field("gpu", "gpu_seen", "0"),
            Field("cc", "compute_capability", "0"),
            Field("gpu", "installed", "torch"),
        ),
        "torch capability warning",
    ),
    # nccl-tests' device list: "#  Rank  0 Group  0 Pid   4766 on   GENOA-06 device  0 [0x21]
    # NVIDIA GeForce RTX 5090", one line per rank.
    Message(
        b"#  Rank ",
        re.compile(
            r"#\s+Rank\s+\d{1,5} Group\s+\d{1,5} Pid\s+\d{1,8} on\s+\S{1,80} device\s+"
            r"(?P<index>\d{1,3}) \[[^\]]{1,40}\] (?P<gpu>\S.{0,80}?)\s*$"
        ),
        (Field("gpu", "gpu_seen", "@index"),),
        "nccl-tests device list",
    ),
    # The dynamic loader, through Python's import: "ImportError: /venv/.../flash_attn_2_cuda.cpython
    # -311-x86_64-linux-gnu.so: undefined symbol: _ZN3c10...": the file and the symbol, which the
    # installed files confirm or rule out (compat.diagnose.binaryconfirm, issue 33).
    Message(
        b"undefined symbol: ",
        re.compile(
            r"(?P<file>[^\s:'\"]{1,400}\.so(?:\.\d{1,6}){0,4})\s{0,4}:\s{0,4}undefined symbol:"
            r"\s{0,4}(?P<symbol>[A-Za-z_][\w.$@]{0,2000})"
        ),
        (Field("symbol", "undefined_symbol", "@file"),),
        "the dynamic loader (an import)",
    ),
    # The CUDA runtime through torch: the driver's CUDA version, as cudaDriverGetVersion gives it.
    Message(
        b"found version",
        re.compile(r"driver on your system is too old \(found version (?P<v>\d{4,6})\)"),
        (Field("v", "cuda_driver", "cuda_driver", _cuda_number),),
        "CUDA runtime (driver's CUDA version)",
    ),
    # NCCL's INFO banner ("NCCL INFO cudaDriverVersion 12080"): the driver's CUDA version again.
    Message(
        b"cudaDriverVersion",
        re.compile(r"\bcudaDriverVersion (?P<v>\d{4,6})\b"),
        (Field("v", "cuda_driver", "cuda_driver", _cuda_number),),
        "NCCL INFO (driver's CUDA version)",
    ),
    # "NCCL INFO NCCL version 2.25.1+cuda12.8"; torch's "... unhandled cuda error, NCCL version
    # 2.25.1"; an environment dump's NCCL_VERSION=2.21.5.
    Message(
        b"NCCL version",
        re.compile(r"\bNCCL version (?P<v>\d{1,2}\.\d{1,3}\.\d{1,3})\b"),
        (Field("v", "build", "nccl"),),
        "NCCL",
    ),
    Message(
        b"NCCL_VERSION=",
        re.compile(r"\bNCCL_VERSION=(?P<v>\d{1,2}\.\d{1,3}\.\d{1,3})\b"),
        (Field("v", "build", "nccl"),),
        "environment",
    ),
    # `nvcc --version`: "Cuda compilation tools, release 12.4, V12.4.99"
    Message(
        b"Cuda compilation tools, release",
        re.compile(r"Cuda compilation tools, release (?P<v>\d{1,2}\.\d{1,2})"),
        (Field("v", "build", "nvcc"),),
        "nvcc",
    ),
    # bitsandbytes names the library it loads for torch's CUDA build (torch.version.cuda, or
    # BNB_CUDA_VERSION): libbitsandbytes_cuda129.so is CUDA 12.9.
    Message(
        b"libbitsandbytes_cuda",
        re.compile(r"libbitsandbytes_cuda(?P<v>1\d{2}|\d{2})(?:_nocublaslt\d*)?\.(?:so|dll|dylib)"),
        (
            Field("v", "build", "torch_cuda", _cuda_tag),
            Field("v", "installed", "bitsandbytes"),
            Field("v", "installed", "torch"),  # the name comes from torch.version.cuda
        ),
        "bitsandbytes library name",
    ),
    # A CUDA build in a path or a requirement: `torch-2.3.0+cu121.dist-info`, `torch==2.1.0+cu118`.
    Message(
        b"+cu",
        re.compile(r"(?<![\w.-])torch(?:-|==)(?P<v>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?\+cu\d{2,3})\b"),
        (Field("v", "package", "torch"),),
        "CUDA build label",
    ),
    # --- AMD ROCm (issue 43) -------------------------------------------------------------------
    # rocminfo's agent list: "  Name:                    gfx942" (one per GPU agent; the CPU
    # agents' names are CPU models): a GPU's target, the count unknown.
    Message(
        b"Name:",
        re.compile(r"^\s*Name:\s+(?P<gfx>gfx[0-9a-f]{3,4})\s*$"),
        (Field("gfx", "gfx_target", "0"),),
        "rocminfo",
    ),
    # rocminfo's ISA block: "      Name:                    amdgcn-amd-amdhsa--gfx1102" (with the
    # target features where the GPU has them: "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-").
    Message(
        b"amdgcn-amd-amdhsa--gfx",
        re.compile(
            r"^\s*Name:\s+amdgcn-amd-amdhsa--(?P<gfx>gfx[0-9a-f]{3,4})(?::[a-z]+[+-]){0,4}\s*$"
        ),
        (Field("gfx", "gfx_target", "0"),),
        "rocminfo",
    ),
    # collect_env on ROCm: "GPU models and configuration: AMD Instinct MI300X
    # (gfx942:sramecc+:xnack-)", and torch's device name lines that carry the target.
    Message(
        b"(gfx",
        re.compile(r"(?P<gpu>AMD [^():]{1,80}?|Radeon[^():]{1,80}?) \((?P<gfx>gfx[0-9a-f]{3,4})"),
        (Field("gpu", "gpu_seen", "0"), Field("gfx", "gfx_target", "0")),
        "collect_env (ROCm)",
    ),
    # collect_env: "ROCM used to build PyTorch: 6.2.41133-dd7f95766" (torch.version.hip), and
    # "HIP runtime version: 6.2.41133", "MIOpen runtime version: 3.2.0" (torch's build config).
    Message(
        b"ROCM used to build PyTorch",
        re.compile(r"ROCM used to build PyTorch\s*:\s*(?P<v>\d{1,2}\.\d{1,3}(?:\.\d{1,6})?)"),
        (Field("v", "build", "torch_rocm", _major_minor), Field("v", "installed", "torch")),
        "collect_env",
    ),
    Message(
        b"HIP runtime version",
        re.compile(r"HIP runtime version\s*:\s*(?P<v>\d{1,2}\.\d{1,3}(?:\.\d{1,6})?)"),
        (Field("v", "build", "hip_runtime", _major_minor),),
        "collect_env",
    ),
    Message(
        b"MIOpen runtime version",
        re.compile(r"MIOpen runtime version\s*:\s*(?P<v>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?)"),
        (Field("v", "build", "miopen"),),
        "collect_env",
    ),
    # torch.cuda.get_device_properties(0) on ROCm: "_CudaDeviceProperties(name='AMD Radeon RX
    # 7900 XTX', major=11, minor=0, gcnArchName='gfx1100', ...)".
    Message(
        b"gcnArchName",
        re.compile(r"gcnArchName='(?P<gfx>gfx[0-9a-f]{3,4})"),
        (Field("gfx", "gfx_target", "0"),),
        "torch device properties",
    ),
    # A GPU target stated as a field's value, whichever program prints it: "Architecture:
    # gfx900" (TheRock's Windows installer), "GPU architecture: gfx1152", "AMD arch: gfx1151"
    # (ComfyUI), "gcnArchName: gfx1034" (hipInfo), ollama's logfmt "compute=gfx900", HIP's
    # "... for ISA: amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", rocm-smi's "GPU[1] : GFX Version:
    # gfx1036" (its GPU[N] prefix gives the GPU's index; else GPU 0). What a build asks for is not
    # the GPU's: see _stated_target for the keys and values it refuses.
    Message(
        b"gfx",
        re.compile(
            r"(?:\bGPU\[(?P<index>\d{1,2})\]\s{0,24}:\s{0,24})?"
            r"(?P<stated>(?:--?|\b)[A-Za-z][\w.-]{0,40}(?: [A-Za-z][\w.-]{0,40}){0,7}?"
            r"\s{0,2}[:=]\s{0,24}['\"]?(?:amdgcn-amd-amdhsa--)?gfx[0-9a-f]{3,4}"
            r"(?::[a-z]+[+-]){0,4}['\"]?(?![\w*;]|[\s,]{1,2}['\"]?(?:amdgcn-amd-amdhsa--)?gfx))"
        ),
        (Field("stated", "gfx_target", "@index", _stated_target),),
        "a stated GPU target",
    ),
    # A device banner that names the target with its hexadecimal ID, the two the same digits
    # (llama.cpp/ggml: "  Device 1: AMD Radeon 740M Graphics, gfx1103 (0x1103), VMM: no", with
    # the target's features where it has them: "gfx90a:sramecc+:xnack- (0x90a)"): one GPU per
    # device index.
    Message(
        b"(0x",
        re.compile(
            r"\bDevice (?P<index>\d{1,2}): (?P<gpu>[^,:()]{2,80}?), "
            r"(?P<gfx>gfx(?P<digits>[0-9a-f]{3,4}))(?::[a-z]+[+-]){0,4} \(0x(?P=digits)\)"
        ),
        (Field("gpu", "gpu_seen", "@index"), Field("gfx", "gfx_target", "@index")),
        "device banner (ROCm)",
    ),
    # rocBLAS without a Tensile library for the GPU: "rocBLAS error: Cannot read
    # /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch :
    # gfx1032".
    Message(
        b"for GPU arch",
        re.compile(r"for GPU arch\s*:\s*(?P<gfx>gfx[0-9a-f]{3,4})"),
        (Field("gfx", "gfx_target", "0"),),
        "rocBLAS",
    ),
    # HIP's fatbin loader names the device's target ID it found no code object for
    # (ROCm/clr hipamd/src/hip_fatbin.cpp: "No compatible code objects found for: %s, value of
    # HIP_FORCE_SPIRV_CODEOBJECT: %d", the device's isa().targetId(), e.g. gfx1201 or
    # gfx90a:sramecc+:xnack-): the GPU's own target, not one a build asked for.
    Message(
        b"No compatible code objects found for",
        re.compile(r"No compatible code objects found for: (?P<gfx>gfx[0-9a-f]{3,4})\b"),
        (Field("gfx", "gfx_target", "0"),),
        "HIP loader",
    ),
    # HSA_OVERRIDE_GFX_VERSION as a command line or an environment dump sets it
    # (`HSA_OVERRIDE_GFX_VERSION=11.0.0`, `export HSA_OVERRIDE_GFX_VERSION="10.3.0"`,
    # `HSA_OVERRIDE_GFX_VERSION: 11.0.0`), Python sets it (`putenv("HSA_OVERRIDE_GFX_VERSION",
    # "10.3.0")`, `os.environ["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0"`) or a report says it
    # (`I set HSA_OVERRIDE_GFX_VERSION to 11.5.1`). A version only: `=11.0` is not one.
    Message(
        b"HSA_OVERRIDE_GFX_VERSION",
        re.compile(
            r"HSA_OVERRIDE_GFX_VERSION[\"'\]]?\s{0,3}(?:=|:|,|\s(?:to|is|as)\s)\s{0,3}[\"']?"
            r"(?P<v>\d{1,2}\.\d{1,2}\.\d{1,2})\b"
        ),
        (Field("v", "gfx_override", "gfx_override"),),
        "environment",
    ),
    # torch.cuda.get_arch_list() on a ROCm build, printed: ['gfx900', 'gfx906', ..., 'gfx1100'].
    # Not flash-attention setup.py's "One of GPU archs of ['gfx908'] is invalid or not supported":
    # that list is the targets its build was asked for, not torch's.
    Message(
        b"['gfx",
        re.compile(
            r"(?<!GPU archs of )"
            r"\[(?P<list>'gfx[0-9a-f]{3,4}'(?:,\s?'gfx[0-9a-z:+-]{3,30}'){0,40})\]"
        ),
        (Field("list", "arch_list", "torch_hip", _gfx_list),),
        "torch.cuda.get_arch_list()",
    ),
    # An installed distribution's directory in a traceback or listing.
    Message(
        b".dist-info",
        re.compile(
            r"(?<![\w.-])(?P<name>torch|triton|xformers|flash_attn|bitsandbytes|nvidia_nccl_cu1[23])"
            r"-(?P<v>\d[\w.+]{0,40}?)\.dist-info"
        ),
        (Field("v", "package", ""),),
        "dist-info directory",
    ),
)


class MachineReader:
    """The probes of `MESSAGES` and what their hits mean, recorded into a FactCollector."""

    def __init__(self, collector: FactCollector) -> None:
        self.collector = collector

    def probes(self) -> list[Probe]:
        return [
            Probe(message.anchor, MachineKey(row), startup=True)
            for row, message in enumerate(MESSAGES)
        ]

    def handle(self, hit: Hit) -> None:
        assert isinstance(hit.key, MachineKey)
        text = strip_rank(clean(hit.lines[0]))[0]
        message = MESSAGES[hit.key.row]
        for found in message.pattern.finditer(text):
            self._record(message, found, hit.line, text)

    def _record(self, message: Message, found: re.Match[str], line: int, text: str) -> None:
        for field in message.fields:
            raw = found.group(field.group)
            if raw is None:
                continue
            value = field.convert(raw.strip())
            # "@group": that group's text, GPU 0 where the message leaves it out
            key = (found.group(field.key[1:]) or "0") if field.key.startswith("@") else field.key
            if field.kind == "package":
                name = field.key or found.group("name")
                self.collector.add_package(name, value, line, text, message.source)
            elif field.kind == "installed":
                self.collector.add("installed", field.key, "", line, text, message.source)
            elif field.kind in (
                "gpu_seen", "arch_list", "undefined_symbol", "gfx_target", "gfx_override",
            ):  # fmt: skip
                if value:
                    self.collector.add(field.kind, key, value, line, text, message.source)
            elif parse_version(value) is not None:
                self.collector.add(field.kind, key, value, line, text, message.source)
