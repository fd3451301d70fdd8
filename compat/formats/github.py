"""`--format github`: GitHub Actions workflow commands (`::error file=...,line=...,title=...::msg`).

Escaping follows @actions/core's `command.ts`: in the message `%`, CR and LF are percent-encoded;
in property values `:` and `,` are too.
"""

from __future__ import annotations

from compat.formats.locations import (
    code_scanning_findings,
    finding_origin,
    message,
    relative_uri,
)
from compat.model import Severity, Status
from compat.report import Report

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, colour: bool = False) -> str:
    lines = []
    files = report.files
    findings, left_out = code_scanning_findings(report)
    gating = [
        f for f in findings if f.status is Status.AFFECTED and f.rule.severity is not Severity.INFO
    ]
    for warning in report.warnings:  # the user's own settings: where the mistake is
        where = (
            f" file={escape_property(relative_uri(warning.path))},line={warning.line or 1},"
            if warning.path
            else " "
        )
        lines.append(f"::warning{where}title=compat%3A config::{escape_data(warning.message)}")
    for finding in findings:
        # A `possible` finding is a warning at most: it depends on facts compat could not see.
        level = _LEVEL[finding.rule.severity]
        if finding.status is Status.POSSIBLE and level == "error":
            level = "warning"
        state = report.baseline_state(finding)
        if state == "unchanged":  # --baseline: already there, a notice; what is new is an error
            level = "notice"
        elif state == "new" and finding in gating:
            level = "error"
        props = []
        origin = finding_origin(finding, files)
        if origin is not None:
            props.append(f"file={escape_property(relative_uri(origin.path))}")
            props.append(f"line={origin.line}")
        unchanged = " (unchanged since the baseline)" if state == "unchanged" else ""
        props.append(f"title={escape_property(f'compat: {finding.rule.id}{unchanged}')}")
        lines.append(f"::{level} {','.join(props)}::{escape_data(message(finding))}")
    affected, possible = report.count(Status.AFFECTED), report.count(Status.POSSIBLE)
    caveats = "".join(f"; {clause}" for clause in report.verdict_clauses())
    apart = (
        f"; {report.unchanged_count} unchanged since the baseline" if report.unchanged_count else ""
    )
    apart += f"; {len(report.suppressed)} suppressed" if report.suppressed else ""
    lines.append(
        f"compat: {affected} affected, {possible} possible ({report.kb_rules} rules){apart}{caveats}"
    )
    if caveats:  # not clean by omission: a notice the run's summary shows
        lines.append(f"::notice title=compat: not judged::{escape_data(caveats[2:])}")
    if left_out:
        lines.append(
            f"compat: {left_out} possible finding(s) depend only on the hardware: give --hardware "
            "(a `compat probe --format json` profile) to have them judged"
        )
    return "\n".join(lines) + "\n"
