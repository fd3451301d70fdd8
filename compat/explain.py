"""`compat explain LOG`: match a crash log against rule symptoms, ranked by what the environment shows.

A symptom regex finds candidate rules; the rule's conditions, evaluated against the environment
(when one is given or found), say whether it is the cause (`affected`), could be (`possible`), or
matches the message but not this environment (`unlikely`, listed last: same message, other cause).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from compat.engine import evaluate_rule
from compat.errors import InputError
from compat.facts import (
    EnvOptions,
    FactOptions,
    environment_facts,
    read_environment,
    read_hardware,
    read_usage,
)
from compat.knowledge import load_knowledge_base
from compat.model import Facts, Finding, Origin, Rule, UsageFact

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_RANK = {"affected": 0, "possible": 1, "unlikely": 2}
MAX_LOG_BYTES = 256 * 2**20


@dataclass(frozen=True)
class Explanation:
    rule: Rule
    line: int
    text: str  # the log line that matched
    frames_seen: tuple[str, ...]
    verdict: str  # affected | possible | unlikely
    finding: Finding | None


@dataclass(frozen=True)
class Explanations:
    log: str
    matches: tuple[Explanation, ...]
    facts_note: str


def read_log(path: Path) -> str:
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(MAX_LOG_BYTES)
        else:
            with path.open("rb") as handle:
                data = handle.read(MAX_LOG_BYTES)
    except OSError as error:
        raise InputError(f"cannot read log: {error.strerror}", origin=Origin(str(path))) from None
    return _ANSI.sub("", data.decode("utf-8", errors="replace"))


def run_explain(log: Path, env_options: EnvOptions, fact_options: FactOptions) -> Explanations:
    text = read_log(log)
    usage = read_usage(fact_options)
    kb = load_knowledge_base(tuple(fact_options.matrices))
    facts, note = _facts(env_options, fact_options, usage)
    matches = []
    for rule in kb.rules():
        for symptom in rule.symptoms:
            found = re.search(symptom.match, text, re.MULTILINE)
            if not found:
                continue
            line = text.count("\n", 0, found.start()) + 1
            line_text = text.splitlines()[line - 1].strip() if text else ""
            frames = tuple(f for f in symptom.frames if all(part in text for part in f.split(":")))
            finding = evaluate_rule(rule, facts)
            verdict = finding.status.value if finding else "unlikely"
            matches.append(Explanation(rule, line, line_text[:500], frames, verdict, finding))
            break
    matches.sort(key=lambda e: (_RANK[e.verdict], -len(e.frames_seen), e.line, e.rule.id))
    return Explanations(str(log), tuple(matches), note)


def _facts(
    env_options: EnvOptions, fact_options: FactOptions, usage: dict[str, UsageFact]
) -> tuple[Facts, str]:
    hardware, hardware_note = read_hardware(fact_options)
    env = read_environment(env_options)
    if not env.packages:
        facts = Facts(packages={}, hardware=hardware, usage=usage, packages_known=False)
        return facts, "no environment found: causes ranked by the log alone"
    return environment_facts(
        env, hardware, usage
    ), f"ranked against {env.source}; hardware {hardware_note}"


def render_explanations(result: Explanations, fmt: str, colour: bool) -> str:
    if fmt == "json":
        return (
            json.dumps(
                {
                    "schema": "compat.explain/1",
                    "log": result.log,
                    "note": result.facts_note,
                    "matches": [
                        {
                            "rule": e.rule.id,
                            "title": e.rule.title,
                            "verdict": e.verdict,
                            "line": e.line,
                            "text": e.text,
                            "frames": list(e.frames_seen),
                            "unknown": [u.fact for u in e.finding.unknown] if e.finding else [],
                            "fix": {
                                "summary": e.rule.fix.summary,
                                "constraints": list(e.rule.fix.constraints),
                                "change": e.rule.fix.change,
                            },
                            "references": list(e.rule.references),
                        }
                        for e in result.matches
                    ],
                },
                indent=2,
            )
            + "\n"
        )
    if not result.matches:
        return f"{result.log}: no known cause found ({result.facts_note})\n"
    out = [f"{result.log}: {len(result.matches)} known cause(s) ({result.facts_note})", ""]
    for e in result.matches:
        out.append(
            f"{e.verdict.upper():9} {e.rule.id}  [{e.rule.severity.value}, {e.rule.evidence.value}]"
        )
        out.append(f"          {e.rule.title}")
        out.append(f"          log line {e.line}: {e.text}")
        if e.frames_seen:
            out.append(f"          frames: {', '.join(e.frames_seen)}")
        if e.finding:
            out += [f"          matched: {h}" for h in e.finding.matched]
            out += [
                f"          unknown: {u.fact} — settle with {u.needs}" for u in e.finding.unknown
            ]
        else:
            out.append(
                "          the environment does not match this rule: the same message may have another cause"
            )
        out.append(f"          fix: {e.rule.fix.summary}")
        if e.rule.fix.constraints:
            out.append(f"               constraints: {'; '.join(e.rule.fix.constraints)}")
        if e.rule.fix.change:
            out.append(f"               change: {e.rule.fix.change}")
        out.append(f"          see: {e.rule.references[0]}")
        out.append("")
    return "\n".join(out)
