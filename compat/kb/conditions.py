"""Compiled rule conditions and their three-valued evaluation.

A rule's `when:` block compiles into a tree of `Condition`s. Evaluating one against `Facts` gives
a `Verdict`: TRUE, FALSE or UNKNOWN (the fact is missing: no GPU probe, no DeepSpeed config), plus
what held ("deepspeed 0.14.2 is in >=0.14.1,<0.14.3") and what was unknown with the flag that
would settle it. An unknown is never silently false: that is what makes `possible` findings.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from packaging.version import InvalidVersion, Version

from compat.model import (
    Condition,
    Facts,
    Fix,
    Gpu,
    Hardware,
    MatchedPackage,
    PackageFact,
    Tri,
    Unknown,
    UsageValue,
    Verdict,
)
from compat.specifiers import contains, specifier_set
from compat.usage import settled_away, trigger_in_use
from compat.versions import parse_requirement, parse_version

if TYPE_CHECKING:
    from packaging.utils import NormalizedName


FALSE = Verdict(Tri.FALSE)

HARDWARE_HINT = "--hardware FILE (a saved profile), or run where the GPUs are without --no-probe"


def version_in(version: Version, spec: str) -> bool:
    # Pre-releases and local builds of a version inside a bad range are just as bad.
    return contains(spec, version)


def any_version(spec: str) -> bool:
    """Whether every version satisfies `spec` ("", ">=0", ">0.0"): presence is all it asks."""
    if not spec:
        return True
    for clause in specifier_set(spec):
        if clause.operator not in (">=", ">"):
            return False
        try:
            if Version(clause.version) > Version("0"):
                return False
        except InvalidVersion:
            return False
    return True


class AnchorCondition(Condition):
    """A condition about the environment or the machine (not a usage fact): when a *specific* one
    holds, a rule with unknown usage facts is worth a `possible` finding."""

    __slots__ = ()

    def evaluate(self, facts: Facts) -> Verdict:
        verdict = self.check(facts)
        if verdict.held and self.specific():
            if self.holds(verdict):
                return verdict._replace(anchored=True)
            return verdict._replace(partial=True)
        return verdict

    @staticmethod
    def holds(verdict: Verdict) -> bool:
        """A range that merely *allows* a bad version is not a fact that holds; a version in the
        window whose git commit was not recorded is (only the commit is open)."""
        return verdict.value is Tri.TRUE or all(u.fact.endswith(".commit") for u in verdict.unknown)

    def specific(self) -> bool:
        """Whether holding says something about this scenario (`accelerate>=0` says nothing)."""
        return True

    def check(self, facts: Facts) -> Verdict:
        raise NotImplementedError


class All(Condition):
    parts: tuple[Condition, ...]
    __slots__ = ("parts",)

    def __init__(self, parts: tuple[Condition, ...]) -> None:
        self._set(parts=parts)

    def evaluate(self, facts: Facts) -> Verdict:
        return combine_all(part.evaluate(facts) for part in self.parts)

    def package_names(self) -> tuple[NormalizedName, ...]:
        return tuple(name for part in self.parts for name in part.package_names())


class AnyOf(Condition):
    parts: tuple[Condition, ...]
    __slots__ = ("parts",)

    def __init__(self, parts: tuple[Condition, ...]) -> None:
        self._set(parts=parts)

    def evaluate(self, facts: Facts) -> Verdict:
        verdicts = [part.evaluate(facts) for part in self.parts]
        true = [v for v in verdicts if v.value is Tri.TRUE]
        if true:
            return true[0]
        open_ = [v for v in verdicts if v.value is Tri.UNKNOWN]
        if not open_:
            return FALSE
        return Verdict(
            Tri.UNKNOWN,
            # The strongest open alternative's: alternatives are routes to the rule (xformers
            # 0.0.23 pinning 2.1.1, 0.0.24 pinning 2.2.0), not facts that add up, so listing
            # every route's "torch is not 2.1.1" made a rule that knows nothing outrank one
            # whose one condition held.
            _strongest(v.held for v in open_),
            # The questions of the routes the facts already point along: where some route has a
            # condition that says something held (the driver's CUDA 11.6 is below 12.0), the
            # routes with none (the driver's version, unknown) ask what the log has answered.
            tuple(u for v in _leading(open_) for u in v.unknown),
            tuple(p for v in open_ for p in v.packages),
            any(v.anchored for v in open_),
            all(v.waiting for v in open_),
            any(v.told for v in open_),
            any(v.partial for v in open_),
        )


class SettledAnyOf(AnyOf):
    """A rule's `any:` under `settled_by: {build: KEY}`: where the build fact is known, only
    the alternatives that test it decide (the others infer the same build from versions the log
    may not show, and would keep a question open that the fact has answered)."""

    key: str
    __slots__ = ("key",)

    def __init__(self, parts: tuple[Condition, ...], key: str) -> None:
        self._set(parts=parts, key=key)

    def evaluate(self, facts: Facts) -> Verdict:
        if facts.builds.get(self.key) is None:
            return super().evaluate(facts)
        deciding = tuple(
            part
            for part in self.parts
            if any(
                isinstance(leaf, BuildCondition) and leaf.key == self.key for leaf in leaves(part)
            )
        )
        return AnyOf(deciding).evaluate(facts) if deciding else FALSE


def _leading(open_: Sequence[Verdict]) -> list[Verdict]:
    """The open alternatives with the most informative held conditions, when any has one;
    else all of them (no route is ahead: each one's questions stand)."""
    best = max(informative(v.held) for v in open_)
    return [v for v in open_ if informative(v.held) == best] if best else list(open_)


def _strongest(helds: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """The held conditions of the alternative with the most that say something (an exclusion
    such as `!=2.1.*` holds for nearly every version), the first such on a tie."""
    return max(helds, key=lambda held: (informative(held), len(held)))


def informative(held: Iterable[str]) -> int:
    """How many held conditions narrow the facts: not a bare exclusion (`X is in !=2.1.*`)."""
    return sum(1 for h in held if not _exclusion(h))


def _exclusion(held: str) -> bool:
    _, found, spec = held.rpartition(" is in ")
    return bool(found) and all(c.strip().startswith("!=") for c in spec.split(","))


def leaves(condition: Condition) -> Iterator[Condition]:
    """The conditions a compiled `when:` tree is made of (`all` and `any` opened): how code
    outside compat.kb reads a rule's conditions, never through its raw `when:` mapping."""
    if isinstance(condition, All | AnyOf):
        for part in condition.parts:
            yield from leaves(part)
    else:
        yield condition


def combine_all(verdicts: Iterable[Verdict]) -> Verdict:
    held: list[str] = []
    unknown: list[Unknown] = []
    packages: list[MatchedPackage] = []
    value = Tri.TRUE
    anchored = waiting = told = partial = False
    fix: Fix | None = None
    for verdict in verdicts:
        if verdict.value is Tri.FALSE:
            return FALSE
        if verdict.value is Tri.UNKNOWN:
            value = Tri.UNKNOWN
        held.extend(verdict.held)
        unknown.extend(verdict.unknown)
        packages.extend(verdict.packages)
        anchored = anchored or verdict.anchored
        waiting = waiting or verdict.waiting
        told = told or verdict.told
        partial = partial or verdict.partial
        fix = fix or verdict.fix
    return Verdict(
        value, tuple(held), tuple(unknown), tuple(packages), anchored, waiting, told, partial, fix
    )


# ---------------------------------------------------------------------------------------------
# Packages


class PackageVersion(AnchorCondition):
    """`deepspeed: ">=0.14.1,<0.14.3"`, optionally restricted to git commits."""

    name: NormalizedName
    spec: str  # "" = any version
    commits: tuple[str, ...]  # installed-from-git commit prefixes
    __slots__ = ("commits", "name", "spec")

    def __init__(self, name: NormalizedName, spec: str, commits: tuple[str, ...] = ()) -> None:
        self._set(name=name, spec=spec, commits=commits)

    def package_names(self) -> tuple[NormalizedName, ...]:
        return (self.name,)

    def specific(self) -> bool:
        return bool(self.commits) or not any_version(self.spec)

    def check(self, facts: Facts) -> Verdict:
        fact = facts.packages.get(self.name)
        if fact is None:
            if facts.packages_known:
                return FALSE
            return Verdict(
                Tri.UNKNOWN,
                unknown=(Unknown(f"packages.{self.name}", "an environment or requirement file"),),
            )
        if not fact.versions:
            return self._present(fact)
        matching = [v for v in fact.versions if not self.spec or version_in(v, self.spec)]
        if not matching:
            return FALSE
        commit_unknown = False
        if self.commits:
            # Only a git install inside the window matches. A source install whose commit was not
            # recorded (no PEP 610 vcs_info) cannot be told apart: unknown, not clear.
            commit = (fact.commit or "").lower()
            if not commit:
                commit_unknown = True
            elif not any(commit.startswith(c) for c in self.commits):
                return FALSE
        where = f" ({fact.origin})" if fact.origin else ""
        shown = (
            ", ".join(str(v) for v in matching)
            if len(matching) <= 4
            else f"{len(matching)} versions, {matching[0]} to {matching[-1]}"
        )
        wanted = self.spec or "any version"
        commit_note = f" at commit {fact.commit[:10]}" if self.commits and fact.commit else ""
        matched = MatchedPackage(
            self.name,
            str(fact.versions[0]) if fact.exact else _range_of(fact.requirement, shown),
            fact.origin,
        )
        if commit_unknown:
            text = (
                f"{fact.label} {shown} is in {wanted}{where}, installed without a recorded commit"
            )
            needs = (
                f"the commit of the {fact.label} checkout: reinstall with `pip install git+URL@COMMIT` "
                "so pip records it (direct_url.json)"
            )
            return Verdict(
                Tri.UNKNOWN, (text,), (Unknown(f"packages.{self.name}.commit", needs),), (matched,)
            )
        if len(matching) == len(fact.versions):
            if fact.exact and any_version(self.spec):
                text = f"{fact.label} {shown}{commit_note} is present{where}"
            elif fact.exact:
                text = f"{fact.label} {shown}{commit_note} is in {wanted}{where}"
            elif any_version(self.spec):
                text = f"{fact.requirement or fact.label} is required{where}"
            else:
                # "peft 5 versions is in >=0.14.0" said nothing: name the range and its span.
                requirement = fact.requirement or fact.label
                text = f"every version {requirement} allows ({shown}) is in {wanted}{where}"
            return Verdict(Tri.TRUE, (text,), (), (matched,))
        requirement = fact.requirement or f"{fact.label} (ranged)"
        hint = f"a pin: {fact.label} outside {wanted} (or a lock file)"
        if fact.commit and not fact.exact:
            # A git commit the knowledge base ties to no release: pinned, its version unknown.
            requirement = f"{fact.label} at git commit {fact.commit[:10]} (its release unknown)"
            hint = (
                f"the {fact.label} release that commit belongs to: a pin or a lock file "
                f"holding {fact.label}'s version"
            )
        elif _range_of(fact.requirement, "") == "*":
            requirement = f"{fact.label} (unpinned)"
        text = f"{requirement} allows {shown}, inside {wanted}{where}"
        return Verdict(
            Tri.UNKNOWN,
            (text,),
            (Unknown(f"packages.{self.name}", hint),),
            (matched,),
        )

    def _present(self, fact: PackageFact) -> Verdict:
        """A package known to be installed whose version is not known (a log message that only
        it prints): presence is settled, any narrower range is not."""
        where = f" ({fact.origin})" if fact.origin else ""
        if any_version(self.spec) and not self.commits:
            text = f"{fact.label} is present{where}, its version not shown"
            return Verdict(
                Tri.TRUE, (text,), (), (MatchedPackage(self.name, "present", fact.origin),)
            )
        needs = f"its version (the log shows {fact.label} ran, not which version)"
        return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"packages.{self.name}", needs),))


def _range_of(requirement: str | None, shown: str) -> str:
    """The version part of a ranged requirement (`peft>=0.14` -> `>=0.14`; bare `peft` -> `*`),
    not the requirement text: JSON readers expect a version or range under "version"."""
    if not requirement:
        return shown
    from packaging.requirements import InvalidRequirement

    try:
        return str(parse_requirement(requirement.split(";")[0].strip()).specifier) or "*"
    except InvalidRequirement:
        return shown


# ---------------------------------------------------------------------------------------------
# Python and platform


class PythonVersion(AnchorCondition):
    spec: str
    __slots__ = ("spec",)

    def __init__(self, spec: str) -> None:
        self._set(spec=spec)

    def check(self, facts: Facts) -> Verdict:
        if facts.python_version is None:
            return Verdict(
                Tri.UNKNOWN,
                unknown=(
                    Unknown("python", "--python PATH (doctor) or --python-version X.Y (check)"),
                ),
            )
        if version_in(facts.python_version, self.spec):
            return Verdict(Tri.TRUE, (f"Python {facts.python_version} is in {self.spec}",))
        return FALSE


class PlatformMarker(AnchorCondition):
    marker: str
    __slots__ = ("marker",)

    def __init__(self, marker: str) -> None:
        self._set(marker=marker)

    def check(self, facts: Facts) -> Verdict:
        if facts.markers is None:
            return Verdict(
                Tri.UNKNOWN,
                unknown=(Unknown("platform", "--python PATH (doctor) or --platform (check)"),),
            )
        from packaging.markers import Marker

        # Marker.evaluate merges into the *host's* environment: pass a complete one.
        if Marker(self.marker).evaluate(dict(facts.markers)):
            return Verdict(Tri.TRUE, (f"platform: {self.marker}",))
        return FALSE


# ---------------------------------------------------------------------------------------------
# Comparisons shared by hardware, build and usage conditions

_NUMERIC = re.compile(r"^\s*(==|!=|<=|>=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$")
_OPS: Mapping[str, Callable[[float, float], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}


def parse_numeric(text: str) -> tuple[tuple[str, float], ...] | None:
    """`">=2"` or `">0,<=1"` -> ((">=", 2.0),); None when it is not a numeric comparison."""
    clauses = []
    for part in text.split(","):
        match = _NUMERIC.match(part)
        if not match:
            return None
        clauses.append((match.group(1), float(match.group(2))))
    return tuple(clauses)


def numeric_holds(value: float, clauses: Sequence[tuple[str, float]]) -> bool:
    return all(_OPS[op](value, bound) for op, bound in clauses)


def as_version(value: object) -> Version | None:
    try:
        return parse_version(str(value))
    except InvalidVersion:
        return None


# ---------------------------------------------------------------------------------------------
# Hardware and builds


class HardwareCondition(AnchorCondition):
    """`hardware: {gpu_count: ">=2", compute_capability: "<8.0", driver: "<580", ...}`."""

    key: str
    expected: object
    __slots__ = ("expected", "key")

    def __init__(self, key: str, expected: object) -> None:
        self._set(key=key, expected=expected)

    def check(self, facts: Facts) -> Verdict:
        hw = facts.hardware
        if hw is None:
            return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"hardware.{self.key}", HARDWARE_HINT),))
        if self.key == "gpu_count":
            count = len(hw.gpus)
            clauses = parse_numeric(str(self.expected)) or (("==", float(str(self.expected))),)
            ok = numeric_holds(count, clauses)
            if hw.partial:  # GPUs a message named: at least that many, the count unknown
                if ok and all(op in (">=", ">") for op, _ in clauses):
                    return Verdict(Tri.TRUE, (f"at least {count} GPU(s) seen ({self.expected})",))
                return Verdict(Tri.UNKNOWN, unknown=(Unknown("hardware.gpu_count", HARDWARE_HINT),))
            return (
                Verdict(Tri.TRUE, (f"{count} GPU(s) visible ({self.expected})",)) if ok else FALSE
            )
        if self.key in ("driver", "cuda_driver"):
            # The driver a CUDA process runs on: a cuda-compat libcuda's where forward
            # compatibility is in effect (Hardware.process_*; compat.probes.libcuda), so every
            # driver-floor rule judges the CUDA version the process gets.
            found = hw.process_driver_version if self.key == "driver" else hw.process_cuda_version
            if found is None:
                if not hw.gpus and not hw.problems:
                    return FALSE  # no driver on a machine with no GPU: nothing to be too old
                if hw.gpus and all(g.is_amd for g in hw.gpus):
                    return FALSE  # AMD GPUs only: no NVIDIA driver to be too old
                return Verdict(
                    Tri.UNKNOWN, unknown=(Unknown(f"hardware.{self.key}", HARDWARE_HINT),)
                )
            if version_in(found, str(self.expected)):
                # As the driver spells it (535.104.05), not as Version prints it (535.104.5).
                compat_lib = hw.forward_compatible and hw.user_driver is not None
                if self.key == "driver" and compat_lib:
                    text = (
                        f"cuda-compat driver {found} (forward compatibility) is in {self.expected}"
                    )
                elif self.key == "driver":
                    text = f"driver {hw.driver_label or found} is in {self.expected}"
                elif compat_lib:
                    text = (
                        f"CUDA version {found} of the cuda-compat driver (forward compatibility) "
                        f"is in {self.expected}"
                    )
                else:
                    text = f"driver's CUDA version {found} is in {self.expected}"
                if not compat_lib and hw.user_driver is not None and hw.user_driver.note:
                    text += f" ({hw.user_driver.note})"
                return Verdict(Tri.TRUE, (text,))
            return FALSE
        if self.key in ("rocm", "amdgpu_driver"):
            return self._amd_version(hw)
        if self.key == "nvml_error":
            code = hw.extra.get("nvml_error")
            if code is not None and str(code) == str(self.expected):
                return Verdict(Tri.TRUE, (f"NVML reports {code}",))
            return FALSE
        if self.key == "gfx_target" and hw.gfx_override:
            from compat.binary.gfxtarget import override_target

            # the runtime reports (and loads code for) the override's target on every GPU
            target = override_target(hw.gfx_override)
            gpus = tuple(
                dataclasses.replace(g, gfx_target=target) if g.is_amd else g for g in hw.gpus
            )
            return self._any_gpu(gpus, hw.partial)
        return self._any_gpu(hw.gpus, hw.partial)

    def _amd_version(self, hw: Hardware) -> Verdict:
        """`rocm` / `amdgpu_driver`: the ROCm user space or amdgpu driver, compared as numbers
        (`6.4.1-103` reads 6.4.1; ROCm 10.0 is above 7.14)."""
        text = hw.rocm_version if self.key == "rocm" else hw.amdgpu_driver_version
        found = None
        if text:
            match = re.match(r"\d+(?:\.\d+)*", text)
            found = parse_version(match.group(0)) if match else None
        if found is None:
            if not any(g.is_amd for g in hw.gpus) and not hw.partial:
                return FALSE  # no AMD GPU: no ROCm to be wrong
            return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"hardware.{self.key}", HARDWARE_HINT),))
        if version_in(found, str(self.expected)):
            what = "ROCm" if self.key == "rocm" else "amdgpu driver"
            return Verdict(Tri.TRUE, (f"{what} {text} is in {self.expected}",))
        return FALSE

    def _any_gpu(self, gpus: Sequence[Gpu], partial: bool = False) -> Verdict:
        if not gpus and not partial:
            return FALSE
        unknown = False
        for gpu in gpus:
            result = self._gpu_matches(gpu)
            if result is None:
                unknown = True
            elif result:
                return Verdict(Tri.TRUE, (f"GPU {gpu.index} {gpu.name}: {self._describe(gpu)}",))
        if unknown:
            return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"hardware.{self.key}", HARDWARE_HINT),))
        if partial:
            # GPUs the log does not name may match; those it names are settled and not asked
            # about again: the open question is the machine's GPU list
            named = ", ".join(f"GPU {g.index} {g.name}" for g in gpus)
            needs = "the machine's GPU list (nvidia-smi, or " + HARDWARE_HINT + ")"
            if named:
                needs += f": the log names only {named}"
            return Verdict(Tri.UNKNOWN, unknown=(Unknown("hardware.gpus", needs),))
        return FALSE

    def _gpu_matches(self, gpu: Gpu) -> bool | None:
        if gpu.is_amd and self.key in ("compute_capability", "mig"):
            return False  # a CUDA compute capability or MIG: no AMD GPU has one
        if self.key == "compute_capability":
            cc = gpu.compute_capability
            return None if cc is None else version_in(cc, str(self.expected))
        if self.key == "gpu_name":
            return re.search(str(self.expected), gpu.name, re.IGNORECASE) is not None
        if self.key == "gfx_target":
            if not gpu.is_amd:
                return False
            if gpu.gfx_target is None:
                return None
            return re.fullmatch(str(self.expected), gpu.gfx_target) is not None
        if self.key == "mig":
            return None if gpu.mig is None else gpu.mig is bool(self.expected)
        if self.key == "memory_mib":
            if gpu.memory_total_mib is None:
                return None
            clauses = parse_numeric(str(self.expected))
            return clauses is not None and numeric_holds(gpu.memory_total_mib, clauses)
        raise AssertionError(f"unvalidated hardware key {self.key}")  # pragma: no cover

    def _describe(self, gpu: Gpu) -> str:
        if self.key == "gfx_target":
            return f"target {gpu.gfx_target} matches {self.expected!r}"
        if self.key == "compute_capability":
            return f"compute capability {gpu.compute_capability} is in {self.expected}"
        if self.key == "memory_mib":
            return f"{gpu.memory_total_mib} MiB ({self.expected})"
        if self.key == "mig":
            return f"MIG {'enabled' if gpu.mig else 'disabled'}"
        return f"name matches {self.expected!r}"


class BuildCondition(AnchorCondition):
    """`build: {torch_cuda: ">=13.0"}`: the CUDA build of installed wheels, read from metadata."""

    key: str
    spec: str
    __slots__ = ("key", "spec")

    def __init__(self, key: str, spec: str) -> None:
        self._set(key=key, spec=spec)

    def check(self, facts: Facts) -> Verdict:
        found = facts.builds.get(self.key)
        if found is None and self.key in facts.unknown_builds:
            candidates = facts.build_candidates.get(self.key)
            if candidates is not None and not any(
                c is not None and version_in(c, self.spec) for c in candidates
            ):
                return FALSE  # no build the target can install meets it
            return Verdict(
                Tri.UNKNOWN, unknown=(Unknown(f"build.{self.key}", facts.unknown_builds[self.key]),)
            )
        if found is None:
            if facts.packages_known:
                return (
                    FALSE  # e.g. torch absent, or a CPU build: it has no CUDA version to be wrong
                )
            return Verdict(Tri.UNKNOWN, unknown=(Unknown(f"build.{self.key}", "an environment"),))
        if version_in(found, self.spec):
            owner = build_owner(facts, self.key)
            return Verdict(Tri.TRUE, (f"{self.key} {found} is in {self.spec}",), packages=owner)
        return FALSE


# The distribution whose build each build fact describes, first present wins: a finding about a
# CUDA build names it (and its line), as a finding about a version does. nvcc is the system
# toolkit: no distribution.
BUILD_OWNERS: Mapping[str, tuple[str, ...]] = {
    "torch_cuda": ("torch",),
    "cuda_runtime": (
        "nvidia-cuda-runtime-cu13", "nvidia-cuda-runtime", "nvidia-cuda-runtime-cu12",
        "nvidia-cuda-runtime-cu11", "cuda-toolkit",
    ),
    "cudnn": ("nvidia-cudnn-cu13", "nvidia-cudnn", "nvidia-cudnn-cu12", "nvidia-cudnn-cu11"),
    "nccl": ("nvidia-nccl-cu13", "nvidia-nccl", "nvidia-nccl-cu12", "nvidia-nccl-cu11"),
    "flash_attn_torch": ("flash-attn",),
    "flash_attn_cxx11abi": ("flash-attn",),
    "flash_attn_link_error": ("flash-attn",),
    "deepspeed_ops_torch": ("deepspeed",),
    "deepspeed_ops_cuda": ("deepspeed",),
}  # fmt: skip


def build_owner(facts: Facts, key: str) -> tuple[MatchedPackage, ...]:
    """The installed or pinned distribution a build fact belongs to (an exact one: a range's
    line is named by check, which knows how to spell the range)."""
    from compat.names import canonicalize_name

    for name in BUILD_OWNERS.get(key, ()):
        fact = facts.packages.get(canonicalize_name(name))
        if fact is not None:
            if not fact.exact:
                return ()
            return (MatchedPackage(fact.name, str(fact.versions[0]), fact.origin),)
    return ()


# ---------------------------------------------------------------------------------------------
# Usage facts


class UsageCondition(Condition):
    """`usage: {zero_stage: 3, offload_optimizer: [cpu, nvme], gradient_clipping: ">0"}`."""

    key: str
    expected: object  # a scalar, a list of alternatives, or a numeric comparison string
    settled_by: str
    trigger: bool  # unknown = the rule stays silent
    __slots__ = ("expected", "key", "settled_by", "trigger")
    _compared = ("key", "expected")

    def __init__(
        self, key: str, expected: object, settled_by: str = "", trigger: bool = False
    ) -> None:
        self._set(key=key, expected=expected, settled_by=settled_by, trigger=trigger)

    def evaluate(self, facts: Facts) -> Verdict:
        fact = facts.usage.get(self.key)
        if fact is None:
            if settled_away(self.key, facts.usage) is not None:
                return FALSE  # e.g. zero_stage when distributed=fsdp: no ZeRO stage at all
            return Verdict(
                Tri.UNKNOWN,
                unknown=(
                    Unknown(f"usage.{self.key}", self.settled_by or f"--set {self.key}=VALUE"),
                ),
                waiting=self.trigger and not trigger_in_use(self.key, facts.usage),
            )
        if not usage_matches(fact.value, self.expected):
            return FALSE
        note = f"; {fact.note}" if fact.note else ""
        text = f"{self.key} = {_show(fact.value)} ({fact.origin}{note})"
        # A known opt-in feature (8-bit loading) makes the scenario as specific as a package pin.
        return Verdict(Tri.TRUE, (text,), anchored=self.trigger, told=True)


def usage_matches(value: UsageValue, expected: object) -> bool:
    if isinstance(expected, list | tuple):
        return any(usage_matches(value, alternative) for alternative in expected)
    if isinstance(expected, str) and not isinstance(value, bool) and isinstance(value, int | float):
        clauses = parse_numeric(expected)
        if clauses is not None:
            return numeric_holds(float(value), clauses)
    if isinstance(expected, bool) or isinstance(value, bool):
        return isinstance(expected, bool) and isinstance(value, bool) and value is expected
    if isinstance(expected, int | float) and isinstance(value, int | float):
        return float(value) == float(expected)
    return str(value).lower() == str(expected).lower()


def _show(value: UsageValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
