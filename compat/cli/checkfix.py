"""`compat check --fix` / `--diff`: plan the rewrite (compat.commands.checkfix), prove the
rewritten files still install, then write every file atomically (and judge the files again) or
show the diff. With both flags, --diff wins: nothing is written."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compat.commands.checkfix import Refusal
    from compat.facts.gather import FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.model import Finding
    from compat.report import Report
    from compat.resolve.pin.rewrite import LineFix
    from compat.resolve.sources.indexconfig import IndexOptions
    from compat.resolve.target import TargetOptions


@dataclass(frozen=True)
class Fixing:
    """What --fix or --diff did: the line fixes (for SARIF), the diff, whether files were
    written, and why not where the fix was refused."""

    fixes: tuple[LineFix, ...]
    diff: str
    show_diff: bool
    written: tuple[str, ...]
    refusal: Refusal | None
    notes: tuple[str, ...] = ()  # the fix's own notes (`fix: ...`)

    def formatter(self, name: str) -> Callable[[Report, bool], str]:
        """check's formatters, SARIF's with the fixes in its results."""
        from compat.formats import formatter

        if name != "sarif" or not self.fixes:
            return formatter(name)
        from compat.formats.sarif import render

        return lambda report, colour: render(report, colour, fixes=self.fixes)

    def emit(self, text: str, output: Path | None) -> bool:
        """--diff: the diff on stdout, and the report only where -o sends it; False otherwise
        (check emits the report as usual)."""
        if not self.show_diff:
            return False
        emit_diff(self.diff)
        from compat.cli.output import safe_text

        for note in self.notes:  # what the diff cannot show (a move with no line to rewrite)
            sys.stderr.write(safe_text(f"compat: {note}\n"))
        if output is not None and str(output) != "-":
            from compat.cli.output import emit

            emit(text, output)
        return True

    def refused(self, failing: bool) -> int:
        """The refusal's reason on stderr; its exit status (1 where a finding fails anyway)."""
        assert self.refusal is not None
        sys.stderr.write(f"compat: {self.refusal.reason}\n")
        sys.stderr.flush()
        return 1 if failing else self.refusal.exit_code  # 3 only when nothing fails the gate


def fix_files(
    files: Sequence[Path],
    facts: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index: IndexOptions,
    report: Report,
    findings: list[Finding],
    resolver: str,
    resolver_timeout: float | None,
    probe: bool,
    diff: bool,
) -> tuple[Report, list[Finding], Fixing]:
    """The fix planned and proven, then written (--fix) or only shown (--diff); the report and
    findings check goes on with: the fixed files' where files were written."""
    from compat.cli.output import check_target, write_atomically
    from compat.commands.check import run_check
    from compat.commands.checkfix import plan_fix, validate_fix
    from compat.formats.fixdiff import render_diff

    judged = dataclasses.replace(  # the Python check judged for (--python-version, requires-python)
        target, python_version=target.python_version or report.environment.get("python")
    )
    plan = plan_fix(
        files, facts, knowledge, index, resolver, (report.hardware, report.hardware_note), judged
    )
    notes = plan.notes
    refusal = None
    written: list[str] = []
    if plan.files:
        for file in plan.files:  # a file -o could not replace is refused before any resolve
            check_target(Path(file.path), "--fix")
        refusal = validate_fix(
            plan, files, facts, knowledge, target, index, resolver, resolver_timeout
        )
    if refusal is not None:
        notes = (*notes, f"fix not written: {refusal.reason}")
    elif plan.files and not diff:
        for file in plan.files:  # every file planned and proven before the first is replaced
            write_atomically(Path(file.path), file.new, "--fix")
            written.append(file.path)
        report, findings = run_check(
            files,
            facts,
            knowledge,
            target,
            index,
            probe=probe,
            resolver=resolver,
            resolver_timeout=resolver_timeout,
        )  # fmt: skip  (the report and the verdict are the fixed files')
        changed = ", ".join(f"{f.display_name} {f.version}" for f in plan.fixes)
        notes = (*notes, f"fix: rewrote {', '.join(written)} ({changed})")
    report = dataclasses.replace(report, notes=(*report.notes, *notes))
    fixing = Fixing(plan.fixes, render_diff(plan.files), diff, tuple(written), refusal, plan.notes)
    return report, findings, fixing


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
