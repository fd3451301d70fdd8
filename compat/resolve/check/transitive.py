"""Packages a rule speaks of that arrive only through another requirement, judged offline.

ms-swift's requirements name no torch: torch comes through accelerate's (and peft's)
Requires-Dist. When no resolver judges the set (offline, the resolver failed or ran out of
time), compat infers them from requirements metadata it reads without a resolve:

1. compat's dependency snapshot (compat/data/requires-snapshot.json, dated, shipped with the
   knowledge base): every final release of the packages rules speak of and of the frameworks
   that pin them, with what each requires. Never compat's index cache: a cache may make a check
   faster, never give it another answer;
2. for a declared package the snapshot does not cover: the installed environment compat runs in
   (the metadata of exactly the release declared) or, online, the index;
3. requirements recorded with their sources in compat/data/recorded-requires.json, which every
   release of a package since a given one declares (every accelerate release requires torch),
   for a package (or a release: DeepSpeed ships sdists) whose requirements nothing else tells.

The walk keeps, for every package, the set of releases that some install the constraints allow
can hold, and reads each release's own requirements: a package a rule speaks of is inferred
only where every allowed release of a package that is surely installed requires it, over the
union of what those releases allow, and a release is dropped where what it requires cannot be
met (vllm 0.6.3 pins torch 2.4.0, which pins triton 3.0.0: never a range from one release beside
a pin from another). Repeated to a fixed point, every set only shrinks, and no install the
constraints allow is ever left out: a rule is `affected` only where every such install is hit,
else a range note. Each inferred package becomes a ranged fact at the line of the declared
package that pulls it in, with a note saying what was inferred and from where. A release after
the snapshot (what a range open above allows) is taken to require what the newest recorded one
requires, at any version. What cannot be read is one note, never a silent skip. At most
MAX_READS packages are walked (a count of work: the same input gives the same output); it says
when it stops there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    from compat.resolve.sources.index import IndexClient
    from compat.resolve.sources.indexconfig import IndexOptions

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
    via: list[str] = field(default_factory=list)  # "accelerate 1.2.0 (`torch>=2.0.0`, ...)"
    origin: Origin | None = None  # the declared line that pulls it in
    versions: tuple[Version, ...] | None = None  # the releases an allowed install can hold


@dataclass
class _Node:
    """A package the walk holds: the releases still allowed and what each requires."""

    releases: list[Version]
    lines: dict[Version, tuple[Requirement, ...] | None]  # None: its requirements are unknown
    source: Callable[[Version], str]
    origin: Origin | None
    declared: bool
    universe: list[Version] = field(default_factory=list)
    later: Version | None = None  # stands for a release after the snapshot


def walk(
    declared: Mapping[NormalizedName, tuple[SpecifierSet, tuple[str, ...], Origin | None]],
    wanted: Callable[[NormalizedName], bool],
    markers: Mapping[str, str],
    read: MetadataSource,
    versions: Callable[[NormalizedName], list[Version]] | None = None,
) -> tuple[dict[NormalizedName, _Need], list[NormalizedName], bool]:
    """Releases per package to a fixed point (see the module's docstring), from the declared
    packages (spec, extras, origin).

    Returns what the packages `wanted` accepts need, the declared packages whose metadata could
    not be read, and whether the walk stopped at MAX_READS."""
    nodes: dict[NormalizedName, _Node] = {}
    unread: list[NormalizedName] = []
    for name, (spec, extras, origin) in declared.items():
        node = _snapshot_node(name, spec, extras, markers, origin, declared=True)
        if node is None:
            found = read(name, spec)
            if found is None:
                unread.append(name)
                continue
            version, texts, where = found
            requirements = tuple(r for r in map(_parse, texts) if r is not None)
            applying = tuple(r for r in requirements if _applies(r, extras, markers))
            label = name if where.startswith(RECORDED) else f"{name} {version}"
            node = _Node([version], {version: applying}, _said(f"{label}|{where}"), origin, True)
        nodes[name] = node
    stopped = False
    via: dict[NormalizedName, list[str]] = {}
    met: dict[tuple[int, int], tuple[SpecifierSet, list[Version], bool]] = {}  # _met's answers
    allows: dict[int, tuple[SpecifierSet, dict[Version, bool]]] = {}  # _allowed's answers
    required: _RequiredMemo = {}  # _required's answers
    if len(_ALLOWS) > _ALLOWS_KEPT:
        _ALLOWS.clear()
    for _ in range(MAX_ROUNDS):
        changed = False
        # Forward: what every surely installed package requires of the packages rules speak of.
        requiring: dict[NormalizedName, list[tuple[NormalizedName, dict[Version, SpecifierSet]]]]
        requiring = {}
        for parent in list(nodes):
            for child, specs in _required(nodes[parent], required).items():
                if child not in declared and wanted(child):
                    requiring.setdefault(child, []).append((parent, specs))
        allowed: dict[NormalizedName, list[tuple[NormalizedName, set[Version], str]]] = {}
        for child, parents in requiring.items():
            every = [spec for _, specs in parents for spec in specs.values()]
            universe, _ = _universe(child, every, versions)
            allowed[child] = [
                (
                    parent,
                    _allowed(universe, specs.values(), allows),
                    _label(parent, nodes[parent], child, specs),
                )
                for parent, specs in parents
            ]
        for child in sorted(allowed):
            if child not in nodes:
                every = [spec for _, specs in requiring[child] for spec in specs.values()]
                universe, later = _universe(child, every, versions)
                if len(nodes) >= MAX_READS:
                    stopped = True
                    continue
                first = allowed[child][0][0]
                node = _child_node(child, markers, nodes[first].origin, universe, later)
                nodes[child] = node
                changed = True
            node = nodes[child]
            keep = [
                v for v in node.releases
                if all(v in bucket for _, bucket, _ in allowed[child])
            ]  # fmt: skip
            if keep and keep != node.releases:
                node.releases = keep
                changed = True
            via[child] = [label for _, _, label in allowed[child]]
        # Backward: a release whose requirements no allowed release of a held package meets.
        for node in nodes.values():
            keep = [v for v in node.releases if _met(node.lines.get(v), nodes, met, allows)]
            if keep and keep != node.releases:
                node.releases = keep
                changed = True
        if not changed:
            break
    needs: dict[NormalizedName, _Need] = {}
    for name, node in nodes.items():
        if node.declared:
            continue
        labels = list(dict.fromkeys(via.get(name, [])))
        needs[name] = _Need(
            spec=_summary(node.releases, node.universe),
            via=labels,
            origin=node.origin,
            versions=tuple(node.releases),
        )
    return needs, unread, stopped


MAX_ROUNDS = 50


def _snapshot_node(
    name: NormalizedName,
    spec: SpecifierSet,
    extras: Sequence[str],
    markers: Mapping[str, str],
    origin: Origin | None,
    *,
    declared: bool,
) -> _Node | None:
    known = _snapshot_lines(name, tuple(extras), tuple(sorted(markers.items())))
    if known is None:
        return None
    universe, later, lines, source = known
    releases = [v for v in [*universe, later] if spec.contains(v, prereleases=True)]
    if not releases:
        return None
    return _Node(releases, lines, source, origin, declared, [*universe, later], later)


# _snapshot_lines' answers over every walk of one process (issue 45: unsloth's 24 walks read
# the same packages' releases again, each line list filtered per release). Cleared past
# _LINES_KEPT packages.
_LINES: dict[tuple[Any, ...], Any] = {}
_LINES_KEPT = 20_000


def _snapshot_lines(
    name: NormalizedName, extras: tuple[str, ...], markers: tuple[tuple[str, str], ...]
) -> (
    tuple[
        list[Version],
        Version,
        dict[Version, tuple[Requirement, ...] | None],
        Callable[[Version], str],
    ]
    | None
):
    """A package's releases in the snapshot, the release after them, what each requires on
    the target (read-only: the walks share them) and where each one's requirements come from;
    None where the snapshot does not cover it."""
    key = (name, extras, markers)
    if key in _LINES:
        found: Any = _LINES[key]
        return found  # type: ignore[no-any-return]
    if len(_LINES) >= _LINES_KEPT:
        _LINES.clear()
    from compat.resolve.sources import snapshot

    recorded_lines = snapshot.releases(name)
    if not recorded_lines:
        _LINES[key] = None
        return None
    universe = list(recorded_lines)
    later = _later(universe[-1])
    lines: dict[Version, tuple[Requirement, ...] | None] = {}
    target = dict(markers)
    for version, texts in recorded_lines.items():
        lines[version] = (
            _filtered(tuple(texts), extras, markers)
            if texts is not None
            else _recorded_lines(name, version, extras, target)
        )
    # A release the snapshot cannot tell (sdists only) and nothing recorded covers, and one after
    # the snapshot: taken to require what the nearest known release does, at any version.
    known = [v for v in universe if lines[v] is not None]
    for version in [*universe, later]:
        if lines.get(version) is None and known:
            nearest = next((v for v in known if v > version), known[-1])
            told = lines[nearest]
            assert told is not None
            lines[version] = tuple(Requirement(_unbounded(r)) for r in told)
    when = snapshot.fetched()

    def source(version: Version) -> str:
        if version == later:
            return f"{name}|{snapshot.SOURCE} of {when}"
        entry = _recorded().get(name)
        if recorded_lines.get(version) is None and entry is not None:
            return f"{name}|{RECORDED}: every {name} release since {entry['since']}"
        return f"{name}|{snapshot.SOURCE} of {when}"

    _LINES[key] = (universe, later, lines, source)
    return universe, later, lines, source


def _child_node(
    name: NormalizedName,
    markers: Mapping[str, str],
    origin: Origin | None,
    universe: list[Version],
    later: Version | None,
) -> _Node:
    node = _snapshot_node(name, SpecifierSet(), (), markers, origin, declared=False)
    if node is not None:
        return node
    return _Node(list(universe), {}, _said(f"{name}|"), origin, False, list(universe), later)


def _said(text: str) -> Callable[[Version], str]:
    return lambda _version: text


def _universe(
    name: NormalizedName,
    specs: Sequence[SpecifierSet],
    versions: Callable[[NormalizedName], list[Version]] | None,
) -> tuple[list[Version], Version | None]:
    from compat.resolve.check.declared import open_range
    from compat.resolve.sources import snapshot

    known = list(snapshot.releases(name))
    if known:
        later = _later(known[-1])
        return [*known, later], later
    bounds = [b for spec in specs for b in _bounds_in(spec)]
    return open_range([*(versions(name) if versions else []), *bounds]), None


def _later(newest: Version) -> Version:
    top = newest.release
    return Version(f"{top[0]}.{(top[1] if len(top) > 1 else 0) + 1}.0")


def _unbounded(requirement: Requirement) -> str:
    extras = f"[{','.join(sorted(requirement.extras))}]" if requirement.extras else ""
    marker = f"; {requirement.marker}" if requirement.marker is not None else ""
    return f"{requirement.name}{extras}{marker}"


def _filter(
    texts: Sequence[str], extras: Sequence[str], markers: Mapping[str, str]
) -> tuple[Requirement, ...]:
    # Releases share their requirement lists (the snapshot stores each distinct list once), and
    # the walk asks again for every install: evaluated once per list, extras and target.
    return _filtered(tuple(texts), tuple(extras), tuple(sorted(markers.items())))


@cache
def _filtered(
    texts: tuple[str, ...], extras: tuple[str, ...], markers: tuple[tuple[str, str], ...]
) -> tuple[Requirement, ...]:
    return tuple(_parse(t) for t in texts if _line_applies(t, _asked(t, extras), markers))  # type: ignore[misc]


def _asked(line: str, extras: tuple[str, ...]) -> tuple[str, ...]:
    """The extras a line's marker is evaluated with: none where it cannot name `extra` (each
    evaluation then gives the one answer), so that _line_applies decides the line once for every
    extras asked (unsloth's ~180 extras each asked again of every release's lines; issue 45)."""
    return extras if "extra" in line else ()


@cache
def _line_applies(line: str, extras: tuple[str, ...], markers: tuple[tuple[str, str], ...]) -> bool:
    """Whether one requirement line applies on the target, decided once per line, extras and
    target: release lists that differ share most of their lines, and evaluating markers was
    the offline solve's costliest step (issue 45: 1.4 million evaluations for unsloth's extras,
    over a third of its time)."""
    requirement = _parse(line)
    return requirement is not None and _applies(requirement, extras, dict(markers))


def _recorded_lines(
    name: NormalizedName, version: Version, extras: Sequence[str], markers: Mapping[str, str]
) -> tuple[Requirement, ...] | None:
    """A release the snapshot cannot tell (sdists only): what recorded-requires.json says every
    release since a given one requires, when this one is such a release."""
    entry = _recorded().get(name)
    if entry is None or version < Version(str(entry["since"])):
        return None
    return _filter([str(line) for line in entry["requires"]], extras, markers)


_Required = dict[NormalizedName, dict[Version, SpecifierSet]]
_RequiredMemo = dict[tuple[int, int], tuple[list[Version], Any, _Required]]


def _required(node: _Node, memo: _RequiredMemo) -> _Required:
    """The packages every allowed release of `node` requires, with each release's specifier.
    `memo`: the answer per (release list, lines) object pair, both kept in it so that their
    ids stay theirs (the walk replaces a node's list when its releases change, never edits it;
    the lines never change): asked of every node each round, the same specifier objects each
    time (_allowed's and _met's memos are keyed by them)."""
    key = (id(node.releases), id(node.lines))
    found = memo.get(key)
    if found is None:
        found = memo[key] = (node.releases, node.lines, _requirements_of(node))
    return found[2]


def _requirements_of(node: _Node) -> _Required:
    out: _Required = {}
    first = True
    for version in node.releases:
        lines = node.lines.get(version)
        if lines is None:
            return {}  # a release whose requirements are unknown: nothing is sure
        here: dict[NormalizedName, SpecifierSet] = {}
        for requirement in lines:
            child = _canonical(requirement.name)
            # One line for the child (the usual case): its own specifier object, which every
            # release sharing the line shares (_parse), so _allowed asks it once.
            had = here.get(child)
            here[child] = requirement.specifier if had is None else had & requirement.specifier
        if first:
            out = {child: {version: spec} for child, spec in here.items()}
            first = False
        else:
            out = {c: {**specs, version: here[c]} for c, specs in out.items() if c in here}
    return out


# _allowed's answers over every walk of one process, by the specifier's text (issue 45): a check
# walks once per install not solved (unsloth's 24 walk much the same packages, 4.8 million
# `contains` between them), and the walks' specifier objects are partly new each walk
# (_required's `&`), while their texts repeat. Cleared past _ALLOWS_KEPT texts.
_ALLOWS: dict[str, dict[Version, bool]] = {}
_ALLOWS_KEPT = 100_000


def _allowed(
    universe: Sequence[Version],
    specs: Iterable[SpecifierSet],
    memo: dict[int, tuple[SpecifierSet, dict[Version, bool]]],
) -> set[Version]:
    """The releases of `universe` one of `specs` allows. Releases of a parent share their
    specifier objects (_required), and the walk asks again every round: each distinct object
    is asked about a release once (issue 45), and its text once per process (_ALLOWS). `memo`:
    by the object's id, the object kept in it so that the id stays its."""
    answers = [(spec, _answers(spec, memo)) for spec in {id(s): s for s in specs}.values()]
    out = set()
    for version in universe:
        for spec, known in answers:
            allows = known.get(version)
            if allows is None:
                allows = known[version] = spec.contains(version, prereleases=True)
            if allows:
                out.add(version)
                break
    return out


def _answers(
    spec: SpecifierSet, memo: dict[int, tuple[SpecifierSet, dict[Version, bool]]]
) -> dict[Version, bool]:
    """Whether `spec` allows a release, per release as found so far (see _allowed)."""
    found = memo.get(id(spec))
    if found is None or found[0] is not spec:
        text = str(spec)  # `===` compares the version's text: its answers are this walk's
        known: dict[Version, bool] = {} if "===" in text else _ALLOWS.setdefault(text, {})
        found = memo[id(spec)] = (spec, known)
    return found[1]


@cache
def _canonical(name: str) -> NormalizedName:
    return canonicalize_name(name)


def _met(
    lines: tuple[Requirement, ...] | None,
    nodes: Mapping[NormalizedName, _Node],
    memo: dict[tuple[int, int], tuple[SpecifierSet, list[Version], bool]],
    allows: dict[int, tuple[SpecifierSet, dict[Version, bool]]],
) -> bool:
    """Whether some allowed release of each held package meets each requirement. `memo`: the
    answer per (specifier, release list) object pair, both kept in it so that their ids stay
    theirs; the walk replaces a node's list when its releases change, never edits it."""
    if lines is None:
        return True
    for requirement in lines:
        held = nodes.get(_canonical(requirement.name))
        if held is None or not held.lines:
            continue
        specifier, releases = requirement.specifier, held.releases
        key = (id(specifier), id(releases))
        found = memo.get(key)
        if found is None or found[0] is not specifier or found[1] is not releases:
            known = _answers(specifier, allows)
            found = memo[key] = (
                specifier,
                releases,
                any(_allows(known, specifier, v) for v in releases),
            )
        if not found[2]:
            return False
    return True


def _allows(known: dict[Version, bool], spec: SpecifierSet, version: Version) -> bool:
    found = known.get(version)
    if found is None:
        found = known[version] = spec.contains(version, prereleases=True)
    return found


def _label(
    parent: NormalizedName,
    node: _Node,
    child: NormalizedName,
    specs: Mapping[Version, SpecifierSet],
) -> str:
    """ "vllm 0.6.3 (`torch==2.4.0`, compat's dependency snapshot of 2026-11-27)"."""
    known = [v for v in node.releases if v != node.later] or node.releases
    who, where = node.source(known[-1]).split("|", 1)
    if not where.startswith(RECORDED):
        who = f"{parent} {known[0]}" if len(known) == 1 else f"{parent} {known[0]} to {known[-1]}"
        if len(known) > 1:
            who += f" ({len(known)} releases)"
    if node.later is not None and node.later in node.releases:
        newest = max(v for v in node.universe if v != node.later)
        where += (
            f"; a later {parent} release is taken to require what {newest} does, at any version"
        )
    said = list(dict.fromkeys(f"{child}{spec}" for v, spec in specs.items() if v != node.later))
    shown = "`, `".join(said[:3]) + ("`, …" if len(said) > 3 else "`")
    return f"{who} (`{shown}, {where})"


def _summary(releases: Sequence[Version], universe: Sequence[Version]) -> SpecifierSet:
    """A specifier naming the allowed releases in the walk's terms: `` for all of them, `==v`
    for one, else the bounds of their span (the releases themselves are judged, not this)."""
    if not releases or list(releases) == list(universe):
        return SpecifierSet()
    if len(releases) == 1:
        return SpecifierSet(f"=={releases[0]}")
    parts = []
    if universe and releases[0] != universe[0]:
        parts.append(f">={releases[0]}")
    if universe and releases[-1] != universe[-1]:
        parts.append(f"<={releases[-1]}")
    return SpecifierSet(",".join(parts))


@cache
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
    from compat.resolve.check.declared import open_range

    out: dict[NormalizedName, PackageFact] = {}
    notes: list[str] = []
    for name in sorted(needs):
        need = needs[name]
        if need.versions is not None:
            allowed = need.versions
        else:
            bounds = [
                _bound(s.version) for s in need.spec if s.operator in (">=", "<=", "~=", "==")
            ]
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
            "an install these files allow can hold"
        )
    return out, notes


def _bound(text: str) -> Version | None:
    try:
        return Version(text.rstrip(".*"))
    except ValueError:
        return None


class MetadataReader:
    """Requires-Dist for a declared package the snapshot does not cover: installed metadata
    first, then the index client (online only: never the cache)."""

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
    from compat.resolve.pin.solver import offline_versions

    roots = _roots(declared, packages)
    installed = {n: (p.version, p.requires) for n, p in read_running().packages.items()}
    known: dict[NormalizedName, list[Version]] = {}

    def versions(name: NormalizedName) -> list[Version]:
        if name not in known:
            known[name] = offline_versions(kb, name, None)
        return known[name]

    offline = index_options.offline or not use_index
    if offline:
        client = None  # never the cache: it may speed a check up, never change its answer
    else:
        from compat.resolve.sources.index import IndexClient
        from compat.resolve.sources.indexconfig import resolve_index_config

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
            versions,
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


def unread_note(names: Sequence[str], online: bool = False) -> str:
    """One note for every declared package whose requirements no source could tell (`online`:
    the run was online but its resolve did not happen: never advise running online)."""
    listed = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    return (
        f"what {listed} require could not be read (neither compat's dependency snapshot nor "
        "the installed environment holds their metadata): packages that arrive only through "
        f"{'it' if len(names) == 1 else 'them'} (torch, for one) are unjudged; "
        + (
            "make the resolve possible (note above) to have the resolver judge them"
            if online
            else "run online to have the resolver judge them"
        )
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
