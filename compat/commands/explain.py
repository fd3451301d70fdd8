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
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compat.facts.gather import EnvOptions, FactOptions, read_environment, read_usage
from compat.facts.logfacts import (
    PROBES,
    FactCollector,
    LogEvidence,
    LogFact,
    evidence,
    fact_document,
)
from compat.facts.logread import (
    Hit,
    Probe,
    ScanStats,
    clean,
    open_log,
    read_blocks,
    scan,
    segments,
    strip_rank,
)
from compat.facts.logversions import VersionKey, VersionReader, record_groups
from compat.kb.conditions import (
    All,
    AnyOf,
    BuildCondition,
    HardwareCondition,
    PackageVersion,
    PythonVersion,
    UsageCondition,
)
from compat.kb.signatures import Signature, choose_anchors, compile_signature, measured_cost
from compat.model import Condition, Facts, Hardware, Rule, Symptom, Tri, UsageFact

WINDOW = 3  # lines a symptom may span (NumPy's "cannot be run in\nNumPy 2..." spans two)
FRAMES_BEFORE = 400  # a traceback's frames are printed before its error line ...
FRAMES_AFTER = 40  # ... or, with ranks interleaved, partly after it
LOOK_BACK = 64 * 1024  # bytes kept before an error line to find its traceback in
MAX_MATCHES = 16  # matches kept per rule (the first ones)
SAMPLE = 2**20  # bytes of the log on which anchor costs are measured
_ORDER = {"confirmed": 0, "symptom-only": 1, "outside-range": 2}


@dataclass
class _Match:
    rule: Rule
    symptom: Symptom
    line: int
    text: str
    rank: int | None
    frames: dict[tuple[str, str], int] = field(default_factory=dict)  # (file, func) -> line
    any_frame: bool = False


@dataclass(frozen=True)
class Explanation:
    rule: Rule
    verdict: str  # confirmed | outside-range | symptom-only
    line: int
    text: str
    rank: int | None
    frames_seen: tuple[tuple[str, int], ...]  # (frame, line)
    facts_used: tuple[tuple[str, str, str, int | None], ...]  # (fact, value, text, line)
    held: tuple[str, ...]  # the conditions that held, in words
    unknown: tuple[str, ...]


@dataclass(frozen=True)
class Unrelated:
    rule: Rule
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Disagreement:
    fact: str
    log_value: str
    log_line: int
    given_value: str
    given_from: str


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


# ---------------------------------------------------------------------------------------------
# Scanning


class _Matcher:
    """Symptom signatures behind their anchors, and the traceback frames seen around matches."""

    def __init__(self, rules: list[Rule], sample: bytes) -> None:
        # Symptoms that could backtrack catastrophically or match an empty line never get here:
        # rule files are refused at load (compat.knowledge, compat.signatures).
        entries: list[tuple[Rule, Symptom, Signature]] = [
            (rule, symptom, compile_signature(symptom.match))
            for rule in rules
            for symptom in rule.symptoms
        ]
        # Anchors are chosen for this log: what each costs is measured on its first MiB.
        cost = measured_cost(sample[:SAMPLE]) if len(sample) >= SAMPLE // 4 else None
        anchors, bare = choose_anchors([sig.literals for _, _, sig in entries], cost)
        self.by_anchor: dict[bytes, list[tuple[Rule, Symptom, Signature]]] = {}
        for anchor in anchors:
            self.by_anchor[anchor.encode()] = [
                e for e in entries if any(anchor in lit for lit in e[2].literals)
            ]
        self.bare: dict[bytes, re.Pattern[bytes]] = {}
        for i in bare:  # no literal to anchor on: each signature's own regex finds its lines
            rule, symptom, sig = entries[i]
            key = f"regex:{rule.id}:{symptom.match}".encode()
            self.by_anchor[key] = [entries[i]]
            try:
                self.bare[key] = re.compile(symptom.match.encode(), sig.regex.flags & re.I | re.M)
            except (re.error, UnicodeEncodeError):
                self.bare[key] = re.compile(rb"^", re.M)  # every line
        self.matches: dict[str, list[_Match]] = {}

    def probes(self) -> list[Probe]:
        return [
            Probe(
                anchor,
                ("sig", anchor),
                self._window(anchor),
                before=LOOK_BACK,
                regex=self.bare.get(anchor),
            )
            for anchor in self.by_anchor
        ]

    def _window(self, anchor: bytes) -> Callable[[bytes], int]:
        """Lines wanted after an anchor's line: the symptom's few when one of its regexes could
        match, and the traceback's (frames after the error) when it does; one otherwise, so
        that a line repeated a million times costs little."""
        entries = self.by_anchor[anchor]
        multiline = any("\\s" in sig.pattern or "\\n" in sig.pattern for _, _, sig in entries)

        def window(first: bytes) -> int:
            if multiline:
                return FRAMES_AFTER
            text = strip_rank(clean(first))[0]
            return FRAMES_AFTER if any(sig.regex.search(text) for _, _, sig in entries) else 1

        return window

    def symptom_hit(self, hit: Hit, collector: FactCollector) -> None:
        assert isinstance(hit.key, tuple)
        lines = [clean(raw) for raw in hit.lines[:WINDOW]]
        first, line_rank = strip_rank(lines[0])
        rest = "\n".join(strip_rank(text)[0] for text in lines[1:])
        for rule, symptom, sig in self.by_anchor[hit.key[1]]:
            kept = self.matches.setdefault(rule.id, [])
            if len(kept) >= MAX_MATCHES or any(m.line == hit.line for m in kept):
                continue
            for segment in segments(first):
                part, rank = strip_rank(segment)  # a rank prefix after a progress bar's \r
                rank = line_rank if rank is None else rank
                found = sig.regex.search(part + "\n" + rest if rest else part)
                if found and found.start() < len(part):
                    match = _Match(rule, symptom, hit.line, part.strip()[:500], rank)
                    if sig.regex.groupindex:  # the message states facts (docs/knowledge-base.md)
                        record_groups(
                            collector, found.groupdict(), hit.line, part.strip()[:300], rule.id
                        )
                    self._frames(match, hit, collector)
                    kept.append(match)
                    break

    def _frames(self, match: _Match, hit: Hit, collector: FactCollector) -> None:
        """Traceback frames printed around the error line: before it, and (ranks interleaved)
        after it."""
        before = hit.before.split(b"\n")[:-1] if hit.before else []
        if before and len(hit.before) == LOOK_BACK:
            before = before[1:]  # the first line is cut
        numbered = [(hit.line - len(before) + i, raw) for i, raw in enumerate(before)]
        numbered += [(hit.line + i, raw) for i, raw in enumerate(hit.lines)]
        for line, raw in numbered[-FRAMES_BEFORE - FRAMES_AFTER :]:
            if b'File "' not in raw:
                continue
            text = clean(raw)
            if line > match.line and strip_rank(text)[1] is None:
                continue  # after the error only another rank's traceback belongs to it
            found = _FRAME.search(text)
            if found:
                match.any_frame = True
                file = found.group(1).replace("\\", "/").rsplit("/", 1)[-1]
                match.frames.setdefault((file, found.group(2)), line)
                collector.frame(file, text, line)


_FRAME = re.compile(r'File "([^"]+)", line \d+, in (\S+)')


def _scan_log(
    log: Path, rules: list[Rule], collector: FactCollector, reader: VersionReader
) -> tuple[_Matcher, ScanStats]:
    with open_log(log) as stream:
        blocks = read_blocks(stream, log)
        first = next(blocks, b"")
        matcher = _Matcher(rules, first)

        def on_hit(hit: Hit) -> None:
            if isinstance(hit.key, tuple):
                matcher.symptom_hit(hit, collector)
            elif isinstance(hit.key, VersionKey):
                reader.handle(hit)
            else:
                collector.handle(hit)

        probes = [*matcher.probes(), *PROBES, *reader.probes()]
        return matcher, scan(itertools.chain([first], blocks), probes, on_hit)


# ---------------------------------------------------------------------------------------------
# Facts: the log's, overridden by what the command line gives


def _merge(
    log: str, ev: LogEvidence, env_options: EnvOptions, fact_options: FactOptions
) -> tuple[Facts, list[Disagreement], str]:
    disagreements: list[Disagreement] = []
    notes = []
    packages: dict[Any, Any] = dict(ev.packages)
    builds = dict(ev.builds)
    python = ev.python
    markers = None
    packages_known = False
    if env_options.python is not None or env_options.paths:
        from compat.facts.gather import package_facts
        from compat.probes.cuda import build_facts

        env = read_environment(env_options)
        given = package_facts(env)
        for name, fact in ev.packages.items():
            other = given.get(name)
            if other is None or (fact.versions and other.versions != fact.versions):
                disagreements.append(
                    Disagreement(
                        f"packages.{name}",
                        str(fact.versions[0]) if fact.versions else "present",
                        fact.origin.line if fact.origin and fact.origin.line else 0,
                        str(other.versions[0]) if other else "not installed",
                        env.source,
                    )
                )
        packages, builds = dict(given), build_facts(env, with_nvcc=False)
        python = env.python_version or python
        markers = dict(env.markers) if env.markers else None
        packages_known = True
        notes.append(f"environment {env.source} over the log's versions")
    given_usage = read_usage(fact_options)
    usage: dict[str, UsageFact] = dict(ev.usage)
    for key, setting in given_usage.items():
        mine = ev.usage.get(key)
        if mine is not None and mine.value != setting.value:
            disagreements.append(
                Disagreement(
                    f"usage.{key}",
                    str(mine.value),
                    mine.origin.line or 0,
                    str(setting.value),
                    str(setting.origin),
                )
            )
        usage[key] = setting
    hardware: Hardware | None = ev.hardware
    if fact_options.hardware_file is not None:
        from compat.probes.profile import load_profile

        profile = load_profile(fact_options.hardware_file)
        if hardware is not None and len(hardware.gpus) != len(profile.gpus):
            first = min(g.index for g in hardware.gpus)
            line = next((f.line for f in ev.facts if f.kind == "gpu" and f.key == str(first)), 0)
            disagreements.append(
                Disagreement(
                    "hardware.gpu_count",
                    str(len(hardware.gpus)),
                    line,
                    str(len(profile.gpus)),
                    f"profile {fact_options.hardware_file}",
                )
            )
        hardware = profile
        notes.append(f"hardware profile {fact_options.hardware_file}")
    shown = len(ev.facts)
    notes.insert(
        0,
        f"{shown} fact(s) read from the log"
        if shown
        else "the log shows no versions or configuration",
    )
    facts = Facts(
        packages=packages,
        python_version=python,
        markers=markers,
        hardware=hardware,
        builds=builds,
        usage=usage,
        packages_known=packages_known,
    )
    return facts, disagreements, "; ".join(notes)


# ---------------------------------------------------------------------------------------------
# Verdicts


def run_explain(log: Path, env_options: EnvOptions, fact_options: FactOptions) -> Explanations:
    from compat.kb.knowledge import load_knowledge_base

    kb = load_knowledge_base(tuple(fact_options.matrices))
    every = kb.rules()
    rules = [rule for rule in every if rule.symptoms]
    collector = FactCollector(str(log))
    names = {
        str(c.name)
        for rule in every
        for c in _conditions(rule.when)
        if isinstance(c, PackageVersion)
    }
    matcher, stats = _scan_log(log, rules, collector, VersionReader(collector, names))
    ev = evidence(collector)
    facts, disagreements, note = _merge(str(log), ev, env_options, fact_options)
    matches: list[Explanation] = []
    unrelated: list[Unrelated] = []
    for found in matcher.matches.values():
        if not found:
            continue
        best = min(found, key=lambda m: (-len(_frames_seen(m)), m.line))
        seen = _frames_seen(best)
        if best.symptom.frames and best.any_frame and not seen:
            unrelated.append(
                Unrelated(
                    best.rule,
                    best.line,
                    best.text,
                    "its traceback runs through none of "
                    + ", ".join(best.symptom.frames)
                    + ": the same message from other code",
                )
            )
            continue
        matches.append(_judge(best, seen, facts, ev))
    matches.sort(
        key=lambda e: (
            _ORDER[e.verdict],
            -len(e.frames_seen),
            -len(e.facts_used),
            e.line,
            e.rule.id,
        )
    )
    unrelated.sort(key=lambda u: (u.line, u.rule.id))
    return Explanations(
        str(log),
        tuple(matches),
        tuple(unrelated),
        ev.facts,
        tuple(disagreements),
        note,
        stats.lines,
        stats.bytes,
    )


def _frames_seen(match: _Match) -> tuple[tuple[str, int], ...]:
    seen = []
    for frame in match.symptom.frames:
        file, _, func = frame.rpartition(":")
        for (f_file, f_func), line in match.frames.items():
            if f_func == func and (not file or f_file == file):
                seen.append((frame, line))
                break
    return tuple(seen)


def _judge(
    match: _Match, seen: tuple[tuple[str, int], ...], facts: Facts, ev: LogEvidence
) -> Explanation:
    rule = match.rule
    # The engine's three-valued evaluation, as doctor's: FALSE is a fact shown outside the rule.
    evaluated = rule.when.evaluate(facts)
    used = tuple(_facts_used(rule.when, facts, ev))
    if evaluated.value is Tri.FALSE:
        verdict = "outside-range"
    elif evaluated.value is Tri.TRUE and (not match.symptom.frames or seen):
        verdict = "confirmed"
    else:
        verdict = "symptom-only"
    # One entry per fact: several conditions can ask about the same missing fact.
    unknown = tuple(
        {u.fact: f"{u.fact} — settle with {u.needs}" for u in evaluated.unknown}.values()
    )
    if evaluated.value is Tri.TRUE and match.symptom.frames and not seen:
        unknown += ("frames — the log shows no traceback for this error",)
    return Explanation(
        rule, verdict, match.line, match.text, match.rank, seen, used, evaluated.held, unknown
    )


def _conditions(condition: Condition) -> Iterator[Condition]:
    if isinstance(condition, All | AnyOf):
        for part in condition.parts:
            yield from _conditions(part)
    else:
        yield condition


def _facts_used(
    when: Condition, facts: Facts, ev: LogEvidence
) -> Iterator[tuple[str, str, str, int | None]]:
    """The facts a rule's conditions read, with the log line each came from (None: given on
    the command line, not read from the log)."""
    lines = {(f.kind, f.key): f for f in ev.facts}
    seen: set[str] = set()
    for condition in _conditions(when):
        if isinstance(condition, PackageVersion):
            name = str(condition.name)
            fact = facts.packages.get(condition.name)
            if fact is None or name in seen:
                continue
            seen.add(name)
            log_fact = lines.get(("package", name)) or lines.get(("installed", name))
            from_log = (
                log_fact is not None
                and fact.origin is not None
                and fact.origin.line == log_fact.line
            )
            shown = str(fact.versions[0]) if fact.versions else "present (version not shown)"
            yield (
                f"packages.{name}",
                shown + (f" @ {fact.commit[:10]}" if fact.commit else ""),
                log_fact.text if from_log and log_fact else str(fact.origin or ""),
                log_fact.line if from_log and log_fact else None,
            )
        elif isinstance(condition, UsageCondition):
            usage = facts.usage.get(condition.key)
            if usage is None or condition.key in seen:
                continue
            seen.add(condition.key)
            log_fact = lines.get(("usage", condition.key))
            from_log = log_fact is not None and (usage.note or "").startswith("read from the log")
            yield (
                f"usage.{condition.key}",
                str(usage.value).lower() if isinstance(usage.value, bool) else str(usage.value),
                log_fact.text if from_log and log_fact else str(usage.origin),
                log_fact.line if from_log and log_fact else None,
            )
        elif isinstance(condition, HardwareCondition) and facts.hardware is not None:
            if "hardware" in seen:
                continue
            seen.add("hardware")
            gpu = next((f for f in ev.facts if f.kind == "gpu"), None)
            from_log = facts.hardware.source == "log"
            yield (
                "hardware.gpus",
                f"{len(facts.hardware.gpus)} GPU(s)",
                gpu.text if from_log and gpu else facts.hardware.source,
                gpu.line if from_log and gpu else None,
            )
        elif isinstance(condition, BuildCondition) and condition.key in facts.builds:
            if f"build.{condition.key}" in seen:  # named by several `any` branches
                continue
            seen.add(f"build.{condition.key}")
            log_fact = lines.get(("build", condition.key))
            yield (
                f"build.{condition.key}",
                str(facts.builds[condition.key]),
                log_fact.text if log_fact else "derived from package versions",
                log_fact.line if log_fact else None,
            )
        elif isinstance(condition, PythonVersion) and facts.python_version is not None:
            log_fact = lines.get(("python", "python"))
            yield (
                "python",
                str(facts.python_version),
                log_fact.text if log_fact else "",
                log_fact.line if log_fact else None,
            )


def has_cause(result: Explanations) -> bool:
    """A known cause is listed: a confirmed or symptom-only match (outside-range is not one)."""
    return any(e.verdict != "outside-range" for e in result.matches)


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
            }
            for d in result.disagreements
        ],
        "matches": [_match_document(e) for e in result.matches],
        "unrelated": [
            {"rule": u.rule.id, "line": u.line, "text": u.text, "reason": u.reason}
            for u in result.unrelated
        ],
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


def render_explanations(result: Explanations, fmt: str, colour: bool) -> str:
    if fmt == "json":
        return json.dumps(explanation_document(result), indent=2) + "\n"
    if fmt == "html":
        from compat.formats.html import render_explain

        return render_explain(explanation_document(result))
    out: list[str] = []
    causes = sum(1 for e in result.matches if e.verdict != "outside-range")
    if causes:
        out.append(f"{result.log}: {causes} known cause(s) ({result.facts_note})")
    else:
        out.append(f"{result.log}: no known cause found ({result.facts_note})")
    if result.matches:
        out.append("")
    for e in result.matches:
        out.append(
            f"{e.verdict.upper():13} {e.rule.id}  [{e.rule.severity.value}, {e.rule.evidence.value}]"
        )
        pad = " " * 14
        out.append(f"{pad}{e.rule.title}")
        out.append(f"{pad}log line {e.line}: {e.text}")
        for frame, frame_line in e.frames_seen:
            out.append(f"{pad}frame {frame} (line {frame_line})")
        for fact, value, text, fact_line in e.facts_used:
            where = f"line {fact_line}: {text}" if fact_line is not None else text
            out.append(f"{pad}{fact} = {value} ({where})")
        if e.verdict == "outside-range":  # not the cause: its fix would only mislead
            out.append(
                f"{pad}what the log shows is outside this rule: the same message may have another cause"
            )
            out += [f"{pad}see: {e.rule.references[0]}", ""]
            continue
        for unknown in e.unknown:
            out.append(f"{pad}unknown: {unknown}")
        out.append(f"{pad}fix: {e.rule.fix.summary}")
        if e.rule.fix.constraints:
            out.append(f"{pad}     constraints: {'; '.join(e.rule.fix.constraints)}")
        if e.rule.fix.change:
            out.append(f"{pad}     change: {e.rule.fix.change}")
        out.append(f"{pad}see: {e.rule.references[0]}")
        out.append("")
    for u in result.unrelated:
        out.append(f"not a cause: {u.rule.id} (line {u.line}): {u.reason}")
    for d in result.disagreements:
        out.append(
            f"disagreement: {d.fact}: the log shows {d.log_value} (line {d.log_line}), "
            f"{d.given_from} has {d.given_value} (used)"
        )
    return "\n".join(out).rstrip("\n") + "\n"
