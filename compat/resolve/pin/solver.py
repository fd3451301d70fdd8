"""Choosing versions that avoid every known-bad combination, jointly: the data pin works with.

The pins, the plan and the user's intent live here, with the helpers that put versions into
facts; the problem itself is stated and solved exactly in `compat.resolve.pin.maxsat` (weighted MaxSAT,
`plan_pins`),
and `compat.resolve.pin.unsatcore` says why a finding could not be escaped.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.kb.conditions import All, AnyOf, BuildCondition, PackageVersion
from compat.kb.derived import ABOUT_BUILD as DERIVED_ABOUT_BUILD
from compat.kb.derived import DerivedCondition
from compat.kb.knowledge import KnowledgeBase
from compat.kb.questions import BUILD_PACKAGES, rule_packages
from compat.model import Condition, Facts, Finding, PackageFact, Rule, Status
from compat.versions import release_key


class CandidateSource(Protocol):
    """Where candidate versions and their dependency metadata come from (index, cache, offline)."""

    def versions(self, name: NormalizedName) -> list[Version]:
        """Installable versions, oldest first: no yanked ones, none excluded by Requires-Python."""
        ...

    def requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        """Requires-Dist of that release, or None when it cannot be known (offline, no metadata)."""
        ...


@dataclass(frozen=True)
class Pin:
    name: NormalizedName
    version: Version
    installed: Version | None  # where the search started: installed, the user's pin, or resolved
    reasons: tuple[str, ...]  # rule ids that guard or moved this package
    moved_by: tuple[str, ...] = ()  # rule ids this pin escapes (non-empty: a chosen version)
    display_name: str = ""
    start: str = "installed"  # "installed", "pinned" (the user's ==), "resolved", "assumed"
    companion: str = (
        ""  # why it moves with another pin ("vllm 0.7.2 requires transformers>=4.48.2")
    )
    floor: str = ""  # "trl>=0.14.0 (GRPOTrainer)" when a capability bounded the search
    # A hardware rule speaks of it and the hardware is known: an unpinned requirement is pinned
    # (a build the driver runs), never left to the resolver, even when the proof is skipped.
    hardware_guarded: bool = False
    # No release list holds `version` (offline, a package the snapshot does not cover: the
    # version is a stand-in the knowledge base names for a class of releases): the range of
    # releases the rules treat like it, written instead of `==` (`numpy<2`).
    listed: bool = True  # False: `version` is such a stand-in
    range: str = ""

    @property
    def changed(self) -> bool:
        if self.installed is None or release_key(self.version) != release_key(self.installed):
            return True
        # Another CUDA build of the same torch release is another wheel.
        return bool(self.version.local) and self.version.local != self.installed.local

    @property
    def build_change(self) -> bool:
        return (
            self.installed is not None
            and release_key(self.version) == release_key(self.installed)
            and self.changed
        )

    @property
    def action(self) -> str:
        """What the line does, in one word: upgrade, downgrade, rebuild (the same release's ROCm
        build), kept or resolved."""
        if self.installed is not None and self.build_change:
            from compat.kb.torchbuilds import build_cuda
            from compat.kb.torchrocm import label

            if label(self.version) is not None:
                return "rebuild"  # to a ROCm build: neither up nor down the CUDA builds
            new, old = build_cuda(self.version), build_cuda(self.installed)
            return "downgrade" if new is None or (old is not None and new < old) else "upgrade"
        if self.installed is not None and self.changed:
            return "upgrade" if self.version > self.installed else "downgrade"
        if self.installed is None or self.start == "resolved":
            return "resolved"
        return "kept"

    @property
    def moves_user_pin(self) -> bool:
        return self.start == "pinned" and self.changed


@dataclass(frozen=True)
class Unresolved:
    rule: Rule
    status: Status
    why: str


@dataclass(frozen=True)
class PinPlan:
    pins: tuple[Pin, ...]
    unresolved: tuple[Unresolved, ...]
    remaining: tuple[Finding, ...] = ()  # findings of the chosen set, for the report
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Intent:
    """What the user said: exact pins to keep, and the lowest release each stated usage needs."""

    kept: frozenset[NormalizedName] = frozenset()  # `==` in -r files, --keep
    floors: Mapping[NormalizedName, tuple[Version, str]] = field(default_factory=dict)
    start: Mapping[NormalizedName, str] = field(default_factory=dict)  # name -> Pin.start


def guarded_names(kb: KnowledgeBase, installed: Iterable[str]) -> dict[NormalizedName, list[str]]:
    """Installed packages that some rule speaks of, with the ids of those rules."""
    present = set(installed)
    guarded: dict[NormalizedName, list[str]] = {}
    for plain in kb.plain:
        for name in rule_packages(plain):
            if name in present:
                guarded.setdefault(NormalizedName(name), []).append(plain["id"])
    return guarded


def _mentions_toolkit(condition: Condition) -> bool:
    if isinstance(condition, BuildCondition):
        return condition.key == "nvcc"
    if isinstance(condition, All | AnyOf):
        return any(_mentions_toolkit(part) for part in condition.parts)
    return False


def _mentions_build(condition: Condition) -> bool:
    if isinstance(condition, BuildCondition):
        return condition.key in BUILD_PACKAGES
    if isinstance(condition, DerivedCondition):
        return condition.key in DERIVED_ABOUT_BUILD
    if isinstance(condition, All | AnyOf):
        return any(_mentions_build(part) for part in condition.parts)
    return False


def _condition_packages(condition: Condition) -> set[NormalizedName]:
    """The packages a compiled condition speaks of, torch for its CUDA build conditions."""
    if isinstance(condition, PackageVersion):
        return {condition.name}
    if isinstance(condition, BuildCondition):
        owner = BUILD_PACKAGES.get(condition.key)
        return {NormalizedName(owner)} if owner else set()
    if isinstance(condition, DerivedCondition):
        return set(condition.package_names())
    if isinstance(condition, All | AnyOf):
        return set().union(*(_condition_packages(part) for part in condition.parts))
    return set()


def _with_versions(
    facts: Facts,
    assignment: Mapping[NormalizedName, Version],
    torch_requires: Callable[[Version], Sequence[str] | None] | None = None,
) -> Facts:
    """The facts with these versions. `torch_requires` reads a torch release's Requires-Dist,
    whose CUDA runtime requirement names its build where the build table does not know it."""
    packages = dict(facts.packages)
    changed = False
    for name, version in assignment.items():
        old = packages.get(name)
        if old is not None and old.versions == (version,):
            continue
        changed = True
        packages[name] = (
            old._replace(versions=(version,), commit=None)
            if old is not None
            else PackageFact(name, (version,))
        )
    if not changed:
        return facts
    builds = facts.builds
    torch = assignment.get(NormalizedName("torch"))
    old_torch = facts.packages.get(NormalizedName("torch"))
    if torch is not None and (old_torch is None or old_torch.versions != (torch,)):
        # Another torch is another build: its label, or the PyPI default for the target.
        from compat.kb.torchbuilds import build_cuda, known_release

        release = Version(torch.public)  # the build table reads any spelling (compat.versions)
        from_rocm_index = (
            "torch_rocm" in facts.builds
            and old_torch is not None
            and not any(v.local for v in old_torch.versions)
        )
        if from_rocm_index and not torch.local:
            pass  # a PyTorch ROCm index serves torch (check's facts): its build stays ROCm's
        elif torch.local or known_release(torch):
            builds = {
                k: v
                for k, v in facts.builds.items()
                if k not in ("torch_cuda", "cuda_runtime", "torch_rocm")
            }
            cuda = build_cuda(torch, target_platform(facts.markers))
            if cuda is not None:
                builds["torch_cuda"] = cuda
            from compat.probes.rocmbuild import rocm_from_local_label

            rocm = rocm_from_local_label(torch)
            if rocm is not None:
                builds["torch_rocm"] = rocm  # a +rocmX.Y build: PyTorch's ROCm index serves it
        elif torch_requires is not None and target_platform(facts.markers).startswith("linux"):
            from compat.probes.cuda import torch_cuda_build

            cuda = torch_cuda_build(release, tuple(torch_requires(torch) or ()))
            if cuda is not None:
                builds = {
                    k: v for k, v in facts.builds.items() if k not in ("torch_cuda", "cuda_runtime")
                }
                builds["torch_cuda"] = cuda
        # A release the build table does not know keeps the old build fact: never an escape
        # through not knowing.
    return replace(facts, packages=packages, builds=builds)


TORCH_FAMILY = ("torch", "torchvision", "torchaudio")


def _cuda_label(name: str, version: Version) -> bool:
    """A torch-family version whose local label names a CUDA build (2.8.0+cu126)."""
    return name in TORCH_FAMILY and bool(version.local) and str(version.local).startswith("cu")


def target_platform(markers: Mapping[str, str] | None) -> str:
    """torchbuilds' platform key for a marker environment (Linux x86_64 when unknown)."""
    if not markers:
        return "linux/x86_64"
    system = markers.get("sys_platform", "linux")
    machine = markers.get("platform_machine", "x86_64")
    if system.startswith("linux"):
        return "linux/aarch64" if machine.lower() in ("aarch64", "arm64") else "linux/x86_64"
    return {"win32": "win32/AMD64", "darwin": "darwin/arm64"}.get(system, "linux/x86_64")


_PUBLIC: dict[int, tuple[Sequence[Version], list[Version], dict[Version, int]]] = {}


def _distance(ordered: Sequence[Version], a: Version, b: Version) -> int:
    """How many releases apart two versions are (`ordered` is sorted). CUDA builds of one
    release (2.8.0+cu126, +cu128) count as that release: they are no step away from it."""
    cached = _PUBLIC.get(id(ordered))
    if cached is None or cached[0] is not ordered:
        public = sorted({Version(v.public) if v.local else v for v in ordered})
        cached = _PUBLIC[id(ordered)] = (ordered, public, {v: i for i, v in enumerate(public)})
    _, public, position = cached
    if a.local:
        a = Version(a.public)
    if b.local:
        b = Version(b.public)
    i = position.get(a)
    j = position.get(b)
    if i is None:
        i = bisect.bisect_left(public, a)
    if j is None:
        j = bisect.bisect_left(public, b)
    return abs(i - j)


def offline_versions(
    kb: KnowledgeBase, name: NormalizedName, installed: Version | None
) -> list[Version]:
    """Versions the knowledge base names for `name` (specifier bounds, fix constraints, examples)."""
    found = set(_kb_versions(kb).get(name, ()))
    if installed is not None:
        found.add(Version(installed.public))
    return sorted(v for v in found if not v.is_devrelease)


# _kb_versions' answer per knowledge base object (kept in it, so that its id stays its).
_KB_VERSIONS: dict[int, tuple[KnowledgeBase, dict[NormalizedName, frozenset[Version]]]] = {}


def _kb_versions(kb: KnowledgeBase) -> dict[NormalizedName, frozenset[Version]]:
    """Every package's versions the knowledge base names, read once per knowledge base: a check
    asks for each ranged package of each install (unsloth's 173 installs asked 2,700 times,
    parsing every rule's fix constraints each time; issue 45)."""
    cached = _KB_VERSIONS.get(id(kb))
    if cached is not None and cached[0] is kb:
        return cached[1]
    from compat.kb.questions import every_named_specifier
    from compat.specifiers import specifier_set

    found: dict[NormalizedName, set[Version]] = {}

    def from_spec(name: NormalizedName, text: str) -> None:
        for spec in specifier_set(text):
            version = spec.version.rstrip(".*")
            try:
                found.setdefault(name, set()).add(Version(version))
            except ValueError:
                continue

    for plain in kb.plain:
        for key, text in every_named_specifier(plain):
            from_spec(NormalizedName(key), text)  # the key as the rule writes it
        for text in plain["fix"]["constraints"]:
            requirement = Requirement(text)
            from_spec(canonicalize_name(requirement.name), str(requirement.specifier))
    answer = {name: frozenset(versions) for name, versions in found.items()}
    _KB_VERSIONS.clear()  # one knowledge base at a time: a process rarely holds two
    _KB_VERSIONS[id(kb)] = (kb, answer)
    return answer
