"""A source distribution that fails to build on the target: what `pip install` of the file hits
there, so an `affected` finding (id `build-fails:NAME`, kind `build`), not a tool failure.

The resolver decides whose failure a build is (compat.resolve.resolvers.resolver: the target's only on
positive evidence, else no verdict, exit 3); this names it at the line that asks for the
package, or, for a package the install pulls in, at the first requirement of the install.
"""

from __future__ import annotations

from collections.abc import Sequence

from compat.facts.declared.entries import Declared
from compat.kb.verified import verified_finding
from compat.model import Finding, Fix, MatchedPackage
from compat.resolve.resolvers.resolver import BuildFailed

KIND = "build"


def build_failure(error: BuildFailed, declared: Sequence[Declared]) -> tuple[Finding, str]:
    """The finding for a build that fails on the target, and the note that says the install was
    not resolved because of it."""
    asking = [
        i for i in declared if i.name == error.name and i.kind in ("requirement", "constraint")
    ]
    line = next(iter(asking), None) or next((i for i in declared if i.kind == "requirement"), None)
    pulled = "" if asking else " (the install pulls it in)"
    origin = line.origin if line is not None else None
    where = [f"{line.origin}: {line.raw}"] if line is not None else []
    finding = verified_finding(
        f"build-fails:{error.name}",
        f"{error.name} {error.version}{pulled} fails to build on the target's Python "
        f"{error.python}: `{error.raised}`; pip install fails the same way",
        Fix(
            f"require a release of {error.name} that builds on Python {error.python} (or has a "
            f"wheel for it), or install for a Python it supports"
        ),
        kind=KIND,
        origin=origin,
        packages=[MatchedPackage(error.name, error.version, origin)],
        matched=[*where, f"the build on Python {error.python} raised: {error.raised}"],
    )
    note = (
        f"{error.tool} cannot install these requirements for the target: {error.message} "
        f"(build-fails:{error.name}) — ranges were judged over every version they allow"
    )
    return finding, note
