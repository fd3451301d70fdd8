"""The engine: rules x facts -> findings, three-valued.

A rule whose conditions all hold is `affected`; one whose known conditions hold and whose other
conditions are unknown is `possible`, listing what was unknown and the flag that settles it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from compat.model import Evidence, Facts, Finding, Rule, Severity, Status, Tri

if TYPE_CHECKING:
    from packaging.version import Version

SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
STATUS_ORDER = {Status.AFFECTED: 0, Status.POSSIBLE: 1}


class RuleSource(Protocol):
    """What the engine asks of a knowledge base (compat.kb.knowledge.KnowledgeBase): the rules
    worth evaluating for the known package versions (None: packages unknown). A protocol, so
    that the engine sits below the knowledge base and every layer may use it."""

    def candidates_for(
        self, versions: Mapping[str, tuple[Version, ...]] | None
    ) -> Iterable[Rule]: ...


def evaluate_rule(rule: Rule, facts: Facts) -> Finding | None:
    verdict = rule.when.evaluate(facts)
    if verdict.value is Tri.FALSE:
        return None
    waiting = verdict.waiting and not verdict.told
    specific = verdict.anchored or (verdict.told and verdict.partial)
    if verdict.value is Tri.UNKNOWN and (waiting or not specific):
        # Not worth a user's minute (docs/knowledge-base.md): no specific package, python,
        # platform, hardware or build condition is known to hold (`accelerate>=0` anchors
        # nothing; a range that merely allows a bad version anchors only together with a usage
        # fact from the user's config that held), or the rule's trigger (8-bit loading, FSDP2, ...) is not known to be used and
        # nothing the user said about the run (a usage fact that held) points at this rule.
        return None
    status = Status.AFFECTED if verdict.value is Tri.TRUE else Status.POSSIBLE
    # One entry per fact: several conditions can ask about the same missing fact.
    unknown = tuple({u.fact: u for u in verdict.unknown}.values())
    packages = tuple({p.name: p for p in verdict.packages}.values())
    return Finding(rule, status, packages, unknown, verdict.held, fix=verdict.fix)


def evaluate(kb: RuleSource, facts: Facts, rules: Iterable[Rule] | None = None) -> list[Finding]:
    """Every finding for `facts`, most serious first (status, then severity, then rule id)."""
    if rules is None:
        rules = kb.candidates_for(
            {name: fact.versions for name, fact in facts.packages.items()}
            if facts.packages_known
            else None
        )
    findings = [f for f in (evaluate_rule(rule, facts) for rule in rules) if f is not None]
    findings.sort(key=finding_order)
    return findings


def finding_order(finding: Finding) -> tuple[int, int, int, str]:
    """Most serious first: affected before possible, then what the installed files showed
    (evidence `observed`) before what version numbers imply, then by severity, then by rule id."""
    return (
        STATUS_ORDER[finding.status],
        0 if finding.rule.evidence is Evidence.OBSERVED else 1,
        SEVERITY_ORDER[finding.rule.severity],
        finding.rule.id,
    )
