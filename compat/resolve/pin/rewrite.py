"""pin's plan written into the requirement lines that name its packages (`check --fix`): the
constraint pin would write (`==VERSION`) as each line's specifier, everything else on the line
kept (compat.resolve.pin.reqedit). The sibling of compat.resolve.pin.constraints, which writes the
same plan as a constraints file."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.errors import CompatError
from compat.model import Status
from compat.resolve.pin.constraints import pin_comment
from compat.resolve.pin.reqedit import (
    LineEdit,
    NotRewritable,
    apply,
    rewrite,
    rewrite_toml_string,
    split_lines,
)
from compat.resolve.pin.solver import Pin, PinPlan

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


HashesOf = Callable[[NormalizedName, Version], list[str]]


def plan_rewrite(
    plan: PinPlan,
    declared: Sequence[Any],
    target_markers: Mapping[str, str],
    hashes_of: HashesOf | None = None,
) -> FixPlan:
    """Each package the plan moves, written into the requirement lines (for the target) that
    name it; what cannot be written is a note. `hashes_of`: the sha256 of every file of a
    release, as the index states them ([] when it does not state one for each): a line that had
    `--hash` options gets the new release's, so a file in pip's hash-checking mode (every
    requirement hashed, or none) still installs."""
    markers = {**target_markers, "extra": ""}
    texts: dict[str, list[str]] = {}
    notes: list[str] = []
    fixes: list[LineFix] = []
    for pin in plan.pins:
        if not pin.changed:
            continue
        version = _writable(pin, notes)
        if version is None:
            continue
        lines = _lines_naming(pin, declared, markers, notes)
        for item in lines:
            fix = _line_fix(pin, item, version, texts, notes, hashes_of)
            if fix is not None:
                fixes.append(fix)
    if not any(pin.changed for pin in plan.pins):
        notes.append("fix: nothing to rewrite: pin moves no package (`compat pin -r` says why)")
    notes += [
        f"fix: {u.rule.id} stays: {u.why}" for u in plan.unresolved if u.status is Status.AFFECTED
    ]
    files = []
    for path, lines_ in texts.items():
        edits = _unique([f.edit for f in fixes if f.path == path])
        if edits:
            files.append(FileFix(path, "".join(lines_), apply(lines_, edits)))
    return FixPlan(tuple(files), tuple(fixes), tuple(notes))


def _writable(pin: Pin, notes: list[str]) -> str | None:
    """The version a requirement line can say, or None with a note on why it cannot."""
    label = pin.display_name or pin.name
    if pin.build_change:
        notes.append(
            f"fix: {label} moves to its {pin.version.local} build, which a requirement "
            "line cannot choose (an index URL does): see `compat pin -r`"
        )
        return None
    if not pin.listed:
        notes.append(
            f"fix: {label}: offline, no release list holds the version pin chose "
            f"(it would write {label}{pin.range}): not rewritten"
        )
        return None
    return str(pin.version.public)


def _lines_naming(
    pin: Pin, declared: Sequence[Any], markers: Mapping[str, str], notes: list[str]
) -> list[Any]:
    """The requirement-file lines for the target that name the pin's package."""
    named = [item for item in declared if item.name == pin.name]
    lines = [
        item
        for item in named
        if item.kind in _REWRITABLE
        and item.url is None
        and item.origin.line is not None
        and _kind(Path(item.origin.path)) in ("requirements", "pyproject")
        and (item.marker is None or item.marker.evaluate(markers))
    ]
    if not lines:
        label = pin.display_name or pin.name
        where = f" ({named[0].origin}, not a requirements file or pyproject.toml)" if named else ""
        notes.append(
            f"fix: {label}=={pin.version.public} ({pin_comment(pin)}): no requirement line to "
            f"rewrite{where}; add it, or use `compat pin -r` for a constraints file"
        )
    return lines


def _line_fix(
    pin: Pin,
    item: Any,
    version: str,
    texts: dict[str, list[str]],
    notes: list[str],
    hashes_of: HashesOf | None,
) -> LineFix | None:
    label = pin.display_name or pin.name
    if item.pinned is not None and str(item.pinned) == version:
        return None
    origin = item.origin
    try:
        lines, spec = _lines(texts, origin.path), f"=={version}"
        if _kind(Path(origin.path)) == "pyproject":
            edit = rewrite_toml_string(lines, origin.line or 0, pin.name, item.raw, spec)
        else:
            edit = rewrite(lines, origin.line or 0, pin.name, spec)
            if edit.hashes_dropped and hashes_of is not None:
                hashes = hashes_of(pin.name, pin.version)
                if hashes:
                    edit = rewrite(lines, origin.line or 0, pin.name, spec, hashes)
    except NotRewritable as why:
        notes.append(f"fix: {origin.path}: {why}")
        return None
    except (OSError, UnicodeDecodeError) as error:
        notes.append(f"fix: {origin.path}: cannot read it again: {error}")
        return None
    if edit.hashes_written:
        notes.append(
            f"fix: {origin}: the {edit.hashes_dropped} --hash option(s) of {label}'s old release "
            f"replaced by the {edit.hashes_written} of {label} {version}'s files on the index"
        )
    elif edit.hashes_dropped:
        notes.append(
            f"fix: {origin}: {edit.hashes_dropped} --hash option(s) of {label} dropped: "
            f"they are the old release's; add {label} {version}'s hashes "
            "(uv pip compile --generate-hashes, pip-compile --generate-hashes)"
        )
    return LineFix(origin.path, edit, pin.name, label, version, pin.moved_by, pin_comment(pin))


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


def _kind(path: Path) -> str:
    """The file's kind as check reads it: `requirements` and `pyproject` are rewritten."""
    from compat.facts.declared.detect import file_kind

    try:
        return file_kind(path)
    except CompatError:
        return ""


def fixes_for(finding: Any, fixes: Sequence[LineFix]) -> list[LineFix]:
    """The line fixes that answer a finding: a move that escapes its rule, or a rewrite of a
    package it names."""
    names = {p.name for p in finding.packages}
    return [f for f in fixes if finding.rule.id in f.rules or f.package in names]
