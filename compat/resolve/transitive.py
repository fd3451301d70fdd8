"""Packages a rule speaks of that arrive only through another requirement, judged offline.

ms-swift's requirements name no torch: torch comes through accelerate's (and peft's)
Requires-Dist. When no resolver judges the set (offline, the resolver failed or ran out of
time), compat walks the requirements metadata it can read without a resolve:

1. the installed environment compat runs in, for a distribution whose installed version is one
   the declaration allows (the metadata of exactly that release);
2. compat's index cache (or, when the index is reachable, the index itself): the metadata of the
   pinned release, or of the newest cached release a range allows — the one a resolve would
   most likely pick, stated as such;
3. requirements recorded with their sources in compat/data/recorded-requires.json, which every
   release of a package since a given one declares (every accelerate release requires torch),
   where the declaration allows such a release.

Every package a rule speaks of that turns up (torch above all) becomes a ranged fact: the
intersection of what its dependents require, judged like an unpinned line over every release
it allows (a range note, or a finding where every allowed release is hit), at the line of the
declared package that pulls it in, with a note saying what was inferred and from where. What
cannot be read is one note, never a silent skip. The walk reads every declared package and,
below them, only packages a rule speaks of (the carriers of torch: accelerate, peft, trl, ...),
at most MAX_READS metadata files (a count of work: the same input gives the same output); it
says when it stops there.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from packaging.markers import InvalidMarker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.errors import CompatError
from compat.model import Origin, PackageFact

if TYPE_CHECKING:
    from compat.facts.declared.entries import Declared
    from compat.kb.knowledge import KnowledgeBase
    from compat.resolve.index import IndexClient
    from compat.resolve.indexconfig import IndexOptions

MAX_READS = 2000
INSTALLED = "installed metadata"
CACHE = "compat's index cache"
INDEX = "the package index"

# (name, allowed versions) -> (version read, Requires-Dist lines, where from) or None
MetadataSource = Callable[
    [NormalizedName, SpecifierSet], "tuple[Version, tuple[str, ...], str] | None"
]


@dataclass
class _Need:
    """What the walk found about a package nobody declared."""

    spec: SpecifierSet = field(default_factory=SpecifierSet)
    via: list[str] = field(default_factory=list)  # "accelerate 1.2.0 (`torch>=2.0.0`)"
    origin: Origin | None = None  # the declared line that pulls it in


def walk(
    declared: Mapping[NormalizedName, tuple[SpecifierSet, tuple[str, ...], Origin | None]],
    wanted: Callable[[NormalizedName], bool],
    markers: Mapping[str, str],
    read: MetadataSource,
) -> tuple[dict[NormalizedName, _Need], list[NormalizedName], bool]:
    """Breadth-first over Requires-Dist from the declared packages (spec, extras, origin).

    Returns what the packages `wanted` accepts need, the declared packages whose metadata could
    not be read, and whether the walk stopped at MAX_READS."""
    needs: dict[NormalizedName, _Need] = {}
    unread: list[NormalizedName] = []
    queue: deque[tuple[NormalizedName, SpecifierSet, tuple[str, ...], Origin | None, bool]] = deque(
        (name, spec, extras, origin, True) for name, (spec, extras, origin) in declared.items()
    )
    seen: set[NormalizedName] = set()
    reads = 0
    while queue:
        name, spec, extras, origin, top = queue.popleft()
        if name in seen:
            continue
        seen.add(name)
        if reads >= MAX_READS:
            return needs, unread, True
        reads += 1
        found = read(name, spec)
        if found is None:
            if top:
                unread.append(name)
            continue
        version, lines, source = found
        for line in lines:
            requirement = _parse(line)
            if requirement is None or not _applies(requirement, extras, markers):
                continue
            child = canonicalize_name(requirement.name)
            if child in declared:
                continue  # declared: judged at its own line
            if wanted(child):
                need = needs.setdefault(child, _Need(origin=origin))
                need.spec &= requirement.specifier
                who = name if source.startswith(RECORDED) else f"{name} {version}"
                label = f"{who} (`{str(requirement).split(';')[0].strip()}`, {source})"
                if label not in need.via:
                    need.via.append(label)
                # Only through packages rules speak of (transformers, accelerate, trl, ...): they
                # are what carries torch into a training stack, and the walk stays small.
                queue.append(
                    (child, requirement.specifier, tuple(sorted(requirement.extras)), origin, False)
                )
    return needs, unread, False


def _parse(line: str) -> Requirement | None:
    try:
        return Requirement(line)
    except (InvalidRequirement, InvalidMarker):
        return None  # pip skips an unparsable line too


def _applies(requirement: Requirement, extras: Sequence[str], markers: Mapping[str, str]) -> bool:
    if requirement.marker is None:
        return True
    try:
        return any(
            requirement.marker.evaluate({**markers, "extra": extra}) for extra in ("", *extras)
        )
    except Exception:  # packaging's UndefinedComparison and kin: a marker nobody can decide
        return False


def facts(
    needs: Mapping[NormalizedName, _Need], versions: Callable[[NormalizedName], list[Version]]
) -> tuple[dict[NormalizedName, PackageFact], list[str]]:
    """Ranged facts for what the walk found, judged over every release their range allows."""
    from compat.resolve.declared import open_range

    out: dict[NormalizedName, PackageFact] = {}
    notes: list[str] = []
    for name in sorted(needs):
        need = needs[name]
        bounds = [_bound(s.version) for s in need.spec if s.operator in (">=", "<=", "~=", "==")]
        candidates = open_range([*versions(name), *(b for b in bounds if b is not None)])
        allowed = tuple(v for v in candidates if need.spec.contains(v))
        if not allowed:
            continue
        out[name] = PackageFact(
            name, allowed, str(name), need.origin, requirement=f"{name}{need.spec}",
            candidates_from="knowledge-base",
        )  # fmt: skip
        via = "; ".join(need.via[:3]) + (" and more" if len(need.via) > 3 else "")
        notes.append(
            f"{need.origin or 'a declared line'}: pulls in {name}, which these files do not "
            f"name: required by {via}; judged as `{name}{need.spec}` over every release "
            "that allows"
        )
    return out, notes


def _bound(text: str) -> Version | None:
    try:
        return Version(text.rstrip(".*"))
    except ValueError:
        return None


class MetadataReader:
    """Requires-Dist for (name, allowed versions): installed metadata first, then the index
    client (offline: its cache only)."""

    def __init__(
        self,
        installed: Mapping[NormalizedName, tuple[Version, tuple[str, ...]]],
        client: IndexClient | None,
    ) -> None:
        self.installed = installed
        self.client = client

    def __call__(
        self, name: NormalizedName, spec: SpecifierSet
    ) -> tuple[Version, tuple[str, ...], str] | None:
        here = self.installed.get(name)
        if here is not None and spec.contains(here[0], prereleases=True):
            return here[0], here[1], f"{INSTALLED} of {name} {here[0]}"
        found = self._from_index(name, spec) if self.client is not None else None
        return found or recorded(name, spec)

    def _from_index(
        self, name: NormalizedName, spec: SpecifierSet
    ) -> tuple[Version, tuple[str, ...], str] | None:
        client = self.client
        assert client is not None
        source = CACHE if client.offline else INDEX
        try:
            candidates = [
                c
                for c in client.candidates(name)
                if c.yanked is None and spec.contains(c.version) and c.is_wheel
            ]
        except CompatError:
            return None
        for candidate in sorted(candidates, key=lambda c: c.version, reverse=True):
            try:
                return candidate.version, client.requires_dist(candidate), source
            except CompatError:
                continue  # not cached (offline) or unreadable: an older release may be
        return None


def infer(
    declared: Sequence[Declared],
    packages: Mapping[NormalizedName, PackageFact],
    kb: KnowledgeBase,
    markers: Mapping[str, str],
    index_options: IndexOptions,
    use_index: bool,
    unread_out: list[str],
) -> tuple[dict[NormalizedName, PackageFact], list[str]]:
    """Facts and notes for the packages rules speak of that the declared ones pull in (see the
    module's docstring). The index is asked only with `use_index`; else its cache alone. The
    declared packages whose metadata could not be read go to `unread_out` (see unread_note)."""
    from compat.facts.installed import read_running
    from compat.files.cachedir import user_cache_dir
    from compat.resolve.solver import offline_versions

    roots = _roots(declared, packages)
    installed = {n: (p.version, p.requires) for n, p in read_running().packages.items()}
    known: dict[NormalizedName, list[Version]] = {}

    def versions(name: NormalizedName) -> list[Version]:
        if name not in known:
            known[name] = offline_versions(kb, name, None)
        return known[name]

    offline = index_options.offline or not use_index
    if offline and not (user_cache_dir() / "http").is_dir():
        client = None  # nothing was ever cached: no page to look up
    else:
        from compat.resolve.index import IndexClient
        from compat.resolve.indexconfig import resolve_index_config

        config = resolve_index_config(
            index_url=index_options.index_url,
            extra_index_urls=tuple(index_options.extra_index_urls),
        )
        client = IndexClient(config, offline=offline, timeout=index_options.timeout)
    try:
        needs, unread, stopped = walk(
            roots,
            lambda name: name not in packages and bool(versions(name)),
            markers,
            MetadataReader(installed, client),
        )
    finally:
        if client is not None:
            client.close()
    found, notes = facts(needs, versions)
    unread_out += [name for name in unread if name not in unread_out]
    if stopped:
        notes.append(
            f"the requirements metadata walk stopped after {MAX_READS} distributions (its "
            "limit): packages further down are unjudged"
        )
    return found, notes


def _roots(
    declared: Sequence[Declared], packages: Mapping[NormalizedName, PackageFact]
) -> dict[NormalizedName, tuple[SpecifierSet, tuple[str, ...], Origin | None]]:
    """Each declared package once: the version (or range) it is judged at, the extras asked
    for, and its first line."""
    roots: dict[NormalizedName, tuple[SpecifierSet, tuple[str, ...], Origin | None]] = {}
    for item in declared:
        if item.url or item.kind == "constraint":
            continue
        fact = packages.get(item.name)
        if fact is not None and fact.exact:
            spec = SpecifierSet(f"=={fact.versions[0]}")
        else:
            spec = item.specifier
        old = roots.get(item.name)
        if old is None:
            roots[item.name] = (spec, item.extras, item.origin)
        else:
            extras = tuple(sorted({*old[1], *item.extras}))
            roots[item.name] = (
                old[0] if fact is not None and fact.exact else old[0] & spec,
                extras,
                old[2],
            )
    return roots


def unread_note(names: Sequence[str]) -> str:
    """One note for every declared package whose requirements no source could tell."""
    listed = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    return (
        f"what {listed} require could not be read (neither the installed environment nor "
        f"{CACHE} holds their metadata): packages that arrive only through "
        f"{'it' if len(names) == 1 else 'them'} (torch, for one) are unjudged; run online to "
        "have the resolver judge them"
    )


RECORDED = "recorded metadata"


def recorded(
    name: NormalizedName, spec: SpecifierSet
) -> tuple[Version, tuple[str, ...], str] | None:
    """What compat/data/recorded-requires.json says every release since `since` requires, when
    the declaration allows such a release."""
    entry = _recorded().get(name)
    if entry is None:
        return None
    since = Version(str(entry["since"]))
    top = Version(f"{since.major + 1000}")  # stands for every later release
    if not (spec.contains(top) or any(v >= since for v in _bounds_in(spec) if spec.contains(v))):
        return None  # the declaration allows only releases before the recorded ones
    lines = tuple(str(line) for line in entry["requires"])
    return since, lines, f"{RECORDED}: every {name} release since {since}"


def _bounds_in(spec: SpecifierSet) -> list[Version]:
    return [b for b in (_bound(s.version) for s in spec) if b is not None]


@cache
def _recorded() -> Mapping[str, Any]:
    text = resources.files("compat").joinpath("data/recorded-requires.json").read_text("utf-8")
    packages: Mapping[str, Any] = json.loads(text)["packages"]
    return packages
