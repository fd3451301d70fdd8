"""`compat matrix show ID`: one rule in full, as text or JSON."""

from __future__ import annotations

import json

from compat.model import Rule
from compat.symptoms import readable_symptom


def rule_document(rule: Rule) -> dict[str, object]:
    return {
        "id": rule.id,
        "title": rule.title,
        "severity": rule.severity.value,
        "evidence": rule.evidence.value,
        "description": rule.description,
        "symptoms": [{"match": s.match, "frames": list(s.frames)} for s in rule.symptoms],
        "fix": {
            "summary": rule.fix.summary,
            "constraints": list(rule.fix.constraints),
            "change": rule.fix.change,
        },
        "references": list(rule.references),
        "examples": [{"expect": e.expect, **e.data} for e in rule.examples],
        "source": str(rule.origin) if rule.origin else None,
    }


def render_rule(rule: Rule, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(rule_document(rule), indent=2) + "\n"
    lines = [
        f"{rule.id}  [{rule.severity.value}, {rule.evidence.value}]",
        f"  {rule.title}",
        f"  defined at {rule.origin}",
        "",
    ]
    if rule.description:
        lines += [f"  {line}" for line in rule.description.splitlines()] + [""]
    for symptom in rule.symptoms:
        lines.append(f"  symptom: {readable_symptom(symptom.match)}")
        for frame in symptom.frames:
            lines.append(f"           at {frame}")
    lines.append(f"  fix: {rule.fix.summary}")
    for constraint in rule.fix.constraints:
        lines.append(f"       constraint: {constraint}")
    if rule.fix.change:
        lines.append(f"       change: {rule.fix.change}")
    lines.append("  references:")
    lines += [f"    {ref}" for ref in rule.references]
    lines.append(
        f"  examples: {sum(e.expect != 'clear' for e in rule.examples)} matching, "
        f"{sum(e.expect == 'clear' for e in rule.examples)} near misses"
    )
    return "\n".join(lines) + "\n"
