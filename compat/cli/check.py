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
    from compat.facts.gather import FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.resolve.sources.indexconfig import IndexOptions


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
        typer.Option("--baseline", help="Fail only on findings not in this earlier JSON report."),
    ] = None,
    step_summary: Annotated[
        bool,
        typer.Option(
            "--step-summary", help="Also append the Markdown report to $GITHUB_STEP_SUMMARY."
        ),
    ] = False,
    quiet: QuietOpt = False,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
) -> int:
    import dataclasses
    import datetime as dt

    from compat.cli.output import emit, parse_reports, write_reports
    from compat.commands.check import run_check
    from compat.commands.waivers import (
        apply_waivers,
        load_baseline,
        load_waivers,
        new_since_baseline,
    )
    from compat.formats import formatter
    from compat.resolve.target import TargetOptions

    if probe and facts.no_probe:
        raise UsageError("--probe and --no-probe contradict each other: give one of them")
    reports = parse_reports(report_to or (), output)  # before the work: a typo costs nothing
    exclude_newer = exclude_newer and parse_day(exclude_newer, "--exclude-newer")
    baseline_keys = load_baseline(baseline) if baseline is not None else None
    waivers = load_waivers(Path.cwd())
    # Online, check waits on the index and the resolver: say so on a terminal.
    with progress(quiet or index.offline) as shown:
        if shown is not None:
            named = ", ".join(str(f) for f in files[:3]) + (", ..." if len(files) > 3 else "")
            shown(f"check: judging {named} with the package index and the {resolver} resolver")
        report, findings = run_check(
            files,
            facts,
            knowledge,
            TargetOptions(python_version, platform, pixi_environment),
            index,
            probe=probe,
            resolver=resolver,
            resolver_timeout=resolver_timeout,
            exclude_newer=exclude_newer,
            knowledge_version=knowledge_version,
        )
    kept, waiver_notes = apply_waivers(findings, waivers, dt.date.today())
    report = dataclasses.replace(report, findings=tuple(kept), notes=(*report.notes, *waiver_notes))
    if quiet and format_ is CheckFormat.text:
        from compat.formats.text import render_findings

        text = render_findings(report, colour_enabled(no_color, output))
    else:
        text = formatter(format_.value)(report, colour_enabled(no_color, output))
    emit(text, output)
    write_reports(reports, lambda name: formatter(name)(report, False))
    if step_summary:
        append_step_summary(formatter("markdown")(report, False))
    failing = report.failing(fail_on)
    if baseline_keys is not None:
        failing = new_since_baseline(failing, baseline_keys)
    if failing:
        return 1
    # The resolve the ranged verdicts rest on did not happen: not a clean result (exit 3).
    return EXIT_UNCHECKED if report.resolve_failed else EXIT_OK


def parse_day(value: str, option: str) -> str:
    """YYYY-MM-DD, or a usage error naming the option."""
    import datetime as dt

    try:
        return dt.date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise UsageError(f"{option} {value!r}: expected a date, YYYY-MM-DD") from None


def append_step_summary(markdown: str) -> None:
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        raise UsageError(
            "--step-summary: $GITHUB_STEP_SUMMARY is not set (it is inside GitHub Actions)"
        )
    from compat.cli.output import append_text

    append_text(target, markdown, "$GITHUB_STEP_SUMMARY")
