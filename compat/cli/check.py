"""`compat check FILE...`: the CI gate over requirement and lock files."""

import os
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from compat.cli.base import app, colour_enabled, command, progress
from compat.cli.options import (
    FACTS,
    INDEX,
    KNOWLEDGE,
    DebugOpt,
    FailOnOpt,
    NoColorOpt,
    OutputOpt,
    QuietOpt,
    ReportsOpt,
)
from compat.errors import EXIT_OK, EXIT_UNCHECKED, UsageError
from compat.report import FailOn

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Sequence

    from compat.cli.checkfix import Fixing
    from compat.cli.config import Setting
    from compat.commands.waivers import Waiver
    from compat.facts.gather import FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.model import Finding
    from compat.report import ConfigWarning, Report, Suppression
    from compat.resolve.pin.rewrite import LineFix
    from compat.resolve.sources.indexconfig import IndexOptions
    from compat.resolve.target import TargetOptions


class CheckFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    sarif = "sarif"
    github = "github"
    html = "html"
    junit = "junit"
    gitlab = "gitlab"


CHECK_HELP = """Gate requirement and lock file changes in CI: fail when they pin a known-bad combination.

Reads requirements files (pip syntax, -r/-c includes), pyproject.toml, pylock.toml, uv.lock, pip
--report JSON and pip freeze output. Ranged requirements are checked against released versions
(the package index; --offline: the versions the knowledge base names). Waivers come from
[tool.compat] in pyproject.toml or .compat.toml in the current directory.

\b
Examples:
  compat check requirements.txt
  compat check uv.lock --hardware cluster.json --python-version 3.11 --platform linux
  compat check requirements/*.txt --format sarif -o compat.sarif
  compat check requirements.txt --format github --step-summary --offline
  compat check uv.lock --format github --report sarif=compat.sarif --report junit=compat.xml
  compat check requirements.txt --set zero_stage=3 --diff   (the fix as a diff; writes nothing)
  compat check requirements.txt --set zero_stage=3 --fix    (pin's versions into the lines)
  compat check requirements.txt --hardware mi300x.json   (AMD: gfx942)

\b
--fix writes only when every rewritten file still resolves (else nothing, exit 1; 3 when the
resolve cannot be made), then reports on the fixed files. --diff exits as the files are now.

\b
Exit codes: 0 nothing at or above --fail-on (new since --baseline); 1 findings;
2 bad usage or an invalid/unreadable file; 3 nothing could be checked; 70 internal error.
"""

ProbeOpt = Annotated[
    bool,
    typer.Option(
        "--probe",
        help="Probe this machine's GPU and driver (check is usually run on a CI runner, not "
        "the training machine: prefer --hardware or [tool.compat] hardware).",
    ),
]
ResolverOpt = Annotated[
    str,
    typer.Option(
        "--resolver",
        help="Which real resolver judges ranges: auto (uv when installed, else pip), pip, uv.",
    ),
]
# check probes nothing unless asked: --no-probe is only accepted, and --probe sits beside it.
CHECK_FACTS = FACTS.but(
    no_probe=Annotated[
        bool,
        typer.Option(
            "--no-probe", help="Accepted for symmetry: check never probes unless --probe."
        ),
    ]
).plus(after="no_probe", name="probe", annotation=ProbeOpt, default=False)
ResolverTimeoutOpt = Annotated[
    float | None,
    typer.Option(
        "--resolver-timeout",
        help="Seconds the resolver may take before ranges are judged offline instead "
        "(default: 8x --timeout, at least 120).",
        min=1.0,
    ),
]
CHECK_INDEX = INDEX.plus(
    after="offline", name="resolver", annotation=ResolverOpt, default="auto"
).plus(after="resolver", name="resolver_timeout", annotation=ResolverTimeoutOpt, default=None)


@command(app, help=CHECK_HELP)
def check(
    *,
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Requirement files, pyproject.toml (PEP 621, Poetry, [tool.pixi]), setup.py (read, "
            "never run), Pipfile, Pipfile.lock, pylock.toml, uv.lock, pip --report JSON, conda "
            "environment.yml, conda-lock.yml, pixi.toml or pixi.lock."
        ),
    ],
    facts: Annotated["FactOptions", CHECK_FACTS],
    knowledge: Annotated["KnowledgeChoice", KNOWLEDGE],
    probe: ProbeOpt = False,
    python_version: Annotated[
        str | None,
        typer.Option("--python-version", help="Target Python (default: this interpreter's)."),
    ] = None,
    platform: Annotated[
        str | None,
        typer.Option(
            "--platform", help="Target platform: linux, darwin, win32 (optionally /MACHINE)."
        ),
    ] = None,
    pixi_environment: Annotated[
        str | None,
        typer.Option(
            "--pixi-environment", help="The pixi environment judged (default: `default`)."
        ),
    ] = None,
    index: Annotated["IndexOptions", CHECK_INDEX],
    resolver: ResolverOpt = "auto",
    resolver_timeout: ResolverTimeoutOpt = None,
    exclude_newer: Annotated[
        str | None,
        typer.Option(
            "--exclude-newer",
            metavar="DATE",
            help="Judge only releases published by DATE (YYYY-MM-DD, UTC): uv's resolve takes "
            "none newer (pip has no such option: a note says so). Pin it in [tool.compat] "
            "exclude-newer for a verdict that does not move.",
        ),
    ] = None,
    knowledge_version: Annotated[
        str | None,
        typer.Option(
            "--knowledge-version",
            metavar="VERSION",
            help="Refuse to judge unless the knowledge base in force is this version "
            "([tool.compat] knowledge-version pins it).",
        ),
    ] = None,
    format_: Annotated[
        CheckFormat, typer.Option("--format", "-f", help="Output format.")
    ] = CheckFormat.text,
    output: OutputOpt = None,
    report_to: ReportsOpt = None,
    fail_on: FailOnOpt = FailOn.AFFECTED,
    baseline: Annotated[
        Path | None,
        typer.Option(
            "--baseline",
            help="An earlier `--format json` report: its findings are `unchanged`, reported "
            "but never failing; only new findings count and fail.",
        ),
    ] = None,
    baseline_ref: Annotated[
        str | None,
        typer.Option(
            "--baseline-ref",
            metavar="REF",
            help="The baseline is the same files at git revision REF (e.g. origin/main), "
            "judged the same way: no second checkout, no stored report.",
        ),
    ] = None,
    select: Annotated[
        list[str] | None,
        typer.Option(
            "--select",
            metavar="PATTERN",
            help="Report only findings whose rule id matches (fnmatch: `vllm-*`). Repeatable.",
        ),
    ] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore",
            metavar="PATTERN",
            help="Leave out findings whose rule id matches (fnmatch: `pip-check:*`). Repeatable.",
        ),
    ] = None,
    together: Annotated[
        bool,
        typer.Option(
            "--together",
            help="Judge every file as one install (`pip install -r a -r b`); by default each "
            "requirements file, with what it includes, and each project is its own install.",
        ),
    ] = False,
    pre_commit: Annotated[
        bool,
        typer.Option(
            "--pre-commit",
            help="The files are a commit's staged files (the pre-commit hook): a file with "
            "nothing to check passes, a .compat.toml or hardware profile brings its project's "
            "files.",
        ),
    ] = False,
    step_summary: Annotated[
        bool,
        typer.Option(
            "--step-summary", help="Also append the Markdown report to $GITHUB_STEP_SUMMARY."
        ),
    ] = False,
    fix: Annotated[
        bool,
        typer.Option(
            "--fix",
            help="Rewrite the requirement lines a finding's fix changes to the version `compat "
            "pin` chooses (comments, markers, extras and line endings kept), only when every "
            "rewritten file still resolves; the report is then of the fixed files.",
        ),
    ] = False,
    diff: Annotated[
        bool,
        typer.Option(
            "--diff",
            help="Print the unified diff --fix would write, and write nothing (exit status: "
            "the files as they are).",
        ),
    ] = False,
    quiet: QuietOpt = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Text: every note, after the findings (else one line)."
        ),
    ] = False,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
) -> int:

    import dataclasses

    from compat.cli.checkfix import fix_files, fix_mode
    from compat.cli.output import parse_reports
    from compat.commands.check import run_check
    from compat.commands.waivers import load_baseline, load_waivers
    from compat.resolve.target import TargetOptions

    refuse_contradictions(probe and facts.no_probe, resolver, step_summary, baseline, baseline_ref)
    reports = parse_reports(report_to or (), output)  # before the work: a typo costs nothing
    exclude_newer = exclude_newer and parse_day(exclude_newer, "--exclude-newer")
    baseline_keys = load_baseline(baseline) if baseline is not None else None
    waivers = load_waivers(Path.cwd())
    target = TargetOptions(python_version, platform, pixi_environment)

    def judge(paths: "Sequence[Path]") -> "tuple[Report, list[Finding]]":
        own_facts, own_target = project_options(paths, facts, target)  # a monorepo's project
        judged = run_check(
            paths, own_facts, knowledge, own_target, index, probe=probe, resolver=resolver,
            resolver_timeout=resolver_timeout, exclude_newer=exclude_newer,
            knowledge_version=knowledge_version,
        )  # fmt: skip
        if (own_facts, own_target) == (facts, target):
            return judged
        note = f"{', '.join(map(str, paths))}: judged with its project's config (nearest it)"
        return dataclasses.replace(judged[0], notes=(note, *judged[0].notes)), judged[1]

    # Online, check waits on the index and the resolver: say so on a terminal.
    with progress(quiet or index.offline) as shown:
        if shown is not None:
            named = ", ".join(str(f) for f in files[:3]) + (", ..." if len(files) > 3 else "")
            shown(f"check: judging {named} with the package index and the {resolver} resolver")
        # Read by absolute path, shown from the repository root (compat.formats.locations):
        # `svc/requirements.txt` whether the run starts in svc/ or at the top.
        judged = judge_each_install(files, judge, together=together, pre_commit=pre_commit)
        if judged is None:
            return EXIT_OK  # --pre-commit: nothing staged declares anything to check
        report, findings = judged
        fixing = None  # --fix, --diff, or SARIF's `fixes` (cli/checkfix)
        if (mode := fix_mode(fix, diff, format_.value, reports)) is not None:
            report, findings, fixing = fix_files(
                files, facts, knowledge, target, index, report, findings, resolver,
                resolver_timeout, probe, mode,
            )  # fmt: skip
        if baseline_ref is not None:
            if shown is not None:
                shown(f"check: judging the same files at {baseline_ref} (the baseline)")
            baseline_keys = _baseline_at(baseline_ref, files, judge, together)
    report = settle_findings(
        report, findings, waivers, baseline_keys, select or (), ignore or (), knowledge
    )
    shown_format = "quiet" if quiet and format_ is CheckFormat.text else format_.value
    return _report_and_exit(
        report, fixing, shown_format, colour_enabled(no_color, output), verbose, output, reports,
        step_summary, fail_on,
    )  # fmt: skip


def _report_and_exit(
    report: "Report",
    fixing: "Fixing | None",
    shown_format: str,
    colour: bool,
    verbose: bool,
    output: Path | None,
    reports: "Sequence[tuple[str, Path]]",
    step_summary: bool,
    fail_on: "FailOn",
) -> int:
    """Every output of one check (--diff's diff on stdout instead of the report), then its exit
    status: 1 when a (new) finding fails the gate or a fix was refused, 3 when the resolve did
    not happen."""
    from compat.cli.output import emit, write_reports

    fixes = fixing.fixes if fixing is not None else ()  # SARIF results carry them
    text = render(report, shown_format, colour, verbose, fixes)
    if fixing is None or not fixing.emit(text, output):  # --diff: the diff is stdout
        emit(text, output)
    write_reports(reports, lambda name: render(report, name, False, verbose, fixes))
    if step_summary:
        append_step_summary(render(report, "markdown", False, verbose))
    failing = report.failing(fail_on)  # with a baseline, the new findings only
    if fixing is not None and fixing.refusal is not None:
        return fixing.refused(bool(failing))  # nothing written: the reason in one line
    if failing:
        return 1
    # The resolve the ranged verdicts rest on did not happen: not a clean result (exit 3). A
    # resolve that proved the install impossible did happen: its finding (here unchanged since
    # the baseline, or waived) is the verdict.
    judged = [*report.findings, *(f for f, _ in report.suppressed)]
    proven = any(f.rule.id == "install:unsatisfiable" for f in judged)
    return EXIT_UNCHECKED if report.resolve_failed and not proven else EXIT_OK


def parse_day(value: str, option: str) -> str:
    """YYYY-MM-DD, or a usage error naming the option."""
    import datetime as dt

    try:
        return dt.date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise UsageError(f"{option} {value!r}: expected a date, YYYY-MM-DD") from None


# The settings a project's own config gives its files' judgement (issue 42 item 5): the
# training machine and the target, which differ between a monorepo's projects. key -> (which
# options, field, kind).
_PER_PROJECT = {
    "hardware": ("facts", "hardware_file", "path"),
    "deepspeed-config": ("facts", "deepspeed_config", "path"),
    "accelerate-config": ("facts", "accelerate_config", "path"),
    "set": ("facts", "settings", "list"),
    "python-version": ("target", "python_version", "text"),
    "platform": ("target", "platform", "text"),
}


def project_options(
    paths: "Sequence[Path]", facts: "FactOptions", target: "TargetOptions"
) -> "tuple[FactOptions, TargetOptions]":
    """The options for one install: where the config nearest its files (`.compat.toml` or
    `[tool.compat]` in their directory or above, up to the repository root) is not the working
    directory's, its hardware, configs, `set`, python-version and platform apply, unless the
    command line or a COMPAT_* variable gave them. Paths in it are relative to it."""
    import dataclasses

    from compat.cli.base import _current_context
    from compat.cli.config import read_settings
    from compat.commands.waivers import nearest_config
    from compat.formats.locations import repository_root

    if not paths:
        return facts, target
    directory = nearest_config(Path(paths[0]), repository_root())
    if directory is None or directory.resolve() == Path.cwd().resolve():
        return facts, target  # the working directory's config is click's default map already
    ctx = _current_context()
    chosen: dict[str, dict[str, object]] = {"facts": {}, "target": {}}
    for setting in read_settings("check", directory):
        if setting.key not in _PER_PROJECT:
            continue
        which, field, kind = _PER_PROJECT[setting.key]
        name = "set_" if setting.key == "set" else setting.key.replace("-", "_")
        source = ctx.get_parameter_source(name) if ctx is not None else None
        if getattr(source, "name", "DEFAULT") in ("COMMANDLINE", "ENVIRONMENT"):
            continue  # what the user gave for this run wins over any file
        chosen[which][field] = _project_value(setting, kind, directory)
    return (
        dataclasses.replace(facts, **chosen["facts"]),  # type: ignore[arg-type]
        dataclasses.replace(target, **chosen["target"]),  # type: ignore[arg-type]
    )


def _project_value(setting: "Setting", kind: str, directory: Path) -> object:
    from compat.errors import InputError

    value = setting.value
    if kind == "list":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(
                f"{setting.table} {setting.key}: expected an array of strings",
                origin=setting.origin,
            )
        return tuple(value)
    if not isinstance(value, str):
        raise InputError(
            f"{setting.table} {setting.key}: expected a string, got {value!r}",
            origin=setting.origin,
        )
    return directory / value if kind == "path" else value


def judge_each_install(
    files: "Sequence[Path]",
    judge: "Callable[[Sequence[Path]], tuple[Report, list[Finding]]]",
    together: bool = False,
    pre_commit: bool = False,
) -> "tuple[Report, list[Finding]] | None":
    """Each install the files declare, judged on its own (compat.commands.perfile), read by
    absolute path and shown from the repository root (compat.formats.locations):
    `svc/requirements.txt` whether the run starts in svc/ or at the top. None: --pre-commit
    and nothing to check (one line on stderr says so)."""
    import sys

    from compat.commands.perfile import judge_files, pre_commit_files
    from compat.errors import CompatError, NothingDeclared
    from compat.formats.locations import relocated
    from compat.model import Origin

    paths = [Path(os.path.abspath(f)) for f in files]
    if pre_commit:
        paths = pre_commit_files(paths)
        if not paths:
            sys.stderr.write("compat: nothing to check in the staged files\n")
            return None
    try:
        return judge_files(paths, judge, together)
    except NothingDeclared:
        if not pre_commit:
            raise
        sys.stderr.write("compat: nothing to check in the staged files (no requirements)\n")
        return None
    except CompatError as error:  # the file named as every other location names it
        if error.origin is not None:
            error.origin = Origin(relocated(error.origin.path), error.origin.line)
        error.message = relocated(error.message)
        error.args = (error.message,)
        raise


def render(
    report: "Report", name: str, colour: bool, verbose: bool, fixes: "Sequence[LineFix]" = ()
) -> str:
    """check's output in format `name` ("quiet": text's findings only), every absolute path
    inside the repository written from its root (compat.formats.locations)."""
    from compat.formats import formatter
    from compat.formats.locations import relocated
    from compat.formats.text import render_findings, render_report

    if name == "quiet":
        return relocated(render_findings(report, colour))
    if name == "text":  # check's text: findings first, the notes in one line unless --verbose
        return relocated(render_report(report, colour, all_notes=verbose))
    if name == "sarif" and fixes:  # check --fix/--diff's rewrites, in the results they answer
        from compat.formats.sarif import render as render_sarif

        return relocated(render_sarif(report, colour, fixes=fixes))
    return relocated(formatter(name)(report, colour))


def settle_findings(
    report: "Report",
    findings: "Sequence[Finding]",
    waivers: "Sequence[Waiver]",
    baseline_keys: set[str] | None,
    select: "Sequence[str]",
    ignore: "Sequence[str]",
    knowledge: "KnowledgeChoice",
) -> "Report":
    """The report as the gate reads it: --select/--ignore applied, waivers and inline
    `# compat: ignore[...]` comments moved to `suppressed`, each finding new or unchanged against
    the baseline, and mistakes in the user's own settings as warnings."""
    import dataclasses
    import datetime as dt

    from compat.commands.suppress import inline_suppressions, selected
    from compat.commands.waivers import baseline_states
    from compat.kb.knowledge import load_knowledge_base

    kb = load_knowledge_base(knowledge)
    known = frozenset(name for rule in kb.rules() for name in (rule.id, *rule.supersedes))
    chosen, selection_notes, warnings = selected(findings, select, ignore, known)
    kept, waived, waiver_notes, waiver_warnings = _waive_by_directory(
        report, chosen, waivers, known, dt.date.today()
    )
    kept, inline, inline_warnings = inline_suppressions(kept, report.files, known)
    verdict_notes = tuple(n for n in report.notes if _verdict_note(n, report))
    return dataclasses.replace(
        report,
        findings=tuple(kept),
        notes=(*report.notes, *selection_notes, *waiver_notes),
        suppressed=(*waived, *inline),
        warnings=(*warnings, *waiver_warnings, *inline_warnings),
        baseline=baseline_states(kept, baseline_keys) if baseline_keys is not None else None,
        verdict_notes=verdict_notes,
    )


def _waive_by_directory(
    report: "Report",
    findings: "Sequence[Finding]",
    waivers: "Sequence[Waiver]",
    known: frozenset[str],
    today: "dt.date",
) -> "tuple[list[Finding], list[tuple[Finding, Suppression]], list[str], list[ConfigWarning]]":
    """Each finding judged by the waivers of the config nearest its file (a monorepo's projects
    keep theirs; the working directory's otherwise), each config's unused waivers said once."""
    from compat.commands.waivers import apply_waivers, waivers_by_directory
    from compat.formats.locations import finding_origin, repository_root

    def where(finding: "Finding") -> str | None:
        origin = finding_origin(finding, report.files)
        return origin.path if origin is not None else None

    cwd = Path.cwd()
    configs, chosen = waivers_by_directory(findings, where, cwd, repository_root())
    configs[cwd] = list(waivers)
    kept: list[Finding] = []
    waived: list[tuple[Finding, Suppression]] = []
    notes: list[str] = []
    warnings: list[ConfigWarning] = []
    for directory, its_waivers in configs.items():
        mine = [f for f, d in zip(findings, chosen, strict=True) if d == directory]
        k, w, n, warn = apply_waivers(mine, its_waivers, today, known)
        kept += k
        waived += w
        notes += n
        warnings += warn
    order = {id(f): position for position, f in enumerate(findings)}
    kept.sort(key=lambda f: order[id(f)])
    return kept, waived, notes, warnings


def _verdict_note(note: str, report: "Report") -> bool:
    """The notes the verdict line points at ("range notes above", "note above"): shown even
    when text summarises the rest."""
    if report.resolve_failed and note.startswith(report.resolve_failed.split(": ", 1)[0]):
        return True
    # the range notes, and why ranges were judged over every version they allow
    if note.startswith("fix"):  # what --fix wrote, or why it wrote nothing
        return True
    return "(range note, not a finding" in note or "ranges were judged" in note


def _baseline_at(
    ref: str,
    files: "Sequence[Path]",
    judge: "Callable[[Sequence[Path]], tuple[Report, list[Finding]]]",
    together: bool,
) -> set[str]:
    from compat.commands.baselineref import baseline_from_ref
    from compat.commands.perfile import judge_files
    from compat.errors import CompatError

    def findings_at(paths: "Sequence[Path]") -> "list[Finding]":
        try:
            return judge_files(paths, judge, together)[1]
        except CompatError:  # nothing to judge at REF (no requirements, a file then broken)
            return []

    return baseline_from_ref(ref, files, findings_at)


def refuse_contradictions(
    both_probes: bool,
    resolver: str,
    step_summary: bool,
    baseline: Path | None,
    baseline_ref: str | None,
) -> None:
    """Exit 2 before any work for options that cannot all hold: --probe with --no-probe, a
    resolver that does not exist, a job summary outside GitHub Actions, two baselines."""
    if both_probes:
        raise UsageError("--probe and --no-probe contradict each other: give one of them")
    check_resolver(resolver)
    if step_summary:  # outside Actions there is nowhere to append it
        step_summary_target()
    if baseline is not None and baseline_ref is not None:
        raise UsageError("--baseline and --baseline-ref: give one baseline")


def check_resolver(resolver: str) -> None:
    """--resolver names a real resolver, online and offline alike (offline none runs, but a
    `--resolver conda` in a config would judge nothing the day the job goes online)."""
    from compat.resolve.resolvers.resolver import TOOLS

    if resolver not in TOOLS:
        raise UsageError(f"--resolver {resolver!r}: expected one of {', '.join(TOOLS)}")


def step_summary_target() -> str:
    """$GITHUB_STEP_SUMMARY, or exit 2 before any work: asked for a job summary outside GitHub
    Actions, the run cannot do what it was told (docs/ci.md)."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        raise UsageError(
            "--step-summary: $GITHUB_STEP_SUMMARY is not set (it is set inside GitHub Actions; "
            "drop --step-summary elsewhere)"
        )
    return target


def append_step_summary(markdown: str) -> None:
    from compat.cli.output import append_text

    append_text(step_summary_target(), markdown, "$GITHUB_STEP_SUMMARY")
