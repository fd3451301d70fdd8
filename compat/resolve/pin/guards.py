"""Which rules a pin's line names as guarding it ("kept (your pin), guarded by RULE, ...").

Every rule that speaks of a package is in the solve (compat.resolve.pin.solver.guarded_names), but
a user reads "guarded by X" as "X is why this line matters here": a rule about a compute
capability on a machine of AMD GPUs, about a CUDA build of torch when the plan's torch is a ROCm
build, or about a package nowhere in the plan, is not. A rule is shown when it could apply with
the facts pin has: its conditions are evaluated by the engine against the plan's facts with the
versions of the packages in the plan left open (those are what the solve chooses), and a rule
the engine finds FALSE on what is known is left out. An unknown fact (no hardware, a build not
read) never drops a rule. The rules that constrained the solve (some candidate version they
flag) come first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from packaging.utils import NormalizedName

from compat.kb.conditions import All, AnyOf, HardwareCondition, PackageVersion, SettledAnyOf
from compat.kb.knowledge import KnowledgeBase
from compat.model import Condition, Facts, Tri, Verdict


class _Open(Condition):
    """A package's version condition the solve is choosing: not known to hold or to fail."""

    __slots__ = ()

    def evaluate(self, facts: Facts) -> Verdict:
        del facts
        return Verdict(Tri.UNKNOWN)


_OPEN = _Open()


def _opened(condition: Condition, names: Collection[NormalizedName]) -> Condition:
    """`condition` with the version conditions on `names` open, its `all`/`any` structure kept
    (so that the engine's own combination of verdicts decides)."""
    if isinstance(condition, PackageVersion):
        return _OPEN if condition.name in names else condition
    if isinstance(condition, SettledAnyOf):
        return SettledAnyOf(tuple(_opened(p, names) for p in condition.parts), condition.key)
    if isinstance(condition, AnyOf):
        return AnyOf(tuple(_opened(p, names) for p in condition.parts))
    if isinstance(condition, All):  # EscapableAll too: its extra is a fix, not a verdict
        return All(tuple(_opened(p, names) for p in condition.parts))
    return condition


def _hardware_only(condition: Condition) -> Condition:
    """`condition` with every leaf but the hardware ones open: a settled `any:` becomes a plain
    one (the build it is settled by is open too, so no alternative is dropped for it)."""
    if isinstance(condition, HardwareCondition):
        return condition
    if isinstance(condition, AnyOf):  # SettledAnyOf too
        return AnyOf(tuple(_hardware_only(p) for p in condition.parts))
    if isinstance(condition, All):
        return All(tuple(_hardware_only(p) for p in condition.parts))
    return _OPEN


def hardware_allows(condition: Condition, facts: Facts) -> bool:
    """Whether the machine in `facts` leaves `condition` possible for some version, build or
    usage: its hardware conditions evaluated by the engine, everything else open. An unknown
    hardware fact never says no; an NVIDIA compute capability or driver on a machine of AMD
    GPUs, a pre-Ampere floor on an A100, do."""
    return _hardware_only(condition).evaluate(facts).value is not Tri.FALSE


class Guards:
    """Per rule id, whether it could apply to the plan (computed once per rule)."""

    def __init__(self, kb: KnowledgeBase, facts: Facts, chosen: Collection[NormalizedName]) -> None:
        self.kb = kb
        self.facts = facts  # the plan's facts: its chosen versions and the builds they bring
        self.chosen = frozenset(chosen)
        self.positions = {rule_id: i for i, (rule_id, _) in enumerate(kb.index)}
        self.applies: dict[str, bool] = {}

    def could_apply(self, rule_id: str) -> bool:
        found = self.applies.get(rule_id)
        if found is None:
            position = self.positions.get(rule_id)
            if position is None:
                found = True  # not a rule of this knowledge base: nothing to judge it by
            else:
                when = _opened(self.kb.rule_at(position).when, self.chosen)
                found = when.evaluate(self.facts).value is not Tri.FALSE
            self.applies[rule_id] = found
        return found

    def shown(self, reasons: Iterable[str], constrained: Collection[str]) -> tuple[str, ...]:
        """`reasons` that could apply, those that constrained the solve first (each group in
        the knowledge base's order). A rule that flagged some candidate is shown whatever the
        plan's own facts say: it is why the other candidates were not chosen."""
        kept = [r for r in dict.fromkeys(reasons) if r in constrained or self.could_apply(r)]
        first: Sequence[str] = [r for r in kept if r in constrained]
        return (*first, *(r for r in kept if r not in constrained))
