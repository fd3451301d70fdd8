"""`--format gitlab`: GitLab Code Quality JSON (a subset of the Code Climate issue format).

Each finding is one issue with the fields GitLab documents as required: `description`,
`check_name` (the rule id), `fingerprint`, `severity` (info, minor, major, critical, blocker) and
`location` (`path` relative to the repository, `lines.begin`). The fingerprint is made from the
path, the rule and the packages (plus the install, where a file's extras are judged apart),
never the line: moving a requirement does not make GitLab see a new issue. It equals the SARIF
result's `compatFinding/v1` fingerprint wherever no install is named.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from compat.formats.locations import code_scanning_findings, finding_origin, message, relative_uri
from compat.formats.sarif import fingerprint as sarif_fingerprint
from compat.model import Finding, Severity, Status
from compat.report import ConfigWarning, Report

_SEVERITY = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}
_POSSIBLE = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def fingerprint(finding: Finding, files: tuple[str, ...]) -> str:
    base = sarif_fingerprint(finding, files)
    if not finding.install:
        return base
    return hashlib.sha256(f"{base}\0{finding.install}".encode()).hexdigest()[:32]


def _issue(finding: Finding, report: Report) -> dict[str, Any]:
    origin = finding_origin(finding, report.files)
    table = _POSSIBLE if finding.status is Status.POSSIBLE else _SEVERITY
    state = report.baseline_state(finding)
    return {
        "type": "issue",
        "check_name": finding.rule.id,
        "description": message(finding)
        + (" Unchanged since the baseline." if state == "unchanged" else ""),
        "categories": ["Compatibility"],
        # --baseline: what was already there is info, never what blocks a merge request
        "severity": "info" if state == "unchanged" else table[finding.rule.severity],
        **({"compat_baseline": state} if state is not None else {}),
        "fingerprint": fingerprint(finding, report.files),
        "location": {
            # doctor's findings point at no file: the environment it judged stands for one
            "path": relative_uri(origin.path) if origin is not None else report.source,
            "lines": {"begin": origin.line if origin is not None and origin.line else 1},
        },
    }


def _warning(warning: ConfigWarning) -> dict[str, Any]:
    """A mistake in the user's settings (a waiver naming no rule) at its line: GitLab's report
    holds issues only, so it is one, `minor`, under the check name `compat-config`."""
    path = relative_uri(warning.path) if warning.path else "."
    return {
        "type": "issue",
        "check_name": "compat-config",
        "description": warning.message,
        "categories": ["Compatibility"],
        "severity": "minor",
        "fingerprint": hashlib.sha256(f"compat-config\0{warning.message}".encode()).hexdigest()[
            :32
        ],
        "location": {"path": path, "lines": {"begin": warning.line or 1}},
    }


def render(report: Report, colour: bool = False) -> str:
    """Findings (unchanged ones as `info`), then warnings. Suppressed findings are left out:
    GitLab's format has no suppression (JSON and SARIF list them)."""
    findings, _ = code_scanning_findings(report)
    issues = [_issue(f, report) for f in findings] + [_warning(w) for w in report.warnings]
    return json.dumps(issues, indent=2) + "\n"
