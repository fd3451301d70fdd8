"""Where pin's candidate versions come from: the package index (cached), or offline the cache,
the installed versions and the versions the knowledge base names; torch's per-CUDA builds when a
GPU is visible. `IndexCandidates` is the solver's `CandidateSource`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.errors import IndexAccessError
from compat.kb.knowledge import KnowledgeBase
from compat.resolve.pin.solver import offline_versions
from compat.resolve.sources.index import allows_python


class IndexCandidates:
    """CandidateSource over the package index: installable versions and Requires-Dist."""

    def __init__(
        self,
        client: Any,
        python_version: Version | None,
        installed: Mapping[NormalizedName, Version],
        kb: KnowledgeBase,
        offline: bool,
        markers: Mapping[str, str] | None = None,
    ) -> None:
        self.client = client
        self.markers = markers  # the target: releases without a wheel for it are never offered
        self.python_version = python_version
        self.installed = installed
        self.kb = kb
        self.offline = offline
        self._versions: dict[NormalizedName, list[Version]] = {}
        self._candidates: dict[NormalizedName, list[Any]] = {}
        self.notes: list[str] = []
        self._requires: dict[tuple[NormalizedName, Version], tuple[str, ...] | None] = {}
        self.cuda_builds = False  # offer torch's per-CUDA builds (+cu126) as candidates
        # offer torch's ROCm builds (+rocm6.1) as candidates: every GPU is AMD's
        self.rocm_builds = False
        # What the user's ranged requirements allow (-r files, for this target): every resolve
        # the proof makes holds them, so no release outside them is ever a candidate.
        self.bounds: dict[NormalizedName, SpecifierSet] = {}
        # Packages with no release list (offline, not in the snapshot): their candidates are the
        # versions the knowledge base names, stand-ins for classes of releases, never written as
        # an exact pin (compat.resolve.pin.constraints writes a range).
        self.unlisted: set[NormalizedName] = set()

    def build_note(self, name: NormalizedName, start: Version, hardware: Any) -> str:
        """Why no ROCm build of torch escapes (where pin offers them: every GPU is AMD's), in
        the facts of compat's table (compat.kb.torchrocm.no_build_serves); "" otherwise."""
        if not self.rocm_builds or name != "torch" or hardware is None:
            return ""
        from compat.kb import torchrocm

        gpus = [(g.gfx_target, g.gfx_features) for g in hardware.gpus if g.gfx_target]
        if not gpus:
            return "the GPUs' targets are not known (rocminfo | grep gfx, or compat probe)"
        return torchrocm.no_build_serves(Version(start.public), gpus)

    def listed(self, name: NormalizedName, version: Version) -> bool:
        """Whether `version` of `name` is a release some release list holds (the index, the
        snapshot, the installed environment or the user's own pin), not a stand-in."""
        self.versions(name)
        return name not in self.unlisted or version == self.installed.get(name)

    def requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        # A CUDA build declares what the release declares (PyPI's wheel stands in for it).
        if version.local and name == "torch":
            from compat.kb import torchrocm

            rocm = torchrocm.label(version) is not None
            found = self._requires_of(name, Version(version.public))
            if rocm and found is not None:
                # a ROCm build: none of the CUDA build's CUDA libraries and triton
                return tuple(r for r in found if not torchrocm.cuda_requirement(r))
            return found
        return self._requires_of(name, version)

    def prefetch(self, names: Sequence[NormalizedName]) -> None:
        if self.client is None or self.offline:
            return  # offline: the knowledge base and the snapshot, never the index cache
        try:
            found = self.client.candidates_many(names)
            self._candidates.update(found)
            self._candidates.update({name: [] for name in names if name not in found})
        except IndexAccessError:
            if not self.offline:
                raise
            # Offline and not cached: fall back to what the knowledge base names, below.

    def on_index(self, name: str) -> bool:
        """Whether the index has any release of `name` (fetched, and cached, when asked)."""
        from compat.names import canonicalize_name

        return bool(self.versions(NormalizedName(canonicalize_name(name))))

    def versions(self, name: NormalizedName) -> list[Version]:
        if name in self._versions:
            return self._versions[name]
        if name not in self._candidates:
            self.prefetch([name])  # a companion of a move: asked for only when needed
        installed = self.installed.get(name)
        allow_pre = installed is not None and installed.is_prerelease
        found: set[Version] = set()
        for candidate in self._candidates.get(name, []):
            if candidate.yanked is not None:
                continue
            if not allows_python(candidate, self.python_version):
                continue
            if candidate.version.is_prerelease and not allow_pre:
                continue
            found.add(candidate.version)
        if self.offline or self.client is None:
            offline, listed = offline_releases(self.kb, name, installed, self.python_version)
            found.update(offline)
            if not listed:
                self.unlisted.add(name)
        if self.markers is not None:
            from compat.kb import wheels

            found = wheels.installable(name, found, self.markers, keep=installed)
        if name == "torch" and self.cuda_builds and not self.rocm_builds:
            # (on an all-AMD machine no CUDA build runs: its ROCm builds stand in, below)
            # A CUDA build of a release the target cannot install (no wheel for its Python:
            # torch 1.12.1 on 3.11) is no candidate: PyTorch builds its CUDA variants of a
            # release for the Pythons its PyPI wheels cover.
            buildable = set(found)
            if self.markers is not None:
                from compat.kb import wheels

                buildable = wheels.installable(name, found, self.markers)
            found |= torch_build_variants(buildable)
        bound = self.bounds.get(name)
        if bound is not None:
            found = {v for v in found if v == installed or bound.contains(v, prereleases=True)}
        if name == "torch" and self.rocm_builds:
            found |= rocm_build_variants(found, installed)
        self._versions[name] = sorted(found)
        return self._versions[name]

    def _requires_of(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        key = (name, version)
        if key not in self._requires:
            self._requires[key] = self._fetch_requires(name, version)
        return self._requires[key]

    def _fetch_requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        if self.client is None or self.offline:
            from compat.resolve.sources import snapshot

            return snapshot.releases(name).get(Version(version.public))
        matching = [c for c in self._candidates.get(name, []) if c.version == version]
        matching.sort(key=lambda c: (not c.is_wheel, c.metadata_url is None))
        for candidate in matching[:1]:
            try:
                result: tuple[str, ...] = self.client.requires_dist(candidate)
                return result
            except IndexAccessError:
                if not self.offline:
                    raise
        return None


def offline_candidates(
    kb: KnowledgeBase, name: NormalizedName, installed: Version | None
) -> list[Version]:
    """`offline_releases` without the target's Python."""
    return offline_releases(kb, name, installed, None)[0]


def offline_releases(
    kb: KnowledgeBase, name: NormalizedName, installed: Version | None, python: Version | None
) -> tuple[list[Version], bool]:
    """Offline, the releases of `name` pin may choose, and whether they are a release list:
    those compat's dependency snapshot records (not yanked, installable on the target's Python
    where it says) and the installed one. Only for a package the snapshot does not cover, the
    versions the knowledge base names stand in for its releases (False: a rule's boundary is
    not a release; pin writes a range for them, never `==`). A function of the knowledge base's
    version alone: the index cache is never read, so a cold, warm or polluted cache gives the
    same plan."""
    from compat.resolve.sources import snapshot

    records = snapshot.records(name)
    if not records:
        return sorted(offline_versions(kb, name, installed)), False
    found = {
        record.version
        for record in records
        if not record.yanked
        and (
            python is None
            or record.installable(Version(f"{python.major}.{python.minor}")) is not False
        )
    }
    if installed is not None:
        found.add(Version(installed.public))
    return sorted(found), True


def torch_build_variants(releases: set[Version]) -> set[Version]:
    """PyTorch's per-CUDA builds of these torch releases (download.pytorch.org/whl/cuXYZ)."""
    from compat.kb.torchbuilds import cuda_tag, cuda_variants

    out: set[Version] = set()
    for release in releases:
        if release.local:
            continue
        for cuda in cuda_variants(release) or ():
            out.add(Version(f"{release}+{cuda_tag(cuda)}"))
    return out


def rocm_build_variants(releases: set[Version], start: Version | None = None) -> set[Version]:
    """PyTorch's ROCm builds of these torch releases (download.pytorch.org/whl/rocmX.Y), as
    compat/data/torch-rocm-arch.json records them per release series; a series without a row
    offers none (which builds it has is not known here), and none at all where the release the
    plan starts from (the user's pin, the resolver's pick; else the newest of `releases`) has
    no row."""
    from compat.kb import torchrocm

    out: set[Version] = set()
    plain = [r for r in releases if not (r.local or r.is_prerelease or r.is_devrelease)]
    first = Version(start.public) if start is not None else max(plain, default=None)
    if first is None or torchrocm.index_builds(first) is None:
        # The release the plan starts from has no row: which of its ROCm builds serve
        # the GPU is not known here, so an older release the table knows is no escape either
        # (it would move a user's torch 2.6 to 2.4, and transformers with it, for a fact compat
        # lacks, not for one it has); the UNRESOLVED line names the missing row instead.
        return out
    for release in plain:
        for rocm in torchrocm.index_builds(release) or ():
            out.add(Version(f"{release}+rocm{rocm}"))
    return out


def declared_bounds(
    lines: Sequence[tuple[NormalizedName, str, str]],
    pinned: frozenset[NormalizedName],
    markers: Mapping[str, str] | None,
) -> dict[NormalizedName, SpecifierSet]:
    """The ranges the user's requirement lines put on each package for this target: a line
    whose marker holds here (`bitsandbytes<0.50; sys_platform=='linux'` on Linux) bounds every
    plan, as it bounds the resolver that installs them; a line for another target does not.
    Exact pins are the user's intent, not a bound: the plan may move them, relaxing the line."""
    from packaging.markers import InvalidMarker, UndefinedComparison, UndefinedEnvironmentName
    from packaging.requirements import InvalidRequirement

    from compat.versions import parse_requirement

    out: dict[NormalizedName, SpecifierSet] = {}
    for name, text, _ in lines:
        if name in pinned or "://" in text:
            continue
        try:
            requirement = parse_requirement(text)
            if requirement.marker is not None and (
                markers is None or not requirement.marker.evaluate({**markers, "extra": ""})
            ):
                continue
        except (InvalidRequirement, InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
            continue
        if str(requirement.specifier):
            out[name] = out.get(name, SpecifierSet()) & requirement.specifier
    return out
