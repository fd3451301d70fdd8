"""Declared requirements -> package and build facts for `compat check`'s target.

* A pinned (`==`) or locked package is one version, the same offline and online.
* A git direct reference at a commit is a commit fact; a moving ref (`@main`) is a package whose
  version is unknown, so its rules stay `possible`; a named wheel URL carries its version.
* A ranged package is what a fresh resolve picks (online, see compat.commands.check) or, offline, every
  version the range allows *including releases compat does not know of* — so an open range is
  never judged by the few versions the knowledge base names (`peft` is not "peft >= 0.14").
* torch's CUDA build: its local label, else the PyTorch index the files send it to, else the
  PyPI default build of that release on the target platform (compat.kb.torchbuilds).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Protocol

from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.errors import InputError
from compat.facts.declared.entries import Declared, IndexLine
from compat.kb.knowledge import KnowledgeBase
from compat.model import PackageFact
from compat.resolve.sources.installable import TargetInstalls
from compat.versions import parse_marker, parse_version

LOCK_KINDS = {"lock", "report", "freeze"}
_WHEEL_VERSION = re.compile(r"/([A-Za-z0-9_.]+)-([0-9][^-/]*)-[^/]+\.whl(?:[#?].*)?$")


def applicable(declared: Sequence[Declared], markers: Mapping[str, str]) -> list[Declared]:
    return [
        item
        for item in declared
        if item.marker is None or item.marker.evaluate({**markers, "extra": ""})
    ]


def conflicts(declared: Sequence[Declared]) -> list[str]:
    """Notes for a package named twice in one list of one file with the same line (a duplicate:
    harmless, but one of the two is stale). Lines that cannot both hold are findings, with the
    lines of included files too: compat.resolve.check.clash."""
    seen: dict[tuple[str, str, NormalizedName, str], Declared] = {}
    notes = []
    for item in declared:
        if item.kind != "requirement" or item.origin.path is None:
            continue
        key = (item.origin.path, item.group, item.name, str(item.marker or ""))
        first = seen.setdefault(key, item)
        if first is item or first.origin == item.origin:
            continue  # the same line reached twice (a setup.py table entry used in two lists)
        if (
            first.specifier == item.specifier
            and first.url == item.url
            and first.extras == item.extras
        ):
            notes.append(
                f"{item.origin}: duplicate requirement for {item.display_name}: `{item.raw}`, "
                f"and `{first.raw}` at line {first.origin.line}"
            )
    return notes


def wheel_version(url: str, name: NormalizedName) -> Version | None:
    match = _WHEEL_VERSION.search(url)
    if match is None or canonicalize_name(match.group(1)) != name:
        return None
    try:
        return parse_version(match.group(2))
    except InvalidVersion:
        return None


def open_range(known: Iterable[Version]) -> list[Version]:
    """The versions an open range is judged over offline: those compat knows, plus one below and
    one above them all, which stand for releases it does not know."""
    versions = sorted(set(known))
    if not versions:
        return []
    top = versions[-1].release
    return [Version("0"), *versions, Version(f"{top[0]}.{(top[1] if len(top) > 1 else 0) + 1}.0")]


def commit_versions(kb: KnowledgeBase, name: NormalizedName, commit: str) -> list[Version]:
    """Versions the knowledge base ties to this commit (a rule keyed on a commit window names the
    release its commits belong to)."""
    from compat.kb.questions import commit_versions as tied

    found: set[Version] = set()
    for plain in kb.plain:
        found |= tied(plain, name, commit)
    return sorted(found)


def declared_facts(
    declared: Sequence[Declared],
    kb: KnowledgeBase,
    notes: list[str],
    resolved: Mapping[NormalizedName, Version] | None = None,
    resolved_by: str = "",
    unsettled_out: list[str] | None = None,
) -> dict[NormalizedName, PackageFact]:
    """check's facts: one per package. `resolved`: what the real resolver picked for the whole
    set. `unsettled_out`: where the names of ranges offline could not settle go (for one note
    over several installs, see unsettled_note); without it, the note goes to `notes`."""
    by_name: dict[NormalizedName, list[Declared]] = {}
    for item in declared:
        by_name.setdefault(item.name, []).append(item)
    ranges = KnowledgeBaseRanges(kb)
    facts = facts_from_declarations(
        by_name,
        ranges,
        notes,
        direct=lambda reference, _: _direct_reference(reference, kb, notes),
        resolved=resolved,
        resolved_by=resolved_by,
    )
    unsettled = ranges.unsettled
    if unsettled_out is not None:
        unsettled_out += [name for name in unsettled if name not in unsettled_out]
    elif unsettled:
        notes.append(unsettled_note(unsettled))
    return facts


class CandidateVersions(Protocol):
    """Where the versions a declared range is judged over come from: the knowledge base
    (KnowledgeBaseRanges), the package index (pin's, compat.resolve.pin.declaredenv), ..."""

    def allowed(
        self, ranged: Mapping[NormalizedName, tuple[SpecifierSet, Declared]], notes: list[str]
    ) -> dict[NormalizedName, tuple[tuple[Version, ...], str]]:
        """name -> (the versions its range allows, where they came from); a name left out has
        nothing to judge."""
        ...


def facts_from_declarations(
    by_name: Mapping[NormalizedName, Sequence[Declared]],
    ranges: CandidateVersions,
    notes: list[str],
    *,
    direct: Callable[[Declared, Sequence[Declared]], PackageFact | None],
    resolved: Mapping[NormalizedName, Version] | None = None,
    resolved_by: str = "",
) -> dict[NormalizedName, PackageFact]:
    """The one translation of declarations into package facts (check and pin): a locked pin,
    else an exact pin, is its version; a direct reference is what `direct` makes of it; a
    package the resolver picked is its pick; a range is the versions `ranges` says it allows.
    Facts come in the order the packages were declared, then what the resolver pulled in."""
    facts: dict[NormalizedName, PackageFact] = {}
    ranged: dict[NormalizedName, tuple[SpecifierSet, Declared]] = {}
    for name, items in by_name.items():
        first = next((i for i in items if i.kind != "constraint"), items[0])
        exact = [i for i in items if i.pinned is not None]
        locked = [i for i in exact if i.kind in LOCK_KINDS]
        chosen = (locked or exact)[0] if (locked or exact) else None
        if chosen is not None and chosen.pinned is not None:
            facts[name] = PackageFact(
                name, (chosen.pinned,), chosen.display_name, chosen.origin, requirement=chosen.raw
            )
            continue
        reference = next((i for i in items if i.url), None)
        if reference is not None and reference.url is not None:
            fact = direct(reference, items)
            if fact is not None:
                facts[name] = fact
            continue
        if resolved is not None and name in resolved:
            facts[name] = PackageFact(
                name, (resolved[name],), first.display_name, first.origin,
                requirement=f"{first.raw} (resolved by {resolved_by})",
            )  # fmt: skip
            continue
        spec = SpecifierSet()
        for item in items:
            spec &= item.specifier
        ranged[name] = (spec, first)
    for name, (allowed, source) in ranges.allowed(ranged, notes).items():
        first = ranged[name][1]
        facts[name] = PackageFact(
            name, allowed, first.display_name, first.origin, requirement=first.raw,
            candidates_from=source,
        )  # fmt: skip
    facts = {name: facts[name] for name in by_name if name in facts}
    if resolved is not None:
        for name, version in resolved.items():
            if name not in facts:  # pulled in by the declared packages
                facts[name] = PackageFact(
                    name, (version,), requirement=f"resolved by {resolved_by}"
                )
    return facts


class KnowledgeBaseRanges:
    """check offline: a range stands for every version it allows among those the knowledge base
    names, its own inclusive bounds, and one below and one above them all (open_range); the
    names whose verdict that leaves unsettled are kept for one note."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.unsettled: list[str] = []

    def allowed(
        self, ranged: Mapping[NormalizedName, tuple[SpecifierSet, Declared]], notes: list[str]
    ) -> dict[NormalizedName, tuple[tuple[Version, ...], str]]:
        from compat.resolve.pin.solver import offline_versions

        out: dict[NormalizedName, tuple[tuple[Version, ...], str]] = {}
        for name, (spec, first) in ranged.items():
            known = offline_versions(self.kb, name, None)
            if not known:
                continue  # no rule names this package: nothing to judge
            # The range's own inclusive bounds are versions it allows too (^4.40.0: 4.40.0).
            bounds = [_version(s.version) for s in spec if s.operator in (">=", "<=", "~=", "==")]
            candidates = open_range([*known, *(b for b in bounds if b is not None)])
            allowed = tuple(v for v in candidates if spec.contains(v))
            if not allowed:
                continue  # no known version fits: nothing to judge
            self.unsettled.append(first.display_name)
            out[name] = (allowed, "knowledge-base")
        return out


def unsettled_note(names: list[str], why: str = "offline") -> str:
    """`why`: "offline", or that an online resolve did not happen (never "offline" online)."""
    return (
        f"{why}: which release a resolve installs for {_names(names)} was not settled; "
        "rules that only some allowed releases hit are range notes below, not findings"
    )


def range_text(fact: PackageFact) -> str:
    """A ranged fact's version as JSON shows it: its specifier (`>=0.14`), `*` for a bare name
    (the convention of compat.kb.conditions for package findings)."""
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        return str(Requirement((fact.requirement or "").split(";")[0].strip()).specifier) or "*"
    except InvalidRequirement:
        return "*"


def _version(text: str) -> Version | None:
    try:
        return parse_version(text.rstrip(".*"))
    except InvalidVersion:
        return None


def _names(names: list[str]) -> str:
    return ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")


GIT_SOURCE = "a git requirement: built from source"  # compat/kb/sourcebuild.py


def _direct_reference(item: Declared, kb: KnowledgeBase, notes: list[str]) -> PackageFact | None:
    from compat.resolve.pin.solver import offline_versions

    assert item.url is not None
    version = wheel_version(item.url, item.name)
    if version is not None:
        return PackageFact(
            item.name, (version,), item.display_name, item.origin, requirement=item.raw
        )
    if not item.url.startswith("git+"):
        notes.append(
            f"{item.origin}: {item.display_name} @ {item.url} is a direct reference: not checked"
        )
        return None
    commit = item.commit
    if commit is not None:
        tied = commit_versions(kb, item.name, commit)
        versions = tied or open_range(offline_versions(kb, item.name, None))
        if not tied and versions:
            notes.append(
                f"{item.origin}: {item.display_name} at git commit {commit[:10]}: the knowledge "
                "base ties no release to that commit, so its version is unknown and its rules "
                "stay `possible`"
            )
        return PackageFact(
            item.name, tuple(versions), item.display_name, item.origin, commit=commit,
            requirement=item.raw, source=GIT_SOURCE,
        )  # fmt: skip
    notes.append(
        f"{item.origin}: {item.display_name} follows a moving git ref: its version is unknown, "
        "so its rules stay `possible`; pin a commit (`@<sha>`) to settle them"
    )
    versions = open_range(offline_versions(kb, item.name, None))
    if not versions:
        return None
    return PackageFact(
        item.name, tuple(versions), item.display_name, item.origin, requirement=item.raw,
        candidates_from="moving git ref", source=GIT_SOURCE,
    )  # fmt: skip


def _source_applies(index: IndexLine, markers: Mapping[str, str]) -> bool:
    """Whether a uv source's `marker` holds for the target; a marker packaging cannot read or
    evaluate is an input error naming the file, never a crash."""
    from packaging.markers import InvalidMarker, UndefinedComparison, UndefinedEnvironmentName

    try:
        return parse_marker(index.marker).evaluate({**markers, "extra": ""})
    except (
        InvalidMarker,
        UndefinedComparison,
        UndefinedEnvironmentName,
        InvalidVersion,
        RecursionError,
    ):
        raise InputError(
            f"invalid marker {index.marker!r} on the source for {index.url}", origin=index.origin
        ) from None


def torch_cuda(
    torch: PackageFact | None,
    indexes: Sequence[IndexLine],
    platform: str,
    markers: Mapping[str, str] | None = None,
) -> tuple[Version | None, str]:
    """torch's CUDA build for the target and where that came from ("" when unknown or CPU):
    the index lines that can serve torch, each candidate release's build from them (or PyPI's
    default), and whether the candidates agree."""
    from compat.probes.cuda import cuda_from_local_label

    if torch is None:
        return None, ""
    routed = _torch_indexes(indexes, markers)
    if routed is None:
        return None, ""  # torch comes from one of several opt-in groups: which one is a choice
    if torch_rocm_index(routed) is not None and not any(v.local for v in torch.versions):
        # a PyTorch ROCm index serves torch: its +rocmX.Y build sorts above PyPI's plain one
        # (a local label is the higher version), so pip and uv install that: no CUDA build
        return None, ROCM_INDEX
    builds: set[Version | str | None] = set()  # "unknown": a release the table does not know
    why = ""
    for version in torch.versions:
        if version.local is not None:
            builds.add(cuda_from_local_label(version))
            why = "its local version label"
            continue
        build, why = _release_build(version, routed, torch.exact, platform, why)
        if build is _NO_BUILD:
            return None, ""  # CPU-only there, or a release compat does not know
        if build is not _SKIP:
            builds.add(build)  # type: ignore[arg-type]
    return _agreed_build(builds, why)


def torch_cuda_candidates(
    spec: SpecifierSet,
    indexes: Sequence[IndexLine],
    installs: TargetInstalls,
    markers: Mapping[str, str] | None = None,
) -> tuple[frozenset[Version | None], tuple[Version, ...], str]:
    """Where the release a resolve installs is not settled (a range, no resolve): every CUDA
    build (None: a CPU build) that a torch release `spec` allows and the target can install
    (`installs`) would bring, those releases, and "" — or, where that cannot be known, why: a
    release whose build compat's tables do not hold may install (one the snapshot lists without
    files, one published since), or torch comes from one of several opt-in indexes."""
    from compat.kb.torchbuilds import releases as table_releases

    routed = _torch_indexes(indexes, markers)
    if routed is None:
        return frozenset(), (), "torch comes from one of several opt-in indexes"
    possible, unlisted, unknown = installs.possible_parts(canonicalize_name("torch"), spec)
    known = set(table_releases())
    if unlisted and all(v in known for v in unlisted):
        # Whether they install is not known, but their builds are: judge them as installable
        # (a question one of their builds makes true is asked; none is dropped for them).
        possible = sorted({*possible, *unlisted})
    elif unlisted:
        unknown = installs.possible(canonicalize_name("torch"), spec)[1]
    outside = [v for v in possible if v not in known]
    if outside and not unknown:
        unknown = f"releases compat's build table does not hold ({outside[-1]})"
    if unknown:
        return frozenset(), (), unknown
    builds: set[Version | None] = set()
    releases: list[Version] = []
    for version in possible:
        build, _ = _release_build(version, routed, False, installs.platform, "")
        if build is _SKIP:
            continue  # an index torch is bound to serves no build of it: not a resolve's pick
        if build == "unknown":
            return frozenset(), (), f"torch {version}'s build is not in compat's build table"
        builds.add(build if isinstance(build, Version) else None)
        releases.append(version)
    if not releases:
        return (
            frozenset(),
            (),
            f"no torch release {spec} allows installs there, as far as compat knows",
        )
    return frozenset(builds), tuple(releases), ""


ROCM_INDEX = "rocm-index"  # torch_cuda's reason: a PyTorch ROCm index serves torch


def torch_rocm_index(indexes: Sequence[IndexLine]) -> Version | None:
    """The ROCm release (major.minor) of a PyTorch ROCm index among the lines torch comes
    from (download.pytorch.org/whl/rocm6.2.4 -> 6.2), else None."""
    from compat.kb.torchbuilds import index_rocm

    found = [r for line in indexes if (r := index_rocm(line.url)) is not None]
    return max(found) if found else None


XFORMERS_ROCM_UNSETTLED = (
    "which index's xformers the resolver installs: PyTorch's ROCm index and PyPI (the CUDA "
    "build) serve the same version, with no local label to tell them apart (pip and uv choose "
    "differently); take it from the ROCm index alone (--index-url, or a uv source for xformers)"
)


def xformers_rocm_index(
    indexes: Sequence[IndexLine], markers: Mapping[str, str] | None = None
) -> tuple[Version | None, bool]:
    """The ROCm release of the PyTorch ROCm index a declared xformers comes from, and whether
    that is settled. xFormers' ROCm wheels carry no local label (its wheels_build.yml appends
    an empty suffix: compat/data/xformers-rocm-arch.json), so unlike torch's `+rocmX.Y` they do
    not outrank PyPI's CUDA build of the same version: the build is the ROCm one only where
    every line xformers can come from is a ROCm index and PyPI is not consulted (--index-url,
    a default uv index, a uv source for xformers). (None, True): no ROCm index serves it."""
    from compat.kb.torchbuilds import index_rocm

    routed = _torch_indexes(indexes, markers, "xformers")
    if routed is None:
        return None, False  # one of several opt-in groups: which one is the user's choice
    found = [r for line in routed if (r := index_rocm(line.url)) is not None]
    if not found:
        return None, True
    alone = all(index_rocm(line.url) is not None for line in routed) and any(
        line.replaces_default or line.packages for line in routed
    )
    return max(found), alone


def torch_servable(
    indexes: Sequence[IndexLine], platform: str, markers: Mapping[str, str] | None = None
) -> Callable[[Version], bool]:
    """Whether the indexes torch may come from serve a release of it: a torch bound to a
    PyTorch index (uv's `explicit` sources: cu128 stops at 2.11) is only what that index has.
    The offline solve offers torch only these releases, as the resolver would."""
    routed = _torch_indexes(indexes, markers)
    if not routed:
        return lambda version: True
    return lambda version: _release_build(version, routed, False, platform, "")[0] is not _SKIP


def torch_rebuilt(indexes: Sequence[IndexLine], markers: Mapping[str, str] | None = None) -> bool:
    """Whether torch may come from a PyTorch index (its CUDA builds require other CUDA
    libraries than PyPI's default build declares)."""
    from compat.kb.torchbuilds import index_cuda

    routed = _torch_indexes(indexes, markers)
    return bool(routed) and any(index_cuda(line.url) is not None for line in routed or ())


_SKIP = object()  # a candidate a resolve cannot pick: it says nothing about the build
_NO_BUILD = object()  # an exact pin with no CUDA build there: the answer is "none known"


def _torch_indexes(
    indexes: Sequence[IndexLine], markers: Mapping[str, str] | None, name: str = "torch"
) -> list[IndexLine] | None:
    """The index lines torch (or another package `name`) can come from for the target; None
    when it comes from one of several opt-in groups (which one is the user's choice)."""
    routed = [
        i
        for i in indexes
        if (not i.packages or name in i.packages)
        and (not i.marker or markers is None or _source_applies(i, markers))
    ]
    if any(not i.optional for i in routed if i.packages):
        return [i for i in routed if not i.optional]  # a source that always applies wins
    if len({i.url.rstrip("/") for i in routed if i.optional}) > 1:
        return None
    return routed


def _release_build(
    version: Version, routed: Sequence[IndexLine], exact: bool, platform: str, why: str
) -> tuple[object, str]:
    """One candidate release's CUDA build (a Version, None for CPU, "unknown" for a release the
    table does not know, or _SKIP/_NO_BUILD) and the updated reason."""
    from compat.kb.torchbuilds import cuda_variants, default_cuda, index_cuda, known_release

    chosen: Version | str | None = "pypi"
    served: list[tuple[Version | str, IndexLine]] = []
    for line in routed:
        cuda = index_cuda(line.url)
        if cuda is None:
            continue
        variants = cuda_variants(version)
        if cuda == "cpu" or variants is None or cuda in variants:
            served.append((cuda, line))
    replacing = [s for s in served if s[1].replaces_default or s[1].packages]
    pool = replacing or served
    pinned = [line for line in routed if line.packages and index_cuda(line.url) is not None]
    if not pool and pinned and not exact:
        # torch may come only from an index that has no build of this release (uv's
        # `explicit` source: cu128 stops at 2.11): a resolve cannot pick it.
        return _SKIP, why
    if pool:
        # pip takes the highest version: a +cuXYZ build sorts above the plain PyPI one.
        cudas = [c for c, _ in pool if isinstance(c, Version)]
        chosen = max(cudas) if cudas else None
        line = next(line for cuda, line in pool if cuda == (chosen or "cpu"))
        why = f"the PyTorch index {line.url} ({line.origin})"
    if chosen == "pypi":
        chosen = default_cuda(version, platform)
        if chosen is None and not exact and not known_release(version):
            return "unknown", why  # a release compat does not know, among the candidates
        if chosen is None and exact:
            return _NO_BUILD, why
        why = why or f"the PyPI default build of torch {version.public} on {platform}"
    return (chosen if isinstance(chosen, Version) else None), why


def _agreed_build(builds: set[Version | str | None], why: str) -> tuple[Version | None, str]:
    """The build every candidate release agrees on, or "unsettled" when they disagree."""
    found = {b for b in builds if isinstance(b, Version)}
    if "unknown" in builds or (found and None in builds) or len({b.major for b in found}) > 1:
        # the candidates disagree: which build is installed depends on the release a resolve picks
        return None, "unsettled"
    if not found:
        return None, ""  # CPU builds only
    if len(found) > 1:
        return min(found), why  # one major: the oldest minor is what every candidate needs at least
    (build,) = found
    return build, why
