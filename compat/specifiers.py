"""Version specifiers, parsed once: rule files, Requires-Dist lines and markers repeat the same few
specifiers, and parsing them dominates start-up. The one cache every layer shares."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet


@cache
def parse_specifiers(text: str) -> SpecifierSet | None:
    """`text` as a SpecifierSet, or None when it is not one (an invalid text is cached too)."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        return None


def specifier_set(text: str) -> SpecifierSet:
    """`text` as a SpecifierSet; packaging's InvalidSpecifier (and its message) when it is not."""
    parsed = parse_specifiers(text)
    if parsed is None:
        from packaging.specifiers import SpecifierSet

        return SpecifierSet(text)  # raises, as an uncached parse would
    return parsed
