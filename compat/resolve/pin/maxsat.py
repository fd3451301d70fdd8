"""`compat pin`'s problem, stated and solved exactly: weighted MaxSAT with python-sat's RC2.

Choose one version per guarded package (the installed packages the knowledge base speaks of, and
the packages their requirements drag along) such that

* hard: every requirement edge holds (Requires-Dist of each chosen release and of every installed
  package that stays), no rule becomes `affected` that was not affected before (never worse than
  the input), no package goes below what the stated usage needs (capability floors), a user's
  exact pin (`==` in -r files, --keep) moves only for an affected rule whose packages in the
  problem are the user's pins alone, and another CUDA build of torch is chosen only when an
  affected finding is about the build;
* least, in this order (each level outweighs everything below it together):
  1. affected findings left;  2. user pins moved;  3. affected rules escaped off their own fix;
  5. possible findings left: one counts as escaped only through its own fix (where the fix names
  a package in the problem) and only when nothing moves but its own packages and what their
  chosen releases' requirements drag along;  7. packages moved;  8. downgrades;  9. release
  distance, then the CUDA build's label order, then package-name order (ties are rare; the
  solver itself is deterministic for the same clauses, which are built in sorted order).

Candidates are enumerated, not searched: the releases of a package that every rule and
requirement range treats alike form one class, and the nearest CANDIDATES_PER_CLASS of each class
are candidates (plus the installed one), at most MAX_DOMAIN of them. A CUDA build the plan may not
switch to takes no place among them; a requirement a release declares that none of them meets
brings in its nearest release, CUDA builds included, past that limit. Requires-Dist is read lazily: only for releases some
solution chose, then the problem is solved again with what was learnt, until the chosen set's own
requirements all hold (counter-example guided; at most MAX_ROUNDS rounds). Every limit is a count
and is said in the output when reached; nothing depends on the clock or the machine's load.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from packaging.markers import InvalidMarker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.engine import evaluate, evaluate_rule
from compat.kb.conditions import version_in
from compat.kb.knowledge import KnowledgeBase
from compat.kb.questions import package_specs, rule_packages
from compat.model import Facts, Finding, Rule, Severity, Status
from compat.resolve.pin.guards import Guards, hardware_allows
from compat.resolve.pin.solver import (
    TORCH_FAMILY,
    CandidateSource,
    Intent,
    Pin,
    PinPlan,
    Unresolved,
    _cuda_label,
    _distance,
    _mentions_build,
    _mentions_toolkit,
    _with_versions,
    guarded_names,
)
from compat.versions import parse_requirement, release_key

CANDIDATES_PER_CLASS = 2  # nearest releases kept per class of releases the rules treat alike
# Candidates per package at most (the nearest ones). torch has up to four CUDA builds per release
# (each its own candidate): 64 reaches about seven releases either side of a pin, so that
# vllm 0.7.2's torch==2.5.1 is in reach of a torch==2.1.2 pin.
MAX_DOMAIN = 64
MAX_ROUNDS = 40  # solve / read requirements / solve again
MAX_JOINED = 24  # packages that requirement edges may bring into the problem
MAX_COMBINATIONS = 50_000  # version combinations evaluated per rule
_NEGATION = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!="}


@dataclass(frozen=True)
class _Req:
    name: NormalizedName
    spec: SpecifierSet
    text: str


@dataclass
class _Knowledge:
    """What the rounds learnt: requirements per release, the specifiers that split each
    package's releases into classes, and the packages brought in."""

    requires: dict[tuple[NormalizedName, Version], tuple[_Req, ...]] = field(default_factory=dict)
    split: dict[NormalizedName, set[str]] = field(default_factory=dict)
    joined: list[NormalizedName] = field(default_factory=list)
    forbidden: set[tuple[NormalizedName, Version]] = field(default_factory=set)
    limits: list[str] = field(default_factory=list)


class _Literals:
    def __init__(self) -> None:
        self.next = 0
        self.ids: dict[Any, int] = {}

    def __call__(self, key: Any) -> int:
        found = self.ids.get(key)
        if found is None:
            self.next += 1
            found = self.ids[key] = self.next
        return found

    def fresh(self) -> int:
        self.next += 1
        return self.next


def plan_pins(
    kb: KnowledgeBase,
    facts: Facts,
    source: CandidateSource,
    *,
    avoid: set[Status] | None = None,
    installed_requires: Mapping[NormalizedName, Sequence[str]] | None = None,
    marker_env: Mapping[str, str] | None = None,
    intent: Intent | None = None,
) -> PinPlan:
    """Choose one version per guarded package so that no rule in `avoid` status matches, or say
    which constraints make that impossible (compat.resolve.pin.maxsat states the order of preference)."""
    return _Solver(
        kb,
        facts,
        source,
        avoid or {Status.AFFECTED, Status.POSSIBLE},
        installed_requires or {},
        marker_env,
        intent or Intent(),
    ).run()


class _Solver:
    def __init__(
        self,
        kb: KnowledgeBase,
        facts: Facts,
        source: CandidateSource,
        avoid: set[Status],
        installed_requires: Mapping[NormalizedName, Sequence[str]],
        marker_env: Mapping[str, str] | None,
        intent: Intent,
    ) -> None:
        self.kb = kb
        self.facts = facts
        self.source = source
        self.avoid = avoid
        self.intent = intent
        self.marker_env = dict(marker_env) if marker_env else None
        self.installed_requires = installed_requires
        self.builds = {n: f.versions[0] for n, f in facts.packages.items() if f.exact}
        # Public versions throughout (2.3.0+cu121 is 2.3.0 on any index), except torch's CUDA
        # or ROCm label: its build is part of what may change.
        self.start: dict[NormalizedName, Version] = {
            n: Version(v.public) if v.local and not _build_label(n, v) else v
            for n, v in sorted(self.builds.items())
        }
        self.guarded = guarded_names(kb, self.start)
        present = facts.packages.keys() if facts.packages_known else None
        self.masks: dict[tuple[str, NormalizedName], int] = {}
        self.positions: dict[NormalizedName, dict[Version, int]] = {}
        # A rule whose top-level package gate no release (on the index, or installed) meets can
        # never hold: it is neither decoded nor weighed (2,000 rules: most of them).
        self.rules: list[tuple[int, Rule, tuple[NormalizedName, ...]]] = [
            (
                i,
                kb.rule_at(i),
                tuple(sorted(NormalizedName(n) for n in rule_packages(kb.plain_at(i)))),
            )
            for i in _relevant(kb, present)
            if not kb.gates
            or all(
                spec == "" or self._mask(spec, NormalizedName(name)) != 0
                for name, spec in kb.gates[i]
                if name in self.start
            )
        ]
        self.memo: dict[tuple[str, tuple[Version | None, ...]], Finding | None] = {}
        self.last: _Encoding | None = None  # the last round's instance, for explanations
        self.combos: dict[Any, list[tuple[tuple[Version, ...], Finding]]] = {}
        self.rule_package_specs: dict[str, dict[NormalizedName, tuple[str, ...]]] = {}
        self.domains: dict[Any, list[Version]] = {}
        self.gates: dict[int, dict[str, str]] = {
            position: dict(kb.gates[position]) for position, _, _ in self.rules if kb.gates
        }
        self.facts = self._start_build(facts)
        self.known = _Knowledge()
        self.parsed: dict[str, Requirement | None] = {}
        self.rule_specs = self._rule_specs()
        start_bad = self._bad(self._findings(self.start))
        self.start_findings = start_bad
        self.start_affected = {f.rule.id for f in start_bad if f.status is Status.AFFECTED}
        self.start_possible = {f.rule.id for f in start_bad if f.status is Status.POSSIBLE}
        # Another CUDA build is a way out only of an affected finding about the build.
        self.builds_move = any(
            rule.id in self.start_affected and _mentions_build(rule.when)
            for _, rule, _ in self.rules
        )
        from compat.kb.questions import fact_keys

        gpus = facts.hardware is not None and bool(facts.hardware.gpus)
        # A hardware rule guards its packages where the machine leaves it possible: a compute
        # capability or an NVIDIA driver on a machine of AMD GPUs (an A100's Ampere floor) is
        # no reason to pin an unpinned requirement. Unknown hardware facts leave every one.
        self.hardware_names = {
            n
            for i, rule, names in self.rules
            if gpus
            and any(k.startswith("hardware.") for k in fact_keys(kb.plain_at(i)))
            and hardware_allows(rule.when, self.facts)
            for n in names
        }
        self.toolkit = {rule.id for _, rule, _ in self.rules if _mentions_toolkit(rule.when)}

    def _torch_requires(self, version: Version) -> Sequence[str] | None:
        return self.source.requires(NormalizedName("torch"), version)

    def _start_build(self, facts: Facts) -> Facts:
        """An assumed torch (an unpinned requirement, no metadata on disk): its build is the
        table's PyPI default for the release, or what its Requires-Dist names, so that hardware
        rules judge it as they judge an installed one."""
        torch = self.start.get(NormalizedName("torch"))
        if torch is None or "torch_cuda" in facts.builds or torch.local:
            return facts
        if "torch_rocm" in facts.builds:
            return facts  # the files' PyTorch ROCm index serves it: its build is known
        trial = _with_versions(
            replace(facts, packages={k: v for k, v in facts.packages.items() if k != "torch"}),
            {NormalizedName("torch"): torch},
            self._torch_requires,
        )
        if "torch_cuda" not in trial.builds:
            return facts
        return replace(
            facts,
            builds=trial.builds,
            unknown_builds={k: v for k, v in facts.unknown_builds.items() if k != "torch_cuda"},
        )

    # -- facts ---------------------------------------------------------------------------------

    def _bad(self, findings: Iterable[Finding]) -> list[Finding]:
        return [
            f for f in findings if f.status in self.avoid and f.rule.severity is not Severity.INFO
        ]

    def _finding(
        self,
        rule: Rule,
        names: tuple[NormalizedName, ...],
        assignment: Mapping[NormalizedName, Version],
    ) -> Finding | None:
        key = (rule.id, tuple(assignment.get(n) for n in names))
        if key not in self.memo:
            trial = _with_versions(self.facts, {n: assignment[n] for n in names if n in assignment})
            self.memo[key] = evaluate_rule(rule, trial)
        return self.memo[key]

    def _combinations(
        self,
        rule: Rule,
        names: tuple[NormalizedName, ...],
        moving: list[NormalizedName],
        domains: list[list[Version]],
    ) -> list[tuple[tuple[Version, ...], Finding]]:
        """The combinations of the moving packages' candidates under which the rule holds (the
        same for every round whose candidates are the same)."""
        key = (rule.id, tuple(tuple(d) for d in domains))
        found = self.combos.get(key)
        if found is None:
            found = []
            # Versions on the same side of every specifier the rule states about their package
            # get the same verdict (torch: also the same build): evaluate one per class. Each
            # package's classes are computed once (not once per combination), and the product of
            # the classes is evaluated before the product of the versions is walked: the
            # representative of a class combination is the same as the walk's first combination
            # in it (the product is lexicographic), so what is evaluated is unchanged.
            specs = self._specs_of(rule, names)
            classes: list[list[int]] = []  # per package: each candidate's class, in domain order
            firsts: list[list[Version]] = []  # per package: each class's first candidate
            for n, domain in zip(moving, domains, strict=True):
                ids: dict[tuple[Any, ...], int] = {}
                per: list[int] = []
                first: list[Version] = []
                for v in domain:
                    signature = (
                        (v,)
                        if n == "torch"
                        else tuple(self._contains(s, v, n) for s in specs.get(n, ()))
                    )
                    if signature not in ids:
                        ids[signature] = len(first)
                        first.append(v)
                    per.append(ids[signature])
                classes.append(per)
                firsts.append(first)
            verdicts: dict[tuple[int, ...], Finding] = {}
            for picked in itertools.product(*(range(len(f)) for f in firsts)):
                combo = tuple(f[i] for f, i in zip(firsts, picked, strict=True))
                assignment = {**self.start, **dict(zip(moving, combo, strict=True))}
                finding = self._finding(rule, names, assignment)
                if finding is not None and finding.rule.severity is not Severity.INFO:
                    verdicts[picked] = finding
            if verdicts:
                indexed = [
                    list(zip(d, c, strict=True)) for d, c in zip(domains, classes, strict=True)
                ]
                for pairs in itertools.product(*indexed):
                    hit = verdicts.get(tuple(c for _, c in pairs))
                    if hit is not None:
                        found.append((tuple(v for v, _ in pairs), hit))
            self.combos[key] = found
        return found

    def _contains(self, spec: str, version: Version, name: NormalizedName) -> bool:
        """Whether `version` of `name` is inside `spec`: one bit of a mask computed once per
        (specifier, package) over the package's releases (rules repeat the same few ranges)."""
        position = self._positions(name).get(version)
        if position is None:
            return version_in(version, spec)
        return bool(self._mask(spec, name) >> position & 1)

    def _mask(self, spec: str, name: NormalizedName) -> int:
        """Bit i: the i-th of the package's releases (index order, then the installed one) is
        inside `spec`."""
        key = (spec, name)
        mask = self.masks.get(key)
        if mask is None:
            mask = 0
            for i, candidate in enumerate(self._ordered(name)):
                if version_in(candidate, spec):
                    mask |= 1 << i
            self.masks[key] = mask
        return mask

    def _ordered(self, name: NormalizedName) -> list[Version]:
        return (
            [*self.source.versions(name), self.start[name]]
            if name in self.start
            else list(self.source.versions(name))
        )

    def _positions(self, name: NormalizedName) -> dict[Version, int]:
        found = self.positions.get(name)
        if found is None:
            found = self.positions[name] = {v: i for i, v in enumerate(self._ordered(name))}
        return found

    def _specs_of(
        self, rule: Rule, names: tuple[NormalizedName, ...]
    ) -> dict[NormalizedName, tuple[str, ...]]:
        """Every specifier the rule's conditions state, per package (any-branches included)."""
        found = self.rule_package_specs.get(rule.id)
        if found is None:
            collected: dict[NormalizedName, set[str]] = {}
            position = next(p for p, r, _ in self.rules if r.id == rule.id)
            package_specs(self.kb.plain_at(position), collected)
            found = {n: tuple(sorted(s)) for n, s in collected.items()}
            self.rule_package_specs[rule.id] = found
        return found

    def _findings(self, assignment: Mapping[NormalizedName, Version]) -> list[Finding]:
        out = []
        for _, rule, names in self.rules:
            finding = self._finding(rule, names, assignment)
            if finding is not None:
                out.append(finding)
        return out

    def _rule_specs(self) -> dict[NormalizedName, set[str]]:
        """Per package, the specifiers rules and their fixes state about it: releases on the same
        side of all of them are alike to every rule (torch also by CUDA build, below)."""
        out: dict[NormalizedName, set[str]] = {}
        for position, _, _ in self.rules:
            plain = self.kb.plain_at(position)
            package_specs(plain, out)
            for text in plain["fix"]["constraints"]:
                name, spec = _fix_constraint(text)
                out.setdefault(name, set()).add(spec)
        return out

    def requirement(self, text: str) -> Requirement | None:
        if text not in self.parsed:
            self.parsed[text] = self._binding(text)
        return self.parsed[text]

    def _binding(self, text: str) -> Requirement | None:
        """The requirement, or None when it does not bind here (extras, other platforms, garbage)."""
        try:
            requirement = parse_requirement(text)  # bounded: a Requires-Dist from an index
            if requirement.marker is None:
                return requirement
            if self.marker_env is None:
                return None
            env = {**self.marker_env, "extra": ""}
            return requirement if requirement.marker.evaluate(env) else None
        except (InvalidRequirement, InvalidMarker):
            return None

    def requires(self, name: NormalizedName, version: Version) -> tuple[_Req, ...]:
        key = (name, version)
        if key not in self.known.requires:
            if version == self.start.get(name) and name in self.installed_requires:
                texts: Sequence[str] = self.installed_requires[name]
            else:
                texts = self.source.requires(name, version) or ()
            reqs = []
            for text in texts:
                requirement = self.requirement(text)
                if requirement is None:
                    continue
                other = canonicalize_name(requirement.name)
                if other != name:
                    reqs.append(
                        _Req(
                            other,
                            requirement.specifier,
                            f"{requirement.name}{requirement.specifier}",
                        )
                    )
            self.known.requires[key] = tuple(sorted(reqs, key=lambda r: (r.name, r.text)))
            for req in reqs:
                self.known.split.setdefault(req.name, set()).add(str(req.spec))
        return self.known.requires[key]

    # -- candidates ----------------------------------------------------------------------------

    def variables(self) -> list[NormalizedName]:
        return sorted({*self.guarded, *self.known.joined})

    def domain(self, name: NormalizedName) -> list[Version]:
        start = self.start[name]
        floor = self.intent.floors.get(name)
        required = sorted(self.known.split.get(name, set()))
        specs = sorted(self.rule_specs.get(name, set()) | set(required))
        if floor is not None:
            specs.append(f">={floor[0]}")  # the releases below the floor are a class of their own
        forbidden = tuple(sorted(v for n, v in self.known.forbidden if n == name))
        key = (name, tuple(specs), tuple(required), forbidden)
        cached = self.domains.get(key)
        if cached is not None:
            return cached
        classes: dict[tuple[Any, ...], list[Version]] = {}
        masks = [self._mask(s, name) for s in specs]
        for i, version in enumerate(self.source.versions(name)):
            if version == start or (name, version) in self.known.forbidden:
                continue
            if self.rebuild_forbidden(name, version):
                continue  # never chosen (a hard clause): it takes no place under MAX_DOMAIN
            signature: tuple[Any, ...] = tuple(mask >> i & 1 for mask in masks)
            if name == "torch":
                signature += (str(version.local or ""),)
            classes.setdefault(signature, []).append(version)
        chosen: list[Version] = []
        for members in classes.values():
            members.sort(key=lambda v: self._preference(name, v))
            chosen.extend(members[:CANDIDATES_PER_CLASS])
        chosen.sort(key=lambda v: self._preference(name, v))
        if len(chosen) > MAX_DOMAIN - 1:
            self._limit(
                f"{name}: {len(chosen)} candidate releases, the nearest {MAX_DOMAIN - 1} considered"
            )
            nearest = chosen[: MAX_DOMAIN - 1]
            # A requirement some release declares (vllm 0.7.2: torch==2.5.1) keeps its nearest
            # release past the cap, with its CUDA builds: a far pin is how a dependency is met,
            # not a far-fetched move.
            for spec in required:
                inside = SpecifierSet(spec)
                if any(inside.contains(v, prereleases=True) for v in (start, *nearest)):
                    continue
                met = [v for v in chosen if inside.contains(v, prereleases=True)]
                if met:
                    release = Version(met[0].public)
                    nearest.extend(v for v in met if Version(v.public) == release)
            chosen = nearest
        self.domains[key] = [start, *sorted(chosen)]
        return self.domains[key]

    def rebuild_forbidden(self, name: NormalizedName, version: Version) -> bool:
        """Whether `version` is another CUDA build of a torch-family package (2.5.1+cu121 for a
        start of 2.1.2 or 2.1.2+cu118) while no affected finding is about the build: the plan
        never switches builds for that."""
        return (
            not self.builds_move
            and version.local != self.start[name].local
            and _cuda_label(name, version)
        )

    def _preference(self, name: NormalizedName, version: Version) -> tuple[int, int, int, str]:
        start = self.start[name]
        down = 1 if Version(version.public) < Version(start.public) else 0
        distance = _distance(self.source.versions(name), start, version)
        rebuild = 1 if version.local != start.local else 0
        return (distance, down, rebuild, str(version))

    def _limit(self, text: str) -> None:
        if text not in self.known.limits:
            self.known.limits.append(text)

    # -- the rounds ----------------------------------------------------------------------------

    def run(self) -> PinPlan:
        chosen: dict[NormalizedName, Version] | None = None
        for _ in range(MAX_ROUNDS):
            encoding = self.last = _Encoding(self)
            chosen = encoding.solve()
            if chosen is None:
                break
            if not self._learn(chosen):
                break
        else:
            self._limit(f"stopped after {MAX_ROUNDS} rounds of reading requirements")
        final = chosen if chosen is not None and self._acceptable(chosen) else None
        return _Report(self, final).plan()

    def _effective(self, chosen: Mapping[NormalizedName, Version]) -> dict[NormalizedName, Version]:
        return {**self.start, **chosen}

    def _learn(self, chosen: Mapping[NormalizedName, Version]) -> bool:
        """Read the requirements of the chosen releases and of every package that stays; True
        when that changed the problem (a new edge, a package brought in, a release ruled out)."""
        variables = set(chosen)
        before = (len(self.known.joined), len(self.known.forbidden),
                  sum(len(s) for n, s in self.known.split.items() if n in variables))  # fmt: skip
        broken = False
        effective = self._effective(chosen)
        variables = set(chosen)
        for name in sorted(effective):
            version = effective[name]
            for req in self.requires(name, version):
                if req.name not in effective or req.spec.contains(
                    effective[req.name], prereleases=True
                ):
                    continue
                # Broken edge. A package outside the problem joins it when the index has a
                # release that meets the requirement; otherwise the chosen release is ruled out.
                broken = broken or name in variables
                if req.name not in variables:
                    if self._can_join(req.name, req.spec):
                        self._join(req.name)
                    elif name in variables and version != self.start[name]:
                        self.known.forbidden.add((name, version))
        after = (len(self.known.joined), len(self.known.forbidden),
                 sum(len(s) for n, s in self.known.split.items() if n in variables))  # fmt: skip
        # Requirements the choice meets only restrict releases it did not choose: it stays
        # optimal. Solve again only for a broken edge, a new package or new candidates.
        return broken or after != before

    def _can_join(self, name: NormalizedName, spec: SpecifierSet) -> bool:
        if name in self.known.joined or name in self.guarded:
            return False
        if len(self.known.joined) >= MAX_JOINED:
            self._limit(f"at most {MAX_JOINED} packages brought in by requirements")
            return False
        versions = self.source.versions(name)
        return any(spec.contains(v, prereleases=True) for v in versions)

    def _join(self, name: NormalizedName) -> None:
        self.known.joined.append(name)

    def _acceptable(self, chosen: Mapping[NormalizedName, Version]) -> bool:
        """The last guard of 'never worse': every requirement holds, no new affected finding."""
        effective = self._effective(chosen)
        for name in sorted(effective):
            for req in self.requires(name, effective[name]):
                if req.name in effective and not req.spec.contains(
                    effective[req.name], prereleases=True
                ):
                    start_ok = not (
                        req.name in self.start
                        and not req.spec.contains(self.start[req.name], prereleases=True)
                    )
                    if start_ok or (name in chosen and chosen[name] != self.start[name]):
                        return False
        affected = {
            f.rule.id for f in self._bad(self._findings(effective)) if f.status is Status.AFFECTED
        }
        return affected <= self.start_affected


@functools.lru_cache(maxsize=4096)
def _fix_constraint(text: str) -> tuple[NormalizedName, str]:
    """('trl', '>=0.16.0') for 'trl>=0.16.0' (rule files repeat the same few constraints)."""
    requirement = Requirement(text)
    return canonicalize_name(requirement.name), str(requirement.specifier)


def _relevant(kb: KnowledgeBase, present: Iterable[str] | None) -> list[int]:
    names = None if present is None else set(present)
    return [
        i
        for i, (_, required) in enumerate(kb.index)
        if names is None or all(n in names for n in required)
    ]


class _Encoding:
    """One round's weighted MaxSAT instance."""

    def __init__(self, solver: _Solver) -> None:
        self.s = solver
        self.lit = _Literals()
        self.hard: list[tuple[Any, list[int]]] = []  # (group or None, clause): groups explain
        self.soft: list[tuple[int, int, list[int]]] = []  # (level, units, clause)
        self.variables = solver.variables()
        self.domains = {name: solver.domain(name) for name in self.variables}
        self.values: dict[int, tuple[NormalizedName, Version]] = {}
        self.pin_groups: list[tuple[Any, list[int]]] = []  # soft pins, as groups for explain
        self.gated: dict[tuple[NormalizedName, str | None], list[Version]] = {}
        self.constrained: set[tuple[NormalizedName, str]] = set()  # (package, rule id): _rules
        self.held: set[NormalizedName] = set()  # the user's pins that never move: _pins
        for name in self.variables:
            for version in self.domains[name]:
                self.values[self.lit(("x", name, version))] = (name, version)

    def add(self, clause: list[int], group: Any = None) -> None:
        self.hard.append((group, clause))

    def x(self, name: NormalizedName, version: Version) -> int:
        return self.lit(("x", name, version))

    def build(self) -> None:
        s = self.s
        for name in self.variables:
            literals = [self.x(name, v) for v in self.domains[name]]
            self.add(literals)
            for a, b in itertools.combinations(literals, 2):
                self.add([-a, -b])
        self._pins()
        self._floors()
        self._edges()
        self._rules()
        self._moves()
        del s

    def _pins(self) -> None:
        s = self.s
        # A user's exact pin moves only for an affected rule that nothing else escapes: one whose
        # packages in the problem are the user's pins alone.
        named = set()
        for _, rule, names in s.rules:
            moving = [n for n in names if n in self.domains]
            if rule.id in s.start_affected and moving and set(moving) <= s.intent.kept:
                named.update(moving)
        for name in sorted(s.intent.kept):
            if name not in self.domains:
                continue
            stay = self.x(name, s.start[name])
            if name in named:
                self.soft.append((2, 1, [stay]))
                self.pin_groups.append((("pin", name), [stay]))
            else:
                self.add([stay], ("pin", name))
                self.held.add(name)

    def _floors(self) -> None:
        s = self.s
        for name in self.variables:
            floor = s.intent.floors.get(name)
            if floor is None:
                continue
            for version in self.domains[name]:
                if version < floor[0] and version != s.start[name]:
                    self.add([-self.x(name, version)], ("floor", name))

    def _edges(self) -> None:
        s = self.s
        for name in self.variables:
            for version in self.domains[name]:
                if (name, version) not in s.known.requires:
                    continue
                for req in s.known.requires[(name, version)]:
                    clause = self._allowed(req)
                    if clause is None:
                        continue
                    self.add([-self.x(name, version), *clause])
        # Packages that stay: their declared windows on the packages that may move.
        for name in sorted(s.start):
            if name in self.domains:
                continue
            for req in s.requires(name, s.start[name]):
                if req.name in self.domains:
                    clause = self._allowed(req)
                    if clause is not None:
                        self.add(clause, ("window", name, req.text))

    def _allowed(self, req: _Req) -> list[int] | None:
        """The literals that satisfy `req`, or None when it binds nothing in the problem."""
        s = self.s
        if req.name in self.domains:
            return [
                self.x(req.name, v)
                for v in self.domains[req.name]
                if req.spec.contains(v, prereleases=True)
            ]
        if req.name in s.start:
            return None if req.spec.contains(s.start[req.name], prereleases=True) else []
        return None  # not present: the resolver brings it

    def _rules(self) -> None:
        s = self.s
        possible = Status.POSSIBLE in s.avoid
        for position, rule, names in s.rules:
            moving = [n for n in names if n in self.domains]
            if not moving:
                continue
            if rule.id in s.toolkit and rule.id in s.start_affected | s.start_possible:
                continue  # about the machine's CUDA toolkit: no package move is its fix
            # A rule's top-level package conditions gate it: outside them it cannot hold.
            gate = s.gates.get(position, {})
            domains = [self._gated(n, gate.get(n)) for n in moving]
            if not all(domains):
                continue
            size = 1
            for d in domains:
                size *= len(d)
            if size > MAX_COMBINATIONS:
                s._limit(f"{rule.id}: {size} version combinations, not weighed")
                continue
            matched = self.lit(("matched", rule.id))
            affected = self.lit(("affected", rule.id))
            for combo, finding in s._combinations(rule, names, moving, domains):
                negated = [-self.x(n, v) for n, v in zip(moving, combo, strict=True)]
                if (finding.status is Status.AFFECTED or possible) and all(
                    v == s.start[n] for n, v in zip(moving, combo, strict=True) if n in self.held
                ):
                    # It weighs on these packages' versions where the user's fixed pins allow:
                    # a guard their lines name first.
                    self.constrained.update((n, rule.id) for n in moving)
                if finding.status is Status.AFFECTED:
                    if rule.id in s.start_affected:
                        self.add([*negated, affected])
                    else:
                        self.add(negated, ("rule", rule.id))  # never worse than the input
                    self.add([*negated, matched])
                elif possible:
                    self.add([*negated, matched])
            if rule.id in s.start_affected:
                self.soft.append((1, 1, [-affected]))
                for clause in self._fix(rule):
                    self.soft.append((3, 1, [affected, *clause]))
                self.soft.append((5, 1, [-matched]))
            elif rule.id in s.start_possible:
                escaped = self.lit(("escaped", rule.id))
                self.add([-escaped, -matched])
                for other in self.variables:
                    if other in names:
                        continue
                    # Escaped on its own: nothing else moves, unless a requirement drags it.
                    self.add([-escaped, self.x(other, s.start[other]), self._required(other)])
                self.soft.append((5, 1, [escaped]))
                for clause in self._fix(rule):
                    self.add([-escaped, *clause])  # a possible rule counts only by its own fix
            elif possible:
                self.soft.append((5, 1, [-matched]))

    def _gated(self, name: NormalizedName, spec: str | None) -> list[Version]:
        """The package's candidates inside a rule's gate on it (all of them without one): once
        per package and gate for the round, since thousands of rules share a few gates."""
        key = (name, spec)
        found = self.gated.get(key)
        if found is None:
            domain = self.domains[name]
            found = (
                domain if spec is None else [v for v in domain if self.s._contains(spec, v, name)]
            )
            self.gated[key] = found
        return found

    def _required(self, name: NormalizedName) -> int:
        """A literal true only when some chosen release requires `name` off its installed version."""
        s = self.s
        key = ("required", name)
        if key in self.lit.ids:
            return self.lit.ids[key]
        literal = self.lit(key)
        reasons = []
        start = s.start[name]
        for other in self.variables:
            for version in self.domains[other]:
                for req in s.known.requires.get((other, version), ()):
                    if req.name == name and not req.spec.contains(start, prereleases=True):
                        reasons.append(self.x(other, version))
        self.add([-literal, *reasons])
        return literal

    def _fix(self, rule: Rule) -> list[list[int]]:
        """Per fix constraint on a package in the problem, the literals inside it. A finding
        that names its own fix (a table-driven rule: `torch==1.12.1+cu116`) is fixed by that."""
        fix = next((f.remedy for f in self.s.start_findings if f.rule.id == rule.id), rule.fix)
        out = []
        for text in fix.constraints:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            if name in self.domains:
                inside = [
                    self.x(name, v)
                    for v in self.domains[name]
                    if requirement.specifier.contains(v, prereleases=True)
                ]
                if inside:
                    out.append(inside)
        return out

    def _moves(self) -> None:
        s = self.s
        for rank, name in enumerate(self.variables):
            start = s.start[name]
            self.soft.append((7, 1, [self.x(name, start)]))
            versions = s.source.versions(name)
            builds: dict[Version, int] = {}  # per release, however spelled (compat.versions)
            hardware = s.facts.hardware
            for version in _rocm_order(
                self.domains[name], hardware.rocm_version if hardware else None
            ):
                if version == start:
                    continue
                literal = self.x(name, version)
                if s.rebuild_forbidden(name, version):
                    self.add([-literal])  # another CUDA build only for an affected finding
                if Version(version.public) < Version(start.public):
                    self.soft.append((8, 1, [-literal]))
                distance = _distance(versions, start, version)
                build = builds.setdefault(release_key(version), 0)
                builds[release_key(version)] += 1
                # Within the distance level: the build (first by label order), then the package.
                weight = (distance * 64 + build) * (len(self.variables) + 1) + rank + 1
                self.soft.append((9, weight, [-literal]))

    def solve(self) -> dict[NormalizedName, Version] | None:
        from pysat.examples.rc2 import RC2Stratified
        from pysat.formula import WCNF

        self.build()
        formula = WCNF()
        for _, clause in self.hard:
            formula.append(clause)
        for level, weight, clause in _weighted(self.soft):
            del level
            formula.append(clause, weight=weight)
        with RC2Stratified(formula, blo="full", adapt=True, exhaust=True, minz=True) as rc2:
            model = rc2.compute()
        if model is None:
            return None
        true = {lit for lit in model if lit > 0}
        chosen: dict[NormalizedName, Version] = {}
        for literal, (name, version) in sorted(self.values.items()):
            if literal in true:
                chosen[name] = version
        return chosen


def _weighted(soft: Sequence[tuple[int, int, list[int]]]) -> list[tuple[int, int, list[int]]]:
    """Lexicographic levels as weights: each level outweighs all the levels below it together."""
    base: dict[int, int] = {}
    units: dict[int, list[tuple[int, list[int]]]] = {}
    for level, unit, clause in soft:
        units.setdefault(level, []).append((unit, clause))
    below = 0
    out: list[tuple[int, int, list[int]]] = []
    for level in sorted(units, reverse=True):
        base[level] = below + 1
        total = 0
        for unit, clause in units[level]:
            weight = unit * base[level]
            out.append((level, weight, clause))
            total += weight
        below += total
    out.sort(key=lambda item: (item[0], item[2]))
    return out


def _build_label(name: NormalizedName, version: Version) -> bool:
    """A torch-family version whose local label names a CUDA build (+cu126) or one of PyTorch's
    ROCm builds (+rocm6.1)."""
    from compat.kb.torchrocm import label

    return _cuda_label(name, version) or (name in TORCH_FAMILY and label(version) is not None)


def _rocm_order(domain: Sequence[Version], system: str | None) -> list[Version]:
    """The domain in the order its builds are preferred: as it is (CUDA builds by label, lowest
    first), then torch's ROCm builds newest first, those of the machine's own ROCm major before
    the others (uv's --torch-backend=auto also tries the newest ROCm index first). Without ROCm
    builds in it, the domain as it is: NVIDIA plans are untouched."""
    from compat.kb.torchrocm import label

    rocm: dict[Version, tuple[int, ...]] = {}
    for version in domain:
        found = label(version)
        if found is not None:
            rocm[version] = Version(found.removeprefix("rocm")).release
    if not rocm:
        return list(domain)
    major = int(system.split(".", 1)[0]) if system and system.split(".", 1)[0].isdigit() else -1
    built = sorted(rocm, key=lambda v: (rocm[v][0] != major, [-part for part in rocm[v]]))
    return [*(v for v in domain if v not in rocm), *built]


class _Report:
    """The chosen assignment as a PinPlan: pins with their reasons, what stays unresolved and why."""

    def __init__(self, solver: _Solver, chosen: Mapping[NormalizedName, Version] | None) -> None:
        self.s = solver
        self.notes: list[str] = []
        if chosen is None:
            self.notes.append(
                "solver: no set of releases keeps every requirement and avoids every rule the "
                "input avoids; nothing is moved"
            )
            chosen = {n: solver.start[n] for n in solver.guarded}
        self.chosen = dict(chosen)

    def plan(self) -> PinPlan:
        s = self.s
        effective = s._effective(self.chosen)
        remaining = s._bad(s._findings(effective))
        from compat.engine import finding_order

        remaining.sort(key=finding_order)
        unresolved = tuple(Unresolved(f.rule, f.status, self._why(f)) for f in remaining)
        # A limit matters only where no stated constraint of the user's explains what stays.
        if s.known.limits and any(
            not u.why.startswith(("escaping it contradicts", "escaping it would move your pin"))
            for u in unresolved
        ):
            self.notes += [f"solver: limit reached: {text}" for text in s.known.limits]
        chosen_facts = _with_versions(s.facts, self.chosen, s._torch_requires)
        findings = evaluate(s.kb, chosen_facts)
        escaped = {f.rule.id for f in s.start_findings} - {f.rule.id for f in remaining}
        guards = Guards(s.kb, chosen_facts, chosen_facts.packages.keys())
        constrained = s.last.constrained if s.last is not None else set()
        pins = []
        for name in sorted(self.chosen):
            version = self.chosen[name]
            if name not in s.guarded and version == s.start[name]:
                continue  # brought in, then left where it was
            moved = version != s.start[name]
            if not moved and name in s.builds:
                version = s.builds[name]  # as installed, local label included
            fact = s.facts.packages.get(name)
            companion = self._required_by(name) if moved else ""
            moved_by = () if companion or not moved else self._escapes(name, effective, escaped)
            if moved and not companion and not moved_by:
                companion = self._companion(name, effective)
            floor = s.intent.floors.get(name)
            listed = getattr(s.source, "listed", None)
            stand_in = listed is not None and not listed(name, version)
            pins.append(
                Pin(
                    name=name,
                    version=version,
                    installed=s.builds.get(name),
                    reasons=guards.shown(
                        s.guarded.get(name, []), {r for n, r in constrained if n == name}
                    ),
                    moved_by=moved_by,
                    display_name=fact.display_name if fact else "",
                    start=s.intent.start.get(name, "installed"),
                    companion=companion,
                    hardware_guarded=name in s.hardware_names,
                    floor=f"{name}>={floor[0]} ({floor[1]})"
                    if floor and self._floored(name)
                    else "",
                    listed=not stand_in,
                    range=self._class_range(name, version) if stand_in else "",
                )
            )
        self._rocm_move_note()
        return PinPlan(tuple(pins), unresolved, tuple(findings), tuple(self.notes))

    def _rocm_move_note(self) -> None:
        """A plan that moves torch to a ROCm build of another release says why not the start's
        own: what compat's table says of it (no row: not judged; no build with the target)."""
        s = self.s
        torch = NormalizedName("torch")
        note = getattr(s.source, "build_note", None)
        chosen, start = self.chosen.get(torch), s.start.get(torch)
        if note is None or chosen is None or start is None or not chosen.local:
            return
        if not str(chosen.local).startswith("rocm") or chosen == start:
            return  # not a ROCm build, or the one the user had: nothing chosen here to explain
        hardware = s.facts.hardware
        system = hardware.rocm_version if hardware is not None else None
        built = str(chosen.local).removeprefix("rocm")
        if system and system.split(".")[0] != built.split(".")[0]:
            # The wheel's ROCm libraries are its own (pytorch/builder manywheel/build_rocm.sh
            # copies them in): the machine's ROCm is not what it loads. The amdgpu driver's
            # support of that user space is AMD's table, which compat does not hold.
            self.notes.append(
                f"torch {chosen} loads the ROCm {built} libraries its wheel carries, not this "
                f"machine's ROCm {system}; whether the amdgpu driver supports ROCm {built}'s "
                "user space is not judged here (AMD's kernel/user-space table)"
            )
        if release_key(chosen) == release_key(start):
            return
        said = note(torch, start, hardware)
        if said:
            self.notes.append(f"torch {chosen} rather than a ROCm build of {start.public}: {said}")

    def _class_range(self, name: NormalizedName, version: Version) -> str:
        """The releases every rule, requirement and floor treats like `version`, as one
        specifier set: each specifier that holds for it, and the complement of each
        single-clause one that does not (`<2` fails: `>=2`). A multi-clause specifier that
        fails has no one-set complement and is left out (a wider range, never an invented
        release); "" when nothing bounds it."""
        s = self.s
        texts = set(s.rule_specs.get(name, set()) | s.known.split.get(name, set()))
        floor = s.intent.floors.get(name)
        if floor is not None:
            texts.add(f">={floor[0]}")
        clauses: set[str] = set()
        for text in sorted(texts):
            try:
                spec = SpecifierSet(text)
            except ValueError:
                continue
            items = list(spec)
            if not items:
                continue
            if spec.contains(version, prereleases=True):
                clauses.update(str(item) for item in items)
            elif len(items) == 1:
                negated = _NEGATION.get(items[0].operator)
                if negated is not None and not items[0].version.endswith(".*"):
                    clauses.add(f"{negated}{items[0].version}")
        return ",".join(sorted(clauses))

    def _moved_besides(self, name: NormalizedName) -> Iterator[tuple[NormalizedName, Version]]:
        """The other packages the plan moves, each with the release it moves to, by name."""
        for other in sorted(self.chosen):
            version = self.chosen[other]
            if other != name and version != self.s.start[other]:
                yield other, version

    def _required_by(self, name: NormalizedName) -> str:
        """'vllm 0.7.3 requires transformers>=4.48.2' when a chosen release needs this move."""
        s = self.s
        start = s.start[name]
        for other, version in self._moved_besides(name):
            for req in s.requires(other, version):
                if req.name == name and not req.spec.contains(start, prereleases=True):
                    return f"{other} {version} requires {req.text}"
        return ""

    def _escapes(
        self, name: NormalizedName, effective: Mapping[NormalizedName, Version], escaped: set[str]
    ) -> tuple[str, ...]:
        """The escaped rules that would match again with this package back where it was."""
        s = self.s
        back = {**effective, name: s.start[name]}
        again = {f.rule.id for f in s._bad(s._findings(back))}
        return tuple(
            rule.id
            for _, rule, names in s.rules
            if rule.id in escaped and rule.id in again and name in names
        )

    def _companion(self, name: NormalizedName, effective: Mapping[NormalizedName, Version]) -> str:
        s = self.s
        start = s.start[name]
        for other, version in self._moved_besides(name):
            for req in s.requires(name, start):
                if req.name == other and not req.spec.contains(version, prereleases=True):
                    new = [r for r in s.requires(name, effective[name]) if r.name == other]
                    said = f" ({new[0].text})" if new else ""
                    return f"{name} {effective[name]} accepts {other} {version}{said}"
        # Moved to keep clear of a rule the other moves would walk into.
        back = {**effective, name: start}
        for finding in s._bad(s._findings(back)):
            if finding.rule.id not in {f.rule.id for f in s.start_findings}:
                return f"keeps clear of {finding.rule.id}"
        return "moves with the others"

    def _floored(self, name: NormalizedName) -> bool:
        """Whether the floor kept the search from a release that would have escaped a finding."""
        s = self.s
        floor = s.intent.floors.get(name)
        if floor is None:
            return False
        start_bad = {f.rule.id for f in s.start_findings}
        for version in s.source.versions(name):
            if version >= floor[0] or version == s.start[name]:
                continue
            trial = {**s.start, name: version}
            if start_bad - {f.rule.id for f in s._bad(s._findings(trial))}:
                return True
        return False

    def _why(self, finding: Finding) -> str:
        s = self.s
        rule = finding.rule
        if rule.id in s.toolkit:
            return "it is about the CUDA toolkit on this machine, not a package: " + (
                rule.fix.change or rule.fix.summary
            )
        # The plan printed above is what a reason must hold in: a pin it moved blocks nothing.
        moved = {n for n, v in self.chosen.items() if n in s.start and v != s.start[n]}
        if finding.status is Status.POSSIBLE:
            kept = sorted(n for n in self._names(finding) if n in s.intent.kept and n not in moved)
            if kept:
                shown = ", ".join(f"{n}=={s.builds.get(n, s.start[n])}" for n in kept)
                return (
                    f"escaping it would move your pin {shown}; settle the unknown facts to decide"
                )
            return (
                "no escape through its own fix that moves only its own packages; settle the "
                "unknown facts (doctor's questions) to decide"
            )
        from compat.resolve.pin.unsatcore import explain

        encoding = s.last
        if encoding is None:
            encoding = _Encoding(s)
            encoding.build()
        why = explain(s, encoding, finding, moved)
        # A finding about torch's build where ROCm builds were offered: the table's facts say
        # why none of them serves this machine (no row for the release, no build with the
        # GPU's target), which the core alone does not.
        note = getattr(s.source, "build_note", None)
        torch = NormalizedName("torch")
        if note is not None and torch in s.start and _mentions_build(rule.when):
            said = note(torch, s.start[torch], s.facts.hardware)
            if said:
                why = f"{said} ({why})"
        return why

    def _names(self, finding: Finding) -> set[NormalizedName]:
        for _, rule, names in self.s.rules:
            if rule.id == finding.rule.id:
                return set(names)
        return set()
