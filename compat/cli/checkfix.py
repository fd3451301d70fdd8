"""`compat check --fix` / `--diff`: plan the rewrite (compat.commands.checkfix), prove the
rewritten files still install, then write every file atomically (and judge the files again) or
show the diff. With both flags, --diff wins: nothing is written."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
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
    mode: str,
) -> tuple[Report, list[Finding], Fixing]:
    """The fix planned and proven, then written (`fix`), only shown (`diff`) or only offered
    in SARIF (`sarif`); the report and findings check goes on with: the fixed files' where files
    were written."""
    from compat.cli.output import check_target, write_atomically
    from compat.commands.check import run_check
    from compat.commands.checkfix import plan_fix, validate_fix
    from compat.formats.fixdiff import render_diff

    if mode == "sarif":
        offered = sarif_fixes(files, facts, knowledge, target, index, report, resolver,
                              resolver_timeout)  # fmt: skip
        return report, findings, Fixing(offered, "", False, (), None)
    diff = mode == "diff"
    plan = plan_fix(
        files, facts, knowledge, index, resolver, (report.hardware, report.hardware_note),
        _judged(target, report),
    )  # fmt: skip
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


def fix_mode(
    fix: bool, diff: bool, format_: str, reports: Sequence[tuple[str, Path]]
) -> str | None:
    """`diff` (--diff wins), `fix`, `sarif` (no flag, but a SARIF output: its results offer the
    fixes) or None."""
    if diff or fix:
        return "diff" if diff else "fix"
    return "sarif" if format_ == "sarif" or any(n == "sarif" for n, _ in reports) else None


def _judged(target: TargetOptions, report: Report) -> TargetOptions:
    """The target with the Python check judged for (--python-version, else requires-python or
    this interpreter, as the report states it)."""
    return dataclasses.replace(
        target, python_version=target.python_version or report.environment.get("python")
    )


def sarif_fixes(
    files: Sequence[Path],
    facts: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index: IndexOptions,
    report: Report,
    resolver: str,
    resolver_timeout: float | None,
) -> tuple[LineFix, ...]:
    """The fixes a SARIF output offers without --fix or --diff: planned and proven as --fix's,
    never written; none when there is no finding, when the resolve did not happen, when the
    fixed files would not install, or when the fix cannot be planned (an index that cannot be
    read, a file pin cannot read): the verdict never depends on the offer."""
    from compat.commands.checkfix import plan_fix, validate_fix

    if not report.findings or report.resolve_failed:
        return ()  # nothing to fix, or a resolve that did not happen: no fix can be proven
    try:
        plan = plan_fix(
            files, facts, knowledge, index, resolver, (report.hardware, report.hardware_note),
            _judged(target, report),
        )  # fmt: skip
        if not plan.files or validate_fix(
            plan, files, facts, knowledge, target, index, resolver, resolver_timeout
        ):
            return ()
    except Exception:  # an offer in SARIF never costs the gate its verdict (--fix raises)
        return ()
    return plan.fixes


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
