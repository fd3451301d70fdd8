"""`--format markdown`: a summary table and details, for PR comments and $GITHUB_STEP_SUMMARY."""

from __future__ import annotations

from compat.formats.text import hardware_line
from compat.model import Status
from compat.report import COMPAT_VERSION, Report
from compat.symptoms import readable_symptom


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _first_upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def render(report: Report, colour: bool = False) -> str:
    affected, possible = report.count(Status.AFFECTED), report.count(Status.POSSIBLE)
    env = report.environment
    out = [
        "## compat report",
        "",
        f"{affected} affected, {possible} possible · {report.kb_rules} rules "
        f"({report.knowledge_base_label}) · compat {COMPAT_VERSION}  ",
        f"Environment: {_cell(env['source'])} ({env['packages']} distributions)  ",
        # the first letter only: str.capitalize() lowercased "AMD Instinct MI300X", "ROCm", "H100"
        _first_upper(_cell(hardware_line(report.hardware, report.hardware_note))),
        "",
    ]
    if report.needs_hardware:
        ids = ", ".join(f"`{f.rule.id}`" for f in report.needs_hardware)
        out += [
            f"{len(report.needs_hardware)} check(s) wait for a hardware profile ({ids}): "
            "give `--hardware FILE`.",
            "",
        ]
    out += [f"> **Warning:** {_cell(w.message)}" for w in report.warnings]
    out += [""] if report.warnings else []
    apart = []
    if report.unchanged_count:
        apart.append(f"{report.unchanged_count} unchanged since the baseline")
    if report.suppressed:
        apart.append(f"{len(report.suppressed)} suppressed")
    out += [f"Not counted: {', '.join(apart)}.", ""] if apart else []
    caveats = "".join(f"; {clause}" for clause in report.verdict_clauses())
    if not report.judged:
        out.append(
            "No known-bad combination found"
            + (f" in what was judged{caveats}." if caveats else ".")
        )
    else:
        if caveats:
            out += [f"Not judged: {caveats[2:]}.", ""]
        out += ["| Status | Severity | Rule | Packages | Fix |", "|---|---|---|---|---|"]
        for f in report.judged:
            packages = ", ".join(f"{p.name} {p.version}" for p in f.packages) or "—"
            fix = "; ".join(f"`{c}`" for c in f.remedy.constraints) or _cell(f.remedy.summary)
            status = f.status.value + (" (unchanged)" if report.unchanged(f) else "")
            out.append(
                f"| {status} | {f.rule.severity.value} | `{f.rule.id}` "
                f"| {_cell(packages)} | {fix} |"
            )
        for f in report.judged:
            rule = f.rule
            out += ["", f"### `{rule.id}` — {_cell(rule.title)}", ""]
            out.append(
                f"**{f.status.value}**, {rule.severity.value}, evidence: {rule.evidence.value}"
            )
            out.append("")
            out += [f"- matched: {_cell(h)}" for h in f.matched]
            out += [f"- install: {_cell(f.install)}"] if f.install else []
            out += [f"- unknown: `{u.fact}` — settle with {_cell(u.needs)}" for u in f.unknown]
            if rule.symptoms:
                out.append(f"- symptom: `{readable_symptom(rule.symptoms[0].match)}`")
            out.append(f"- fix: {_cell(f.remedy.summary)}")
            if f.remedy.change:
                out.append(f"- change: {_cell(f.remedy.change)}")
            out.append("- references: " + ", ".join(f"<{r}>" for r in rule.references))
    for note in report.notes:
        out += ["", f"> {note}"]
    return "\n".join(out) + "\n"
