"""Declared requirements: what requirement, project and lock files ask for, with file and line."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from packaging.markers import Marker, UndefinedComparison, UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion, Version

from compat import versions
from compat.errors import InputError
from compat.model import Origin
from compat.versions import parse_version

_COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")


@dataclass(frozen=True)
class Declared:
    name: NormalizedName
    display_name: str
    specifier: SpecifierSet
    marker: Marker | None  # evaluated later, for the *target* environment
    extras: tuple[str, ...]
    url: str | None
    origin: Origin  # the file and 1-based line where the requirement starts
    kind: str  # "requirement" | "constraint" | "lock" | "report" | "freeze"
    raw: str  # the logical line as written (continuations joined, comment stripped)
    group: str = ""  # the list it came from ("project.optional-dependencies.vllm"); "" = main

    @property
    def commit(self) -> str | None:
        """The commit of a git direct reference (`git+URL@<7..40 hex>`); None for a moving ref."""
        if not self.url or not self.url.startswith("git+"):
            return None
        ref = self.url.split("#")[0].rsplit("@", 1)
        if len(ref) == 2 and _COMMIT.fullmatch(ref[1]) and "/" not in ref[1]:
            return ref[1].lower()
        return None

    @property
    def pinned(self) -> Version | None:
        """The exact version of `==X` (not a wildcard) or `===X`, or of a lock entry."""
        specs = list(self.specifier)
        if len(specs) != 1:
            return None
        spec = specs[0]
        if spec.operator not in ("==", "===") or spec.version.endswith(".*"):
            return None
        try:
            return parse_version(spec.version)
        except InvalidVersion:
            return None


def url_problem(url: str) -> str | None:
    """Why an http(s) index URL does not parse (bad input, exit 2), or None. Whether it can be
    reached is the machine's business, never decided here."""
    from urllib.parse import urlsplit

    if not url.lower().startswith(("http://", "https://")):
        return None  # file:// URLs and directories: checked where they are read
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as error:
        return f"index URL {url!r} does not parse: {error}"
    if not parts.hostname:
        return f"index URL {url!r} does not parse: it names no host"
    return None


@dataclass(frozen=True)
class IndexLine:
    """A package index a file names: a pip option line, a Pipfile source, a uv index."""

    url: str
    origin: Origin
    replaces_default: bool = False  # --index-url / a default uv index: PyPI is not consulted
    packages: tuple[NormalizedName, ...] = ()  # () = every package; else only these (uv sources)
    marker: str = ""  # a uv source's `marker`: it applies where this holds
    optional: bool = False  # a uv source bound to a group or extra that is not installed by default


@dataclass
class FileResult:
    """What one reader found in one file, before the files are pooled into a DeclaredSet."""

    requirements: list[Declared] = field(default_factory=list)
    python: list[tuple[str, Origin]] = field(default_factory=list)
    hardware: list[tuple[str, Origin]] = field(default_factory=list)
    indexes: list[IndexLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class CondaFacts:
    """What conda specs or pixi lock entries declare beyond package versions (compat.facts.
    declared.condaspec fills it)."""

    names: dict[NormalizedName, Origin] = field(default_factory=dict)  # PyPI names from conda
    builds: dict[str, tuple[Version, str]] = field(default_factory=dict)  # fact -> (value, why)
    torch: str = ""  # "cuda" | "cpu" | "" (not said) for a conda torch
    torch_why: str = ""
    cudatoolkit: tuple[Version, str] | None = None  # a pinned cudatoolkit, and where
    system_cuda: tuple[Version, str] | None = None  # pixi's `__cuda` requirement, and where
    channels: tuple[str, ...] = ()  # the file's channel list, in priority order
    torch_channel: str = ""  # the channel conda's torch comes from ("" = not said)

    def merge(self, other: CondaFacts) -> None:
        self.names.update(other.names)
        self.builds.update(other.builds)
        if other.torch:
            self.torch, self.torch_why = other.torch, other.torch_why
        self.cudatoolkit = other.cudatoolkit or self.cudatoolkit
        self.system_cuda = other.system_cuda or self.system_cuda
        self.channels = self.channels or other.channels
        self.torch_channel = other.torch_channel or self.torch_channel


@dataclass(frozen=True)
class DeclaredSet:
    requirements: tuple[Declared, ...]
    files: tuple[str, ...]
    options: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    indexes: tuple[IndexLine, ...] = ()
    requires_python: tuple[tuple[str, Origin], ...] = ()  # requires-python and its equivalents
    hardware: tuple[tuple[str, Origin], ...] = ()  # [tool.compat] hardware = "FILE"
    notes: tuple[str, ...] = ()  # what the readers saw but could not check
    # conda/pixi files: which packages are conda's, and the CUDA builds their specs state
    conda: CondaFacts | None = None


class CheckedMarker(Marker):
    """A requirement's marker that reports a comparison packaging cannot make
    (`os_name ~= "posix"`) as an input error naming the requirement's file and line."""

    origin: Origin | None = None

    def evaluate(self, environment: Mapping[str, Any] | None = None, *args: Any) -> bool:
        try:
            return super().evaluate(environment, *args)
        except (UndefinedComparison, UndefinedEnvironmentName, InvalidVersion) as error:
            reason = str(error).splitlines()[0] if str(error) else error.__class__.__name__
            raise InputError(
                f"marker {str(self)!r} cannot be evaluated: {reason}", origin=self.origin
            ) from None


def parse_requirement(text: str, origin: Origin, kind: str, group: str = "") -> Declared:
    """A PEP 508 string -> Declared; InputError with file:line and packaging's reason."""
    try:
        requirement = versions.parse_requirement(text)
    except InvalidRequirement as error:
        reason = str(error).splitlines()[0]
        raise InputError(f"invalid requirement {text!r}: {reason}", origin=origin) from None
    except RecursionError:
        raise InputError("invalid requirement: marker nested too deeply", origin=origin) from None
    marker = None
    if requirement.marker is not None:
        marker = CheckedMarker(str(requirement.marker))
        marker.origin = origin
    return Declared(
        name=canonicalize_name(requirement.name),
        display_name=requirement.name,
        specifier=requirement.specifier,
        marker=marker,
        extras=tuple(sorted(requirement.extras)),
        url=requirement.url,
        origin=origin,
        kind=kind,
        raw=text,
        group=group,
    )


def locked(
    name: str, version: str, origin: Origin, kind: str, marker: str | None = None
) -> Declared:
    """A lock/report/freeze entry: an exact version."""
    try:
        parse_version(version)
    except InvalidVersion:
        raise InputError(f"{name}: invalid version {version!r}", origin=origin) from None
    text = f"{name}=={version}" + (f"; {marker}" if marker else "")
    return parse_requirement(text, origin, kind)
