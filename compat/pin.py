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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from packaging.markers import InvalidMarker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.conditions import Tri
from compat.engine import evaluate, evaluate_rule, finding_order
from compat.knowledge import KnowledgeBase
from compat.model import Facts, Finding, PackageFact, Rule, Severity, Status

MAX_EXPANSIONS = 400  # assignments evaluated before settling for the least-bad one
MOVES_PER_RULE = 6  # escaping moves kept per finding, best first
TIME_BUDGET_S = 10.0
STALL_LIMIT = 40  # expansions without a better assignment before the search settles


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
    installed: Version | None
    reasons: tuple[str, ...]  # rule ids that guard or moved this package
    moved_by: tuple[str, ...] = ()  # rule ids this pin escapes (non-empty: a chosen version)
    display_name: str = ""

    @property
    def changed(self) -> bool:
        return self.installed is None or self.version.public != self.installed.public


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


def guarded_names(kb: KnowledgeBase, installed: Iterable[str]) -> dict[NormalizedName, list[str]]:
    """Installed packages that some rule speaks of, with the ids of those rules."""
    present = set(installed)
    guarded: dict[NormalizedName, list[str]] = {}
    for plain in kb.plain:
        for name in _rule_packages(plain["when"]):
            if name in present:
                guarded.setdefault(NormalizedName(name), []).append(plain["id"])
    return guarded


def _rule_packages(when: Mapping[str, Any]) -> set[str]:
    names: set[str] = set(when.get("packages", {}))
    for branch in when.get("any", []):
        names |= _rule_packages(branch)
    return names


def _with_versions(facts: Facts, assignment: Mapping[NormalizedName, Version]) -> Facts:
    packages = dict(facts.packages)
    for name, version in assignment.items():
        old = packages.get(name)
        packages[name] = (
            old._replace(versions=(version,), commit=None)
            if old is not None
            else PackageFact(name, (version,))
        )
    return replace(facts, packages=packages)


def _bad(findings: Sequence[Finding], avoid: set[Status]) -> list[Finding]:
    return [f for f in findings if f.status in avoid and f.rule.severity is not Severity.INFO]


@dataclass(order=True)
class _Node:
    cost: tuple[int, int, int]
    serial: int
    assignment: dict[NormalizedName, Version] = field(compare=False)
    moved: dict[NormalizedName, tuple[str, ...]] = field(compare=False)


def plan_pins(
    kb: KnowledgeBase,
    facts: Facts,
    source: CandidateSource,
    *,
    avoid: set[Status] | None = None,
    installed_requires: Mapping[NormalizedName, Sequence[str]] | None = None,
    marker_env: Mapping[str, str] | None = None,
) -> PinPlan:
    """Choose one version per guarded package so that no rule in `avoid` status matches."""
    avoid = avoid or {Status.AFFECTED, Status.POSSIBLE}
    installed_builds = {
        name: fact.versions[0] for name, fact in facts.packages.items() if fact.exact
    }
    # The search compares public versions (2.3.0+cu121 is 2.3.0 on any index): normalize once.
    installed = {name: Version(v.public) if v.local else v for name, v in installed_builds.items()}
    guarded = guarded_names(kb, installed)
    start = {name: installed[name] for name in guarded}
    checker = _DependencyChecker(source, installed, installed_requires or {}, marker_env)
    evaluator = _Evaluator(kb, facts)
    counter = itertools.count()
    frontier = [_Node((0, 0, 0), next(counter), start, {})]
    seen: set[tuple[tuple[NormalizedName, Version], ...]] = set()
    best: tuple[tuple[int, int], _Node, list[Finding]] | None = None
    blocked: dict[str, str] = {}  # rule id -> why no move escapes it
    expansions = stalled = 0
    deadline = time.monotonic() + TIME_BUDGET_S
    while frontier and expansions < MAX_EXPANSIONS and time.monotonic() < deadline:
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
                break  # a plateau: what is left cannot be escaped by nearby moves
        # Work on the most serious finding that some move can escape; skip the hopeless ones.
        for target in bad:
            children = 0
            for name, version in _moves(target, node.assignment, installed, source, facts):
                assignment = {**node.assignment, name: version}
                conflict = checker.conflict(name, version, assignment)
                if conflict is not None:
                    blocked.setdefault(target.rule.id, conflict)
                    continue
                moved = {**node.moved, name: (*node.moved.get(name, ()), target.rule.id)}
                cost = _cost(assignment, installed, source, target.rule)
                heapq.heappush(frontier, _Node(cost, next(counter), assignment, moved))
                children += 1
            if children:
                break
            blocked.setdefault(target.rule.id, "no installable version of its packages escapes it")
    assert best is not None
    _, node, remaining = best
    unresolved = tuple(
        Unresolved(f.rule, f.status, blocked.get(f.rule.id, "search limit reached"))
        for f in remaining
    )
    findings = evaluate(kb, _with_versions(facts, node.assignment))
    return _plan(node, installed_builds, guarded, unresolved, findings, facts)


def _moves(
    finding: Finding,
    assignment: Mapping[NormalizedName, Version],
    installed: Mapping[NormalizedName, Version],
    source: CandidateSource,
    facts: Facts,
) -> list[tuple[NormalizedName, Version]]:
    """Versions of the finding's packages that take the assignment out of this rule, best first.

    Only moves that really escape the rule are kept (checked against the rule alone, which is
    cheap), so the search branches on a handful of useful moves instead of every release."""
    moves: list[tuple[tuple[int, int, int], NormalizedName, Version]] = []
    fix_specs = _fix_specifiers(finding.rule)
    for matched in finding.packages:
        name = matched.name
        if name not in assignment:
            continue
        current = assignment[name]
        versions = source.versions(name)
        base = installed.get(name, current)
        ordered = versions  # CandidateSource.versions is sorted, oldest first
        for version in versions:
            if version == current:
                continue
            spec = fix_specs.get(name)
            recommended = 0 if spec is not None and spec.contains(version, prereleases=True) else 1
            distance = _distance(ordered, base, version)
            downgrade = 1 if version < base else 0
            moves.append(((recommended, distance, downgrade), name, version))
    moves.sort(key=lambda item: item[0])
    escaping: list[tuple[NormalizedName, Version]] = []
    for _, name, version in moves:
        trial = _with_versions(facts, {**assignment, name: version})
        if finding.rule.when.evaluate(trial).value is Tri.FALSE:
            escaping.append((name, version))
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


def _distance(ordered: Sequence[Version], a: Version, b: Version) -> int:
    """How many releases apart two versions are (`ordered` is sorted)."""
    return abs(bisect.bisect_left(ordered, a) - bisect.bisect_left(ordered, b))


def _cost(
    assignment: Mapping[NormalizedName, Version],
    installed: Mapping[NormalizedName, Version],
    source: CandidateSource,
    rule: Rule,
) -> tuple[int, int, int]:
    fix = _fix_specifiers(rule)
    changed = [n for n, v in assignment.items() if installed.get(n) is None or v != installed[n]]
    off_fix = sum(
        1 for n in changed if n in fix and not fix[n].contains(assignment[n], prereleases=True)
    )
    distance = sum(
        _distance(source.versions(n), installed[n], assignment[n])
        for n in changed
        if n in installed
    )
    return (off_fix + len(changed), len(changed), distance)


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

    def _requirement(self, text: str) -> Requirement | None:
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
        # The chosen version's requirements against every other pinned or installed package.
        for text in self.source.requires(name, version) or ():
            requirement = self._requirement(text)
            if requirement is None:
                continue
            other = canonicalize_name(requirement.name)
            if (
                other != name
                and other in effective
                and not requirement.specifier.contains(effective[other], prereleases=True)
            ):
                return f"{name} {version} requires {requirement}, but {other} is {effective[other]}"
        # Every other package's requirements against the chosen version (vLLM pins torch exactly).
        for other, other_version in effective.items():
            if other == name:
                continue
            for text in self._requires_of(other, other_version):
                requirement = self._requirement(text)
                if requirement is None or canonicalize_name(requirement.name) != name:
                    continue
                if not requirement.specifier.contains(version, prereleases=True):
                    return f"{other} {other_version} requires {requirement}"
        return None


def _plan(
    node: _Node,
    installed: Mapping[NormalizedName, Version],
    guarded: Mapping[NormalizedName, list[str]],
    unresolved: tuple[Unresolved, ...],
    findings: Sequence[Finding],
    facts: Facts,
) -> PinPlan:
    pins = []
    for name in sorted(node.assignment):
        fact = facts.packages.get(name)
        pins.append(
            Pin(
                name=name,
                version=node.assignment[name],
                installed=installed.get(name),
                reasons=tuple(dict.fromkeys(guarded.get(name, []))),
                moved_by=tuple(dict.fromkeys(node.moved.get(name, ()))),
                display_name=fact.display_name if fact else "",
            )
        )
    return PinPlan(tuple(pins), unresolved, tuple(findings))


def offline_versions(
    kb: KnowledgeBase, name: NormalizedName, installed: Version | None
) -> list[Version]:
    """Versions the knowledge base names for `name` (specifier bounds, fix constraints, examples)."""
    from compat.conditions import specifier_set

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
