"""A fix with a constraint for the rules about torch's CUDA build against the machine (the driver
rules of cuda.yaml): which torch builds leave the rule, read from the build table.

Those rules name no package version, so their written fix can only say "a CUDA 12 build". For a
torch that is exact (installed, pinned, locked), this finds, with the rule's own conditions
re-evaluated for each candidate build (compat/data/torch-builds.json: each release's PyPI build
and its CUDA indexes), the nearest build at or below the installed release that leaves the rule:
the same release's other builds first, then older releases', each release's oldest CUDA first
(the nearest to an old driver), never a CUDA major newer than the driver's (that trades this
rule for a driver rule) nor a build the kernel table says has no code for a visible GPU. That
build is the constraint (`torch==2.11.0+cu126` on an R535 driver). For a torch from PyPI the
summary also gives the release bound when there is one: every release below X leaves the rule
and none from X up does (`torch<2.11`).

A rule whose condition tree (anywhere) names a package version, a derived table or a prebuilt
condition is left alone: swapping torch's build would not be the whole story there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from compat.kb.conditions import All, AnyOf, BuildCondition, PackageVersion
from compat.kb.derived import DerivedCondition
from compat.kb.sourcebuild import Prebuilt
from compat.model import Condition, Facts, Fix, Tri, Verdict

if TYPE_CHECKING:
    from packaging.version import Version

# The build facts a torch swap replaces: torch's own, and the CUDA runtime it brings.
_SWAPPED = ("torch_cuda", "cuda_runtime")


class EscapableAll(All):
    """All of `parts`; when they hold for an exact torch, the verdict carries the builds of torch
    that leave the rule (as the table-driven rules' findings do)."""

    rule_fix: Fix | None
    __slots__ = ("rule_fix",)

    def __init__(self, parts: tuple[Condition, ...], rule_fix: Fix | None = None) -> None:
        self._set(parts=parts, rule_fix=rule_fix)

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
    hardware = facts.hardware
    driver = hardware.process_cuda_version if hardware is not None else None
    capabilities = [g.compute_capability for g in (hardware.gpus if hardware else ())]

    def leaves_rule(candidate: Version, cuda: Version | None) -> bool:
        if cuda is None:
            return False  # a CPU build leaves every CUDA rule, and is no fix on a GPU host
        if driver is not None and cuda.major > driver.major:
            return False  # a newer CUDA major than the driver's: another rule's failure
        builds = {k: v for k, v in facts.builds.items() if k not in _SWAPPED}
        builds["torch_cuda"] = cuda
        if "cuda_runtime" in facts.builds:
            builds["cuda_runtime"] = cuda
        return condition.evaluate(replace(facts, builds=builds)).value is Tri.FALSE

    def leaves(candidate: Version, cuda: Version | None) -> bool:
        # ...and runs on the GPUs: never trade this rule for torch-no-kernel-image-for-gpu
        return (
            leaves_rule(candidate, cuda)
            and cuda is not None
            and _has_kernels(candidate, cuda, capabilities, driver)
        )

    current = facts.builds.get("torch_cuda")
    pick = _nearest(release, current, platform, leaves)
    if pick is None:
        return None
    found, cuda = pick
    pin = f"torch=={found}+{torchbuilds.cuda_tag(cuda)}"
    ways = []
    bound = None if installed.local else _release_bound(release, platform, leaves_rule)
    if bound is not None:
        below, last = bound
        default = torchbuilds.default_cuda(last, platform)
        ways.append(f"{below} (torch {last} from PyPI is the CUDA {default} build)")
    if found == release:
        ways.append(f"torch {release}'s CUDA {cuda} build ({pin})")
    else:
        ways.append(f"torch {found}'s CUDA {cuda} build ({pin}), the nearest release with one")
    summary = f"{rule_fix.summary}; for torch {installed}: {', or '.join(ways)}"
    change = f'pip install "{pin}" --index-url {torchbuilds.index_url(cuda)}'
    return Fix(summary, (pin,), change)


Leaves = Callable[["Version", "Version | None"], bool]


def _nearest(
    release: Version, current: Version | None, platform: str, leaves: Leaves
) -> tuple[Version, Version] | None:
    """(release, CUDA) of the nearest build at or below `release` that leaves the rule: the
    same release's other builds first, then older releases' (their PyPI build and indexes), each
    release's oldest CUDA first (the nearest to an old driver; what pin picks too)."""
    from compat.kb import torchbuilds

    for candidate in sorted((r for r in torchbuilds.releases() if r <= release), reverse=True):
        builds = set(torchbuilds.cuda_variants(candidate) or ())
        default = torchbuilds.default_cuda(candidate, platform)
        if default is not None:
            builds.add(default)
        if candidate == release and current is not None:
            builds = {b for b in builds if b.release[:2] != current.release[:2]}
        leaving = sorted(b for b in builds if leaves(candidate, b))
        if leaving:
            return candidate, leaving[0]
    return None


def _has_kernels(
    release: Version,
    cuda: Version,
    capabilities: Sequence[Version | None],
    driver: Version | None,
) -> bool:
    """False where a GPU finds nothing in the build, or the kernel table does not know the
    build and there is a GPU to serve: a fix names only a build it knows runs there (torch
    1.0-1.7 and the +cu129 builds of 2.9-2.11 have no row; a CUDA 9.2 build has no sm_80)."""
    from compat.kb import archtable

    arches = archtable.arch_list(release, cuda)
    if arches is None:
        return not any(capabilities)
    return all(archtable.runs(arches, cc, cuda, driver) is not False for cc in capabilities if cc)


def _release_bound(release: Version, platform: str, leaves: Leaves) -> tuple[str, Version] | None:
    """(`torch<X`, the newest release below X) when every release below X (by its PyPI build on
    `platform`) leaves the rule and none from X up to `release` does; None otherwise."""
    from compat.kb import torchbuilds

    ordered = [r for r in torchbuilds.releases() if r <= release]
    first_bad = None
    for position in range(len(ordered) - 1, -1, -1):
        candidate = ordered[position]
        if leaves(candidate, torchbuilds.default_cuda(candidate, platform)):
            below = ordered[: position + 1]
            if not all(leaves(r, torchbuilds.default_cuda(r, platform)) for r in below):
                return None
            if first_bad is None:
                return None  # the installed release itself leaves the rule
            x = f"{first_bad.major}.{first_bad.minor}" if first_bad.micro == 0 else str(first_bad)
            return f"torch<{x}", candidate
        first_bad = candidate
    return None
