"""A fix with a constraint for the rules about torch's CUDA build against the machine (the driver
rules of cuda.yaml): which torch builds leave the rule, read from the build table.

Those rules name no package version, so their written fix can only say "a CUDA 12 build". For a
torch that is exact (installed, pinned, locked), this finds, with the rule's own conditions
re-evaluated for each candidate build:

* the same release's other CUDA builds (compat/data/torch-builds.json `variants`), the one
  with the oldest CUDA that leaves the rule: `torch==2.11.0+cu126` from its index;
  never a CUDA major newer than the driver's (that trades this rule for the driver rule);
* for a torch from PyPI (no local label), the releases whose PyPI build leaves the rule: when
  every release below some release X does and X up to the installed one does not, the
  constraint `torch<X` (`torch<2.11` on an R535 driver).

The constraint is the same-release build when there is one (the smallest change: `compat pin`
keeps the release), else `torch<X`; the summary names both.

A rule whose condition tree (anywhere) names a package version, a derived table or a prebuilt
condition is left alone: swapping torch's build would not be the whole story there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from compat.kb.conditions import All, AnyOf, BuildCondition, PackageVersion
from compat.kb.derived import DerivedCondition
from compat.kb.sourcebuild import Prebuilt
from compat.model import Condition, Facts, Fix, Tri, Verdict

if TYPE_CHECKING:
    from packaging.version import Version

# The build facts a torch swap replaces: torch's own, and the CUDA runtime it brings.
_SWAPPED = ("torch_cuda", "cuda_runtime")


@dataclass(frozen=True)
class EscapableAll(All):
    """All of `parts`; when they hold for an exact torch, the verdict carries the builds of torch
    that leave the rule (as the table-driven rules' findings do)."""

    rule_fix: Fix | None = None

    def evaluate(self, facts: Facts) -> Verdict:
        verdict = super().evaluate(facts)
        if verdict.value is not Tri.TRUE or verdict.fix is not None:
            return verdict
        if self.rule_fix is None:
            return verdict
        fix = escape(All(self.parts), facts, self.rule_fix)
        return verdict if fix is None else verdict._replace(fix=fix)


def wrap(when: Condition, fix: Fix) -> Condition:
    """`when` as an EscapableAll when the rule qualifies (see the module text), else itself."""
    if fix.constraints or not _qualifies(when):
        return when
    parts = when.parts if type(when) is All else (when,)
    return EscapableAll(tuple(parts), fix)


def _walk(condition: Condition) -> Iterator[Condition]:
    yield condition
    if isinstance(condition, All | AnyOf):
        for part in condition.parts:
            yield from _walk(part)


def _qualifies(when: Condition) -> bool:
    nodes = list(_walk(when))
    if not any(isinstance(n, BuildCondition) and n.key == "torch_cuda" for n in nodes):
        return False
    for node in nodes:
        if isinstance(node, PackageVersion | DerivedCondition | Prebuilt):
            return False
        if isinstance(node, BuildCondition) and node.key not in _SWAPPED:
            return False
    return True


def _platform(facts: Facts) -> str:
    from compat.kb.torchbuilds import DEFAULT_PLATFORM

    markers = facts.markers or {}
    system, machine = markers.get("sys_platform"), markers.get("platform_machine")
    return f"{system}/{machine}" if system and machine else DEFAULT_PLATFORM


def escape(condition: Condition, facts: Facts, rule_fix: Fix) -> Fix | None:
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    from compat.kb import torchbuilds

    torch = facts.packages.get(canonicalize_name("torch"))
    if torch is None or not torch.exact:
        return None
    installed = torch.versions[0]
    release = Version(Version(installed.public).base_version)
    if not torchbuilds.known_release(release) or installed.is_prerelease:
        return None
    platform = _platform(facts)

    driver = facts.hardware.cuda_driver_version if facts.hardware is not None else None

    def leaves(cuda: Version | None) -> bool:
        if cuda is None:
            return False  # a CPU build leaves every CUDA rule, and is no fix on a GPU host
        if driver is not None and cuda.major > driver.major:
            return False  # a newer CUDA major than the driver's: another rule's failure
        builds = {k: v for k, v in facts.builds.items() if k not in _SWAPPED}
        builds["torch_cuda"] = cuda
        if "cuda_runtime" in facts.builds:
            builds["cuda_runtime"] = cuda
        return condition.evaluate(replace(facts, builds=builds)).value is Tri.FALSE

    current = facts.builds.get("torch_cuda")
    others = [
        c
        for c in (torchbuilds.cuda_variants(release) or ())
        if (current is None or c.release[:2] != current.release[:2]) and leaves(c)
    ]
    # The oldest CUDA that leaves the rule: the nearest to an old driver (what pin picks too).
    variant = min(others) if others else None
    bound = None if installed.local else _release_bound(release, platform, leaves)
    if variant is None and bound is None:
        return None
    tag = torchbuilds.cuda_tag(variant) if variant is not None else ""
    pin = f"torch=={release}+{tag}" if variant is not None else ""
    ways = []
    if bound is not None:
        below, last = bound
        cuda = torchbuilds.default_cuda(last, platform)
        ways.append(f"{below} (torch {last} from PyPI is the CUDA {cuda} build)")
    if variant is not None:
        ways.append(f"torch {release}'s CUDA {variant} build ({pin})")
    summary = f"{rule_fix.summary}; for torch {installed}: {', or '.join(ways)}"
    change = (
        f'pip install "{pin}" --index-url {torchbuilds.index_url(variant)}'
        if variant is not None
        else rule_fix.change
    )
    # The same release's other build first: the smallest change (pin keeps the release).
    constraints = (pin,) if variant is not None else (bound[0],) if bound is not None else ()
    return Fix(summary, constraints, change)


def _release_bound(
    release: Version, platform: str, leaves: Callable[[Version | None], bool]
) -> tuple[str, Version] | None:
    """(`torch<X`, the newest release below X) when every release below X (by its PyPI build on
    `platform`) leaves the rule and none from X up to `release` does; None otherwise."""
    from compat.kb import torchbuilds

    ordered = [r for r in torchbuilds.releases() if r <= release]
    first_bad = None
    for position in range(len(ordered) - 1, -1, -1):
        candidate = ordered[position]
        if leaves(torchbuilds.default_cuda(candidate, platform)):
            below = ordered[: position + 1]
            if not all(leaves(torchbuilds.default_cuda(r, platform)) for r in below):
                return None
            if first_bad is None:
                return None  # the installed release itself leaves the rule
            x = f"{first_bad.major}.{first_bad.minor}" if first_bad.micro == 0 else str(first_bad)
            return f"torch<{x}", candidate
        first_bad = candidate
    return None
