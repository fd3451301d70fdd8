"""Verdicts and their order for `compat explain`: each rule whose symptom matched, judged on the
log's facts exactly as doctor judges it, ranked by the evidence the log shows.

- `confirmed`: the symptom matched, the rule's frames are in the traceback (when it names
  frames), and every condition holds on the facts;
- `outside-range`: a fact the log shows falls outside the rule (the engine's FALSE: never a fact
  the log does not show, which is unknown);
- `symptom-only`: the symptom matched and what the log shows does not settle the rule; its
  unknowns name what would.

Ranking follows evidence: frames first, then whether the log shows any fact the rule reads at
all (a rule about packages the log never mentions ranks below one whose facts it shows), then
how many of the rule's conditions the log's facts settle. Causes that share a line and that the
log cannot tell apart are reported as such, with the facts that would decide between them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from compat.diagnose.scan import Match
from compat.facts.logfacts import LogEvidence, LogFact
from compat.kb.conditions import (
    BUILD_OWNERS,
    HARDWARE_HINT,
    AnyOf,
    BuildCondition,
    HardwareCondition,
    PackageVersion,
    PythonVersion,
    UsageCondition,
    informative,
    leaves,
)
from compat.kb.derived import OPEN_PACKAGES, DerivedCondition
from compat.kb.derived import PACKAGES as DERIVED_PACKAGES
from compat.model import Condition, Facts, Rule, Tri

ORDER = {"confirmed": 0, "symptom-only": 1, "outside-range": 2}

# (fact, value, text, line): line None when the fact was given on the command line
FactUsed = tuple[str, str, str, int | None]


@dataclass(frozen=True)
class Explanation:
    rule: Rule
    verdict: str  # confirmed | outside-range | symptom-only
    line: int
    text: str
    rank: int | None
    frames_seen: tuple[tuple[str, int], ...]  # (frame, line)
    facts_used: tuple[FactUsed, ...]
    held: tuple[str, ...]  # the conditions that held, in words
    unknown: tuple[str, ...]
    unknown_facts: tuple[str, ...] = ()  # the fact names behind `unknown`
    messages: int = 1  # how many of the rule's distinct symptoms the log shows
    # whose frames raised: 0 a package the rule names, 2 one it does not, 1 neither shown
    raised: int = 1

    @property
    def from_log(self) -> int:
        """How many of the facts the rule reads the log itself shows."""
        return sum(1 for *_, line in self.facts_used if line is not None)


@dataclass(frozen=True)
class Unrelated:
    rule: Rule
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Indistinct:
    """Causes the log cannot tell apart: same line, same verdict, same evidence."""

    rules: tuple[str, ...]
    line: int
    deciding: tuple[str, ...]  # facts whose value would tell them apart


def frames_seen(match: Match) -> tuple[tuple[str, int], ...]:
    seen = []
    for frame in match.symptom.frames:
        file, _, func = frame.rpartition(":")
        for (f_file, f_func), line in match.frames.items():
            if f_func == func and (not file or f_file == file):
                seen.append((frame, line))
                break
    return tuple(seen)


def judge(
    match: Match,
    seen: tuple[tuple[str, int], ...],
    facts: Facts,
    ev: LogEvidence,
    messages: int = 1,
    sole: bool = False,
) -> Explanation:
    """The rule's verdict on the facts, with what it rests on. `messages`: how many of the rule's
    distinct symptoms the log shows; `sole`: no other rule has the matched symptom."""
    rule = match.rule
    # The engine's three-valued evaluation, as doctor's: FALSE is a fact shown outside the rule.
    evaluated = rule.when.evaluate(facts)
    used = tuple(facts_used(rule.when, facts, ev))
    value, held, unknowns = evaluated.value, evaluated.held, evaluated.unknown
    settled = _release_settled(match, sole)
    if settled and value is not Tri.FALSE:
        # The message is printed only by the releases the rule's one condition on the package
        # names (a `release_NAME` group; numba's "needs NumPy 2.0 or less" is 0.60's): that
        # condition holds, whatever the log lists.
        unknowns = tuple(u for u in unknowns if u.fact not in settled)
        held = (*held, *(f"{fact}: {why}" for fact, why in settled.items()))
        if value is Tri.UNKNOWN and not unknowns:
            value = Tri.TRUE
    if value is Tri.FALSE:
        verdict = "outside-range"
    elif value is Tri.TRUE and (not match.symptom.frames or seen):
        verdict = "confirmed"
    else:
        verdict = "symptom-only"
    # One entry per fact: several conditions can ask about the same missing fact.
    wanted = {u.fact: f"{u.fact} — settle with {_for_explain(u.needs)}" for u in unknowns}
    named = _raising_package(rule, match.raised_in)
    if named is not None and "packages" in wanted:
        # "every compiled package installed" is not a question where the traceback shows whose
        # import failed (numexpr/__init__.py importing numexpr.interpreter): ask for that one.
        name, line = named
        del wanted["packages"]
        wanted[f"packages.{name}"] = (
            f"packages.{name} — settle with {name}'s version (pip show {name}): the traceback "
            f"shows its import failing (line {line}); a build older than its first NumPy-2 "
            "build is the cause"
        )
    unknown = tuple(wanted.values())
    if value is Tri.TRUE and match.symptom.frames and not seen:
        unknown += ("frames — the log shows no traceback for this error",)
    return Explanation(
        rule,
        verdict,
        match.line,
        match.text,
        match.rank,
        seen,
        used,
        held,
        unknown,
        tuple(wanted),
        messages,
        raised_rank(rule, match.raised_in),
    )


def _raising_package(rule: Rule, raised_in: tuple[str, int] | None) -> tuple[str, int] | None:
    """The package whose frames raised, where the rule's mechanism covers any package (an
    extension built against NumPy 1, OPEN_PACKAGES) and so could name it."""
    if raised_in is None:
        return None
    for leaf in leaves(rule.when):
        if isinstance(leaf, DerivedCondition) and leaf.key in OPEN_PACKAGES:
            return raised_in
    return None


# Packages whose mention is implied by the messages their rules match: the CUDA errors and
# capability warnings the torch rules read are printed by torch itself (c10's CUDA checks,
# torch/cuda/__init__.py), with or without a traceback.
IMPLIED = frozenset({"torch"})


def _built_by(key: str) -> tuple[str, ...]:
    """The one package a build fact describes (flash_attn_cxx11abi: flash-attn); none for the
    CUDA runtime, cuDNN or NCCL, which any of several wheels or the system may provide."""
    owners = BUILD_OWNERS.get(key, ())
    return owners if len(owners) == 1 else ()


def about(rule: Rule) -> set[str]:
    """The packages a rule's conditions are about: versions, derived tables, build owners."""
    names: set[str] = set()
    for leaf in leaves(rule.when):
        if isinstance(leaf, PackageVersion):
            names.add(str(leaf.name))
        elif isinstance(leaf, BuildCondition):
            names.update(_built_by(leaf.key))
        elif isinstance(leaf, DerivedCondition) and leaf.key not in OPEN_PACKAGES:
            names.update(DERIVED_PACKAGES.get(leaf.key, ()))
    return names


def _spellings(name: str) -> set[bytes]:
    """How a distribution's name is printed: as itself, as its import name, any case."""
    return {name.encode(), name.replace("-", "_").encode()}


def _release_settled(match: Match, sole: bool) -> dict[str, str]:
    """fact -> why, for each package whose release the matched message settles: the symptom is
    no other rule's, names the package in a `release_NAME` group, and the rule's conditions are
    one conjunction with exactly one condition on that package (an alternative could hold
    without it; two conditions would each claim the message)."""
    if not sole or not match.releases:
        return {}
    when = match.rule.when
    if any(isinstance(part, AnyOf) for part in _nodes(when)):
        return {}
    out = {}
    for name in sorted(match.releases):
        on = [c for c in leaves(when) if isinstance(c, PackageVersion) and c.name == name]
        if len(on) == 1 and on[0].spec and not on[0].commits:
            out[f"packages.{name}"] = (
                f"{name} {on[0].spec}: only these releases print the message (line {match.line})"
            )
    return out


def _nodes(condition: Condition) -> Iterator[Condition]:
    yield condition
    for part in getattr(condition, "parts", ()):
        yield from _nodes(part)


def shared_symptoms(rules: Sequence[Rule]) -> frozenset[tuple[str, str]]:
    """(rule id, symptom) pairs whose symptom another rule, about other packages, has too:
    torch's "no kernel image is available" is FlashAttention-3's rule's symptom as well, so
    matching it says nothing about flash-attn-3; a symptom only rules about the same packages
    have is theirs."""
    by_match: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for rule in rules:
        names = frozenset(about(rule))
        for symptom in rule.symptoms:
            by_match.setdefault(symptom.match, []).append((rule.id, names))
    shared = set()
    for match, owners in by_match.items():
        for rule_id, names in owners:
            if any(not (names & other) for other_id, other in owners if other_id != rule_id):
                shared.add((rule_id, match))
    return frozenset(shared)


def unmentioned(
    match: Match, ev: LogEvidence, shared: frozenset[tuple[str, str]]
) -> tuple[str, ...]:
    """The packages a rule is about that the log never names where it could, when the symptom
    that matched is not the rule's own (`shared_symptoms`): no fact read (a listing, a version,
    a message), not in the matched message, its traceback or the lines before it. Empty when
    any of them is named, the symptom is the rule's own, or the rule is about none (issue 40:
    FlashAttention-3's rule on torch's "no kernel image", in a log that never mentions it)."""
    if (match.rule.id, match.symptom.match) not in shared:
        return ()
    names = about(match.rule) - IMPLIED
    if not names:
        return ()
    shown = set(ev.packages) | {f.key for f in ev.facts if f.kind in ("installed", "package")}
    if names & shown:
        return ()
    context = match.context.lower()
    pattern = match.symptom.match.lower().encode()
    for name in names:
        if any(s in context or s in pattern for s in _spellings(name.lower())):
            return ()
    return tuple(sorted(names))


# derived keys of rules that answer for a message any release prints (the requirement a
# release's own check names, whatever the release): where a rule about the release that prints
# it holds on the same line, that rule is the cause and the generic one repeats it
GENERIC = frozenset({"stated_requirement"})


def generic(rule: Rule) -> bool:
    return any(isinstance(c, DerivedCondition) and c.key in GENERIC for c in leaves(rule.when))


def set_apart_generic(
    matches: Sequence[Explanation],
) -> tuple[list[Explanation], list[Unrelated]]:
    """The generic rules' matches (GENERIC) on a line where a specific rule is confirmed, or
    judged better (transformers-trainer-needs-accelerate confirmed on "requires
    `accelerate>=0.26.0`"), set apart: the specific rule names the release's floor and its fix.
    Where the specific rule is outside-range (transformers 4.30's "requires
    `accelerate>=0.20.1`") or judged no better, the generic rule is kept: the message's own
    requirement still decides, or is the one question."""
    kept: list[Explanation] = []
    apart: list[Unrelated] = []
    for e in matches:
        if generic(e.rule):
            better = sorted(
                o.rule.id
                for o in matches
                if o.line == e.line
                and not generic(o.rule)
                and (o.verdict == "confirmed" or ORDER[o.verdict] < ORDER[e.verdict])
            )
            if better:
                reason = "the same message is " + ", ".join(better) + "'s, about its releases"
                apart.append(Unrelated(e.rule, e.line, e.text, reason))
                continue
        kept.append(e)
    return kept, apart


def raised_rank(rule: Rule, raised_in: tuple[str, int] | None) -> int:
    """0 when the package whose frames raised is one the rule names (torch's frames under
    NumPy's warning: numpy2-with-torch-before-2.3), 2 when the rule names packages and not that
    one, 1 when the traceback shows no package or the rule's mechanism covers any package
    (numpy1-build-beside-numpy2: an extension built against NumPy 1, listed or not)."""
    if raised_in is None:
        return 1
    names: set[str] = set()
    for leaf in leaves(rule.when):
        if isinstance(leaf, PackageVersion):
            names.add(str(leaf.name))
        elif isinstance(leaf, BuildCondition):
            # a build fact is about the package that built it (flash_attn_cxx11abi: flash-attn)
            names.update(_built_by(leaf.key))
        elif isinstance(leaf, DerivedCondition):
            if leaf.key in OPEN_PACKAGES and raised_in[0] not in DERIVED_PACKAGES.get(leaf.key, ()):
                return 1
            names.update(DERIVED_PACKAGES.get(leaf.key, ()))
    if not names:
        return 1
    return 0 if raised_in[0] in names else 2


def rank_key(e: Explanation) -> tuple[int, int, int, int, int, int, int, int, int, str]:
    return (
        ORDER[e.verdict],
        -len(e.frames_seen),
        # the package whose frames raised decides among rules sharing a message (NumPy's ABI
        # warning: torch's frames rank the torch rule first, matplotlib's the NumPy-1-build one)
        e.raised,
        0 if e.from_log else 1,  # the log shows none of the rule's facts: below those it shows
        -informative(e.held),  # a bare exclusion (torch is not 2.1.*) is no evidence
        -e.from_log,
        # A NumPy 2 log whose later error is torch's own ("Could not infer dtype of
        # numpy.float32"): the rule both messages name ranks above one that only shares the first.
        -e.messages,
        -len(e.facts_used),
        e.line,
        e.rule.id,
    )


def indistinct(ranked: Sequence[Explanation]) -> tuple[Indistinct, ...]:
    """Causes (not outside-range) on the same line whose evidence ranks them equal but for
    their names: the log cannot tell them apart."""
    groups: dict[tuple[object, ...], list[Explanation]] = {}
    for e in ranked:
        if e.verdict == "symptom-only":
            groups.setdefault((*rank_key(e)[:-2], e.line), []).append(e)
    out = []
    for same in groups.values():
        if len(same) < 2:
            continue
        unknown = {f for e in same for f in e.unknown_facts}
        asked = [_asked(e.rule.when) for e in same]
        # A fact decides when the rules ask different things of it (CUDA 12 vs CUDA 13 builds);
        # one they all ask alike (a GPU at all) cannot tell them apart.
        deciding = [f for f in unknown if len({frozenset(a.get(f, ())) for a in asked}) > 1]
        order = sorted(deciding or unknown, key=lambda f: (not f.startswith("build."), f))
        out.append(Indistinct(tuple(e.rule.id for e in same), same[0].line, tuple(order)))
    return tuple(sorted(out, key=lambda i: (i.line, i.rules)))


def _asked(when: Condition) -> dict[str, set[str]]:
    """What a rule's conditions ask of each fact, by the fact's name."""
    asked: dict[str, set[str]] = {}
    for leaf in leaves(when):
        if isinstance(leaf, PackageVersion):
            asked.setdefault(f"packages.{leaf.name}", set()).add(leaf.spec)
        elif isinstance(leaf, HardwareCondition | UsageCondition):
            prefix = "hardware" if isinstance(leaf, HardwareCondition) else "usage"
            asked.setdefault(f"{prefix}.{leaf.key}", set()).add(str(leaf.expected))
        elif isinstance(leaf, BuildCondition):
            asked.setdefault(f"build.{leaf.key}", set()).add(leaf.spec)
    return asked


# ---------------------------------------------------------------------------------------------
# The facts a rule reads, with the log line each came from


def facts_used(when: Condition, facts: Facts, ev: LogEvidence) -> Iterator[FactUsed]:
    """The facts a rule's conditions read, with the log line each came from (None: given on
    the command line, not read from the log)."""
    lines = {(f.kind, f.key): f for f in ev.facts}
    seen: set[str] = set()
    for condition in leaves(when):
        for used in _used(condition, facts, ev, lines):
            if used[0] not in seen:
                seen.add(used[0])
                yield used


def _used(
    condition: Condition, facts: Facts, ev: LogEvidence, lines: dict[tuple[str, str], LogFact]
) -> Iterator[FactUsed]:
    if isinstance(condition, PackageVersion):
        yield from _package(str(condition.name), facts, lines)
    elif isinstance(condition, UsageCondition):
        yield from _usage(condition.key, facts, lines)
    elif isinstance(condition, HardwareCondition):
        yield from _hardware(condition.key, facts, ev)
    elif isinstance(condition, BuildCondition):
        yield from _build(condition.key, facts, lines)
    elif isinstance(condition, DerivedCondition):
        for name in DERIVED_PACKAGES.get(condition.key, ()):
            yield from _package(name, facts, lines)
        yield from _build("torch_cuda", facts, lines)
        yield from _hardware("compute_capability", facts, ev)
        if condition.key == "torch_kernels":  # PTX runs where the driver's CUDA reaches the build's
            yield from _hardware("cuda_driver", facts, ev)
        arch = lines.get(("arch_list", "torch"))
        if arch is not None and "torch" in facts.arch_lists:
            yield ("build.torch_arch_list", arch.value, arch.text, arch.line)
    elif isinstance(condition, PythonVersion) and facts.python_version is not None:
        log_fact = lines.get(("python", "python"))
        yield (
            "python",
            str(facts.python_version),
            log_fact.text if log_fact else "",
            log_fact.line if log_fact else None,
        )


def _package(name: str, facts: Facts, lines: dict[tuple[str, str], LogFact]) -> Iterator[FactUsed]:
    fact = facts.packages.get(name)  # type: ignore[call-overload]
    if fact is None:
        return
    log_fact = lines.get(("package", name)) or lines.get(("installed", name))
    from_log = (
        log_fact is not None and fact.origin is not None and fact.origin.line == log_fact.line
    )
    shown = str(fact.versions[0]) if fact.versions else "present (version not shown)"
    yield (
        f"packages.{name}",
        shown + (f" @ {fact.commit[:10]}" if fact.commit else ""),
        log_fact.text if from_log and log_fact else str(fact.origin or ""),
        log_fact.line if from_log and log_fact else None,
    )


def _usage(key: str, facts: Facts, lines: dict[tuple[str, str], LogFact]) -> Iterator[FactUsed]:
    usage = facts.usage.get(key)
    if usage is None:
        return
    log_fact = lines.get(("usage", key))
    from_log = log_fact is not None and (usage.note or "").startswith("read from the log")
    yield (
        f"usage.{key}",
        str(usage.value).lower() if isinstance(usage.value, bool) else str(usage.value),
        log_fact.text if from_log and log_fact else str(usage.origin),
        log_fact.line if from_log and log_fact else None,
    )


def _hardware(key: str, facts: Facts, ev: LogEvidence) -> Iterator[FactUsed]:
    hardware = facts.hardware
    if hardware is None:
        return
    from_log = hardware.source == "log"
    kinds = {
        "driver": ("driver",),
        "cuda_driver": ("cuda_driver",),
        "compute_capability": ("compute_capability", "gpu", "gpu_seen"),
    }.get(key, ("gpu", "gpu_seen"))
    shown = [f for f in ev.facts if f.kind in kinds] if from_log else []
    if key == "driver" and hardware.driver_version is not None:
        value = hardware.driver_label or ""
    elif key == "cuda_driver" and hardware.cuda_driver_version is not None:
        value = f"{hardware.cuda_driver_version} (the driver's CUDA version)"
    elif key == "compute_capability" and any(g.compute_capability for g in hardware.gpus):
        value = ", ".join(
            f"GPU {g.index} {g.name}: {g.compute_capability}"
            for g in hardware.gpus
            if g.compute_capability
        )
    elif key not in ("driver", "cuda_driver", "compute_capability") and hardware.gpus:
        partial = hardware.partial
        value = f"{'at least ' if partial else ''}{len(hardware.gpus)} GPU(s)"
        shown = shown[:1]  # the list starts there
    else:
        return
    first = shown[-1] if shown else None
    yield (
        f"hardware.{'gpus' if key in ('gpu_count', 'gpu_name') else key}",
        value,
        first.text if first else hardware.source,
        first.line if first else None,
    )


def _build(key: str, facts: Facts, lines: dict[tuple[str, str], LogFact]) -> Iterator[FactUsed]:
    if key not in facts.builds:
        return
    log_fact = lines.get(("build", key))
    yield (
        f"build.{key}",
        str(facts.builds[key]),
        log_fact.text if log_fact else "derived from package versions",
        log_fact.line if log_fact else None,
    )


# A log comes from another machine and explain never probes this one: the hints that name
# doctor's and check's ways to settle a fact say explain's own (its --hardware, --python).
_EXPLAIN_HINTS = {
    HARDWARE_HINT: "--hardware FILE (a `compat probe --format json` profile of the machine "
    "that ran the job)",
    "--python PATH (doctor) or --python-version X.Y (check)": "--python PATH (the job's "
    "interpreter)",
    "--python PATH (doctor) or --platform (check)": "--python PATH (the job's interpreter)",
}


def _for_explain(needs: str) -> str:
    for hint, own in _EXPLAIN_HINTS.items():
        needs = needs.replace(hint, own)
    return needs
