"""Symptom signatures as a multi-pattern prefilter, and the check that keeps them linear.

Every symptom regex is parsed once and its *required literals* extracted (text that any match
must contain). A small set of literal anchors covering every signature is then chosen, so that a
log is scanned with one `bytes.find` pass per anchor; the full regexes run only on the few lines
that hold an anchor. A signature with no usable literal (rare) is matched on every line.

`backtracking_problem` tells `compat matrix lint` which signatures could take exponential time
on a hostile log line (nested quantifiers, alternations under a quantifier whose branches can
match the same text), so that such signatures never ship.
"""

from __future__ import annotations

import functools
import importlib
import itertools
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MIN_ANCHOR = 4  # shorter literals match too many lines to be worth a pass of their own
MIN_SHARED = 12  # a literal shared by several signatures is used when at least this long
_WORD = re.compile(r"[A-Za-z0-9_]*[A-Z][A-Za-z0-9_]*[A-Z][A-Za-z0-9_]*")  # two capitals or more

_parser: Any = importlib.import_module("re._parser" if hasattr(re, "_parser") else "sre_parse")
_c: Any = importlib.import_module("re._constants" if hasattr(re, "_constants") else "sre_constants")
_UNBOUNDED = _c.MAXREPEAT


@dataclass(frozen=True)
class Signature:
    pattern: str
    regex: re.Pattern[str]
    literals: tuple[str, ...]  # required literals, each of length >= MIN_ANCHOR


# A pattern's regex and required literals depend on its text alone (Signature is frozen): each
# `explain` in a process (the MCP server, a test run) parsed every symptom's pattern again.
@functools.lru_cache(maxsize=4096)
def compile_signature(pattern: str) -> Signature:
    regex = re.compile(pattern)
    return Signature(pattern, regex, required_literals(pattern))


def required_literals(pattern: str) -> tuple[str, ...]:
    """Literal runs that every match of `pattern` contains (empty when none is long enough)."""
    parsed = _parser.parse(pattern)
    if parsed.state.flags & (re.IGNORECASE | re.VERBOSE):
        return ()
    runs: list[str] = []
    current: list[str] = []
    _literal_runs(parsed, runs, current)
    runs.append("".join(current))
    return tuple(run for run in runs if len(run) >= MIN_ANCHOR)


def _literal_runs(seq: Iterable[Any], runs: list[str], current: list[str]) -> None:
    for op, arg in seq:
        if op is _c.LITERAL and not chr(arg).isspace():
            current.append(chr(arg))
        elif op is _c.SUBPATTERN and not arg[1] and not arg[2]:
            # A group outside any repeat or alternation (a named fact, say) must match once:
            # its literals continue the run around it.
            _literal_runs(arg[-1], runs, current)
        else:
            # Anything but a literal ends the run, and so does whitespace: the log may print
            # two spaces or a tab where the signature has one (torch's cuDNN message prints
            # "compiled  against"), so an anchor never spans it (issue 40).
            runs.append("".join(current))
            current.clear()


# Named groups a signature may use: each becomes a fact read from the line it matched
# (docs/knowledge-base.md, "Facts in a signature"; compat.facts.logversions.record_groups).
GROUP_PREFIXES = ("package_", "build_", "installed_", "seen_", "release_")


def group_problem(group: str, build_keys: Iterable[str]) -> str | None:
    """Why a named group of a symptom signature is not a fact name, or None."""
    if group in ("python", "python_tag"):
        return None
    for prefix in GROUP_PREFIXES:
        if group.startswith(prefix) and len(group) > len(prefix):
            rest = group[len(prefix) :]
            if prefix in ("build_", "seen_") and rest not in set(build_keys):
                return f"named group {group!r}: {rest!r} is not a build key"
            return None
    return (
        f"named group {group!r} is not a fact: name it package_NAME, installed_NAME, "
        "build_KEY, seen_KEY, release_NAME, python or python_tag"
    )


def choose_anchors(
    literals: Sequence[tuple[str, ...]], cost: Callable[[str], float] | None = None
) -> tuple[list[str], list[int]]:
    """Pick anchors so that each signature (by index) contains at least one of them, at the
    least scanning cost: a weighted set cover, greedily taking the candidate that covers most
    signatures per unit of `cost` (seconds per pass; by default estimated from the length).
    Returns the anchors and the indexes of signatures with no literal (matched on every line)."""
    cost = cost or (lambda anchor: 1 / pass_speed(anchor))
    runs = sorted({run for group in literals for run in group})
    candidates: set[str] = set(runs)
    # Technical words (CUDA, PyTorch, NumPy, NVIDIA): one pass finds the lines of a family.
    candidates.update(
        w for run in runs for word in _WORD.findall(run) if len(w := word) >= MIN_ANCHOR
    )
    # Families of signatures differ in a version digit: their runs share a prefix or a suffix.
    for ordered, flip in ((runs, False), (sorted(r[::-1] for r in runs), True)):
        for a, b in itertools.pairwise(ordered):
            common = _common_prefix(a, b)
            if len(common) >= MIN_SHARED:
                candidates.add(common[::-1] if flip else common)
    shared = [c for c in candidates if len(c) >= MIN_SHARED or _WORD.fullmatch(c) or c in runs]
    uncovered = {i for i, group in enumerate(literals) if group}
    costs = {c: max(cost(c), 1e-9) for c in shared}
    anchors: list[str] = []
    # Which signatures each candidate is found in, worked out once: the greedy rounds then only
    # intersect sets (it was every candidate against every signature's runs in every round, most
    # of `compat explain`'s time on a small log; issue 45).
    holders: dict[str, list[int]] = {}
    for i, group in enumerate(literals):
        for run in set(group):
            holders.setdefault(run, []).append(i)
    found_in = {
        c: frozenset(i for run, found in holders.items() if c in run for i in found) for c in shared
    }

    def covered(candidate: str) -> set[int]:
        return uncovered & found_in[candidate]

    while uncovered:
        best = max(shared, key=lambda c: (len(covered(c)) / costs[c], len(c), c))
        covers = covered(best)
        if not covers:
            break
        anchors.append(best)
        uncovered -= covers
    return anchors, [i for i, group in enumerate(literals) if not group]


def _common_prefix(a: str, b: str) -> str:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return a[:n]


def pass_speed(anchor: str) -> float:
    """Relative speed of one `bytes.find` pass, when no sample of the log is at hand: longer
    anchors let the search skip further (measured on log text: ~1.3 GB/s for 2 bytes, 2-3 GB/s
    for 4-14, 3-19 GB/s for longer ones, depending on their letters)."""
    return 0.6 + len(anchor) / 5


def measured_cost(sample: bytes, per_hit: float = 2e-5) -> Callable[[str], float]:
    """Cost of an anchor on this log: the time to find all its occurrences in a sample of it,
    plus the work each candidate line brings (decoding, regexes)."""

    def cost(anchor: str) -> float:
        needle = anchor.encode()
        start = time.perf_counter()
        hits, pos = 0, sample.find(needle)
        while pos != -1 and hits < 10_000:
            hits += 1
            pos = sample.find(needle, pos + len(needle))
        return time.perf_counter() - start + hits * per_hit

    return cost


# ---------------------------------------------------------------------------------------------
# Catastrophic backtracking


def backtracking_problem(pattern: str) -> str | None:
    """Why `pattern` can backtrack catastrophically, or None. Flags a quantified group that
    contains another unbounded quantifier (`(a+)+`, `(\\s*x)*`), and a quantified alternation
    whose branches can start with the same character (`(a|ab)*`, `(\\w|\\d)+`)."""
    try:
        parsed = _parser.parse(pattern)
    except re.error as error:
        return f"invalid regular expression: {error}"
    return _walk(list(parsed), inside_repeat=False)


def matches_empty(pattern: str) -> bool:
    """Whether `pattern` can match the empty string (`x*`, `^`, `(?=a)`): as a symptom it
    would match every line of every log and name no text. `pattern` must be valid."""
    return bool(_parser.parse(pattern).getwidth()[0] == 0)


def _walk(seq: Iterable[Any], inside_repeat: bool) -> str | None:
    for op, arg in seq:
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            _low, high, body = arg
            unbounded = high is _UNBOUNDED or high > 64
            if op is getattr(_c, "POSSESSIVE_REPEAT", None):
                continue  # possessive: never backtracks into
            if unbounded and inside_repeat:
                return "nested quantifiers (a repeated group containing an unbounded repeat)"
            if unbounded or high > 1:
                problem = _overlapping_branches(body)
                if problem:
                    return problem
            problem = _walk(body, inside_repeat or unbounded or high > 1)
            if problem:
                return problem
        elif op is _c.SUBPATTERN:
            problem = _walk(arg[-1], inside_repeat)
            if problem:
                return problem
        elif op is _c.BRANCH:
            for branch in arg[1]:
                problem = _walk(branch, inside_repeat)
                if problem:
                    return problem
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            problem = _walk(arg[1], inside_repeat)
            if problem:
                return problem
    return None


def _overlapping_branches(body: Any) -> str | None:
    items = list(body)
    while len(items) == 1 and items[0][0] is _c.SUBPATTERN:
        items = list(items[0][1][-1])
    if not items or items[0][0] is not _c.BRANCH:
        return None
    firsts = [_first_chars(list(branch)) for branch in items[0][1][1]]
    for i, a in enumerate(firsts):
        for b in firsts[i + 1 :]:
            if a is None or b is None or a & b:
                return "a repeated alternation whose branches can match the same text"
    return None


def _first_chars(seq: list[Any]) -> set[int] | None:
    """The characters a sequence can start with; None when it could be anything (or empty)."""
    if not seq:
        return None
    op, arg = seq[0]
    if op is _c.LITERAL:
        return {arg}
    if op is _c.SUBPATTERN:
        return _first_chars(list(arg[-1]))
    if op is _c.IN:
        chars: set[int] = set()
        for kind, value in arg:
            if kind is _c.LITERAL:
                chars.add(value)
            elif kind is _c.RANGE:
                chars.update(range(value[0], value[1] + 1))
            else:  # categories (\d, \w, \s), negation: treat as anything
                return None
        return chars
    return None
