"""The report: what a check found, in the shape every formatter reads (and `compat.report/1`)."""

from __future__ import annotations

import enum
import platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from compat import __version__
from compat.model import Finding, Hardware, Severity, Status


class FailOn(str, enum.Enum):
    AFFECTED = "affected"
    POSSIBLE = "possible"
    NEVER = "never"


class Newer(NamedTuple):
    """An installed or pinned release newer than any the knowledge base's inputs saw."""

    name: str  # as the environment or file spells it
    version: str
    newest_seen: str


def fetched_label(fetched: Mapping[str, str] | None) -> str:
    """`PyPI data of 2026-11-24` (or `of 2026-11-24 to 2026-11-25`); empty when unknown."""
    if not fetched:
        return ""
    oldest, newest = fetched.get("oldest"), fetched.get("newest")
    return f"PyPI data of {oldest}" + (f" to {newest}" if newest and newest != oldest else "")


def ranges_verdict(count: int, online: bool = False) -> str:
    """The verdict's clause for ranged requirements offline judgement left open (`online`: the
    run was online but its resolve did not happen)."""
    if not count:
        return ""
    what = "ranged requirement allows" if count == 1 else "ranged requirements allow"
    return (
        f"{count} {what} known-bad releases (range notes above): pin "
        f"{'it' if count == 1 else 'them'}, or "
        + (
            "make the resolve possible (note above)"
            if online
            else "run online to judge what the resolver picks"
        )
    )


def pins_verdict(count: int, date: str, ranged: int = 0) -> str:
    """The verdict's clause for exact pins, and range lines, offline judgement could not read
    (outside the dependency snapshot): a clean verdict must not read as if they were judged."""
    parts = [f"{count} exact pin{'s' if count != 1 else ''}"] if count else []
    parts += [f"{ranged} ranged requirement{'s' if ranged != 1 else ''}"] if ranged else []
    verb = "was" if count + ranged == 1 else "were"
    return (
        f"{' and '.join(parts)} {verb} not judged: outside the snapshot of {date or 'unknown date'}"
    )


class Suppression(NamedTuple):
    """Why a finding is not reported as one: a waiver in the config (`external`) or a
    `# compat: ignore[RULE]` comment on its line (`inSource`, SARIF's words)."""

    kind: str  # "external" | "inSource"
    reason: str
    where: str  # "pyproject.toml:12", the waiver's or the comment's line


class ConfigWarning(NamedTuple):
    """A mistake in the user's own settings that changes nothing judged but must be seen in
    every format (a waiver naming no rule: the closest rule id)."""

    message: str
    path: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    kb_rules: int
    kb_digest: str
    environment: dict[str, Any]  # {"source", "python", "packages", "problems": [...]}
    hardware: Hardware | None
    hardware_note: str  # how hardware was obtained, or why it is unknown
    notes: tuple[str, ...] = ()  # what could not be checked, and other things to say once
    usage: dict[str, Any] = field(default_factory=dict)
    files: tuple[str, ...] = ()  # the checked files (check): where file-less findings point
    # doctor only: the node it ran on and the stack facts a fleet compares (compat/facts/nodes.py)
    host: dict[str, Any] | None = None
    stack: dict[str, Any] | None = None
    kb_source: str = "shipped"  # "shipped" with compat, or "bundle" (compat matrix update)
    kb_version: str = __version__  # compat's version for shipped rules, else the bundle's
    # How old the knowledge is (compat/kb/freshness.py): the inputs' fetch dates (shipped only),
    # releases newer than any it has seen, and ranged requirements offline left unjudged.
    kb_inputs: dict[str, str] | None = None
    newer_than_kb: tuple[Newer, ...] = ()
    unjudged_ranges: int = 0
    # check offline (issue 44 item 2): exact pins of packages the dependency snapshot does not
    # cover, so neither their release nor what they pull in was judged; and the snapshot's date.
    unjudged_pins: int = 0
    # check offline: range lines (and bare names) of packages the snapshot does not cover: what
    # they install, and what that pulls in, was not judged either.
    unjudged_outside: int = 0
    snapshot_date: str = ""
    # check: why the resolve its ranged verdicts rest on did not happen (None: it happened, or
    # none was needed). Not a clean verdict: said on the verdict line, exit 3 (docs/resolver.md).
    resolve_failed: str | None = None
    # check --baseline: for each of `findings`, "new" or "unchanged" (None: no baseline given).
    # Unchanged findings are reported as such and never counted or fail a gate.
    baseline: tuple[str, ...] | None = None
    # Findings a waiver or an inline comment silenced: shown apart (SARIF `suppressions`),
    # never counted with the findings or failing a gate.
    suppressed: tuple[tuple[Finding, Suppression], ...] = ()
    warnings: tuple[ConfigWarning, ...] = ()
    # Notes the verdict rests on (range notes, a resolve that did not happen): text shows these
    # even when it summarises the other notes in one line.
    verdict_notes: tuple[str, ...] = ()

    def baseline_state(self, finding: Finding) -> str | None:
        """ "new" or "unchanged" against --baseline; None without one."""
        if self.baseline is None:
            return None
        for position, held in enumerate(self.findings):
            if held is finding:
                return self.baseline[position]
        return "new"

    def unchanged(self, finding: Finding) -> bool:
        return self.baseline_state(finding) == "unchanged"

    # The bundle in force's stated expiry (YYYY-MM-DD), "" where none is stated or rules are
    # shipped: past it, every report warns (issue 42 item 14).
    kb_expires: str = ""

    def __post_init__(self) -> None:
        # A bundle past its stated expiry is a warning in every report (issue 42 item 14): the
        # first note, the knowledge-base label and the verdict line say so.
        if self.kb_source == "bundle" and self.kb_expired is not None:
            warning = self.kb_expired[1]
            if warning not in self.notes:
                object.__setattr__(self, "notes", (warning, *self.notes))

    @property
    def kb_expired(self) -> tuple[str, str] | None:
        """(the day it expired, the warning) while the bundle in force is past its expiry."""
        import datetime as dt

        if self.kb_source != "bundle" or not self.kb_expires:
            return None
        if dt.date.today().isoformat() <= self.kb_expires:
            return None
        return self.kb_expires, (
            f"warning: knowledge bundle {self.kb_version} expired on {self.kb_expires}: its "
            "rules may miss what was learned since; run `compat matrix update` (or `compat "
            "matrix update --reset` for the shipped rules)"
        )

    @property
    def knowledge_base(self) -> dict[str, Any]:
        """`knowledge_base` of compat.report/1 (source and version added in the trust phase)."""
        return {
            "rules": self.kb_rules,
            "digest": self.kb_digest,
            "source": self.kb_source,
            "version": self.kb_version,
            # Added in 0.3: the PyPI data the shipped rules were generated from, and what is newer.
            "inputs_fetched": self.kb_inputs,
            "newer_than_seen": [n._asdict() for n in self.newer_than_kb],
            # Added in issue 42: the day the bundle in force expired, null while it has not.
            "expired": self.kb_expired[0] if self.kb_expired else None,
        }

    @property
    def knowledge_base_label(self) -> str:
        if self.kb_source == "bundle":
            expired = self.kb_expired
            return f"knowledge base: bundle {self.kb_version}" + (
                f" (EXPIRED on {expired[0]}: compat matrix update)" if expired else ""
            )
        data = fetched_label(self.kb_inputs)
        return "knowledge base: shipped" + (f" ({data})" if data else "")

    def verdict_clauses(self) -> list[str]:
        """What a clean verdict must not hide: releases newer than the knowledge, ranges left
        unjudged offline (text, markdown and the pre-commit hook print these on the verdict)."""
        clauses = []
        expired = self.kb_expired
        if expired is not None:
            clauses.append(f"knowledge bundle {self.kb_version} expired on {expired[0]}")
        if self.newer_than_kb:
            names = ", ".join(f"{n.name} {n.version}" for n in self.newer_than_kb)
            clauses.append(f"newer than the knowledge base: {names}")
        if self.resolve_failed:
            # "pip 23.2.1 did not resolve" / "uv did not finish resolving within ...": the note
            # above says why and what compat did instead.
            head = self.resolve_failed.split(": ", 1)[0]
            if head.endswith(" proves the install impossible"):  # install:unsatisfiable
                clauses.append(f"the install cannot happen as written ({head})")
            else:
                clauses.append(f"the resolve it rests on did not happen ({head}; note above)")
        if self.unjudged_ranges:
            clauses.append(ranges_verdict(self.unjudged_ranges, bool(self.resolve_failed)))
        if self.unjudged_pins or self.unjudged_outside:
            clauses.append(
                pins_verdict(self.unjudged_pins, self.snapshot_date, self.unjudged_outside)
            )
        return clauses

    @property
    def source(self) -> str:
        """What was checked: "path DIR", "python PATH", "files a.txt, b.toml", ..."""
        return str(self.environment["source"])

    @property
    def package_count(self) -> int:
        """How many distributions (doctor) or declared packages (check) were judged."""
        return int(self.environment["packages"])

    @property
    def needs_hardware(self) -> tuple[Finding, ...]:
        """Possible findings that only GPU or driver facts could settle, while no hardware is
        known (no profile, not probed: a CI runner). They are one question — which machine? —
        not findings: reported apart (`needs_hardware` in JSON, one line in text), and never
        fail a gate, so a CPU runner's verdict does not turn on hardware it cannot see."""
        if self.hardware is not None:
            return ()
        return tuple(f for f in self.findings if f.status is Status.POSSIBLE and hardware_only(f))

    @property
    def judged(self) -> tuple[Finding, ...]:
        """The findings proper: everything except what waits for a hardware profile."""
        deferred = self.needs_hardware
        return tuple(f for f in self.findings if f not in deferred) if deferred else self.findings

    def count(self, status: Status) -> int:
        """Findings of `status`; with a baseline, the new ones only."""
        return sum(1 for f in self.judged if f.status is status and not self.unchanged(f))

    @property
    def unchanged_count(self) -> int:
        return sum(1 for f in self.judged if self.unchanged(f))

    def failing(self, fail_on: FailOn) -> list[Finding]:
        """Findings at or above the threshold; `info` findings never fail a gate."""
        if fail_on is FailOn.NEVER:
            return []
        statuses = (
            {Status.AFFECTED} if fail_on is FailOn.AFFECTED else {Status.AFFECTED, Status.POSSIBLE}
        )
        return [
            f
            for f in self.judged
            if f.status in statuses
            and f.rule.severity is not Severity.INFO
            and not self.unchanged(f)  # --baseline: only what is new fails the gate
        ]

    def exit_code(self, fail_on: FailOn) -> int:
        return 1 if self.failing(fail_on) else 0


def hardware_only(finding: Finding) -> bool:
    """Every fact this finding waits for is a GPU or driver fact."""
    return bool(finding.unknown) and all(u.fact.startswith("hardware.") for u in finding.unknown)


def python_description() -> str:
    return f"{platform.python_implementation()} {platform.python_version()}"


def environment_summary(
    source: str, python: str | None, packages: int, problems: Sequence[Any]
) -> dict[str, Any]:
    return {"source": source, "python": python, "packages": packages, "problems": list(problems)}


COMPAT_VERSION = __version__
