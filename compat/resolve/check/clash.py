"""Declarations that cannot install: two lines of one install that no version satisfies together.

pip (and uv) pool every line an install reads — the files given, their `-r` includes, their `-c`
constraints, the dependency group or extra chosen — before resolving, so `transformers==4.51.2`
in an included `requirements_common.txt` and `transformers==4.48.3` in the including file make
pip refuse the whole file ("Cannot install transformers==4.48.3 and transformers==4.51.2").
Such a pair is one finding per package, of the `pip-check` kind that doctor uses for what
`pip check` reports (id `pip-check:conflict:NAME`), naming both lines (file:line each); it
points at the later line, the one that made the set uninstallable.

Two lines clash when they pin different versions, when a pin lies outside the other line's
range, when two ranges have an empty intersection (`>=4.50` and `<4.45`), or when a direct
reference stands beside another reference or a version. Lines of two different lists of a
project (two extras, two dependency groups) are alternatives and never clash; a list and the
main dependencies are installed together. Lock entries are the lock's business, not a
declaration: they are not compared.
"""

from __future__ import annotations

from collections.abc import Sequence

from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import InvalidVersion, Version

from compat.facts.declared.entries import Declared
from compat.kb.pipcheck import PIP_CHECK_REFERENCE
from compat.kb.verified import verified_finding
from compat.model import Finding, Fix, MatchedPackage

_COMPARED = ("requirement", "constraint")


def clash_findings(declared: Sequence[Declared]) -> list[Finding]:
    """One `pip-check:conflict:NAME` finding per package with two lines that cannot both hold."""
    by_name: dict[NormalizedName, list[Declared]] = {}
    for item in declared:
        if item.kind in _COMPARED and item.origin.path is not None:
            by_name.setdefault(item.name, []).append(item)
    findings = []
    for name, items in by_name.items():
        pair = _first_clash(items)
        if pair is not None:
            findings.append(_finding(name, *pair))
    return findings


def _first_clash(items: Sequence[Declared]) -> tuple[Declared, Declared] | None:
    for position, second in enumerate(items):
        for first in items[:position]:
            if first.origin == second.origin or not _together(first, second):
                continue
            if first.kind == "constraint" and second.kind == "constraint":
                continue  # constraints alone install nothing
            if clash(first, second):
                return first, second
    return None


def _together(first: Declared, second: Declared) -> bool:
    """Whether one install reads both lines: the same list, or a list and the main one."""
    return first.group == second.group or "" in (first.group, second.group)


def clash(first: Declared, second: Declared) -> bool:
    """Whether no single version (or source) satisfies both lines."""
    if first.url or second.url:
        return first.url != second.url
    for one, other in ((first, second), (second, first)):
        if one.pinned is not None and not other.specifier.contains(one.pinned, prereleases=True):
            return True
    return empty_intersection(first.specifier & second.specifier)


def empty_intersection(spec: SpecifierSet) -> bool:
    """True only when the bounds of `spec` provably admit no version (`>=4.50,<4.45`,
    `>=2.0,<2.0`, `==1.*,>=2`). Anything this cannot decide counts as satisfiable: a clash
    reported here is a clash, never a guess."""
    low: tuple[Version, bool] | None = None  # (bound, inclusive)
    high: tuple[Version, bool] | None = None
    for item in spec:
        bounds = _bounds(item.operator, item.version)
        if bounds is None:
            continue
        lower, upper = bounds
        if lower is not None and (
            low is None or lower[0] > low[0] or (lower[0] == low[0] and not lower[1])
        ):
            low = lower
        if upper is not None and (
            high is None or upper[0] < high[0] or (upper[0] == high[0] and not upper[1])
        ):
            high = upper
    if low is None or high is None:
        return False
    if low[0] > high[0]:
        return True
    return low[0] == high[0] and not (low[1] and high[1])


def _bounds(
    operator: str, text: str
) -> tuple[tuple[Version, bool] | None, tuple[Version, bool] | None] | None:
    """(lower, upper) bounds of one specifier; None for what is not a plain interval (`!=`,
    `===`, a local-label pin: skipped, which can only make the answer "satisfiable")."""
    try:
        version = Version(text[:-2] if text.endswith(".*") else text)
    except InvalidVersion:
        return None
    if version.local is not None:
        return None
    if text.endswith(".*"):  # ==2.1.* : [2.1, 2.2)
        if operator != "==":
            return None
        release = version.release
        upper = Version(".".join(str(p) for p in (*release[:-1], release[-1] + 1)))
        return (version, True), (upper, False)
    if operator == "==":
        return (version, True), (version, True)
    if operator == ">=":
        return (version, True), None
    if operator == ">":
        return (version, False), None
    if operator == "<=":
        return None, (version, True)
    if operator == "<":
        return None, (version, False)
    if operator == "~=" and len(version.release) >= 2:  # ~=2.2.1 : [2.2.1, 2.3)
        release = version.release[:-1]
        upper = Version(".".join(str(p) for p in (*release[:-1], release[-1] + 1)))
        return (version, True), (upper, False)
    return None


def _finding(name: NormalizedName, first: Declared, second: Declared) -> Finding:
    def line(item: Declared) -> str:
        return f"`{item.raw}` ({item.origin})"

    lines = f"{line(second)} and {line(first)}"
    return verified_finding(
        f"pip-check:conflict:{name}",
        f"{second.display_name}: {lines} cannot both hold; pip refuses to install them",
        Fix(
            f"make the two {second.display_name} lines agree (keep one of them, or ranges that "
            "overlap)"
        ),
        kind="pip-check",
        origin=second.origin,
        packages=[
            MatchedPackage(name, _version(second), second.origin),
            MatchedPackage(name, _version(first), first.origin),
        ],
        matched=[f"{second.origin}: {second.raw}", f"{first.origin}: {first.raw}"],
        references=(PIP_CHECK_REFERENCE,),
    )


def _version(item: Declared) -> str:
    """As packages[].version reads elsewhere: the pinned version, the URL, the range or `*`."""
    if item.url:
        return item.url
    return str(item.pinned) if item.pinned is not None else str(item.specifier) or "*"
