"""The proof of a file that does not resolve as written (issue 44 item 6): pin's lines tell the
user to move some of their own pins, so the install that happens is of the file with those pins
moved. Its proof is what the user gets; the refusal of the file as written is kept beside it, so
neither is hidden."""

from __future__ import annotations

from dataclasses import replace

from compat.resolve.pin.pinresult import Proof
from compat.resolve.pin.solver import PinPlan
from compat.resolve.resolvers.resolver import ResolveNotMade


def moved_names(plan: PinPlan) -> list[str]:
    """The user's own pins the plan moves, as the file spells them."""
    return sorted(
        (pin.display_name or pin.name for pin in plan.pins if pin.moves_user_pin), key=str.lower
    )


def as_edited(alone: Proof, edited: Proof, plan: PinPlan) -> Proof:
    """The proof of the edited file, saying first that the file as written does not resolve."""
    moved = ", ".join(moved_names(plan)) or "none"
    return replace(
        edited,
        detail=f"{alone.detail}; with the pins this plan moves, moved ({moved}): {edited.detail}",
    )


def judged_offline(error: ResolveNotMade, offline: Proof) -> Proof:
    """The proof when the real resolver could not run: the plan judged against compat's offline
    solve, never called proven, saying what is unproven (what the resolver installs from the
    index, where the snapshot stands in for it) and why the resolver did not answer."""
    said = offline.detail.removeprefix("not proven offline: ")
    if offline.status == "failed":
        said = f"it refused the plan too ({said})"
    return replace(
        offline,
        status="unproven",
        detail=f"not proven: {error.tool} did not resolve ({error.reason}); judged instead "
        f"against {said}; unproven: that {error.tool} installs what that solve picked",
        not_made=str(error.message),
    )
