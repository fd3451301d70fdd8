"""`compat check --fix` / `--diff`: plan the rewrite (compat.commands.checkfix), prove the
rewritten files still install, then write every file atomically or show the diff."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from compat.commands.checkfix import LineFix, Refusal
    from compat.facts.gather import FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.report import Report
    from compat.resolve.sources.indexconfig import IndexOptions
    from compat.resolve.target import TargetOptions


@dataclass(frozen=True)
class Fixing:
    """What --fix or --diff did: the line fixes (for SARIF), the diff, the notes for the report,
    whether files were written, and why not where the fix was refused."""

    fixes: tuple[LineFix, ...]
    diff: str
    notes: tuple[str, ...]
    written: tuple[str, ...]
    refusal: Refusal | None


def fix_files(
    files: Sequence[Path],
    facts: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index: IndexOptions,
    resolver: str,
    resolver_timeout: float | None,
    report: Report,
    *,
    write: bool,
) -> Fixing:
    from compat.cli.output import check_target, write_atomically
    from compat.commands.checkfix import plan_fix, validate_fix
    from compat.formats.fixdiff import render_diff

    plan = plan_fix(
        files, facts, knowledge, index, resolver, (report.hardware, report.hardware_note)
    )
    if not plan.files:
        return Fixing(
            plan.fixes, "", (*plan.notes, "fix: no requirement line to rewrite"), (), None
        )
    for file in plan.files:  # a file -o could not replace is refused before any resolve
        check_target(Path(file.path), "--fix")
    refusal = validate_fix(plan, files, facts, knowledge, target, index, resolver, resolver_timeout)
    diff = render_diff(plan.files)
    notes = plan.notes
    if refusal is not None:
        notes = (*notes, f"fix not written: {refusal.reason}")
        return Fixing(plan.fixes, diff, notes, (), refusal)
    written: list[str] = []
    if write:
        for file in plan.files:  # every file planned and proven before the first is replaced
            write_atomically(Path(file.path), file.new, "--fix")
            written.append(file.path)
        changed = ", ".join(f"{f.display_name} {f.version}" for f in plan.fixes)
        notes = (*notes, f"fix: rewrote {', '.join(written)} ({changed})")
    return Fixing(plan.fixes, diff, notes, tuple(written), None)


def emit_diff(diff: str) -> None:
    """The diff on stdout: each line's text escaped as all output is (a requirement file's
    control characters never reach the terminal), its line ending kept (CRLF stays CRLF, so
    `git apply` reads it)."""
    from compat.cli.output import safe_text

    out = []
    for line in diff.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        out.append(safe_text(body) + line[len(body) :])
    sys.stdout.write("".join(out))
    sys.stdout.flush()


def say(line: str) -> None:
    """One line on stderr (the refusal's reason)."""
    sys.stderr.write(f"compat: {line}\n")
    sys.stderr.flush()


def sarif_with_fixes(report: Report, fixes: Sequence[Any], colour: bool) -> str:
    from compat.formats.sarif import render

    return render(report, colour, fixes=fixes)
