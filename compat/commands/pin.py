"""`compat pin`: the environment's guarded packages, pinned to versions that avoid every rule.

Wires the pieces: environment and facts (as for doctor), candidate versions from the package index
(or, with `--offline`, from the cache, the installed versions and the versions the knowledge base
names), the search in `compat.resolve.pin.solver`, and the constraints text or JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from compat.errors import UncheckedError
from compat.facts.gather import (
    EnvOptions,
    FactOptions,
    read_environment,
    read_facts,
    read_usage,
)
from compat.kb.knowledge import KnowledgeChoice, load_knowledge_base
from compat.model import Hardware
from compat.resolve.pin.declaredenv import environment_from_requirements
from compat.resolve.pin.pinresult import ENV_NOTE, PinResult, PinSettings
from compat.resolve.pin.proof import plan_and_prove
from compat.resolve.sources.indexconfig import IndexOptions

DEFAULT_SETTINGS = PinSettings()


def run_pin(
    env_options: EnvOptions,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    index_options: IndexOptions,
    settings: PinSettings = DEFAULT_SETTINGS,
    progress: Callable[[str], None] | None = None,
    hardware_known: tuple[Hardware | None, str] | None = None,
) -> PinResult:
    """Pins for the environment, or (with -r files) for what requirement files declare.
    `hardware_known`: the hardware already read (check --fix passes check's own: a profile or
    `[tool.compat] hardware`), instead of reading or probing it again."""
    from compat.resolve.sources.index import IndexClient
    from compat.resolve.sources.indexconfig import resolve_index_config

    if hardware_known is None:
        usage, hardware, hardware_note = read_facts(fact_options)
    else:
        usage, (hardware, hardware_note) = read_usage(fact_options), hardware_known
    kb = load_knowledge_base(knowledge)
    config = resolve_index_config(
        index_url=index_options.index_url, extra_index_urls=tuple(index_options.extra_index_urls)
    )
    offline = index_options.offline
    with IndexClient(
        config, offline=offline, timeout=index_options.timeout, progress=progress
    ) as client:
        declarations = None
        if settings.requirements:
            env, declarations = environment_from_requirements(
                settings.requirements, kb, None if offline else client, settings.target
            )
        else:
            env = read_environment(env_options)
        if not env.packages:
            raise UncheckedError(f"no distributions found in {', '.join(env.paths) or env.source}")
        before_proof = frozenset(env.packages)
        plan, proof, env = plan_and_prove(
            kb, env, usage, hardware, declarations, client, index_options, settings
        )
    # Distributions that could not be read (an undecodable directory name, an invalid version)
    # are left out of the pins and said in the output, as doctor reports them: never the reason
    # to refuse writing the whole file.
    problems = tuple(f"{ENV_NOTE}{p.message}" for p in env.problems if p.kind != "duplicate")
    if problems:
        plan = replace(plan, notes=(*plan.notes, *problems))
    return PinResult(
        plan, env, kb, hardware, hardware_note, settings.freeze, offline, config.source,
        env.python_version, declarations, proof, index_options.pytorch_index,
        hardware_text=hardware_text(hardware, hardware_note), before_proof=before_proof,
    )  # fmt: skip


def hardware_text(hardware: Hardware | None, note: str) -> str:
    if hardware is None:
        return f"unknown ({note})"
    if not hardware.gpus:
        return f"no GPU ({note})"
    names = sorted({g.name for g in hardware.gpus})
    if all(g.is_amd for g in hardware.gpus):
        # an AMD machine: its targets, ROCm and amdgpu driver, not an NVIDIA driver it lacks
        names = sorted({f"{g.name} ({g.gfx_target or 'target unknown'})" for g in hardware.gpus})
        rocm = f", ROCm {hardware.rocm_version or 'unknown'}"
        amdgpu = f", amdgpu driver {hardware.amdgpu_driver_version or 'unknown'}"
        physical = hardware.extra.get("amd_physical_gpus")
        if isinstance(physical, int):  # compute partitions: each a device, of fewer GPUs
            amdgpu += f", compute partitions of {physical} GPUs"
        return f"{len(hardware.gpus)}x {', '.join(names)}{rocm}{amdgpu} ({note})"
    return f"{len(hardware.gpus)}x {', '.join(names)}, driver {hardware.driver_label} ({note})"
