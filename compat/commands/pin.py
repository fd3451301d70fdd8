"""`compat pin`: the environment's guarded packages, pinned to versions that avoid every rule.

Wires the pieces: environment and facts (as for doctor), candidate versions from the package index
(or, with `--offline`, from the cache, the installed versions and the versions the knowledge base
names), the search in `compat.resolve.solver`, and the constraints text or JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from packaging.utils import NormalizedName

from compat import __version__
from compat.errors import UncheckedError
from compat.facts.gather import (
    EnvOptions,
    FactOptions,
    environment_facts,
    read_environment,
    read_hardware,
    read_usage,
)
from compat.kb.knowledge import load_knowledge_base
from compat.model import Environment, Hardware, Status
from compat.resolve.candidates import IndexCandidates
from compat.resolve.constraints import constraint_entries
from compat.resolve.declaredenv import environment_from_requirements
from compat.resolve.indexconfig import IndexOptions
from compat.resolve.maxsat import plan_pins
from compat.resolve.pinresult import ENV_NOTE, PinResult, Proof
from compat.resolve.proof import canonicalize, prove, top_level
from compat.resolve.solver import PinPlan


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
        source = IndexCandidates(client, env.python_version, installed, kb, index_options.offline)
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


def _hardware_text(hardware: Hardware | None, note: str) -> str:
    if hardware is None:
        return f"unknown ({note})"
    if not hardware.gpus:
        return f"no GPU ({note})"
    names = sorted({g.name for g in hardware.gpus})
    return f"{len(hardware.gpus)}x {', '.join(names)}, driver {hardware.driver_label} ({note})"


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
