"""compat.specifiers.contains decides plain specifiers without packaging: it must agree with
packaging on every version, plain or not, and every specifier, plain or not."""

from __future__ import annotations

import itertools

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from compat.specifiers import contains, plain_clauses

RELEASES = ["0", "1", "2", "10", "1.0", "1.2", "2.0", "1.0.0", "1.2.0", "1.2.3", "2.0.1", "1.10"]
SUFFIXES = ["", "+cu124", "+cpu", "+g04e1642e3", "rc1", "a0", ".post1", ".dev3", "rc1+cu121"]
VERSIONS = [Version(r + s) for r, s in itertools.product(RELEASES, SUFFIXES)] + [
    Version("1!1.0"),
    Version("1.2.3.4"),
    Version("1.2.0.0.1"),
]
OPERATORS = ["==", "!=", "<=", ">=", "<", ">"]
BOUNDS = ["0", "1", "1.0", "1.0.0", "1.2", "1.2.0", "1.2.3", "2", "1.10", "10.0.0.0"]
CLAUSES = [op + bound for op, bound in itertools.product(OPERATORS, BOUNDS)]
OTHERS = [
    "", " ", "==1.2.*", "!=1.*", "~=1.2", "===1.2", ">=1.0rc1", "<2.0.post1", "==1.2+cu124",
    ">=1!0.5", ">= 1.0 , < 2", ">=1.0,", "<1.2.dev0",
]  # fmt: skip
SPECIFIERS = CLAUSES + [f"{a},{b}" for a, b in itertools.combinations(CLAUSES[::3], 2)] + OTHERS


def test_every_pairing_agrees_with_packaging() -> None:
    checked = 0
    for text in SPECIFIERS:
        try:
            expected_set = SpecifierSet(text)
        except Exception:  # not a specifier packaging accepts: not compat's fast path either
            assert plain_clauses(text) is None, text
            continue
        for version in VERSIONS:
            expected = expected_set.contains(version, prereleases=True)
            assert contains(text, version) is expected, (text, str(version))
            checked += 1
    assert checked > 20_000  # the grid really ran


@pytest.mark.parametrize(
    ("text", "plain"),
    [(">=2.4,<2.6", True), ("==2.5.1", True), ("", True), ("==2.5.*", False), ("~=2.5", False),
     (">=2.5rc1", False), ("==2.5.1+cu124", False), (">=1!2", False)],
)  # fmt: skip
def test_only_plain_releases_take_the_fast_path(text: str, plain: bool) -> None:
    assert (plain_clauses(text) is not None or not text) is plain
