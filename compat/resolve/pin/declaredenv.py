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
from compat.resolve.check.declared import facts_from_declarations
from compat.resolve.pin.pinresult import Declarations


def environment_from_requirements(
    paths: Sequence[Path], kb: KnowledgeBase, client: Any | None, target: Any = None
) -> tuple[Environment, Declarations]:
    """What requirement/lock files declare, as the environment pin starts from: pinned versions
    as they are (the user's intent, kept), a ranged requirement at the newest version it allows
    (from the index, or offline from the versions the knowledge base names) as an assumption
    that the resolver's pick replaces when the proof runs."""
    from compat.facts.declared.detect import read_declared
    from compat.resolve.target import TargetOptions, target_markers

    declared = read_declared(paths)
    # `target` (a TargetOptions): check --fix plans for the Python and platform check judged.
    markers, python_version = target_markers(
        TargetOptions(target.python_version, target.platform) if target else TargetOptions()
    )
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
    from compat.resolve.check.declared import torch_rocm_index, xformers_rocm_index

    routed = [i for i in declared.indexes if not i.packages or "torch" in i.packages]
    xformers, settled = xformers_rocm_index(declared.indexes, markers)
    return env, Declarations(pinned, lines, torch_rocm_index(routed), xformers if settled else None)


def declared_facts(
    declared: Sequence[Any],
    markers: Mapping[str, str],
    kb: KnowledgeBase,
    client: Any | None,
    python_version: Version,
    notes: list[str],
) -> dict[NormalizedName, PackageFact]:
    """`pin`'s view of requirement files (its starting environment): the declarations for this
    target through compat.resolve.check.declared's one translation, a ranged package standing for
    every released version its range allows (IndexRanges); exact pins first, then ranges."""
    by_name: dict[NormalizedName, list[Any]] = {}
    for item in declared:
        if item.marker is not None and not item.marker.evaluate({**markers, "extra": ""}):
            continue  # not for this target
        by_name.setdefault(item.name, []).append(item)

    def direct(_: Any, items: Sequence[Any]) -> None:
        notes.append(
            f"{items[0].origin}: {items[0].display_name} is a direct reference: its version is not checked"
        )

    facts = facts_from_declarations(
        by_name, IndexRanges(kb, client, python_version, markers), notes, direct=direct
    )
    exact = {name: fact for name, fact in facts.items() if fact.candidates_from is None}
    return {**exact, **{name: f for name, f in facts.items() if name not in exact}}


class IndexRanges:
    """pin: a range stands for every version of it released on the index (not yanked, no
    pre-release, for the target's Python), or offline every version the knowledge base names."""

    def __init__(
        self,
        kb: KnowledgeBase,
        client: Any | None,
        python_version: Version,
        markers: Mapping[str, str] | None = None,
    ) -> None:
        self.kb = kb
        self.client = client
        self.python_version = python_version
        self.markers = markers  # the target: a release with no file for it is not what pip picks

    def allowed(
        self, ranged: Mapping[NormalizedName, tuple[SpecifierSet, Any]], notes: list[str]
    ) -> dict[NormalizedName, tuple[tuple[Version, ...], str]]:
        out: dict[NormalizedName, tuple[tuple[Version, ...], str]] = {}
        if not ranged:
            return out
        from compat.resolve.pin.candidates import offline_releases

        candidates: dict[NormalizedName, list[Any]] = {}
        if self.client is not None:
            candidates = self.client.candidates_many(sorted(ranged))
        for name, (spec, first) in ranged.items():
            versions = _released(candidates.get(name, []), self.python_version)
            source = "index"
            if self.client is None:
                versions, listed = offline_releases(self.kb, name, None, self.python_version)
                source = "snapshot" if listed else "knowledge-base"
            if self.markers is not None:
                from compat.kb import wheels

                versions = sorted(wheels.installable(name, set(versions), self.markers))
            allowed = tuple(v for v in versions if spec.contains(v))
            if not allowed:
                if self.client is not None:
                    notes.append(
                        f"{first.origin}: no released version of {first.display_name} satisfies {spec or 'any'}"
                    )
                continue
            out[name] = (allowed, source)
        return out


def _released(candidates: Sequence[Any], python_version: Version) -> list[Version]:
    from compat.resolve.sources.index import allows_python

    return sorted(
        {
            c.version
            for c in candidates
            if c.yanked is None and not c.version.is_prerelease and allows_python(c, python_version)
        }
    )
