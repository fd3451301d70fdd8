"""`pip check`'s job, done on the Requires-Dist lines the installed source already read.

Semantics are pip's (pip/_internal/operations/check.py): every installed distribution's
requirements whose marker holds with ``extra == ""`` must be installed (else *missing*), and the
installed version must be in the specifier, pre-releases allowed (else *conflict*). Names are
PEP 503 normalized. Markers are evaluated for the environment being checked, not for this
process: `--python` reports the target's marker environment; `--path` knows at most the Python
version, so a requirement whose marker needs more than that is counted as not checked rather
than guessed (a guess would be a false alarm or a miss).

One addition to pip: when a dependent requires ``pkg[extra]``, the requirements of that extra
are checked too (pip's resolver installs them, `pip check` does not look). Such findings say
which dependent asked for which extra.

Cost: one regex per distinct line for the common shapes (``name[extras] specifiers ; marker``),
one ``SpecifierSet`` per distinct specifier text, one ``Marker`` per distinct marker text; lines
guarded only by ``extra == "..."`` (most of a big package's lines) are never parsed further
unless that extra is requested. `packaging.requirements` is only the fallback for URLs.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from compat.kb.markereval import Unsupported, marker_parses
from compat.kb.markereval import evaluate as evaluate_marker
from compat.kb.verified import verified_finding
from compat.model import Environment, Finding, Fix, MatchedPackage, Package
from compat.names import canonicalize_name
from compat.specifiers import contains, parse_specifiers

if TYPE_CHECKING:
    from packaging.markers import Marker
    from packaging.utils import NormalizedName

PIP_CHECK_REFERENCE = "https://pip.pypa.io/en/stable/cli/pip_check/"
MISSING = "missing"
CONFLICT = "conflict"

_SIMPLE = re.compile(
    r"""^\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*
    (?:\[(?P<extras>[^\]]*)\])?\s*
    (?P<spec>\(\s*[^)@;]*\)|[^@;()]*?)\s*
    (?:;\s*(?P<marker>.+?))?\s*$""",
    re.VERBOSE,
)
_EXTRA_ONLY = r"""^\(?\s*extra\s*==\s*(['"])([^'"]+)\1\s*\)?$"""
_MARKER_VARIABLES = (
    r"\b(implementation_name|implementation_version|os_name|platform_machine|platform_release|"
    r"platform_system|platform_version|python_full_version|platform_python_implementation|"
    r"python_version|sys_platform|os\.name|sys\.platform|platform\.version|platform\.machine|"
    r"platform\.python_implementation|python_implementation)\b"
)  # compiled on first use (re's cache): start-up pays only for patterns it needs
_OLD_NAMES = {
    "os.name": "os_name",
    "sys.platform": "sys_platform",
    "platform.version": "platform_version",
    "platform.machine": "platform_machine",
    "platform.python_implementation": "platform_python_implementation",
    "python_implementation": "platform_python_implementation",
}


class Requirement(NamedTuple):
    """One Requires-Dist line, as much of it as checking needs."""

    text: str  # the requirement without its marker, as pip prints it
    name: NormalizedName
    extras: frozenset[str]
    specifier: str  # "" for any version (and for URL requirements, like pip)
    marker: str | None
    only_extra: str | None  # set when the marker is exactly `extra == "..."`


class Conflict(NamedTuple):
    """A declared requirement the environment does not meet."""

    kind: str  # MISSING or CONFLICT
    dependent: Package
    requirement: Requirement
    installed: Package | None  # the installed distribution of the required name (conflicts)
    via: tuple[str, str] | None = None  # (who asked, extra) when only an extra needs it


class CheckResult(NamedTuple):
    conflicts: tuple[Conflict, ...]
    unparsable: tuple[tuple[Package, str], ...]  # (distribution, its bad line): pip skips those
    undecided: int  # requirements whose marker the known environment cannot decide


class InvalidLine(ValueError):
    pass


@cache
def parse_requirement(line: str) -> Requirement:
    """A Requires-Dist value -> Requirement (InvalidLine when pip could not parse it either)."""
    from compat.versions import too_long_number

    problem = too_long_number(line)  # packaging could parse it, but never compare it
    if problem:
        raise InvalidLine(problem)
    match = _SIMPLE.match(line)
    if match is None or "@" in line.split(";", 1)[0]:
        return _parse_with_packaging(line)
    spec = match.group("spec").strip()
    if spec.startswith("("):
        spec = spec[1:-1].strip()
    if spec:
        parsed_spec = parse_specifiers(re.sub(r"\s+", "", spec))
        if parsed_spec is None:
            return _parse_with_packaging(line)
        spec = str(parsed_spec)  # sorted, as pip prints it
    extras = frozenset(
        canonicalize_name(e.strip()) for e in (match.group("extras") or "").split(",") if e.strip()
    )
    marker = match.group("marker")
    name = match.group("name")
    text = name + (f"[{','.join(sorted(extras))}]" if extras else "") + spec
    return _requirement(text, name, extras, spec, marker)


def _requirement(
    text: str, name: str, extras: frozenset[str], spec: str, marker: str | None
) -> Requirement:
    only_extra = None
    if marker:
        found = re.match(_EXTRA_ONLY, marker.strip())
        if found:
            only_extra = canonicalize_name(found.group(2))
        elif not _parses_as_marker(marker):
            raise InvalidLine(f"invalid marker {marker!r}")
    return Requirement(text, canonicalize_name(name), extras, spec, marker, only_extra)


def _parse_with_packaging(line: str) -> Requirement:
    from packaging.requirements import InvalidRequirement
    from packaging.requirements import Requirement as Parsed

    try:
        parsed = Parsed(line.strip())
    except InvalidRequirement as error:
        raise InvalidLine(str(error).splitlines()[0]) from None
    marker = str(parsed.marker) if parsed.marker is not None else None
    text = str(parsed).split(";", 1)[0].strip()
    extras = frozenset(canonicalize_name(e) for e in parsed.extras)
    return _requirement(text, parsed.name, extras, str(parsed.specifier), marker)


@cache
def _marker(text: str) -> Marker | None:
    from packaging.markers import InvalidMarker, Marker

    try:
        return Marker(text)
    except InvalidMarker:
        return None


def _parses_as_marker(text: str) -> bool:
    """Whether `text` is a valid marker: packaging is asked only about what the fast evaluator
    does not parse (what it parses is valid PEP 508)."""
    return marker_parses(text) or _marker(text) is not None


@cache
def _marker_variables(text: str) -> frozenset[str]:
    return frozenset(_OLD_NAMES.get(v, v) for v in re.findall(_MARKER_VARIABLES, text))


class _MarkerEnvironment:
    """Evaluates markers for one environment, three-valued: True, False or None (cannot tell)."""

    def __init__(self, markers: Mapping[str, str], env: Environment | None = None) -> None:
        self.markers = dict(markers)
        self.cache: dict[tuple[str, str], bool | None] = {}
        self.env = env  # a --path environment, asked for its wheels' platform when needed

    def applies(self, requirement: Requirement, extra: str) -> bool | None:
        if requirement.marker is None:
            return True
        if requirement.only_extra is not None:
            return requirement.only_extra == extra
        key = (requirement.marker, extra)
        if key not in self.cache:
            self.cache[key] = self._evaluate(requirement.marker, extra)
        return self.cache[key]

    def _evaluate(self, text: str, extra: str) -> bool | None:
        environment = {**self.markers, "extra": extra}
        try:
            verdict = evaluate_marker(text, environment)
        except Unsupported:
            verdict = self._with_packaging(text, environment)
        if verdict is None and self.env is not None:
            # Undecided in a --path environment: learn its platform from its wheels, once.
            self.markers = {**wheel_platform(self.env), **self.markers}
            self.env = None
            return self._evaluate(text, extra)
        return verdict

    def _with_packaging(self, text: str, environment: dict[str, str]) -> bool | None:
        if not _marker_variables(text) <= environment.keys():
            return None
        marker = _marker(text)
        assert marker is not None  # parse_requirement rejected invalid markers
        # A complete mapping: packaging merges what is missing from *this* process's environment,
        # which must not leak into another interpreter's answer (the variables were checked above).
        try:
            return bool(marker.evaluate(environment))
        except Exception:  # packaging's UndefinedComparison/UndefinedEnvironmentName: no verdict
            return None


def check_environment(env: Environment) -> CheckResult:
    """Every declared requirement of every installed distribution, checked against the others."""
    markers = _MarkerEnvironment(_known_markers(env), None if env.markers else env)
    packages = env.packages
    conflicts: list[Conflict] = []
    unparsable: list[tuple[Package, str]] = []
    undecided: set[tuple[NormalizedName, Requirement]] = set()  # once each, whichever pass meets it
    parsed: dict[NormalizedName, list[Requirement]] = {}
    for name, package in packages.items():
        lines = package.requires or egg_info_requires(package)
        try:
            parsed[name] = [parse_requirement(line) for line in lines]
        except InvalidLine:
            bad = next(line for line in lines if not _parses(line))
            unparsable.append((package, bad))
    # (package, extra) pairs some dependent asked for, with the first who asked.
    wanted: dict[tuple[NormalizedName, str], str] = {}
    queue: deque[tuple[NormalizedName, str]] = deque((name, "") for name in parsed)  # bases first
    seen: set[tuple[NormalizedName, str]] = set()
    while queue:
        key = queue.popleft()
        if key in seen:
            continue
        seen.add(key)
        dependent_name, extra = key
        dependent = packages[dependent_name]
        via = (wanted[key], extra) if extra else None
        for requirement in parsed[dependent_name]:
            applies = markers.applies(requirement, extra)
            if applies is None:
                undecided.add((dependent_name, requirement))
                continue
            if not applies or (extra and markers.applies(requirement, "") is True):
                continue  # not for this extra, or already checked as a base requirement
            installed = packages.get(requirement.name)
            if installed is None:
                conflicts.append(Conflict(MISSING, dependent, requirement, None, via))
                continue
            spec = parse_specifiers(requirement.specifier) if requirement.specifier else None
            if spec is not None and not contains(requirement.specifier, installed.version):
                conflicts.append(Conflict(CONFLICT, dependent, requirement, installed, via))
            for wanted_extra in requirement.extras:
                key = (requirement.name, wanted_extra)
                if requirement.name in parsed and key not in wanted:
                    wanted[key] = dependent.label
                    queue.append(key)
    return CheckResult(tuple(conflicts), tuple(unparsable), len(undecided))


def egg_info_requires(package: Package) -> tuple[str, ...]:
    """Requires-Dist lines from an .egg-info directory's requires.txt, converted as pip does
    (pip/_internal/metadata/base.py `_iter_egg_info_dependencies`): `[extra:marker]` sections
    become `; (marker) and extra == "extra"`. Read only for egg-info without Requires-Dist."""
    if package.origin is None or not package.origin.path.endswith(".egg-info"):
        return ()
    try:
        with open(f"{package.origin.path}/requires.txt", encoding="utf-8") as handle:
            content = handle.read()
    except (OSError, UnicodeDecodeError):  # a file-form egg-info, or none: no requirements
        return ()
    lines = []
    extra = marker = ""
    for raw in content.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            extra, _, marker = line.strip("[]").partition(":")
            extra = canonicalize_name(extra) if extra else ""
            continue
        if extra and marker:
            lines.append(f'{line} ; ({marker}) and extra == "{extra}"')
        elif extra:
            lines.append(f'{line} ; extra == "{extra}"')
        else:
            lines.append(f"{line} ; {marker}" if marker else line)
    return tuple(lines)


def _parses(line: str) -> bool:
    try:
        parse_requirement(line)
    except InvalidLine:
        return False
    return True


_PLATFORM_TAG = (
    r"^(?P<interpreter>cp|pp)(?P<major>\d)(?P<minor>\d+)-(?P<abi>[^-]+)-"
    r"(?:(?:many|musl)?linux(?:1|2010|2014|_\d+_\d+)?_(?P<linux>\w+)|"
    r"macosx_\d+_\d+_(?P<mac>\w+)|(?P<win>win_amd64|win_arm64|win32))$"
)
_WINDOWS_MACHINE = {"win_amd64": "AMD64", "win_arm64": "ARM64", "win32": "x86"}


def wheel_platform(env: Environment) -> dict[str, str]:
    """Marker variables a directory's own binary wheels pin down (their WHEEL `Tag:` lines).

    A `--path` directory names no interpreter, but a CPython extension wheel installed in it was
    built for its platform: `cp311-cp311-manylinux_2_17_x86_64` says Linux, x86_64, CPython 3.11.
    Read only when a marker needs more than the directory name tells, and only up to the first
    such wheel. Versions of the OS and the exact Python release stay unknown.
    """
    for package in env.packages.values():
        if package.origin is None or not package.origin.path.endswith(".dist-info"):
            continue
        try:
            with open(f"{package.origin.path}/WHEEL", encoding="utf-8") as handle:
                text = handle.read(4096)
        except (OSError, UnicodeDecodeError):
            continue
        for line in text.splitlines():
            key, _, value = line.partition(":")
            found = re.match(_PLATFORM_TAG, value.strip()) if key.strip() == "Tag" else None
            if found:
                return _markers_of_tag(found)
    return {}


def _markers_of_tag(tag: re.Match[str]) -> dict[str, str]:
    cpython = tag["interpreter"] == "cp"
    markers = {
        "implementation_name": "cpython" if cpython else "pypy",
        "platform_python_implementation": "CPython" if cpython else "PyPy",
    }
    if cpython and tag["abi"].startswith(f"cp{tag['major']}{tag['minor']}"):
        # cp311-cp311: built for exactly 3.11 (an abi3 wheel runs on any later Python too)
        markers["python_version"] = f"{tag['major']}.{tag['minor']}"
    if tag["linux"]:
        markers |= {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"}
        markers["platform_machine"] = tag["linux"]
    elif tag["mac"]:
        machine = tag["mac"] if tag["mac"] in ("arm64", "x86_64") else ""
        markers |= {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"}
        if machine:
            markers["platform_machine"] = machine
    else:
        markers |= {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"}
        markers["platform_machine"] = _WINDOWS_MACHINE[tag["win"]]
    return markers


def _known_markers(env: Environment) -> dict[str, str]:
    if env.markers:
        return dict(env.markers)
    if env.python_version is not None:  # --path lib/python3.11/site-packages: only X.Y is known
        release = env.python_version.release
        return {"python_version": f"{release[0]}.{release[1] if len(release) > 1 else 0}"}
    return {}


# ---------------------------------------------------------------------------------------------
# Findings: one per required name and kind, so a waiver or a CI diff can name it


def conflict_findings(conflicts: Sequence[Conflict]) -> list[Finding]:
    groups: dict[tuple[str, str], list[Conflict]] = {}
    for conflict in conflicts:
        groups.setdefault((conflict.kind, conflict.requirement.name), []).append(conflict)
    findings = []
    for (kind, name), group in sorted(groups.items()):
        specs = sorted({c.requirement.specifier for c in group if c.requirement.specifier})
        constraint = name + ",".join(specs)
        dependents = [c.dependent for c in group]
        first = dependents[0]
        if kind == MISSING:
            title = f"{name} is required but not installed"
            fix = f"install {constraint} (pip install '{constraint}')"
            packages: list[MatchedPackage] = []
        else:
            installed = group[0].installed
            assert installed is not None
            title = f"{installed.label} {installed.version} does not meet what " + (
                f"{first.label} {first.version} requires ({group[0].requirement.text})"
                if len(dependents) == 1
                else f"{len(dependents)} installed distributions require"
            )
            fix = (
                f"install a {installed.label} version that every dependent accepts "
                f"({constraint}), or change the dependents"
            )
            packages = [MatchedPackage(installed.name, str(installed.version), installed.origin)]
        packages += [MatchedPackage(d.name, str(d.version), d.origin) for d in dependents]
        findings.append(
            verified_finding(
                f"pip-check:{kind}:{name}",
                title,
                Fix(fix, (constraint,) if specs or kind == MISSING else ()),
                kind="pip-check",
                origin=first.origin,
                packages=packages,
                matched=[_in_words(c) for c in group],
                references=(PIP_CHECK_REFERENCE,),
            )
        )
    return findings


def _in_words(conflict: Conflict) -> str:
    """pip check's own sentence (canonical names, as pip prints them), and the extra if any."""
    dependent = f"{conflict.dependent.name} {conflict.dependent.version}"
    requirement = conflict.requirement
    if conflict.kind == MISSING:
        words = f"{dependent} requires {requirement.name}, which is not installed"
    else:
        assert conflict.installed is not None
        words = (
            f"{dependent} has requirement {requirement.text}, "
            f"but you have {requirement.name} {conflict.installed.version}"
        )
    if conflict.via is not None:
        asker, extra = conflict.via
        words += f" (for the extra {conflict.dependent.name}[{extra}], which {asker} requires)"
    return words
