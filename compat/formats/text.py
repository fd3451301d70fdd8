"""`--format text`: read at a glance. Grouped by severity, most serious first; colour on a terminal."""

from __future__ import annotations

from compat.formats.paint import paint
from compat.model import Finding, Gpu, Hardware, Severity, Status
from compat.report import COMPAT_VERSION, Report
from compat.symptoms import readable_symptom

_COLOURS = {"red": "31", "yellow": "33", "blue": "34", "green": "32", "dim": "2", "bold": "1"}
_SEVERITY_COLOUR = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.INFO: "blue"}
_HEADINGS = {Severity.ERROR: "Errors", Severity.WARNING: "Warnings", Severity.INFO: "Info"}


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, colour: str) -> str:
        # A mark, not the escape sequence: output escapes every ESC in the text it writes, the
        # ones a package name or a `--set` value could carry too, then turns marks into colour.
        return paint(text, _COLOURS[colour]) if self.enabled else text


def hardware_line(hardware: Hardware | None, note: str) -> str:
    if hardware is None:
        return f"hardware: unknown ({note})" if note else "hardware: unknown"
    if not hardware.gpus:
        why = f"; {hardware.problems[0]}" if hardware.problems else ""
        return f"hardware: no GPU ({note}{why})"
    names: dict[str, int] = {}
    for gpu in hardware.gpus:
        name = _gpu_name(gpu)
        names[name] = names.get(name, 0) + 1
    gpus = ", ".join(f"{count}x {name}" for name, count in names.items())
    physical = hardware.extra.get("amd_physical_gpus")
    if isinstance(physical, int):  # AMD compute partitions: each a device, of fewer GPUs
        gpus += f", compute partitions of {physical} GPUs"
    if any(g.is_amd for g in hardware.gpus):  # what AMD GPUs run is ROCm's, as pin's header says
        gpus += f", ROCm {hardware.rocm_version or 'unknown'}"
        gpus += f", amdgpu driver {hardware.amdgpu_driver_version or 'unknown'}"
        if hardware.gfx_override:
            from compat.binary.gfxtarget import override_target

            loads = override_target(hardware.gfx_override)
            gpus += f", HSA_OVERRIDE_GFX_VERSION={hardware.gfx_override}"
            gpus += f" (loads {loads} code)" if loads else ""
    driver = f", driver {hardware.driver_label}" if hardware.driver_label else ""
    cuda = f" (CUDA {hardware.cuda_driver_version})" if hardware.cuda_driver_version else ""
    user = hardware.user_driver
    if user is not None and hardware.forward_compatible:
        cuda += f", cuda-compat driver {user.text} (CUDA {hardware.process_cuda_version})"
    elif user is not None:
        cuda += f", cuda-compat driver {user.text or '?'} unused ({user.status})"
    return f"hardware: {gpus}{driver}{cuda} ({note})"


def _gpu_name(gpu: Gpu) -> str:
    """An AMD GPU with its target (`AMD Instinct MI300X (gfx942)`); the probe's placeholder name
    `AMD gfx942` is not said twice (`AMD GPU (gfx942)`)."""
    if not gpu.is_amd:
        return gpu.name
    if not gpu.gfx_target:
        return f"{gpu.name} (target unknown)"
    name = "AMD GPU" if gpu.name == f"AMD {gpu.gfx_target}" else gpu.name
    return f"{name} ({gpu.gfx_target})"


def _finding(finding: Finding, paint: _Painter, *, settle: bool = True) -> list[str]:
    """One finding. `settle=False` lists only the unknown facts: the report then says once, for
    all possible findings together, which flag settles each."""
    rule = finding.rule
    status = paint(finding.status.value, "bold" if finding.status is Status.AFFECTED else "dim")
    lines = [
        f"  {paint(rule.id, _SEVERITY_COLOUR[rule.severity])}  [{status}, {rule.evidence.value}]"
    ]
    lines.append(f"    {rule.title}")
    if finding.install:
        lines.append(f"    {'install:':9} {finding.install}")
    for position, held in enumerate(finding.matched):
        lines.append(f"    {'matched:' if position == 0 else '':9} {held}")
    if settle:
        for position, unknown in enumerate(finding.unknown):
            lines.append(
                f"    {'unknown:' if position == 0 else '':9} {unknown.fact} — settle with {unknown.needs}"
            )
    elif finding.unknown:
        lines.append(f"    {'unknown:':9} {', '.join(u.fact for u in finding.unknown)}")
    if rule.symptoms:
        lines.append(f"    {'symptom:':9} {readable_symptom(rule.symptoms[0].match)}")
    fix = finding.remedy
    lines.append(f"    {'fix:':9} {fix.summary}")
    if fix.constraints:
        lines.append(f"    {'':9} constraints: {'; '.join(fix.constraints)}")
    if fix.change:
        lines.append(f"    {'':9} change: {fix.change}")
    for index, reference in enumerate(rule.references[:3]):
        lines.append(f"    {'see:' if index == 0 else '':9} {reference}")
    return lines


def questions(findings: list[Finding]) -> list[str]:
    """The possible findings' unknowns, deduplicated: "3 checks depend on: --set trainer=NAME,
    --accelerate-config FILE ..." — one line per distinct set of questions, most checks first."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for finding in findings:
        hints = tuple(dict.fromkeys(u.needs for u in finding.unknown))
        groups.setdefault(hints, []).append(finding.rule.id)
    lines = []
    for hints, ids in sorted(groups.items(), key=lambda item: (-len(item[1]), item[0])):
        if not hints:  # never "depend on: " and nothing: say that no question is known
            lines.append(f"  {_checks(len(ids), 'name', 'names')} no fact that would settle it")
        else:
            lines.append(f"  {_checks(len(ids), 'depend', 'depends')} on: {'; '.join(hints)}")
        lines.append(f"    ({', '.join(ids)})")
    return lines


def _checks(count: int, plural: str, singular: str) -> str:
    return f"{count} checks {plural}" if count != 1 else f"1 check {singular}"


def _usage_value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def render(report: Report, colour: bool = False) -> str:
    """The report, notes first (doctor's layout)."""
    return render_report(report, colour, all_notes=None)


def render_report(report: Report, colour: bool = False, *, all_notes: bool | None = None) -> str:
    """Ranked by certainty: affected findings under Errors/Warnings/Info; possible ones apart,
    with their questions asked once; hardware-only questions on a machine without a profile in
    one line. JSON keeps every finding.

    `all_notes` (check): None keeps the notes first, as doctor shows them; False puts the findings
    first and the notes in one line (the ones the verdict line points at stay), True lists every
    note after the findings (`--verbose`)."""
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
        out.append("usage: " + ", ".join(f"{k}={_usage_value(v)}" for k, v in report.usage.items()))
    for problem in env.get("problems", []):
        out.append(paint(f"! {problem['message']}", "yellow"))
    if all_notes is None:
        out += [paint(f"note: {note}", "dim") for note in report.notes]
    out += [paint(f"warning: {w.message}", "yellow") for w in report.warnings]
    unchanged = [f for f in report.judged if report.unchanged(f)]
    judged = [f for f in report.judged if not report.unchanged(f)]
    affected = [f for f in judged if f.status is Status.AFFECTED]
    possible = [f for f in judged if f.status is Status.POSSIBLE]
    gpu_questions = report.needs_hardware
    for severity in Severity:
        group = [f for f in affected if f.rule.severity is severity]
        if not group:
            continue
        out.append("")
        out.append(paint(f"{_HEADINGS[severity]} ({len(group)})", "bold"))
        for finding in group:
            out.extend(_finding(finding, paint))
            out.append("")
        out.pop()
    if possible:
        out.append("")
        out.append(
            paint(f"Possible ({len(possible)}): not known to apply, each needs a fact", "bold")
        )
        for finding in possible:
            out.extend(_finding(finding, paint, settle=False))
            out.append("")
        out.append(paint("Questions that would settle them:", "bold"))
        out.extend(questions(possible))
    if gpu_questions:
        ids = ", ".join(f.rule.id for f in gpu_questions)
        out.append("")
        out.append(
            paint(
                f"GPU facts: {_checks(len(gpu_questions), 'need', 'needs')} the GPUs or driver ({ids}): "
                "give --hardware FILE, or run where the GPUs are",
                "dim",
            )
        )
    out += _apart(report, unchanged, paint)
    if all_notes is not None:
        out += _notes_after(report, all_notes, paint)
    count_possible = report.count(Status.POSSIBLE)
    out.append("")
    waiting = f", {len(gpu_questions)} waiting for a hardware profile" if gpu_questions else ""
    caveats = "".join(f"; {clause}" for clause in report.verdict_clauses())
    apart = f"; {len(unchanged)} unchanged since the baseline" if unchanged else ""
    apart += f"; {len(report.suppressed)} suppressed" if report.suppressed else ""
    found = "No new known-bad combination found" if unchanged else "No known-bad combination found"
    if not judged and not caveats:
        out.append(paint(found + (waiting and f" ({waiting[2:]})") + apart + ".", "green"))
    elif not judged:
        # Not clean by omission: say what was not judged on the verdict line itself.
        out.append(
            paint(
                found + " in what was judged" + waiting + apart + caveats + ".",
                "yellow",
            )
        )
    else:
        out.append(f"{len(affected)} affected, {count_possible} possible{waiting}{apart}{caveats}")
    return "\n".join(out) + "\n"


def _apart(report: Report, unchanged: list[Finding], paint: _Painter) -> list[str]:
    """Findings the baseline already held, and silenced ones: one line each, never counted."""
    out: list[str] = []
    if unchanged:
        out += ["", paint(f"Unchanged since the baseline ({len(unchanged)}): not counted", "bold")]
        out += [f"  {f.rule.id}  [{f.status.value}]{_packages(f)}" for f in unchanged]
    if report.suppressed:
        out += ["", paint(f"Suppressed ({len(report.suppressed)}): not counted", "bold")]
        out += [
            f"  {f.rule.id}  [{f.status.value}]{_packages(f)} — {s.reason} ({s.where})"
            for f, s in report.suppressed
        ]
    return out


def _packages(finding: Finding) -> str:
    names = ", ".join(f"{p.name} {p.version}" for p in finding.packages)
    return f" {names}" if names else ""


def _notes_after(report: Report, every: bool, paint: _Painter) -> list[str]:
    """check: the notes after the findings, every one (--verbose) or the ones the verdict line
    points at and a count of the others."""
    if not report.notes:
        return []
    shown = list(report.notes) if every else [n for n in report.verdict_notes if n in report.notes]
    out = [""] + [paint(f"note: {note}", "dim") for note in shown]
    hidden = len(report.notes) - len(shown)
    if hidden:
        more = "more " if shown else ""
        out.append(paint(f"{hidden} {more}note(s) on what was read and how (--verbose)", "dim"))
    return out


def render_findings(report: Report, colour: bool = False) -> str:
    """`--quiet`: the findings and nothing else (empty when there are none)."""
    paint = _Painter(colour)
    out: list[str] = [f"warning: {w.message}" for w in report.warnings]
    for finding in report.judged:
        if not report.unchanged(finding):
            out.extend(_finding(finding, paint))
    return "\n".join(out) + "\n" if out else ""
