"""check's judgement of one install (a list of declared requirements) for a target: the real
resolver's pick or the ranges, the package facts (compat.resolve.check.declared), torch's CUDA build,
the engine's findings, and the notes that say what was not settled."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.engine import evaluate
from compat.kb.importtable import with_import_findings
from compat.kb.knowledge import KnowledgeBase
from compat.kb.sourcebuild import source_build_notes
from compat.model import Facts, Finding, PackageFact, Status
from compat.resolve.check.declared import (
    LOCK_KINDS,
    ROCM_INDEX,
    declared_facts,
    torch_cuda,
    torch_rocm_index,
)
from compat.resolve.sources.indexconfig import IndexOptions
from compat.resolve.target import TargetOptions


def _solve_budget() -> Any:
    """What every offline solve of one check may spend together (compat.resolve.check.offline:
    a count of steps decides; the clock is only a last-resort guard, past which the check gives
    no verdict). Once the steps are spent, further installs are judged by their pins alone, and
    the note names each install not solved: the same on every machine, however loaded."""
    from compat.resolve.check.offline import SolveBudget

    return SolveBudget.from_environment()


@dataclass
class Judge:
    """Judges one install (a list of declared requirements) for the target: its findings, its
    notes and its package facts."""

    kb: KnowledgeBase
    declared_set: Any
    target: TargetOptions
    index_options: IndexOptions
    resolver: str
    resolver_timeout: float | None
    usage: Mapping[str, Any]
    hardware: Any
    markers: Mapping[str, str]
    python_version: Version
    platform_name: str  # "linux/x86_64"
    # Over every install judged, one note each: ranges offline could not settle, and declared
    # packages whose requirements metadata could not be read.
    unsettled: list[str] = dataclasses.field(default_factory=list)
    unread: list[str] = dataclasses.field(default_factory=list)
    gave_up: str = ""  # the note of a resolve that did not happen, once it failed
    not_made: str = ""  # why that resolve did not happen (the verdict line, exit 3)
    range_notes: dict[str, None] = dataclasses.field(default_factory=dict)  # over every install
    # Every install a resolver (or the offline solve) made: who, and each package's release
    # (compat.report/1 environment.installs).
    installs: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    # Each pinned package's release list (compat.resolve.sources.releases), read once over every install.
    release_lists: dict[NormalizedName, Any] = dataclasses.field(default_factory=dict)
    release_why: str = ""  # why a pin's release list could not settle it
    # Offline: exact pins of packages the snapshot does not cover (the verdict line counts them).
    outside_snapshot: dict[str, None] = dataclasses.field(default_factory=dict)
    # Offline: range lines (and bare names) of packages the snapshot does not cover.
    ranges_outside: dict[str, None] = dataclasses.field(default_factory=dict)
    # The first install a resolver (or the offline solve) proved impossible, in one line
    # (summary.resolve_failed beside its install:unsatisfiable finding).
    unsatisfiable: str = ""
    # An index the resolver could not reach ("URL: cause"): the machine's network, never bad
    # input. Set once, the rest is judged without the resolve: exact pins and the offline solve.
    unreachable: str = ""
    # What the offline solves of this check have spent and may spend (offline.SolveBudget).
    solve_budget: Any = dataclasses.field(default_factory=_solve_budget)
    # --exclude-newer: only releases published by the end of this day (UTC), "2025-06-30".
    exclude_newer: str | None = None
    # The current install's proof that it cannot happen: (its finding, the explanation, who).
    _refused: tuple[Finding, str, str] | None = None  # and who proved it

    def __call__(
        self, declared: Sequence[Any]
    ) -> tuple[list[Finding], list[str], dict[NormalizedName, PackageFact]]:
        """One install's findings, notes and facts."""
        judged = self.judge(declared)
        assert judged is not None  # only a union is refused
        return judged

    def solve_offline(self, declared: Sequence[Any], notes: list[str]) -> Any:
        """Offline: the install a fresh `pip install` of `declared` makes as of the snapshot
        (compat.resolve.check.offline), with a note saying what it took; None, with a note, where the
        snapshot holds no install (the ranges are then judged as before)."""
        from compat.resolve.check.declared import wheel_version
        from compat.resolve.check.offline import NoOfflineInstall, SolveStopped, Wanted, solve
        from compat.resolve.sources import snapshot

        conda = frozenset(self.declared_set.conda.names if self.declared_set.conda else ())
        wanted = [
            Wanted(
                item.name,
                item.specifier,
                frozenset(item.extras),
                url=bool(item.url),
                constraint=item.kind == "constraint",
                version=wheel_version(item.url, item.name) if item.url else None,
            )
            for item in declared
            if item.kind in ("requirement", "constraint") and item.name not in conda
        ]
        # What conda installs, pip takes as installed: at its pin where the file pins it.
        wanted += [
            Wanted(item.name, SpecifierSet(), provided=True, version=item.pinned)
            for item in declared
            if item.name in conda and item.kind in ("requirement", "constraint")
        ]
        from compat.resolve.check.declared import torch_rebuilt, torch_servable

        served = {
            canonicalize_name("torch"): torch_servable(
                self.declared_set.indexes, self.platform_name, self.markers
            )
        }
        try:
            rebuilt = frozenset(
                [canonicalize_name("torch")]
                if torch_rebuilt(self.declared_set.indexes, self.markers)
                else []
            )
            budget = self.solve_budget
            if budget.exhausted:  # the check's steps are spent: no solve
                raise SolveStopped(
                    f"the offline solve stopped at its bound: the {budget.steps} steps every "
                    "offline solve of one check may take together (a count of work) were spent "
                    "on the installs before this one"
                )
            solved = solve(
                wanted, self.python_version, self.markers, served, rebuilt, budget=budget
            )
        except NoOfflineInstall as error:
            if error.explanation:  # a proof (not a bound reached): the install cannot happen
                self._refuse(
                    error.explanation, f"compat's dependency snapshot of {snapshot.fetched()}",
                    declared, notes,
                )  # fmt: skip
                return None
            if isinstance(error, SolveStopped):  # past the bound: no verdict, said (exit 3)
                asked = ", ".join(i.raw for i in declared if i.kind == "requirement")
                self.not_made = self.not_made or str(error)
                notes.append(
                    f"offline solve: {error} — not solved: the install of {asked}; its ranges "
                    "were judged over every version they allow, and the result is not a clean "
                    "verdict (exit 3 unless a finding fails the gate)"
                )
                return None
            notes.append(
                f"offline solve: {error} — ranges were judged over every version they allow"
            )
            return None
        notes.append(offline_note(solved, {item.name for item in declared}, rule_names(self.kb)))
        return solved

    def judge(
        self, declared: Sequence[Any], *, union: bool = False
    ) -> tuple[list[Finding], list[str], dict[NormalizedName, PackageFact]] | None:
        """`union`: every extra at once, or None when the resolver says they cannot install
        together. Five steps: what the files state (clashes, releases that exist), the install
        (the real resolver online, the offline solve over the snapshot), the package facts, the
        build facts, the findings."""
        from concurrent.futures import ThreadPoolExecutor
        from threading import Event

        from compat.resolve.check.clash import clash_findings

        notes: list[str] = []
        stated = [*clash_findings(declared)]
        # The pins' release lists are read while the resolver runs (both wait on the index),
        # from the moment its process runs: read before, they would delay its start.
        release_notes: list[str] = []
        launched = Event()

        def read_releases() -> list[Finding]:
            launched.wait()
            return self.releases(declared, release_notes)

        def releases() -> list[Finding]:
            launched.set()  # no resolver ran (offline, a clash, no lines): read them now
            return pending.result()

        with ThreadPoolExecutor(max_workers=1) as pool:
            pending = pool.submit(read_releases)
            try:
                install = self.install(declared, stated, releases, notes, union, launched.set)
            finally:
                launched.set()
            found = releases()
        if self.unreachable:  # one note names the index and why, not one per package
            release_notes = [n for n in release_notes if ": the index could not be read (" not in n]
        notes[:0] = release_notes
        if install is None:
            return None  # the union only: judged one install at a time instead
        resolved, resolved_by, solved = install
        if union and resolved is None:
            return None  # only a resolve can say which extras' pins win together
        if resolved is not None and solved is None:  # the real resolver's install, online
            found += self._pulled_no_wheel(declared, resolved)
        packages, pulled = self.packages(declared, resolved, resolved_by, solved, notes)
        facts, why = self.facts(packages, notes, declared)
        findings = self.findings(declared, facts, packages, pulled, solved, why, notes)
        refused, self._refused = self._refused, None
        if refused is not None:  # the first verdict: the install cannot happen as written
            from compat.resolve.check.unsatisfiable import mark_conflicted

            stated.insert(0, refused[0])
            from compat.resolve.check.unsatisfiable import readable

            said = f"{refused[2]} proves the install impossible: {readable(refused[1])}"
            self.unsatisfiable = self.unsatisfiable or said
            findings = mark_conflicted(findings, refused[1])
            found = mark_conflicted(found, refused[1])
        if resolved is not None:
            notes += range_notes(self.kb, facts, findings, declared_facts(declared, self.kb, []))
        return [*stated, *found, *findings], notes, packages

    def install(
        self,
        declared: Sequence[Any],
        stated: list[Finding],
        releases: Callable[[], Sequence[Finding]],
        notes: list[str],
        union: bool,
        launched: Callable[[], None] = lambda: None,
    ) -> tuple[dict[NormalizedName, Version] | None, str, Any] | None:
        """What the install holds: (the releases, who resolved them, the offline solve or
        None); the releases None where nothing could resolve them. None: the resolver refused
        the union of extras. A build that fails on the target joins `stated`. `releases` gives
        the release findings of the pins (read beside the resolve, from `launched` on: called
        once the resolver runs)."""
        resolved, resolved_by = None, ""
        online = not self.index_options.offline and _needs_resolve(declared)
        if online and stated:
            notes.append(
                "the resolver was not run: these requirements cannot install together (the "
                "pip-check:conflict findings); ranges were judged over every version they allow"
            )
        elif online and self.gave_up:
            notes.append(self.gave_up)  # out of time once: not again for each extra
        elif online:
            before = len(notes)
            made = self.resolve_online(declared, stated, notes, union, launched)
            unpublished = [f for f in releases() if f.rule.id.startswith("release:unpublished:")]
            if made is not None and made[0] is None:
                # No install: a range line of a project no index lists may be why.
                absent = self._absent_ranges(declared)
                stated += absent
                unpublished += absent
            if unpublished and (made is None or made[0] is None):
                # The resolver refused a pin that names no release: that is the reason.
                del notes[before:]
                notes.append(
                    "a pinned release was never published, or no index lists a project (the "
                    "release:unpublished findings), so pip and uv refuse these requirements; "
                    "ranges were judged over every version they allow"
                )
                made = None, ""
                self._refused = None  # the unpublished pin is the reason, said by its finding
            if made is None:
                return None
            resolved, resolved_by = made
        solved = None
        # Offline, or the index could not be reached: the install as of compat's snapshot.
        solving = self.index_options.offline or (bool(self.unreachable) and not union)
        if resolved is None and solving and self._refused is None and _needs_resolve(declared):
            if not stated:
                solved = self.solve_offline(declared, notes)
            if solved is not None:
                from compat.resolve.check.offline import label

                resolved, resolved_by = dict(solved.packages), label()
        if resolved is not None:
            self.installs.append(
                {"by": resolved_by, "packages": {str(n): str(v) for n, v in resolved.items()}}
            )
        return resolved, resolved_by, solved

    def resolve_online(
        self,
        declared: Sequence[Any],
        stated: list[Finding],
        notes: list[str],
        union: bool,
        launched: Callable[[], None] = lambda: None,
    ) -> tuple[dict[NormalizedName, Version] | None, str] | None:
        """The real resolver's install; (None, "") with a note where it gave no answer; None
        where it refused the union of extras (judged one install at a time instead)."""
        from compat.errors import IndexAccessError
        from compat.resolve.resolvers.resolver import BuildFailed, ResolutionFailed, ResolveNotMade

        try:
            made = resolve_declared(
                declared, self.declared_set, self.target, self.index_options, notes,
                self.resolver, self.resolver_timeout, refusal_raises=True,
                relevant=rule_names(self.kb), launched=launched, exclude_newer=self.exclude_newer,
            )  # fmt: skip
            if made[1] and made[2]:  # resolved, but without an index it could not reach
                self._unreached(made[2], notes)
                return None, ""
            return made[0], made[1]
        except IndexAccessError as error:
            self._unreached(error.message, notes)
        except BuildFailed as error:
            if union:
                return None  # judged one install at a time, each with its finding
            from compat.resolve.resolvers.buildfail import build_failure

            finding, note = build_failure(error, declared)
            stated.append(finding)
            notes.append(note)
        except ResolutionFailed as error:
            if union:
                return None  # the extras judged one install at a time
            self._refuse(error.message, error.tool, declared, notes)
        except ResolveNotMade as error:
            # No verdict from the resolver (a time limit, or the tool failed): said, and the
            # verdict line and exit status (3) say the answer lacks it (docs/resolver.md).
            self.not_made = not_made(error)
            stated += self._unbuilt(error, declared)  # issue 44 item 3
            self.gave_up = (
                f"{self.not_made} — ranges were judged offline, over every version they "
                "allow, and the result is not a clean verdict (exit 3 unless a finding fails "
                "the gate)"
            )
            notes.append(self.gave_up)
        return None, ""

    def _refuse(self, explanation: str, by: str, declared: Sequence[Any], notes: list[str]) -> None:
        """The install cannot happen: its finding (kept for judge, unless an unpublished pin
        explains the refusal), the verdict line's reason, and a note."""
        from compat.resolve.check.unsatisfiable import ID, readable, unsatisfiable_finding

        self._refused = unsatisfiable_finding(explanation, by, declared), explanation, by
        said = readable(explanation)
        notes.append(
            f"{by} cannot install these requirements together for the target ({ID}): {said} — "
            "ranges were judged over every version they allow"
        )

    def _unreached(self, message: str, notes: list[str]) -> None:
        """An index the resolver could not reach: the machine's network. One note names it and
        why; every install is then judged without the resolve (exact pins, the offline solve
        over compat's snapshot), and the verdict says the resolve did not happen (exit 3)."""
        from compat.resolve.sources import snapshot

        reason = message.split(" could not reach ", 1)[-1]
        url, _, cause = reason.rpartition(": ")
        self.unreachable = reason
        self.not_made = f"the index {url or 'of the resolve'} could not be reached ({cause})"
        self.gave_up = (
            f"the resolve did not happen: {self.not_made} (the machine's network; every "
            "other index may answer) — exact pins are judged as written and the rest by "
            f"compat's offline solve over its dependency snapshot of {snapshot.fetched()}; not "
            "a clean verdict (exit 3 unless a finding fails the gate)"
        )
        notes.append(self.gave_up)

    def packages(
        self,
        declared: Sequence[Any],
        resolved: Mapping[NormalizedName, Version] | None,
        resolved_by: str,
        solved: Any,
        notes: list[str],
    ) -> tuple[dict[NormalizedName, PackageFact], dict[NormalizedName, PackageFact]]:
        """Every package's fact, and those of packages the files do not name that were inferred
        (not resolved) — the install's releases where a resolve or the solve made them, else
        the ranges and what they pull in."""
        packages = declared_facts(
            declared, self.kb, notes, resolved, resolved_by, unsettled_out=self.unsettled
        )
        pulled: dict[NormalizedName, PackageFact] = {}
        if solved is not None:
            packages = placed(packages, solved, declared)
            pulled = unknown_facts(solved, declared, packages, self.kb, notes)
        elif (
            not any(i.kind in LOCK_KINDS for i in declared)
            and resolved is None
            and not self.solve_budget.exhausted  # past the check's bound: the pins alone
        ):
            from compat.resolve.check.transitive import infer

            # The index itself only where the resolver was asked and gave no answer; else the
            # shipped snapshot, never the cache (same input, same answer). What conda installs
            # pulls in conda's dependencies, not what PyPI's metadata of that name requires.
            conda = frozenset(self.declared_set.conda.names if self.declared_set.conda else ())
            online = (
                not self.index_options.offline and not self.unreachable and _needs_resolve(declared)
            )
            pulled, pulled_notes = infer(
                [i for i in declared if i.name not in conda],
                packages, self.kb, self.markers, self.index_options, online, self.unread,
            )  # fmt: skip
            notes += pulled_notes
            notes.append(
                "packages not named in these files are treated as absent unless a note above "
                "infers them; check a lock file or `pip install --dry-run --report` output for "
                "the whole resolved set"
            )
        return {**packages, **pulled}, pulled

    def facts(
        self,
        packages: Mapping[NormalizedName, PackageFact],
        notes: list[str],
        declared: Sequence[Any] = (),
    ) -> tuple[Facts, str]:
        """The engine's facts for the install, and where torch's CUDA build came from."""
        from compat.facts.declared import condaspec
        from compat.probes.cuda import builds_from_versions

        declared_set = self.declared_set
        exact_versions = {name: fact.versions[0] for name, fact in packages.items() if fact.exact}
        builds = {
            k: Version(str(v))
            for k, v in builds_from_versions(
                {str(name): version for name, version in exact_versions.items()}
            ).items()
        }
        # conda specs (environment.yml, pixi) name torch's CUDA build in their own words
        torch_fact = packages.get(canonicalize_name("torch"))
        conda_builds, conda_torch = condaspec.check_builds(
            declared_set.conda, torch_fact is not None
        )
        for key, value in conda_builds.items():
            builds.setdefault(key, value)
        cuda, why = conda_torch or torch_cuda(
            torch_fact, declared_set.indexes, self.platform_name, self.markers
        )
        unknown_builds: dict[str, str] = {}
        candidates: dict[str, frozenset[Version | None]] = {}
        served, flagged = self._flag_rocm_index(torch_fact)
        if served and why != ROCM_INDEX and not conda_torch:
            cuda, why = None, ROCM_INDEX  # the flags, pip's configuration or UV_TORCH_BACKEND
        if why == ROCM_INDEX:
            rocm = torch_rocm_index(declared_set.indexes) or flagged
            if rocm is not None:
                builds.setdefault("torch_rocm", rocm)
                notes.append(f"torch's ROCm build {rocm}: from the PyTorch ROCm index")
        self._xformers_rocm(packages, builds, unknown_builds, notes)
        if cuda is not None:
            builds["torch_cuda"] = cuda
            notes.append(f"torch's CUDA build {cuda}: from {why}")
        elif why == "unsettled":
            unknown_builds["torch_cuda"] = (
                "which torch release (and CUDA build) a resolve installs: pin torch"
                + (", or run online" if self.index_options.offline else "")
            )
            found = self.torch_candidates(torch_fact, declared, notes)
            if found is not None:
                candidates["torch_cuda"] = found
        elif why == condaspec.UNSETTLED:
            unknown_builds["torch_cuda"] = condaspec.UNSETTLED_NEEDS
        facts = Facts(
            packages=dict(packages),
            python_version=self.python_version,
            markers=self.markers,
            hardware=self.hardware,
            builds=builds,
            usage=dict(self.usage),
            unknown_builds=unknown_builds,
            build_candidates=candidates,
            conda_packages=frozenset(declared_set.conda.names if declared_set.conda else ()),
            build_channels=condaspec.build_channels(declared_set.conda, conda_torch),
            target_assumed=self.target_assumed(),
        )
        return facts, why

    def torch_candidates(
        self, torch: PackageFact | None, declared: Sequence[Any], notes: list[str]
    ) -> frozenset[Version | None] | None:
        """The CUDA builds an unsettled torch range can bring on the target: those of the
        releases it allows that the target's Python and platform can install (issue 44 item 4:
        a driver question only where such a release makes it true), with a note saying which;
        None, with the reason in a note, where that cannot be known."""
        from compat.resolve.check.declared import torch_cuda_candidates
        from compat.resolve.sources import snapshot
        from compat.resolve.sources.installable import TargetInstalls

        if torch is None or torch.exact:
            return None
        spec = SpecifierSet()
        lines = [
            i for i in declared if i.name == torch.name and i.kind in ("requirement", "constraint")
        ]
        for item in lines:
            spec &= item.specifier
        installs = TargetInstalls(self.python_version, self.platform_name)
        builds, releases, unknown = torch_cuda_candidates(
            spec, self.declared_set.indexes, installs, self.markers
        )
        # Pulled in, not named: every release is judged (what pulls it in is not read here).
        line = " and ".join(f"`{i.raw}`" for i in lines) if lines else "torch (pulled in)"
        if unknown:
            notes.append(
                f"torch's CUDA build: not settled, and not bounded: of what {line} allows, "
                f"{installs.label} may install {unknown}, so every CUDA build stays a question"
            )
            return None
        shown = ", ".join(sorted(f"CUDA {b}" if b else "CPU" for b in builds))
        _, unlisted, _ = installs.possible_parts(canonicalize_name("torch"), spec)
        taken = [v for v in unlisted if v in releases]
        assumed = (
            f"; {len(taken)} of them, {taken[0]} to {taken[-1]}, listed there without their "
            "files, are taken as installable"
            if taken
            else ""
        )
        notes.append(
            f"torch's CUDA build: not settled; of what {line} allows, {installs.label} can "
            f"install torch {releases[0]} to {releases[-1]} ({len(releases)} releases, "
            f"compat's dependency snapshot of {snapshot.fetched()}{assumed}), whose builds are "
            f"{shown}: a rule about another build does not apply"
        )
        return builds

    def target_assumed(self) -> frozenset[str]:
        """The target facts compat assumed (no --python-version; no machine in --platform:
        `--platform darwin` names none, x86_64 is compat's default, not theirs)."""
        platform = self.target.platform if "/" in (self.target.platform or "") else None
        return frozenset(
            name
            for name, given in (("python", self.target.python_version), ("platform", platform))
            if given is None
        )

    def findings(
        self,
        declared: Sequence[Any],
        facts: Facts,
        packages: Mapping[NormalizedName, PackageFact],
        pulled: Mapping[NormalizedName, PackageFact],
        solved: Any,
        why: str,
        notes: list[str],
    ) -> list[Finding]:
        """The engine's findings for the install: hedged where the offline solve guessed, ranges
        offline could not settle turned into range notes."""
        kb = self.kb
        findings = [attach_build_packages(f, packages, why) for f in evaluate(kb, facts)]
        findings = with_import_findings(findings, facts.packages)  # releases whose imports break
        if solved is not None and solved.incomplete:
            # What the files allow is certain whatever the pick: a rule every allowed release
            # hits stays affected (the ranges judged as offline always judged them).
            ranged = declared_facts(declared, kb, [])
            widened = dataclasses.replace(facts, packages={**facts.packages, **ranged})
            certain = {f.rule.id for f in evaluate(kb, widened) if f.status is Status.AFFECTED}
            named = {item.name for item in declared}
            findings = [
                f
                if f.rule.id in certain and all(p.name in named for p in f.packages)
                else hedge_offline(f, solved, declared)
                for f in findings
            ]
        findings, unsettled = split_unsettled(findings, packages, pulled, self.unsettled_why())
        notes += unsettled
        self.range_notes.update(dict.fromkeys(unsettled))  # the verdict line counts them once
        notes += source_build_notes(kb, facts)  # why a prebuilt-wheel rule said nothing
        return findings

    def unsettled_why(self) -> str:
        """Why a resolve did not settle a release: never "offline" in an online run."""
        if self.not_made:
            return "the resolve did not happen"
        return "offline" if self.index_options.offline else "the resolver gave no install"

    def releases(self, declared: Sequence[Any], notes: list[str]) -> list[Finding]:
        """Exact pins of releases the index (offline: the snapshot) never published, or yanked:
        their findings, and one note naming the pins no release list could settle."""
        from compat.resolve.sources.releases import (
            index_lists,
            pinned_lines,
            release_findings,
            snapshot_lists,
            unsettled_note,
        )

        # What conda installs comes from a conda channel, whose versions are not the index's.
        conda = frozenset(self.declared_set.conda.names if self.declared_set.conda else ())
        pins = [item for item in pinned_lines(declared) if item.name not in conda]
        todo = sorted({item.name for item in pins} - self.release_lists.keys())
        if todo and self.index_options.offline:
            self.release_lists.update(snapshot_lists(todo))
            self.release_why = (
                "offline: compat's dependency snapshot does not record every release of these "
                "packages"
            )
        elif todo:
            urls, skipped, self.release_why = self._release_indexes(todo)
            read, unread = index_lists(
                [n for n in todo if n not in skipped], urls, self.index_options.timeout
            )
            self.release_lists.update(read)
            self.release_lists.update(dict.fromkeys(skipped))
            notes += unread
        findings, unsettled = release_findings(pins, self.release_lists)
        findings += self._no_wheel(pins)  # issue 44 item 3 (compat.resolve.sources.nowheel)
        if self.index_options.offline:
            from compat.resolve.sources.snapshot import covers

            self.outside_snapshot.update(
                (f"{i.name}=={i.pinned}", None) for i in unsettled if not covers(i.name)
            )
            self.ranges_outside.update(
                (f"{i.name}{i.specifier}", None)
                for i in declared
                if i.kind in ("requirement", "constraint")
                and i.pinned is None
                and not i.url
                and i.name not in conda
                and not covers(i.name)
            )
        if unsettled:
            notes.append(unsettled_note(unsettled, self.release_why))
        return findings

    def _absent_ranges(self, declared: Sequence[Any]) -> list[Finding]:
        """Online, where the resolver gave no install: the range lines (and bare names) of
        projects every index the install asks answered for and none lists (issue 44 item 2,
        as for an exact pin). Read only then: a resolve that installs found every project."""
        from compat.resolve.sources.releases import absent_findings, index_lists

        conda = frozenset(self.declared_set.conda.names if self.declared_set.conda else ())
        items = [
            i
            for i in declared
            if i.kind in ("requirement", "constraint")
            and i.pinned is None
            and not i.url
            and i.name not in conda
        ]
        todo = sorted({i.name for i in items} - self.release_lists.keys())
        if todo:
            urls, skipped, _ = self._release_indexes(todo)
            asked = [n for n in todo if n not in skipped]
            if urls and asked:
                read, _ = index_lists(asked, urls, self.index_options.timeout)
                self.release_lists.update(read)
        return absent_findings(items, self.release_lists)

    def _unbuilt(self, error: Any, declared: Sequence[Any]) -> list[Finding]:
        """The release whose source build the resolver could not make here, where the index
        shows it has no wheel for the target: a build on the target, whatever this machine does.
        pip resolving another target from wheels only names a requirement instead: the newest
        release it allows, where its project publishes wheels at all (else its sdist is its
        ordinary install, as DeepSpeed's)."""
        if error.build is None and getattr(error, "wanted", None) is not None:
            error.build = self._wanted_release(*error.wanted)
        if error.build is None:
            return []
        from compat.kb.wheels import target_platform
        from compat.resolve.sources.nowheel import unbuilt_finding
        from compat.resolve.target import target_markers

        markers, python = target_markers(self.target)
        platform = target_platform(markers)
        urls, _, _ = self._release_indexes([NormalizedName(error.build[0])])
        if platform is None or not urls:
            return []
        name, version = error.build
        return unbuilt_finding(name, version, declared, urls, python, platform, self.index_options)

    def _pulled_no_wheel(
        self, declared: Sequence[Any], resolved: Mapping[NormalizedName, Version]
    ) -> list[Finding]:
        """Online, after the resolver's install: every release it holds that the files do not
        pin exactly, read from the index's files, judged as a pin is (issue 44 item 3): with no
        wheel for the target, a build there (or nothing to install), whether or not this machine
        built it (pip builds an sdist here when the target is this machine; uv reads an sdist's
        metadata for any target). At the line that asks for it, else the install's first line.
        Only projects that publish wheels: where none does, the sdist is the ordinary install."""
        from dataclasses import replace

        from compat.kb.wheels import target_platform
        from compat.resolve.sources.nowheel import findings
        from compat.resolve.sources.releases import index_lists
        from compat.resolve.target import target_markers

        markers, python = target_markers(self.target)
        platform = target_platform(markers)
        pinned = {i.name for i in declared if i.pinned is not None}
        conda = frozenset(self.declared_set.conda.names if self.declared_set.conda else ())
        names = sorted(n for n in resolved if n not in pinned and n not in conda)
        if platform is None or not names:
            return []
        urls, skipped, _ = self._release_indexes(names)
        todo = [n for n in names if n not in skipped and n not in self.release_lists]
        if urls and todo:
            read, _ = index_lists(todo, urls, self.index_options.timeout)
            self.release_lists.update(read)
        # A project that publishes no wheel for any release is built from source as its ordinary
        # install (DeepSpeed; wheels.yaml's source-build-for-target says the same): not reported.
        files = {
            n: (r.files, r.source)
            for n in names
            if (r := self.release_lists.get(n)) is not None
            and r.files
            and any(f.endswith(".whl") for listed in r.files.values() for f in listed)
        }
        first = next((i for i in declared if i.kind == "requirement"), None)
        asking = {i.name: i for i in declared if i.kind in ("requirement", "constraint")}
        lines = []
        for name in files:
            line = asking.get(name, first)
            if line is None:
                continue
            version = resolved[name]
            lines.append(
                replace(
                    line,
                    name=name,
                    display_name=name,
                    specifier=SpecifierSet(f"=={version}"),
                    url=None,
                    marker=None,
                    extras=(),
                )
            )
        return findings(lines, files, python, platform)

    def _wanted_release(self, name: str, spec: str) -> tuple[str, str] | None:
        """The newest final, not yanked release of `name` that `spec` allows, from the index,
        where the project publishes a wheel for some release; None otherwise."""
        from packaging.specifiers import InvalidSpecifier

        from compat.resolve.sources.releases import index_lists

        normalized = canonicalize_name(name)
        try:
            allowed = SpecifierSet(spec)
        except InvalidSpecifier:
            return None
        if normalized not in self.release_lists:
            urls, skipped, _ = self._release_indexes([normalized])
            if not urls or normalized in skipped:
                return None
            read, _ = index_lists([normalized], urls, self.index_options.timeout)
            self.release_lists.update(read)
        found = self.release_lists.get(normalized)
        if found is None or not found.files:
            return None
        if not any(f.endswith(".whl") for listed in found.files.values() for f in listed):
            return None
        versions = [
            v
            for v in found.files
            if allowed.contains(v) and not v.is_prerelease and v not in found.yanked
        ]
        return (name, str(max(versions))) if versions else None

    def _no_wheel(self, pins: Sequence[Any]) -> list[Finding]:
        """Online: exact pins whose release the index lists with no wheel for the target."""
        from compat.kb.wheels import target_platform
        from compat.resolve.sources.nowheel import findings
        from compat.resolve.target import target_markers

        files = {n: (r.files, r.source) for n, r in self.release_lists.items() if r and r.files}
        if not files:
            return []
        markers, python = target_markers(self.target)
        platform = target_platform(markers)
        return [] if platform is None else findings(pins, files, python, platform)

    def _xformers_rocm(
        self,
        packages: Mapping[NormalizedName, PackageFact],
        builds: dict[str, Version],
        unknown_builds: dict[str, str],
        notes: list[str],
    ) -> None:
        """xformers' ROCm build from the index lines it comes from (declared.xformers_rocm_index):
        a fact where the ROCm index alone serves it, a question where PyPI may win the tie."""
        from compat.kb.torchbuilds import index_rocm
        from compat.resolve.check.declared import XFORMERS_ROCM_UNSETTLED, xformers_rocm_index
        from compat.resolve.sources.indexconfig import resolve_index_config

        xformers = packages.get(canonicalize_name("xformers"))
        if xformers is None or any(v.local for v in xformers.versions):
            return
        rocm, settled = xformers_rocm_index(self.declared_set.indexes, self.markers)
        if rocm is None and settled and not self.declared_set.indexes:
            # no index line in the files: the flags, else pip's (or uv's) configuration
            config = resolve_index_config(
                index_url=self.index_options.index_url,
                extra_index_urls=tuple(self.index_options.extra_index_urls),
            )
            found = [r for url in config.urls if (r := index_rocm(url)) is not None]
            rocm = max(found) if found else None
            settled = len(found) == len(config.urls)
        if rocm is not None and settled:
            builds["xformers_rocm"] = rocm
            notes.append(f"xformers' ROCm build {rocm}: from the PyTorch ROCm index alone")
        elif rocm is not None:
            unknown_builds["xformers_rocm"] = XFORMERS_ROCM_UNSETTLED

    def _flag_rocm_index(self, torch: PackageFact | None) -> tuple[bool, Version | None]:
        """Whether torch comes from PyTorch's ROCm builds by the flags, pip's configuration or
        uv's `UV_TORCH_BACKEND` (the files' own lines are torch_cuda's), and the ROCm release
        where it is named. A ROCm index's +rocm build outranks PyPI's plain torch; uv's
        `rocmX.Y` backend takes that index, and `auto` takes a ROCm one on a machine with AMD
        GPUs (uv 0.7.14, astral-sh/uv#14176): which release is then uv's choice."""
        import os
        import re

        from compat.kb.torchbuilds import index_rocm
        from compat.resolve.sources.indexconfig import resolve_index_config

        if torch is None or any(v.local for v in torch.versions):
            return False, None
        backend = os.environ.get("UV_TORCH_BACKEND", "").strip().lower()
        if match := re.fullmatch(r"rocm(\d+)\.(\d+)(?:\.\d+)?", backend):
            return True, Version(f"{match[1]}.{match[2]}")
        gpus = self.hardware.gpus if self.hardware is not None else ()
        if backend == "auto" and gpus and all(g.is_amd for g in gpus):
            return True, None
        config = resolve_index_config(
            index_url=self.index_options.index_url,
            extra_index_urls=tuple(self.index_options.extra_index_urls),
        )
        found = [r for url in config.urls if (r := index_rocm(url)) is not None]
        return (True, max(found)) if found else (False, None)

    def _release_indexes(
        self, names: Sequence[NormalizedName]
    ) -> tuple[list[str], set[NormalizedName], str]:
        """The indexes pip reads for these packages (flags or configuration, then the files' own
        index lines), the packages whose list they cannot settle, and why."""
        from compat.resolve.sources.indexconfig import resolve_index_config

        config = resolve_index_config(
            index_url=self.index_options.index_url,
            extra_index_urls=tuple(self.index_options.extra_index_urls),
        )
        lines = list(self.declared_set.indexes)
        main = next(
            (line.url for line in lines if line.replaces_default and not line.packages), None
        )
        urls = [main or config.index_url, *config.extra_index_urls]
        urls += [line.url for line in lines if not line.replaces_default and not line.packages]
        if not self.index_options.offline:
            from compat.resolve.sources.asked import configured_indexes

            urls += configured_indexes()  # a private index the user configured is asked too
        urls = list(dict.fromkeys(u for u in urls if u))
        options = self.declared_set.options
        if not urls or any(k in options for k in ("-f", "--find-links", "--no-index")):
            why = "the files read --find-links or --no-index: releases may come from there"
            return [], set(names), why
        bound = {name for line in lines for name in line.packages}  # a package's own index
        return urls, set(names) & bound, "the index could not be read, or lists no such project"


_LISTED = 12  # pulled-in releases a note names (JSON's environment.installs has them all)


def install_note(
    by: str,
    packages: Mapping[NormalizedName, Version],
    declared: Container[NormalizedName],
    relevant: Container[str] = (),
) -> str:
    """What a resolve installed, in one note: who resolved it, how many distributions, and the
    releases the files do not name — those the knowledge base speaks of first, at most _LISTED
    (JSON: environment.installs has them all)."""
    pulled = sorted(
        (n for n in packages if n not in declared), key=lambda n: (n not in relevant, n)
    )
    shown = ", ".join(f"{n} {packages[n]}" for n in pulled[:_LISTED])
    more = len(pulled) - _LISTED
    return (
        f"judged the install {by}: {len(packages)} distributions"
        + (f", pulling in {shown}" if pulled else "")
        + (f" and {more} more (--format json: environment.installs)" if more > 0 else "")
    )


_RULE_NAMES: dict[str, frozenset[str]] = {}


def rule_names(kb: KnowledgeBase) -> frozenset[str]:
    """Every package name a rule of `kb` speaks of (once per knowledge base: every install of a
    check asks)."""
    from compat.kb.questions import rule_packages

    if kb.digest not in _RULE_NAMES:
        _RULE_NAMES[kb.digest] = frozenset(n for rule in kb.plain for n in rule_packages(rule))
    return _RULE_NAMES[kb.digest]


def offline_note(
    solved: Any, declared: Container[NormalizedName], relevant: Container[str] = ()
) -> str:
    """What the offline solve installed, in one note: install_note's, and what the snapshot
    could not tell."""
    from compat.resolve.sources import snapshot

    text = install_note(
        f"a fresh `pip install` takes as of compat's dependency snapshot of {snapshot.fetched()} "
        "(offline solve, pip's resolution algorithm; a release published since may be what it "
        "takes today)",
        solved.packages,
        declared,
        relevant,
    )
    named = [n for n in solved.unknown if n in declared]
    pulled = [n for n in solved.unknown if n not in declared]
    if named:
        text += "; requirements not in the snapshot (what they pull in is not judged): " + (
            ", ".join(named)
        )
    if pulled:
        text += "; release not in the snapshot, judged over every release: " + ", ".join(pulled)
    if solved.recorded:
        text += (
            "; requirements taken from compat/data/recorded-requires.json (no wheel metadata): "
            + ", ".join(solved.recorded)
        )
    if solved.installed:
        text += "; requirements read from the installed metadata of " + ", ".join(solved.installed)
    if solved.unread:
        text += "; requirements unknown (no wheel metadata): " + ", ".join(solved.unread)
    return text


def _root(name: NormalizedName, solved: Any, roots: Mapping[NormalizedName, Any]) -> Any:
    """The declared line that pulls `name` in (through the solve's first requirers), or None."""
    seen: set[NormalizedName] = set()
    while name not in roots and name in solved.required_by and name not in seen:
        seen.add(name)
        name = canonicalize_name(solved.required_by[name].split(" ")[0])
    return roots.get(name)


def placed(
    packages: Mapping[NormalizedName, PackageFact], solved: Any, declared: Sequence[Any]
) -> dict[NormalizedName, PackageFact]:
    """Packages the offline solve pulled in, placed at the line of the declared package that
    pulls them in (a finding about torch points at `peft` when peft brings it)."""
    roots = {item.name: item for item in declared}
    out = dict(packages)
    for name, fact in packages.items():
        if fact.origin is None:
            root = _root(name, solved, roots)
            if root is not None:
                out[name] = fact._replace(origin=root.origin)
    return out


def unknown_facts(
    solved: Any,
    declared: Sequence[Any],
    packages: Mapping[NormalizedName, PackageFact],
    kb: KnowledgeBase,
    notes: list[str],
) -> dict[NormalizedName, PackageFact]:
    """Packages the offline solve holds at a release the snapshot cannot tell, that the files do
    not name: each a ranged fact (what the install's requirements allow of it), at the line of
    the declared package that pulls it in — unknown, never absent."""
    from compat.resolve.check.declared import KnowledgeBaseRanges

    roots = {item.name: item for item in declared}
    ranged: dict[NormalizedName, tuple[Any, Any]] = {}
    for name, spec in solved.unknown.items():
        if name in packages or name in roots:
            continue
        root = _root(name, solved, roots) or next(iter(roots.values()), None)
        if root is not None:
            ranged[name] = (spec, root)
    out: dict[NormalizedName, PackageFact] = {}
    for name, (versions, source) in KnowledgeBaseRanges(kb).allowed(ranged, notes).items():
        root = ranged[name][1]
        out[name] = PackageFact(
            name, versions, name, root.origin, requirement=f"{name}{ranged[name][0]}",
            candidates_from=source,
        )  # fmt: skip
    return out


def hedge_offline(finding: Finding, solved: Any, declared: Sequence[Any]) -> Finding:
    """An offline solve that holds a package whose requirements the snapshot lacks may have
    picked another release than pip will: what that package requires could exclude it. A
    finding that rests on such a pick (a release the files do not pin exactly) is `possible`,
    naming the missing fact — never `affected` on a guess. Pins the files state are facts."""
    from compat.model import Unknown

    missing = solved.missing
    if finding.status is not Status.AFFECTED or not missing:
        return finding
    pinned = {item.name for item in declared if item.pinned is not None}
    picked = [
        p.name
        for p in finding.packages
        if p.name in solved.packages and canonicalize_name(p.name) not in pinned
    ]
    if not picked:
        return finding
    listed = ", ".join(str(m) for m in missing[:4]) + (" and more" if len(missing) > 4 else "")
    unknown = tuple(
        Unknown(
            f"packages.{name}.release",
            f"pin {name}, or run online: which release a fresh install takes depends on what "
            f"{listed} require{'s' if len(missing) == 1 else ''}, which compat's dependency "
            "snapshot does not record",
        )
        for name in picked
    )
    return dataclasses.replace(
        finding, status=Status.POSSIBLE, unknown=(*finding.unknown, *unknown)
    )


_BUILD_PACKAGES = {
    "torch_cuda": ("torch",),
    "cuda_runtime": ("nvidia-cuda-runtime", "nvidia-cuda-runtime-cu13", "nvidia-cuda-runtime-cu12"),
    "cudnn": ("nvidia-cudnn-cu13", "nvidia-cudnn", "nvidia-cudnn-cu12"),
    "nccl": ("nvidia-nccl-cu13", "nvidia-nccl", "nvidia-nccl-cu12"),
}


def attach_build_packages(
    finding: Finding, packages: Mapping[NormalizedName, PackageFact], why: str
) -> Finding:
    """A finding about a CUDA build names the package whose build it is (`torch`, at its line),
    so that it points at the line to change and carries a SARIF location."""
    from compat.model import MatchedPackage
    from compat.resolve.check.declared import range_text

    keys = [k for k in _BUILD_PACKAGES if any(m.startswith(f"{k} ") for m in finding.matched)]
    keys += [k for k in _BUILD_PACKAGES if any(u.fact == f"build.{k}" for u in finding.unknown)]
    named = {p.name for p in finding.packages}
    added = []
    for key in dict.fromkeys(keys):
        for name in _BUILD_PACKAGES[key]:
            fact = packages.get(NormalizedName(name))
            if fact is None or fact.name in named:
                continue
            version = str(fact.versions[0]) if fact.exact else range_text(fact)
            added.append(MatchedPackage(fact.name, version, fact.origin))
            break
    matched = tuple(
        f"{m} ({why})" if why and m.startswith("torch_cuda ") else m for m in finding.matched
    )
    if not added and matched == finding.matched:
        return finding
    return dataclasses.replace(finding, packages=(*finding.packages, *added), matched=matched)


def split_unsettled(
    findings: Sequence[Finding],
    packages: Mapping[NormalizedName, PackageFact],
    inferred: Container[NormalizedName] = (),
    why: str = "offline",
) -> tuple[list[Finding], list[str]]:
    """Offline, a range that admits some bad releases is a range note, not a finding: which
    release a resolve installs is the one verdict offline cannot make. (Every allowed release
    bad: the finding stays — it is `affected`. A moving git ref stays `possible`.) No range note
    for a package `inferred` from another's requirements: its own note says it is judged over
    every release, and a line the user did not write has no range to pin."""
    kept: list[Finding] = []
    rules: dict[NormalizedName, list[str]] = {}
    for finding in findings:
        ranged = [
            NormalizedName(u.fact.split(".")[1])
            for u in finding.unknown
            if u.fact.count(".") == 1
            and u.fact.startswith("packages.")
            and getattr(packages.get(NormalizedName(u.fact.split(".")[1])), "candidates_from", None)
            == "knowledge-base"
        ]
        if not ranged:
            kept.append(finding)
            continue
        for name in ranged:
            if finding.rule.id not in rules.get(name, []):
                rules.setdefault(name, []).append(finding.rule.id)
    notes = []
    for name, ids in rules.items():
        fact = packages[name]
        if name in inferred:
            continue
        notes.append(
            f"{fact.origin}: `{fact.requirement}` allows {fact.label} releases that "
            f"{', '.join(ids)} {'is' if len(ids) == 1 else 'are'} about (range note, not a "
            f"finding: {why}, the release a resolve installs is unknown; pin {fact.label}, or "
            + (
                "run online to judge what the resolver picks)"
                if why == "offline"
                else "let the resolver run to judge what it picks)"
            )
        )
    return kept, notes


def range_notes(
    kb: KnowledgeBase,
    facts: Facts,
    findings: Sequence[Finding],
    ranged: Mapping[NormalizedName, PackageFact],
) -> list[str]:
    """A range that admits a bad release the resolve did not pick is a note, not a finding."""
    widened = {n: f for n, f in ranged.items() if not f.exact and n in facts.packages}
    if not widened:
        return []
    seen = {f.rule.id for f in findings}
    rules: dict[NormalizedName, list[str]] = {}
    for finding in evaluate(kb, dataclasses.replace(facts, packages={**facts.packages, **widened})):
        if finding.rule.id in seen or any(
            not u.fact.startswith("packages.") for u in finding.unknown
        ):
            continue  # only where the range alone decides it
        for unknown in finding.unknown:
            name = NormalizedName(unknown.fact.split(".")[1])
            if name in widened and finding.rule.id not in rules.get(name, []):
                rules.setdefault(name, []).append(finding.rule.id)
    notes = []
    for name, ids in rules.items():
        fact, picked = widened[name], facts.packages[name]
        notes.append(
            f"{fact.origin}: `{fact.requirement}` also allows {fact.label} releases that "
            f"{', '.join(ids)} {'is' if len(ids) == 1 else 'are'} about; the resolve picks "
            f"{picked.versions[0]} (range note, not a finding: pin {fact.label} to keep it)"
        )
    return notes


def not_made(error: Any) -> str:
    """A resolve that did not happen, in one line: which tool, and why."""
    from compat.resolve.resolvers.resolver import ResolverTimedOut

    if isinstance(error, ResolverTimedOut):
        # A time limit, not a count of work (neither pip nor uv offers one): said.
        return (
            f"{error.tool} did not finish resolving within its limit of {error.limit:g} s "
            "(--resolver-timeout)"
        )
    return str(error.message)


def _needs_resolve(declared: Sequence[Any]) -> bool:
    """Online, every install a file makes is resolved, fully pinned files included: what an exact
    pin pulls in (torch through peft, NumPy through scikit-learn) is judged at the release the
    resolver installs (issue 32). Only a lock (or a pip report or freeze: the install itself) is
    judged as written (a pyproject beside its lock: the lock is the install), and a set of URL
    lines alone gives the resolver nothing to pick."""
    locked = {item.name for item in declared if item.kind in LOCK_KINDS}
    return any(
        item.kind not in LOCK_KINDS and not item.url and item.name not in locked
        for item in declared
    )


def resolve_declared(
    declared: Sequence[Any],
    declared_set: Any,
    target: TargetOptions,
    index_options: IndexOptions,
    notes: list[str],
    tool: str = "auto",
    resolver_timeout: float | None = None,
    *,
    refusal_raises: bool = False,
    relevant: Container[str] = (),
    launched: Callable[[], None] = lambda: None,
    exclude_newer: str | None = None,
) -> tuple[dict[NormalizedName, Version] | None, str, str]:
    """What the real resolver installs for the declared set on the target, who resolved it and
    the index it went on without ("" where it reached them all), or None with a note when it
    refuses the set (`refusal_raises`: ResolutionFailed instead). Raises ResolverTimedOut when it
    runs out of time, IndexAccessError when it could not reach an index (the caller says so and
    judges without the resolve)."""
    from compat.resolve.resolvers.resolver import BuildFailed, ResolutionFailed, Target, resolve

    lines = [
        item.raw.split(";")[0].strip() if item.marker is not None else item.raw
        for item in declared
        if item.kind in ("requirement",) and not item.url
    ]
    constraints = [
        item.raw.split(";")[0].strip() if item.marker is not None else item.raw
        for item in declared
        if item.kind in ("constraint", *LOCK_KINDS) and not item.url
    ]
    options = [
        f"{'--index-url' if line.replaces_default else '--extra-index-url'} {line.url}"
        for line in declared_set.indexes
        if not line.packages
    ]
    limit = resolver_timeout or max(index_options.timeout * 8, 120.0)
    try:
        resolution = resolve(
            [*options, *lines],
            constraints,
            target=Target(target.python_version, target.platform),
            index=index_options,
            tool=tool,
            timeout=limit,
            launched=launched,
            exclude_newer=exclude_cutoff(exclude_newer),
        )
    except BuildFailed:
        raise  # a finding, not a note: the caller makes it
    except ResolutionFailed as error:
        if refusal_raises:
            raise
        notes.append(
            f"{error.tool} cannot install these requirements together for the target: "
            f"{error.message} — ranges were judged over every version they allow"
        )
        return None, "", ""
    if resolution.unreached:  # not the install: the caller says why
        return dict(resolution.packages), resolution.tool, resolution.unreached
    if exclude_newer is not None and resolution.tool.startswith("pip"):
        notes.append(
            f"pip has no --exclude-newer: its resolve may take releases published after "
            f"{exclude_newer} (--resolver uv applies the date)"
        )
    notes.append(
        install_note(
            f"{resolution.tool} resolves for the target",
            resolution.packages,
            {item.name for item in declared},
            relevant,
        )
    )
    return dict(resolution.packages), resolution.tool, resolution.unreached


def exclude_cutoff(day: str | None) -> str | None:
    """uv's --exclude-newer for "published by the end of DAY": the next midnight, UTC (uv reads
    a bare date as the start of that day in the local time zone)."""
    if day is None:
        return None
    import datetime as dt

    following = dt.date.fromisoformat(day) + dt.timedelta(days=1)
    return f"{following.isoformat()}T00:00:00Z"


def exclude_newer_note(day: str, kb_version: str, kb_digest: str, offline: bool) -> str:
    """What --exclude-newer did, with the knowledge base that judged (a reproducible verdict
    names both). The snapshot records no upload times: offline, the date limits nothing before
    the snapshot's own day, which the note says."""
    from compat.resolve.sources import snapshot

    said = (
        f"releases published by {day} (--exclude-newer), judged by knowledge base {kb_version} "
        f"({kb_digest[:19]})"
    )
    fetched = snapshot.fetched()
    if offline and day < fetched:
        said += (
            f"; offline, the date is not applied: compat's dependency snapshot of {fetched} "
            "records no upload times, so releases published between the two days are not "
            "excluded (run online with uv to apply it)"
        )
    return said
