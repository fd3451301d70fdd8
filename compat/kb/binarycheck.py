"""What the installed native files themselves say will crash (issue 33): findings whose evidence
is `observed` — read from the files, not inferred from version numbers.

Four questions, each answered from the headers compat.binary reads:

- *symbols*: an extension's undefined torch symbols (c10::, at::, torch::, caffe2::) that no
  library of the installed torch exports: it was built against another torch, and its import
  fails with `undefined symbol`;
- *GPU code*: a fat binary with no SASS for a GPU's architecture and no PTX at or below it has no
  kernel for that GPU (`no kernel image is available for execution on the device`); PTX alone is
  compiled by the driver at load; an extension that registers CUDA kernels but carries no device
  code at all has none for any GPU;
- *libraries*: a needed library (`DT_NEEDED`) that the environment provides only in another major;
- *owners*: one file that two installed distributions both install (the second overwrote the
  first).

The rules behind them are not in the YAML knowledge base: their facts are the files, and every
finding names the file it rests on. Rules of the knowledge base that ask the same question of
version numbers (`settled_by: {symbols: PACKAGE}`) defer to the files where they were read.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from compat.binary.elf import BinaryError, Exports
from compat.binary.extensions import REGISTERS_KERNELS, NativeFile, is_torch_symbol
from compat.binary.fatbin import arch_key
from compat.kb.verified import verified_finding
from compat.model import (
    Environment,
    Evidence,
    Finding,
    Fix,
    Gpu,
    Hardware,
    MatchedPackage,
    Origin,
    Severity,
    Status,
    Unknown,
)

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

KIND = "binary"
TORCH = "torch"

# Libraries the system, the C runtime or the NVIDIA driver supply: never expected in a
# site-packages, so their absence says nothing.
_SYSTEM = re.compile(
    r"(ld-linux.*|libc|libm|libdl|librt|libpthread|libutil|libstdc\+\+|libgcc_s|libatomic|libz"
    r"|libcuda|libnvidia-ml|libnvcuvid|libpython3(\.\d+)?m?|libgomp|libresolv|libcrypt)\.so(\.\d+)*"
)
_SONAME = re.compile(r"(?P<base>lib[^/]+?\.so)\.(?P<major>\d+)(\.\d+)*")
# bitsandbytes-style variants: one library per CUDA runtime, of which the loader picks one.
_CUDA_VARIANT = re.compile(r"(?P<stem>.+)_cuda(?P<cuda>\d{3,4})(?P<rest>[^/]*\.so)$")
_ROCM_VARIANT = re.compile(r"(?P<stem>.+)_rocm(?P<rocm>\d{2,4})(?P<rest>[^/]*\.so)$")

_EXAMPLES = 3  # files or symbols named per finding; the JSON lists every file


@dataclass
class BinaryJudgement:
    """What the files said: findings, notes, and the installed torch's own architecture list."""

    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    torch_arch_list: tuple[str, ...] = ()  # sm_XX / compute_XX read from torch's CUDA library
    resolved: dict[str, bool] = field(default_factory=dict)  # package -> every torch symbol found
    document: dict[str, Any] = field(default_factory=dict)  # the report's environment.native
    # each file's missing torch symbols by what decides them (`_cache_key`): for the next run
    symbol_answers: dict[str, list[str]] = field(default_factory=dict)


def judge_binaries(
    files: Sequence[NativeFile],
    shared: Iterable[tuple[str, Sequence[str], Sequence[str], str]],
    env: Environment,
    hardware: Hardware | None,
    torch_cuda: str | None,
    symbol_cache: Mapping[str, object] | None = None,
) -> BinaryJudgement:
    """Every question above over the environment's native files.

    `shared`: (relpath, owners, the owners whose RECORD matches the copy on disk, and how:
    "sha256" or "size") of files two distributions both install; `torch_cuda`: the
    installed torch's CUDA build ("12.4"), which decides which of a package's per-CUDA variant
    libraries its loader takes; `symbol_cache`: an earlier run's `symbol_answers`, whose
    entries are used only where their key (the files' stat signatures) still holds.
    """
    versions = {str(name): str(p.version) for name, p in env.packages.items()}
    versions.update(_torch_pins(env))
    judgement = BinaryJudgement()
    files = _kpack_targets(files, judgement)
    readable = [f for f in files if f.facts is not None]
    loaded = _loaded_variants(readable, torch_cuda, _torch_rocm(env))
    judgement.torch_arch_list = torch_arch_list(readable)
    _symbols(readable, versions, judgement, {} if symbol_cache is None else symbol_cache)
    _gpu_code(loaded, versions, hardware, judgement)
    _hip_code(loaded, versions, hardware, judgement)
    _device_packages(readable, env, versions, hardware, judgement)
    _libraries(readable, loaded, versions, judgement)
    _system_hip_runtime(readable, loaded, versions, hardware, judgement)
    _owners(shared, versions, judgement)
    judgement.document = _document(files, judgement)
    unread = [f for f in files if f.facts is None]
    for f in unread[:_EXAMPLES]:
        judgement.notes.append(f"{f.path}: not read as a native library: {f.problem}")
    if len(unread) > _EXAMPLES:
        judgement.notes.append(
            f"{len(unread) - _EXAMPLES} more native files could not be read "
            "(--format json: environment.native.files)"
        )
    return judgement


def _torch_rocm(env: Environment) -> str | None:
    """The installed torch's ROCm build ("7.1"): its label, else torch/version.py's hip."""
    from compat.probes.rocmbuild import rocm_builds

    torch = env.packages.get(cast("NormalizedName", TORCH))
    if torch is None:
        return None
    location = torch.origin.path if torch.origin is not None else None
    found = rocm_builds({TORCH: torch.version}, location).get("torch_rocm")
    return str(found) if found is not None else None


def _name(package: str) -> NormalizedName:
    return cast("NormalizedName", package)  # RECORD owners are the environment's normalized names


# --- symbols -----------------------------------------------------------------------------------


class _TorchExports:
    """The installed torch's libraries' export tables, opened on first need (a warm run whose
    every answer is cached opens none)."""

    def __init__(self, libraries: Sequence[NativeFile], judgement: BinaryJudgement) -> None:
        self.libraries = libraries
        self.judgement = judgement
        self.tables: list[Exports] | None = None

    def open(self) -> list[Exports]:
        if self.tables is None:
            self.tables = []
            for library in self.libraries:
                try:
                    self.tables.append(Exports(library.path))
                except BinaryError as error:  # named; the others still answer
                    self.judgement.notes.append(
                        f"{library.path}: its exports could not be read: {error}"
                    )
        return self.tables

    @property
    def complete(self) -> bool:
        return self.tables is None or len(self.tables) == len(self.libraries)

    def close(self) -> None:
        for table in self.tables or ():
            table.close()


def _cache_key(f: NativeFile, libraries: Sequence[NativeFile]) -> str | None:
    """What decides one file's missing symbols: its bytes and torch's libraries' (their stat
    signatures). None while any of them is too young to vouch for its bytes."""
    if f.signature is None or any(t.signature is None for t in libraries):
        return None
    import json

    return json.dumps([f.path, f.signature, [[t.path, t.signature] for t in libraries]])


def _symbols(
    files: Sequence[NativeFile],
    versions: Mapping[str, str],
    judgement: BinaryJudgement,
    cache: Mapping[str, object],
) -> None:
    torch_files = [f for f in files if f.package == TORCH]
    users = [
        f
        for f in files
        if f.package != TORCH
        and f.facts is not None
        and any(map(is_torch_symbol, f.facts.undefined))
    ]
    if not users:
        return
    if not torch_files:
        names = sorted({f.package for f in users})
        judgement.notes.append(
            f"{', '.join(names)}: native files need torch's C++ library and torch is not "
            "installed here: their symbols were not checked"
        )
        return
    exports = _TorchExports(torch_files, judgement)
    try:
        by_package: dict[str, list[tuple[NativeFile, list[str], int]]] = defaultdict(list)
        for f in users:
            assert f.facts is not None
            wanted = [s for s in f.facts.undefined if is_torch_symbol(s)]
            key = _cache_key(f, torch_files)
            known = cache.get(key) if key is not None else None
            if isinstance(known, list) and all(isinstance(s, str) for s in known):
                missing = known
                judgement.symbol_answers[str(key)] = missing
            else:
                tables = exports.open()
                try:
                    missing = [s for s in wanted if not any(s in table for table in tables)]
                except BinaryError as error:  # a corrupt hash chain met on the way
                    judgement.notes.append(f"{f.path}: its torch symbols were not checked: {error}")
                    continue
                if key is not None and exports.complete:
                    judgement.symbol_answers[key] = missing
            by_package[f.package].append((f, missing, len(wanted)))
        for package, results in sorted(by_package.items()):
            broken = [(f, missing, wanted) for f, missing, wanted in results if missing]
            judgement.resolved[package] = not broken and exports.complete
            if broken:
                judgement.findings.append(
                    _symbols_finding(package, broken, versions, exports.open())
                )
    finally:
        exports.close()


def _symbols_finding(
    package: str,
    broken: Sequence[tuple[NativeFile, list[str], int]],
    versions: Mapping[str, str],
    exports: Sequence[Exports],
) -> Finding:
    from compat.binary.demangle import demangle

    version = versions.get(package, "")
    torch = versions.get(TORCH, "")
    first, missing, _wanted = broken[0]
    shown = demangle(missing[0])
    abi = _abi_hint(missing, exports)
    total = sum(len(m) for _, m, _ in broken)
    files = f"{len(broken)} native files need" if len(broken) > 1 else f"{first.name} needs"
    title = (
        f"{package} {version}: {files} {total} torch symbol{'s' if total != 1 else ''} the "
        f"installed torch {torch} does not export (`{shown}` in {first.name}): built against "
        f"another torch{abi}; its import fails with `undefined symbol`"
    )
    built_for = _built_for_torch(package, versions)
    summary = (
        f"install the {package} build for torch {torch}"
        + (
            f", or torch {built_for}, the release {package} {version} was built for"
            if built_for
            else ""
        )
        + (" (or build it from source against the installed torch)")
    )
    matched = [
        f"{f.path}: {len(m)} of its {n} torch symbols missing, e.g. {demangle(m[0])}"
        for f, m, n in broken[:_EXAMPLES]
    ]
    if len(broken) > _EXAMPLES:
        matched.append(f"and {len(broken) - _EXAMPLES} more files of {package}")
    return verified_finding(
        id=f"binary-symbols:{package}",
        title=title,
        fix=Fix(summary, (f"torch=={built_for}",) if built_for else ()),
        kind=KIND,
        origin=Origin(first.path),
        packages=(
            MatchedPackage(_name(package), version, Origin(first.path)),
            MatchedPackage(_name(TORCH), torch),
        ),
        matched=tuple(matched),
        severity=Severity.ERROR,
        evidence=Evidence.OBSERVED,
    )


def _abi_hint(missing: Sequence[str], exports: Sequence[Exports]) -> str:
    """' with the other C++ ABI' where torch exports the missing names under the other ABI: the
    std::string of _GLIBCXX_USE_CXX11_ABI=1 mangles as `NSt7__cxx1112basic_string...` and carries
    the `B5cxx11` tag; the old ABI's is `Ss`."""
    for symbol in missing[:50]:
        other = symbol.replace("B5cxx11", "") if "B5cxx11" in symbol else None
        if other is None and "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE" in symbol:
            other = symbol.replace("NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE", "Ss")
        if other is None and "Ss" in symbol:
            other = symbol.replace("Ss", "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE")
        try:
            if other and other != symbol and any(other in table for table in exports):
                return " with the other C++ ABI (_GLIBCXX_USE_CXX11_ABI)"
        except BinaryError:
            return ""
    return ""


_TORCH_PIN = re.compile(r"\s*torch\s*(\(\s*)?==\s*(?P<version>[0-9][0-9A-Za-z.+!]*)\s*\)?\s*(;.*)?")


def _torch_pins(env: Environment) -> dict[str, str]:
    """`PACKAGE:torch` -> the torch release a distribution declares it was built for: its own
    `Requires-Dist: torch==X` (xformers and vLLM pin the torch their wheels were built against)."""
    pins = {}
    for name, package in env.packages.items():
        for line in package.requires:
            if match := _TORCH_PIN.fullmatch(line):
                pins[f"{name}:torch"] = match["version"]
    return pins


def _built_for_torch(package: str, versions: Mapping[str, str]) -> str | None:
    """The torch release a package was built for, where its metadata pins one (`_torch_pins`)."""
    return versions.get(f"{package}:torch")


# --- GPU code ----------------------------------------------------------------------------------


def torch_arch_list(files: Sequence[NativeFile]) -> tuple[str, ...]:
    """torch's own architecture list: the `-gencode` flags its CUDA library records of its build
    (what torch.cuda.get_arch_list() reports), else the union of its CUDA library's fat binaries
    (libtorch_cuda.so, else every torch library that carries device code). The flags come
    first because the fat binaries also hold the code of libraries linked in statically: torch
    1.8's carries sm_35 kernels of cuDNN, yet torch's own kernels start at sm_37."""
    torch = [f for f in files if f.package == TORCH and f.facts and f.facts.fatbin]
    flags = sorted(
        {f.facts.arch_flags for f in torch if f.facts and f.facts.arch_flags},
        key=lambda text: (-text.count(";"), text),
    )
    if flags:
        listed = [code for _, code in _GENCODE_CODE.findall(flags[0])]
        sass = {c for c in listed if c.startswith("sm_")}
        ptx = {c for c in listed if c.startswith("compute_")}
    else:
        main = [f for f in torch if f.name.startswith("libtorch_cuda.so")]
        chosen = main or torch
        sass = {a for f in chosen if f.facts and f.facts.fatbin for a in f.facts.fatbin.sass}
        ptx = {a for f in chosen if f.facts and f.facts.fatbin for a in f.facts.fatbin.ptx}
    return tuple(sorted(sass, key=arch_key)) + tuple(sorted(ptx, key=arch_key))


_GENCODE_CODE = re.compile(r"arch=(compute_\d+[af]?),code=((?:sm|compute)_\d+[af]?)")


def _capability(arch: str) -> tuple[int, int, str] | None:
    """`sm_90a` -> (9, 0, "a"); `compute_120` -> (12, 0, "")."""
    digits = arch.partition("_")[2]
    suffix = digits.lstrip("0123456789")
    number = digits[: len(digits) - len(suffix)]
    if len(number) < 2:
        return None
    return int(number[:-1]), int(number[-1]), suffix


def runs_on(sass: Sequence[str], ptx: Sequence[str], gpu: Gpu) -> str:
    """'sass', 'ptx' (the driver compiles it at load) or 'none' for one GPU.

    SASS runs on its own major at an equal or higher minor; an arch-specific `a` build only on
    exactly its own capability (CUDA Programming Guide, "Binary Compatibility"; §5.1.2.3 "Feature
    Set Compiler Targets"). PTX follows PTX ISA §11.1.2 (`.target`): plain PTX is JIT-compiled
    for its own capability and every later one (the onion-layer model); family `f` PTX "can run
    only on later generation devices in the same family" (the same major, an equal or higher
    minor: 100f on 10.0 and 10.3, 120f on 12.0 and 12.1, never across majors); arch-specific `a`
    PTX only on its own architecture (compute_90a on 9.0, nothing later)."""
    cc = gpu.compute_capability
    assert cc is not None
    release = (*cc.release, 0)
    here = (release[0], release[1])
    for arch in sass:
        parsed = _capability(arch)
        if parsed is not None and _within(parsed, here, onion=False):
            return "sass"
    for arch in ptx:
        parsed = _capability(arch)
        if parsed is not None and _within(parsed, here, onion=True):
            return "ptx"
    return "none"


def _within(target: tuple[int, int, str], gpu: tuple[int, int], *, onion: bool) -> bool:
    """Whether code for `target` runs on a GPU of capability `gpu`: `a` on exactly its own
    capability; `f` (and plain SASS) on its major at an equal or higher minor; plain PTX
    (`onion`) on its own capability and every later one."""
    major, minor, suffix = target
    if "a" in suffix:
        return (major, minor) == gpu
    if onion and not suffix:
        return (major, minor) <= gpu
    return major == gpu[0] and minor <= gpu[1]


def _loaded_variants(
    files: Sequence[NativeFile], torch_cuda: str | None, torch_rocm: str | None = None
) -> list[NativeFile]:
    """The files a process loads: of a package's per-CUDA variants (libbitsandbytes_cuda121.so,
    _cuda124.so, ...) only the one for torch's CUDA build, of its per-ROCm variants
    (libbitsandbytes_rocm64.so, _rocm714.so: major and minor run together, as bitsandbytes
    names them from torch.version.hip) only the one for torch's ROCm build; none where that
    build is unknown."""
    groups: dict[tuple[str, str, str, str], list[tuple[str, NativeFile]]] = defaultdict(list)
    plain = []
    for f in files:
        match = _CUDA_VARIANT.match(f.relpath)
        rocm = _ROCM_VARIANT.match(f.relpath) if match is None else None
        if match:
            groups[("cuda", f.package, match["stem"], match["rest"])].append((match["cuda"], f))
        elif rocm:
            groups[("rocm", f.package, rocm["stem"], rocm["rest"])].append((rocm["rocm"], f))
        else:
            plain.append(f)
    wanted = {
        "cuda": torch_cuda.replace(".", "") if torch_cuda else None,
        "rocm": torch_rocm.replace(".", "") if torch_rocm else None,
    }
    for (kind, *_), variants in groups.items():
        if len(variants) == 1:
            plain.append(variants[0][1])
            continue
        plain.extend(f for build, f in variants if build == wanted[kind])
    return plain


def _gpu_code(
    files: Sequence[NativeFile],
    versions: Mapping[str, str],
    hardware: Hardware | None,
    judgement: BinaryJudgement,
) -> None:
    gpus = [g for g in (hardware.gpus if hardware else ()) if g.compute_capability is not None]
    no_device_code: dict[str, list[NativeFile]] = defaultdict(list)
    no_kernel: dict[str, list[tuple[NativeFile, list[Gpu]]]] = defaultdict(list)
    jit: dict[str, list[tuple[NativeFile, list[Gpu]]]] = defaultdict(list)
    for f in files:
        facts = f.facts
        assert facts is not None
        fatbin = facts.fatbin
        if fatbin is None or not (fatbin.sass or fatbin.ptx):
            if any(s in facts.undefined for s in REGISTERS_KERNELS):
                no_device_code[f.package].append(f)
            continue
        if f.package == TORCH:
            continue  # torch's list goes to torch-no-kernel-image-for-gpu (facts.arch_lists)
        answers = {g.index: runs_on(fatbin.sass, fatbin.ptx, g) for g in gpus}
        if missing := [g for g in gpus if answers[g.index] == "none"]:
            no_kernel[f.package].append((f, missing))
        elif compiled := [g for g in gpus if answers[g.index] == "ptx"]:
            jit[f.package].append((f, compiled))
    for package, found in sorted(no_device_code.items()):
        judgement.findings.append(_no_device_code(package, found, versions))
    for package, misses in sorted(no_kernel.items()):
        judgement.findings.append(_no_kernel(package, misses, versions))
    for package, compiled_for in sorted(jit.items()):
        f, gpu_list = compiled_for[0]
        judgement.notes.append(
            f"{package} {versions.get(package, '')}: {f.name} carries no SASS for "
            f"{_gpus(gpu_list)}, only PTX: the driver JIT-compiles it at first use (a slow first "
            "start; the compute cache keeps it)"
        )
    if not gpus and any(f.facts and f.facts.fatbin for f in files):
        judgement.notes.append(
            "GPU code of native files not compared with a GPU: none probed and no --hardware profile"
        )


def _gpus(gpus: Sequence[Gpu]) -> str:
    def arch(g: Gpu) -> str:
        return "sm_" + str(g.compute_capability).replace(".", "")

    return "; ".join(f"GPU {g.index} {g.name} ({arch(g)})" for g in gpus)


def _no_kernel(
    package: str, misses: Sequence[tuple[NativeFile, list[Gpu]]], versions: Mapping[str, str]
) -> Finding:
    first, gpus = misses[0]
    assert first.facts is not None and first.facts.fatbin is not None
    fatbin = first.facts.fatbin
    carries = " ".join((*fatbin.sass, *fatbin.ptx))
    version = versions.get(package, "")
    matched = [
        f"{f.path}: {' '.join((*f.facts.fatbin.sass, *f.facts.fatbin.ptx))}; no kernel for "
        f"{_gpus(g)}"
        for f, g in misses[:_EXAMPLES]
        if f.facts is not None and f.facts.fatbin is not None
    ]
    return verified_finding(
        id=f"binary-no-kernel-image:{package}",
        title=(
            f"{package} {version}: {first.name} carries GPU code for {carries} and none that runs "
            f"on {_gpus(gpus)}: its kernels fail with `no kernel image is available for "
            "execution on the device`"
        ),
        fix=Fix(
            f"install a {package} build compiled for these GPUs' architecture (or build it from "
            "source with TORCH_CUDA_ARCH_LIST naming it)"
        ),
        kind=KIND,
        origin=Origin(first.path),
        packages=(MatchedPackage(_name(package), version, Origin(first.path)),),
        matched=tuple(matched),
        severity=Severity.ERROR,
        evidence=Evidence.OBSERVED,
    )


def _no_device_code(
    package: str, found: Sequence[NativeFile], versions: Mapping[str, str]
) -> Finding:
    first = found[0]
    version = versions.get(package, "")
    return verified_finding(
        id=f"binary-no-device-code:{package}",
        title=(
            f"{package} {version}: {first.name} registers CUDA kernels but carries no device code "
            "(no fat binary): its kernels have no image for any GPU"
        ),
        fix=Fix(
            f"install a {package} release whose wheel carries GPU code, or build it from source "
            "with TORCH_CUDA_ARCH_LIST set"
        ),
        kind=KIND,
        origin=Origin(first.path),
        packages=(MatchedPackage(_name(package), version, Origin(first.path)),),
        matched=tuple(
            f"{f.path}: imports {', '.join(s for s in REGISTERS_KERNELS if f.facts and s in f.facts.undefined)}, "
            "no .nv_fatbin"
            for f in found[:_EXAMPLES]
        ),
        severity=Severity.ERROR,
        evidence=Evidence.OBSERVED,
    )


# --- HIP code objects (AMD) ------------------------------------------------------------------


def _hip_code(
    files: Sequence[NativeFile],
    versions: Mapping[str, str],
    hardware: Hardware | None,
    judgement: BinaryJudgement,
) -> None:
    """A file whose HIP code objects carry no target an AMD GPU runs: `hipErrorNoBinaryForGpu`
    / `invalid device function` there. The GPU's target is HSA_OVERRIDE_GFX_VERSION's where set
    (the runtime then reports and loads that one). torch's own libraries are judged too: no
    table stands in for what its ROCm build carries; the file says it."""
    from compat.binary.gfxtarget import override_target, runs

    gpus = [g for g in (hardware.gpus if hardware else ()) if g.is_amd and g.gfx_target]
    override = override_target(hardware.gfx_override) if hardware else None
    misses: dict[str, list[tuple[NativeFile, list[Gpu]]]] = defaultdict(list)
    with_code = [f for f in files if f.facts and f.facts.hip and f.facts.hip.targets]
    for f in with_code:
        hip = f.facts.hip if f.facts else None
        assert hip is not None
        missing = []
        for gpu in gpus:
            target = override or gpu.gfx_target
            assert target is not None
            answers = [runs(code, target, gpu.gfx_features) for code in hip.targets]
            if any(a is not False for a in answers):
                continue
            if hip.unread:
                judgement.notes.append(
                    f"{f.path}: no code object for {target} among the bundles read; "
                    f"{hip.unread} compressed bundle(s) unread ({hip.note})"
                )
                continue
            missing.append(gpu)
        if missing:
            misses[f.package].append((f, missing))
    for package, found in sorted(misses.items()):
        judgement.findings.append(_no_hip_kernel(package, found, versions, override, hardware))
    unread = [f for f in files if f.facts and f.facts.hip and f.facts.hip.unread]
    if unread and not any(f.facts and f.facts.hip and f.facts.hip.targets for f in unread):
        first = unread[0]
        assert first.facts is not None and first.facts.hip is not None
        judgement.notes.append(f"{first.path}: {first.facts.hip.note}")
    if not gpus and with_code and (hardware is None or not hardware.gpus):
        judgement.notes.append(
            "HIP code objects of native files not compared with a GPU: no AMD GPU probed and no "
            "--hardware profile"
        )


_DEVICE_DIST = re.compile(r"(?P<base>.+)-device-(?P<target>gfx[0-9a-z-]+)")
# TheRock's per-GPU distributions of torch's own kernels (`torch[device-gfx942]`): each is built
# with the torch release it belongs to and carries the `.kpack` archives its `.so` files point at.
_TORCH_DEVICE = "amd-torch-device"
_REFERENCES = (
    "https://github.com/ROCm/TheRock/blob/main/docs/rfcs/RFC0008-Multi-Arch-Packaging.md",
    "https://github.com/ROCm/rocm-cli/issues/333",
)


def _kpack_targets(files: Sequence[NativeFile], judgement: BinaryJudgement) -> list[NativeFile]:
    """Files whose device code lies in `.kpack` archives (`.rocm_kpack_ref`), with the targets
    the archives their marker names carry for them (compat.binary.kpack: the archives' TOCs):
    judged then like any file's code objects. A marker or archive that cannot be read is one
    note; where no archive is found, the targets stay unknown (torch: its device packages
    decide, _device_packages)."""
    import dataclasses

    from compat.binary.elf import BinaryError, read_section
    from compat.binary.kpack import MAX_MARKER, KpackError, device_targets, read_marker

    out: list[NativeFile] = []
    archives: dict[str, dict[str, tuple[str, ...]] | str] = {}  # read once per run
    unread: set[str] = set()  # an unreadable archive is one note, whichever files point at it
    for f in files:
        hip = f.facts.hip if f.facts else None
        if f.facts is None or hip is None or not hip.kpack or hip.targets:
            out.append(f)
            continue
        try:
            raw = read_section(f.path, b".rocm_kpack_ref", MAX_MARKER)
            if raw is None:  # a HIPK wrapper alone (compat.binary.elf._kpack_wrapped)
                judgement.notes.append(
                    f"{f.path}: device code lies in .kpack archives (HIPK fat-binary wrapper) "
                    "and no .rocm_kpack_ref names them: its GPU targets are not known"
                )
                out.append(f)
                continue
            found = device_targets(f.path, read_marker(raw), archives)
        except (BinaryError, KpackError) as error:
            judgement.notes.append(f"{f.path}: .rocm_kpack_ref not read: {error}")
            out.append(f)
            continue
        judgement.notes.extend(n for n in found.notes if n not in unread)
        unread.update(found.notes)
        if not found.targets:
            out.append(f)
            continue
        hip = dataclasses.replace(hip, targets=found.targets)
        out.append(dataclasses.replace(f, facts=dataclasses.replace(f.facts, hip=hip)))
    return out


def _device_packages(
    files: Sequence[NativeFile],
    env: Environment,
    versions: Mapping[str, str],
    hardware: Hardware | None,
    judgement: BinaryJudgement,
) -> None:
    """TheRock's multi-arch torch: its libraries' device code lies in `.kpack` archives of the
    per-GPU `amd-torch-device-<target>` distributions (`.rocm_kpack_ref`, device sections
    emptied). A GPU whose target no installed device distribution names has no torch kernels;
    a device distribution of another version than torch's is another build's kernels
    (rocm-cli#333: torch 2.11.0+rocm7.14.0 beside a 7.13 runtime; and the index's 0.0.1.dev0
    placeholders carry none). Both rest on the distributions' names and versions: `reported`."""
    from compat.binary.gfxtarget import override_target

    torch_kpack = [  # the kpack files whose archives were not read (_kpack_targets)
        f
        for f in files
        if f.package == TORCH
        and f.facts
        and f.facts.hip
        and f.facts.hip.kpack
        and not f.facts.hip.targets
    ]
    devices: dict[str, str] = {}
    for dist, package in env.packages.items():
        match = _DEVICE_DIST.fullmatch(str(dist))
        if match and f"{match['base']}-device" == _TORCH_DEVICE:
            devices[match["target"]] = str(package.version)
    torch_version = versions.get(TORCH)
    _device_version_findings(devices, torch_version, judgement)
    _sdk_against_torch(env, judgement)
    if not torch_kpack:
        return
    gpus = [g for g in (hardware.gpus if hardware else ()) if g.is_amd and g.gfx_target]
    from compat.kb.rocmtargets import linux_note

    override = override_target(hardware.gfx_override) if hardware else None
    runs_as = sorted({override or g.gfx_target or "" for g in gpus} - {""})
    for shown in runs_as:  # what TheRock says of each target the GPUs load code for
        if (note := linux_note(shown)) is not None:
            judgement.notes.append(note)
    missing = [
        g
        for g in gpus
        if not any(_device_serves(d, override or g.gfx_target or "") for d in devices)
    ]
    first = torch_kpack[0]
    if not missing:
        if not gpus:
            judgement.notes.append(
                f"{first.path}: torch's device code lies in .kpack archives (TheRock multi-arch); "
                f"device packages installed: {', '.join(sorted(devices)) or 'none'}"
            )
        return
    named = "; ".join(f"GPU {g.index} {g.name} ({override or g.gfx_target})" for g in missing)
    judgement.findings.append(
        verified_finding(
            id=f"binary-no-kernel-image:{TORCH}",
            title=(
                f"torch {torch_version or ''}: {first.name} keeps its device code in .kpack "
                f"archives (TheRock multi-arch) and no {_TORCH_DEVICE}-<target> package serves "
                f"{named} (installed: {', '.join(sorted(devices)) or 'none'})"
            ),
            fix=Fix(
                f"install torch's device package for the GPU: torch[device-{missing[0].gfx_target}] "
                "from the index torch came from"
            ),
            kind=KIND,
            origin=Origin(first.path),
            packages=(MatchedPackage(_name(TORCH), torch_version or "", Origin(first.path)),),
            matched=(f"{first.path}: .rocm_kpack_ref; device packages: {sorted(devices)}",),
            references=_REFERENCES,
            severity=Severity.ERROR,
            evidence=Evidence.REPORTED,
        )
    )


def _device_version_findings(
    devices: Mapping[str, str], torch_version: str | None, judgement: BinaryJudgement
) -> None:
    """A per-GPU device distribution (target -> version) of another version than torch's: another
    build's kernels, or the public index's 0.0.x name placeholder that carries none."""
    for target, version in sorted(devices.items()):
        if torch_version is None or version == torch_version:
            continue
        name = f"{_TORCH_DEVICE}-{target}"
        placeholder = version.startswith("0.0.")
        judgement.findings.append(
            verified_finding(
                id=f"rocm-device-package-version:{name}",
                title=(
                    f"{name} {version} beside torch {torch_version}: "
                    + (
                        "a name placeholder from the public index, it carries no kernels"
                        if placeholder
                        else "the per-GPU kernels of another torch build"
                    )
                    + "; torch's kernels for this target are missing or mismatched"
                ),
                fix=Fix(
                    f'install the device package of this torch: pip install "{name}=={torch_version}" '
                    "(or torch[device-<target>] from the same index as torch)"
                ),
                kind=KIND,
                origin=None,
                packages=(
                    MatchedPackage(_name(name), version, None),
                    MatchedPackage(_name(TORCH), torch_version, None),
                ),
                matched=(f"{name} {version}; torch {torch_version}",),
                references=_REFERENCES,
                severity=Severity.ERROR,
                evidence=Evidence.REPORTED,
            )
        )


def _sdk_against_torch(env: Environment, judgement: BinaryJudgement) -> None:
    """TheRock's torch is built against one ROCm release and pins its `rocm-sdk-*` wheels to
    it; a torch labelled +rocm7.14 beside rocm-sdk-core 7.13 (rocm-cli#333, where every vLLM
    start died) runs on another release's libraries. Compared as major.minor numbers."""
    from packaging.utils import canonicalize_name

    from compat.probes.rocmbuild import rocm_from_local_label

    torch = env.packages.get(canonicalize_name(TORCH))
    sdk = env.packages.get(canonicalize_name("rocm-sdk-core"))
    if torch is None or sdk is None:
        return
    built = rocm_from_local_label(torch.version)
    if built is None or not sdk.version.release:
        return
    runtime = ".".join(str(p) for p in (*sdk.version.release, 0)[:2])
    if str(built) == runtime:
        return
    judgement.findings.append(
        verified_finding(
            id="rocm-sdk-against-torch:torch",
            title=(
                f"torch {torch.version} is built against ROCm {built}, but the installed "
                f"rocm-sdk-core is {sdk.version} (ROCm {runtime}): torch loads another "
                "release's ROCm libraries"
            ),
            fix=Fix(
                f'install the ROCm wheels of torch\'s release: pip install "rocm[libraries]=={built}.*" '
                "from the index torch came from (or the torch built for the installed ROCm)"
            ),
            kind=KIND,
            origin=sdk.origin,
            packages=(
                MatchedPackage(_name(TORCH), str(torch.version), torch.origin),
                MatchedPackage(_name("rocm-sdk-core"), str(sdk.version), sdk.origin),
            ),
            matched=(f"torch {torch.version}; rocm-sdk-core {sdk.version}",),
            references=("https://github.com/ROCm/rocm-cli/issues/333",),
            severity=Severity.ERROR,
            evidence=Evidence.REPORTED,
        )
    )


def _device_serves(device: str, target: str) -> bool:
    """A device package's name part serves a target: its own (`gfx942`), or a family's
    (`gfx11` serves gfx1100-gfx1153, `gfx12-0` gfx1200 and gfx1201, `gfx94X` gfx94x), as
    TheRock's multi-arch index names its packs."""
    processor = target.partition(":")[0]
    family = device.replace("-", "").rstrip("xX")
    return processor == device or (len(family) > 3 and processor.startswith(family))


def _no_hip_kernel(
    package: str,
    misses: Sequence[tuple[NativeFile, list[Gpu]]],
    versions: Mapping[str, str],
    override: str | None,
    hardware: Hardware | None,
) -> Finding:
    first, gpus = misses[0]
    assert first.facts is not None and first.facts.hip is not None
    version = versions.get(package, "")

    def named(group: Sequence[Gpu]) -> str:
        return "; ".join(f"GPU {g.index} {g.name} ({g.gfx_target})" for g in group)

    overridden = (
        f" (HSA_OVERRIDE_GFX_VERSION={hardware.gfx_override} makes it load {override} code)"
        if override and hardware
        else ""
    )
    matched = [
        f"{f.path}: {' '.join(f.facts.hip.targets)}; no code object for {named(g)}{overridden}"
        for f, g in misses[:_EXAMPLES]
        if f.facts is not None and f.facts.hip is not None
    ]
    return verified_finding(
        id=f"binary-no-kernel-image:{package}",
        title=(
            f"{package} {version}: {first.name} carries HIP code objects for "
            f"{' '.join(first.facts.hip.targets)} and none that runs on {named(gpus)}{overridden}: "
            "its kernels fail with `hipErrorNoBinaryForGpu` / `invalid device function`"
        ),
        fix=Fix(
            f"install a {package} build compiled for these GPUs' target (or build it from source "
            "with PYTORCH_ROCM_ARCH / --offload-arch naming it)"
        ),
        kind=KIND,
        origin=Origin(first.path),
        packages=(MatchedPackage(_name(package), version, Origin(first.path)),),
        matched=tuple(matched),
        severity=Severity.ERROR,
        evidence=Evidence.OBSERVED,
    )


# --- libraries ---------------------------------------------------------------------------------


def _libraries(
    files: Sequence[NativeFile],
    loaded: Sequence[NativeFile],
    versions: Mapping[str, str],
    judgement: BinaryJudgement,
) -> None:
    """`files` provide libraries; the needs of `loaded` (a package's per-CUDA variants other than
    the one its loader takes are never loaded) are judged."""
    provided: dict[str, list[NativeFile]] = defaultdict(list)  # soname or file name -> files
    majors: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for f in files:
        assert f.facts is not None
        names = {f.name, *((f.facts.soname,) if f.facts.soname else ())}
        for name in names:
            provided[name].append(f)
            if match := _SONAME.fullmatch(name):
                majors[match["base"]][match["major"]].add(f.package)
    wrong_major: dict[str, list[tuple[NativeFile, str, list[str]]]] = defaultdict(list)
    absent: dict[str, set[str]] = defaultdict(set)
    for f in loaded:
        assert f.facts is not None
        for needed in f.facts.needed:
            if needed in provided or _SYSTEM.fullmatch(needed):
                continue
            match = _SONAME.fullmatch(needed)
            others = majors.get(match["base"], {}) if match else {}
            if match and others and match["major"] not in others:
                shown = [
                    f"{match['base']}.{m} ({', '.join(sorted(p))})"
                    for m, p in sorted(others.items())
                ]
                wrong_major[f.package].append((f, needed, shown))
            else:
                absent[needed].add(f.package)
    imported = _imported_libraries(loaded)
    for package, cases in sorted(wrong_major.items()):
        judgement.findings.append(_wrong_major(package, cases, versions, imported))
    for base, by_major in sorted(majors.items()):
        owners = dict(by_major.items())
        if len(owners) > 1 and len(set().union(*owners.values())) > 1:
            judgement.findings.append(_two_majors(base, owners, versions))
    if absent:
        listed = ", ".join(
            f"{name} ({', '.join(sorted(p))})" for name, p in sorted(absent.items())[:5]
        )
        more = f" and {len(absent) - 5} more" if len(absent) > 5 else ""
        judgement.notes.append(
            f"{_missing_count(len(absent))} not in the environment ({_suppliers(absent)} may "
            f"supply {'it' if len(absent) == 1 else 'them'}): {listed}{more}"
        )


def _missing_count(count: int) -> str:
    if count == 1:
        return "1 library the native files need is"
    return f"{count} libraries the native files need are"


# ROCm's libraries (HIP runtime, math libraries, HSA, RCCL): a CUDA toolkit never supplies them
_ROCM_LIBRARY = re.compile(r"lib(amdhip64|hsa-runtime64|rocm|roc|hip|MIOpen|rccl|amd_comgr)")


def _suppliers(absent: Mapping[str, object]) -> str:
    """Who could supply the missing libraries, by their names: ROCm's to ROCm, the rest to the
    CUDA toolkit or NVIDIA's driver (an AMD user is never sent to the CUDA toolkit)."""
    rocm = [name for name in absent if _ROCM_LIBRARY.match(name)]
    if len(rocm) == len(absent):
        return "the system's ROCm install"
    if rocm:
        return "the system, the CUDA toolkit, the NVIDIA driver or ROCm"
    return "the system, the CUDA toolkit or the driver"


HIP_RUNTIME = "libamdhip64.so"  # its soname major is the ROCm major (libamdhip64.so.7: ROCm 7)


def _system_hip_runtime(
    files: Sequence[NativeFile],
    loaded: Sequence[NativeFile],
    versions: Mapping[str, str],
    hardware: Hardware | None,
    judgement: BinaryJudgement,
) -> None:
    """A file needs the HIP runtime of one ROCm major (DT_NEEDED libamdhip64.so.N), no installed
    distribution provides any libamdhip64, and the ROCm user space the machine finds first
    (the probe's /opt/rocm*/.info/version) is of another major: the loader looks there
    (jax-rocm7-plugin on a ROCm 6 machine). Possible, not affected: LD_LIBRARY_PATH or another
    install may hold the right one; the probe lists every install it found."""
    system = hardware.rocm_version if hardware else None
    if not system:
        return
    major = system.split(".", 1)[0]
    if not major.isdigit():
        return
    for f in files:
        assert f.facts is not None
        names = {f.name, *((f.facts.soname,) if f.facts.soname else ())}
        if any(n == HIP_RUNTIME or n.startswith(HIP_RUNTIME + ".") for n in names):
            return  # an environment's own runtime: the DT_NEEDED majors decide (_libraries)
    cases: dict[str, list[tuple[NativeFile, str]]] = defaultdict(list)
    for f in loaded:
        assert f.facts is not None
        for needed in f.facts.needed:
            match = _SONAME.fullmatch(needed)
            if match and match["base"] == HIP_RUNTIME and match["major"] != major:
                cases[f.package].append((f, needed))
                break
    for package, found in sorted(cases.items()):
        first, needed = found[0]
        version = versions.get(package, "")
        judgement.findings.append(
            verified_finding(
                id=f"binary-rocm-major:{package}",
                title=(
                    f"{package} {version}: {first.name} needs {needed} (ROCm "
                    f"{needed.rsplit('.', 1)[1]}'s HIP runtime); no installed package provides "
                    f"one and the ROCm this machine finds first is {system}: "
                    f"{_what_fails(first, needed, _imported_libraries(loaded))}"
                ),
                fix=Fix(
                    f"install the {package} build for ROCm {major} (or the ROCm release it was "
                    "built for, first on the loader's path)"
                ),
                kind=KIND,
                origin=Origin(first.path),
                packages=(MatchedPackage(_name(package), version, Origin(first.path)),),
                matched=tuple(f"{f.path}: DT_NEEDED {n}" for f, n in found[:_EXAMPLES]),
                severity=Severity.ERROR,
                evidence=Evidence.OBSERVED,
                status=Status.POSSIBLE,
                unknown=(
                    Unknown(
                        "hardware.rocm",
                        f"the {HIP_RUNTIME} the loader finds where it runs (ldconfig -p | grep "
                        f"{HIP_RUNTIME}; LD_LIBRARY_PATH); compat read only the ROCm installs' "
                        ".info/version",
                    ),
                ),
            )
        )


def _is_extension_module(f: NativeFile) -> bool:
    """A Python extension module (what `import` loads): `mod.cpython-311-x86_64-linux-gnu.so`,
    `mod.abi3.so`, `mod.so`; a `lib*.so*` file is a library other files or the package's own
    code load."""
    return not f.name.startswith("lib") and f.name.endswith(".so")


def _imported_libraries(loaded: Sequence[NativeFile]) -> set[tuple[str, str]]:
    """(package, library name) of the libraries an extension module of the same package needs
    (DT_NEEDED), followed through libraries that need others: loading them is part of the
    import. The rest are opened by the package at run time (dlopen: a provider, a plugin)."""
    by_name: dict[tuple[str, str], NativeFile] = {}
    for f in loaded:
        assert f.facts is not None
        for name in {f.name, *((f.facts.soname,) if f.facts.soname else ())}:
            by_name[(f.package, name)] = f
    seen: set[tuple[str, str]] = set()
    todo = [f for f in loaded if _is_extension_module(f)]
    while todo:
        f = todo.pop()
        assert f.facts is not None
        for needed in f.facts.needed:
            key = (f.package, needed)
            if key in seen or key not in by_name:
                continue
            seen.add(key)
            todo.append(by_name[key])
    return seen


def _what_fails(f: NativeFile, needed: str, imported: set[tuple[str, str]]) -> str:
    """What the user sees fail: the import when `import` loads the file, else the feature that
    opens it (onnxruntime-gpu's import works; creating a CUDA session loads its CUDA provider)."""
    error = f"`{needed}: cannot open shared object file`"
    if _is_extension_module(f):
        return f"its import fails with {error}"
    names = {f.name, *((f.facts.soname,) if f.facts and f.facts.soname else ())}
    if any((f.package, name) in imported for name in names):
        return f"its import fails with {error} (an extension module needs {f.name})"
    # onnxruntime's CUDA session is an NVIDIA example: a ROCm library gets none
    example = "" if _ROCM_LIBRARY.match(needed) else ", e.g. creating a CUDA session"
    return (
        f"{f.package}'s import works, but the feature that loads {f.name} at run time (the "
        f"provider, plugin or session that opens it{example}) fails with {error}"
    )


def _wrong_major(
    package: str,
    cases: Sequence[tuple[NativeFile, str, list[str]]],
    versions: Mapping[str, str],
    imported: set[tuple[str, str]],
) -> Finding:
    first, needed, shown = cases[0]
    version = versions.get(package, "")
    return verified_finding(
        id=f"binary-library-major:{package}",
        title=(
            f"{package} {version}: {first.name} needs {needed}; the environment provides only "
            f"{', '.join(shown)}: {_what_fails(first, needed, imported)}"
        ),
        fix=Fix(
            f"install the {package} build for the CUDA (or library) major the environment "
            f"provides, or the package that provides {needed}"
        ),
        kind=KIND,
        origin=Origin(first.path),
        packages=(MatchedPackage(_name(package), version, Origin(first.path)),),
        matched=tuple(f"{f.path}: DT_NEEDED {n}" for f, n, _ in cases[:_EXAMPLES]),
        severity=Severity.ERROR,
        evidence=Evidence.OBSERVED,
    )


def _two_majors(base: str, owners: Mapping[str, set[str]], versions: Mapping[str, str]) -> Finding:
    """Possible, not affected: different majors have different sonames and both load into one
    process; what breaks is a loader that takes the library by its bare name or by whichever
    directory comes first, which the files do not tell."""
    packages = sorted(set().union(*owners.values()))
    shown = "; ".join(f"{base}.{m} from {', '.join(sorted(p))}" for m, p in sorted(owners.items()))
    return verified_finding(
        id=f"binary-library-majors:{base}",
        title=f"two majors of {base} installed by different packages: {shown}",
        fix=Fix(
            f"keep one major's packages: uninstall the one no installed library needs "
            f"({', '.join(packages)})"
        ),
        kind=KIND,
        origin=None,
        packages=tuple(MatchedPackage(_name(p), versions.get(p, "")) for p in packages),
        matched=(shown,),
        severity=Severity.WARNING,
        evidence=Evidence.OBSERVED,
        status=Status.POSSIBLE,
        unknown=(
            Unknown(
                f"loader.{base}",
                f"which {base} the process loads where it runs (LD_DEBUG=libs, or the order of "
                "LD_LIBRARY_PATH and the packages' own preloading)",
            ),
        ),
    )


# --- owners ------------------------------------------------------------------------------------


def _owners(
    shared: Iterable[tuple[str, Sequence[str], Sequence[str], str]],
    versions: Mapping[str, str],
    judgement: BinaryJudgement,
) -> None:
    by_owners: dict[tuple[str, ...], list[tuple[str, tuple[str, ...], str]]] = defaultdict(list)
    for relpath, owners, on_disk, by in shared:
        by_owners[tuple(sorted(owners))].append((relpath, tuple(sorted(on_disk)), by))
    for owners, found in sorted(by_owners.items()):
        paths = [relpath for relpath, _, _ in found]
        shown = ", ".join(f"{p} {versions.get(p, '')}".strip() for p in owners)
        files = ", ".join(paths[:_EXAMPLES]) + (
            f" and {len(paths) - _EXAMPLES} more" if len(paths) > _EXAMPLES else ""
        )
        judgement.findings.append(
            verified_finding(
                id=f"binary-shared-file:{'+'.join(owners)}",
                title=(
                    f"{files}: installed by {shown}; the last install overwrote the other's copy "
                    f"({_whose_copy(found[0][1], found[0][2], versions)}), and uninstalling "
                    "either removes it "
                    "for both"
                ),
                fix=Fix(
                    f"keep one of {', '.join(owners)} (pip uninstall the other, then pip install "
                    "--force-reinstall the one kept)"
                ),
                kind=KIND,
                origin=None,
                packages=tuple(MatchedPackage(_name(p), versions.get(p, "")) for p in owners),
                matched=tuple(
                    f"{p}: in the RECORD of {', '.join(owners)}" for p in paths[:_EXAMPLES]
                ),
                severity=Severity.ERROR,
                evidence=Evidence.OBSERVED,
            )
        )


def _whose_copy(on_disk: Sequence[str], by: str, versions: Mapping[str, str]) -> str:
    """Whose copy is on disk: the owners whose RECORD states the file now there, by its sha256
    (the bytes hashed) or, where no RECORD states one or the run's hash budget was spent, by its
    size alone."""
    how = "sha256" if by == "sha256" else "size (no hash compared)"
    if len(on_disk) == 1:
        label = f"{on_disk[0]} {versions.get(on_disk[0], '')}".strip()
        return f"the copy on disk is {label}'s: its RECORD's {how} matches the file"
    if not on_disk:
        if by == "sha256":
            return (
                "the copy on disk matches neither RECORD's sha256: another build, or a file "
                "changed after its install"
            )
        return "the copy on disk matches neither RECORD"
    if by == "sha256":
        return f"the copy on disk matches the RECORDs of {', '.join(on_disk)}: the same bytes"
    return (
        f"the copy on disk matches the RECORDs of {', '.join(on_disk)} by size: whose it is is "
        "unknown"
    )


# --- the document ------------------------------------------------------------------------------


def _document(files: Sequence[NativeFile], judgement: BinaryJudgement) -> dict[str, Any]:
    """environment.native in the report: every native file read, with what was read from it."""
    listed = []
    for f in sorted(files, key=lambda f: (f.package, f.relpath)):
        entry: dict[str, Any] = {"package": f.package, "path": f.relpath}
        if f.facts is None:
            entry["problem"] = f.problem
        else:
            facts = f.facts
            entry.update(
                machine=facts.machine,
                soname=facts.soname,
                needed=list(facts.needed),
                torch_symbols=sum(1 for s in facts.undefined if is_torch_symbol(s)),
                sass=list(facts.fatbin.sass) if facts.fatbin else [],
                ptx=list(facts.fatbin.ptx) if facts.fatbin else [],
            )
            if facts.hip is not None:
                entry["gfx_targets"] = list(facts.hip.targets)
                if facts.hip.unread:
                    entry["gfx_unread_bundles"] = facts.hip.unread
                if facts.hip.kpack:
                    entry["kpack"] = True
        listed.append(entry)
    return {
        "files": listed,
        "read": sum(1 for f in files if f.facts is not None),
        "unreadable": sum(1 for f in files if f.facts is None),
        "torch_arch_list": list(judgement.torch_arch_list),
    }
