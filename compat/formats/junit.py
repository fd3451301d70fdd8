"""`--format junit`: JUnit XML as Jenkins and GitLab read it (the Jenkins xUnit plugin's
junit-10.xsd, which GitLab's parser accepts too).

One `<testsuite>` per file the findings point at, one `<testcase>` per (file, rule) that found
something there, and in it:

- a `<failure>` for each `affected` finding that fails a gate (severity error or warning);
- a `<skipped>` for each `possible` finding, where the test case has no failure (it depends on
  facts compat could not see: neither passed nor failed). Beside a failure it is `system-out`
  instead: Jenkins reports a case holding `<skipped>` as skipped, whatever else it holds;
- `system-out` for an `affected` finding of severity info (advice: it never fails a gate).

A file with no finding is one passing test case, `compat`, so a clean run still shows what was
checked. A resolve that did not happen (exit 3) is an `<error>`. No timestamps or durations:
same input, same output.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from compat.formats.locations import code_scanning_findings, finding_origin, message, relative_uri
from compat.model import Finding, Severity, Status
from compat.report import COMPAT_VERSION, Report


def _where(finding: Finding, files: Sequence[str], fallback: str) -> tuple[str, int | None]:
    origin = finding_origin(finding, files)
    if origin is None:
        return fallback, None
    return relative_uri(origin.path), origin.line


def _detail(finding: Finding, path: str, line: int | None) -> str:
    """The body beside the `message` attribute (the one-line message): where, what held, sources."""
    lines = [f"{path}:{line}" if line is not None else path]
    lines.extend(f"held: {condition}" for condition in finding.matched)
    lines.extend(f"unknown: {u.fact} (settle with {u.needs})" for u in finding.unknown)
    lines.extend(f"reference: {r}" for r in finding.rule.references)
    return "\n".join(lines) + "\n"


def _properties(suite: ET.Element, report: Report, left_out: int, *, first: bool) -> None:
    """A suite's properties: the tool and knowledge base; on the first suite only, what the run
    counts apart (unchanged since the baseline, suppressed, the user's settings' warnings)."""
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("compat.version", COMPAT_VERSION),
        ("knowledge_base", report.knowledge_base_label),
    ):
        ET.SubElement(properties, "property", name=name, value=value)
    if left_out:
        ET.SubElement(
            properties, "property", name="needs_hardware", value=str(left_out)
        )  # possible findings only a hardware profile (--hardware) could settle
    if not first:  # counted apart, once: the run's, not a file's
        return
    if report.baseline is not None:
        ET.SubElement(properties, "property", name="unchanged", value=str(report.unchanged_count))
    if report.suppressed:
        ET.SubElement(properties, "property", name="suppressed", value=str(len(report.suppressed)))
        for finding, why in report.suppressed:
            ET.SubElement(
                properties,
                "property",
                name=f"suppressed:{finding.rule.id}",
                value=f"{why.reason} ({why.where})",
            )
    for warning in report.warnings:
        ET.SubElement(properties, "property", name="warning", value=warning.message)


def render(report: Report, colour: bool = False) -> str:
    findings, left_out = code_scanning_findings(report)

    def _fails(finding: Finding) -> bool:  # --baseline: an unchanged finding is no failure
        return (
            finding.status is Status.AFFECTED
            and finding.rule.severity is not Severity.INFO
            and not report.unchanged(finding)
        )

    fallback = report.source
    # (file -> rule id -> findings), in the order of the checked files, then of the findings.
    cases: dict[str, dict[str, list[tuple[Finding, int | None]]]] = {
        relative_uri(f): {} for f in report.files
    }
    for finding in findings:
        path, line = _where(finding, report.files, fallback)
        cases.setdefault(path, {}).setdefault(finding.rule.id, []).append((finding, line))
    if not cases:
        cases[fallback] = {}

    root = ET.Element("testsuites", name="compat")
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for path, rules in cases.items():
        suite = ET.SubElement(root, "testsuite", name=path)
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        _properties(suite, report, left_out, first=path == next(iter(cases)))
        if not rules:
            ET.SubElement(suite, "testcase", name="compat", classname=path)
            counts["tests"] += 1
        for rule_id, found in rules.items():
            case = ET.SubElement(suite, "testcase", name=rule_id, classname=path)
            counts["tests"] += 1
            failing = [f for f, _ in found if _fails(f)]
            aside: list[str] = []
            for finding, line in found:
                detail = _detail(finding, path, line)
                if _fails(finding):
                    failure = ET.SubElement(
                        case, "failure", message=message(finding), type=finding.status.value
                    )
                    failure.text = detail
                elif finding.status is Status.POSSIBLE and not failing:
                    skipped = ET.SubElement(
                        case, "skipped", message=message(finding), type=finding.status.value
                    )
                    skipped.text = detail
                elif report.unchanged(finding):
                    aside.append(f"unchanged since the baseline ({finding.status.value}): {detail}")
                else:
                    aside.append(detail)
            if failing:
                counts["failures"] += 1
            elif any(child.tag == "skipped" for child in case):
                counts["skipped"] += 1
            if aside:
                ET.SubElement(case, "system-out").text = "\n".join(aside)
        # A resolve that proved the install impossible is its finding's failure already.
        proved = any(f.rule.id == "install:unsatisfiable" for f in report.findings)
        if report.resolve_failed and not proved and path == next(iter(cases)):
            case = ET.SubElement(suite, "testcase", name="resolve", classname=path)
            error = ET.SubElement(
                case, "error", message=report.resolve_failed, type="resolve-failed"
            )
            error.text = "; ".join(report.verdict_clauses()) + "\n"
            counts["tests"] += 1
            counts["errors"] += 1
        for key, count in counts.items():
            suite.set(key, str(count))
        for key in totals:
            totals[key] += counts[key]
    for key, total in totals.items():
        root.set(key, str(total))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
