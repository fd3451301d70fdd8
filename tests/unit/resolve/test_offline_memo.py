"""The offline solve's memos (issue 45) keep every fact an answer depends on in their keys.

compat's provider answers resolvelib's questions (find_matches, is_satisfied_by,
get_preference, get_dependencies) from memos keyed by object identities and, across the solves
of one process, by a package's pool, clauses, rejected releases and pin. Each test asks one
provider two questions that differ in one fact, after each other, and compares each answer
with the answer a provider that was asked nothing gives: a memo whose key dropped the fact
answers the second question with the first's answer. The expectations are read from the
dependency snapshot the solve reads (which releases exist, which are yanked), so they hold
for any snapshot that still lists the packages named here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version
from resolvelib.structs import RequirementInformation

from compat.resolve.check import offline
from compat.resolve.sources import snapshot
from tests.lib.markers import LINUX_X86_64_311

MARKERS = LINUX_X86_64_311


def provider(
    python: str = "3.11",
    served: Mapping[NormalizedName, Callable[[Version], bool]] | None = None,
    rebuilt: Iterable[str] = (),
    system: str = "Linux",
) -> Any:
    markers = {**MARKERS, "platform_system": system}
    made = offline._Provider(Version(python), markers, {}, {})
    made.served = dict(served or {})
    made.rebuilt = frozenset(canonicalize_name(n) for n in rebuilt)
    return made


def ask(
    asked: Any, identifier: str, requirements: list[Requirement], rejected: Iterable[Any] = ()
) -> list[Any]:
    return list(
        asked.find_matches(
            identifier, {identifier: iter(requirements)}, {identifier: iter(rejected)}
        )
    )


def versions(candidates: list[Any]) -> list[str]:
    return [str(c.version) for c in candidates]


def described(candidates: list[Any]) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each candidate's release, where its requirements come from, and what they are."""
    return [(str(c.version), c.source, tuple(map(str, c.requires))) for c in candidates]


def fresh(identifier: str, requirements: list[Requirement], **made: Any) -> list[Any]:
    """The answer of a provider asked nothing before, in a process whose solves asked nothing."""
    offline._ANSWERS.clear()
    return ask(provider(**made), identifier, requirements)


def newest(name: str, count: int) -> list[Version]:
    return [r.version for r in snapshot.records(canonicalize_name(name)) if not r.yanked][-count:]


def test_find_matches_answers_each_set_of_requirements() -> None:
    low, high = newest("attrs", 2)
    above, below = Requirement(f"attrs>={high}"), Requirement(f"attrs<{high}")
    asked = provider()
    first, second = ask(asked, "attrs", [above]), ask(asked, "attrs", [below])
    assert versions(first) == versions(fresh("attrs", [above])) == [str(high)]
    assert versions(second) == versions(fresh("attrs", [below]))
    assert str(low) in versions(second) and str(high) not in versions(second)
    # both together: what both allow, whichever was asked first
    assert versions(ask(asked, "attrs", [above, below])) == []


def test_find_matches_leaves_out_the_rejected_releases() -> None:
    anything = Requirement("attrs")
    asked = provider()
    every = ask(asked, "attrs", [anything])
    assert versions(ask(asked, "attrs", [anything], every[:1])) == versions(every[1:])
    assert versions(ask(asked, "attrs", [anything], every[:2])) == versions(every[2:])
    assert versions(ask(asked, "attrs", [anything])) == versions(every)


def test_find_matches_with_no_requirement_answers_per_package() -> None:
    # resolvelib asks with no requirement while it backjumps: only the identifier says which
    asked = provider()
    attrs, click = ask(asked, "attrs", []), ask(asked, "click", [])
    assert {c.name for c in attrs} == {"attrs"} and {c.name for c in click} == {"click"}


def test_a_yanked_release_is_offered_only_where_pinned() -> None:
    records = snapshot.records(canonicalize_name("aiofiles"))
    yanked = next(r.version for r in records if r.yanked)
    asked = provider()
    assert str(yanked) not in versions(ask(asked, "aiofiles", [Requirement("aiofiles")]))
    pinned = Requirement(f"aiofiles=={yanked}")
    # the snapshot's release, with the requirements it records (not one it cannot tell)
    held = described(ask(asked, "aiofiles", [pinned]))
    assert held == described(fresh("aiofiles", [pinned]))
    assert [(v, source) for v, source, _ in held] == [(str(yanked), "snapshot")]


def test_answers_shared_between_solves_differ_by_python() -> None:
    # click's newer releases require a newer Python than 3.8 (Requires-Python): one process,
    # two targets that differ in the Python alone
    anything = Requirement("click")
    old = versions(ask(provider("3.8"), "click", [anything]))
    new = versions(ask(provider("3.12"), "click", [anything]))
    assert old == versions(fresh("click", [anything], python="3.8"))
    assert new == versions(fresh("click", [anything], python="3.12"))
    assert len(old) < len(new)


def test_answers_shared_between_solves_differ_by_index_routing() -> None:
    # a torch index serving only the older releases: never the answer of a solve without it
    anything = Requirement("torch")
    every = versions(ask(provider(), "torch", [anything]))
    older = frozenset(Version(v) for v in every[len(every) // 2 :])
    served = {canonicalize_name("torch"): older.__contains__}
    routed = versions(ask(provider(served=served), "torch", [anything]))
    assert routed == [v for v in every if Version(v) in older] != every
    assert versions(ask(provider(), "torch", [anything])) == every


def test_answers_shared_between_solves_differ_by_build() -> None:
    # another index's torch build requires none of PyPI's CUDA libraries
    anything = Requirement("torch")
    pypi = ask(provider(), "torch", [anything])[0]
    rebuilt = ask(provider(rebuilt=["torch"]), "torch", [anything])[0]
    cuda = [str(r) for r in pypi.requires if r.name.startswith(("nvidia-", "cuda-"))]
    assert cuda and not [str(r) for r in rebuilt.requires if str(r) in cuda]


def test_answers_shared_between_solves_differ_by_markers() -> None:
    # torch's requirements that hold on Linux only (its CUDA libraries, triton)
    anything = Requirement("torch")
    linux = ask(provider(), "torch", [anything])[0]
    other = ask(provider(system="Darwin"), "torch", [anything])[0]
    assert {str(r) for r in other.requires} < {str(r) for r in linux.requires}


def test_answers_shared_between_solves_keep_the_pin_as_written() -> None:
    # A release the snapshot does not list, pinned twice in two spellings: the install holds
    # the first pin's release as written, in every solve of the process.
    missing = Version("0.0.1")
    assert missing not in snapshot.releases(canonicalize_name("attrs"))
    short, long = Requirement("attrs==0.0.1"), Requirement("attrs==0.0.1.0")
    assert versions(ask(provider(), "attrs", [short, long])) == ["0.0.1"]
    assert versions(ask(provider(), "attrs", [long, short])) == ["0.0.1.0"]


def test_is_satisfied_by_answers_each_pair() -> None:
    low, high = newest("attrs", 2)
    asked = provider()
    by = {c.version: c for c in ask(asked, "attrs", [Requirement("attrs")])}
    above = Requirement(f"attrs>={high}")
    assert asked.is_satisfied_by(above, by[high])
    assert not asked.is_satisfied_by(above, by[low])
    assert not asked.is_satisfied_by(Requirement(f"attrs<{high}"), by[high])
    assert asked.is_satisfied_by(Requirement(f"attrs<{high}"), by[low])


def test_get_preference_reads_the_causes_each_time() -> None:
    # resolvelib keeps one list of causes per state and replaces its contents in place
    asked = provider()
    attrs, click = Requirement("attrs"), Requirement("click")
    information = {
        "attrs": [RequirementInformation(attrs, None)],
        "click": [RequirementInformation(click, None)],
    }
    causes: list[Any] = []

    def first(name: str) -> int:
        preference = asked.get_preference(
            name, {}, {}, {k: iter(v) for k, v in information.items()}, causes
        )
        return int(preference[0])

    assert (first("attrs"), first("click")) == (1, 1)
    causes[:] = [RequirementInformation(attrs, None)]
    assert (first("attrs"), first("click")) == (0, 1)
    causes[:] = [RequirementInformation(click, None)]
    assert (first("attrs"), first("click")) == (1, 0)
    causes[:] = []
    assert (first("attrs"), first("click")) == (1, 1)


@pytest.mark.parametrize("name", ["torch", "bcrypt[tests]"])
def test_get_dependencies_answers_each_candidate(name: str) -> None:
    asked = provider()
    requirement = Requirement(name)
    identifier = asked.identify(requirement)
    candidates = ask(asked, identifier, [requirement])
    told = [[str(r) for r in asked.get_dependencies(c)] for c in candidates]
    again = [[str(r) for r in provider().get_dependencies(c)] for c in candidates]
    assert told == again
    assert len({tuple(t) for t in told}) > 1  # releases that require different things
