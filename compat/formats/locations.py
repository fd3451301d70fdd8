"""Where a finding points in the user's files: the first matched package with a file and line."""

from __future__ import annotations

import os
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


def relative_uri(path: str) -> str:
    """A path relative to the working directory where it lies below it (what CI annotations expect)."""
    try:
        relative = Path(os.path.abspath(path)).relative_to(Path.cwd())
    except ValueError:
        return Path(os.path.abspath(path)).as_uri()
    return relative.as_posix()


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
