"""Version specifiers, parsed once: rule files, Requires-Dist lines and markers repeat the same few
specifiers, and parsing them dominates start-up. The one cache every layer shares."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from compat.versions import parse_specifier

if TYPE_CHECKING:
    from packaging.specifiers import SpecifierSet


@cache
def parse_specifiers(text: str) -> SpecifierSet | None:
    """`text` as a SpecifierSet, or None when it is not one (an invalid text is cached too)."""
    from packaging.specifiers import InvalidSpecifier

    try:
        return parse_specifier(text)  # bounded: a 5,000-digit version could never be compared
    except InvalidSpecifier:
        return None


def specifier_set(text: str) -> SpecifierSet:
    """`text` as a SpecifierSet; InvalidSpecifier (and its message) when it is not."""
    parsed = parse_specifiers(text)
    if parsed is None:
        return parse_specifier(text)  # raises, as an uncached parse would
    return parsed
