"""An install the resolver proves cannot happen: the first verdict of check (issue 42 item 1).

pip and uv answer "No solution found" / "ResolutionImpossible" when no set of releases meets
every requirement of the install for the target (`transformers==4.30.0` requires
`tokenizers<0.14`, the file pins `tokenizers==0.20.0`). That is a fact about the file, not a
failure of the check: one `affected` finding, id `install:unsatisfiable`, kind `install`,
severity error, located at the requirement lines the resolver's explanation names (each line
whose package it mentions), carrying the explanation as one paragraph. Offline, compat's solve
over its dependency snapshot proves the same where no release it records fits (as of the
snapshot's date, which the finding says).

Every other finding about a package the explanation names describes an install that cannot
happen as written: `matched` says so (mark_conflicted).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

from compat.facts.declared.entries import Declared
from compat.kb.verified import verified_finding
from compat.model import Finding, Fix, MatchedPackage

ID = "install:unsatisfiable"
KIND = "install"
REFERENCE = "https://pip.pypa.io/en/stable/topics/dependency-resolution/"
AS_WRITTEN = (
    f"describes an install that cannot happen as written ({ID}: no release set meets every "
    "requirement of these files for the target)"
)


@cache
def _mention(name: str) -> re.Pattern[str]:
    """`name` as a resolver writes it: any of - _ . between its words, any case, never a part of
    a longer name (torch is not torchvision)."""
    words = re.split(r"[-_.]+", name)
    return re.compile(
        r"(?<![\w.-])" + r"[-_.]".join(re.escape(w) for w in words) + r"(?![\w-])", re.IGNORECASE
    )


def mentioned(explanation: str, names: Iterable[str]) -> list[str]:
    """The names (in the order given) the explanation speaks of."""
    return [name for name in names if _mention(str(name)).search(explanation)]


_PREFIX = re.compile(r"^(?:error:|ERROR:|cause:|Caused by:|×|├─▶|╰─▶)\s*")
_SPEC = re.compile(r"^[A-Za-z0-9][\w.\[\],-]*\s*(?:[<>=!~]=?|===)")


def readable(explanation: str) -> str:
    """The resolver's explanation (its lines joined by "; ", compat.resolve.resolvers.resolver's
    quoting) as one paragraph: prefixes dropped, a list of alternatives (uv's "depends on one
    of:") joined by "or", sentences ended."""
    pieces = [_PREFIX.sub("", p.strip()) for p in explanation.split("; ")]
    pieces = [" ".join(p.split()) for p in pieces if p.strip()]
    out: list[str] = []
    alternatives = False
    for piece in pieces:
        if out and alternatives and _SPEC.match(piece):
            out[-1] += (" " if out[-1].endswith(":") else " or ") + piece
            continue
        alternatives = piece.endswith("one of:")
        if out and not out[-1].endswith((".", ":", ",", ";")) and piece[:1].isupper():
            out[-1] += "."  # a new sentence; a lower-case line continues one (uv wraps)
        out.append(piece)
    return " ".join(out)


def unsatisfiable_finding(explanation: str, by: str, declared: Sequence[Declared]) -> Finding:
    """The finding for an install `by` (the resolver, "uv 0.9.2", or compat's offline solve)
    proves impossible: at each requirement line whose package the explanation names, else at
    the install's first requirement line."""
    lines = [i for i in declared if i.kind in ("requirement", "constraint")]
    named = set(mentioned(explanation, dict.fromkeys(str(i.name) for i in lines)))
    at = [item for item in lines if str(item.name) in named] or lines[:1]
    packages = [
        MatchedPackage(item.name, str(item.pinned or item.specifier) or "any version", item.origin)
        for item in at
    ]
    return verified_finding(
        ID,
        # The explanation is the finding: every format shows the title.
        f"these requirements cannot be installed together for the target ({by}): "
        + readable(explanation),
        Fix(
            "change the lines the explanation names so that one release set meets them all "
            "(the explanation says which requirement excludes which)"
        ),
        kind=KIND,
        origin=packages[0].origin if packages else None,
        packages=packages,
        matched=[f"{item.origin}: {item.raw}" for item in at],
        references=(REFERENCE,),
    )


def mark_conflicted(findings: Sequence[Finding], explanation: str) -> list[Finding]:
    """Findings about a package the explanation names, each saying it describes an install that
    cannot happen as written (the verdict above them is the unsatisfiable install)."""
    import dataclasses

    out = []
    for finding in findings:
        names = [str(p.name) for p in finding.packages]
        if (
            finding.rule.id != ID
            and mentioned(explanation, names)
            and AS_WRITTEN not in (finding.matched)
        ):
            finding = dataclasses.replace(finding, matched=(*finding.matched, AS_WRITTEN))
        out.append(finding)
    return out
