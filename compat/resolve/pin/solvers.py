"""What proves pin's plan: the real resolver online (pip or uv), and offline the solve `compat
check` makes over the dependency snapshot (compat.resolve.check.offline) — one solver for both
commands offline. Either takes the user's requirement lines and the plan's constraint lines and
returns the install, or raises ResolutionFailed naming the conflict; the offline one also says
what the snapshot could not decide (`undecided`), so a proof resting on it is never "proven"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from packaging.requirements import InvalidRequirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.errors import IndexAccessError
from compat.resolve.resolvers.resolver import Resolution, ResolutionFailed, Target
from compat.resolve.sources.indexconfig import IndexOptions
from compat.versions import parse_requirement

if TYPE_CHECKING:
    from compat.resolve.check.offline import Wanted


class Undecided(Exception):
    """The solve could not say whether the plan installs (a count of work ran out): no proof
    either way. The message says why, in one line."""


class Solver(Protocol):
    @property
    def pytorch_index(self) -> str:
        """Where a chosen torch CUDA build comes from (the constraint lines name it)."""
        ...

    def __call__(self, requirements: Sequence[str], constraints: Sequence[str]) -> Resolution:
        """The install of `requirements` under `constraints`; ResolutionFailed when none."""
        ...

    def undecided(self) -> tuple[str, ...]:
        """What the last solve could not decide (empty: it read whole metadata)."""
        ...


@dataclass(frozen=True)
class ToolSolver:
    """The real resolver (pip or uv) for the target's Python: online pin's proof."""

    index_options: IndexOptions
    tool: str
    target: Target
    pytorch_index: str = ""

    def __call__(self, requirements: Sequence[str], constraints: Sequence[str]) -> Resolution:
        # ResolveNotMade (the tool failed, not the constraints) goes up: the plan is judged against
        # the offline solve instead (compat.resolve.pin.proof.plan_and_prove; exit 3).
        from compat.resolve.resolvers.resolver import resolve

        try:
            return resolve(
                requirements, constraints, target=self.target, index=self.index_options,
                tool=self.tool,
            )  # fmt: skip
        except IndexAccessError as error:
            # One line: which index, why, and how to go on without the proof.
            raise IndexAccessError(
                f"the proof failed: {error.message}",
                hint="--no-verify writes the constraints without the proof",
            ) from None

    def undecided(self) -> tuple[str, ...]:
        return ()


@dataclass
class SnapshotSolver:
    """Offline pin's proof: check's offline solve (resolvelib over the dependency snapshot, the
    newest release first as pip does) of the requirement and constraint lines."""

    python: Version
    markers: Mapping[str, str]
    pytorch_index: str = ""
    missing: tuple[str, ...] = field(default=())

    @property
    def label(self) -> str:
        from compat.resolve.check.offline import label

        return label()

    def __call__(self, requirements: Sequence[str], constraints: Sequence[str]) -> Resolution:
        from compat.resolve.check.offline import NoOfflineInstall, SolveStopped, solve

        wanted = [*self._wanted(requirements, False), *self._wanted(constraints, True)]
        # A torch build from PyTorch's per-CUDA index requires its own CUDA libraries, not the
        # ones PyPI's build declares (the constraints name that index).
        rebuilt = frozenset(
            [canonicalize_name("torch")] if any(line.startswith("--") for line in constraints)
            else []
        )  # fmt: skip
        # A ROCm build (`--extra-index-url .../rocm6.1`) requires neither CUDA libraries nor
        # triton (pytorch-triton-rocm comes from that index, at the build's own version).
        rocm = frozenset(
            [canonicalize_name("torch")]
            if any(
                line.startswith("--") and line.rstrip("/").rsplit("/", 1)[-1].startswith("rocm")
                for line in constraints
            )
            else []
        )
        try:
            solved = solve(wanted, self.python, self.markers, rebuilt=rebuilt, rocm_built=rocm)
        except SolveStopped as error:
            raise Undecided(f"not proven offline: {error}") from None
        except NoOfflineInstall as error:
            raise ResolutionFailed(str(error), self.label) from None
        self.missing = solved.missing
        packages = dict(solved.packages)
        for name, build in self._builds(constraints).items():
            # The build a local-label pin chose is the one the install takes from its index.
            if packages.get(name) == Version(build.public):
                packages[name] = build
        return Resolution(packages, self.label)

    def undecided(self) -> tuple[str, ...]:
        return self.missing

    @staticmethod
    def _builds(lines: Sequence[str]) -> dict[NormalizedName, Version]:
        """The builds local-label pins name (`torch==2.8.0+cu126`)."""
        out: dict[NormalizedName, Version] = {}
        for line in lines:
            name, sep, version = line.partition("==")
            if sep and "+" in version and not line.startswith("-"):
                try:
                    out[canonicalize_name(name.strip())] = Version(version.split(";")[0].strip())
                except InvalidVersion:
                    continue
        return out

    def _wanted(self, lines: Sequence[str], constraint: bool) -> list[Wanted]:
        """Requirement lines as the offline solve's Wanted items: option lines and lines whose
        marker excludes the target left out, a local label (`torch==2.8.0+cu126`) read as its
        release (the snapshot lists releases, not one index's builds)."""
        from compat.resolve.check.offline import Wanted

        out: list[Wanted] = []
        for line in lines:
            if line.startswith("-") or not line.strip():
                continue
            try:
                requirement = parse_requirement(line)
            except InvalidRequirement:
                continue
            if requirement.marker is not None and not requirement.marker.evaluate(
                {**self.markers, "extra": ""}
            ):
                continue
            out.append(
                Wanted(
                    canonicalize_name(requirement.name),
                    _public(requirement.specifier),
                    frozenset(requirement.extras),
                    url=requirement.url is not None,
                    constraint=constraint,
                )
            )
        return out


def _public(specifier: SpecifierSet) -> SpecifierSet:
    """`==2.8.0+cu126` as `==2.8.0`: the release a local-label pin names."""
    clauses = []
    for clause in specifier:
        if clause.operator == "==" and "+" in clause.version:
            clauses.append(f"=={clause.version.split('+', 1)[0]}")
        else:
            clauses.append(str(clause))
    return SpecifierSet(",".join(clauses))
