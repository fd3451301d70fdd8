"""Where a finding points in the user's files: the first matched package with a file and line."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence
from pathlib import Path

from compat.model import Finding, Origin
from compat.report import Report


def finding_origin(finding: Finding, files: Sequence[str] = ()) -> Origin | None:
    """The line of the first package the finding names; else the first line of that package's
    file; else the first line of the first checked file. GitHub code scanning rejects a whole
    SARIF upload when one result has no location, so check's findings always get one."""
    for package in finding.packages:
        if package.origin is not None and package.origin.line is not None:
            return package.origin
    for package in finding.packages:
        if package.origin is not None and package.origin.path:
            return Origin(package.origin.path, 1)
    if files:
        return Origin(files[0], 1)
    return None


def code_scanning_findings(report: Report) -> tuple[list[Finding], int]:
    """The findings worth an alert on a line of a file, and how many were left out: without a
    hardware profile, a `possible` finding whose every question is about the hardware says
    nothing about the file (give --hardware to have it judged)."""
    return list(report.judged), len(report.needs_hardware)


def repository_root(start: str | None = None) -> Path:
    """The directory every location is relative to (issue 42 item 4): git's top level (the
    nearest directory holding `.git`, a directory or a worktree's file), else the nearest
    directory holding `.compat.toml` or a pyproject.toml with `[tool.compat]`, else the working
    directory. Found from the working directory, never from where a file lies, so one run
    names every file from one place."""
    return _root_of(os.path.abspath(start or os.getcwd()))


@functools.lru_cache(maxsize=8)
def _root_of(start: str) -> Path:
    here = Path(start)
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return directory
    for directory in (here, *here.parents):
        if (directory / ".compat.toml").is_file() or _configures_compat(directory):
            return directory
    return here


def _configures_compat(directory: Path) -> bool:
    pyproject = directory / "pyproject.toml"
    if not pyproject.is_file():
        return False
    try:
        text = pyproject.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "[tool.compat" in text


def relative_uri(path: str) -> str:
    """A path relative to the repository root, with forward slashes, where it lies inside it
    (what CI annotations, SARIF and GitLab expect); a `file://` URI only outside it."""
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(repository_root())
    except ValueError:
        return absolute.as_uri()
    return relative.as_posix()


def artifact_location(path: str) -> dict[str, str]:
    """SARIF's artifactLocation: relative to SRCROOT inside the repository, else a file URI."""
    uri = relative_uri(path)
    return {"uri": uri} if uri.startswith("file:") else {"uri": uri, "uriBaseId": "SRCROOT"}


def source_root() -> dict[str, dict[str, dict[str, str]]]:
    """SARIF's originalUriBaseIds: where SRCROOT was on this machine (a directory URI ends in /)."""
    return {"originalUriBaseIds": {"SRCROOT": {"uri": repository_root().as_uri() + "/"}}}


def relocated(text: str, root: Path | None = None) -> str:
    """Output text with absolute paths inside the repository written from its root (check
    reads the files by absolute path; every location is then shown as the repository names
    it). A `file://` URI (SARIF's SRCROOT) keeps its path."""
    base = str(root or repository_root())
    if base == os.sep:
        return text
    return re.sub(r"(?<!file://)" + re.escape(base.rstrip(os.sep) + os.sep), "", text)


def message(finding: Finding) -> str:
    rule = finding.rule
    packages = ", ".join(f"{p.name} {p.version}" for p in finding.packages)
    unknown = ""
    if finding.unknown:
        unknown = (
            " Unknown: "
            + "; ".join(f"{u.fact} (settle with {u.needs})" for u in finding.unknown)
            + "."
        )
    fix = finding.remedy
    constraints = f" Constraints: {'; '.join(fix.constraints)}." if fix.constraints else ""
    where = f" [{packages}]" if packages else ""
    where += f" (install: {finding.install})" if finding.install else ""
    return (
        f"{rule.title}{where} ({finding.status.value}). Fix: {fix.summary}.{constraints}{unknown}"
    )
