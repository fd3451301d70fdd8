"""Version specifiers, parsed once: rule files, Requires-Dist lines and markers repeat the same few
specifiers, and parsing them dominates start-up. The one parser and cache every layer shares."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

# Imported by the rule language anyway (every start-up): a module-level name costs nothing more,
# an import inside the cached functions would run on every miss.
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from compat.versions import too_long_number

if TYPE_CHECKING:
    from packaging.version import Version


@cache
def specifier_set(text: str) -> SpecifierSet:
    """`text` as a SpecifierSet; packaging's InvalidSpecifier (and its message) when it is not,
    or when a number in it is too long for packaging ever to compare (compat.versions)."""
    problem = too_long_number(text)
    if problem:
        raise InvalidSpecifier(problem)
    return SpecifierSet(text)


@cache
def parse_specifiers(text: str) -> SpecifierSet | None:
    """`text` as a SpecifierSet, or None when it is not one (remembered, as a valid one is)."""
    try:
        return specifier_set(text)
    except InvalidSpecifier:
        return None


# One clause that compares with a plain release (`>=2.1`, `<0.14.3`, `!=1.0`): no wildcard, no
# `~=`/`===`, no pre-, post- or dev-release, no local label, no epoch. Numbers are bounded so that
# int() never meets a huge one (packaging itself is guarded by compat.versions).
_PLAIN_CLAUSE = re.compile(r"\s*(==|!=|<=|>=|<|>)\s*([0-9]{1,18}(?:\.[0-9]{1,18})*)\s*")
_HOLDS: dict[str, Callable[[int], bool]] = {
    "==": lambda order: order == 0,
    "!=": lambda order: order != 0,
    "<=": lambda order: order <= 0,
    ">=": lambda order: order >= 0,
    "<": lambda order: order < 0,
    ">": lambda order: order > 0,
}


@cache
def plain_clauses(text: str) -> tuple[tuple[Callable[[int], bool], tuple[int, ...]], ...] | None:
    """`text`'s clauses as (test of the order, release without trailing zeros) when each one
    compares with a plain release (none for an empty specifier, which every version meets);
    None when any clause is more than that."""
    if not text.strip():
        return ()
    clauses = []
    for part in text.split(","):
        found = _PLAIN_CLAUSE.fullmatch(part)
        if found is None:
            return None
        clauses.append(
            (_HOLDS[found.group(1)], _trimmed(tuple(map(int, found.group(2).split(".")))))
        )
    return tuple(clauses)


def _trimmed(release: tuple[int, ...]) -> tuple[int, ...]:
    end = len(release)
    while end > 1 and release[end - 1] == 0:
        end -= 1
    return release[:end]


def contains(text: str, version: Version) -> bool:
    """`SpecifierSet(text).contains(version, prereleases=True)`, decided without packaging where
    both sides are plain releases (the common case: an installed `2.5.1+cu124` against
    `>=2.4,<2.6`). packaging's first `contains` of a specifier parses and orders its bounds,
    and a doctor run meets a thousand distinct specifiers once each.

    For a version with no pre-, post- or dev-release and epoch 0, PEP 440's comparisons reduce
    to comparing release numbers (zero-padded): a local label (`+cu124`) never makes `==`, `!=`,
    `<=` or `>=` differ from the public version, `<V` holds only below V, and `>V` excludes V's
    local versions, so it too holds only above V. tests/unit/kb/test_plain_specifiers.py
    compares this with packaging on every pairing of a grid of versions and specifiers.
    """
    if "===" in text:  # compares the version's text: equal versions may answer differently
        return _contains(text, version)
    known = _CONTAINS.get(text)
    if known is None:
        if len(_CONTAINS) >= _CONTAINS_KEPT:
            _CONTAINS.clear()
        known = _CONTAINS[text] = {}
    found = known.get(version)
    if found is None:
        found = known[version] = _contains(text, version)
    return found


# contains' answers, per specifier text and version: the engine asks every rule's specifier of
# every release a ranged fact allows, for every install (unsloth's 173 installs: 1.9 million
# questions, a few thousand distinct; issue 45). Cleared past _CONTAINS_KEPT texts.
_CONTAINS: dict[str, dict[Version, bool]] = {}
_CONTAINS_KEPT = 20_000


def _contains(text: str, version: Version) -> bool:
    if version.pre is None and version.post is None and version.dev is None and not version.epoch:
        clauses = plain_clauses(text)
        if clauses is not None:
            release = _trimmed(version.release)
            return all(holds(_order(release, bound)) for holds, bound in clauses)
    return specifier_set(text).contains(version, prereleases=True)


def _order(left: tuple[int, ...], right: tuple[int, ...]) -> int:
    """-1, 0 or 1 as `left` is below, equal to or above `right` (both without trailing zeros)."""
    return (left > right) - (left < right)
