"""One pin problem: the rules, the machine, the usage, the candidate source and what the user said
(`Intent`). `Planner.plan` makes the plan for an environment (compat.resolve.pin.maxsat); the proof
(compat.resolve.pin.proof) plans again from what the real resolver picked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.kb.knowledge import KnowledgeBase
from compat.model import Environment, Facts, Hardware, Status, UsageFact
from compat.resolve.pin.candidates import IndexCandidates, declared_bounds
from compat.resolve.pin.maxsat import plan_pins
from compat.resolve.pin.pinresult import Declarations
from compat.resolve.pin.solver import Intent, PinPlan, guarded_names


@dataclass
class Planner:
    kb: KnowledgeBase
    hardware: Hardware | None
    usage: Mapping[str, UsageFact]
    source: IndexCandidates
    avoid: set[Status]
    with_nvcc: bool  # the toolkit on this machine is a fact of the environment pinned
    from_requirements: bool  # -r files: no installed Requires-Dist to honour
    intent: Intent = field(default_factory=Intent)
    rocm_index: Version | None = None  # -r files route torch to a PyTorch ROCm index
    xformers_rocm: Version | None = None  # -r files route xformers to one alone

    _last: tuple[Environment, Facts] | None = None  # the intent's facts, reused by the first plan

    def facts(self, env: Environment) -> Facts:
        """The facts of one environment the plan weighs: what the environment says
        (compat.facts.gather.installed_facts), on this machine, for this usage. The hardware and
        the usage were read once, before the planner was made; they are added here, not handed
        back down with every environment."""
        from compat.facts.gather import installed_facts

        if self._last is not None and self._last[0] is env:
            return self._last[1]
        facts = replace(
            installed_facts(env, with_nvcc=self.with_nvcc),
            hardware=self.hardware,
            usage=dict(self.usage),
        )
        torch = env.packages.get(NormalizedName("torch"))
        if self.rocm_index is not None and torch is not None and not torch.version.local:
            # the files' ROCm index serves torch: its +rocm build, not PyPI's CUDA default
            builds = {
                k: v for k, v in facts.builds.items() if k not in ("torch_cuda", "cuda_runtime")
            }
            facts = replace(facts, builds={**builds, "torch_rocm": self.rocm_index})
        xformers = env.packages.get(NormalizedName("xformers"))
        if self.xformers_rocm is not None and xformers is not None:
            # xformers' ROCm wheels carry no label: the files' index alone names the build
            facts = replace(facts, builds={**facts.builds, "xformers_rocm": self.xformers_rocm})
        self._last = (env, facts)
        return facts

    def plan(self, env: Environment, labels: Mapping[NormalizedName, str]) -> PinPlan:
        source = self.source
        source.installed = {name: p.version for name, p in env.packages.items()}
        source.prefetch(sorted(guarded_names(self.kb, source.installed)))
        return plan_pins(
            self.kb,
            self.facts(env),
            source,
            avoid=self.avoid,
            installed_requires={n: p.requires for n, p in env.packages.items()}
            if not self.from_requirements
            else {},
            marker_env=env.markers or None,
            intent=replace(self.intent, start=labels),
        )


def make_planner(
    kb: KnowledgeBase,
    env: Environment,
    usage: Mapping[str, UsageFact],
    hardware: Hardware | None,
    declarations: Declarations | None,
    *,
    client: Any,
    offline: bool,
    keep: Sequence[str],
    avoid_possible: bool,
    cuda_builds: bool = True,
) -> Planner:
    """The problem for `env`: candidates from `client` (or offline sources), the user's intent
    (kept pins, the floors the stated usage needs, where each version came from)."""
    from compat.kb.capabilities import floors, load_capabilities
    from compat.names import canonicalize_name

    capabilities = load_capabilities(kb.files)
    installed = {name: package.version for name, package in env.packages.items()}
    source = IndexCandidates(
        client, env.python_version, installed, kb, offline, env.markers or None
    )
    # Another CUDA build is worth choosing only for visible GPUs, and only to escape an
    # affected finding (plan_pins): a guess at an unknown driver is no reason to switch.
    source.cuda_builds = cuda_builds and hardware is not None and bool(hardware.gpus)
    # On a machine whose GPUs are all AMD's, torch's ROCm builds are the ones that can run
    # (uv's --torch-backend=auto does the same from its own table; compat judges each build by
    # compat/data/torch-rocm-arch.json: the targets it carries, the indexes that serve it).
    source.rocm_builds = source.cuda_builds and all(
        g.is_amd for g in (hardware.gpus if hardware is not None else ())
    )
    if declarations is not None:
        source.bounds = declared_bounds(
            declarations.lines, declarations.pinned, env.markers or None
        )
    planner = Planner(
        kb,
        hardware,
        usage,
        source,
        avoid={Status.AFFECTED, Status.POSSIBLE} if avoid_possible else {Status.AFFECTED},
        # The toolkit on this machine says nothing about requirement files meant for another.
        with_nvcc=kb.mentions("build", "nvcc") and declarations is None,
        from_requirements=declarations is not None,
        rocm_index=declarations.rocm_index if declarations is not None else None,
        xformers_rocm=declarations.xformers_rocm if declarations is not None else None,
    )
    kept = {NormalizedName(canonicalize_name(name)) for name in keep}
    start: dict[NormalizedName, str] = {}
    if declarations is not None:
        kept |= declarations.pinned
        start = {
            name: "pinned" if name in declarations.pinned else "assumed" for name in env.packages
        }
    needed = floors(capabilities, planner.facts(env))
    planner.intent = Intent(
        kept=frozenset(kept),
        floors={name: (floor.version, floor.capability.feature) for name, floor in needed.items()},
        start=start,
    )
    return planner
