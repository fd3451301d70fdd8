"""`compat check --fix` / `--diff`: the requirement lines that a finding's fix changes, rewritten.

The versions are pin's: `compat pin -r FILE...` plans and proves them (compat.resolve.pin), and
each package pin moves is written into the requirement lines that name it (the constraint pin
would write, `==VERSION`, as the line's specifier: compat.commands.reqedit keeps everything
else). Nothing is chosen here. Before anything is written, every rewritten file is resolved
again by the real resolver (offline: check's solve over the snapshot), each file on its own; a
file that no longer installs, or a resolve that cannot be made, refuses the whole fix.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from packaging.utils import NormalizedName

from compat.commands.reqedit import LineEdit, NotRewritable, apply, rewrite, split_lines
from compat.errors import EXIT_FINDINGS, EXIT_UNCHECKED, CompatError
from compat.facts.gather import EnvOptions, FactOptions
from compat.kb.knowledge import KnowledgeChoice
from compat.model import Hardware
from compat.resolve.sources.indexconfig import IndexOptions
from compat.resolve.target import TargetOptions

_REWRITABLE = ("requirement", "constraint")  # lines of a pip requirements or constraints file


@dataclass(frozen=True)
class LineFix:
    """One requirement rewritten: where, what pin moved, and why (the rules it escapes)."""

    path: str  # the file as the requirement's origin names it
    edit: LineEdit
    package: NormalizedName
    display_name: str
    version: str  # the version written
    rules: tuple[str, ...]  # the rule ids the move escapes (pin's `moved_by`)
    why: str  # pin's comment for the line ("upgrade from your pin 0.14.2 via ...")


@dataclass(frozen=True)
class FileFix:
    path: str
    old: str
    new: str


@dataclass(frozen=True)
class FixPlan:
    files: tuple[FileFix, ...]
    fixes: tuple[LineFix, ...]
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Refusal:
    """Why the fix is not written, in one line, and the exit status that says it."""

    reason: str
    exit_code: int


def plan_fix(
    paths: Sequence[Path],
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    index_options: IndexOptions,
    resolver: str,
    hardware: tuple[Hardware | None, str],
) -> FixPlan:
    """Pin's plan for the files, as line edits."""
    from compat.commands.pin import run_pin
    from compat.facts.declared.detect import read_declared
    from compat.resolve.pin.constraints import pin_comment
    from compat.resolve.pin.pinresult import PinSettings

    settings = PinSettings(requirements=tuple(paths), resolver=resolver)
    result = run_pin(
        EnvOptions(), fact_options, knowledge, index_options, settings, hardware_known=hardware
    )
    declared = read_declared(paths)
    markers = {**result.env.markers, "extra": ""}
    texts: dict[str, list[str]] = {}
    notes: list[str] = []
    fixes: list[LineFix] = []
    for pin in result.plan.pins:
        if not pin.changed:
            continue
        label = pin.display_name or pin.name
        if pin.build_change:
            notes.append(
                f"fix: {label} moves to its {pin.version.local} build, which a requirement "
                "line cannot choose (an index URL does): see `compat pin -r`"
            )
            continue
        if not pin.listed:
            notes.append(
                f"fix: {label}: offline, no release list holds the version pin chose "
                f"(it would write {label}{pin.range}): not rewritten"
            )
            continue
        version = str(pin.version.public)
        named = [item for item in declared.requirements if item.name == pin.name]
        lines = [
            item
            for item in named
            if item.kind in _REWRITABLE
            and item.url is None
            and item.origin.line is not None
            and _is_requirements_file(Path(item.origin.path))
            and (item.marker is None or item.marker.evaluate(markers))
        ]
        if not lines:
            where = f" ({named[0].origin}, not a requirements file)" if named else ""
            notes.append(
                f"fix: {label}=={version} ({pin_comment(pin)}): no requirement line to "
                f"rewrite{where}; add it, or use `compat pin -r` for a constraints file"
            )
            continue
        for item in lines:
            if item.pinned is not None and str(item.pinned) == version:
                continue
            origin = item.origin
            try:
                edit = rewrite(
                    _lines(texts, origin.path), origin.line or 0, pin.name, f"=={version}"
                )
            except NotRewritable as why:
                notes.append(f"fix: {origin.path}: {why}")
                continue
            except (OSError, UnicodeDecodeError) as error:
                notes.append(f"fix: {origin.path}: cannot read it again: {error}")
                continue
            if edit.hashes_dropped:
                notes.append(
                    f"fix: {origin}: {edit.hashes_dropped} --hash option(s) of {label} dropped: "
                    f"they are the old release's; add {label} {version}'s hashes "
                    "(uv pip compile --generate-hashes, pip-compile --generate-hashes)"
                )
            fixes.append(
                LineFix(origin.path, edit, pin.name, label, version, pin.moved_by, pin_comment(pin))
            )
    files = []
    for path, lines_ in texts.items():
        edits = _unique([f.edit for f in fixes if f.path == path])
        if edits:
            files.append(FileFix(path, "".join(lines_), apply(lines_, edits)))
    return FixPlan(tuple(files), tuple(fixes), tuple(notes))


def _unique(edits: Sequence[LineEdit]) -> list[LineEdit]:
    seen: dict[int, LineEdit] = {}
    for edit in edits:
        seen.setdefault(edit.first, edit)
    return [seen[first] for first in sorted(seen)]


def _lines(texts: dict[str, list[str]], path: str) -> list[str]:
    if path not in texts:
        # Bytes decoded as they are: no newline translation, so CRLF stays CRLF.
        texts[path] = split_lines(Path(path).read_bytes().decode("utf-8"))
    return texts[path]


def _is_requirements_file(path: Path) -> bool:
    from compat.facts.declared.detect import file_kind

    try:
        return file_kind(path) == "requirements"
    except CompatError:
        return False


def validate_fix(
    plan: FixPlan,
    paths: Sequence[Path],
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index_options: IndexOptions,
    resolver: str,
    resolver_timeout: float | None,
) -> Refusal | None:
    """Resolve every given file as the fix leaves it (a copy in a temporary directory, with the
    files it includes), each on its own; None when each installs, else why not."""
    from compat.facts.declared.detect import read_declared

    everything = [Path(p).resolve() for p in read_declared(paths).files]
    everything += [Path(p).resolve() for p in paths]
    root = Path(os.path.commonpath([str(p.parent) for p in everything]))
    rewritten = {Path(f.path).resolve(): f.new for f in plan.files}
    with tempfile.TemporaryDirectory(prefix="compat-fix-") as tmp:
        for source in everything:
            copy = Path(tmp) / source.relative_to(root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            if source in rewritten:
                copy.write_bytes(rewritten[source].encode("utf-8"))
            elif source.is_file():
                copy.write_bytes(source.read_bytes())
        for path in paths:
            copy = Path(tmp) / Path(path).resolve().relative_to(root)
            refusal = _resolves(
                copy, str(path), fact_options, knowledge, target, index_options, resolver,
                resolver_timeout,
            )  # fmt: skip
            if refusal is not None:
                return refusal
    return None


def _resolves(
    copy: Path,
    shown: str,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index_options: IndexOptions,
    resolver: str,
    resolver_timeout: float | None,
) -> Refusal | None:
    """One rewritten file, resolved for the target as check resolves it."""
    if index_options.offline:
        from compat.commands.check import run_check

        report, _ = run_check(
            [copy], fact_options, knowledge, target, index_options, resolver=resolver,
            resolver_timeout=resolver_timeout,
        )  # fmt: skip
        if report.resolve_failed:
            return Refusal(f"{shown} as fixed: {report.resolve_failed}", EXIT_UNCHECKED)
        return None
    from compat.commands.check import read_files
    from compat.resolve.check.declared import applicable
    from compat.resolve.check.judge import resolve_declared
    from compat.resolve.resolvers.resolver import ResolutionFailed, ResolveNotMade

    notes: list[str] = []
    declared_set, options, (markers, _) = read_files([copy], target, notes)
    declared = applicable(declared_set.requirements, markers)
    try:
        resolve_declared(
            declared, declared_set, options, index_options, notes, resolver, resolver_timeout,
            refusal_raises=True,
        )  # fmt: skip
    except ResolutionFailed as error:
        said = " ".join(str(error.message).split())
        return Refusal(
            f"{shown} as fixed cannot be installed ({error.tool}: {said})", EXIT_FINDINGS
        )
    except ResolveNotMade as error:
        return Refusal(f"{shown} as fixed could not be resolved: {error.message}", EXIT_UNCHECKED)
    return None


def with_path(plan: FixPlan, shown: dict[str, str]) -> FixPlan:
    """The plan with its paths named as `shown` maps them (for the diff's headers)."""
    return replace(
        plan,
        files=tuple(replace(f, path=shown.get(f.path, f.path)) for f in plan.files),
    )


def fixes_for(finding: Any, fixes: Sequence[LineFix]) -> list[LineFix]:
    """The line fixes that answer a finding: a move that escapes its rule, or a rewrite of a
    package it names."""
    names = {p.name for p in finding.packages}
    return [f for f in fixes if finding.rule.id in f.rules or f.package in names]
