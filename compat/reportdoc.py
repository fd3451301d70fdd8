"""The `compat.report/1` document of DESIGN.md's outside contract (`--format json`), written beside
`Report` so that `compat fleet` (below compat/formats/) reads and writes it on every node."""

from __future__ import annotations

import json
from typing import Any

from compat.model import Finding, Status
from compat.report import COMPAT_VERSION, Report
from compat.symptoms import readable_symptom

REPORT_SCHEMA = "compat.report/1"


def finding_document(finding: Finding) -> dict[str, Any]:
    rule = finding.rule
    return {
        "rule": rule.id,
        "kind": rule.kind,
        "title": rule.title,
        "severity": rule.severity.value,
        "status": finding.status.value,
        "evidence": rule.evidence.value,
        "packages": [
            {
                "name": p.name,
                "version": p.version,
                **({"source": str(p.origin)} if p.origin else {}),
            }
            for p in finding.packages
        ],
        "unknown": [{"fact": u.fact, "settle_with": u.needs} for u in finding.unknown],
        "matched": list(finding.matched),
        **({"install": finding.install} if finding.install else {}),  # check, with extras
        "symptoms": [readable_symptom(s.match) for s in rule.symptoms],
        "fix": {
            "summary": finding.remedy.summary,
            "constraints": list(finding.remedy.constraints),
            **({"change": finding.remedy.change} if finding.remedy.change else {}),
        },
        "references": list(rule.references),
        "source": str(rule.origin) if rule.origin else None,
    }


def _with_baseline(document: dict[str, Any], report: Report, finding: Finding) -> dict[str, Any]:
    state = report.baseline_state(finding)
    return document if state is None else {**document, "baseline": state}


def report_document(report: Report) -> dict[str, Any]:
    from compat.probes.profile import profile_document

    return {
        "schema": REPORT_SCHEMA,
        "compat_version": COMPAT_VERSION,
        "knowledge_base": report.knowledge_base,
        "environment": report.environment,
        "hardware": profile_document(report.hardware) if report.hardware is not None else None,
        "usage": report.usage,
        "findings": [_with_baseline(finding_document(f), report, f) for f in report.judged],
        "summary": {
            # With --baseline, the new findings only (`unchanged` counts the others).
            "affected": report.count(Status.AFFECTED),
            "possible": report.count(Status.POSSIBLE),
            # Added with issue 42: findings the baseline already held, and findings a waiver or
            # an inline `# compat: ignore[...]` silenced (in `suppressed`, never in `findings`).
            **({"unchanged": report.unchanged_count} if report.baseline is not None else {}),
            **({"suppressed": len(report.suppressed)} if report.files else {}),
            "needs_hardware": len(report.needs_hardware),
            # Added in 0.3: ranged requirements offline judgement left open (range notes).
            "unjudged_ranges": report.unjudged_ranges,
            # Added with issue 23, check only: why the resolve its ranges rest on did not happen
            # (the tool failed or ran out of time; exit 3), else null. Added with issue 44, check
            # only: exact pins offline judgement could not read (outside the snapshot).
            **(
                {
                    "resolve_failed": report.resolve_failed,
                    "unjudged_pins": report.unjudged_pins,
                    # Added with issue 44: range lines offline judgement could not read.
                    "unjudged_outside": report.unjudged_outside,
                }
                if report.files
                else {}
            ),
        },
        # Added in 0.2: possible findings that only a hardware profile could settle, while no
        # hardware is known (they are not in `findings` and never fail a gate).
        "needs_hardware": [finding_document(f) for f in report.needs_hardware],
        "notes": list(report.notes),
        # Added with issue 42 (check): silenced findings with why, and mistakes in the user's own
        # settings (a waiver or an inline ignore naming no rule, with the closest rule id).
        **(
            {
                "suppressed": [
                    {**finding_document(f), "suppression": s._asdict()}
                    for f, s in report.suppressed
                ],
                "warnings": [w._asdict() for w in report.warnings],
            }
            if report.files
            else {}
        ),
        # Added in 0.2 (doctor; null for check): the node and the facts `compat fleet` compares.
        "host": report.host,
        "stack": report.stack,
    }


def render(report: Report, colour: bool = False) -> str:
    return json.dumps(report_document(report), indent=2, ensure_ascii=False) + "\n"
