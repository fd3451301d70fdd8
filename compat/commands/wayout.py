"""A way out for `compat doctor --install`: constraints that avoid what the install introduces.

Pin's solver (compat.resolve.pin.maxsat, `plan_pins`, over the package index as `compat pin` reads
it) is asked for the environment as it is plus the releases the install adds, with every
installed distribution kept: the requested packages (and what they pull in) move to releases
that live with what is there (keep torch: choose the vLLM release that pins it). Where keeping
everything leaves a finding, the distributions the install would replace may move too (the
driver-compatible build of torch). compat.commands.installcheck then has the resolver prove the
proposal with a second dry run, judged as the first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.facts.gather import FactOptions, environment_facts, read_hardware, read_usage
from compat.kb.knowledge import KnowledgeChoice, load_knowledge_base
from compat.model import Environment, Package, Status
from compat.resolve.resolvers.whatif import InstallPlan, is_location


@dataclass(frozen=True)
class Proposal:
    constraints: tuple[str, ...]  # requirement lines for the install instead of the request
    kept: tuple[str, ...]  # the installed distributions it keeps, as `name==version`
    unresolved: tuple[str, ...]  # "rule-id: why" for introduced findings no choice escapes
    outside: tuple[str, ...] = ()  # requests no release of which escapes them, and why
    # another build of torch the solver chose, from PyTorch's own index: the driver-compatible
    # CUDA build, or on an all-AMD machine the ROCm build carrying the GPUs' targets; each said
    # as "the ... build torch==V from URL (why)"
    builds: tuple[str, ...] = ()


def requested_names(plan: InstallPlan) -> set[NormalizedName]:
    return {r.name for r in plan.install if r.requested}


def proposals(
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    env: Environment,
    plan: InstallPlan,
    new_rules: Iterable[str],
) -> Iterator[Proposal]:
    """Ways out, best first: pin's solver with everything installed kept; the same with the
    distributions the install replaces free to move; the nearest release of each requested
    package whose requirements the installed distributions meet (keep torch, take the vLLM
    release that pins it). The caller proves each with the resolver."""
    rules = set(new_rules)
    yield _solve(fact_options, knowledge, env, plan, frozenset(env.packages), rules)
    replaced = {r.name for r in plan.install if r.name in env.packages}
    if replaced:
        yield _solve(
            fact_options, knowledge, env, plan, frozenset(set(env.packages) - replaced), rules
        )
        yield nearest_living(env, plan, rules)


def nearest_living(
    env: Environment, plan: InstallPlan, rules: set[str], limit: int = 40
) -> Proposal:
    """For each requested package, its newest release (of the `limit` newest on the index)
    whose Requires-Dist the installed versions of what the install would replace all meet."""
    from packaging.requirements import Requirement

    from compat.resolve.sources.index import IndexClient, allows_python
    from compat.resolve.sources.indexconfig import resolve_index_config

    replaced = {r.name for r in plan.install if r.name in env.packages}
    markers = {**(env.markers or {}), "extra": ""}
    lines, outside = [], []
    config = resolve_index_config(index_url=None, extra_index_urls=())
    with IndexClient(config, offline=False, timeout=15.0) as client:
        for release in (r for r in plan.install if r.requested and r.name not in env.packages):
            seen: set[Version] = set()
            found, conflict = None, ""
            ordered = sorted(client.candidates(release.name), key=lambda c: c.version, reverse=True)
            for candidate in ordered:
                version = candidate.version
                if version in seen or candidate.yanked is not None or version.is_prerelease:
                    continue
                if not allows_python(candidate, env.python_version) or len(seen) >= limit:
                    continue
                seen.add(version)
                clash = _clash(client.requires_dist(candidate), env, replaced, markers)
                if not clash:
                    found = version
                    break
                conflict = conflict or f"{release.display_name} {version} requires {clash}"
            if found is None:
                why = (
                    f"no release of {release.display_name} on the index ({len(seen)} read) lives "
                    "with what is installed"
                    + (f" ({conflict})" if conflict else "")
                    + f", and replacing that introduces {', '.join(sorted(rules))}"
                )
                return Proposal((), (), (why,))
            lines.append(f"{release.display_name}=={found}")
            request = _request_for(plan, release.name)
            if request is not None and not Requirement(request).specifier.contains(found, True):
                outside.append(
                    f"{request}: every release it allows introduces {', '.join(sorted(rules))} "
                    f"here; the nearest release that does not is {release.display_name} {found}"
                )
    keep = [f"{env.packages[n].label}=={env.packages[n].version}" for n in sorted(replaced)]
    return Proposal(tuple(lines), tuple(keep), (), tuple(outside))


def _clash(
    requires: Sequence[str],
    env: Environment,
    replaced: set[NormalizedName],
    markers: dict[str, str],
) -> str:
    """The first requirement the installed version of a replaced distribution does not meet
    (`torch==2.8.0`); empty when the release lives with every one of them."""
    from packaging.requirements import InvalidRequirement, Requirement

    for line in requires:
        try:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate(markers):
                continue
        except (InvalidRequirement, ValueError, KeyError):
            continue
        name = canonicalize_name(requirement.name)
        if name in replaced and not requirement.specifier.contains(
            env.packages[name].version, prereleases=True
        ):
            installed = env.packages[name]
            return (
                f"{requirement.name}{requirement.specifier}; installed: "
                f"{installed.label} {installed.version}"
            )
    return ""


def _request_for(plan: InstallPlan, name: NormalizedName) -> str | None:
    from packaging.requirements import Requirement

    for text in plan.requested:
        if text.startswith("-r ") or is_location(text):
            continue
        if canonicalize_name(Requirement(text).name) == name:
            return text
    return None


def _solve(
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    env: Environment,
    plan: InstallPlan,
    kept: frozenset[str],
    rules: set[str],
) -> Proposal:
    from compat.resolve.pin.candidates import IndexCandidates
    from compat.resolve.pin.maxsat import plan_pins
    from compat.resolve.pin.solver import Intent
    from compat.resolve.sources.index import IndexClient
    from compat.resolve.sources.indexconfig import resolve_index_config

    kb = load_knowledge_base(knowledge)
    hardware, _ = read_hardware(fact_options)
    usage = read_usage(fact_options)
    start = _with_additions(env, plan)
    installed = {name: p.version for name, p in start.packages.items()}
    config = resolve_index_config(index_url=None, extra_index_urls=())
    with IndexClient(config, offline=False, timeout=15.0) as client:
        source = IndexCandidates(client, env.python_version, installed, kb, False)
        _offer_builds(source, hardware)
        pins = plan_pins(
            kb,
            environment_facts(start, hardware, usage, with_nvcc=False),
            source,
            avoid={Status.AFFECTED},
            # What stays installed binds the choice; the added releases' own requirements are
            # read for the release chosen (the resolver's pick is a start, not a bond).
            installed_requires={n: p.requires for n, p in env.packages.items()},
            marker_env=env.markers or None,
            intent=Intent(kept=frozenset(NormalizedName(n) for n in kept)),
        )
    chosen = {pin.name: pin for pin in pins.pins}
    added = [r for r in plan.install if r.name not in env.packages]
    lines = [
        f"{r.display_name}=={chosen[r.name].version if r.name in chosen else r.version}"
        for r in added
        if r.requested or (r.name in chosen and chosen[r.name].changed)
    ]
    # Keeping everything, the installed distributions stay as they are (pin would also escape
    # findings that were there before, e.g. by another CUDA build: not this question); freed,
    # those the install replaces may move, to releases the configured index serves.
    moved = [
        p
        for p in pins.pins
        if p.name in env.packages and p.name not in kept and p.changed and not p.version.local
    ]
    lines += [f"{p.display_name or p.name}=={p.version}" for p in moved]
    keep = [
        f"{env.packages[r.name].label}=={env.packages[r.name].version}"
        for r in plan.install
        if r.name in env.packages and r.name not in {p.name for p in moved}
    ]
    builds = tuple(
        _build(p.display_name or p.name, p.version, hardware)
        for p in pins.pins
        if p.name in env.packages and p.name not in kept and p.changed and p.version.local
    )
    unresolved = tuple(f"{u.rule.id}: {u.why}" for u in pins.unresolved if u.rule.id in rules)
    unresolved += _rocm_gaps(source, plan, hardware, rules)
    outside = _outside_request(plan, {name: pin.version for name, pin in chosen.items()}, rules)
    return Proposal(tuple(lines), tuple(keep), unresolved, outside, builds)


def _offer_builds(source: Any, hardware: Any) -> None:
    """Another build of torch is a candidate only for visible GPUs; as pin does
    (compat.resolve.pin.planner), where every GPU is AMD's its ROCm builds are (no CUDA build
    runs there), judged by the GPUs' targets in compat/data/torch-rocm-arch.json: a release
    without a row offers none."""
    source.cuda_builds = hardware is not None and bool(hardware.gpus)
    source.rocm_builds = source.cuda_builds and all(g.is_amd for g in hardware.gpus)


def _build(name: str, version: Version, hardware: Any) -> str:
    """ "the ROCm build torch==2.4.0+rocm6.1 from https://download.pytorch.org/whl/rocm6.1
    (...)": the index that serves the build is named by its local label (PyTorch's layout)."""
    from compat.kb import torchrocm

    where = f"{name}=={version} from https://download.pytorch.org/whl/{version.local}"
    if torchrocm.label(version) is None:
        return f"the driver-compatible build {where}"
    from compat.binary.gfxtarget import runs

    row = torchrocm.build_of(version)
    gpus = (
        {(g.gfx_target, g.gfx_features) for g in hardware.gpus if g.gfx_target}
        if hardware
        else set()
    )
    served = sorted(
        {
            t
            for t, f in gpus
            if row is not None and any(runs(c, t, f) is not False for c in row.targets)
        }
    )
    carried = f"it carries code for {' '.join(served)}, " if served else ""
    source = f"; PYTORCH_ROCM_ARCH, {row.source}" if row is not None else ""
    return (
        f"the ROCm build {where} ({carried}compat/data/torch-rocm-arch.json{source}; "
        "its wheel carries its own ROCm libraries)"
    )


def _rocm_gaps(source: Any, plan: InstallPlan, hardware: Any, rules: set[str]) -> tuple[str, ...]:
    """Why the solver offered no ROCm build of the torch the install brings (no row for its
    release in compat's table, or no build of it with the GPUs' targets): the fact missing,
    said where the install's own torch is not itself a ROCm build."""
    from compat.kb import torchrocm

    if not source.rocm_builds or "torch-cuda-build-on-amd-gpu" not in rules:
        return ()
    out = []
    for release in plan.install:
        if release.name != "torch" or torchrocm.label(release.version) is not None:
            continue
        said = source.build_note(release.name, release.version, hardware)
        if said:
            out.append(f"torch-cuda-build-on-amd-gpu: no ROCm build of torch is offered: {said}")
    return tuple(out)


def _outside_request(
    plan: InstallPlan, chosen: dict[NormalizedName, Version], rules: set[str]
) -> tuple[str, ...]:
    """A release the solver chose that the request itself rules out (`vllm>=0.10` and only
    0.6.6 fits): no release the request allows lives in this environment."""
    from packaging.requirements import Requirement

    out = []
    for text in plan.requested:
        if text.startswith("-r ") or is_location(text):
            continue
        requirement = Requirement(text)
        version = chosen.get(canonicalize_name(requirement.name))
        if version is not None and not requirement.specifier.contains(version, prereleases=True):
            out.append(
                f"{text}: every release it allows introduces {', '.join(sorted(rules))} "
                f"here; the nearest release that does not is {requirement.name} {version}"
            )
    return tuple(out)


def _with_additions(env: Environment, plan: InstallPlan) -> Environment:
    """The environment as it is, plus the distributions the install adds (not those it
    replaces): where the solver starts."""
    packages = dict(env.packages)
    for release in plan.install:
        if release.name not in packages:
            packages[release.name] = Package(
                release.name, release.version, release.display_name, requires=release.requires
            )
    return replace(env, packages=packages)
