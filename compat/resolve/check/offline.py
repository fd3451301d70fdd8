"""The install a set of requirements makes, solved offline over compat's dependency snapshot.

Offline, `compat check` still asks what `pip install -r FILE` puts on the machine: this module
answers it over compat/data/requires-snapshot.json (compat.resolve.sources.snapshot), with resolvelib,
the resolution algorithm pip itself runs (pip vendors it). As pip does, it prefers the newest
release a requirement allows, skips yanked releases unless pinned exactly and releases that
publish nothing installable for the target's Python, and backtracks where a pick's requirements
clash. The answer holds as of the snapshot's date: a release published since may be what a
fresh install takes today, and the caller says so.

What the snapshot cannot tell is carried, never dropped:

* a package the snapshot does not cover (or a direct URL) stands in the install at an unknown
  release with unknown requirements (`unknown`: judged over every release, `possible`);
* a release whose requirements the snapshot lacks (sdists only: DeepSpeed, flash-attn) requires
  what compat/data/recorded-requires.json records every such release requires, else nothing
  known (`unread`).

The work is bounded (issue 42 item 13) by counts of work, so that the same input gives the same
answer on any machine: resolution rounds (MAX_ROUNDS) and releases tried and rejected while
backtracking (MAX_REJECTED: verl@4879d61's sglang extra rejected thousands, for over ten minutes,
where a solve that finishes rejects a few hundred), and the steps (rounds and rejections) every
solve of one command may take together (SolveBudget: unsloth's ~180 extras are 173 solves). A
solve past a bound gives no answer (SolveStopped, naming the bound); the caller judges what it can
without it and says the verdict is not clean. The clock never decides an answer (issue 45: the
check's 60 s budget once did, on a loaded machine): it is only a last-resort guard for a machine
far slower than any measured, and past it the command gives no verdict at all (SolveTimeExceeded,
exit 3). What the solve asks again while backtracking (the same package under the same
requirements and the same rejected releases) is answered once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version
from resolvelib import AbstractProvider, BaseReporter

from compat.errors import UncheckedError, UsageError

MAX_ROUNDS = 2000
# Releases rejected while backtracking. Measured on every real file in tests/data/real (2026-11-29,
# benchmarks/bench_bounded.py): solves that finish reject at most 4,376 (prime-rl); those that
# ran for minutes pass 5,000 within seconds (verl@4879d61[sglang], unsloth's torch extras).
MAX_REJECTED = 5000
# Steps (rounds begun and releases rejected) every offline solve of one command may take together.
# Measured on the real files of tests/data/real/check (2026-11-29, benchmarks/offline_solves.py
# steps): unsloth's 173 solves take STEPS_MEASURED, every other file fewer; the budget is several
# times that, so no real file's answer depends on it, and a file of thousands of extras stops at a
# count, the same on every machine.
STEPS_MEASURED = 61_253
SOLVE_STEPS = 250_000
# The wall-clock guard over every offline solve of one command, in seconds: never what decides an
# answer (the counts above bound the work first; unsloth's solves take ~15 s of CPU), only a last
# resort for a machine far slower than any measured: past it the command gives no verdict
# (SolveTimeExceeded, exit 3) rather than another answer.
SOLVE_SECONDS = 600.0
STEPS_VARIABLE = "COMPAT_SOLVE_STEPS"
SECONDS_VARIABLE = "COMPAT_SOLVE_SECONDS"


class SolveTimeExceeded(UncheckedError):
    """The wall-clock guard over a command's offline solves ran out: no verdict (exit 3)."""


@dataclass
class SolveBudget:
    """What every offline solve of one command may spend together: `steps` (rounds and rejected
    releases, the bound that decides) and `seconds` (the wall-clock guard, measured inside the
    solves only). From COMPAT_SOLVE_STEPS / COMPAT_SOLVE_SECONDS where set: a smaller budget for
    tests and for a user who wants an answer sooner, the same answer on every machine."""

    steps: int = SOLVE_STEPS
    seconds: float = SOLVE_SECONDS
    steps_spent: int = 0
    seconds_spent: float = 0.0

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SolveBudget:
        import os

        env = os.environ if environ is None else environ
        return cls(
            steps=int(_setting(env, STEPS_VARIABLE, SOLVE_STEPS, int)),
            seconds=float(_setting(env, SECONDS_VARIABLE, SOLVE_SECONDS, float)),
        )

    @property
    def exhausted(self) -> bool:
        return self.steps_spent >= self.steps

    def step(self, deadline: float) -> None:
        """One step of a solve: past the count, the solve stops (an answer: SolveStopped); past
        the guard's deadline, the command stops (no answer: SolveTimeExceeded)."""
        import time

        self.steps_spent += 1
        if self.steps_spent > self.steps:
            raise _Bound(
                f"the {self.steps} steps (rounds and rejected releases) every offline solve of "
                "one check may take together (a count of work)"
            )
        if time.monotonic() > deadline:
            raise SolveTimeExceeded(
                f"not judged: compat's offline solves exceeded {self.seconds:g} s of wall-clock "
                "time (a last-resort guard; counts of work bound the solve and decide its "
                f"answer, the clock never does): a far slower machine than any measured, or "
                f"${SECONDS_VARIABLE} set lower"
            )


def _setting(env: Mapping[str, str], name: str, default: float, kind: type) -> float:
    value = env.get(name, "").strip()
    if not value:
        return default
    try:
        number = kind(value)
    except ValueError:
        number = -1
    if not number > 0:
        raise UsageError(f"${name}={value!r} is not a positive number")
    return float(number)


# A package's candidate releases on one target (name, extras, Python, platform, markers): the
# same for every install one check solves, whatever index routing narrows them to.
_POOLS: dict[tuple[Any, ...], list[tuple[_Candidate, bool]]] = {}
# find_matches' answers for a package of the snapshot that no index routing narrows, no direct
# reference names and no other installer provides, over every solve of one process: a function
# of its pool (_POOLS' key), the set of clauses, the rejected releases and the text of the pin
# (the first `==V`: the release held where the snapshot does not list it). unsloth's 173 solves
# ask 26,515 such questions, 2,287 of them distinct (issue 45). Cleared past _ANSWERS_KEPT.
_ANSWERS: dict[tuple[Any, ...], tuple[_Candidate, ...]] = {}
_ANSWERS_KEPT = 50_000


class Wanted(NamedTuple):
    """One requirement of the install: a name, the releases it allows, the extras it asks for.
    `url`: a direct reference (its release and requirements are not in the snapshot)."""

    name: NormalizedName
    specifier: SpecifierSet
    extras: frozenset[str] = frozenset()
    url: bool = False
    constraint: bool = False  # a -c line: limits a package, never asks for it
    version: Version | None = None  # a direct reference's release, where its wheel name says
    # installed by another installer (conda): pip takes it as it is, requirements and all
    provided: bool = False


@dataclass(frozen=True)
class OfflineInstall:
    """What a fresh install takes as of the snapshot. `packages`: the release of every package
    the snapshot could pick. `unknown`: packages the install holds whose release the snapshot
    cannot tell, with what the install's requirements allow of them. `unread`: picked releases
    whose requirements are unknown ("deepspeed 0.16.2"). `required_by`: who pulls each package in
    (the first requirer, for notes)."""

    packages: dict[NormalizedName, Version]
    unknown: dict[NormalizedName, SpecifierSet] = field(default_factory=dict)
    unread: tuple[str, ...] = ()
    required_by: dict[NormalizedName, str] = field(default_factory=dict)
    recorded: tuple[str, ...] = ()  # releases judged by compat/data/recorded-requires.json
    installed: tuple[str, ...] = ()  # releases judged by the installed metadata where compat runs

    @property
    def missing(self) -> tuple[str, ...]:
        """What the solve could not read: packages and releases whose requirements are unknown
        or known only in part (the recorded ones). Empty: the install is solved from whole
        metadata."""
        return (*self.unread, *self.unknown, *self.recorded)

    @property
    def incomplete(self) -> bool:
        return bool(self.missing)


class NoOfflineInstall(Exception):
    """The snapshot holds no install of these requirements (or the solve ran out of rounds):
    the message says which, in one line. `explanation`: where the solve proved it, which
    requirement excludes which (empty where it stopped without a proof)."""

    def __init__(self, message: str, explanation: str = "") -> None:
        super().__init__(message)
        self.explanation = explanation


class SolveStopped(NoOfflineInstall):
    """The solve reached a count of work (MAX_ROUNDS, MAX_REJECTED, or the command's steps in
    SolveBudget): no answer either way, the same on every machine."""


class _Bound(Exception):
    """Raised inside resolvelib's loop when a bound is reached: its message names it."""


class _Bounded(BaseReporter):  # type: ignore[type-arg]
    """resolvelib's reporter, counting rounds and rejected releases (the command's budget) and
    watching the clock (the last-resort guard)."""

    def __init__(self, budget: SolveBudget, deadline: float) -> None:
        self.budget = budget
        self.deadline = deadline
        self.rejected = 0

    def starting_round(self, index: int) -> None:
        self.budget.step(self.deadline)

    def rejecting_candidate(self, criterion: Any, candidate: Any) -> None:
        self.rejected += 1
        if self.rejected > MAX_REJECTED:
            raise _Bound(f"{MAX_REJECTED} releases tried and rejected (a count of work)")
        self.budget.step(self.deadline)


def label() -> str:
    """Who solved an offline install, as reports name a resolver."""
    from compat.resolve.sources import snapshot

    return f"compat's offline solve over its dependency snapshot of {snapshot.fetched()}"


class _Candidate(NamedTuple):
    name: NormalizedName
    version: Version | None  # None: a release the snapshot cannot tell (uncovered, or a URL)
    extras: frozenset[str]
    requires: tuple[Requirement, ...]
    known: bool  # whether `requires` is the release's whole requirement list
    # where `requires` came from: "snapshot", "installed", "recorded" (in part), "" (unknown)
    source: str = ""


@cache
def _applied(
    lines: tuple[str, ...], extras: frozenset[str], markers: tuple[tuple[str, str], ...]
) -> tuple[Requirement, ...]:
    """A release's requirements that apply on the target, markers evaluated (transitive's one
    cached filter: releases share their lists) and then dropped: the candidate has decided them."""
    from compat.resolve.check.transitive import _asked, _line_applies

    ordered = tuple(sorted(extras))
    return tuple(
        _unmarked(line) for line in lines if _line_applies(line, _asked(line, ordered), markers)
    )


@cache
def _unmarked(line: str) -> Requirement:
    """One requirement line, parsed and without its marker, once per process: releases share
    their lines, and the solve's per-requirement caches (_Provider) are keyed by the object."""
    from compat.resolve.check.transitive import _parse

    requirement = _parse(line)
    assert requirement is not None  # _line_applies: an unparsable line never applies
    return _without_marker(requirement)


def _portable(requires: tuple[Requirement, ...]) -> tuple[Requirement, ...]:
    """A release's requirements less the CUDA libraries its build chose (nvidia-*, cuda-*)."""
    return tuple(
        r for r in requires if not canonicalize_name(r.name).startswith(("nvidia-", "cuda-"))
    )


def _rocm_build(requires: tuple[Requirement, ...]) -> tuple[Requirement, ...]:
    """torch's requirements as its ROCm build declares them: PyPI's less what the CUDA build
    adds (compat.kb.torchrocm.cuda_requirement: the CUDA libraries and triton)."""
    from compat.kb.torchrocm import cuda_requirement

    return tuple(r for r in requires if not cuda_requirement(str(r)))


def _exact(specifier: SpecifierSet) -> Version | None:
    """The version an `==V` (or `===V`) clause names, when there is one."""
    return (_first_pin(specifier) or (None,))[0]


def _first_pin(specifier: SpecifierSet) -> tuple[Version | None, ...]:
    """What _exact says of the first `==V` (or `===V`) clause: (its version,), (None,) where
    that is no version; () where no clause pins, so that the first pin of specifiers joined
    (`&`) is the first of theirs that has one."""
    for clause in specifier:
        if clause.operator in ("==", "===") and "*" not in clause.version:
            try:
                return (Version(clause.version),)
            except ValueError:
                return (None,)
    return ()


class _Facts(NamedTuple):
    """What the solve asks of one requirement object, answered once (_Provider._facts)."""

    requirement: Requirement  # kept: its id() is the key
    identifier: str
    clauses: frozenset[str]  # each clause of its specifier, as text
    pinned: bool  # an `==V` clause
    first_pin: tuple[Version | None, ...]  # _first_pin of its specifier
    bounded: bool  # an upper bound
    satisfied: dict[Version, bool]  # release -> whether the specifier allows it


class _Provider(AbstractProvider):  # type: ignore[type-arg]
    """resolvelib's provider over the snapshot: what pip's provider does over an index."""

    def __init__(
        self,
        python: Version,
        markers: Mapping[str, str],
        urls: Mapping[NormalizedName, Version | None],
        limits: Mapping[NormalizedName, SpecifierSet],
    ) -> None:
        self.limits = limits  # -c lines: they limit a package's releases without asking for it
        from compat.kb.wheels import target_platform

        self.python = Version(f"{python.major}.{python.minor}")
        self.platform = target_platform(markers)
        self.markers = markers
        self.urls = urls
        self.roots: set[str] = set()
        self.running: dict[NormalizedName, tuple[Version, tuple[str, ...]]] | None = None
        self.pools: dict[tuple[NormalizedName, frozenset[str]], list[tuple[_Candidate, bool]]] = {}
        self.served: dict[NormalizedName, Callable[[Version], bool]] = {}
        self.provided: dict[NormalizedName, Version | None] = {}
        # Packages another index builds (torch from a PyTorch CUDA index): the CUDA libraries
        # PyPI's build requires are not that build's
        self.rebuilt: frozenset[NormalizedName] = frozenset()
        # ...and of those, the ones that index builds for ROCm: no CUDA libraries, no triton
        self.rocm_built: frozenset[NormalizedName] = frozenset()
        self.marker_key = tuple(sorted(markers.items()))
        # find_matches' answers: backtracking asks the same question again and again.
        self.answers: dict[
            tuple[str, frozenset[str], frozenset[Version | None]], tuple[_Candidate, ...]
        ] = {}
        # ...and asks it with the same objects: unsloth's 173 solves call find_matches 1.1
        # million times with 44 thousand distinct (identifier, requirement objects, rejected
        # candidate objects), where building `answers`' key (each requirement's clauses joined,
        # the rejected releases as a set) cost more than the answers (issue 45). Keyed by the
        # objects' ids, the objects kept in the value so that the ids stay theirs.
        self.asked: dict[
            tuple[Any, ...], tuple[tuple[_Candidate, ...], list[Requirement], list[_Candidate]]
        ] = {}
        # is_satisfied_by's answers by (requirement, candidate) object, both kept in the value
        self.satisfies: dict[tuple[int, int], tuple[bool, Requirement, _Candidate]] = {}
        # get_preference's set of identifiers behind the last backtrack, for the causes it was
        # worked out from (their ids; the causes kept): asked again for every name of a round
        self.causes: tuple[tuple[int, ...], list[Any], frozenset[str]] = ((), [], frozenset())
        # An identifier's name and extras, parsed once
        self.parsed: dict[str, tuple[NormalizedName, frozenset[str]]] = {}
        # The releases of a pool pip may pick at a pin, and of those the ones whose
        # requirements are known: per (name, extras, pin), asked again on every answer missed
        self.allowed: dict[
            tuple[NormalizedName, frozenset[str], Version | None],
            tuple[list[_Candidate], list[_Candidate]],
        ] = {}
        # What resolvelib asks of one requirement object millions of times while backtracking
        # (its identifier, its clauses, whether it pins or bounds, which releases satisfy it),
        # worked out once per object: the objects are few (_unmarked shares them), the questions
        # many (issue 45). Keyed by id(), the object kept beside the answer so the id stays its.
        self.facts: dict[int, _Facts] = {}
        self.keys: dict[tuple[NormalizedName, frozenset[str]], str] = {}
        self.limit_clauses = {n: frozenset(map(str, s)) for n, s in limits.items()}
        self.limit_pins = {n: _first_pin(s) for n, s in limits.items()}
        # get_dependencies' answer per candidate object (the candidate kept): the same
        # requirement objects each time it is asked, so that the caches above keyed by them hit
        self.dependencies: dict[int, tuple[_Candidate, list[Requirement]]] = {}

    @staticmethod
    def _key(name: str, extras: Iterable[str]) -> str:
        extras = sorted(extras)
        return f"{name}[{','.join(extras)}]" if extras else name

    def _facts(self, requirement: Requirement) -> _Facts:
        # An id in `facts` is its requirement's: the entry keeps the object alive, so no other
        # live object has that id.
        found = self.facts.get(id(requirement))
        if found is None:
            specifier = requirement.specifier
            found = _Facts(
                requirement,
                self._key(canonicalize_name(requirement.name), requirement.extras),
                frozenset(str(clause) for clause in specifier),
                _exact(specifier) is not None,
                _first_pin(specifier),
                any(c.operator in ("<", "<=", "~=") for c in specifier),
                {},
            )
            self.facts[id(requirement)] = found
        return found

    def identify(self, requirement_or_candidate: Any) -> str:
        item = requirement_or_candidate
        known = self.facts.get(id(item))  # a requirement asked of before (see _facts)
        if known is not None:
            return known.identifier
        if isinstance(item, _Candidate):
            key = self.keys.get((item.name, item.extras))
            if key is None:
                key = self.keys[(item.name, item.extras)] = self._key(item.name, item.extras)
            return key
        return self._facts(item).identifier

    def get_preference(
        self,
        identifier: str,
        resolutions: Mapping[str, Any],
        candidates: Mapping[str, Iterator[Any]],
        information: Mapping[str, Iterator[Any]],
        backtrack_causes: Sequence[Any],
    ) -> tuple[int, int, int, int, str]:
        # pip's order: names that caused backtracking first (resolve the conflict where it is),
        # then exact pins, upper-bounded requirements, what the user asked for; then the name.
        pinned = bounded = False
        for told in information[identifier]:
            facts = self._facts(told.requirement)
            pinned = pinned or facts.pinned
            bounded = bounded or facts.bounded
        return (
            0 if identifier in self._causes(backtrack_causes) else 1,
            0 if pinned else 1,
            0 if bounded else 1,
            0 if identifier in self.roots else 1,
            identifier,
        )

    def _causes(self, backtrack_causes: Sequence[Any]) -> frozenset[str]:
        """The identifiers of the requirements behind the last backtrack and of their parents:
        worked out again only when the causes are other objects (resolvelib asks get_preference
        of every unsatisfied name of a round, with the same causes)."""
        ids = tuple(map(id, backtrack_causes))
        if ids != self.causes[0]:
            causes = {self.identify(c.requirement) for c in backtrack_causes}
            causes |= {self.identify(c.parent) for c in backtrack_causes if c.parent is not None}
            self.causes = (ids, list(backtrack_causes), frozenset(causes))
        return self.causes[2]

    def find_matches(
        self,
        identifier: str,
        requirements: Mapping[str, Iterator[Requirement]],
        incompatibilities: Mapping[str, Iterator[_Candidate]],
    ) -> tuple[_Candidate, ...]:
        wanted = list(requirements[identifier])  # may be empty while resolvelib backjumps
        rejected = list(incompatibilities[identifier])
        # The answer is a function of the identifier, the requirements' specifiers and the
        # rejected releases: the same objects ask the same question (`asked`).
        key = (identifier, *map(id, wanted), None, *map(id, rejected))
        found = self.asked.get(key)
        if found is None:
            found = self.asked[key] = (self._answer(identifier, wanted, rejected), wanted, rejected)
        return found[0]

    def _answer(
        self, identifier: str, wanted: list[Requirement], rejected: list[_Candidate]
    ) -> tuple[_Candidate, ...]:
        parsed = self.parsed.get(identifier)
        if parsed is None:
            base, _, tail = identifier.partition("[")
            parsed = self.parsed[identifier] = (
                canonicalize_name(base),
                frozenset(e for e in tail.rstrip("]").split(",") if e),
            )
        name, extras = parsed
        # The releases allowed are those every clause allows: the set of clauses (the limit's
        # and each requirement's) is the question, as str(SpecifierSet) of them all was.
        facts = [self._facts(r) for r in wanted]
        clauses = self.limit_clauses.get(name, frozenset()).union(*(f.clauses for f in facts))
        bad = frozenset(c.version for c in rejected)
        key = (identifier, clauses, bad)
        found = self.answers.get(key)  # a revisit is answered from what was found
        if found is None:
            found = self.answers[key] = self._shared_answer(
                name, extras, wanted, facts, clauses, bad
            )
        return found

    def _shared_answer(
        self,
        name: NormalizedName,
        extras: frozenset[str],
        wanted: list[Requirement],
        facts: list[_Facts],
        clauses: frozenset[str],
        bad: frozenset[Version | None],
    ) -> tuple[_Candidate, ...]:
        """_matches' answer, from _ANSWERS where the package's answer is the same in every
        solve of the process (see there)."""
        whole = None
        if not (name in self.served or name in self.urls or name in self.provided):
            from compat.resolve.sources import snapshot

            if snapshot.covers(name):
                # The pin _exact finds in the specifier joined below, read from its parts
                pin = self.limit_pins.get(name, ())
                for each in facts:
                    pin = pin or each.first_pin
                pinned = (pin or (None,))[0]
                whole = (*self._shared_key(name, extras), clauses, bad, str(pinned))
                found = _ANSWERS.get(whole)
                if found is not None:
                    return found
        specifier = self.limits.get(name, SpecifierSet())
        for requirement in wanted:
            specifier &= requirement.specifier
        answer = tuple(self._matches(name, extras, specifier, bad, clauses))
        if whole is not None:
            if len(_ANSWERS) >= _ANSWERS_KEPT:
                _ANSWERS.clear()
            _ANSWERS[whole] = answer
        return answer

    def _shared_key(self, name: NormalizedName, extras: frozenset[str]) -> tuple[Any, ...]:
        """_POOLS' key of a package's pool on this target."""
        return (
            name, extras, str(self.python), self.platform, self.marker_key,
            name in self.rebuilt, name in self.rocm_built,
        )  # fmt: skip

    def _matches(
        self,
        name: NormalizedName,
        extras: frozenset[str],
        specifier: SpecifierSet,
        bad: AbstractSet[Version | None],
        clauses: frozenset[str],
    ) -> list[_Candidate]:
        from compat.resolve.sources import snapshot

        if name in self.provided:
            version = self.provided[name]
            if version in bad or (version is not None and not specifier.contains(version, True)):
                return []
            return [_Candidate(name, version, extras, (), True, "provided")]
        if name in self.urls:
            return self._direct(name, extras, bad)
        if not snapshot.covers(name):
            here = self._installed(name, extras, _exact(specifier))
            if here is not None:
                # The one release the pin allows, its requirements known: once rejected, no
                # release is left (never the unknown one below, which would satisfy anything).
                return [] if here.version in bad else [here]
            if None in bad:
                return []
            return [_Candidate(name, None, extras, (), False)]
        pinned = _exact(specifier)
        found = self.allowed.get((name, extras, pinned))
        if found is None:
            # PEP 592: yanked only where pinned exactly.
            every = [
                c for c, yanked in self._pool(name, extras) if not yanked or c.version == pinned
            ]
            found = self.allowed[(name, extras, pinned)] = (every, [c for c in every if c.source])
        allowed, told = found
        # A release whose requirements are unknown would satisfy anything: backtracking into one
        # (vllm 0.1.3, sdists only) is never what pip does, which builds it and reads what it
        # requires. Releases with known requirements come first; the others only where none of
        # those fits the requirement at all (antlr4-python3-runtime==4.9.*: sdists only).
        out = _fitting(told, specifier, clauses)
        if not out:
            out = _fitting(allowed, specifier, clauses)
        out = [c for c in out if c.version not in bad]
        if (
            not out
            and pinned is not None
            and pinned not in bad
            and pinned not in snapshot.releases(name)
            and specifier.contains(pinned, prereleases=True)
        ):
            # A release the snapshot does not list (older than its first day, or never
            # published: compat says which elsewhere): held at its pin, requirements unknown.
            out.append(self._candidate(name, pinned, extras, None))
        return out

    def _pool(self, name: NormalizedName, extras: frozenset[str]) -> list[tuple[_Candidate, bool]]:
        """Every release of `name` pip could pick on the target, newest first, with whether it
        is yanked: built once per package and extras (resolvelib asks again on every round).
        find_matches offers the releases whose requirements are unknown last."""
        key = (name, extras)
        if key not in self.pools:
            # The same package on the same target in every install a check solves: built once
            # per process (_POOLS), then narrowed to what this install's indexes serve.
            rebuilt = name in self.rebuilt
            rocm = name in self.rocm_built
            shared = self._shared_key(name, extras)
            if shared not in _POOLS:
                from compat.resolve.sources import snapshot

                built = [
                    (self._candidate(name, r.version, extras, r.requires), r.yanked)
                    for r in reversed(snapshot.records(name))
                    if self._installable(name, r)
                ]
                if rebuilt:
                    built = [(c._replace(requires=_portable(c.requires)), y) for c, y in built]
                if rocm:
                    built = [(c._replace(requires=_rocm_build(c.requires)), y) for c, y in built]
                _POOLS[shared] = built
            served = self.served.get(name)
            self.pools[key] = (
                _POOLS[shared]  # never changed: shared as it is where no index narrows it
                if served is None
                else [(c, y) for c, y in _POOLS[shared] if served(c.version)]  # type: ignore[arg-type]
            )
        return self.pools[key]

    def _installed(
        self, name: NormalizedName, extras: frozenset[str], pinned: Version | None
    ) -> _Candidate | None:
        """A package the snapshot does not cover, pinned exactly to the release installed where
        compat runs: that release's own metadata says what it requires (a fact about the
        release, whatever machine reads it), with the extras asked for (`x[a]==1`: what extra
        `a` requires too, as a snapshot release's candidate has)."""
        if pinned is None:
            return None
        if self.running is None:
            from compat.facts.installed import read_running

            self.running = {n: (p.version, p.requires) for n, p in read_running().packages.items()}
        here = self.running.get(name)
        if here is None or here[0] != pinned:
            return None
        found = self._candidate(name, here[0], extras, tuple(here[1]))
        return found._replace(source="installed")

    def _direct(
        self, name: NormalizedName, extras: frozenset[str], bad: AbstractSet[Version | None]
    ) -> list[_Candidate]:
        """A direct reference: the release its wheel's name says, with the snapshot's
        requirements of that release where the wheel is the index's own build (no local label:
        a `+cu118` build declares other requirements); else a release and requirements unknown."""
        from compat.resolve.sources import snapshot

        version = self.urls[name]
        if version in bad:
            return []
        lines = None
        if version is not None and version.local is None:
            lines = snapshot.releases(name).get(version)
        if version is None:
            return [_Candidate(name, None, extras, (), False)]
        if lines is None:
            return [_Candidate(name, version, extras, (), False)]
        return [self._candidate(name, version, extras, lines)]

    def _installable(self, name: NormalizedName, record: Any) -> bool:
        """pip skips a release that publishes nothing it can install on the target (its
        Requires-Python excludes the target's Python, or no file fits): the snapshot's record,
        and compat's wheel table where it knows the release (the table no-wheel-for-target
        reads: the solve never picks what that rule calls uninstallable)."""
        from compat.kb import wheels

        if record.installable(self.python) is False:
            return False
        if self.platform is None:
            return True
        found = wheels.availability(name, record.version, self.platform, self.python)
        return found is None or found[0] != "none"

    def _candidate(
        self,
        name: NormalizedName,
        version: Version,
        extras: frozenset[str],
        lines: tuple[str, ...] | None,
    ) -> _Candidate:
        if lines is not None:
            requires = _applied(lines, extras, self.marker_key)
            return _Candidate(name, version, extras, requires, True, "snapshot")
        from compat.resolve.check.transitive import _recorded_lines

        recorded = _recorded_lines(name, version, tuple(extras), self.markers)
        if recorded is not None:
            return _Candidate(name, version, extras, recorded, False, "recorded")
        return _Candidate(name, version, extras, (), False)

    def is_satisfied_by(self, requirement: Requirement, candidate: _Candidate) -> bool:
        # Asked millions of times of a few thousand pairs (resolvelib checks every pin against
        # every requirement on it each round): answered by the pair of objects, both kept in
        # the value so that the ids stay theirs; then by the release (_Facts.satisfied).
        found = self.satisfies.get((id(requirement), id(candidate)))
        if found is None:
            answer = self._satisfied(requirement, candidate)
            found = self.satisfies[(id(requirement), id(candidate))] = (
                answer,
                requirement,
                candidate,
            )
        return found[0]

    def _satisfied(self, requirement: Requirement, candidate: _Candidate) -> bool:
        if candidate.version is None:
            return True
        satisfied = self._facts(requirement).satisfied
        found = satisfied.get(candidate.version)
        if found is None:
            found = satisfied[candidate.version] = requirement.specifier.contains(
                candidate.version, prereleases=True
            )
        return found

    def get_dependencies(self, candidate: _Candidate) -> list[Requirement]:
        # resolvelib asks again for each candidate it tries and backjumps over; it only reads
        # the list. A requirement with a marker (recorded-requires, installed metadata) is
        # copied without it: once per candidate, not per question.
        found = self.dependencies.get(id(candidate))
        if found is None:
            deps = [_without_marker(r) for r in candidate.requires]
            if candidate.extras and candidate.version is not None:
                # An extra's candidate holds its base release at the same version (pip's way).
                deps.append(_base_pin(candidate.name, candidate.version))
            found = self.dependencies[id(candidate)] = (candidate, deps)
        return found[1]


@cache
def _base_pin(name: NormalizedName, version: Version) -> Requirement:
    """`name==version`, one object per release (the solve's caches are keyed by the object)."""
    return Requirement(f"{name}=={version}")


# _fitting's answers over every solve of one process (issue 45: 1.4 million `contains` for
# unsloth's extras, the same few thousand questions asked again by each solve): per set of
# clauses (the specifier's text, clause by clause), whether it allows a release, as a final
# release and at all. SpecifierSet.contains with `prereleases` given depends on nothing else.
_FITS: dict[tuple[frozenset[str], bool], dict[Version, bool]] = {}
_FITS_KEPT = 20_000  # sets of clauses kept; past that the answers are dropped and found again


def _fitting(
    candidates: list[_Candidate], specifier: SpecifierSet, clauses: frozenset[str]
) -> list[_Candidate]:
    """Final releases the specifier allows; pre-releases only where the requirement names one or
    no final fits (pip's rule, packaging's SpecifierSet.filter). `clauses`: the specifier's."""
    if any("===" in clause for clause in clauses):  # compares the text: equal versions differ
        out = [c for c in candidates if specifier.contains(c.version, prereleases=False)]  # type: ignore[arg-type]
        if not out:
            out = [c for c in candidates if specifier.contains(c.version, prereleases=True)]  # type: ignore[arg-type]
        return out
    out = _fits(candidates, specifier, clauses, False)
    if not out:
        out = _fits(candidates, specifier, clauses, True)
    return out


def _fits(
    candidates: list[_Candidate], specifier: SpecifierSet, clauses: frozenset[str], pre: bool
) -> list[_Candidate]:
    known = _FITS.get((clauses, pre))
    if known is None:
        if len(_FITS) >= _FITS_KEPT:
            _FITS.clear()
        known = _FITS[(clauses, pre)] = {}
    out = []
    for candidate in candidates:
        version: Version = candidate.version  # type: ignore[assignment]
        found = known.get(version)
        if found is None:
            found = known[version] = specifier.contains(version, prereleases=pre)
        if found:
            out.append(candidate)
    return out


def _without_marker(requirement: Requirement) -> Requirement:
    """The requirement without its marker (the candidate already evaluated it for the target)."""
    if requirement.marker is None:
        return requirement
    copy = Requirement(str(requirement))
    copy.marker = None
    return copy


def _recorded_fit(requirement: Requirement) -> bool:
    """Whether the snapshot records a release the requirement allows."""
    from compat.resolve.sources import snapshot

    name = canonicalize_name(requirement.name)
    return any(requirement.specifier.contains(v, True) for v in snapshot.releases(name))


def _explain(causes: Iterable[Any], pinned: Mapping[NormalizedName, Version | None]) -> str:
    """Which requirement excludes which, as the solve found them: "transformers 4.30.0 requires
    tokenizers!=0.11.3,<0.14,>=0.11.1, the files require tokenizers==0.20.0 — no release ..."."""
    said: list[str] = []
    causes = list(causes)
    # A proof only where every requirement in the conflict is the files' own or that of a release
    # the files pin exactly: the snapshot models the rest (a project's extras naming the project
    # itself, releases it cannot read) too loosely to call an install impossible on it.
    if any(
        c.parent is not None
        and (c.parent.version is None or pinned.get(c.parent.name) != c.parent.version)
        for c in causes
    ):
        return ""
    # Nor where a requirement of the files allows no release the snapshot records (openai 0.28
    # is older than its first day): that is the snapshot's gap, not a conflict.
    if not causes or any(c.parent is None and not _recorded_fit(c.requirement) for c in causes):
        return ""
    for cause in causes:
        parent = cause.parent
        who = (
            "the files require"
            if parent is None
            else f"{parent.name} {parent.version} requires"
            if parent.version is not None
            else f"{parent.name} requires"
        )
        said.append(f"{who} {cause.requirement}")
    said = list(dict.fromkeys(said))
    return (
        ", ".join(said[:8])
        + (", …" if len(said) > 8 else "")
        + " — no release the snapshot records meets all of these"
    )


def solve(
    wanted: Sequence[Wanted],
    python: Version,
    markers: Mapping[str, str],
    served: Mapping[NormalizedName, Callable[[Version], bool]] | None = None,
    rebuilt: frozenset[NormalizedName] = frozenset(),
    budget: SolveBudget | None = None,
    rocm_built: frozenset[NormalizedName] = frozenset(),
    *,
    clock: bool = True,
) -> OfflineInstall:
    """What a fresh install of `wanted` takes as of the snapshot; NoOfflineInstall when the
    snapshot holds none (or the solve reaches a count of work: SolveStopped). `served`: for a
    package bound to another index (torch to a PyTorch index), which of its releases that index
    serves; `rebuilt`: packages that index builds with other CUDA libraries than PyPI's build;
    `rocm_built`: packages it builds for ROCm (neither CUDA libraries nor triton).
    `budget`: what every solve of the command may spend together (this solve's own where None);
    SolveTimeExceeded where its wall-clock guard runs out (no answer, never another one);
    `clock=False`: no guard (the recorded corpus of tests/data/solves, replayed on any load)."""
    import resolvelib

    urls = {w.name: w.version for w in wanted if w.url}
    limits: dict[NormalizedName, SpecifierSet] = {}
    for item in wanted:
        if item.constraint:
            limits[item.name] = limits.get(item.name, SpecifierSet()) & item.specifier
    provider = _Provider(python, markers, urls, limits)
    provider.served = dict(served or {})
    provider.rebuilt = rebuilt
    provider.rocm_built = rocm_built
    provider.provided = {w.name: w.version for w in wanted if w.provided}
    roots: list[Requirement] = []
    for item in wanted:
        if item.constraint or item.provided:
            continue
        extras = f"[{','.join(sorted(item.extras))}]" if item.extras else ""
        roots.append(Requirement(f"{item.name}{extras}{item.specifier}"))
        provider.roots.add(provider.identify(roots[-1]))
    import time

    budget = SolveBudget.from_environment() if budget is None else budget
    if not clock:
        budget.seconds = float("inf")
    started = time.monotonic()
    reporter = _Bounded(budget, started + budget.seconds - budget.seconds_spent)
    resolver: Any = resolvelib.Resolver(provider, reporter)
    try:
        result = resolver.resolve(roots, max_rounds=MAX_ROUNDS)
    except _Bound as bound:
        raise SolveStopped(f"the offline solve stopped at its bound: {bound}") from None
    except resolvelib.ResolutionImpossible as error:
        causes = sorted({str(c.requirement) for c in error.causes})
        raise NoOfflineInstall(
            "no install of these requirements is in the snapshot"
            + (f" ({', '.join(causes[:4])}{', …' if len(causes) > 4 else ''})" if causes else ""),
            _explain(
                error.causes,
                {w.name: _exact(w.specifier) for w in wanted if not (w.constraint or w.url)},
            ),
        ) from None
    except resolvelib.ResolutionTooDeep:
        raise SolveStopped(
            f"the offline solve stopped at its bound: {MAX_ROUNDS} rounds (a count of work)"
        ) from None
    finally:
        budget.seconds_spent += time.monotonic() - started
    packages: dict[NormalizedName, Version] = {}
    unknown: dict[NormalizedName, SpecifierSet] = {}
    unread: set[str] = set()
    recorded: set[str] = set()
    installed: set[str] = set()
    for candidate in result.mapping.values():
        label = f"{candidate.name} {candidate.version}"
        if candidate.version is not None and not candidate.extras:
            {"": unread, "recorded": recorded, "installed": installed}.get(
                candidate.source, set()
            ).add(label)
        if candidate.source == "provided":
            continue  # another installer's: its facts are the declared ones
        if candidate.version is None:
            spec = SpecifierSet()
            for requirement in result.criteria[provider.identify(candidate)].iter_requirement():
                spec &= requirement.specifier
            unknown[candidate.name] = unknown.get(candidate.name, SpecifierSet()) & spec
        else:
            packages[candidate.name] = candidate.version
    required_by: dict[NormalizedName, str] = {}
    for key, criterion in result.criteria.items():
        for information in criterion.information:
            if information.parent is not None:
                name = canonicalize_name(key.split("[")[0])
                parent = information.parent
                required_by.setdefault(
                    name,
                    f"{parent.name} {parent.version}" if parent.version else str(parent.name),
                )
    return OfflineInstall(
        packages=dict(sorted(packages.items())),
        unknown=dict(sorted(unknown.items())),
        unread=tuple(sorted(unread)),
        required_by=required_by,
        recorded=tuple(sorted(recorded)),
        installed=tuple(sorted(installed)),
    )
