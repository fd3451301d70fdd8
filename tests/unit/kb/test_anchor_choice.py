"""The anchors `compat explain` scans for (compat.kb.signatures.choose_anchors) are the greedy
weighted set cover the module describes: checked against the plain statement of that greedy
on the shipped knowledge base's symptom signatures, under the default cost and measured-like
ones (issue 45 made the choice ~15x cheaper; it must choose exactly the same anchors)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import pytest

from compat.kb import signatures
from compat.kb.knowledge import load_knowledge_base
from compat.kb.signatures import MIN_ANCHOR, MIN_SHARED, choose_anchors, compile_signature


def plain_greedy(
    literals: Sequence[tuple[str, ...]], cost: Callable[[str], float]
) -> tuple[list[str], list[int]]:
    """Each round: the candidate covering most still-uncovered signatures per unit of cost,
    covers recounted from the signatures' runs (ties: the longer, then the larger string)."""
    runs = sorted({run for group in literals for run in group})
    candidates = set(runs)
    candidates.update(
        w for run in runs for w in signatures._WORD.findall(run) if len(w) >= MIN_ANCHOR
    )
    for ordered, flip in ((runs, False), (sorted(r[::-1] for r in runs), True)):
        for a, b in itertools.pairwise(ordered):
            common = signatures._common_prefix(a, b)
            if len(common) >= MIN_SHARED:
                candidates.add(common[::-1] if flip else common)
    shared = [
        c for c in candidates if len(c) >= MIN_SHARED or signatures._WORD.fullmatch(c) or c in runs
    ]
    uncovered = {i for i, group in enumerate(literals) if group}
    anchors: list[str] = []

    def covered(c: str) -> set[int]:
        return {i for i in uncovered if any(c in run for run in literals[i])}

    while uncovered:
        best = max(shared, key=lambda c: (len(covered(c)) / max(cost(c), 1e-9), len(c), c))
        if not covered(best):
            break
        anchors.append(best)
        uncovered -= covered(best)
    return anchors, [i for i, group in enumerate(literals) if not group]


def shipped_literals() -> list[tuple[str, ...]]:
    rules = load_knowledge_base().rules()
    return [compile_signature(s.match).literals for rule in rules for s in rule.symptoms]


COSTS: dict[str, Callable[[str], float]] = {
    "default": lambda anchor: 1 / signatures.pass_speed(anchor),
    "flat": lambda anchor: 1.0,
    "uneven": lambda anchor: 1.0 + (sum(map(ord, anchor)) % 7),  # a measured cost's ties vary
}


@pytest.mark.parametrize("cost", sorted(COSTS))
def test_the_anchors_are_the_plain_greedys(cost: str) -> None:
    literals = shipped_literals()
    assert len(literals) > 100  # the real signatures, not an empty knowledge base
    chosen = choose_anchors(literals, COSTS[cost])
    assert chosen == plain_greedy(literals, COSTS[cost])
    anchors, bare = chosen
    for i, group in enumerate(literals):  # every signature with a literal is covered
        assert i in bare or any(a in run for a in anchors for run in group)
