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

import difflib
import importlib
import re
from collections.abc import Iterable, Sequence
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
    for op, arg in parsed:
        if op is _c.LITERAL:
            current.append(chr(arg))
            continue
        runs.append("".join(current))  # anything but a literal ends the run
        current = []
    runs.append("".join(current))
    return tuple(run for run in runs if len(run) >= MIN_ANCHOR)


def choose_anchors(literals: Sequence[tuple[str, ...]]) -> tuple[list[str], list[int]]:
    """Pick anchors so that each signature (by index) contains at least one of them: greedily,
    the literal shared by the most uncovered signatures first (longer on ties). Returns the
    anchors and the indexes of signatures that have no literal (matched on every line)."""
    candidates: set[str] = {run for runs in literals for run in runs}
    flat = sorted(candidates)
    # Technical words (CUDA, PyTorch, NumPy, NVIDIA): rare in the lines of a training log, and
    # shared by several signatures, so one pass finds the candidate lines of them all.
    candidates.update(word for run in flat for word in _WORD.findall(run) if len(word) >= MIN_ANCHOR)
    for i, a in enumerate(flat):
        for b in flat[i + 1 :]:
            match = difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(
                0, len(a), 0, len(b)
            )
            if match.size >= MIN_SHARED:
                candidates.add(a[match.a : match.a + match.size])
    uncovered = {i for i, runs in enumerate(literals) if runs}
    anchors: list[str] = []
    shared = [c for c in candidates if len(c) >= MIN_SHARED or _WORD.fullmatch(c)]

    def covered(candidate: str) -> set[int]:
        return {i for i in uncovered if any(candidate in run for run in literals[i])}

    # Weighted set cover: each anchor costs one `bytes.find` pass over the log, and a pass is
    # faster the longer the anchor (the search skips ahead by up to its length), so the anchor
    # chosen each time is the one covering most signatures per unit of scanning time.
    while uncovered and shared:
        best = max(shared, key=lambda c: (len(covered(c)) * pass_speed(c), len(c), c))
        covers = covered(best)
        if not covers:
            break
        anchors.append(best)
        uncovered -= covers
    for i in sorted(uncovered):
        anchors.append(max(literals[i], key=lambda run: (len(run), run)))
    anchors = list(dict.fromkeys(anchors))
    return anchors, [i for i, runs in enumerate(literals) if not runs]


def pass_speed(anchor: str) -> float:
    """Relative speed of one `bytes.find` pass for an anchor. Measured on log text: ~1.3 GB/s
    for 2 bytes, 2-3 GB/s for 4-14, 2-9 GB/s for longer ones (it depends on their letters more
    than on their length), so beyond a few bytes fewer passes matter more than longer anchors."""
    return 0.6 + len(anchor) / 5


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


def _walk(seq: Iterable[Any], inside_repeat: bool) -> str | None:
    for op, arg in seq:
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", None)):
            low, high, body = arg
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
