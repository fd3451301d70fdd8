"""The import relation between releases, from compat/data/python-imports.json (issue 41, item 2):
which names each read release of a defining package (huggingface_hub, transformers, accelerate,
datasets, tokenizers, PEFT, DeepSpeed, vLLM, torch) defines, and which names each read release of
its importers imports from it at import time, read from the releases' wheels (or sdists) by
scripts/gen_import_table.py with doctor's own readers. A `from M import X` whose M the defining
release lacks is M's break (ModuleNotFoundError), once per module.

`broken` judges two releases as doctor judges two installed ones: the importer's release imports
a (module, name) at its modules' top level (column 0, unguarded) and the defining release lacks
it. A release the table did not read, or a module whose names cannot be known, is no answer:
nothing is claimed. A finding has doctor's id (`python-import:DIST:MODULE:NAME`), kind `python`,
and names the releases that do define the name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from compat.kb.releasetable import ReleaseTable
from compat.kb.verified import verified_finding
from compat.model import Evidence, Finding, Fix, MatchedPackage, Severity, Status

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

    from compat.model import PackageFact

KIND = "python"
TABLE = "compat/data/python-imports.json"


class Family(NamedTuple):
    defining: str  # normalized distribution name
    module: str  # its top-level module
    releases: tuple[str, ...]  # read, oldest first
    lacking: Mapping[str, frozenset[str]]  # "module:name" -> releases that lack it
    unknown: Mapping[str, frozenset[str]]  # "module:name" -> releases whose names are unknown
    # importer -> release -> [module, name, "file:line", reached from `import <top>`]
    importers: Mapping[str, Mapping[str, Sequence[Sequence[Any]]]]
    # the table's own spelling of each release it read, found by any spelling (versions.
    # release_key, as every generated table): "" for the defining package, else the importer
    spellings: Mapping[str, ReleaseTable[str]]


class Broken(NamedTuple):
    importer: str
    importer_release: str
    defining: str
    defining_release: str
    module: str
    name: str  # '' where the module itself is missing
    where: str  # the importing file:line in the importer's wheel
    reached: bool  # `import <importer>` runs the importing module
    defined_in: tuple[str, ...]  # the read releases of `defining` that define it


def _families(data: Any) -> tuple[Family, ...]:
    from packaging.version import Version

    return tuple(
        Family(
            str(f["defining"]),
            str(f["module"]),
            tuple(sorted(f["releases"], key=Version)),
            {k: frozenset(v["lacking"]) for k, v in f["pairs"].items()},
            {k: frozenset(v["unknown"]) for k, v in f["pairs"].items()},
            f["importers"],
            {
                "": ReleaseTable((r, r) for r in f["releases"]),
                **{i: ReleaseTable((r, r) for r in rows) for i, rows in f["importers"].items()},
            },
        )
        for f in data["families"]
    )


@cache
def families() -> tuple[Family, ...]:
    text = resources.files("compat").joinpath("data/python-imports.json").read_text("utf-8")
    return _families(json.loads(text))


def _spelled(release: str, spellings: ReleaseTable[str] | None) -> str | None:
    """The table's spelling of `release`, or None where the table did not read it (or it is no
    version: only a row's exact spelling could name it, and rows are versions)."""
    from compat.versions import parse_version

    try:
        return None if spellings is None else spellings.get(parse_version(release))
    except ValueError:
        return None


def defined_in(family: Family, key: str) -> tuple[str, ...]:
    """The read releases that define `key` ("module:name")."""
    lacking = family.lacking.get(key, frozenset())
    unknown = family.unknown.get(key, frozenset())
    return tuple(r for r in family.releases if r not in lacking and r not in unknown)


def broken(
    importer: str,
    importer_release: str,
    defining: str,
    defining_release: str,
    table: Sequence[Family] | None = None,
) -> list[Broken]:
    """What the importer's release imports that the defining release lacks (empty where the table
    read neither or they do not break). `table`: the shipped one unless given."""
    found: list[Broken] = []
    for family in families() if table is None else table:
        if family.defining != defining:
            continue
        # the table's own spelling of each release: 2.2, 2.2.0 and 2.2.0+cu121 find one row
        spelled = _spelled(defining_release, family.spellings[""])
        if spelled is None:
            continue
        defining_release = spelled
        rows = family.importers.get(importer, {}).get(
            _spelled(importer_release, family.spellings.get(importer)) or importer_release
        )
        if not rows:
            continue
        seen: set[str] = set()
        for module, name, where, reached in sorted(rows, key=lambda r: (not r[3], r[2])):
            key = f"{module}:{name}"
            if name and defining_release in family.lacking.get(f"{module}:", frozenset()):
                # the release lacks the module itself: `from M import X` fails with
                # ModuleNotFoundError for M, whichever names it asks for
                key, name = f"{module}:", ""
            if key in seen or defining_release not in family.lacking.get(key, frozenset()):
                continue
            seen.add(key)
            found.append(
                Broken(
                    importer,
                    importer_release,
                    defining,
                    defining_release,
                    module,
                    name,
                    where,
                    bool(reached),
                    defined_in(family, key),
                )
            )
    return found


def spans(releases: Sequence[str], chosen: Iterable[str]) -> str:
    """`chosen` as runs over the table's ordered `releases`: '0.20.0–0.25.2, 1.0.0'."""
    wanted = set(chosen)
    runs: list[list[str]] = []
    previous = False
    for release in releases:
        if release in wanted:
            if previous:
                runs[-1].append(release)
            else:
                runs.append([release])
        previous = release in wanted
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs) or "none read"


def defining_releases(module: str, name: str) -> tuple[str, str] | None:
    """(defining distribution, the releases read that define `name` in `module`, as spans) where
    the table has the pair; None where it does not know it."""
    key = f"{module}:{name}"
    for family in families():
        if key in family.lacking:
            return family.defining, spans(family.releases, defined_in(family, key))
    return None


RULE_PREFIX = "import-table-"  # compat/matrix/python-imports-table.yaml, the same pairs as rules


def _slug(text: str) -> str:
    return text.lower().replace("_", "-").replace(".", "-")


def rule_id(importer: str, module: str, name: str) -> str:
    """The generated rule of a broken import (the knowledge base's ids are lowercase words joined
    by '-'): pin avoids the pair through it, as it avoids any rule."""
    return f"{RULE_PREFIX}{importer}-{_slug(module)}" + (f"-{_slug(name)}" if name else "")


def with_import_findings(
    findings: Sequence[Finding], packages: Mapping[NormalizedName, PackageFact]
) -> list[Finding]:
    """`findings` with the install's broken pairs as doctor's `python` findings; a generated
    rule's finding that one of them restates is dropped (one finding per break)."""
    found = import_findings(packages)
    restated: set[str] = set()
    modules: set[str] = set()  # a module the release lacks: every name rule from it restates it
    for f in found:
        if f.packages:
            _kind, _dist, module, *name = f.rule.id.split(":")
            importer = str(f.packages[0].name)
            restated.add(rule_id(importer, module, name[0] if name else ""))
            if not name:
                modules.add(rule_id(importer, module, "") + "-")
    return [
        f
        for f in findings
        if f.rule.id not in restated and not any(f.rule.id.startswith(m) for m in modules)
    ] + found


def import_findings(packages: Mapping[NormalizedName, PackageFact]) -> list[Finding]:
    """The broken pairs among a resolved install's packages (one version each)."""
    single = {str(n): str(p.versions[0]) for n, p in packages.items() if len(p.versions) == 1}
    findings: list[Finding] = []
    for family in families():
        if family.defining not in single:
            continue
        for importer in family.importers:
            if importer in single:
                # only what `import <importer>` runs: a module it does not run fails only for
                # code that imports it, which the requirements do not show (doctor asks it of
                # the installed files as `possible`)
                findings += [
                    finding(b, family, packages)
                    for b in broken(
                        importer, single[importer], family.defining, single[family.defining]
                    )
                    if b.reached
                ]
    return findings


def finding(b: Broken, family: Family, packages: Mapping[NormalizedName, PackageFact]) -> Finding:
    statement = f"from {b.module} import {b.name}" if b.name else f"import {b.module}"
    error = (
        f"ImportError: cannot import name '{b.name}' from '{b.module}'"
        if b.name
        else f"ModuleNotFoundError: No module named '{b.module}'"
    )
    what = f"`{b.name}`" if b.name else f"the module {b.module}"
    top = b.where.partition("/")[0]
    when = (
        f"`import {top}` fails with {error}"
        if b.reached
        else f"importing the module at {b.where} fails with {error} (`import {top}` does not)"
    )
    defined = spans(family.releases, b.defined_in)
    title = (
        f"{b.importer} {b.importer_release}: `{statement}` ({b.where}): {b.defining} "
        f"{b.defining_release} does not define {what} in {b.module}; {when}. The releases of "
        f"{b.defining} that define it (of those read): {defined}"
    )
    importer = packages.get(cast("NormalizedName", b.importer))
    defining = packages.get(cast("NormalizedName", b.defining))
    return verified_finding(
        id=f"python-import:{b.importer}:{b.module}" + (f":{b.name}" if b.name else ""),
        title=title,
        fix=Fix(
            f"a release of {b.defining} that defines {what} ({defined}), or a release of "
            f"{b.importer} that no longer imports it"
        ),
        kind=KIND,
        origin=importer.origin if importer is not None else None,
        packages=(
            MatchedPackage(
                cast("NormalizedName", b.importer),
                b.importer_release,
                importer.origin if importer is not None else None,
            ),
            MatchedPackage(
                cast("NormalizedName", b.defining),
                b.defining_release,
                defining.origin if defining is not None else None,
            ),
        ),
        matched=(
            f"{b.importer} {b.importer_release} {b.where}: {statement} ({TABLE})",
            f"{b.defining} {b.defining_release}: {b.module} defines no `{b.name}` ({TABLE})"
            if b.name
            else f"{b.defining} {b.defining_release}: no module {b.module} ({TABLE})",
        ),
        severity=Severity.ERROR,
        evidence=Evidence.VERIFIED,
        status=Status.AFFECTED if b.reached else Status.POSSIBLE,
    )
