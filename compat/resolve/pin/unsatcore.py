"""Why a finding stays: the constraints that together rule out every escape, in the user's terms.

The solver's hard constraints come in named groups (a user's pin, a capability floor, a rule the
input avoids, an installed package's declared window). With the finding's escape added as a goal,
a SAT solver answers under one assumption per group; when it refuses, its core is shrunk to a
minimal one (drop a group, ask again; deterministic, group order) and said as
"escaping it contradicts trl>=0.14.0 for GRPOTrainer and your pin transformers==4.40.1".
Only releases that are installed, declared or chosen are named, never an index's other releases.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from compat.model import Finding, Status


def explain(
    solver: Any, encoding: Any, finding: Finding, moved: AbstractSet[str] = frozenset()
) -> str:
    """`solver` is compat.resolve.pin.maxsat's _Solver and `encoding` its last round's instance
    (duck-typed here: maxsat calls this module, not the other way round).

    The core is computed against the final plan: `moved` names the packages the plan moved off
    where they started, and a user's pin on one of them is no constraint of that plan (it was
    given up), so it is left out of the groups and never named as what blocks the escape."""
    from pysat.solvers import Solver

    rule = finding.rule
    names = sorted({m.name for m in finding.packages} | _rule_names(solver, rule.id))
    if not any(name in encoding.domains for name in names):
        return "none of its packages is one compat pins (installed and on the index)"
    goal_key = ("affected" if finding.status is Status.AFFECTED else "matched", rule.id)
    goal = encoding.lit.ids.get(goal_key)
    grouped: dict[Any, list[list[int]]] = {}
    plain: list[list[int]] = []
    for group, clause in [*encoding.hard, *encoding.pin_groups]:
        if group is not None and group[0] == "pin" and group[1] in moved:
            continue  # a pin the plan moved holds nowhere in it
        if group is None:
            plain.append(clause)
        else:
            grouped.setdefault(group, []).append(clause)
    selectors = {group: encoding.lit.fresh() for group in sorted(grouped, key=repr)}
    with Solver(name="g3", bootstrap_with=plain) as sat:
        for group, clauses in grouped.items():
            for clause in clauses:
                sat.add_clause([-selectors[group], *clause])
        if goal is not None:
            sat.add_clause([-goal])
        order = list(selectors)
        if sat.solve(assumptions=[selectors[g] for g in order]):
            if finding.status is Status.POSSIBLE:
                return (
                    "escaping it moves packages beyond its own; settle the unknown facts "
                    "(doctor's questions) to decide"
                )
            return "every escape leaves a more serious finding or moves one of your pins"
        core = set(sat.get_core() or ())
        needed = [g for g in order if selectors[g] in core]
        # Shrink to a minimal core: a group stays only when the rest alone still refuse.
        for group in list(needed):
            trial = [g for g in needed if g != group]
            if not sat.solve(assumptions=[selectors[g] for g in trial]):
                needed = trial
    if not needed:
        shown = " or ".join(names)
        return f"no release of {shown} on the index escapes it together with its requirements"
    items = [_say(solver, group) for group in needed]
    joined = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return f"escaping it contradicts {joined}"


def _rule_names(solver: Any, rule_id: str) -> set[str]:
    for _, rule, names in solver.rules:
        if rule.id == rule_id:
            return set(names)
    return set()


def _say(solver: Any, group: Any) -> str:
    kind, name = group[0], group[1]
    if kind == "pin":
        fact = solver.facts.packages.get(name)
        shown = fact.display_name if fact and fact.display_name else name
        return f"your pin {shown}=={solver.builds.get(name, solver.start[name])}"
    if kind == "floor":
        floor = solver.intent.floors[name]
        return f"{name}>={floor[0]} for {floor[1]}"
    if kind == "window":
        return f"{name} {solver.start[name]} (installed) requiring {group[2]}"
    return f"staying clear of {name}"
