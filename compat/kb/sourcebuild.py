"""Source builds: a package built from a checkout is a build of its own.

Rules about prebuilt wheels — a release's exact pins (vLLM 0.9.x pins xformers 0.0.30), the ABI a
wheel was compiled for — describe what PyPI ships. A vLLM built from a git checkout against the
installed torch and xformers (unsloth's Blackwell stack: `0.9.2.dev280+g04e1642e3` beside xformers
`0.0.32+ff490c3.d20250626`) is not that wheel: its own Requires-Dist says what it needs (and the
declared-requirement check judges those), the release's pins do not. A rule says which packages it
judges as prebuilt wheels with `when: {prebuilt: [vllm, xformers]}`; a source build of any of them
takes the environment out of the rule, and the report names the package and the evidence.

Evidence, read without importing anything:
- PEP 610 direct_url.json: a VCS checkout (`vcs_info`) or a local directory (`dir_info`);
- the version's local label: `+g<sha>` (setuptools-scm, vLLM), `+<sha>` / `+<sha>.d<date>`
  (xformers), `+git<sha>` (a torch source build), a `.d<date>` dirty-tree suffix;
- a development release (`0.9.2.dev280`): not the release whose pins the knowledge base read;
- in rule examples, the long form `{version, commit}` (a git install).
CUDA and platform labels (`+cu124`, `+cpu`, `+rocm6.2`, flash-attn's `+cu12torch2.8cxx11abiTRUE`)
are prebuilt wheels' labels and are not evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from compat.engine import RuleSource
from compat.kb.conditions import FALSE
from compat.model import Condition, Tri, Verdict

if TYPE_CHECKING:
    from packaging.utils import NormalizedName
    from packaging.version import Version

    from compat.model import Facts, PackageFact

# One dot-separated part of a local label that names a commit or a dirty tree's date.
_COMMIT = re.compile(r"^(?:g|git)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}$")
_DIRTY = re.compile(r"^d\d{8}$")


def label_evidence(version: Version) -> str | None:
    """Why a version reads as a source or development build, or None for a release's."""
    for part in (version.local or "").split("."):
        if _COMMIT.match(part) or _DIRTY.match(part):
            return f"its version label +{version.local} names a commit or a dirty tree"
    if version.is_devrelease:
        return f"{version.base_version}.dev{version.dev} is a development build, not a release"
    return None


def source_evidence(fact: PackageFact) -> str | None:
    """How we know `fact` (one installed or pinned version) was built from source, if it was."""
    if fact.source == "":
        return None  # read as the release its version names
    if fact.source:
        return fact.source
    if not fact.exact:
        return None  # a range of releases is releases
    if fact.commit:
        return f"built from git at {fact.commit[:10]}"
    return label_evidence(fact.versions[0])


class Prebuilt(Condition):
    """`prebuilt: [vllm, xformers]`: the named packages, where present, are prebuilt releases."""

    names: tuple[NormalizedName, ...]
    __slots__ = ("names",)

    def __init__(self, names: tuple[NormalizedName, ...]) -> None:
        self._set(names=names)

    def evaluate(self, facts: Facts) -> Verdict:
        for name in self.names:
            fact = facts.packages.get(name)
            if fact is not None and source_evidence(fact) is not None:
                return FALSE
        return Verdict(Tri.TRUE)


class JudgedRules(RuleSource, Protocol):
    """The knowledge base as the notes ask it: its candidate rules, and which packages any rule
    judges as prebuilt wheels (compat.kb.knowledge.KnowledgeBase)."""

    def mentions(self, section: str, key: str) -> bool: ...


def source_build_notes(kb: JudgedRules, facts: Facts) -> list[str]:
    """One note per source-built package that a prebuilt-wheel rule would otherwise have judged:
    the package, the evidence, and the rules it stepped out of."""
    from compat.engine import evaluate_rule

    # Only a package some rule judges as a prebuilt wheel can step out of one: an editable
    # install of anything else (compat itself, the user's own project) costs no walk of the rules.
    built = {
        name: evidence
        for name, fact in facts.packages.items()
        if kb.mentions("prebuilt", name) and (evidence := source_evidence(fact)) is not None
    }
    if not built:
        return []
    skipped: dict[NormalizedName, list[str]] = {}
    for rule in kb.candidates_for({n: f.versions for n, f in facts.packages.items()}):
        names = [n for n in _prebuilt_names(rule.when) if n in built]
        if names and evaluate_rule(rule, _as_releases(facts, names)) is not None:
            for name in names:
                skipped.setdefault(name, []).append(rule.id)
    return [
        f"{_shown(facts.packages[name])} is a source build ({built[name]}): rules about prebuilt "
        f"wheels' pins and ABI do not apply to it ({', '.join(rules)})"
        for name, rules in sorted(skipped.items())
    ]


def _shown(fact: PackageFact) -> str:
    if fact.exact:
        return f"{fact.label} {fact.versions[0]}"
    return f"`{fact.requirement}`" if fact.requirement else fact.label


def _prebuilt_names(condition: Condition) -> Iterable[NormalizedName]:
    if isinstance(condition, Prebuilt):
        yield from condition.names
    for part in getattr(condition, "parts", ()):
        yield from _prebuilt_names(part)


def _as_releases(facts: Facts, names: Iterable[str]) -> Facts:
    """The same facts with `names` read as the releases their versions name."""
    from dataclasses import replace

    packages: Mapping[NormalizedName, PackageFact] = {
        name: fact._replace(source="") if name in names else fact
        for name, fact in facts.packages.items()
    }
    return replace(facts, packages=packages)
