"""Versions, specifiers, requirements and markers from input, parsed with a bound on numbers.

packaging turns every number of a version into a Python int, and CPython refuses to convert a
string of more than 4,300 digits (`sys.get_int_max_str_digits()`; PYTHONINTMAXSTRDIGITS can lower
it to 640). packaging lets that ValueError out of `Version()`, of `SpecifierSet.contains()` and of
a marker's evaluation: a crash (exit 70) where the contract says the input is invalid (exit 2).
Every parse of text compat did not write itself goes through this module, which refuses a number
over MAX_DIGITS digits with packaging's own exception (InvalidVersion, InvalidSpecifier,
InvalidRequirement, InvalidMarker): each caller already turns those into an error naming the
file and line, or a reported problem.

It also holds the one key every generated table (compat/data/*.json) is read by, `release_key`
(compat/kb/releasetable.py builds the tables' mapping on it), so that `2.2`, `2.2.0`, `2.2.0.0`
and `2.2.0+cu121` find the same row everywhere (PEP 440).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from packaging.version import InvalidVersion, Version

if TYPE_CHECKING:
    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.specifiers import SpecifierSet

MAX_DIGITS = 100  # far above any real version number (a date-time stamp is 14 digits)
_TOO_LONG = re.compile(f"[0-9]{{{MAX_DIGITS + 1}}}")


def too_long_number(text: str) -> str | None:
    """Why `text` is refused before packaging sees it, or None."""
    if len(text) > MAX_DIGITS and _TOO_LONG.search(text):
        return f"a number of more than {MAX_DIGITS} digits"
    return None


def _refuse_huge(text: str, error: type[ValueError]) -> None:
    problem = too_long_number(text)
    if problem:
        raise error(problem)


def parse_version(text: str) -> Version:
    """`Version(text)`; InvalidVersion for anything packaging refuses and for huge numbers."""
    _refuse_huge(text, InvalidVersion)
    return Version(text)


def parse_specifier(text: str) -> SpecifierSet:
    """`SpecifierSet(text)`; InvalidSpecifier as well for a number it could never compare."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    _refuse_huge(text, InvalidSpecifier)
    return SpecifierSet(text)


def parse_requirement(text: str) -> Requirement:
    """`Requirement(text)`; InvalidRequirement as well for a huge number in its specifier or
    marker (checked on the whole line: no name, URL or hash holds 100 digits in a row)."""
    from packaging.requirements import InvalidRequirement, Requirement

    _refuse_huge(text, InvalidRequirement)
    return Requirement(text)


def parse_marker(text: str) -> Marker:
    """`Marker(text)`; InvalidMarker as well for a version it could never evaluate."""
    from packaging.markers import InvalidMarker, Marker

    _refuse_huge(text, InvalidMarker)
    return Marker(text)


def release_key(version: Version | str) -> Version:
    """The release a version names: the key every generated table is read by.

    PEP 440 equality: `2.2`, `2.2.0` and `2.2.0.0` are one release (Version compares and hashes
    them alike, trailing zeros dropped), and a local label names a build of its public release
    (`2.2.0+cu121` is torch 2.2.0 built for CUDA 12.1), so the key drops it. Pre-, post- and dev
    releases stay what they are: a table row for 2.5.0 says nothing of 2.5.0a0. A reader that
    must not read a local build's row (a wheel table: PyPI never serves local versions) says so
    itself before it looks up."""
    parsed = version if isinstance(version, Version) else parse_version(version)
    return Version(parsed.public) if parsed.local is not None else parsed
