"""pin's proof: the real resolver (pip or uv) installs the user's requirements under the plan's
constraints, the engine re-checks what it picked, and the plan is made again from there until
nothing new turns up."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.errors import IndexAccessError
from compat.kb.knowledge import KnowledgeBase
from compat.model import Environment, Finding, Hardware, Package, UsageFact
from compat.resolve.pin.constraints import constraint_lines
from compat.resolve.pin.edited import as_edited, judged_offline
from compat.resolve.pin.pinresult import Declarations, PinSettings, Proof
from compat.resolve.pin.planner import Planner, make_planner
from compat.resolve.pin.solver import PinPlan
from compat.resolve.pin.solvers import SnapshotSolver, Solver, ToolSolver, Undecided
from compat.resolve.resolvers.resolver import ResolutionFailed, ResolveNotMade, Target
from compat.resolve.sources.indexconfig import IndexOptions
from compat.versions import parse_requirement

PROOF_ROUNDS = 3


def prove(
    planner: Planner,
    env: Environment,
    start: Mapping[NormalizedName, str],
    declarations: Declarations | None,
    solver: Solver,
    available: Callable[[str], bool] | None = None,
) -> tuple[PinPlan, Proof, Environment]:
    """Plan, have the solver (the real resolver online, the snapshot's solve offline) install the
    plan's constraints with the user's requirements, re-check what it picked with the engine,
    and plan again from there until nothing new turns up (at most PROOF_ROUNDS times). With
    requirement files, the first round starts from what the solver picks for them, not from the
    newest release a range allows."""
    labels = dict(start)
    if declarations is not None:
        lines = [text for _, text, _ in declarations.lines if "://" not in text]
        try:
            first = solver(lines, ())
        except (ResolutionFailed, Undecided) as error:
            alone = _refused(error, "your requirements alone")
            plan = planner.plan(env, labels)
            if alone.status != "failed" or not any(pin.moves_user_pin for pin in plan.pins):
                return plan, alone, env
            # The file as the user will edit it, the pins the plan moves moved, is what installs:
            # prove that (compat.resolve.pin.edited), not the file that cannot (issue 44).
            plan, proof, env = _rounds(planner, plan, env, labels, declarations, solver, available)
            return plan, as_edited(alone, proof, plan), env
        picked = first.packages
        if planner.source.rocm_builds:
            picked = _without_cuda_companions(picked, declarations)
        env, labels = _resolved_environment(env, picked, declarations, labels)
    plan = planner.plan(env, labels)
    return _rounds(planner, plan, env, labels, declarations, solver, available)


def _rounds(
    planner: Planner,
    plan: PinPlan,
    env: Environment,
    labels: dict[NormalizedName, str],
    declarations: Declarations | None,
    solver: Solver,
    available: Callable[[str], bool] | None,
) -> tuple[PinPlan, Proof, Environment]:
    """The proof's rounds: resolve the plan's constraints, re-check, plan again from the pick."""
    detail = ""
    for _ in range(PROOF_ROUNDS):
        requirements = proof_requirements(env, declarations, plan)
        if declarations is None and available is not None:
            # A private or local distribution is no index's: the proof is about the rest.
            requirements = [r for r in requirements if available(r)]
        try:
            resolution = solver(requirements, constraint_lines(plan, env, solver.pytorch_index))
        except (ResolutionFailed, Undecided) as error:
            return plan, _refused(error, "", tuple(requirements)), env
        new = _new_findings(planner, plan, env, declarations, resolution.packages)
        detail = f"{resolution.tool} resolved {len(resolution.packages)} package(s)"
        if not new:
            declared = {name for name, _, _ in declarations.lines} if declarations else None
            plan = _installed_pins(plan, resolution.packages, declared)
            proof = Proof("proven", detail, resolution.packages, tuple(requirements))
            return plan, _undecided(proof, solver.undecided()), env
        # What the resolver picked walks into a rule: plan again from the resolved set.
        env, labels = _resolved_environment(env, resolution.packages, declarations, labels)
        plan = planner.plan(env, labels)
        detail += f"; its pick matched {', '.join(f.rule.id for f in new)}"
    return plan, Proof("failed", f"{detail}; gave up after {PROOF_ROUNDS} rounds"), env


def _refused(
    error: ResolutionFailed | Undecided, what: str, requirements: tuple[str, ...] = ()
) -> Proof:
    """The solver's refusal as the proof: failed, naming the conflict in its words; or, where
    it could not decide (the offline solve ran out of rounds), not proven."""
    if isinstance(error, Undecided):
        return Proof("unproven", str(error), {}, requirements)
    alone = f"{what} do not resolve: " if what else ""
    return Proof("failed", f"{error.tool}: {alone}{error.message}", {}, requirements)


def _undecided(proof: Proof, missing: Sequence[str]) -> Proof:
    """A proof over a solve that could not read everything (packages the snapshot lacks, releases
    whose requirements it does not hold) is not a proof: it says so, naming them."""
    if not missing:
        return proof
    names = ", ".join(missing[:8]) + (f", … ({len(missing)} in all)" if len(missing) > 8 else "")
    return replace(
        proof,
        status="unproven",
        detail=f"not proven offline: {proof.detail}, but the snapshot cannot decide {names}",
    )


def _new_findings(
    planner: Planner,
    plan: PinPlan,
    env: Environment,
    declarations: Declarations | None,
    resolved: Mapping[NormalizedName, Version],
) -> list[Finding]:
    """The engine's re-check of the solved install: findings the plan is to avoid that it did
    not already leave unresolved. Declared packages the install does not hold are dropped."""
    from compat.engine import evaluate

    declared = {name for name, _, _ in declarations.lines} if declarations else None
    resolved_env = replace(
        env,
        packages={
            **{
                n: p
                for n, p in env.packages.items()
                if n not in resolved and (declared is None or n in declared)
            },
            **{
                n: Package(n, v, env.packages[n].display_name if n in env.packages else n)
                for n, v in resolved.items()
            },
        },
    )
    known = {u.rule.id for u in plan.unresolved}
    return [
        f
        for f in evaluate(planner.kb, planner.facts(resolved_env))
        if f.status in planner.avoid and f.rule.severity.value != "info" and f.rule.id not in known
    ]


def _without_cuda_companions(
    resolved: Mapping[NormalizedName, Version], declarations: Declarations
) -> dict[NormalizedName, Version]:
    """On a machine whose GPUs are all AMD's, the plan starts without what PyPI's CUDA build of
    torch alone brings in (the CUDA libraries, triton: compat.kb.torchrocm.cuda_requirement):
    torch's ROCm build requires none of them, and a CUDA library left in the start would be a
    package to move, weighing against the ROCm build. Where the plan keeps the CUDA build, the
    proof's resolve brings them back."""
    from compat.kb.torchrocm import cuda_requirement

    declared = {name for name, _, _ in declarations.lines}
    return {
        name: version
        for name, version in resolved.items()
        if name in declared or not cuda_requirement(str(name))
    }


def _installed_pins(
    plan: PinPlan, resolved: Mapping[NormalizedName, Version], declared: set[NormalizedName] | None
) -> PinPlan:
    """The proven plan without a constraint for a package an earlier resolve brought in and the
    proven one does not install (nvidia-nccl-cu13 of a torch the plan has since moved): a line
    for it would only mislead. Declared and installed packages keep theirs."""
    if declared is None:
        return plan
    pins = tuple(
        pin
        for pin in plan.pins
        if pin.start != "resolved" or pin.name in resolved or pin.name in declared
    )
    return plan if len(pins) == len(plan.pins) else replace(plan, pins=pins)


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


def plan_and_prove(
    kb: KnowledgeBase,
    env: Environment,
    usage: Mapping[str, UsageFact],
    hardware: Hardware | None,
    declarations: Declarations | None,
    client: Any,
    index_options: IndexOptions,
    settings: PinSettings,
) -> tuple[PinPlan, Proof, Environment]:
    """The plan for `env`, proven by the real resolver unless --no-verify or --offline."""
    planner = make_planner(
        kb, env, usage, hardware, declarations, client=client, offline=index_options.offline,
        keep=settings.keep, avoid_possible=settings.avoid_possible,
    )  # fmt: skip
    start = planner.intent.start
    if not settings.verify:
        plan = planner.plan(env, start)
        return (
            plan,
            Proof("skipped", "--no-verify: the constraints were not resolved with pip or uv"),
            env,
        )
    if index_options.offline:
        return prove(planner, env, start, declarations, snapshot_solver(env, index_options))
    if declarations is None:  # one batch of index requests for the proof's names
        planner.source.prefetch([NormalizedName(canonicalize(n)) for n in top_level(env)])
    try:
        return _prove_online(
            kb, env, usage, hardware, declarations, client, index_options, settings, planner
        )
    except ResolveNotMade as error:
        # The resolver could not run (a source build this machine cannot make, its time limit):
        # the plan is still judged, against the offline solve, and the proof says what that
        # leaves unproven (compat.resolve.pin.edited.judged_offline; issue 44 item 6).
        offline = prove(planner, env, start, declarations, snapshot_solver(env, index_options))
        return offline[0], judged_offline(error, offline[1]), offline[2]


def _prove_online(
    kb: KnowledgeBase,
    env: Environment,
    usage: Mapping[str, UsageFact],
    hardware: Hardware | None,
    declarations: Declarations | None,
    client: Any,
    index_options: IndexOptions,
    settings: PinSettings,
    planner: Planner,
) -> tuple[PinPlan, Proof, Environment]:
    """The proof by the real resolver, with PyTorch's index or, where that cannot be reached,
    without it."""
    start = planner.intent.start
    try:
        return prove(
            planner, env, start, declarations, tool_solver(env, index_options, settings),
            planner.source.on_index,
        )  # fmt: skip
    except IndexAccessError as error:
        pytorch = index_options.pytorch_index.rstrip("/")
        if not planner.source.cuda_builds or pytorch not in error.message:
            raise
    # PyTorch's per-CUDA index cannot be reached (a network that reaches only the package
    # index): plan again with the builds the package index serves, and say so, rather than
    # refuse. The proof then rests on the configured index alone.
    planner = make_planner(
        kb, env, usage, hardware, declarations, client=client, offline=index_options.offline,
        keep=settings.keep, avoid_possible=settings.avoid_possible, cuda_builds=False,
    )  # fmt: skip
    plan, proof, proven_env = prove(
        planner, env, start, declarations, tool_solver(env, index_options, settings),
        planner.source.on_index,
    )  # fmt: skip
    unreachable = (
        f"{pytorch} could not be reached, so only the package index's torch builds were considered"
    )
    return plan, replace(proof, detail=f"{proof.detail} ({unreachable})"), proven_env


def tool_solver(env: Environment, index_options: IndexOptions, settings: PinSettings) -> Solver:
    """The real resolver for the environment's Python."""
    version = env.python_version
    platform = settings.target.platform if settings.target is not None else None
    target = Target(f"{version.major}.{version.minor}" if version else None, platform)
    return ToolSolver(index_options, settings.resolver, target, index_options.pytorch_index)


def snapshot_solver(env: Environment, index_options: IndexOptions) -> Solver:
    """check's offline solve over the snapshot, for the environment's Python and markers."""
    from compat.resolve.target import TargetOptions, target_markers

    version = env.python_version
    markers, python = target_markers(
        TargetOptions(python_version=f"{version.major}.{version.minor}" if version else None)
    )
    if env.markers:
        markers = {**markers, **env.markers}
    return SnapshotSolver(python, markers, index_options.pytorch_index)
