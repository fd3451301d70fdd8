"""The proof of a file that does not resolve as written (issue 44 item 6): pin's lines tell the
user to move some of their own pins, so the install that happens is of the file with those pins
moved. Its proof is what the user gets; the refusal of the file as written is kept beside it, so
neither is hidden."""

from __future__ import annotations

from dataclasses import replace

from compat.resolve.pin.pinresult import Proof
from compat.resolve.pin.solver import PinPlan


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
