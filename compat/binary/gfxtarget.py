"""AMD GPU targets and target IDs: which code object a GPU runs.

A target ID is a processor and its feature settings, `gfx90a:sramecc+:xnack-` (LLVM's
AMDGPUUsage, "Target ID"): a code object loads on a GPU whose processor is the code object's
(or one its generic target covers: `gfx11-generic` serves gfx1100 ... gfx1154, not
the gfx11.7 parts, which have `gfx11-7-generic`) and whose
settings agree with every feature the code object states; a feature left out (`gfx942`) means
"any". A GPU setting that is not known is not held against the code object: that is never a
finding, only the unknown.

`amdgcnspirv` (`--offload-arch=amdgcnspirv`, bundle ID `hip-spirv64-amd-amdhsa--amdgcnspirv`:
clang's HIPSupport.rst, "SPIR-V Support on HIPAMD ToolChain") is AMDGCN-flavoured SPIR-V that
the HIP runtime compiles for the concrete GPU when it loads it: it names no processor, so no GPU
is ruled out by it; whether the installed runtime compiles it is not known from the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_OVERRIDE = re.compile(r"\s*(\d{1,2})\.(\d{1,2})\.(\d{1,2})\s*")
SPIRV = "amdgcnspirv"  # the offload arch of AMDGCN-flavoured SPIR-V (triple spirv64-amd-amdhsa)
_ID = re.compile(r"(gfx[0-9]+[0-9a-f]*(?:-[0-9]+)*(?:-generic)?)((?::[a-z]+[+-])*)")

# LLVM AMDGPUUsage, "Generic processors": the processors each generic target's code runs on.
# Checked (issue 43) against LLVM's TargetParser.cpp, whose AMDGPUSubArchNames lists each
# generic target followed by its processors; gfx940/gfx941 (removed from LLVM since) stay in
# gfx9-4-generic as the table listed them when they existed (ROCm/llvm-project@06c62775e4cd
# still groups GK_GFX9_4_GENERIC's features under gfx942's).
GENERIC = {
    "gfx9-generic": ("gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"),
    "gfx9-4-generic": ("gfx940", "gfx941", "gfx942", "gfx950"),
    "gfx10-1-generic": ("gfx1010", "gfx1011", "gfx1012", "gfx1013"),
    "gfx10-3-generic": (
        "gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
    ),
    # gfx1154 joined with LLVM's gfx11.5 additions (TargetParser.cpp AMDGPUSubArchNames:
    # "gfx11-generic" ... "gfx1153", "gfx1154"); ROCm/llvm-project@06c62775e4cd TargetParser.cpp
    # (fillAMDGCNFeatureMap) gives GK_GFX11_GENERIC the case of gfx1100-gfx1103, gfx1150-gfx1153
    # only: gfx1170 has its own feature set (wmma-128b, not gfx11's wmma-256b), so it is not
    # covered by gfx11-generic.
    "gfx11-generic": (
        "gfx1100", "gfx1101", "gfx1102", "gfx1103",
        "gfx1150", "gfx1151", "gfx1152", "gfx1153", "gfx1154",
    ),
    # RDNA 4m (gfx11.7): its own generic target (TargetParser.cpp AMDGPUSubArchNames
    # "gfx11-7-generic", "gfx1170", "gfx1171", "gfx1172"; clang OffloadArch GFX11_7_GENERIC;
    # the feature case GK_GFX1170..GK_GFX1172, GK_GFX11_7_GENERIC)
    "gfx11-7-generic": ("gfx1170", "gfx1171", "gfx1172"),
    "gfx12-generic": ("gfx1200", "gfx1201"),
    # llvm-project#183381 (GCNProcessors.td: "[gfx1250, gfx1251]"); ROCr's ISA registry maps
    # gfx1250 to it since rocm-systems#9741
    "gfx12-5-generic": ("gfx1250", "gfx1251"),
    # TargetParser.cpp AMDGPUSubArchNames: "gfx13-generic", "gfx1310"
    "gfx13-generic": ("gfx1310",),
}  # fmt: skip


def gfx_name(value: int) -> str | None:
    """KFD's `gfx_target_version` (major*10000 + minor*100 + stepping) -> `gfx942`; the minor
    and stepping are printed in hex (90010 -> gfx90a, 90012 -> gfx90c). None for 0 (a CPU)."""
    if value <= 0 or value >= 1_000_000:
        return None
    major, minor, step = value // 10000, (value // 100) % 100, value % 100
    if minor > 15 or step > 15:
        return None
    return f"gfx{major}{minor:x}{step:x}"


def override_target(value: str | None) -> str | None:
    """`HSA_OVERRIDE_GFX_VERSION=11.0.0` -> `gfx1100` (`9.4.2` -> gfx942); None if malformed."""
    if not value:
        return None
    match = _OVERRIDE.fullmatch(value)
    if match is None:
        return None
    major, minor, step = (int(g) for g in match.groups())
    return gfx_name(major * 10000 + minor * 100 + step)


def split_target_id(text: str) -> tuple[str, dict[str, bool]] | None:
    """`gfx90a:sramecc+:xnack-` -> ("gfx90a", {"sramecc": True, "xnack": False})."""
    match = _ID.fullmatch(text.strip())
    if match is None:
        return None
    features = {}
    for item in match.group(2).split(":"):
        if item:
            features[item[:-1]] = item.endswith("+")
    return match.group(1), features


def bundle_target(entry_id: str) -> str | None:
    """The target ID of a clang offload bundle entry: `hipv4-amdgcn-amd-amdhsa--gfx942:xnack-`
    -> `gfx942:xnack-`, `hip-spirv64-amd-amdhsa--amdgcnspirv` -> `amdgcnspirv`; None for the
    host entry or another device (`host-x86_64-...`, SYCL's `sycl-spir64-...`).

    The entry ID is `<kind>-<triple>-<target ID>` and the triple has three components or four,
    the fourth (the environment) possibly empty (LLVM OffloadBundler.cpp, OffloadTargetInfo:
    it splits the target ID off the right and rebuilds the triple with its environment). So
    `hip-amdgcn-amd-amdhsa-unknown-gfx90a`, `...-amdhsa--gfx90a` and `...-amdhsa-gfx90a` all
    name gfx90a; a generic target keeps its dashes (`...--gfx9-4-generic`)."""
    kind, _, rest = entry_id.partition("-")
    if kind not in ("hip", "hipv4", "openmp"):
        return None
    for triple, arch in (("spirv64-amd-amdhsa", SPIRV), ("amdgcn-amd-amdhsa", None)):
        if not rest.startswith(triple + "-"):
            continue
        tail = rest[len(triple) + 1 :]
        # The environment is one component that is not itself a target ID (`unknown`, `gnu`,
        # or empty): a target ID starts with `gfx` (or is `amdgcnspirv`).
        candidates = [tail]
        env, dash, after = tail.partition("-")
        if dash and re.fullmatch(r"[a-z0-9_.]*", env) and not env.startswith("gfx"):
            candidates.append(after)
        for target in candidates:
            if arch is not None:
                if target == arch:
                    return arch
            elif split_target_id(target) is not None:
                return target
        return None
    return None


def runs(code_target: str, gpu_target: str, gpu_features: str | None) -> bool | None:
    """True: the code object loads on the GPU; False: it cannot; None: it depends on a GPU
    feature setting that is not known (xnack, mostly, which the kernel's mode decides)."""
    if code_target == SPIRV:  # compiled for the GPU at load time, if the runtime can
        return None
    code = split_target_id(code_target)
    gpu = split_target_id(gpu_target + (f":{gpu_features}" if gpu_features else ""))
    if code is None or gpu is None:
        return None
    processor, wanted = code
    if processor != gpu[0] and gpu[0] not in GENERIC.get(processor, ()):
        return False
    answer: bool | None = True
    for feature, setting in wanted.items():
        have = gpu[1].get(feature)
        if have is None:
            answer = None
        elif have != setting:
            return False
    return answer


def any_may_run(code_targets: Iterable[str], gpu_target: str, gpu_features: str | None) -> bool:
    """Whether one of the code objects may load on the GPU (`runs` True, or not known): a GPU is
    left without code only where every one of them is ruled out."""
    return any(runs(code, gpu_target, gpu_features) is not False for code in code_targets)


def target_key(target: str) -> tuple[int, int, int, str]:
    """Sort key: gfx900 < gfx906 < gfx90a < gfx942 < gfx1100 < gfx11-generic: by major, minor
    and stepping (the last two characters, hex digits), then the whole ID."""
    if target == SPIRV:  # after every processor
        return (1 << 30, 0, 0, target)
    processor = target.partition(":")[0]
    match = re.fullmatch(r"gfx(\d+)([0-9a-f])([0-9a-f])", processor)
    if match is None:  # a generic target: after its family's processors
        family = re.match(r"gfx(\d+)", processor)
        return (int(family.group(1)) if family else 0, 99, 99, target)
    return (int(match.group(1)), int(match.group(2), 16), int(match.group(3), 16), target)
