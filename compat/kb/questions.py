"""Questions about a rule, answered from its validated (plain) form: which packages it speaks of,
which specifiers it states per package, which versions it ties to a commit, which fact keys it
reads, how many table rows it stands for. The only reader of a rule's raw `when:` outside the
compiler (compat.kb.knowledge); tests/product/test_rule_language.py forbids reads anywhere
else, so a walk of the rule language is written once, here, and cannot drift into copies."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import InvalidVersion, Version

# A rule about torch's CUDA build is a rule about torch: moving torch (or its build) escapes it.
BUILD_PACKAGES = {"torch_cuda": "torch", "cuda_runtime": "torch"}

Plain = Mapping[str, Any]  # one validated rule (compat.kb.knowledge's plain dicts)


def rule_packages(plain: Plain) -> set[str]:
    """The packages the rule's conditions speak of: named ones, torch for a CUDA-build
    condition, a table's packages for a derived one (any-branches included)."""
    return _packages(plain["when"])


def _packages(when: Mapping[str, Any]) -> set[str]:
    from compat.kb.derived import PACKAGES as DERIVED_PACKAGES

    names: set[str] = set(when.get("packages", {}))
    names |= {BUILD_PACKAGES[key] for key in when.get("build", {}) if key in BUILD_PACKAGES}
    for key in when.get("derived", {}):
        names |= set(DERIVED_PACKAGES[key])
    for branch in when.get("any", []):
        names |= _packages(branch)
    return names


def package_specs(plain: Plain, out: dict[NormalizedName, set[str]]) -> None:
    """Every specifier the rule's conditions state, per package, added to `out` (any-branches
    included; a table's release specifiers for a derived condition)."""
    _collect_specs(plain["when"], out)


def _collect_specs(when: Mapping[str, Any], out: dict[NormalizedName, set[str]]) -> None:
    from compat.kb.derived import release_specs

    for name, condition in when.get("packages", {}).items():
        spec = condition["version"] if isinstance(condition, dict) else condition
        out.setdefault(NormalizedName(name), set()).add(str(spec))
    for key in when.get("derived", {}):
        # a table tells releases apart that no `packages:` condition names
        for name, specs in release_specs(key).items():
            out.setdefault(NormalizedName(name), set()).update(specs)
    for branch in when.get("any", []):
        _collect_specs(branch, out)


def every_named_specifier(plain: Plain) -> Iterator[tuple[str, str]]:
    """Every (package, specifier) the rule's `packages:` conditions state, the package as
    written, any-branches after their level."""

    def walk(when: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
        for key, condition in when.get("packages", {}).items():
            yield key, condition["version"]
        for branch in when.get("any", []):
            yield from walk(branch)

    return walk(plain["when"])


def commit_versions(plain: Plain, name: str, commit: str) -> set[Version]:
    """The releases the rule ties to this commit of `name` (a condition keyed on a commit window
    names the release its commits belong to)."""
    from compat.specifiers import specifier_set

    found: set[Version] = set()

    def walk(when: Mapping[str, Any]) -> None:
        packages = when.get("packages", {})
        spec = packages.get(name) if isinstance(packages, dict) else None
        if isinstance(spec, dict):
            commits = [str(c).lower() for c in spec.get("commit") or ()]
            if any(commit.startswith(c) or c.startswith(commit) for c in commits):
                for item in specifier_set(str(spec.get("version", ""))):
                    if item.operator in ("==", "==="):
                        try:
                            found.add(Version(item.version))
                        except InvalidVersion:
                            continue
        for branch in when.get("any", []) or []:
            walk(branch)

    walk(plain["when"])
    return found


def fact_keys(plain: Plain) -> set[str]:
    """`section.key` for every hardware, build, derived and usage condition of the rule (and
    `prebuilt.NAME` for each package it judges as a prebuilt wheel)."""
    from compat.kb.knowledge import condition_keys

    return condition_keys(plain["when"])


def table_rows(plain: Plain) -> int:
    """How many rules the rule stands for (a table-driven rule: one per table row it decides)."""
    from compat.kb.derived import counts_as

    return counts_as(plain["when"])
