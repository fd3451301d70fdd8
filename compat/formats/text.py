"""`--format text`: read at a glance. Grouped by severity, most serious first; colour on a terminal."""

from __future__ import annotations

from compat.formats import readable_symptom
from compat.model import Finding, Hardware, Severity, Status
from compat.report import COMPAT_VERSION, Report

_COLOURS = {"red": "31", "yellow": "33", "blue": "34", "green": "32", "dim": "2", "bold": "1"}
_SEVERITY_COLOUR = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "blue"}
_HEADINGS = {Severity.ERROR: "Errors", Severity.WARNING: "Warnings", Severity.INFO: "Info"}


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, colour: str) -> str:
        return f"\x1b[{_COLOURS[colour]}m{text}\x1b[0m" if self.enabled else text


def hardware_line(hardware: Hardware | None, note: str) -> str:
    if hardware is None:
        return f"hardware: unknown ({note})" if note else "hardware: unknown"
    if not hardware.gpus:
        why = f"; {hardware.problems[0]}" if hardware.problems else ""
        return f"hardware: no GPU ({note}{why})"
    names: dict[str, int] = {}
    for gpu in hardware.gpus:
        names[gpu.name] = names.get(gpu.name, 0) + 1
    gpus = ", ".join(f"{count}x {name}" for name, count in names.items())
    driver = f", driver {hardware.driver_label}" if hardware.driver_label else ""
    cuda = f" (CUDA {hardware.cuda_driver_version})" if hardware.cuda_driver_version else ""
    return f"hardware: {gpus}{driver}{cuda} ({note})"


def _finding(finding: Finding, paint: _Painter) -> list[str]:
    rule = finding.rule
    status = paint(finding.status.value, "bold" if finding.status is Status.AFFECTED else "dim")
    lines = [
        f"  {paint(rule.id, _SEVERITY_COLOUR[rule.severity])}  [{status}, {rule.evidence.value}]"
    ]
    lines.append(f"    {rule.title}")
    for position, held in enumerate(finding.matched):
        lines.append(f"    {'matched:' if position == 0 else '':9} {held}")
    for position, unknown in enumerate(finding.unknown):
        lines.append(
            f"    {'unknown:' if position == 0 else '':9} {unknown.fact} — settle with {unknown.needs}"
        )
    if rule.symptoms:
        lines.append(f"    {'symptom:':9} {readable_symptom(rule.symptoms[0].match)}")
    lines.append(f"    {'fix:':9} {rule.fix.summary}")
    if rule.fix.constraints:
        lines.append(f"    {'':9} constraints: {'; '.join(rule.fix.constraints)}")
    if rule.fix.change:
        lines.append(f"    {'':9} change: {rule.fix.change}")
    for index, reference in enumerate(rule.references[:3]):
        lines.append(f"    {'see:' if index == 0 else '':9} {reference}")
    return lines


def render(report: Report, colour: bool = False) -> str:
    paint = _Painter(colour)
    env = report.environment
    python = f"Python {env['python']}, " if env.get("python") else ""
    out = [
        f"compat {COMPAT_VERSION} · {report.kb_rules} rules ({report.kb_digest[:19]}) · "
        + report.knowledge_base_label,
        f"environment: {env['source']} ({python}{env['packages']} distributions)",
        hardware_line(report.hardware, report.hardware_note),
    ]
    if report.usage:
        out.append("usage: " + ", ".join(f"{k}={v}" for k, v in report.usage.items()))
    for problem in env.get("problems", []):
        out.append(paint(f"! {problem['message']}", "yellow"))
    for note in report.notes:
        out.append(paint(f"note: {note}", "dim"))
    for severity in Severity:
        group = [f for f in report.findings if f.rule.severity is severity]
        if not group:
            continue
        out.append("")
        out.append(paint(f"{_HEADINGS[severity]} ({len(group)})", "bold"))
        for finding in group:
            out.extend(_finding(finding, paint))
            out.append("")
        if out[-1] == "":
            out.pop()
    affected, possible = report.count(Status.AFFECTED), report.count(Status.POSSIBLE)
    out.append("")
    if not report.findings:
        out.append(paint("No known-bad combination found.", "green"))
    else:
        out.append(f"{affected} affected, {possible} possible")
    return "\n".join(out) + "\n"


def render_findings(report: Report, colour: bool = False) -> str:
    """`--quiet`: the findings and nothing else (empty when there are none)."""
    paint = _Painter(colour)
    out: list[str] = []
    for finding in report.findings:
        out.extend(_finding(finding, paint))
    return "\n".join(out) + "\n" if out else ""
