"""The transitive walk's memos (issue 45) keep every fact an answer depends on in their keys.

A package's releases and what each requires on the target are read once per process
(transitive._snapshot_lines, by package, extras and markers); what a node's releases require
once per release list (_required); whether a held package can meet a requirement from the
specifier's answers per release (_met). Each test asks twice, the second time with one fact
changed, and checks the second answer is the one that fact gives. The packages and releases
are read from the dependency snapshot the walk reads.
"""

from __future__ import annotations

import itertools

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.resolve.check import transitive
from compat.resolve.sources import snapshot
from tests.lib.markers import LINUX_X86_64_311

MARKERS = LINUX_X86_64_311


def needs(name: str, spec: str = "", extras: tuple[str, ...] = (), **markers: str) -> set[str]:
    found, unread, _ = transitive.walk(
        {canonicalize_name(name): (SpecifierSet(spec), extras, None)},
        lambda _name: True,
        {**MARKERS, **markers},
        lambda _name, _spec: None,
    )
    assert not unread
    return set(found)


def test_a_package_s_requirements_are_read_per_target() -> None:
    # torch's newest release requires triton on Linux only: two walks of one process
    newest = list(snapshot.releases(canonicalize_name("torch")))[-1]
    linux = needs("torch", f"=={newest}")
    other = needs("torch", f"=={newest}", platform_system="Darwin")
    assert "triton" in linux and "triton" not in other
    assert needs("torch", f"=={newest}") == linux


def test_a_package_s_requirements_are_read_per_extras() -> None:
    # bcrypt requires pytest for its `tests` extra only
    assert "pytest" not in needs("bcrypt")
    assert "pytest" in needs("bcrypt", extras=("tests",))
    assert "pytest" not in needs("bcrypt")


def release_lines() -> tuple[list[Version], dict[Version, tuple[Requirement, ...] | None]]:
    """torch's releases, with what each requires on Linux, two of which differ."""
    node = transitive._snapshot_node(
        canonicalize_name("torch"), SpecifierSet(), (), MARKERS, None, declared=True
    )
    assert node is not None
    return node.releases, node.lines


def test_what_a_node_requires_follows_its_releases() -> None:
    releases, lines = release_lines()
    differ = next(
        (a, b)
        for a, b in itertools.pairwise(releases)
        if {r.name for r in lines[a] or ()} != {r.name for r in lines[b] or ()}
    )
    memo: transitive._RequiredMemo = {}
    node = transitive._Node(list(differ), lines, lambda _v: "", None, True)
    both = transitive._required(node, memo)
    node.releases = [differ[0]]  # the walk replaces the list when releases drop out
    first = transitive._required(node, memo)
    node.releases = [differ[1]]
    second = transitive._required(node, memo)
    assert set(first) != set(second)
    assert set(both) == set(first) & set(second)


def test_a_requirement_is_met_per_specifier_and_releases() -> None:
    releases, lines = release_lines()
    newest = releases[-2]  # the last is the release after the snapshot
    held = transitive._Node([newest], lines, lambda _v: "", None, True)
    nodes = {canonicalize_name("torch"): held}
    met: dict[tuple[int, int], tuple[SpecifierSet, list[Version], bool]] = {}
    allows: dict[int, tuple[SpecifierSet, dict[Version, bool]]] = {}

    pinned, below = Requirement(f"torch=={newest}"), Requirement(f"torch<{newest}")

    def meets(requirement: Requirement) -> bool:
        return transitive._met((requirement,), nodes, met, allows)

    assert meets(pinned) and not meets(below)
    held.releases = [releases[0]]  # the same requirement objects, other releases held
    assert not meets(pinned) and meets(below)
