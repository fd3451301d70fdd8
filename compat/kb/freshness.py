"""How old the knowledge is, and what is newer than it.

The shipped knowledge base is generated from PyPI data recorded on known dates
(scripts/inputs/*.json); `scripts/gen_rules.py` summarizes them in compat/data/kb-inputs.json: the
oldest and newest fetch date and the newest release of each package the inputs saw. Reports state
those dates (the report has no clock of its own: same input, same output, so the date is stated and
the reader's calendar does the arithmetic), and name every installed or pinned release newer than
anything the knowledge base has seen: "no finding" about transformers 5.30.0 is silence, not a
clean bill.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compat.report import Newer, fetched_label

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

    from compat.model import PackageFact

INPUTS_FILE = Path(__file__).parent.parent / "data" / "kb-inputs.json"


@cache
def _summary() -> Mapping[str, Any]:
    try:
        data: Mapping[str, Any] = json.loads(INPUTS_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # a source checkout before its first generation: say nothing rather than guess
    return data


def inputs_fetched(source: str) -> dict[str, str] | None:
    """`{"oldest": date, "newest": date}` of the shipped knowledge base's inputs; None for a
    bundle (its own data, whose dates this file does not know)."""
    fetched = _summary().get("fetched")
    return dict(fetched) if source == "shipped" and isinstance(fetched, Mapping) else None


def newer_than_seen(
    source: str, packages: Mapping[NormalizedName, PackageFact]
) -> tuple[Newer, ...]:
    """Installed or pinned releases newer than the newest release the inputs saw."""
    if source != "shipped":
        return ()
    seen = _summary().get("newest_seen") or {}
    from packaging.version import InvalidVersion, Version

    out = []
    for name, fact in sorted(packages.items()):
        newest = seen.get(name)
        if newest is None or not fact.exact:
            continue
        try:
            if Version(fact.versions[0].public) > Version(newest):
                out.append(Newer(fact.label, str(fact.versions[0]), newest))
        except InvalidVersion:
            continue
    return tuple(out)


def newer_note(newer: Newer, fetched: Mapping[str, str] | None) -> str:
    when = f", {fetched_label(fetched)}" if fetched else ""
    return (
        f"{newer.name} {newer.version} is newer than any release the knowledge base has seen "
        f"(newest seen: {newer.newest_seen}{when}): no finding about it means nothing is known yet, "
        "not that it is clean; update compat, or `compat matrix update` for a newer bundle"
    )


def freshness(
    source: str, packages: Mapping[NormalizedName, PackageFact], notes: list[str]
) -> dict[str, Any]:
    """The Report fields doctor and check share (`kb_inputs`, `newer_than_kb`); one note per
    newer release is added to `notes`."""
    fetched = inputs_fetched(source)
    newer = newer_than_seen(source, packages)
    notes.extend(newer_note(n, fetched) for n in newer)
    return {"kb_inputs": fetched, "newer_than_kb": newer}
