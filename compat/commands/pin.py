"""`compat pin`: the environment's guarded packages, pinned to versions that avoid every rule.

Wires the pieces: environment and facts (as for doctor), candidate versions from the package index
(or, with `--offline`, from the cache, the installed versions and the versions the knowledge base
names), the search in `compat.resolve.solver`, and the constraints text or JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import Version

from compat import __version__
from compat.errors import IndexAccessError, UncheckedError
from compat.facts.gather import (
    EnvOptions,
    FactOptions,
    environment_facts,
    read_environment,
    read_hardware,
    read_usage,
)
from compat.kb.knowledge import KnowledgeBase, load_knowledge_base
from compat.model import Environment, Hardware, Package, PackageFact, Status
from compat.resolve.declared import LOCK_KINDS
from compat.resolve.index import allows_python
from compat.resolve.indexconfig import IndexOptions
from compat.resolve.maxsat import plan_pins
from compat.resolve.solver import Pin, PinPlan, offline_versions
from compat.versions import parse_requirement

ENV_NOTE = "environment: "  # a note about a distribution that could not be read


@dataclass(frozen=True)
class PinResult:
    plan: PinPlan
    env: Environment
    kb: KnowledgeBase
    hardware: Hardware | None
    hardware_note: str
    freeze: bool
    offline: bool
    index_source: str
    python_version: Version | None
    declarations: Declarations | None = None
    proof: Proof | None = None
    pytorch_index: str = "https://download.pytorch.org/whl"
    build_constraints: str | None = None  # where --build-constraints-output wrote them


@dataclass(frozen=True)
class Proof:
    """What the real resolver said about the constraints, with the user's requirements."""

    status: str  # "proven", "failed", "skipped"
    detail: str  # the tool and what it resolved, the resolver's message, or why it was skipped
    resolved: Mapping[NormalizedName, Version] = field(default_factory=dict)
    requirements: tuple[str, ...] = ()


class IndexCandidates:
    """CandidateSource over the package index: installable versions and Requires-Dist."""

    def __init__(
        self,
        client: Any,
        python_version: Version | None,
        installed: Mapping[NormalizedName, Version],
        kb: KnowledgeBase,
        offline: bool,
        markers: Mapping[str, str] | None = None,
    ) -> None:
        self.client = client
        self.markers = markers  # the target: releases without a wheel for it are never offered
        self.python_version = python_version
        self.installed = installed
        self.kb = kb
        self.offline = offline
        self._versions: dict[NormalizedName, list[Version]] = {}
        self._candidates: dict[NormalizedName, list[Any]] = {}
        self.notes: list[str] = []
        self._requires: dict[tuple[NormalizedName, Version], tuple[str, ...] | None] = {}
        self.cuda_builds = False  # offer torch's per-CUDA builds (+cu126) as candidates

    def requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        # A CUDA build declares what the release declares (PyPI's wheel stands in for it).
        if version.local and name == "torch":
            version = Version(version.public)
        return self._requires_of(name, version)

    def prefetch(self, names: Sequence[NormalizedName]) -> None:
        if self.client is None:
            return
        try:
            found = self.client.candidates_many(names)
            self._candidates.update(found)
            self._candidates.update({name: [] for name in names if name not in found})
        except IndexAccessError:
            if not self.offline:
                raise
            # Offline and not cached: fall back to what the knowledge base names, below.

    def on_index(self, name: str) -> bool:
        """Whether the index has any release of `name` (fetched, and cached, when asked)."""
        from compat.names import canonicalize_name

        return bool(self.versions(NormalizedName(canonicalize_name(name))))

    def versions(self, name: NormalizedName) -> list[Version]:
        if name in self._versions:
            return self._versions[name]
        if name not in self._candidates:
            self.prefetch([name])  # a companion of a move: asked for only when needed
        installed = self.installed.get(name)
        allow_pre = installed is not None and installed.is_prerelease
        found: set[Version] = set()
        for candidate in self._candidates.get(name, []):
            if candidate.yanked is not None:
                continue
            if not allows_python(candidate, self.python_version):
                continue
            if candidate.version.is_prerelease and not allow_pre:
                continue
            found.add(candidate.version)
        if not found and (self.offline or self.client is None):
            found.update(offline_versions(self.kb, name, installed))
        if self.markers is not None:
            from compat.kb import wheels

            found = wheels.installable(name, found, self.markers, keep=installed)
        if name == "torch" and self.cuda_builds:
            found |= torch_build_variants(found)
        self._versions[name] = sorted(found)
        return self._versions[name]

    def _requires_of(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        key = (name, version)
        if key not in self._requires:
            self._requires[key] = self._fetch_requires(name, version)
        return self._requires[key]

    def _fetch_requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        if self.client is None:
            return None
        matching = [c for c in self._candidates.get(name, []) if c.version == version]
        matching.sort(key=lambda c: (not c.is_wheel, c.metadata_url is None))
        for candidate in matching[:1]:
            try:
                result: tuple[str, ...] = self.client.requires_dist(candidate)
                return result
            except IndexAccessError:
                if not self.offline:
                    raise
        return None


@dataclass(frozen=True)
class Declarations:
    """What -r files say, for the intent and the proof: exact pins and the requirement lines."""

    pinned: frozenset[NormalizedName]
    lines: tuple[tuple[NormalizedName, str, str], ...]  # (name, requirement text, origin)


def torch_build_variants(releases: set[Version]) -> set[Version]:
    """PyTorch's per-CUDA builds of these torch releases (download.pytorch.org/whl/cuXYZ)."""
    from compat.kb.torchbuilds import cuda_tag, cuda_variants

    out: set[Version] = set()
    for release in releases:
        if release.local:
            continue
        for cuda in cuda_variants(release) or ():
            out.add(Version(f"{release}+{cuda_tag(cuda)}"))
    return out


def run_pin(
    env_options: EnvOptions,
    fact_options: FactOptions,
    index_options: IndexOptions,
    *,
    requirements: Sequence[Path] = (),
    freeze: bool = False,
    avoid_possible: bool = True,
    keep: Sequence[str] = (),
    verify: bool = True,
    resolver: str = "auto",
    progress: Callable[[str], None] | None = None,
) -> PinResult:
    """Pins for the environment, or (with `requirements`) for what requirement files declare."""
    from compat.kb.capabilities import floors, load_capabilities
    from compat.names import canonicalize_name
    from compat.resolve.index import IndexClient
    from compat.resolve.indexconfig import resolve_index_config
    from compat.resolve.solver import Intent, guarded_names

    usage = read_usage(fact_options)
    kb = load_knowledge_base(tuple(fact_options.matrices))
    capabilities = load_capabilities(kb.files)
    config = resolve_index_config(
        index_url=index_options.index_url, extra_index_urls=tuple(index_options.extra_index_urls)
    )
    with IndexClient(
        config, offline=index_options.offline, timeout=index_options.timeout, progress=progress
    ) as client:
        declarations = None
        if requirements:
            env, declarations = environment_from_requirements(
                requirements, kb, None if index_options.offline else client
            )
        else:
            env = read_environment(env_options)
        if not env.packages:
            raise UncheckedError(f"no distributions found in {', '.join(env.paths) or env.source}")
        hardware, hardware_note = read_hardware(fact_options)
        # The toolkit on this machine says nothing about requirement files meant for another.
        with_nvcc = kb.mentions("build", "nvcc") and not requirements
        facts = environment_facts(env, hardware, usage, with_nvcc=with_nvcc)
        installed = {name: package.version for name, package in env.packages.items()}
        kept = {NormalizedName(canonicalize_name(name)) for name in keep}
        start: dict[NormalizedName, str] = {}
        if declarations is not None:
            kept |= declarations.pinned
            start = {
                name: "pinned" if name in declarations.pinned else "assumed"
                for name in env.packages
            }
        needed = floors(capabilities, facts)
        intent = Intent(
            kept=frozenset(kept),
            floors={
                name: (floor.version, floor.capability.feature) for name, floor in needed.items()
            },
            start=start,
        )
        source = IndexCandidates(
            client, env.python_version, installed, kb, index_options.offline, env.markers or None
        )
        # Another CUDA build is worth choosing only for visible GPUs, and only to escape an
        # affected finding (plan_pins): a guess at an unknown driver is no reason to switch.
        source.cuda_builds = hardware is not None and bool(hardware.gpus)
        avoid = {Status.AFFECTED, Status.POSSIBLE} if avoid_possible else {Status.AFFECTED}

        def plan_for(current: Environment, labels: Mapping[NormalizedName, str]) -> PinPlan:
            source.installed = {name: p.version for name, p in current.packages.items()}
            source.prefetch(sorted(guarded_names(kb, source.installed)))
            return plan_pins(
                kb,
                environment_facts(current, hardware, usage, with_nvcc=with_nvcc),
                source,
                avoid=avoid,
                installed_requires={n: p.requires for n, p in current.packages.items()}
                if not requirements
                else {},
                marker_env=current.markers or None,
                intent=replace(intent, start=labels),
            )

        proof: Proof
        if not verify or index_options.offline:
            why = "--offline" if index_options.offline else "--no-verify"
            plan = plan_for(env, start)
            proof = Proof("skipped", f"{why}: the constraints were not resolved with pip or uv")
        else:
            if declarations is None:  # one batch of index requests for the proof's names
                source.prefetch([NormalizedName(canonicalize(n)) for n in top_level(env)])
            plan, proof, env = prove(
                plan_for, env, start, declarations, kb, hardware, usage, avoid, index_options,
                resolver, with_nvcc, source.on_index,
            )  # fmt: skip
    # Distributions that could not be read (an undecodable directory name, an invalid version)
    # are left out of the pins and said in the output, as doctor reports them: never the reason
    # to refuse writing the whole file.
    problems = tuple(f"{ENV_NOTE}{p.message}" for p in env.problems if p.kind != "duplicate")
    if problems:
        plan = replace(plan, notes=(*plan.notes, *problems))
    return PinResult(
        plan,
        env,
        kb,
        hardware,
        hardware_note,
        freeze,
        index_options.offline,
        config.source,
        env.python_version,
        declarations,
        proof,
        index_options.pytorch_index,
    )


PROOF_ROUNDS = 3


def prove(
    plan_for: Callable[[Environment, Mapping[NormalizedName, str]], PinPlan],
    env: Environment,
    start: Mapping[NormalizedName, str],
    declarations: Declarations | None,
    kb: KnowledgeBase,
    hardware: Hardware | None,
    usage: Mapping[str, Any],
    avoid: set[Status],
    index_options: IndexOptions,
    tool: str,
    with_nvcc: bool,
    available: Callable[[str], bool] | None = None,
) -> tuple[PinPlan, Proof, Environment]:
    """Plan, have the real resolver install the plan's constraints with the user's requirements,
    re-check what it picked with the engine, and plan again from there until nothing new turns
    up (at most PROOF_ROUNDS times). With requirement files, the first round starts from what
    the resolver picks for them, not from the newest release a range allows."""
    from compat.engine import evaluate
    from compat.resolve.resolver import ResolutionFailed, ResolveNotMade, ResolverTimedOut, Target
    from compat.resolve.resolver import resolve as resolve_with_tool

    def resolve(*args: Any, **kwargs: Any) -> Any:
        try:
            return resolve_with_tool(*args, **kwargs)
        except ResolveNotMade as error:
            if isinstance(error, ResolverTimedOut):
                raise
            # The tool failed, not the constraints: no proof, nothing written (exit 3).
            raise ResolveNotMade(
                error.tool,
                f"{error.reason}; the proof could not be made and no constraints were written",
                hint=error.hint or "--no-verify writes the constraints without the proof",
            ) from None
        except IndexAccessError as error:
            # One line: which index, why, and how to go on without the proof.
            raise IndexAccessError(
                f"the proof failed: {error.message}",
                hint="--no-verify writes the constraints without the proof",
            ) from None

    target = Target(
        python_version=(
            f"{env.python_version.major}.{env.python_version.minor}"
            if env.python_version is not None
            else None
        )
    )
    labels = dict(start)
    if declarations is not None:
        lines = [text for _, text, _ in declarations.lines if "://" not in text]
        try:
            first = resolve(lines, (), target=target, index=index_options, tool=tool)
        except ResolutionFailed as error:
            plan = plan_for(env, labels)
            return (
                plan,
                Proof(
                    "failed",
                    f"{error.tool}: your requirements alone do not resolve: {error.message}",
                ),
                env,
            )
        env, labels = _resolved_environment(env, first.packages, declarations, labels)
    plan = plan_for(env, labels)
    detail = ""
    for _ in range(PROOF_ROUNDS):
        requirements = proof_requirements(env, declarations, plan)
        if declarations is None and available is not None:
            # A private or local distribution is no index's: the proof is about the rest.
            requirements = [r for r in requirements if available(r)]
        try:
            resolution = resolve(
                requirements,
                constraint_lines(plan, env, index_options.pytorch_index),
                target=target,
                index=index_options,
                tool=tool,
            )
        except ResolutionFailed as error:
            return (
                plan,
                Proof("failed", f"{error.tool}: {error.message}", {}, tuple(requirements)),
                env,
            )
        declared = {name for name, _, _ in declarations.lines} if declarations else None
        resolved_env = replace(
            env,
            packages={
                **{
                    n: p
                    for n, p in env.packages.items()
                    if n not in resolution.packages and (declared is None or n in declared)
                },
                **{
                    n: Package(n, v, env.packages[n].display_name if n in env.packages else n)
                    for n, v in resolution.packages.items()
                },
            },
        )
        facts = environment_facts(resolved_env, hardware, usage, with_nvcc=with_nvcc)
        known = {u.rule.id for u in plan.unresolved}
        new = [
            f
            for f in evaluate(kb, facts)
            if f.status in avoid and f.rule.severity.value != "info" and f.rule.id not in known
        ]
        detail = f"{resolution.tool} resolved {len(resolution.packages)} package(s)"
        if not new:
            return plan, Proof("proven", detail, resolution.packages, tuple(requirements)), env
        # What the resolver picked walks into a rule: plan again from the resolved set.
        env, labels = _resolved_environment(env, resolution.packages, declarations, labels)
        plan = plan_for(env, labels)
        detail += f"; its pick matched {', '.join(f.rule.id for f in new)}"
    return plan, Proof("failed", f"{detail}; gave up after {PROOF_ROUNDS} rounds"), env


def _resolved_environment(
    env: Environment,
    resolved: Mapping[NormalizedName, Version],
    declarations: Declarations | None,
    labels: Mapping[NormalizedName, str] | None = None,
) -> tuple[Environment, dict[NormalizedName, str]]:
    """The environment as the resolver would install it: declared or installed packages at the
    versions it picked (a user's exact pin keeps its label), everything else it brings in too."""
    labels = dict(labels or {})
    packages = dict(env.packages)
    if declarations is not None:
        # What an earlier round's resolve brought in and this one does not is not installed
        # (nvidia-nccl-cu13 of a torch the plan has since moved): it must not match rules.
        declared = {name for name, _, _ in declarations.lines}
        for name in [n for n in packages if n not in resolved and n not in declared]:
            if labels.get(name) == "resolved":
                del packages[name], labels[name]
    for name, version in resolved.items():
        old = packages.get(name)
        if declarations is None and old is not None:
            continue  # an installed version stays the starting point: the plan pins it
        if labels.get(name) == "pinned":
            continue
        labels[name] = "resolved"
        if old is not None and old.version == version:
            continue
        packages[name] = Package(
            name, version, old.display_name if old else name, old.origin if old else None
        )
        if labels.get(name) != "pinned":
            labels[name] = "resolved"
    return replace(env, packages=packages), labels


def proof_requirements(
    env: Environment, declarations: Declarations | None, plan: PinPlan
) -> list[str]:
    """What the resolver installs: the user's requirement lines (a pin the plan moves relaxed to
    the name, as the line tells the user to do), or the environment's top-level distributions."""
    from packaging.requirements import InvalidRequirement
    from packaging.specifiers import SpecifierSet

    moved = {pin.name for pin in plan.pins if pin.moves_user_pin}
    if declarations is not None:
        out = []
        for name, text, _ in declarations.lines:
            if "://" in text:
                continue  # a direct reference: the resolver would fetch it; its pin stands in
            if name in moved:
                try:
                    requirement = parse_requirement(text)
                except InvalidRequirement:
                    continue
                requirement.specifier = SpecifierSet()
                text = str(requirement)
            out.append(text)
        return out
    # The pinned packages themselves too: a top-level one may be local (editable) or private.
    names = {canonicalize(n): n for n in top_level(env)}
    for pin in plan.pins:
        names.setdefault(pin.name, pin.display_name or pin.name)
    return sorted(names.values(), key=str.lower)


def top_level(env: Environment) -> list[str]:
    """The installed distributions no other installed one requires, that an index can serve."""
    from packaging.requirements import InvalidRequirement

    required: set[str] = set()
    for package in env.packages.values():
        for text in package.requires:
            try:
                requirement = parse_requirement(text)
            except InvalidRequirement:
                continue
            if requirement.marker is None or "extra" not in str(requirement.marker):
                required.add(canonicalize(requirement.name))
    return sorted(
        package.display_name or name
        for name, package in env.packages.items()
        if name not in required and package.commit is None and not _direct(package)
    )


def _direct(package: Package) -> bool:
    """Installed from a URL, a directory or in editable mode (PEP 610): no index has it."""
    if package.origin is None:
        return False
    return os.path.isfile(os.path.join(package.origin.path, "direct_url.json"))


def canonicalize(name: str) -> str:
    from compat.names import canonicalize_name

    return str(canonicalize_name(name))


def constraint_lines(plan: PinPlan, env: Environment, pytorch_index: str) -> list[str]:
    """The plan as constraint lines (what the constraints file holds, without comments)."""
    index_lines, entries, _ = constraint_entries(plan, env, pytorch_index)
    return [*index_lines, *(requirement for requirement, _ in entries)]


def constraint_entries(
    plan: PinPlan, env: Environment, pytorch_index: str
) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Index lines, (requirement, comment) pairs and the names left to the resolver.

    A torch CUDA build the plan chose is written the way pip and uv both read from a
    constraints file: `--extra-index-url <PyTorch's index for that CUDA>` and the local-label
    pin (`torch==2.8.0+cu126`), with torchvision and torchaudio on the same build."""
    from compat.kb.torchbuilds import cuda_tag, local_label_cuda

    entries: list[tuple[str, str]] = []
    left: list[str] = []
    index_lines: list[str] = []
    torch = next((p for p in plan.pins if p.name == "torch"), None)
    label = ""
    if torch is not None and torch.changed and torch.version.local:
        cuda = local_label_cuda(str(torch.version.local))
        if cuda is not None:
            label = cuda_tag(cuda)
            index_lines.append(f"--extra-index-url {pytorch_index.rstrip('/')}/{label}")
    for pin in plan.pins:
        if pin.start == "assumed" and not pin.changed and not pin.hardware_guarded:
            # An unpinned requirement nobody resolved: pinning a guess would be a false promise.
            left.append(pin.display_name or pin.name)
            continue
        comment = pin_comment(pin)
        version = str(pin.version.public)
        if label and pin.name == "torch":
            version = f"{version}+{label}"
        elif pin.installed is not None and pin.installed.local and not pin.changed:
            comment += (
                f" (installed build {pin.installed}: choose it with the matching --index-url)"
            )
        # Other local labels are left off: `==2.3.0` matches every build of 2.3.0 on any index.
        entries.append((f"{pin.display_name or pin.name}=={version}", comment))
    if label:
        pinned = {pin.name: pin for pin in plan.pins}
        for name in ("torchvision", "torchaudio"):
            package = env.packages.get(NormalizedName(name))
            if package is None:
                continue
            companion = pinned.get(package.name)
            base = companion.version if companion is not None else package.version
            requirement = f"{package.display_name or name}=={base.public}+{label}"
            entries = [e for e in entries if not e[0].lower().startswith(f"{name}==")]
            said = (
                pin_comment(companion)
                if companion is not None and companion.changed
                else f"kept {base.public}"
            )
            entries.append((requirement, f"{said}, on torch's {label} build (they must match)"))
    return index_lines, entries, left


def declared_facts(
    declared: Sequence[Any],
    markers: Mapping[str, str],
    kb: KnowledgeBase,
    client: Any | None,
    python_version: Version,
    notes: list[str],
) -> dict[NormalizedName, PackageFact]:
    """`pin`'s view of requirement files (its starting environment): a ranged package is every
    released version its range allows. check itself uses compat.resolve.declared."""
    by_name: dict[NormalizedName, list[Any]] = {}
    for item in declared:
        if item.marker is not None and not item.marker.evaluate({**markers, "extra": ""}):
            continue  # not for this target
        by_name.setdefault(item.name, []).append(item)
    facts: dict[NormalizedName, PackageFact] = {}
    ranged: dict[NormalizedName, SpecifierSet] = {}
    for name, items in by_name.items():
        exact = [i for i in items if i.pinned is not None]
        locked = [i for i in exact if i.kind in LOCK_KINDS]
        chosen = (locked or exact or [None])[0]
        if chosen is not None:
            facts[name] = PackageFact(
                name, (chosen.pinned,), chosen.display_name, chosen.origin, requirement=chosen.raw
            )
            continue
        if any(item.url for item in items):
            notes.append(
                f"{items[0].origin}: {items[0].display_name} is a direct reference: its version is not checked"
            )
            continue
        spec = SpecifierSet()
        for item in items:
            spec &= item.specifier
        ranged[name] = spec
    if ranged:
        candidates: dict[NormalizedName, list[Any]] = {}
        if client is not None:
            candidates = client.candidates_many(sorted(ranged))
        for name, spec in ranged.items():
            first = (
                next(i for i in by_name[name] if i.kind != "constraint")
                if any(i.kind != "constraint" for i in by_name[name])
                else by_name[name][0]
            )
            versions = _released(candidates.get(name, []), python_version)
            source = "index"
            if client is None:
                versions = offline_versions(kb, name, None)
                source = "knowledge-base"
            allowed = tuple(v for v in versions if spec.contains(v))
            if not allowed:
                if client is not None:
                    notes.append(
                        f"{first.origin}: no released version of {first.display_name} satisfies {spec or 'any'}"
                    )
                continue
            facts[name] = PackageFact(
                name,
                allowed,
                first.display_name,
                first.origin,
                requirement=first.raw,
                candidates_from=source,
            )
    return facts


def _released(candidates: Sequence[Any], python_version: Version) -> list[Version]:
    from compat.resolve.index import allows_python

    return sorted(
        {
            c.version
            for c in candidates
            if c.yanked is None and not c.version.is_prerelease and allows_python(c, python_version)
        }
    )


def environment_from_requirements(
    paths: Sequence[Path], kb: KnowledgeBase, client: Any | None
) -> tuple[Environment, Declarations]:
    """What requirement/lock files declare, as the environment pin starts from: pinned versions
    as they are (the user's intent, kept), a ranged requirement at the newest version it allows
    (from the index, or offline from the versions the knowledge base names) as an assumption
    that the resolver's pick replaces when the proof runs."""
    from compat.facts.declared.detect import read_declared
    from compat.resolve.target import TargetOptions, target_markers

    declared = read_declared(paths)
    markers, python_version = target_markers(TargetOptions())
    facts = declared_facts(declared.requirements, markers, kb, client, python_version, [])
    packages = {
        name: Package(name, max(fact.versions), fact.display_name, fact.origin)
        for name, fact in facts.items()
    }
    pinned = frozenset(
        item.name
        for item in declared.requirements
        if item.pinned is not None and item.kind != "constraint"
    )
    lines = tuple(
        (item.name, item.raw, str(item.origin))
        for item in declared.requirements
        if item.kind != "constraint"
    )
    env = Environment(
        source="files " + ", ".join(declared.files),
        packages=packages,
        python_version=python_version,
        markers=markers,
        paths=tuple(declared.files),
    )
    return env, Declarations(pinned, lines)


def _hardware_text(hardware: Hardware | None, note: str) -> str:
    if hardware is None:
        return f"unknown ({note})"
    if not hardware.gpus:
        return f"no GPU ({note})"
    names = sorted({g.name for g in hardware.gpus})
    return f"{len(hardware.gpus)}x {', '.join(names)}, driver {hardware.driver_label} ({note})"


def pin_comment(pin: Pin) -> str:
    """Why the line is there, starting with what it does: upgrade, downgrade, kept or resolved."""
    action = pin.action
    if action in ("upgrade", "downgrade"):
        was = pin.installed
        source = {
            "pinned": f"your pin {was}",
            "assumed": f"{was}, the newest release your requirement allows",
            "resolved": f"{was}, the resolver's pick",
        }.get(pin.start, str(was))
        text = f"{action} from {source}"
        if pin.build_change:
            from compat.kb.torchbuilds import build_cuda

            old, new = build_cuda(pin.installed), build_cuda(pin.version)  # type: ignore[arg-type]
            text += f" (CUDA {old or 'unknown'} build) to its CUDA {new or 'CPU'} build"
        if pin.moved_by:
            text += f" via {', '.join(pin.moved_by)}"
        elif pin.companion:
            text += f" with {pin.companion}"
        if pin.moves_user_pin:
            text += f"; moves your pin {pin.display_name or pin.name}=={was}: no escape without it"
    elif action == "resolved":
        text = "resolved" + (f", {pin.companion}" if pin.companion else "")
        if pin.moved_by:
            text += f" via {', '.join(pin.moved_by)}"
    else:
        what = {
            "pinned": "your pin",
            "resolved": "the resolver's pick",
            "assumed": "the newest release your requirement allows; a hardware rule guards it",
        }.get(pin.start, "installed")
        guards = ", ".join(pin.reasons[:3]) + (" …" if len(pin.reasons) > 3 else "")
        text = f"kept ({what})" + (f", guarded by {guards}" if guards else "")
    if pin.floor and action != "kept":
        text += f"; never below {pin.floor}"
    return text


def render_constraints(result: PinResult) -> str:
    """A constraints file pip and uv accept as is: `name==version` lines, comments after them."""
    plan = result.plan
    lines = [
        f"# Generated by compat {__version__} (`compat pin`): pip install -c THIS_FILE ...",
        f"# knowledge base: {len(result.kb)} rules, {result.kb.digest}",
        f"# python: {result.python_version or 'unknown'}; hardware: {_hardware_text(result.hardware, result.hardware_note)}",
        f"# candidates: {'offline (cache, installed versions, versions the knowledge base names)' if result.offline else result.index_source}",
    ]
    proof = result.proof
    if proof is not None:
        if proof.status == "proven":
            lines.append(
                f"# proof: {proof.detail} with your requirements under these constraints; "
                "compat finds no rule it avoids in that set beyond the UNRESOLVED lines"
            )
        elif proof.status == "skipped":
            lines.append(f"# proof skipped ({proof.detail})")
        else:
            lines.append(f"# PROOF FAILED: {proof.detail}")
    lines += [f"# {note}" for note in plan.notes]
    for item in plan.unresolved:
        lines.append(f"# UNRESOLVED {item.rule.id} ({item.status.value}): {item.why}")
    pinned = {pin.name: pin for pin in plan.pins}
    index_lines, entries, left = constraint_entries(plan, result.env, result.pytorch_index)
    if left:
        lines.append(
            "# left to the resolver (unpinned requirements, not proven here): "
            + ", ".join(sorted(left, key=str.lower))
        )
    from compat.resolve.buildcons import source_builds

    builds = source_builds(result.env.packages)
    if result.build_constraints is not None:
        lines.append(
            f"# build constraints: {result.build_constraints} (the torch source builds compile "
            f"against: {', '.join(builds) or 'none in this set'}); pip install --build-constraint "
            f"{result.build_constraints} -c THIS_FILE, or uv pip install --build-constraints "
            f"{result.build_constraints} -c THIS_FILE"
        )
    elif builds:
        lines.append(
            f"# {', '.join(builds)} can build from source against torch: pip >= 26.2 no longer "
            "applies -c to build environments; add --build-constraints-output FILE"
        )
    if index_lines:
        backend = index_lines[0].rsplit("/", 1)[-1]
        lines.append(
            f"# CUDA build: pip and uv read the index line below from this file; with uv you can "
            f"also pass --torch-backend={backend}"
        )
    lines += index_lines
    if result.freeze:
        for name, package in sorted(result.env.packages.items()):
            if name not in pinned:
                entries.append(
                    (
                        f"{package.display_name or name}=={package.version.public}",
                        "kept (installed)",
                    )
                )
    entries.sort(key=lambda e: e[0].lower())
    width = max((len(e[0]) for e in entries), default=0)
    lines += [f"{req:{width}}  # {comment}" for req, comment in entries]
    return "\n".join(lines) + "\n"


def render_build_constraints_file(result: PinResult) -> str:
    from compat.resolve.buildcons import render_build_constraints, source_builds

    return render_build_constraints(result.plan, source_builds(result.env.packages))


def render_json(result: PinResult) -> str:
    plan = result.plan
    document: dict[str, Any] = {
        "schema": "compat.pin/1",
        "compat_version": __version__,
        "knowledge_base": {"rules": len(result.kb), "digest": result.kb.digest},
        "python": str(result.python_version) if result.python_version else None,
        "offline": result.offline,
        "index": result.index_source,
        "pins": [
            {
                "name": pin.name,
                "version": str(pin.version.public),
                "installed": str(pin.installed) if pin.installed is not None else None,
                "changed": pin.changed,
                "action": pin.action,
                "start": pin.start,
                "companion": pin.companion or None,
                "floor": pin.floor or None,
                "via": list(pin.moved_by),
                "guarded_by": list(pin.reasons),
                "constraint": None
                if pin.start == "assumed" and not pin.changed and not pin.hardware_guarded
                else f"{pin.name}=={pin.version.public}",
            }
            for pin in plan.pins
        ],
        "notes": list(plan.notes),
        "build_constraints": result.build_constraints,
        "proof": {
            "status": result.proof.status,
            "detail": result.proof.detail,
            "requirements": list(result.proof.requirements),
            "resolved": {name: str(v) for name, v in sorted(result.proof.resolved.items())},
        }
        if result.proof is not None
        else None,
        "unresolved": [
            {"rule": u.rule.id, "status": u.status.value, "why": u.why} for u in plan.unresolved
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def pin_exit_code(result: PinResult) -> int:
    """1 when an `affected` rule could not be escaped or the resolver refused the constraints;
    `possible` ones are best effort."""
    if result.proof is not None and result.proof.status == "failed":
        return 1
    return 1 if any(u.status is Status.AFFECTED for u in result.plan.unresolved) else 0
