"""`compat explain LOG`: the known cause behind an error in a log, judged by what the log shows.

One streaming pass over the log (compat.facts.logread) finds the lines that hold a symptom signature's
literal anchor (compat.kb.signatures), the traceback frames, and the facts the log prints about its
environment and configuration (compat.facts.logfacts). The facts become engine Facts, and each rule
whose symptom matched is evaluated exactly as `doctor` evaluates it:

- `confirmed`: the symptom matched, the rule's frames are in the traceback (when it names
  frames), and every condition of the rule holds on the facts;
- `outside-range`: the symptom matched but the versions or configuration shown fall outside the
  rule: the same message, another cause;
- `symptom-only`: the symptom matched and what the log shows does not settle the rule.

A match whose traceback is printed but runs through none of the rule's frames is an unrelated
error that shares the message: it is listed apart, never as a cause. Facts given on the command
line (`--python`/`--path`, `--deepspeed-config`, `--accelerate-config`, `--set`, `--hardware`)
take precedence over the log's, and every disagreement is reported.

The scan lives in compat.diagnose.scan, the facts' merge in compat.diagnose.merge, the verdicts
and their evidence-following order in compat.diagnose.judge; this module joins them and renders.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compat.diagnose.judge import (
    Explanation,
    Indistinct,
    Unrelated,
    frames_seen,
    indistinct,
    judge,
    rank_key,
    set_apart_generic,
    shared_symptoms,
    unmentioned,
)
from compat.diagnose.merge import Disagreement, merge_facts
from compat.diagnose.scan import scan_log
from compat.facts.gather import EnvOptions, FactOptions
from compat.facts.logfacts import FactCollector, LogEvidence, LogFact, evidence, fact_document
from compat.facts.logversions import VersionReader
from compat.kb.conditions import PackageVersion, leaves

if TYPE_CHECKING:
    from compat.diagnose.binaryconfirm import SymbolCheck
    from compat.diagnose.importcause import ImportCause
    from compat.kb.knowledge import KnowledgeChoice
    from compat.model import Environment, Facts

__all__ = ["Disagreement", "Explanation", "Explanations", "Unrelated", "run_explain"]


@dataclass(frozen=True)
class Explanations:
    log: str
    matches: tuple[Explanation, ...]
    unrelated: tuple[Unrelated, ...]
    facts: tuple[LogFact, ...]
    disagreements: tuple[Disagreement, ...]
    facts_note: str
    lines: int
    bytes: int
    indistinct: tuple[Indistinct, ...] = ()
    symbols: tuple[SymbolCheck, ...] = ()  # `undefined symbol` lines, read in the files (issue 33)
    imports: tuple[
        ImportCause, ...
    ] = ()  # import failures, read as doctor reads imports (issue 41)


def _ordered(
    matches: list[Explanation], unrelated: list[Unrelated]
) -> tuple[list[Explanation], list[Unrelated]]:
    """The generic rule set apart where a specific one judges the same line, then the causes in
    evidence order and the rest by line."""
    matches, apart = set_apart_generic(matches)
    unrelated = [*unrelated, *apart]
    matches.sort(key=rank_key)
    unrelated.sort(key=lambda u: (u.line, u.rule.id))
    return matches, unrelated


def run_explain(
    log: Path, env_options: EnvOptions, fact_options: FactOptions, knowledge: KnowledgeChoice
) -> Explanations:
    from compat.kb.knowledge import load_knowledge_base

    kb = load_knowledge_base(knowledge)
    every = kb.rules()
    rules = [rule for rule in every if rule.symptoms]
    collector = FactCollector(str(log))
    names = {
        str(c.name) for rule in every for c in leaves(rule.when) if isinstance(c, PackageVersion)
    }
    matcher, stats = scan_log(log, rules, collector, VersionReader(collector, names))
    ev = evidence(collector)
    facts, disagreements, note, env = merge_facts(ev, env_options, fact_options)
    facts, symbols = _from_binaries(ev, env, facts)
    matches: list[Explanation] = []
    unrelated: list[Unrelated] = []
    shared = shared_symptoms(rules)
    owners = Counter(symptom.match for rule in rules for symptom in rule.symptoms)
    for found in matcher.matches.values():
        if not found:
            continue
        # The exception line, the loader's or driver's message: never a source echo when any
        # other line matched (issue 40), nor a sentence quoting the message when a line prints it.
        best = min(found, key=lambda m: (m.echo, m.quoted, -len(frames_seen(m)), m.line))
        seen = frames_seen(best)
        if best.symptom.frames and best.any_frame and not seen:
            reason = (
                "its traceback runs through none of "
                + ", ".join(best.symptom.frames)
                + ": the same message from other code"
            )
            unrelated.append(Unrelated(best.rule, best.line, best.text, reason))
            continue
        if never := unmentioned(best, ev, shared):
            # a rule about packages the log never names, matched by a message that is not
            # theirs (FlashAttention-3's rule on torch's "no kernel image"): not a cause it shows
            reason = "the log never mentions " + ", ".join(never) + ": the message is not theirs"
            unrelated.append(Unrelated(best.rule, best.line, best.text, reason))
            continue
        messages = len({m.symptom.match for m in found})
        sole = owners[best.symptom.match] == 1  # no other rule prints-matches this text
        matches.append(judge(best, seen, facts, ev, messages, sole))
    matches, unrelated = _ordered(matches, unrelated)
    from compat.diagnose.importcause import explain_imports

    imports = explain_imports(log, env, facts, frozenset(names))
    return Explanations(
        str(log),
        tuple(matches),
        tuple(unrelated),
        ev.facts,
        tuple(disagreements),
        note,
        stats.lines,
        stats.bytes,
        indistinct(matches),
        symbols,
        imports,
    )


def _from_binaries(
    ev: LogEvidence, env: Environment | None, facts: Facts
) -> tuple[Facts, tuple[SymbolCheck, ...]]:
    """The installed files' word on the log (issue 33): each `undefined symbol` line looked up in
    the libraries that should export it, and the installed torch's own architecture list for the
    rules that judge GPU code. Without an environment, a file the log names is read where it lies
    on this machine (explain run where the crash happened)."""
    files = None
    if env is not None:
        from compat.commands.nativecheck import read_native
        from compat.kb.binarycheck import torch_arch_list

        _, files = read_native(env)
        if arch := torch_arch_list([f for f in files if f.facts is not None]):
            facts = dataclasses.replace(facts, arch_lists={**facts.arch_lists, "torch": arch})
    if not any(f.kind == "undefined_symbol" for f in ev.facts):
        return facts, ()
    from compat.diagnose.binaryconfirm import check_symbols

    return facts, check_symbols(ev.facts, files)


def has_cause(result: Explanations) -> bool:
    """A known cause is listed: a confirmed or symptom-only match (outside-range is not one), or
    an import failure the installed files confirm or, without them, one whose message states
    it (`cannot import name 'X' from 'M'`: the M that ran lacks X)."""
    return any(e.verdict != "outside-range" for e in result.matches) or bool(import_causes(result))


def import_causes(result: Explanations) -> list[ImportCause]:
    """The import failures that are causes: confirmed by the installed files, or possible (the
    message states it) where no rule judged the same line; a rule that matched it knows more
    (the triton a torch pins defines triton_key: a listed one that lacks it is another
    environment's), and where it holds it is the cause already listed."""
    judged = {e.line for e in result.matches}
    return [
        i
        for i in result.imports
        if i.cause == "confirmed" or (i.cause == "possible" and i.line not in judged)
    ]


# ---------------------------------------------------------------------------------------------
# Output


def explanation_document(result: Explanations) -> dict[str, object]:
    return {
        "schema": "compat.explain/1",
        "log": result.log,
        "note": result.facts_note,
        "lines": result.lines,
        "bytes": result.bytes,
        "facts": [fact_document(f) for f in result.facts],
        "disagreements": [
            {
                "fact": d.fact,
                "log": {"value": d.log_value, "line": d.log_line},
                "given": {"value": d.given_value, "from": d.given_from},
                "used": d.used,
            }
            for d in result.disagreements
        ],
        "matches": [_match_document(e) for e in result.matches],
        "indistinct": [
            {"rules": list(i.rules), "line": i.line, "deciding": list(i.deciding)}
            for i in result.indistinct
        ],
        "unrelated": [
            {"rule": u.rule.id, "line": u.line, "text": u.text, "reason": u.reason}
            for u in result.unrelated
        ],
        # Added with issue 33: each `undefined symbol` line, looked up in the installed files.
        "binary": [s.document() for s in result.symbols],
        # Added with issue 41: each import failure, read as doctor reads imports.
        "imports": [i.document() for i in result.imports],
    }


def _match_document(e: Explanation) -> dict[str, object]:
    rests_on: list[dict[str, object]] = [{"line": e.line, "role": "symptom", "text": e.text}]
    rests_on += [{"line": line, "role": "frame", "text": frame} for frame, line in e.frames_seen]
    rests_on += [
        {"line": line, "role": "fact", "fact": fact, "value": value, "text": text}
        for fact, value, text, line in e.facts_used
        if line is not None
    ]
    return {
        "rule": e.rule.id,
        "title": e.rule.title,
        "verdict": e.verdict,
        "severity": e.rule.severity.value,
        "evidence": e.rule.evidence.value,
        "line": e.line,
        "text": e.text,
        "rank": e.rank,
        "frames": [frame for frame, _ in e.frames_seen],
        "rests_on": sorted(rests_on, key=lambda r: (int(str(r["line"])), str(r["role"]))),
        "facts": [
            {"fact": fact, "value": value, "line": line, "text": text}
            for fact, value, text, line in e.facts_used
        ],
        "held": list(e.held),
        "unknown": list(e.unknown),
        "fix": {
            "summary": e.rule.fix.summary,
            "constraints": list(e.rule.fix.constraints),
            "change": e.rule.fix.change,
        },
        "references": list(e.rule.references),
    }
