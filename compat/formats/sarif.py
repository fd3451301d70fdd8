"""`--format sarif`: SARIF 2.1.0 for code scanning. `ruleId` is the rule id; regions are real
file/line positions; fingerprints are stable across runs (rule, package, file — not the line)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from compat.formats.locations import (
    artifact_location,
    code_scanning_findings,
    finding_origin,
    message,
    relative_uri,
    source_root,
)
from compat.model import Finding, Rule, Severity, Status
from compat.report import COMPAT_VERSION, Report, Suppression
from compat.symptoms import readable_symptom

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_SECURITY_SEVERITY = {Severity.ERROR: "7.0", Severity.WARNING: "4.0", Severity.INFO: "1.0"}


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    symptoms = "\n".join(f"- `{readable_symptom(s.match)}`" for s in rule.symptoms)
    constraints = "\n".join(f"- `{c}`" for c in rule.fix.constraints)
    markdown = "\n\n".join(
        part
        for part in (
            rule.description,
            f"**Symptoms**\n\n{symptoms}" if symptoms else "",
            f"**Fix**: {rule.fix.summary}",
            f"**Constraints**\n\n{constraints}" if constraints else "",
            f"**Change**: {rule.fix.change}" if rule.fix.change else "",
            "**References**\n\n" + "\n".join(f"- <{r}>" for r in rule.references),
        )
        if part
    )
    return {
        "id": rule.id,
        "name": "".join(word.capitalize() for word in rule.id.replace(".", "-").split("-")),
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.description or rule.title},
        "helpUri": rule.references[0],
        "help": {"text": f"{rule.fix.summary}. See {rule.references[0]}", "markdown": markdown},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {
            "tags": ["compatibility", rule.evidence.value],
            "evidence": rule.evidence.value,
            "security-severity": _SECURITY_SEVERITY[rule.severity],
        },
    }


def fingerprint(finding: Finding, files: Sequence[str] = ()) -> str:
    origin = finding_origin(finding, files)
    parts = [
        finding.rule.id,
        *sorted(p.name for p in finding.packages),
        relative_uri(origin.path) if origin else "",
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def _result(
    finding: Finding,
    index: int,
    files: Sequence[str],
    state: str | None = None,
    suppression: Suppression | None = None,
    fixes: Sequence[Any] = (),
) -> dict[str, Any]:
    level = _LEVEL[finding.rule.severity]
    if finding.status is Status.POSSIBLE and level == "error":
        level = "warning"
    result: dict[str, Any] = {
        "ruleId": finding.rule.id,
        "ruleIndex": index,
        "level": level,
        "message": {"text": message(finding)},
        "partialFingerprints": {"compatFinding/v1": fingerprint(finding, files)},
        "properties": {
            "status": finding.status.value,
            "packages": [{"name": p.name, "version": p.version} for p in finding.packages],
            "unknown": [u.fact for u in finding.unknown],
        },
    }
    if state is not None:  # --baseline: SARIF's own word for it
        result["baselineState"] = state
    if suppression is not None:  # a waiver (external) or an inline comment (inSource)
        result["suppressions"] = [
            {
                "kind": suppression.kind,
                "status": "accepted",
                "justification": f"{suppression.reason} ({suppression.where})",
            }
        ]
    origin = finding_origin(finding, files)
    if origin is not None:
        result["locations"] = [_location(origin.path, origin.line)]
    answered = _fixes(finding, fixes)
    if answered:
        result["fixes"] = answered
    return result


def _fixes(finding: Finding, fixes: Sequence[Any]) -> list[dict[str, Any]]:
    """`check --fix`/`--diff`'s rewrites that answer the finding (compat.resolve.pin.rewrite
    LineFix): each the whole requirement line replaced, its line ending kept outside the region
    (a region without columns ends before the line's newline)."""
    from compat.resolve.pin.rewrite import fixes_for

    out = []
    for fix in fixes_for(finding, fixes):
        new = fix.edit.new
        ending = new[len(new.rstrip("\r\n")) :]
        out.append(
            {
                "description": {"text": f"{fix.display_name}=={fix.version}: {fix.why}"},
                "artifactChanges": [
                    {
                        "artifactLocation": artifact_location(fix.path),
                        "replacements": [
                            {
                                "deletedRegion": {
                                    "startLine": fix.edit.first,
                                    "endLine": fix.edit.last,
                                },
                                "insertedContent": {"text": new[: len(new) - len(ending)]},
                            }
                        ],
                    }
                ],
            }
        )
    return out


def _location(path: str, line: int | None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": artifact_location(path)}
    if line is not None:
        physical["region"] = {"startLine": line}
    return {"physicalLocation": physical}


def _notifications(report: Report) -> list[dict[str, Any]]:
    """Mistakes in the user's own settings (a waiver naming no rule): tool configuration
    notifications, which code scanning shows on the run."""
    notes = []
    for warning in report.warnings:
        note: dict[str, Any] = {"level": "warning", "message": {"text": warning.message}}
        if warning.path:
            note["locations"] = [_location(warning.path, warning.line)]
        notes.append(note)
    return notes


def render(report: Report, colour: bool = False, fixes: Sequence[Any] = ()) -> str:
    """`fixes`: check --fix/--diff's line rewrites, carried by the results they answer."""
    findings, left_out = code_scanning_findings(report)
    rules: list[Rule] = []
    positions: dict[str, int] = {}
    for finding in [*findings, *(f for f, _ in report.suppressed)]:
        if finding.rule.id not in positions:
            positions[finding.rule.id] = len(rules)
            rules.append(finding.rule)
    document: dict[str, Any] = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "compat",
                        "version": COMPAT_VERSION,
                        "informationUri": "https://github.com/compat-dev/compat",
                        "rules": [_rule_descriptor(rule) for rule in rules],
                    }
                },
                "results": [
                    *(
                        _result(
                            f,
                            positions[f.rule.id],
                            report.files,
                            report.baseline_state(f),
                            fixes=fixes,
                        )
                        for f in findings
                    ),
                    *(
                        _result(f, positions[f.rule.id], report.files, None, why)
                        for f, why in report.suppressed
                    ),
                ],
                "properties": {"knowledgeBase": report.knowledge_base},
            }
        ],
    }
    run = document["runs"][0]
    run.update(source_root())
    if report.warnings:
        run["invocations"] = [
            {"executionSuccessful": True, "toolConfigurationNotifications": _notifications(report)}
        ]
    if report.suppressed:
        run["properties"]["suppressed"] = len(report.suppressed)
    if left_out:  # possible findings that only a hardware profile could settle
        document["runs"][0]["properties"]["hardwareOnlyPossibleNotReported"] = left_out
    return json.dumps(document, indent=2) + "\n"
