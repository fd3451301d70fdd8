"""Version specifiers, parsed once: rule files, Requires-Dist lines and markers repeat the same few
specifiers, and parsing them dominates start-up. The one parser and cache every layer shares."""

from __future__ import annotations

from functools import cache

# Imported by the rule language anyway (every start-up): a module-level name costs nothing more,
# an import inside the cached functions would run on every miss.
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from compat.versions import too_long_number


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
