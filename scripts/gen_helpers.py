"""Helpers scripts/gen_rules.py calls where a family needs more than "one requirement per release".

* `PythonScoped` / `declared_by_python`: a requirement that holds only on some Pythons (vLLM
  0.8.3-0.11.0 pin numba 0.60.0 on Python 3.9 and 0.61.x above it). The family's branch then
  carries a `python:` condition, so the 3.9 pin is not read as a violation of the 3.10+ one.
* `floor_fix`: the fix of a floor family whose newest floor no recorded release of the dependency
  meets (transformers 5.24.0 asks for PEFT 0.22.0 while PEFT's newest release is 0.21.2). Telling
  the user to install a release that does not exist is no fix: keep the package below the
  release that raised the floor instead, and say so.

Everything here reads the recorded inputs only (offline, deterministic), like gen_rules itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version


class PythonScoped(SpecifierSet):
    """A declared specifier that holds only where the target Python is in `python`."""

    def __init__(self, spec: str, python: str) -> None:
        super().__init__(spec)
        self.python = python

    def __eq__(self, other: object) -> bool:
        # Releases group together only when they say the same thing on the same Pythons.
        return super().__eq__(other) and getattr(other, "python", None) == self.python

    def __hash__(self) -> int:
        return hash((str(self), self.python))


def _spec_on(entry: dict[str, Any], dep: str, env: dict[str, str]) -> str | None:
    found: SpecifierSet | None = None
    for line in entry.get("requires_dist", []):
        requirement = Requirement(line)
        if requirement.name.lower() != dep:
            continue
        marker: Marker | None = requirement.marker
        if marker is not None and not marker.evaluate({**env, "extra": ""}):
            continue
        found = requirement.specifier if found is None else found & requirement.specifier
    return None if found is None else str(found)


def python_span(pythons: Sequence[str], every: Sequence[str]) -> str:
    """`["3.10", ..., "3.15"]` out of `["3.8", ..., "3.15"]` -> `>=3.10`; a set that is not
    everything from some Python upward cannot be written as one specifier, so it stops here."""
    ordered = sorted(every, key=Version)
    low = min(pythons, key=Version)
    if sorted(pythons, key=Version) != ordered[ordered.index(low) :]:
        raise SystemExit(f"gen_helpers: Pythons {pythons} are not a range from {low} upward")
    return f">={low}"


def declared_by_python(
    releases: Callable[[], list[dict[str, Any]]],
    dep: str,
    env: dict[str, str],
    pythons: Sequence[str],
) -> Callable[[], list[tuple[Version, Any]]]:
    """Release -> the specifier it declares on `dep` for `env`'s Python, scoped to the Pythons
    where that specifier applies when the release declares different things on different ones."""

    def read() -> list[tuple[Version, Any]]:
        out: list[tuple[Version, Any]] = []
        for entry in releases():
            by_python = {
                py: _spec_on(
                    entry, dep, {**env, "python_version": py, "python_full_version": f"{py}.0"}
                )
                for py in pythons
            }
            main = by_python[env["python_version"]]
            if main is None:
                out.append((Version(entry["version"]), None))
            elif len(set(by_python.values())) == 1:
                out.append((Version(entry["version"]), SpecifierSet(main)))
            else:
                where = [py for py, spec in by_python.items() if spec == main]
                out.append(
                    (Version(entry["version"]), PythonScoped(main, python_span(where, pythons)))
                )
        return out

    return read


def floor_fix(
    values: Callable[[], list[tuple[Version, Any]]],
    package: str,
    dep: str,
    dep_releases: Sequence[Version],
    summary: str,
) -> tuple[str, list[str]]:
    """The summary and constraints of a floor family's fix: the newest floor when some recorded
    release of `dep` meets it; otherwise the newest floor that is met, with `package` kept below
    the first release whose floor nothing meets."""
    floors = [(version, spec) for version, spec in values() if spec is not None]
    met = [
        (version, spec)
        for version, spec in floors
        if any(spec.contains(v, prereleases=False) for v in dep_releases)
    ]
    newest = floors[-1][1]
    if met and met[-1][1] == newest:
        return summary, [f"{dep}{newest}"]
    first_unmet = next(v for v, spec in floors if spec == newest)
    newest_dep = max(dep_releases)
    summary = (
        f"no {dep} release meets {package} {first_unmet}'s floor ({dep}{newest}; the newest recorded "
        f"is {newest_dep}): keep {package} below {first_unmet} with {dep}{met[-1][1]} until "
        f"{dep} publishes such a release"
    )
    return summary, [f"{dep}{met[-1][1]}", f"{package}<{first_unmet}"]


def scoped(block: dict[str, Any], python: str | None, *, example: bool = False) -> dict[str, Any]:
    """A branch (`python: ">=3.10"`) or an example (`python: "3.10"`, the lowest such Python) of a
    Python-scoped requirement; anything else unchanged."""
    if python is None:
        return block
    return {**block, "python": python.removeprefix(">=") if example else python}


def below_scope(example: dict[str, Any], python: str, pythons: Sequence[str]) -> dict[str, Any]:
    """The same example on the newest Python outside the scope: the near miss (vLLM 0.8.3's 3.9
    pin is numba 0.60.0, so 0.60.0 there is right)."""
    low = Version(python.removeprefix(">="))
    below = max((p for p in pythons if Version(p) < low), key=Version)
    return {**example, "python": below}


# A git build's version label in examples (setuptools-scm style: +g<sha>).
SOURCE_LABEL = "g04e1642e3"


def with_prebuilt(when: dict[str, Any], prebuilt: Sequence[str]) -> dict[str, Any]:
    """`when` with `prebuilt: [...]`: the packages this family judges as prebuilt wheels."""
    return {**when, "prebuilt": list(prebuilt)} if prebuilt else when


def source_built(affected: dict[str, Any], prebuilt: Sequence[str]) -> list[dict[str, Any]]:
    """The near miss of a prebuilt-wheel family: its first affected example with each prebuilt
    package built from a git checkout instead (the same release number, a `+g<sha>` label)."""
    out = []
    for name in prebuilt:
        version = affected["packages"].get(name)
        if version is not None:
            joint = "." if "+" in str(version) else "+"  # after a label such as +cu124
            packages = {**affected["packages"], name: f"{version}{joint}{SOURCE_LABEL}"}
            out.append({**affected, "packages": packages})
    return out


KB_INPUTS = "compat/data/kb-inputs.json"


def kb_inputs(inputs: Path) -> str:
    """compat/data/kb-inputs.json: when the knowledge base's inputs were read and the newest
    release of each package they saw. Reports state the fetch dates (how old the knowledge is)
    and call out an installed or declared release newer than anything seen. Written from the
    recorded inputs only, so the same inputs give the same bytes."""
    fetched: dict[str, str] = {}
    newest: dict[str, Version] = {}
    for path in sorted(inputs.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("fetched"):
            fetched[path.stem] = data["fetched"]
        project = data.get("package")
        if not project:
            continue  # a table of builds, not a package's releases (torch-pypi-builds.json)
        names = [*data.get("versions", []), *(e["version"] for e in data.get("releases", []))]
        if names:
            top = max(Version(v) for v in names)
            newest[project] = max(top, newest.get(project, top))
    document = {
        "schema": "compat.kb-inputs/1",
        "note": "GENERATED by scripts/gen_rules.py from scripts/inputs/*.json; do not edit",
        "fetched": {"oldest": min(fetched.values()), "newest": max(fetched.values())},
        "newest_seen": {name: str(newest[name]) for name in sorted(newest)},
    }
    return json.dumps(document, indent=1) + "\n"
