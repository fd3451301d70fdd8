"""Findings compat states from what it verified itself, not from a rule of the knowledge base:
pip check's conflicts (compat.kb.pipcheck), lines of one install no version satisfies together
(compat.resolve.check.clash), pins of releases never published or yanked
(compat.resolve.sources.releases), builds that fail on the target
(compat.resolve.resolvers.buildfail). Each is `affected`, evidence `verified`, with a rule made
for the case that holds no condition (it is the fact itself); its id, title, fix and kind say
which case it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from compat.model import (
    Evidence,
    Finding,
    Fix,
    MatchedPackage,
    Origin,
    Rule,
    Severity,
    Status,
    Unknown,
)


def verified_finding(
    id: str,
    title: str,
    fix: Fix,
    *,
    kind: str,
    origin: Origin | None,
    packages: Iterable[MatchedPackage],
    matched: Iterable[str],
    references: Iterable[str] = (),
    severity: Severity = Severity.ERROR,
    evidence: Evidence = Evidence.VERIFIED,
    status: Status = Status.AFFECTED,
    unknown: Iterable[Unknown] = (),
) -> Finding:
    """A finding of a fact compat verified: its rule `id`, at `origin` (the line that asks for
    it). What compat read of the installed files (compat.kb.binarycheck) is `observed`, and one
    of those (two majors of a library) is only `possible`."""
    from compat.kb.conditions import All  # the rule language, only once a finding is made

    rule = Rule(
        id=id,
        title=title,
        severity=severity,
        evidence=evidence,
        when=All(()),
        fix=fix,
        references=tuple(references),
        origin=origin,
        kind=kind,
    )
    return Finding(
        rule=rule,
        status=status,
        packages=tuple(packages),
        matched=tuple(matched),
        unknown=tuple(unknown),
    )
