"""Derived facts: conditions computed from a generated table and the facts, for table-driven rules.

A fact that varies per release or per build lives in generated data (compat/data/*.json), not in
one hand-written rule per release. A rule states the *question* once, in its `when:` block:

    when:
      packages: {torch: ">=0"}
      derived: {torch_kernels: missing}

and the condition here answers it for the environment at hand by reading the table: which GPU
has no code in the installed build, and which build would have it. Because the answer is a
condition like any other, the engine's three values, `possible` questions, lint's examples and
pin's search (which tries versions until the condition is false) all work unchanged. Where the
table names the escape, the verdict carries a fix for this very case (a `Finding.fix`).

Tables are loaded only when a derived condition is evaluated, never at import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from compat.kb.conditions import FALSE, HARDWARE_HINT, AnchorCondition
from compat.kb.numpyabi import PACKAGES as NUMPY_ABI_PACKAGES
from compat.model import Facts, Fix, Gpu, MatchedPackage, PackageFact, Tri, Unknown, Verdict
from compat.names import canonicalize_name

if TYPE_CHECKING:
    from packaging.utils import NormalizedName
    from packaging.version import Version

    from compat.kb.archtable import ArchList
    from compat.kb.torchrocm import RocmBuild

# derived key -> the values a rule may ask for
VOCABULARY: dict[str, tuple[str, ...]] = {
    "torch_kernels": ("missing",),
    "bitsandbytes_cuda_library": ("missing",),
    "bitsandbytes_cuda_major": ("missing",),
    "numpy_abi": ("numpy1-build",),
    "wheel": ("none", "source-build", "cpu-build"),
    "flash_attn_wheel": ("prerelease-torch",),
    "xformers_torch_build": ("other-build",),
    "hip_code": ("missing",),
    "xformers_hip_code": ("missing",),
    "flash_attn_ck_target": ("unlisted",),
    # what a ROCm failure a log reports says (compat/kb/hiplog.py)
    "hip_isa": ("rejected",),
    "hip_library": ("target-missing",),
    "hip_device": ("none",),
    "rocm_loader": ("library-missing",),
    "bitsandbytes_rocm_library": ("missing",),
    "flash_attn_rocm_arch": ("refused",),
    "flash_attn_nvcc": ("rocm-torch",),
    "hip_target": ("refused",),
    "hip_override_fault": ("other-target",),
    "rocm_kfd": ("inaccessible",),
    "torch_cuda_no_driver": ("amd-gpus",),
    # what the dynamic loader's refusal a log reports says (compat/kb/loaderlog.py)
    "loader_execstack": ("refused",),
    "torch_backend": ("cuda-on-amd",),
    "cudnn_runtime": ("older-same-major", "other-major"),
    "loader_cuda_major": ("other-major",),
    "stated_requirement": ("unmet",),
    "nccl_wheels": ("two-majors",),
}
# derived key -> the packages whose versions (and builds) decide it: pin moves these to escape
PACKAGES: dict[str, tuple[str, ...]] = {
    "torch_kernels": ("torch",),
    "bitsandbytes_cuda_library": ("bitsandbytes", "torch"),
    "bitsandbytes_cuda_major": ("bitsandbytes", "torch"),
    "numpy_abi": ("numpy", *NUMPY_ABI_PACKAGES),
    # any package of compat/data/wheels.json may lack a wheel (the fix names it); pin moves torch
    # out of a CPU build, and never proposes a release without a wheel (commands/pin.py)
    "wheel": ("torch",),
    "flash_attn_wheel": ("flash-attn", "torch"),
    "xformers_torch_build": ("torch",),
    "hip_code": ("torch",),
    # every ROCm build of every release has the same targets: no xformers release escapes it
    "xformers_hip_code": ("xformers",),
    # no flash-attn release lists an RDNA target, and one before the ROCm path builds CUDA only:
    # pin moves nothing to escape it
    "flash_attn_ck_target": (),
    "hip_isa": (),
    "hip_library": (),
    "hip_device": ("torch",),
    "rocm_loader": ("torch",),
    "bitsandbytes_rocm_library": (),
    "flash_attn_rocm_arch": (),
    "flash_attn_nvcc": (),
    "hip_target": (),  # whichever package's check names the target
    "hip_override_fault": (),
    "rocm_kfd": (),
    "torch_cuda_no_driver": ("torch",),
    "loader_execstack": (),  # whichever library asks for an executable stack
    "torch_backend": ("torch",),
    "cudnn_runtime": ("torch",),
    "loader_cuda_major": ("torch",),
    "stated_requirement": (),  # whichever package the check names
    "nccl_wheels": (),  # any two of NCCL_WHEELS
}
# derived keys about a ROCm failure a log reports -> their function in compat/kb/hiplog.py
HIP_LOG = (
    "hip_isa",
    "hip_library",
    "hip_device",
    "rocm_loader",
    "bitsandbytes_rocm_library",
    "flash_attn_rocm_arch",
    "flash_attn_nvcc",
    "hip_target",
    "hip_override_fault",
    "rocm_kfd",
    "torch_cuda_no_driver",
)
# derived keys whose mechanism covers packages their table does not list (any extension built
# against NumPy 1): a traceback through another package is not outside them
OPEN_PACKAGES = frozenset({"numpy_abi"})
# derived keys about a package's CUDA build: another build of the same release may escape them
# (torch's ROCm builds included: a CUDA build on an AMD machine, a ROCm build without the
# GPU's target)
ABOUT_BUILD = frozenset({"torch_kernels", "torch_backend", "hip_code"})


def table_rows(key: str) -> int:
    """How many table rows a derived fact decides (loads the table: not for doctor's path)."""
    if key == "torch_kernels":
        from compat.kb import archtable

        return archtable.row_count()
    if key in ("bitsandbytes_cuda_library", "bitsandbytes_cuda_major"):
        from compat.kb import nativelibs

        return nativelibs.loader_rows(system_runtime=key == "bitsandbytes_cuda_major")
    if key == "numpy_abi":
        return len(NUMPY_ABI_PACKAGES)
    if key == "wheel":
        from compat.kb import wheels

        # one question per package the table records (its runs of releases are not rules)
        return len(wheels.TABLE_PACKAGES)
    if key == "flash_attn_wheel":
        from compat.kb import wheels

        return wheels.flash_attn_prerelease_rows()
    if key in (
        "xformers_torch_build",
        "cudnn_runtime",
        "loader_cuda_major",
        "stated_requirement",
        "nccl_wheels",
    ):
        return 1  # one question about two builds the log names, no table
    if key == "hip_code":
        return 1  # the GPU's target against the list a log prints; files: binarycheck
    if key == "flash_attn_ck_target":
        from compat.kb import flashattnrocm

        return flashattnrocm.rows()
    if key == "xformers_hip_code":
        from compat.kb import xformersrocm

        return xformersrocm.rows()
    if key in HIP_LOG or key == "loader_execstack":
        return 1  # one failure a log reports, read with the facts it states
    if key == "torch_backend":
        return 1  # one question: torch's GPU backend against the machine's GPU vendor
    raise AssertionError(f"unvalidated derived key {key}")  # pragma: no cover


def release_specs(key: str) -> dict[str, set[str]]:
    """Specifiers that separate the releases a derived fact's table tells apart, per package:
    pin's solver treats releases on the same side of every rule's specifiers as alike, and a
    table distinguishes releases no `packages:` condition names (loads the table)."""
    if key == "torch_kernels":
        from compat.kb import archtable

        return {"torch": {f"=={release}" for release in archtable.releases()}}
    if key in ("bitsandbytes_cuda_library", "bitsandbytes_cuda_major"):
        from compat.kb import nativelibs

        return {"bitsandbytes": {f"=={release}" for release in nativelibs.releases()}}
    if key == "numpy_abi":
        from compat.kb.numpyabi import table

        return {name: {f"<{entry['first']}"} for name, entry in table().items()}
    if key == "wheel":
        from compat.kb import wheels

        return {"torch": wheels.run_starts()["torch"]}
    if key == "flash_attn_wheel":
        from compat.kb import wheels

        return {"flash-attn": {f"=={release}" for release in wheels.flash_attn_asset_releases()}}
    if key in (
        "xformers_torch_build",
        "hip_code",
        "xformers_hip_code",  # every release's builds carry the same targets: none to separate
        "flash_attn_ck_target",  # no release lists an RDNA target: none to separate
        *HIP_LOG,
        "loader_execstack",
        "torch_backend",
        "cudnn_runtime",
        "loader_cuda_major",
        "stated_requirement",
        "nccl_wheels",
    ):
        return {}  # decided by a log's build facts, never by a release pin chooses
    raise AssertionError(f"unvalidated derived key {key}")  # pragma: no cover


def counts_as(when: Mapping[str, Any]) -> int:
    """How many rules a rule's `when` stands for: a rule reading a table counts once per table
    row it decides (the hand-written rules it replaces were one per release or build), any
    other rule once."""
    keys = set(when.get("derived", {}))
    for branch in when.get("any", []):
        keys |= set(branch.get("derived", {}))
    return max([1, *(table_rows(key) for key in sorted(keys))])


class DerivedCondition(AnchorCondition):
    """`derived: {torch_kernels: missing}`: a fact computed from a table and the facts."""

    key: str
    expected: str
    __slots__ = ("expected", "key")

    def __init__(self, key: str, expected: str) -> None:
        self._set(key=key, expected=expected)

    def package_names(self) -> tuple[NormalizedName, ...]:
        """Packages that must all be present (the rule index skips the rule otherwise): for
        numpy_abi only numpy, since any one of the table's packages may be the old build."""

        if self.key == "flash_attn_ck_target":
            return (canonicalize_name("flash-attn"),)
        if self.key in ("wheel", "hip_code", "loader_execstack", *HIP_LOG):
            # wheel: any package the table lists; hip_code: an extension's ops.hip fails alike
            return ()
        names = ("numpy",) if self.key == "numpy_abi" else PACKAGES[self.key]
        return tuple(canonicalize_name(n) for n in names)

    def evaluate(self, facts: Facts) -> Verdict:
        if self.key == "wheel":
            return self.check(facts)  # its verdicts say themselves whether they are anchored
        return super().evaluate(facts)

    def check(self, facts: Facts) -> Verdict:
        if self.key == "torch_kernels":
            return torch_kernels_missing(facts)
        if self.key == "bitsandbytes_cuda_library":
            return bitsandbytes_library_missing(facts)
        if self.key == "bitsandbytes_cuda_major":
            return bitsandbytes_library_missing(facts, by_runtime=True)
        if self.key == "numpy_abi":
            return numpy1_build_beside_numpy2(facts)
        if self.key == "xformers_torch_build":
            return xformers_built_for_other_build(facts)
        if self.key == "hip_code":
            return hip_code_missing(facts)
        if self.key == "xformers_hip_code":
            return xformers_hip_code_missing(facts)
        if self.key == "flash_attn_ck_target":
            return flash_attn_ck_target_unlisted(facts)
        if self.key in HIP_LOG:
            from compat.kb import hiplog

            return hiplog.evaluate(self.key, facts)
        if self.key == "loader_execstack":
            from compat.kb import loaderlog

            return loaderlog.executable_stack_refused(facts)
        if self.key == "torch_backend":
            return cuda_build_on_amd(facts)
        if self.key == "cudnn_runtime":
            return cudnn_runtime_against_build(facts, self.expected)
        if self.key == "loader_cuda_major":
            return loader_cuda_major_against_torch(facts)
        if self.key == "stated_requirement":
            return stated_requirement_unmet(facts)
        if self.key == "nccl_wheels":
            return nccl_wheels_of_two_majors(facts)
        if self.key == "wheel":
            if not _wheel_question(facts, self.expected):
                return FALSE  # doctor's installed packages, or not linux/aarch64: no table read
            from compat.kb import wheels

            if self.expected == "cpu-build":
                return wheels.cpu_build(facts)
            return wheels.wheel_missing(facts, self.expected)
        if self.key == "flash_attn_wheel":
            from compat.kb import wheels

            return wheels.flash_attn_prerelease_torch(facts)
        raise AssertionError(f"unvalidated derived key {self.key}")  # pragma: no cover


def _gfx_target_unknown(matched: tuple[MatchedPackage, ...] = ()) -> Verdict:
    """The question every AMD target check asks where a GPU's target is not known."""
    return Verdict(
        Tri.UNKNOWN,
        unknown=(Unknown("hardware.gfx_target", "rocminfo | grep gfx, or compat probe"),),
        packages=matched,
    )


def _unserved(amd: Sequence[Gpu], targets: Sequence[str], override: str | None) -> list[Gpu]:
    """The AMD GPUs none of whose code objects may run (the override's target where one is set)."""
    from compat.binary.gfxtarget import any_may_run

    return [
        g for g in amd if not any_may_run(targets, override or g.gfx_target or "", g.gfx_features)
    ]


def _amd_label(gpu: Gpu, override: str | None) -> str:
    """`GPU 0 AMD Radeon 8060S Graphics (gfx1151)`: the target the GPU loads code for."""
    return f"GPU {gpu.index} {gpu.name} ({override or gpu.gfx_target})"


def hip_code_missing(facts: Facts) -> Verdict:
    """TRUE when a log states an AMD GPU's target and the list of targets torch's ROCm build
    carries (torch.cuda.get_arch_list()) and no entry runs there (target-ID match; the
    HSA_OVERRIDE_GFX_VERSION target where the facts set one). An environment's files decide
    this themselves (compat.kb.binarycheck: binary-no-kernel-image), so where an environment
    was read and no list printed it is FALSE; from a log without the list it is the question
    of what the failing library carries, whether or not the machine was probed or profiled
    (the GPU's target is then known, the library's targets still are not)."""
    from compat.binary.gfxtarget import override_target

    hardware = facts.hardware
    amd = [g for g in (hardware.gpus if hardware else ()) if g.is_amd]
    if hardware is not None and hardware.gpus and not amd:
        return FALSE  # NVIDIA GPUs only
    listed = facts.arch_lists.get("torch_hip")
    devices = _declared_device_targets(facts) if not listed and amd else None
    if devices:
        listed = devices
    declared = _declared_rocm_build(facts) if not listed and amd else None
    if isinstance(declared, Verdict):
        return declared
    if declared is not None:
        listed = declared.targets
    if not listed:
        if facts.packages_known:
            return FALSE  # an environment: its files are read instead (binary-no-kernel-image)
        return Verdict(
            Tri.UNKNOWN,
            unknown=(
                Unknown(
                    "build.hip_targets",
                    "the GPU targets the failing library carries: compat doctor on that "
                    "environment reads them from its files, or print torch.cuda.get_arch_list()",
                ),
            ),
        )
    if not amd or any(g.gfx_target is None for g in amd):
        return _gfx_target_unknown()
    override = override_target(hardware.gfx_override) if hardware else None
    missing = _unserved(amd, listed, override)
    if not missing:
        return FALSE
    names = "; ".join(_amd_label(g, override) for g in missing)
    torch = facts.packages.get(canonicalize_name("torch"))
    matched = (
        (MatchedPackage(torch.name, str(torch.versions[0]), torch.origin),)
        if torch is not None and torch.versions
        else ()
    )
    if devices and torch is not None:
        from compat.kb.torchrocm import THEROCK_SOURCE

        text = (
            f"{names}: torch {torch.versions[0]} is declared with the device packages of "
            f"{' '.join(listed)} and none that runs there ({THEROCK_SOURCE}; add the GPU's "
            "own [device-gfx...] extra)"
        )
    elif declared is not None and torch is not None:
        from compat.kb import torchrocm

        first = torchrocm.first_carrying(override or missing[0].gfx_target or "")
        since = f"; the first in the table that carries it: torch {first}" if first else ""
        text = (
            f"{names}: torch {torch.versions[0]}, the ROCm {declared.rocm} build, carries code "
            f"for {' '.join(listed)} and none that runs there (PYTORCH_ROCM_ARCH, "
            f"{declared.source}{since})"
        )
    else:
        text = (
            f"{names}: torch's ROCm build carries code for {' '.join(listed)} and none that "
            "runs there"
        )
    return Verdict(Tri.TRUE, (text,), (), matched)


def xformers_hip_code_missing(facts: Facts) -> Verdict:
    """TRUE when a declared (not installed) xformers comes from a PyTorch ROCm index alone
    (build.xformers_rocm) and none of the targets xFormers' CI built that release for
    (HIP_ARCHITECTURES at the tag, compat/data/xformers-rocm-arch.json) runs on an AMD GPU of
    the machine (target-ID match; the HSA_OVERRIDE_GFX_VERSION target where set). xFormers'
    ROCm wheels carry no local label: the index decides the build, and where PyPI's CUDA build
    may win the tie it is asked. An installed xformers: its files decide
    (binary-no-kernel-image). A release the table lacks, or a `+rocm` label (not one of its
    CI's wheels): the question what it carries (anchored, possible)."""
    from compat.binary.gfxtarget import override_target
    from compat.kb import xformersrocm

    hardware = facts.hardware
    amd = [g for g in (hardware.gpus if hardware else ()) if g.is_amd]
    xformers = facts.packages.get(canonicalize_name("xformers"))
    if hardware is None or not amd or xformers is None:
        return FALSE  # no AMD GPU known: nothing to run HIP code on
    if not xformers.exact or xformers.installed:
        return FALSE  # a range names no build; an installed one: its files are read
    version: Version = xformers.versions[0]
    matched = (MatchedPackage(xformers.name, str(version), xformers.origin),)
    labelled = xformersrocm.label(version) is not None
    rocm = facts.builds.get("xformers_rocm")
    tie = facts.unknown_builds.get("xformers_rocm") if rocm is None else None
    if rocm is None and tie is None and not labelled:
        return FALSE  # PyPI's build (CUDA's): not a ROCm build's question
    build = None if labelled else xformersrocm.build_of(version)
    if build is None:
        hint = (
            f"the GPU targets xformers {version} carries: {xformersrocm.why_unknown(version)}; "
            "`compat doctor --python PATH` on that environment's interpreter reads them from "
            "xformers/_C.so"
        )
        return Verdict(
            Tri.UNKNOWN,
            unknown=(Unknown("build.hip_targets", hint),),
            packages=matched,
            anchored=True,
        )
    if any(g.gfx_target is None for g in amd):
        return _gfx_target_unknown(matched)
    override = override_target(hardware.gfx_override)

    if rocm is not None and not xformersrocm.built_for(build, rocm):
        # no build of this release for the index's ROCm: the resolver takes a release the index
        # serves; judged by every release xFormers' CI built for that ROCm
        return _xformers_by_index(version, rocm, amd, override, matched)
    missing = _unserved(amd, build.targets, override)
    if not missing:
        return FALSE
    names = "; ".join(_amd_label(g, override) for g in missing)
    if tie is not None:
        # the ROCm index's build lacks the target, PyPI's is CUDA's: which one installs is asked
        needs = (
            f"{tie} (its ROCm build carries {' '.join(build.targets)} only, none for {names}: "
            f"{build.source})"
        )
        return Verdict(
            Tri.UNKNOWN,
            unknown=(Unknown("build.xformers_rocm", needs),),
            packages=matched,
            anchored=True,
        )
    text = (
        f"{names}: xformers {version} from PyTorch's ROCm {rocm} index, xFormers' ROCm build, "
        f"carries code for {' '.join(build.targets)} only and none that runs there "
        f"(HIP_ARCHITECTURES, {build.source}; torch's PYTORCH_ROCM_ARCH does not widen it)"
    )
    return Verdict(Tri.TRUE, (text,), (), matched)


def flash_attn_ck_target_unlisted(facts: Facts) -> Verdict:
    """TRUE when a declared (not installed) flash-attn release is built from PyPI's sdist under
    a ROCm torch (build.torch_rocm: a +rocm label or a PyTorch ROCm index) for an AMD GPU whose
    target (the HSA_OVERRIDE_GFX_VERSION target where set: torch reports it as the device's)
    the release's CK backend does not list (setup.py's allowed_archs at the tag,
    compat/data/flash-attn-rocm-arch.json). The release builds no wheel for ROCm, so setup.py
    runs: with GPU_ARCHS naming the target its assertion refuses it; by default ("native")
    it compiles the CK kernels for that target unchecked, which the release lists as not
    supported. Those are MFMA (XDL) kernels: TRUE for a target without MFMA (RDNA, gfx906);
    for an unlisted one with MFMA (gfx908) whether they build is asked. From v2.7.1 FLASH_ATTENTION_TRITON_AMD_ENABLE=TRUE at build time skips the CK
    build: a variable compat cannot see, so there it is the question (possible). An installed
    flash-attn: its files decide (binary-no-kernel-image); a CUDA torch or NVIDIA GPUs: false."""
    from compat.binary.gfxtarget import override_target
    from compat.kb import flashattnrocm

    hardware = facts.hardware
    amd = [g for g in (hardware.gpus if hardware else ()) if g.is_amd]
    package = facts.packages.get(canonicalize_name("flash-attn"))
    if hardware is None or not amd or package is None or len(amd) != len(hardware.gpus):
        return FALSE  # no AMD GPU, or NVIDIA GPUs beside them: not this build's question
    if not package.exact or package.installed or "torch_rocm" not in facts.builds:
        return FALSE  # a range names no release; installed: its files; no ROCm torch known
    version: Version = package.versions[0]
    matched = (MatchedPackage(package.name, str(version), package.origin),)
    if version < flashattnrocm.first() and not version.local:
        return FALSE  # no ROCm path: its CUDA build under a ROCm torch (flash_attn_nvcc)
    build = flashattnrocm.build_of(version)
    if build is None:
        hint = (
            f"the GPU targets flash-attn {version}'s ROCm build accepts: compat's table "
            f"(compat/data/flash-attn-rocm-arch.json) has {flashattnrocm.first()}-"
            f"{flashattnrocm.last()} releases only (grep -n allowed_archs setup.py); once built, "
            "`compat doctor --python PATH` reads the code objects of its flash_attn_2_cuda .so"
        )
        return Verdict(
            Tri.UNKNOWN,
            unknown=(Unknown("build.flash_attn_targets", hint),),
            packages=matched,
            anchored=True,
        )
    if any(g.gfx_target is None for g in amd):
        return _gfx_target_unknown(matched)
    override = override_target(hardware.gfx_override)
    # allowed_archs holds bare names compared by string equality with GPU_ARCHS or the
    # detected gcnArchName's name before ':' (its features dropped)
    refused = [
        g for g in amd if (override or g.gfx_target or "").split(":")[0] not in build.allowed
    ]
    if not refused:
        return FALSE
    names = "; ".join(
        f"GPU {g.index} {g.name} ({(override or g.gfx_target or '').split(':')[0]})"
        for g in refused
    )
    said = (
        f"{names}: flash-attn {version} builds from source under torch's ROCm build (its release "
        f"wheels are CUDA's), and its composable_kernel backend lists {' '.join(build.allowed)} "
        f"only (setup.py allowed_archs, {build.source}): GPU_ARCHS naming the target fails its "
        "assertion, and the default (native) compiles its MFMA (XDL) kernels for a target the "
        "release does not support"
    )
    if build.triton_env:
        needs = (
            f"FLASH_ATTENTION_TRITON_AMD_ENABLE at build time ({said}; with it TRUE setup.py "
            "builds no CK kernels and the Triton backend is used); once built, `compat doctor "
            "--python PATH` reads what was built"
        )
        return Verdict(
            Tri.UNKNOWN,
            unknown=(Unknown("build.flash_attn_backend", needs),),
            packages=matched,
            anchored=True,
        )
    if not any(flashattnrocm.lacks_mfma(override or g.gfx_target or "") for g in refused):
        # unlisted targets with MFMA (gfx908): the unchecked native build may well work there
        needs = (
            f"whether flash-attn {version}'s CK kernels build and run on the GPU ({said}; the "
            "target has the MFMA instructions they use, and ROCm/flash-attention#180 built them "
            "on gfx908 with the list patched); once built, `compat doctor --python PATH` reads "
            "what was built"
        )
        return Verdict(
            Tri.UNKNOWN,
            unknown=(Unknown("build.flash_attn_targets", needs),),
            packages=matched,
            anchored=True,
        )
    return Verdict(Tri.TRUE, (said,), (), matched)


def _xformers_by_index(
    version: Version,
    rocm: Version,
    amd: Sequence[Gpu],
    override: str | None,
    matched: tuple[MatchedPackage, ...],
) -> Verdict:
    """xformers_hip_code_missing for a release with no build for the index's ROCm: TRUE where
    every release built for that ROCm leaves a GPU unserved, FALSE where none does (or none was
    built for it: the index serves no build of xFormers' CI), else the question."""
    from compat.kb import xformersrocm

    served = xformersrocm.releases_for(rocm)
    missing = [_unserved(amd, build.targets, override) for build in served]
    if not served or not any(missing):
        return FALSE
    if not all(missing):
        hint = (
            f"which release the PyTorch ROCm {rocm} index gives for xformers {version} (it has "
            "no build of it): some of that index's releases carry the GPU's target, some not"
        )
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.hip_targets", hint),), packages=matched)
    gpus = {_amd_label(g, override) for found in missing for g in found}
    targets = sorted({t for build in served for t in build.targets})
    span = f"{served[0].release}-{served[-1].release}" if len(served) > 1 else served[0].release
    text = (
        f"{'; '.join(sorted(gpus))}: xformers {version} has no ROCm {rocm} build, and the "
        f"releases xFormers' CI built for ROCm {rocm} ({span}, what PyTorch's ROCm {rocm} index "
        f"serves) carry code for {' '.join(targets)} only and none that runs there "
        f"(HIP_ARCHITECTURES, compat/data/xformers-rocm-arch.json)"
    )
    return Verdict(Tri.TRUE, (text,), (), matched)


def cuda_build_on_amd(facts: Facts) -> Verdict:
    """TRUE when every GPU of the machine is AMD's and torch is a CUDA build (a `+cuXYZ`
    label, a PyTorch CUDA index, PyPI's default Linux build of that release as
    compat/data/torch-builds.json read it from the wheel's torch/version.py, or the installed
    torch/version.py): it carries no HIP code and its CUDA runtime finds no GPU. A ROCm build
    fact (a `+rocmX.Y` label, a PyTorch ROCm index, torch/version.py's `hip`) clears it; a
    machine with any NVIDIA GPU is not judged."""
    hardware = facts.hardware
    torch = facts.packages.get(canonicalize_name("torch"))
    if hardware is None or not hardware.gpus or torch is None:
        return FALSE
    if not all(g.is_amd for g in hardware.gpus) or "torch_rocm" in facts.builds:
        return FALSE
    cuda = facts.builds.get("torch_cuda")
    if cuda is None:
        if "torch_cuda" in facts.unknown_builds:
            needs = facts.unknown_builds["torch_cuda"]
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", needs),))
        return FALSE  # a CPU build, or no build fact: nothing said of a GPU backend
    where = f" ({torch.origin})" if torch.origin else ""
    label = f"torch {torch.versions[0]}" if torch.exact else (torch.requirement or "torch")
    counts: dict[str, int] = {}
    for gpu in hardware.gpus:  # "8x AMD Instinct MI300X (gfx942)": the name and target once
        name = "AMD GPU" if gpu.name == f"AMD {gpu.gfx_target}" else gpu.name
        key = f"{name} ({gpu.gfx_target or 'target unknown'})"
        counts[key] = counts.get(key, 0) + 1
    names = ", ".join(f"{n}x {key}" for key, n in sorted(counts.items()))
    how = (
        "PyPI's Linux wheel"
        if not any(v.local for v in torch.versions) and not torch.installed
        else "installed"
        if torch.installed
        else "its label"
    )
    text = (
        f"{label}{where} is the CUDA {cuda} build ({how}): no HIP code, and its CUDA runtime "
        f"finds no GPU on {names} (torch.cuda.is_available() is False)"
    )
    matched = MatchedPackage(
        torch.name, str(torch.versions[0]) if torch.exact else "*", torch.origin
    )
    rocm, chosen = _rocm_build_for(torch.versions[0], hardware) if torch.exact else ("", "")
    fix = None
    if chosen:
        # The build named above, in the fix too: the rule's own fix can only say `rocmX.Y`.
        # No constraint: pin weighs a fix's constraints, and it chooses torch's build itself.
        index = f"https://download.pytorch.org/whl/rocm{chosen}"
        release = torch.versions[0].public
        fix = Fix(
            f"install torch's ROCm build torch=={release}+rocm{chosen} from PyTorch's ROCm "
            f"index (pip install torch=={release}+rocm{chosen} --index-url {index})",
            change=f"--index-url {index}  # in the requirements file, replacing PyPI for torch",
        )
    return Verdict(Tri.TRUE, (text, rocm) if rocm else (text,), (), (matched,), fix=fix)


def _rocm_build_for(version: Version, hardware: Any) -> tuple[str, str]:
    """The ROCm build of this torch release that pin would choose for these GPUs, with the
    index that serves it (compat/data/torch-rocm-arch.json), and that build's ROCm version
    (`6.1`); where the table has no row for the release or no build of it carries the GPUs'
    targets, that missing fact, never a guess, and no version."""
    from packaging.version import Version

    from compat.kb import torchrocm

    gpus = sorted({(g.gfx_target, g.gfx_features) for g in hardware.gpus if g.gfx_target})
    if not gpus:
        return "", ""
    release = Version(version.public)
    builds = torchrocm.serving_builds(release, gpus, hardware.rocm_version)
    if not builds:
        said = torchrocm.no_build_serves(release, gpus)
        if builds is not None:  # a row, no build with the targets: where they first appear
            first = [
                f"{t} from torch {found}"
                for t in sorted({t for t, _ in gpus})
                if (found := torchrocm.first_carrying(t))
            ]
            if first:
                said += f"; the table's first ROCm builds with code for {', '.join(first)}"
        return f"no ROCm build to name: {said}", ""
    rocm = builds[0]
    targets = " ".join(sorted({t for t, _ in gpus}))
    return (
        f"its ROCm build for {targets}: torch=={release}+rocm{rocm} from "
        f"https://download.pytorch.org/whl/rocm{rocm} (pip install torch=={release}+rocm{rocm} "
        f"--index-url https://download.pytorch.org/whl/rocm{rocm}; compat/data/"
        f"torch-rocm-arch.json: the builds of {torchrocm.series_of(release)} that carry "
        f"{targets} are +rocm{', +rocm'.join(builds)})"
    ), rocm


def _declared_device_targets(facts: Facts) -> tuple[str, ...] | None:
    """The targets of the TheRock device packages declared beside a pinned torch
    (compat.kb.torchrocm.declared_device_targets); None where none is declared."""
    from compat.kb.torchrocm import declared_device_targets

    torch = facts.packages.get(canonicalize_name("torch"))
    return declared_device_targets(torch, facts.packages) if torch is not None else None


def _declared_rocm_build(facts: Facts) -> RocmBuild | Verdict | None:
    """The table's row for a torch `+rocmX.Y` pin that is declared, not installed (check and
    pin: no files to read); an UNKNOWN verdict where the table has no row for it; None for an
    installed torch (its files are read), a range, or a build that is not ROCm's."""
    from compat.kb import torchrocm
    from compat.probes.rocmbuild import rocm_from_local_label

    torch = facts.packages.get(canonicalize_name("torch"))
    if torch is None or not torch.exact or torch.installed:
        return None
    version = torch.versions[0]
    if rocm_from_local_label(version) is None:
        return None
    build = torchrocm.build_of(version)
    if build is None:
        builds = torchrocm.index_builds(version)
        what = (
            "a nightly, built from main at its date, which no release row describes"
            if torchrocm.nightly(version)
            else f"compat's table (compat/data/torch-rocm-arch.json) has PyTorch's "
            f"{', '.join('+rocm' + b for b in builds)} builds of {torchrocm.series_of(version)} "
            "only; another label is another build (AMD's own wheels carry their own targets)"
            if builds
            else "compat's table (compat/data/torch-rocm-arch.json, from pytorch/builder) has "
            f"torch {torchrocm.span()} only"
        )
        hint = (
            f"the GPU targets torch {version} carries: {what}; `compat doctor --python "
            "PATH` on that environment's interpreter reads them from libtorch_hip.so, or print "
            "torch.cuda.get_arch_list()"
        )
        # Anchored: an exact ROCm build of torch declared for AMD GPUs is a specific case, and
        # the one fact left open is compat's own gap; said as a question (possible), never
        # dropped as if the build were known to serve the GPU.
        matched = MatchedPackage(torch.name, str(version), torch.origin)
        return Verdict(
            Tri.UNKNOWN,
            unknown=(Unknown("build.hip_targets", hint),),
            packages=(matched,),
            anchored=True,
        )
    return build


def _wheel_question(facts: Facts, expected: str) -> bool:
    """Whether the wheel table could say anything (compat/kb/wheels.py says what): a declared
    package for `none`/`source-build`, torch on linux/aarch64 for `cpu-build`."""
    markers = facts.markers
    if markers is None:
        return False
    if expected == "cpu-build":
        return (
            markers.get("sys_platform", "").startswith("linux")
            and markers.get("platform_machine") in ("aarch64", "arm64")
            and "torch" in facts.packages
        )
    return any(not fact.installed for fact in facts.packages.values())


def torch_kernels_missing(facts: Facts) -> Verdict:
    """TRUE when some visible GPU finds neither SASS for its compute capability nor PTX its
    driver can compile in the installed torch build (compat/data/torch-arch.json)."""

    torch = facts.packages.get(canonicalize_name("torch"))
    if torch is None:
        if facts.packages_known:
            return FALSE
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("packages.torch", "an environment"),))
    hardware = facts.hardware
    if hardware is None:
        return Verdict(
            Tri.UNKNOWN, unknown=(Unknown("hardware.compute_capability", HARDWARE_HINT),)
        )
    if not hardware.gpus:
        if hardware.partial:  # a log that names no GPU
            return Verdict(
                Tri.UNKNOWN, unknown=(Unknown("hardware.compute_capability", HARDWARE_HINT),)
            )
        return FALSE
    listed = facts.arch_lists.get("torch")
    if listed:  # torch's own message lists what the build carries
        cuda = _torch_cuda(facts, torch.versions)
        return _kernels_from_list(listed, hardware.gpus, torch, cuda, hardware.cuda_driver_version)
    if not torch.versions:  # present (a message it printed), its release not shown
        hint = "the installed torch release and build (pip show torch, or --python/--path)"
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("packages.torch", hint),))
    if facts.build_channels.get("torch") == "conda-forge":
        return _forge_kernels_missing(facts, torch, hardware)
    cuda = _torch_cuda(facts, torch.versions)
    if cuda is None:
        if "torch_cuda" in facts.unknown_builds:
            needs = facts.unknown_builds["torch_cuda"]
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", needs),))
        if not facts.packages_known and not any(v.local for v in torch.versions):
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", _BUILD_HINT),))
        return FALSE  # a CPU or ROCm build, or no build fact: no CUDA kernels to miss

    from compat.kb import archtable

    missing_for: list[tuple[Version, ArchList, list[Gpu]]] = []
    ptx_only: list[tuple[Gpu, Sequence[str]]] = []
    clear = unknown = 0
    for version in torch.versions:
        release = archtable.release_of(version)
        arches = archtable.arch_list(release, cuda) if release is not None else None
        if release is None or arches is None:
            unknown += 1  # a source/pre-release build, or a build the table does not list
            continue
        missing = []
        open_ = False
        for gpu in hardware.gpus:
            if gpu.compute_capability is None:
                open_ = True
                continue
            runs = archtable.runs(
                arches, gpu.compute_capability, cuda, hardware.process_cuda_version
            )
            if runs is None:  # only PTX serves it, and the driver's CUDA is not known
                open_ = True
                ptx_only.append((gpu, arches.ptx))
            elif not runs:
                missing.append(gpu)
        if missing:
            missing_for.append((release, arches, missing))
        elif open_:
            unknown += 1
        else:
            clear += 1
    if not missing_for:
        if unknown:
            if ptx_only and not any(g.compute_capability is None for g in hardware.gpus):
                gpu, ptx = ptx_only[0]
                return Verdict(Tri.UNKNOWN, unknown=ptx_questions(gpu, ptx, cuda, None))
            return Verdict(
                Tri.UNKNOWN,
                unknown=(Unknown("hardware.compute_capability", HARDWARE_HINT),),
            )
        return FALSE
    release, arches, gpus = missing_for[0]
    where = f" ({torch.origin})" if torch.origin else ""
    label = f"torch {torch.versions[0]}" if torch.exact else (torch.requirement or "torch")
    names = "; ".join(
        f"GPU {g.index} {g.name} (sm_{str(g.compute_capability).replace('.', '')})" for g in gpus
    )
    text = (
        f"{names}: {label}{where}, the CUDA {cuda} build, carries {arches.describe()} "
        f"and nothing that runs there"
    )
    matched = MatchedPackage(
        torch.name, str(torch.versions[0]) if torch.exact else "*", torch.origin
    )
    if clear or unknown:
        hint = "a pin of torch (or a lock file) naming one release and build"
        return Verdict(Tri.UNKNOWN, (text,), (Unknown("packages.torch", hint),), (matched,))
    capabilities = sorted({g.compute_capability for g in gpus if g.compute_capability})
    fix = _kernel_fix(release, cuda, capabilities, facts)
    return Verdict(Tri.TRUE, (text,), (), (matched,), fix=fix)


def _forge_candidates(
    facts: Facts, torch: PackageFact, driver_cuda: Version | None
) -> list[tuple[Version, Version]] | None:
    """The conda-forge builds (release, CUDA) the torch fact can be: its one build where the
    build is known, else every CUDA build conda-forge made of the releases it allows that the
    driver can install (a CUDA X.Y build requires `__cuda >=X` through cuda-version's
    constraint). None: a CPU build (no CUDA kernels to miss)."""
    from packaging.requirements import InvalidRequirement, Requirement

    from compat.kb import archtable

    cuda = facts.builds.get("torch_cuda")
    if cuda is None and "torch_cuda" not in facts.unknown_builds:
        return None
    if torch.exact:
        releases: tuple[Version, ...] = (torch.versions[0],)
    else:
        try:
            specifier = Requirement(torch.requirement or "torch").specifier
        except InvalidRequirement:
            return []
        releases = tuple(r for r in archtable.forge_releases() if specifier.contains(r))
    if cuda is not None:  # a range: the releases conda-forge built that CUDA version for
        return [
            (release, cuda)
            for release in releases
            if torch.exact or cuda in archtable.forge_builds(release)
        ]
    return [
        (release, build)
        for release in releases
        for build in archtable.forge_builds(release)
        if driver_cuda is None or build.major <= driver_cuda.major
    ]


def _forge_kernels_missing(facts: Facts, torch: PackageFact, hardware: Any) -> Verdict:
    """torch_kernels for conda-forge's pytorch, over its own recipe's arch lists
    (compat/data/conda-forge-torch-arch.json): every build the facts allow. All missing a GPU:
    TRUE; some: UNKNOWN (which release, or which build, settles it); none: FALSE."""
    from compat.kb import archtable

    driver = hardware.process_cuda_version
    candidates = _forge_candidates(facts, torch, driver)
    if candidates is None:
        return FALSE  # conda-forge's CPU build
    missing_for: list[tuple[Version, Version, ArchList, list[Gpu]]] = []
    missing_releases: dict[Version, bool] = {}  # release -> every build of it misses
    unknown = 0
    for release, cuda in candidates:
        variants = archtable.forge_arch_lists(release, cuda)
        if variants is None:
            unknown += 1
            missing_releases[release] = False
            continue
        missing, open_ = [], False
        for gpu in hardware.gpus:
            if gpu.compute_capability is None:
                open_ = True
                continue
            runs = {archtable.runs(v, gpu.compute_capability, cuda, driver) for v in variants}
            if runs == {False}:
                missing.append(gpu)
            elif runs != {True}:
                open_ = True
        if missing:
            missing_for.append((release, cuda, variants[0], missing))
        elif open_:
            unknown += 1
        missing_releases[release] = bool(missing) and missing_releases.get(release, True)
    if not missing_for:
        if unknown or not candidates:
            needs = facts.unknown_builds.get("torch_cuda")
            if needs and not candidates:
                return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", needs),))
            return Verdict(
                Tri.UNKNOWN, unknown=(Unknown("hardware.compute_capability", HARDWARE_HINT),)
            )
        return FALSE
    release, cuda, arches, gpus = missing_for[0]
    where = f" ({torch.origin})" if torch.origin else ""
    label = f"torch {torch.versions[0]}" if torch.exact else (torch.requirement or "torch")
    names = "; ".join(
        f"GPU {g.index} {g.name} (sm_{str(g.compute_capability).replace('.', '')})" for g in gpus
    )
    builds = ", ".join(f"{r} CUDA {c}" for r, c, _, _ in missing_for)
    text = (
        f"{names}: {label}{where}, conda-forge's build{'s' if len(missing_for) > 1 else ''} "
        f"{builds}, carr{'y' if len(missing_for) > 1 else 'ies'} {arches.describe()} and "
        "nothing that runs there (conda-forge/pytorch-cpu-feedstock recipe/build.sh)"
    )
    matched = MatchedPackage(
        torch.name, str(torch.versions[0]) if torch.exact else "*", torch.origin
    )
    if len(missing_for) < len(candidates):
        if any(missing_releases.values()):  # a whole release is bad: pinning the release settles
            hint = "a pin of conda's pytorch (or a lock file) naming one release and build"
            return Verdict(
                Tri.UNKNOWN, (text,), (Unknown("packages.torch", hint),), (matched,), anchored=True
            )
        needs = facts.unknown_builds.get("torch_cuda", "which CUDA build of conda's pytorch")
        return Verdict(
            Tri.UNKNOWN, (text,), (Unknown("build.torch_cuda", needs),), (matched,), anchored=True
        )
    every = sorted({g.compute_capability for g in hardware.gpus if g.compute_capability})
    good = [
        (r, c)
        for r in archtable.forge_releases()
        for c in archtable.forge_builds(r)
        if (driver is None or c.major <= driver.major)
        and (variants := archtable.forge_arch_lists(r, c))
        and all(archtable.runs(v, cc, c, driver) is True for v in variants for cc in every)
    ]
    sms = ", ".join(f"sm_{str(c).replace('.', '')}" for c in every)
    if good:
        best = min(good, key=lambda b: (abs(b[0].release[0] * 100 + b[0].release[1]
                                            - release.release[0] * 100 - release.release[1]), -b[0].release[1]))  # fmt: skip
        pin = f"pytorch={best[0]}=cuda{best[1].major}{best[1].minor}*"
        fix = Fix(
            f"conda-forge's CUDA {best[1]} build of pytorch {best[0]} carries kernels for {sms}",
            (pin,),
            f"pin `{pin}` in the conda/pixi file (conda-forge channel)",
        )
    else:
        fix = Fix(
            f"no conda-forge build of pytorch the driver can install carries kernels for {sms}: "
            "build torch from source with TORCH_CUDA_ARCH_LIST naming it, or use a supported GPU"
        )
    return Verdict(Tri.TRUE, (text,), (), (matched,), fix=fix)


def ptx_questions(
    gpu: Gpu, ptx: Sequence[str], build_cuda: Version | None, driver_cuda: Version | None
) -> tuple[Unknown, ...]:
    """What settles a GPU that only the build's PTX can serve (portable PTX: torch warns "not
    compatible" all the same): whether the driver JIT-compiled it, which it can when its CUDA
    version is at least the CUDA that produced the PTX (archtable.runs). The GPU's compute
    capability is known here and never asked for."""
    arch = " ".join(a if a.startswith("compute_") else f"compute_{a.replace('.', '')}" for a in ptx)
    sm = f"sm_{str(gpu.compute_capability).replace('.', '')}"
    jit = (
        f"whether the driver JIT-compiled the build's PTX ({arch}) for GPU {gpu.index} "
        f"{gpu.name} ({sm}): a CUDA call after torch's warning that succeeds, or fails with "
        f'"no kernel image is available"'
    )
    asked = []
    if driver_cuda is None:
        floor = f" {build_cuda}" if build_cuda is not None else ""
        asked.append(
            Unknown(
                "hardware.cuda_driver",
                f"the driver's CUDA version (nvidia-smi's header), which must be at least the "
                f"build's CUDA{floor} to JIT the PTX; or {jit}",
            )
        )
    if build_cuda is None:
        asked.append(
            Unknown(
                "build.torch_cuda",
                "torch's CUDA build (torch.version.cuda, or a +cuXYZ release), which the driver's "
                f"CUDA{f' {driver_cuda}' if driver_cuda else ''} must reach to JIT the PTX; "
                f"or {jit}",
            )
        )
    return tuple(asked)


def _kernels_from_list(
    listed: Sequence[str],
    gpus: Sequence[Gpu],
    torch: PackageFact,
    cuda: Version | None = None,
    driver_cuda: Version | None = None,
) -> Verdict:
    """The build's architecture list as torch prints it (`sm_50 sm_60 ... sm_90`, and
    `compute_XX` for PTX): a GPU runs SASS of its own major with an equal or lower minor, as
    torch's own check reads it. A GPU that only PTX can serve runs when the driver's CUDA is at
    least the build's (the driver JIT-compiles it), finds nothing when it is older, and is
    otherwise open on those two versions (ptx_questions), never on its compute capability."""
    from packaging.version import InvalidVersion, Version

    def capability(token: str) -> Version | None:
        digits = token.partition("_")[2].rstrip("af")
        try:
            return Version(f"{digits[:-1]}.{digits[-1]}") if len(digits) >= 2 else None
        except InvalidVersion:
            return None

    sass = [c for t in listed if t.startswith("sm_") and (c := capability(t)) is not None]
    missing, unknown = [], False
    ptx_only: list[tuple[Gpu, list[str]]] = []
    too_old = ""
    for gpu in gpus:
        cc = gpu.compute_capability
        if cc is None:
            unknown = True
        elif not any(c.major == cc.major and c <= cc for c in sass):
            served = [
                t for t in listed if t.startswith("compute_") and (c := capability(t)) and c <= cc
            ]
            if not served:
                missing.append(gpu)
            elif cuda is None or driver_cuda is None:
                ptx_only.append((gpu, served))  # PTX the driver may compile
            elif driver_cuda < cuda:  # an older driver cannot JIT a newer toolkit's PTX
                missing.append(gpu)
                too_old = (
                    f"; its PTX ({' '.join(served)}) needs a driver of CUDA {cuda} or newer, "
                    f"and the driver's CUDA is {driver_cuda}"
                )
    if not missing:
        if unknown:
            return Verdict(
                Tri.UNKNOWN, unknown=(Unknown("hardware.compute_capability", HARDWARE_HINT),)
            )
        if ptx_only:
            gpu, served = ptx_only[0]
            return Verdict(Tri.UNKNOWN, unknown=ptx_questions(gpu, served, cuda, driver_cuda))
        return FALSE
    names = "; ".join(
        f"GPU {g.index} {g.name} (sm_{str(g.compute_capability).replace('.', '')})" for g in missing
    )
    label = f"torch {torch.versions[0]}" if torch.versions else "torch"
    text = (
        f"{names}: {label} carries {' '.join(listed)} (its own list) and nothing that runs "
        f"there{too_old}"
    )
    return Verdict(Tri.TRUE, (text,))


def _torch_cuda(facts: Facts, versions: Sequence[Version]) -> Version | None:
    """torch's CUDA build; for an unlabelled torch beside a CUDA runtime wheel (a lock file
    listing nvidia-cuda-runtime-cu12==12.4.127), the runtime's CUDA, as the CUDA rules read it."""
    cuda = facts.builds.get("torch_cuda")
    runtime = facts.builds.get("cuda_runtime")
    if cuda is None and runtime is not None and not any(v.local for v in versions):
        from packaging.version import Version

        major, minor = (*runtime.release, 0)[:2]
        cuda = Version(f"{major}.{minor}")
    return cuda


def _kernel_fix(
    release: Version, cuda: Version, capabilities: Sequence[Version], facts: Facts
) -> Fix:
    """The nearest torch build that runs on every visible GPU, as a constraint."""
    from compat.kb import archtable
    from compat.kb.torchbuilds import cuda_tag, index_url

    hardware = facts.hardware
    every = sorted(
        {g.compute_capability for g in (hardware.gpus if hardware else ()) if g.compute_capability}
    )
    sms = ", ".join(f"sm_{str(c).replace('.', '')}" for c in capabilities)
    builds = archtable.fixing_builds(
        release, every, hardware.process_cuda_version if hardware else None
    )
    if not builds:
        return Fix(
            f"no torch build PyTorch publishes carries kernels for {sms}: build torch from source "
            f"with TORCH_CUDA_ARCH_LIST naming it, or use a supported GPU"
        )
    best = builds[-1]  # the newest CUDA of the nearest release
    pin = f"torch=={best.release}+{cuda_tag(best.cuda)}"
    alternatives = " or ".join(f"+{cuda_tag(b.cuda)}" for b in builds)
    if best.release == release:
        summary = (
            f"install another CUDA build of torch {release} ({alternatives} instead of the CUDA "
            f"{cuda} build), which carries kernels for {sms}"
        )
    else:
        summary = (
            f"no build of torch {release} carries kernels for {sms}; torch {best.release} "
            f"({alternatives}) is the nearest release that does"
        )
    change = f'pip install "{pin}" --extra-index-url {index_url(best.cuda)}'
    return Fix(summary, (pin,), change)


def bitsandbytes_library_missing(facts: Facts, by_runtime: bool = False) -> Verdict:
    """TRUE when the installed bitsandbytes release ships no CUDA library it would load for
    torch's CUDA build (compat/data/native-libs.json, read from the released wheels).

    `by_runtime`: the releases that pick their library by the machine's CUDA runtime instead
    (0.31.8-0.40.0.post4, `bitsandbytes_cuda_major`): TRUE when the wheel ships no library at all
    of the CUDA major torch is built for."""

    package = facts.packages.get(canonicalize_name("bitsandbytes"))
    torch = facts.packages.get(canonicalize_name("torch"))
    if package is None or torch is None:
        if not facts.packages_known:  # a log that does not show it: unknown, never clear
            name = "bitsandbytes" if package is None else "torch"
            return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"packages.{name}", _RELEASE_HINT),))
        return FALSE  # the package conditions of the rule say why
    hardware = facts.hardware
    if hardware is not None and not hardware.gpus and not hardware.partial:
        return FALSE  # no GPU: bitsandbytes loads its CPU library on purpose
    if not package.versions:  # present (a message it printed), its release not shown
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("packages.bitsandbytes", _RELEASE_HINT),))
    cuda = _torch_cuda(facts, torch.versions)
    if cuda is None:
        if "torch_cuda" in facts.unknown_builds:
            needs = facts.unknown_builds["torch_cuda"]
            return _library_depends_on_build(package, needs, by_runtime)
        if not facts.packages_known and not any(v.local for v in torch.versions):
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", _BUILD_HINT),))
        return FALSE  # a CPU torch: bitsandbytes loads its CPU library on purpose

    from compat.kb import nativelibs

    judge = _lacks_major if by_runtime else _lacks_library
    missing = [v for v in package.versions if judge(_release(v), cuda)]
    if not missing:
        return FALSE  # every candidate loads one, or the table does not know the release
    version = missing[0]
    shipped = nativelibs.shipped(_release(version)) or ()
    tag = f"cuda{cuda.major}{cuda.minor}"
    where = f" ({package.origin})" if package.origin else ""
    label = f"bitsandbytes {version}" if package.exact else (package.requirement or "bitsandbytes")
    listed = ", ".join(str(c) for c in shipped)
    if by_runtime:
        text = (
            f"{label}{where} ships libbitsandbytes_cuda for CUDA {listed}: none for CUDA "
            f"{cuda.major}, which torch's CUDA {cuda} build uses, and it picks its library by the "
            "machine's CUDA runtime, not torch's"
        )
    else:
        text = (
            f"{label}{where} ships libbitsandbytes_cuda for CUDA {listed}: none it loads for "
            f"torch's CUDA {cuda} build (libbitsandbytes_{tag})"
        )
    matched = MatchedPackage(package.name, str(version) if package.exact else "*", package.origin)
    if len(missing) < len(package.versions):
        hint = "a pin of bitsandbytes (or a lock file)"
        return Verdict(Tri.UNKNOWN, (text,), (Unknown("packages.bitsandbytes", hint),), (matched,))
    return Verdict(
        Tri.TRUE, (text,), (), (matched,), fix=_library_fix(_release(version), cuda, by_runtime)
    )


_RELEASE_HINT = "the installed release (pip show bitsandbytes torch, or --python/--path)"
# a log that names torch's release but not its build (`torch==2.1.0`: PyPI's, or an index's)
_BUILD_HINT = "torch's CUDA build (torch.version.cuda, collect_env, or --python/--path)"


def _lacks_library(release: Version, cuda: Version) -> bool:
    from compat.kb import nativelibs

    return nativelibs.loads(release, cuda) is False


def _lacks_major(release: Version, cuda: Version) -> bool:
    from compat.kb import nativelibs

    return nativelibs.lacks_major(release, cuda) is True


def _library_depends_on_build(package: PackageFact, needs: str, by_runtime: bool) -> Verdict:
    """torch's CUDA build is unsettled (which release a resolve installs): a pinned bitsandbytes
    that lacks a library for some CUDA build PyTorch publishes is a question worth asking."""

    from compat.kb.torchbuilds import published_cudas

    if not package.exact:
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", needs),))
    release = _release(package.versions[0])
    judge = _lacks_major if by_runtime else _lacks_library
    missing = [c for c in published_cudas() if judge(release, c)]
    if not missing:
        return FALSE
    shown = ", ".join(str(c) for c in missing[:6]) + (" ..." if len(missing) > 6 else "")
    text = (
        f"bitsandbytes {package.versions[0]} has no library for torch's CUDA {shown} builds; "
        "which one a resolve installs is not settled"
    )
    matched = MatchedPackage(package.name, str(package.versions[0]), package.origin)
    unknown = (Unknown("build.torch_cuda", needs),)
    return Verdict(Tri.UNKNOWN, (text,), unknown, (matched,), anchored=True)


def _release(version: Version) -> Version:
    from packaging.version import Version

    return Version(version.public)


def _library_fix(version: Version, cuda: Version, by_runtime: bool) -> Fix:
    from packaging.version import Version

    from compat.kb import nativelibs

    found = nativelibs.first_loading(cuda, version)
    if found is None:
        return Fix(
            f"no bitsandbytes release ships a library for CUDA {cuda}: install a torch build "
            "for a CUDA version bitsandbytes ships, or build bitsandbytes from source"
        )
    target, all_later = found
    pin = f"bitsandbytes>={target}" if all_later and target > version else f"bitsandbytes=={target}"
    first = "the first release" if target > version else "the newest earlier release"
    summary = (
        f"install bitsandbytes {target}, {first} with a library it loads for torch's CUDA "
        f"{cuda} build"
    )
    if by_runtime:  # 0.31.8-0.40.0.post4 read no override: the machine's runtime decides
        majors = sorted({c.major for c in nativelibs.shipped(version) or ()})
        change = (
            "or install a torch build for a CUDA major the release ships "
            f"({', '.join(str(m) for m in majors)}), with that runtime where the release looks "
            "for libcudart.so"
        )
        return Fix(summary, (pin,), change)
    # the override is CUDA_VERSION in 0.40.1's cuda_setup/main.py, BNB_CUDA_VERSION from 0.40.1.post1
    variable = "CUDA_VERSION" if version == Version("0.40.1") else "BNB_CUDA_VERSION"
    return Fix(
        summary,
        (pin,),
        f"or set {variable} to a library the installed release ships (same CUDA major)",
    )


def numpy1_build_beside_numpy2(facts: Facts) -> Verdict:
    """TRUE when a release of a compiled package older than its first NumPy-2 build
    (compat/data/numpy-abi.json) is present and numpy may be 2.x; the rule's `numpy: ">=2"`
    condition decides whether it is."""
    from packaging.version import Version

    from compat.kb.numpyabi import table

    numpy = facts.packages.get(canonicalize_name("numpy"))
    if numpy is None or not numpy.versions:
        if not facts.packages_known:  # a log that does not show numpy: unknown, never clear
            hint = "the installed numpy (pip show numpy, or --python/--path)"
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("packages.numpy", hint),))
        return FALSE
    two = [v for v in numpy.versions if v.major >= 2]
    if not two:
        return FALSE
    old: list[tuple[str, Version, Version]] = []
    ranged: list[str] = []
    for name, entry in table().items():
        fact = facts.packages.get(canonicalize_name(name))
        if fact is None:
            continue
        first = Version(entry["first"])
        below = [v for v in fact.versions if Version(v.public) < first]
        if below and len(below) == len(fact.versions):
            old.append((fact.label, fact.versions[0], first))
        elif below:
            ranged.append(str(fact.name))
    if not old:
        if ranged:
            hint = f"a pin of {ranged[0]} (or a lock file)"
            return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"packages.{ranged[0]}", hint),))
        if not facts.packages_known:  # a log: compiled packages it does not list may be old
            hint = "every compiled package installed (pip list, or --python/--path)"
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("packages", hint),))
        return FALSE
    numpy_text = f"numpy {numpy.versions[0]}" if numpy.exact else (numpy.requirement or "numpy")
    names = ", ".join(
        f"{label} {version} (first NumPy-2 build: {first})" for label, version, first in old
    )
    text = f"{names}: compiled against NumPy 1, beside {numpy_text}"
    matched = tuple(
        MatchedPackage(canonicalize_name(label), str(version), None) for label, version, _ in old
    )
    # A numpy range that also allows 1.x is the rule's `numpy: ">=2"` condition's to judge (a
    # range note offline, the resolver's pick online): the old build itself is certain here.
    constraints = tuple(f"{canonicalize_name(label)}>={first}" for label, _, first in old)
    fix = Fix(
        "install the first releases built against NumPy 2 ("
        + ", ".join(constraints)
        + "), or keep numpy<2",
        constraints,
        'or pin "numpy<2"',
    )
    return Verdict(Tri.TRUE, (text,), (), matched, fix=fix)


def xformers_built_for_other_build(facts: Facts) -> Verdict:
    """TRUE when xFormers' own warning names the installed torch release in a build whose CUDA
    libraries the installed one cannot provide: a CUDA build beside a CPU torch (no
    libtorch_cuda.so to link), or another CUDA major (libcudart.so.MAJOR). FALSE where the
    builds are the same, or the releases differ (xformers-torch-pin-mismatch's case); UNKNOWN
    for another minor of one major (the extension may load), or a torch without a label whose
    PyPI build depends on the platform (compat/data/torch-builds.json). Only a log states the
    build xFormers names: an environment never makes this TRUE."""
    from packaging.version import Version

    built = facts.builds.get("xformers_torch")
    torch = facts.packages.get(canonicalize_name("torch"))
    if built is None or torch is None or not torch.exact:
        return FALSE
    installed = torch.versions[0]
    if Version(built.base_version) != Version(installed.base_version):
        return FALSE  # another release: the pin rule's
    from compat.kb import torchbuilds

    wanted = torchbuilds.local_label_cuda(built.local or "")
    if wanted is None:
        return FALSE  # built for a CPU torch (or an unlabelled build): no CUDA libraries needed
    if installed.local:
        candidates = [torchbuilds.local_label_cuda(installed.local)]
    else:
        platforms = ("linux/x86_64", "linux/aarch64", "win32/AMD64", "darwin/arm64")
        candidates = [torchbuilds.default_cuda(installed, p) for p in platforms]
    verdicts = {_against(wanted, cuda) for cuda in candidates}
    text = f"xFormers built for torch {built}, torch {installed} installed"
    if verdicts == {Tri.TRUE}:
        return Verdict(
            Tri.TRUE, (text,), packages=(MatchedPackage(torch.name, str(installed), torch.origin),)
        )
    if verdicts == {Tri.FALSE}:
        return FALSE
    hint = "the environment (--python/--path): the installed torch build, torch.version.cuda"
    # anchored: the two builds xFormers names are a specific fact of this case, not a range
    return Verdict(Tri.UNKNOWN, (text,), (Unknown("build.torch_cuda", hint),), anchored=True)


def _against(wanted: Version, have: Version | None) -> Tri:
    """A build for CUDA `wanted` beside a torch of CUDA `have` (None: a CPU build)."""
    if have is None or have.major != wanted.major:
        return Tri.TRUE
    return Tri.FALSE if have == wanted else Tri.UNKNOWN


def cudnn_runtime_against_build(facts: Facts, expected: str) -> Verdict:
    """The cuDNN the loader found against the one torch was compiled against, as torch's own
    check prints both (`compiled  against (8, 5, 0) but found runtime version (8, 4, 1)`):
    `older-same-major` when the runtime is an older release of the same major (torch, in every
    wheel read from 1.6.0 to 2.4.0, accepts a newer minor of the same major and refuses an older
    one), `other-major` when the
    majors differ. FALSE where the two are not both stated: an environment never states the
    cuDNN torch was compiled against."""
    from packaging.version import InvalidVersion, Version

    compiled = facts.builds.get("cudnn_torch")
    runtime = facts.builds.get("cudnn_runtime")
    if compiled is None or runtime is None:
        return FALSE
    try:
        built, found = Version(str(compiled)), Version(str(runtime))
    except InvalidVersion:
        return FALSE
    if built.major != found.major:
        kind = "other-major"
    elif found < built:
        kind = "older-same-major"
    else:
        return FALSE
    if kind != expected:
        return FALSE
    text = f"torch was compiled against cuDNN {built}, the loader found cuDNN {found}"
    return Verdict(Tri.TRUE, (text,))


def loader_cuda_major_against_torch(facts: Facts) -> Verdict:
    """TRUE when the loader could not open a CUDA library of another major than torch's CUDA
    build (build.missing_cuda, a log's `libcudart.so.12: cannot open shared object file`,
    beside torch +cu118): what needs it was built for that CUDA, and torch's wheels bring only
    their own major's libraries. FALSE for the same major (the library is missing, not another
    build's) and where no such message was read; UNKNOWN while torch's CUDA build is not
    shown."""
    missing = facts.builds.get("missing_cuda")
    if missing is None:
        return FALSE
    torch = facts.packages.get(canonicalize_name("torch"))
    if torch is None:
        if facts.packages_known:
            return FALSE
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("packages.torch", _LOADER_HINT),))
    cuda = _torch_cuda(facts, torch.versions)
    if cuda is None:
        if any(v.local == "cpu" for v in torch.versions):
            text = f"a CUDA {missing.major} library is needed beside a CPU build of torch"
            return Verdict(Tri.TRUE, (text,))
        return Verdict(Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", _LOADER_HINT),))
    if cuda.major == missing.major:
        return FALSE
    text = f"a CUDA {missing.major} library is needed, torch is a CUDA {cuda} build"
    return Verdict(Tri.TRUE, (text,))


_LOADER_HINT = "torch's CUDA build (torch.version.cuda, or the +cuXYZ of its version)"


def stated_requirement_unmet(facts: Facts) -> Verdict:
    """A requirement a release's own check printed (transformers' "requires
    `accelerate>=0.26.0`", "accelerate>=0.26.0 is required for a normal functioning of this
    module, but found accelerate==0.25.0"), judged against the version the log shows of that
    package: TRUE outside it, FALSE inside it (the message is another environment's), UNKNOWN
    when the log shows none (the version is asked). FALSE where no check printed one."""
    from compat.kb.conditions import version_in

    if not facts.requirements:
        return FALSE
    unknown = []
    for name, spec in sorted(facts.requirements.items()):
        fact = facts.packages.get(canonicalize_name(name))
        if fact is None and facts.packages_known:
            return Verdict(Tri.TRUE, (f"{name} is not installed; the check requires {name}{spec}",))
        if fact is None or not fact.versions:
            hint = f"{name}'s version (pip show {name}): the check requires {name}{spec}"
            unknown.append(Unknown(f"packages.{name}", hint))
            continue
        version = fact.versions[0]
        if not version_in(version, spec):
            text = f"{name} {version} is outside {spec}, which the release's own check requires"
            return Verdict(Tri.TRUE, (text,))
    if unknown:
        return Verdict(Tri.UNKNOWN, unknown=tuple(unknown))
    return FALSE


# The NCCL wheels of each CUDA major: each installs nvidia/nccl/lib/libnccl.so.2.
NCCL_WHEELS = ("nvidia-nccl-cu11", "nvidia-nccl-cu12", "nvidia-nccl-cu13")


def nccl_wheels_of_two_majors(facts: Facts) -> Verdict:
    """TRUE when NCCL wheels of two CUDA majors are installed (a log's pip list or collect_env
    `[pip3]`/`[conda]` lines, or an environment): they write the same libnccl.so.2."""
    present = [n for n in NCCL_WHEELS if canonicalize_name(n) in facts.packages]
    if len(present) >= 2:
        return Verdict(Tri.TRUE, (f"{' and '.join(present)} are both installed",))
    return FALSE
