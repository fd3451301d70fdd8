"""Choosing versions that avoid every known-bad combination, jointly.

The search starts from the installed versions of the guarded packages (those the knowledge base
speaks of). While some rule still matches the assignment, it tries moves that take that rule's
packages out of it, best first: versions the rule's own fix recommends, then the fewest changed
packages, then the smallest move from the installed version. A move is only kept when the chosen
version's own requirements agree with every other pin (vLLM pins torch exactly) and every other
pinned or installed package still accepts it. The search is bounded; when no assignment escapes a
rule, the result says which rules could not be escaped and why.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from packaging.markers import InvalidMarker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.engine import evaluate, evaluate_rule, finding_order
from compat.kb.conditions import All, AnyOf, BuildCondition, PackageVersion
from compat.kb.knowledge import KnowledgeBase
from compat.model import Condition, Facts, Finding, PackageFact, Rule, Severity, Status, Tri

MAX_EXPANSIONS = 400  # assignments evaluated before settling for the least-bad one
MOVES_PER_RULE = 6  # escaping moves kept per finding, best first
TIME_BUDGET_S = 10.0
STALL_LIMIT = 40  # expansions without a better assignment before the search settles
JOINT_DEPTH = 2  # companions of companions: vllm -> transformers -> tokenizers


class CandidateSource(Protocol):
    """Where candidate versions and their dependency metadata come from (index, cache, offline)."""

    def versions(self, name: NormalizedName) -> list[Version]:
        """Installable versions, oldest first: no yanked ones, none excluded by Requires-Python."""
        ...

    def requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        """Requires-Dist of that release, or None when it cannot be known (offline, no metadata)."""
        ...


@dataclass(frozen=True)
class Pin:
    name: NormalizedName
    version: Version
    installed: Version | None  # where the search started: installed, the user's pin, or resolved
    reasons: tuple[str, ...]  # rule ids that guard or moved this package
    moved_by: tuple[str, ...] = ()  # rule ids this pin escapes (non-empty: a chosen version)
    display_name: str = ""
    start: str = "installed"  # "installed", "pinned" (the user's ==), "resolved", "assumed"
    companion: str = (
        ""  # why it moves with another pin ("vllm 0.7.2 requires transformers>=4.48.2")
    )
    floor: str = ""  # "trl>=0.14.0 (GRPOTrainer)" when a capability bounded the search

    @property
    def changed(self) -> bool:
        if self.installed is None or self.version.public != self.installed.public:
            return True
        # Another CUDA build of the same torch release is another wheel.
        return bool(self.version.local) and self.version.local != self.installed.local

    @property
    def build_change(self) -> bool:
        return (
            self.installed is not None
            and self.version.public == self.installed.public
            and self.changed
        )

    @property
    def action(self) -> str:
        """What the line does, in one word: upgrade, downgrade, kept or resolved."""
        if self.installed is not None and self.build_change:
            from compat.kb.torchbuilds import build_cuda

            new, old = build_cuda(self.version), build_cuda(self.installed)
            return "downgrade" if new is None or (old is not None and new < old) else "upgrade"
        if self.installed is not None and self.changed:
            return "upgrade" if self.version > self.installed else "downgrade"
        if self.installed is None or self.start == "resolved":
            return "resolved"
        return "kept"

    @property
    def moves_user_pin(self) -> bool:
        return self.start == "pinned" and self.changed


@dataclass(frozen=True)
class Unresolved:
    rule: Rule
    status: Status
    why: str


@dataclass(frozen=True)
class PinPlan:
    pins: tuple[Pin, ...]
    unresolved: tuple[Unresolved, ...]
    remaining: tuple[Finding, ...] = ()  # findings of the chosen set, for the report
    notes: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Intent:
    """What the user said: exact pins to keep, and the lowest release each stated usage needs."""

    kept: frozenset[NormalizedName] = frozenset()  # `==` in -r files, --keep
    floors: Mapping[NormalizedName, tuple[Version, str]] = field(default_factory=dict)
    start: Mapping[NormalizedName, str] = field(default_factory=dict)  # name -> Pin.start


def guarded_names(kb: KnowledgeBase, installed: Iterable[str]) -> dict[NormalizedName, list[str]]:
    """Installed packages that some rule speaks of, with the ids of those rules."""
    present = set(installed)
    guarded: dict[NormalizedName, list[str]] = {}
    for plain in kb.plain:
        for name in _rule_packages(plain["when"]):
            if name in present:
                guarded.setdefault(NormalizedName(name), []).append(plain["id"])
    return guarded


# A rule about torch's CUDA build is a rule about torch: moving torch (or its build) escapes it.
BUILD_PACKAGES = {"torch_cuda": "torch", "cuda_runtime": "torch"}


def _rule_packages(when: Mapping[str, Any]) -> set[str]:
    names: set[str] = set(when.get("packages", {}))
    names |= {BUILD_PACKAGES[key] for key in when.get("build", {}) if key in BUILD_PACKAGES}
    for branch in when.get("any", []):
        names |= _rule_packages(branch)
    return names


def _mentions_toolkit(condition: Condition) -> bool:
    if isinstance(condition, BuildCondition):
        return condition.key == "nvcc"
    if isinstance(condition, All | AnyOf):
        return any(_mentions_toolkit(part) for part in condition.parts)
    return False


def _mentions_build(condition: Condition) -> bool:
    if isinstance(condition, BuildCondition):
        return condition.key in BUILD_PACKAGES
    if isinstance(condition, All | AnyOf):
        return any(_mentions_build(part) for part in condition.parts)
    return False


def _condition_packages(condition: Condition) -> set[NormalizedName]:
    """The packages a compiled condition speaks of, torch for its CUDA build conditions."""
    if isinstance(condition, PackageVersion):
        return {condition.name}
    if isinstance(condition, BuildCondition):
        owner = BUILD_PACKAGES.get(condition.key)
        return {NormalizedName(owner)} if owner else set()
    if isinstance(condition, All | AnyOf):
        return set().union(*(_condition_packages(part) for part in condition.parts))
    return set()


def _with_versions(facts: Facts, assignment: Mapping[NormalizedName, Version]) -> Facts:
    packages = dict(facts.packages)
    changed = False
    for name, version in assignment.items():
        old = packages.get(name)
        if old is not None and old.versions == (version,):
            continue
        changed = True
        packages[name] = (
            old._replace(versions=(version,), commit=None)
            if old is not None
            else PackageFact(name, (version,))
        )
    if not changed:
        return facts
    builds = facts.builds
    torch = assignment.get(NormalizedName("torch"))
    old_torch = facts.packages.get(NormalizedName("torch"))
    if torch is not None and (old_torch is None or old_torch.versions != (torch,)):
        # Another torch is another build: its label, or the PyPI default for the target.
        from compat.kb.torchbuilds import build_cuda, known_release

        release = Version(".".join(str(part) for part in (*torch.release, 0, 0)[:3]))
        labelled = Version(f"{release}+{torch.local}") if torch.local else release
        if torch.local or known_release(release):
            builds = {
                k: v for k, v in facts.builds.items() if k not in ("torch_cuda", "cuda_runtime")
            }
            cuda = build_cuda(labelled, target_platform(facts.markers))
            if cuda is not None:
                builds["torch_cuda"] = cuda
        # A release the build table does not know keeps the old build fact: never an escape
        # through not knowing.
    return replace(facts, packages=packages, builds=builds)


TORCH_FAMILY = ("torch", "torchvision", "torchaudio")


def _cuda_label(name: str, version: Version) -> bool:
    """A torch-family version whose local label names a CUDA build (2.8.0+cu126)."""
    return name in TORCH_FAMILY and bool(version.local) and str(version.local).startswith("cu")


def target_platform(markers: Mapping[str, str] | None) -> str:
    """torchbuilds' platform key for a marker environment (Linux x86_64 when unknown)."""
    if not markers:
        return "linux/x86_64"
    system = markers.get("sys_platform", "linux")
    machine = markers.get("platform_machine", "x86_64")
    if system.startswith("linux"):
        return "linux/aarch64" if machine.lower() in ("aarch64", "arm64") else "linux/x86_64"
    return {"win32": "win32/AMD64", "darwin": "darwin/arm64"}.get(system, "linux/x86_64")


def _bad(findings: Sequence[Finding], avoid: set[Status]) -> list[Finding]:
    return [f for f in findings if f.status in avoid and f.rule.severity is not Severity.INFO]


@dataclass(order=True)
class _Node:
    # (user pins moved, moves off a rule's fix, packages changed, downgrades, release distance)
    cost: tuple[int, int, int, int, int]
    serial: int
    assignment: dict[NormalizedName, Version] = field(compare=False)
    moved: dict[NormalizedName, tuple[str, ...]] = field(compare=False)
    off_fix: frozenset[NormalizedName] = field(compare=False, default=frozenset())
    companions: dict[NormalizedName, str] = field(compare=False, default_factory=dict)


def plan_pins(
    kb: KnowledgeBase,
    facts: Facts,
    source: CandidateSource,
    *,
    avoid: set[Status] | None = None,
    installed_requires: Mapping[NormalizedName, Sequence[str]] | None = None,
    marker_env: Mapping[str, str] | None = None,
    intent: Intent | None = None,
    time_budget: float = TIME_BUDGET_S,
) -> PinPlan:
    """Choose one version per guarded package so that no rule in `avoid` status matches.

    Best first over moves: a user's exact pin moves only when nothing else escapes an `affected`
    rule, a rule's own fix beats other escapes, fewer changes beat more, upgrades beat
    downgrades, near releases beat far ones. No package goes below what the stated usage needs
    (`intent.floors`); a move whose Requires-Dist needs a companion brings the companion along."""
    avoid = avoid or {Status.AFFECTED, Status.POSSIBLE}
    intent = intent or Intent()
    installed_builds = {
        name: fact.versions[0] for name, fact in facts.packages.items() if fact.exact
    }
    # The search compares public versions (2.3.0+cu121 is 2.3.0 on any index): normalize once.
    # torch keeps a CUDA label (+cu126): its build is part of what the search may change.
    installed = {
        name: Version(v.public) if v.local and not _cuda_label(name, v) else v
        for name, v in installed_builds.items()
    }
    guarded = guarded_names(kb, installed)
    start = {name: installed[name] for name in guarded}
    checker = _DependencyChecker(source, installed, installed_requires or {}, marker_env)
    evaluator = _Evaluator(kb, facts)
    counter = itertools.count()
    frontier = [_Node((0, 0, 0, 0, 0), next(counter), start, {})]
    seen: set[tuple[tuple[NormalizedName, Version], ...]] = set()
    best: tuple[tuple[int, int], _Node, list[Finding]] | None = None
    blocked: dict[str, str] = {}  # rule id -> why no move escapes it
    expansions = stalled = 0
    deadline = time.monotonic() + time_budget
    gave_up = ""
    floored: set[NormalizedName] = set()  # packages a capability floor kept from an escape
    while frontier:
        if expansions >= MAX_EXPANSIONS:
            gave_up = f"search limit reached ({MAX_EXPANSIONS} assignments tried)"
            break
        if time.monotonic() > deadline:
            gave_up = f"search time limit reached ({time_budget:g} s)"
            break
        node = heapq.heappop(frontier)
        key = tuple(sorted(node.assignment.items()))
        if key in seen:
            continue
        seen.add(key)
        expansions += 1
        bad = _bad(evaluator.findings(node.assignment), avoid)
        if not bad:
            best = ((0, 0), node, [])
            break
        # Remember the least-bad assignment: affected findings weigh more than possible ones.
        score = (sum(f.status is Status.AFFECTED for f in bad), len(bad))
        if best is None or score < best[0]:
            best = (score, node, bad)
            stalled = 0
        else:
            stalled += 1
            if stalled > STALL_LIMIT:
                gave_up = "no nearby move improved on the best assignment found"
                break
        # Work on the most serious finding that some move can escape; skip the hopeless ones.
        for target in bad:
            children = 0
            if _mentions_toolkit(target.rule.when):
                # The machine's CUDA toolkit (nvcc) is no package: moving torch across CUDA
                # majors to match it would break the stack; the fix is the toolkit.
                blocked.setdefault(
                    target.rule.id,
                    "it is about the CUDA toolkit on this machine, not a package: "
                    + (target.rule.fix.change or target.rule.fix.summary),
                )
                continue
            # A merely possible finding never moves a user's exact pin.
            movable_kept = target.status is Status.AFFECTED
            for name, version in _moves(
                target, node.assignment, installed, source, facts, intent, floored
            ):
                if (
                    target.status is Status.POSSIBLE
                    and version.local != node.assignment[name].local
                    and _cuda_label(name, version)
                ):
                    continue  # another CUDA build for a finding that may not apply: no
                if name in intent.kept and not movable_kept:
                    blocked.setdefault(
                        target.rule.id,
                        f"escaping it would move your pin {name}=={installed.get(name)}; "
                        "settle the unknown facts to decide",
                    )
                    continue
                assignment = {**node.assignment, name: version}
                joint = checker.joint(name, version, assignment, intent)
                if isinstance(joint, str):
                    blocked.setdefault(target.rule.id, joint)
                    continue
                assignment.update(joint)
                moved = {**node.moved, name: (*node.moved.get(name, ()), target.rule.id)}
                fix = _fix_specifiers(target.rule)
                on_fix = name in fix and fix[name].contains(version, prereleases=True)
                off_fix = node.off_fix if on_fix or not fix else node.off_fix | {name}
                companions = {**node.companions}
                movers = {name: version, **joint}
                for other, other_version in joint.items():
                    reasons = (
                        _companion_reason(checker, mover, at, other, other_version)
                        for mover, at in movers.items()
                        if mover != other
                    )
                    companions[other] = next(
                        (r for r in reasons if not r.startswith("moves with")),
                        f"moves with {name} {version}",
                    )
                cost = _cost(assignment, installed, source, off_fix, intent)
                heapq.heappush(
                    frontier,
                    _Node(cost, next(counter), assignment, moved, off_fix, companions),
                )
                children += 1
            if children:
                break
            blocked.setdefault(target.rule.id, "no installable version of its packages escapes it")
    assert best is not None
    _, node, remaining = best
    unresolved = tuple(
        Unresolved(f.rule, f.status, blocked.get(f.rule.id) or gave_up or "search exhausted")
        for f in remaining
    )
    findings = evaluate(kb, _with_versions(facts, node.assignment))
    notes = (f"search: {gave_up}",) if gave_up and remaining else ()
    return _plan(
        node, installed_builds, guarded, unresolved, findings, facts, intent, notes, floored
    )


def _companion_reason(
    checker: _DependencyChecker,
    name: NormalizedName,
    version: Version,
    other: NormalizedName,
    other_version: Version,
) -> str:
    for text in checker.source.requires(name, version) or ():
        requirement = checker.requirement(text)
        if requirement is not None and canonicalize_name(requirement.name) == other:
            return f"{name} {version} requires {requirement}"
    for text in checker.source.requires(other, other_version) or ():
        requirement = checker.requirement(text)
        if requirement is not None and canonicalize_name(requirement.name) == name:
            return f"{other} {other_version} accepts {name} {version} ({requirement})"
    return f"moves with {name} {version}"


def _moves(
    finding: Finding,
    assignment: Mapping[NormalizedName, Version],
    installed: Mapping[NormalizedName, Version],
    source: CandidateSource,
    facts: Facts,
    intent: Intent,
    floored: set[NormalizedName],
) -> list[tuple[NormalizedName, Version]]:
    """Versions of the finding's packages that take the assignment out of this rule, best first:
    inside the rule's fix, then upgrades before downgrades, then the nearest release. Never
    below what the stated usage needs.

    Only moves that really escape the rule are kept (checked against the rule alone, which is
    cheap), so the search branches on a handful of useful moves instead of every release."""
    moves: list[tuple[tuple[int, int, int, int], NormalizedName, Version]] = []
    fix_specs = _fix_specifiers(finding.rule)
    names = dict.fromkeys(
        [*(m.name for m in finding.packages), *sorted(_condition_packages(finding.rule.when))]
    )
    for name in names:
        if name not in assignment:
            continue
        current = assignment[name]
        versions = source.versions(name)
        base = installed.get(name, current)
        floor = intent.floors.get(name)
        about_build = _mentions_build(finding.rule.when)
        for version in versions:
            if version == current:
                continue
            if floor is not None and version < floor[0]:
                if name not in floored and version < current:
                    trial = _with_versions(facts, {**assignment, name: version})
                    if finding.rule.when.evaluate(trial).value is Tri.FALSE:
                        floored.add(name)  # the floor kept the search from this escape
                continue
            if version.local != base.local and not about_build and _cuda_label(name, version):
                continue  # another CUDA build only escapes rules about the build
            spec = fix_specs.get(name)
            recommended = 0 if spec is not None and spec.contains(version, prereleases=True) else 1
            if version.local or base.local:
                downgrade = 1 if Version(version.public) < Version(base.public) else 0
            else:
                downgrade = 1 if version < base else 0
            rebuild = 1 if version.local != base.local else 0  # same release: its own build first
            distance = _distance(versions, base, version)
            moves.append(((recommended, downgrade, distance, rebuild), name, version))
    moves.sort(key=lambda item: item[0])
    escaping: list[tuple[NormalizedName, Version]] = []
    per_name: dict[NormalizedName, int] = {}
    for _, name, version in moves:
        # A user's exact pin moves only as far as the nearest escape, never further.
        if name in intent.kept and per_name.get(name, 0) >= 1:
            continue
        trial = _with_versions(facts, {**assignment, name: version})
        if finding.rule.when.evaluate(trial).value is Tri.FALSE:
            escaping.append((name, version))
            per_name[name] = per_name.get(name, 0) + 1
            if len(escaping) == MOVES_PER_RULE:
                break
    return escaping


_FIX_SPECIFIERS: dict[tuple[str, ...], dict[NormalizedName, SpecifierSet]] = {}


def _fix_specifiers(rule: Rule) -> dict[NormalizedName, SpecifierSet]:
    """The rule's fix constraints by package (parsed once per distinct constraint list)."""
    cached = _FIX_SPECIFIERS.get(rule.fix.constraints)
    if cached is None:
        cached = {}
        for text in rule.fix.constraints:
            requirement = Requirement(text)
            cached[canonicalize_name(requirement.name)] = requirement.specifier
        _FIX_SPECIFIERS[rule.fix.constraints] = cached
    return cached


_PUBLIC: dict[int, tuple[Sequence[Version], list[Version], dict[Version, int]]] = {}


def _distance(ordered: Sequence[Version], a: Version, b: Version) -> int:
    """How many releases apart two versions are (`ordered` is sorted). CUDA builds of one
    release (2.8.0+cu126, +cu128) count as that release: they are no step away from it."""
    cached = _PUBLIC.get(id(ordered))
    if cached is None or cached[0] is not ordered:
        public = sorted({Version(v.public) if v.local else v for v in ordered})
        cached = _PUBLIC[id(ordered)] = (ordered, public, {v: i for i, v in enumerate(public)})
    _, public, position = cached
    if a.local:
        a = Version(a.public)
    if b.local:
        b = Version(b.public)
    i = position.get(a)
    j = position.get(b)
    if i is None:
        i = bisect.bisect_left(public, a)
    if j is None:
        j = bisect.bisect_left(public, b)
    return abs(i - j)


def _cost(
    assignment: Mapping[NormalizedName, Version],
    installed: Mapping[NormalizedName, Version],
    source: CandidateSource,
    off_fix: frozenset[NormalizedName],
    intent: Intent,
) -> tuple[int, int, int, int, int]:
    changed = [n for n, v in assignment.items() if installed.get(n) is None or v != installed[n]]
    kept_moved = sum(1 for n in changed if n in intent.kept)
    downgrades = sum(1 for n in changed if n in installed and assignment[n] < installed[n])
    distance = sum(
        _distance(source.versions(n), installed[n], assignment[n])
        for n in changed
        if n in installed
    )
    return (kept_moved, len(off_fix), len(changed), downgrades, distance)


class _Evaluator:
    """Findings for an assignment, memoized per rule on the versions of the rule's own packages:
    usage and hardware facts do not change during the search, so neither does a rule's verdict
    while its packages keep their versions."""

    def __init__(self, kb: KnowledgeBase, facts: Facts) -> None:
        self.facts = facts
        present = facts.packages.keys() if facts.packages_known else None
        self.rules = [
            (rule, tuple(sorted(_rule_packages(kb.plain_at(i)["when"]))))
            for i, rule in _candidates(kb, present)
        ]
        self.memo: dict[tuple[str, tuple[Version | None, ...]], Finding | None] = {}

    def findings(self, assignment: Mapping[NormalizedName, Version]) -> list[Finding]:
        trial: Facts | None = None
        out = []
        for rule, names in self.rules:
            key = (rule.id, tuple(assignment.get(n) for n in names))  # type: ignore[call-overload]
            if key not in self.memo:
                trial = trial or _with_versions(self.facts, assignment)
                self.memo[key] = evaluate_rule(rule, trial)
            finding = self.memo[key]
            if finding is not None:
                out.append(finding)
        out.sort(key=finding_order)
        return out


def _candidates(kb: KnowledgeBase, present: Iterable[str] | None) -> list[tuple[int, Rule]]:
    names = None if present is None else set(present)
    return [
        (i, kb.rule_at(i))
        for i, (_, required) in enumerate(kb.index)
        if names is None or all(n in names for n in required)
    ]


class _DependencyChecker:
    """Does a chosen version agree with the other pins, both ways?"""

    def __init__(
        self,
        source: CandidateSource,
        installed: Mapping[NormalizedName, Version],
        installed_requires: Mapping[NormalizedName, Sequence[str]],
        marker_env: Mapping[str, str] | None,
    ) -> None:
        self.source = source
        self.installed = installed
        self.installed_requires = installed_requires
        self.marker_env = dict(marker_env) if marker_env else None
        self._parsed: dict[str, Requirement | None] = {}

    def requirement(self, text: str) -> Requirement | None:
        if text not in self._parsed:
            self._parsed[text] = self._binding(text)
        return self._parsed[text]

    def _binding(self, text: str) -> Requirement | None:
        """The requirement, or None when it does not bind here (extras, other platforms, garbage)."""
        try:
            requirement = Requirement(text)
            if requirement.marker is None:
                return requirement
            if self.marker_env is None:
                return None
            return (
                requirement
                if requirement.marker.evaluate({**self.marker_env, "extra": ""})
                else None
            )
        except (InvalidRequirement, InvalidMarker):
            return None

    def _requires_of(self, name: NormalizedName, version: Version) -> Sequence[str]:
        installed = self.installed.get(name)
        if installed is not None and installed == version and name in self.installed_requires:
            return self.installed_requires[name]
        return self.source.requires(name, version) or ()

    def conflict(
        self, name: NormalizedName, version: Version, assignment: Mapping[NormalizedName, Version]
    ) -> str | None:
        """Why `name==version` cannot join the assignment (and the rest of the environment), or None."""
        effective = {**self.installed, **assignment}
        for other, requirement in self._unmet(name, version, effective):
            return f"{name} {version} requires {requirement}, but {other} is {effective[other]}"
        for other, other_version, requirement in self._refusing(name, version, effective):
            return f"{other} {other_version} requires {requirement}"
        return None

    def _unmet(
        self, name: NormalizedName, version: Version, effective: Mapping[NormalizedName, Version]
    ) -> Iterator[tuple[NormalizedName, Requirement]]:
        """The requirements of `name==version` that another present package does not meet."""
        for text in self.source.requires(name, version) or ():
            requirement = self.requirement(text)
            if requirement is None:
                continue
            other = canonicalize_name(requirement.name)
            if (
                other != name
                and other in effective
                and not requirement.specifier.contains(effective[other], prereleases=True)
            ):
                yield other, requirement

    def _refusing(
        self, name: NormalizedName, version: Version, effective: Mapping[NormalizedName, Version]
    ) -> Iterator[tuple[NormalizedName, Version, Requirement]]:
        """Every other present package whose requirements refuse `name==version` (vLLM pins
        torch exactly), with the requirement that refuses it."""
        for other, other_version in effective.items():
            if other == name:
                continue
            for text in self._requires_of(other, other_version):
                requirement = self.requirement(text)
                if requirement is None or canonicalize_name(requirement.name) != name:
                    continue
                if not requirement.specifier.contains(version, prereleases=True):
                    yield other, other_version, requirement

    def joint(
        self,
        name: NormalizedName,
        version: Version,
        assignment: Mapping[NormalizedName, Version],
        intent: Intent,
        depth: int = JOINT_DEPTH,
    ) -> dict[NormalizedName, Version] | str:
        """Companion moves that let `name==version` join the assignment ({} when none are
        needed), or why it cannot: vLLM 0.7.2 requires transformers>=4.48.2, so transformers
        moves along, to the nearest release that agrees with everything else; a companion may
        bring its own (transformers a newer tokenizers), JOINT_DEPTH levels deep."""
        conflict = self.conflict(name, version, assignment)
        if conflict is None:
            return {}
        effective = {**self.installed, **assignment}
        needs: dict[NormalizedName, list[Callable[[Version], bool]]] = {}
        for other, requirement in self._unmet(name, version, effective):
            needs.setdefault(other, []).append(_within(requirement.specifier))
        for other, _, _ in self._refusing(name, version, effective):
            needs.setdefault(other, []).append(self._acceptor(other, name, version))
        if not needs:
            return conflict
        chosen: dict[NormalizedName, Version] = {}
        for other, tests in needs.items():
            if other in intent.kept:
                return f"{conflict} (your pin {other}=={effective[other]} is kept)"
            base = effective[other]
            floor = intent.floors.get(other)
            options = [
                v
                for v in self.source.versions(other)
                if (floor is None or v >= floor[0])
                and (v.local == base.local or not _cuda_label(other, v))  # keep its build
                and all(test(v) for test in tests)
            ]
            options.sort(
                key=lambda v: (v < base, abs(_distance(self.source.versions(other), base, v)))
            )
            trial = {**assignment, **chosen}
            for option in options[:MOVES_PER_RULE]:
                placed = {**trial, other: option}
                if depth <= 1:
                    if self.conflict(other, option, placed) is None:
                        chosen[other] = option
                        break
                    continue
                deeper = self.joint(other, option, placed, intent, depth - 1)
                if isinstance(deeper, dict) and name not in deeper:
                    chosen.update({other: option, **deeper})
                    break
            else:
                return f"{conflict}, and no release of {other} agrees with both"
        final = {**assignment, **chosen}
        if self.conflict(name, version, final) is not None:
            return conflict
        return chosen

    def _acceptor(
        self, other: NormalizedName, name: NormalizedName, version: Version
    ) -> Callable[[Version], bool]:
        def test(candidate: Version) -> bool:
            return self._accepts(other, candidate, name, version)

        return test

    def _accepts(
        self, other: NormalizedName, other_version: Version, name: NormalizedName, version: Version
    ) -> bool:
        """Whether `other==other_version` declares nothing against `name==version`."""
        requires = self.source.requires(other, other_version)
        if requires is None:
            return False  # unknown metadata: not a safe companion
        for text in requires:
            requirement = self.requirement(text)
            if (
                requirement is not None
                and canonicalize_name(requirement.name) == name
                and not requirement.specifier.contains(version, prereleases=True)
            ):
                return False
        return True


def _within(spec: SpecifierSet) -> Callable[[Version], bool]:
    def test(version: Version) -> bool:
        return spec.contains(version, prereleases=True)

    return test


def _plan(
    node: _Node,
    installed: Mapping[NormalizedName, Version],
    guarded: Mapping[NormalizedName, list[str]],
    unresolved: tuple[Unresolved, ...],
    findings: Sequence[Finding],
    facts: Facts,
    intent: Intent,
    notes: tuple[str, ...],
    floored: set[NormalizedName],
) -> PinPlan:
    pins = []
    for name in sorted(node.assignment):
        fact = facts.packages.get(name)
        floor = intent.floors.get(name)
        pins.append(
            Pin(
                name=name,
                version=node.assignment[name],
                installed=installed.get(name),
                reasons=tuple(dict.fromkeys(guarded.get(name, []))),
                moved_by=tuple(dict.fromkeys(node.moved.get(name, ()))),
                display_name=fact.display_name if fact else "",
                start=intent.start.get(name, "installed"),
                companion=node.companions.get(name, "") if name not in node.moved else "",
                floor=f"{name}>={floor[0]} ({floor[1]})" if floor and name in floored else "",
            )
        )
    return PinPlan(tuple(pins), unresolved, tuple(findings), notes)


def offline_versions(
    kb: KnowledgeBase, name: NormalizedName, installed: Version | None
) -> list[Version]:
    """Versions the knowledge base names for `name` (specifier bounds, fix constraints, examples)."""
    from compat.specifiers import specifier_set

    found: set[Version] = set()
    if installed is not None:
        found.add(Version(installed.public))

    def from_spec(text: str) -> None:
        for spec in specifier_set(text):
            version = spec.version.rstrip(".*")
            try:
                found.add(Version(version))
            except ValueError:
                continue

    def walk(when: Mapping[str, object]) -> None:
        packages = when.get("packages", {})
        assert isinstance(packages, dict)
        if name in packages:
            from_spec(packages[name]["version"])
        for branch in when.get("any", []):  # type: ignore[attr-defined]
            walk(branch)

    for plain in kb.plain:
        walk(plain["when"])
        for text in plain["fix"]["constraints"]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == name:
                from_spec(str(requirement.specifier))
    return sorted(v for v in found if not v.is_devrelease)
