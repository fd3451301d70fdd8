"""The report: what a check found, in the shape every formatter reads (and `compat.report/1`)."""

from __future__ import annotations

import enum
import platform
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from compat import __version__
from compat.model import Finding, Hardware, Severity, Status


class FailOn(str, enum.Enum):
    AFFECTED = "affected"
    POSSIBLE = "possible"
    NEVER = "never"


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

    @property
    def knowledge_base(self) -> dict[str, Any]:
        """`knowledge_base` of compat.report/1 (source and version added in the trust phase)."""
        return {
            "rules": self.kb_rules,
            "digest": self.kb_digest,
            "source": self.kb_source,
            "version": self.kb_version,
        }

    @property
    def knowledge_base_label(self) -> str:
        if self.kb_source == "bundle":
            return f"knowledge base: bundle {self.kb_version}"
        return "knowledge base: shipped"

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
        return sum(1 for f in self.judged if f.status is status)

    def failing(self, fail_on: FailOn) -> list[Finding]:
        """Findings at or above the threshold; `info` findings never fail a gate."""
        if fail_on is FailOn.NEVER:
            return []
        statuses = (
            {Status.AFFECTED} if fail_on is FailOn.AFFECTED else {Status.AFFECTED, Status.POSSIBLE}
        )
        return [
            f for f in self.judged if f.status in statuses and f.rule.severity is not Severity.INFO
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
