"""pin's results: the plan with what it was made from (`PinResult`), what the real resolver said
about it (`Proof`) and what -r files declare (`Declarations`). Below commands/ and formats/, so
both read them without a circle."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.kb.knowledge import KnowledgeBase
from compat.model import Environment, Hardware, Status
from compat.resolve.pin.solver import PinPlan
from compat.resolve.target import TargetOptions

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
    hardware_text: str = ""  # what the constraints header says of the hardware
    # The names the environment held before the proof's resolve: `env` is the environment as the
    # resolver installs it, which may bring in packages that are not installed (torch's CUDA
    # libraries for a lone deepspeed). None: every package in `env` was there before.
    before_proof: frozenset[str] | None = None

    def exit_code(self) -> int:
        """1 when an `affected` rule could not be escaped or the resolver refused the
        constraints; `possible` ones are best effort."""
        if self.proof is not None and self.proof.status == "failed":
            return 1
        if any(u.status is Status.AFFECTED for u in self.plan.unresolved):
            return 1
        # The real resolver could not run: judged offline only, not a clean answer (exit 3).
        return 3 if self.proof is not None and self.proof.not_made else 0


@dataclass(frozen=True)
class PinSettings:
    """pin's own choices (per-command settings: the shared option groups stay apart)."""

    requirements: Sequence[Path] = ()  # -r: pin what files declare instead of an environment
    freeze: bool = False
    avoid_possible: bool = True
    keep: Sequence[str] = ()
    verify: bool = True
    resolver: str = "auto"
    # check --fix: the target check judged for (its Python, its platform); pin: this interpreter.
    target: TargetOptions | None = None


@dataclass(frozen=True)
class Proof:
    """What the real resolver said about the constraints, with the user's requirements."""

    status: str  # "proven", "failed", "skipped"
    detail: str  # the tool and what it resolved, the resolver's message, or why it was skipped
    resolved: Mapping[NormalizedName, Version] = field(default_factory=dict)
    requirements: tuple[str, ...] = ()
    not_made: str = ""  # why the real resolver could not make the proof (judged offline instead)


@dataclass(frozen=True)
class Declarations:
    """What -r files say, for the intent and the proof: exact pins and the requirement lines."""

    pinned: frozenset[NormalizedName]
    lines: tuple[tuple[NormalizedName, str, str], ...]  # (name, requirement text, origin)
    # a PyTorch ROCm index line of the files (download.pytorch.org/whl/rocm6.2.4 -> 6.2): the
    # +rocm build it serves outranks PyPI's plain torch, so torch's build is ROCm's
    rocm_index: Version | None = None
    # the PyTorch ROCm index xformers comes from alone (its ROCm wheels carry no label: the
    # index is the build fact, compat.resolve.check.declared.xformers_rocm_index)
    xformers_rocm: Version | None = None
