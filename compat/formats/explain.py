"""explain's text, JSON and HTML: the `compat.explain/1` document and its readings."""

from __future__ import annotations

import json

from compat.commands.explain import (
    Explanation,
    Explanations,
    explanation_document,
    import_causes,
)


def render_explanations(result: Explanations, fmt: str, colour: bool) -> str:
    if fmt == "json":
        return json.dumps(explanation_document(result), indent=2) + "\n"
    if fmt == "html":
        from compat.formats.html import render_explain

        return render_explain(explanation_document(result))
    out: list[str] = []
    counted = import_causes(result)
    causes = sum(1 for e in result.matches if e.verdict != "outside-range") + len(counted)
    if causes:
        out.append(f"{result.log}: {causes} known cause(s) ({result.facts_note})")
    else:
        out.append(f"{result.log}: no known cause found ({result.facts_note})")
    if result.matches:
        out.append("")
    for e in result.matches:
        out += _render_match(e)
    for i in result.indistinct:
        deciding = ", ".join(i.deciding) or "nothing the log could show"
        out.append(
            f"cannot tell apart (line {i.line}): {', '.join(i.rules)}; "
            f"the log does not show what decides: {deciding}"
        )
    for failure in result.imports:  # issue 41: an import failure, read as doctor reads imports
        label = f", {failure.cause} cause" if failure in counted else ""
        out.append(f"import failure (line {failure.line}{label}): {failure.text}")
        out.append(f"              {failure.detail}")
    for s in result.symbols:  # issue 33: the installed files' word on an `undefined symbol` line
        out.append(f"files {s.verdict} (line {s.line}): {s.file}: {s.detail}")
    for u in result.unrelated:
        out.append(f"not a cause: {u.rule.id} (line {u.line}): {u.reason}")
    for d in result.disagreements:
        if d.used == "log":
            out.append(
                f"disagreement: {d.fact}: the running process reports {d.log_value} (line "
                f"{d.log_line}, used), {d.given_from} lists {d.given_value}"
            )
            continue
        out.append(
            f"disagreement: {d.fact}: the log shows {d.log_value} (line {d.log_line}), "
            f"{d.given_from} has {d.given_value} (used)"
        )
    return "\n".join(out).rstrip("\n") + "\n"


def _render_match(e: Explanation) -> list[str]:
    pad = " " * 14
    out = [
        f"{e.verdict.upper():13} {e.rule.id}  [{e.rule.severity.value}, {e.rule.evidence.value}]",
        f"{pad}{e.rule.title}",
        f"{pad}log line {e.line}: {e.text}",
    ]
    for frame, frame_line in e.frames_seen:
        out.append(f"{pad}frame {frame} (line {frame_line})")
    for fact, value, text, fact_line in e.facts_used:
        where = f"line {fact_line}: {text}" if fact_line is not None else text
        out.append(f"{pad}{fact} = {value} ({where})")
    if e.verdict == "outside-range":  # not the cause: its fix would only mislead
        out.append(
            f"{pad}what the log shows is outside this rule: the same message may have another cause"
        )
        return [*out, f"{pad}see: {e.rule.references[0]}", ""]
    for unknown in e.unknown:
        out.append(f"{pad}unknown: {unknown}")
    out.append(f"{pad}fix: {e.rule.fix.summary}")
    if e.rule.fix.constraints:
        out.append(f"{pad}     constraints: {'; '.join(e.rule.fix.constraints)}")
    if e.rule.fix.change:
        out.append(f"{pad}     change: {e.rule.fix.change}")
    return [*out, f"{pad}see: {e.rule.references[0]}", ""]
