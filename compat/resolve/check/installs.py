"""A project's extras are alternatives: `compat check` judges the base install and each extra.

verl's setup.py offers `vllm`, `sglang`, ... extras that a user installs one at a time
(`pip install verl[vllm]`); they pin different torch releases and cannot all install together.
Their union fails to resolve (and, offline, would be judged at whichever pin comes first), so
unless the resolver installs the union, it is not judged as one: the base (main dependencies,
dependency groups, Poetry groups — what installs together) is one install, and base + one extra
is another, as uv judges projects that declare conflicting extras. Findings are reported once,
with the install they belong to: a finding of the base holds in every extra and is labelled
`base`; one that only some extras have names them. Where the resolver installs the union, that
one resolve judges them all and a finding is labelled by the extras whose lines it names
(label_by_origin).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import NamedTuple

from compat.facts.declared.entries import Declared
from compat.model import Finding, Origin

EXTRA_GROUPS = ("project.optional-dependencies.", "extras.")  # pyproject, setup.py
BASE = "base"


class Install(NamedTuple):
    label: str  # "" when the files offer no extras; else "base" or "extra NAME"
    requirements: tuple[Declared, ...]


def extra_of(item: Declared) -> str | None:
    for prefix in EXTRA_GROUPS:
        if item.group.startswith(prefix):
            return item.group[len(prefix) :]
    return None


def installs(declared: Sequence[Declared]) -> list[Install]:
    """The base install, then base + each extra in the order the files declare them."""
    base = tuple(item for item in declared if extra_of(item) is None)
    extras: dict[str, list[Declared]] = {}
    for item in declared:
        extra = extra_of(item)
        if extra is not None:
            extras.setdefault(extra, []).append(item)
    if not extras:
        return [Install("", tuple(declared))]
    return [
        Install(BASE, base),
        *(Install(f"extra {name}", (*base, *items)) for name, items in extras.items()),
    ]


def merge_findings(per_install: Sequence[tuple[str, Sequence[Finding]]]) -> list[Finding]:
    """Each finding once, labelled with the installs it belongs to (base first: what the base
    has, every extra has too)."""
    order: list[tuple[object, ...]] = []
    found: dict[tuple[object, ...], tuple[Finding, list[str]]] = {}
    for label, findings in per_install:
        for finding in findings:
            key = _key(finding)
            if key not in found:
                order.append(key)
                found[key] = (finding, [])
            labels = found[key][1]
            if label and BASE not in labels and label not in labels:
                labels.append(label)
    merged = []
    for key in order:
        finding, labels = found[key]  # no labels: one install, labelled already or not at all
        merged.append(dataclasses.replace(finding, install=_label(labels)) if labels else finding)
    return merged


def label_by_origin(findings: Sequence[Finding], declared: Sequence[Declared]) -> list[Finding]:
    """Install labels for findings judged on the union (the extras resolved together): the
    extras whose lines a finding names, else `base`. No extras: no labels."""
    extras: dict[tuple[Origin | None, str], str | None] = {
        (item.origin, item.name): extra_of(item) for item in declared
    }
    if not any(extras.values()):
        return list(findings)
    labelled = []
    for finding in findings:
        named = [extras.get((p.origin, p.name)) for p in finding.packages]
        own = list(dict.fromkeys(e for e in named if e is not None))
        labels = [f"extra {e}" for e in own] or [BASE]
        labelled.append(dataclasses.replace(finding, install=_label(labels)))
    return labelled


def merge_notes(per_install: Sequence[tuple[str, Sequence[str]]]) -> list[str]:
    """The base's notes as they are; an extra's own notes (those the base has not) prefixed
    with the install, each once."""
    seen: set[str] = set()
    out: list[str] = []
    for label, notes in per_install:
        for note in notes:
            if note in seen:
                continue
            seen.add(note)
            out.append(note if label in ("", BASE) else f"[{label}] {note}")
    return out


def _key(finding: Finding) -> tuple[object, ...]:
    return (finding.rule.id, finding.status, finding.packages, finding.unknown)


def _label(labels: list[str]) -> str:
    if not labels or labels == [""]:
        return ""
    if BASE in labels or len(labels) == 1:
        return labels[0]
    return "extras " + ", ".join(label.removeprefix("extra ") for label in labels)
