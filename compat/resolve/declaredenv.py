"""The environment `compat pin -r FILE` starts from: what requirement/lock files declare, a pinned
version as it is (the user's intent, kept), a ranged requirement at the newest version it allows
(an assumption the resolver's pick replaces when the proof runs)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.kb.knowledge import KnowledgeBase
from compat.model import Environment, Package, PackageFact
from compat.resolve.declared import LOCK_KINDS
from compat.resolve.pinresult import Declarations
from compat.resolve.solver import offline_versions


def environment_from_requirements(
    paths: Sequence[Path], kb: KnowledgeBase, client: Any | None
) -> tuple[Environment, Declarations]:
    """What requirement/lock files declare, as the environment pin starts from: pinned versions
    as they are (the user's intent, kept), a ranged requirement at the newest version it allows
    (from the index, or offline from the versions the knowledge base names) as an assumption
    that the resolver's pick replaces when the proof runs."""
    from compat.facts.declared.detect import read_declared
    from compat.resolve.target import TargetOptions, target_markers

    declared = read_declared(paths)
    markers, python_version = target_markers(TargetOptions())
    facts = declared_facts(declared.requirements, markers, kb, client, python_version, [])
    packages = {
        name: Package(name, max(fact.versions), fact.display_name, fact.origin)
        for name, fact in facts.items()
    }
    pinned = frozenset(
        item.name
        for item in declared.requirements
        if item.pinned is not None and item.kind != "constraint"
    )
    lines = tuple(
        (item.name, item.raw, str(item.origin))
        for item in declared.requirements
        if item.kind != "constraint"
    )
    env = Environment(
        source="files " + ", ".join(declared.files),
        packages=packages,
        python_version=python_version,
        markers=markers,
        paths=tuple(declared.files),
    )
    return env, Declarations(pinned, lines)


def declared_facts(
    declared: Sequence[Any],
    markers: Mapping[str, str],
    kb: KnowledgeBase,
    client: Any | None,
    python_version: Version,
    notes: list[str],
) -> dict[NormalizedName, PackageFact]:
    """`pin`'s view of requirement files (its starting environment): a ranged package is every
    released version its range allows. check itself uses compat.resolve.declared."""
    by_name: dict[NormalizedName, list[Any]] = {}
    for item in declared:
        if item.marker is not None and not item.marker.evaluate({**markers, "extra": ""}):
            continue  # not for this target
        by_name.setdefault(item.name, []).append(item)
    facts: dict[NormalizedName, PackageFact] = {}
    ranged: dict[NormalizedName, SpecifierSet] = {}
    for name, items in by_name.items():
        exact = [i for i in items if i.pinned is not None]
        locked = [i for i in exact if i.kind in LOCK_KINDS]
        chosen = (locked or exact or [None])[0]
        if chosen is not None:
            facts[name] = PackageFact(
                name, (chosen.pinned,), chosen.display_name, chosen.origin, requirement=chosen.raw
            )
            continue
        if any(item.url for item in items):
            notes.append(
                f"{items[0].origin}: {items[0].display_name} is a direct reference: its version is not checked"
            )
            continue
        spec = SpecifierSet()
        for item in items:
            spec &= item.specifier
        ranged[name] = spec
    if ranged:
        candidates: dict[NormalizedName, list[Any]] = {}
        if client is not None:
            candidates = client.candidates_many(sorted(ranged))
        for name, spec in ranged.items():
            first = (
                next(i for i in by_name[name] if i.kind != "constraint")
                if any(i.kind != "constraint" for i in by_name[name])
                else by_name[name][0]
            )
            versions = _released(candidates.get(name, []), python_version)
            source = "index"
            if client is None:
                versions = offline_versions(kb, name, None)
                source = "knowledge-base"
            allowed = tuple(v for v in versions if spec.contains(v))
            if not allowed:
                if client is not None:
                    notes.append(
                        f"{first.origin}: no released version of {first.display_name} satisfies {spec or 'any'}"
                    )
                continue
            facts[name] = PackageFact(
                name,
                allowed,
                first.display_name,
                first.origin,
                requirement=first.raw,
                candidates_from=source,
            )
    return facts


def _released(candidates: Sequence[Any], python_version: Version) -> list[Version]:
    from compat.resolve.index import allows_python

    return sorted(
        {
            c.version
            for c in candidates
            if c.yanked is None and not c.version.is_prerelease and allows_python(c, python_version)
        }
    )
