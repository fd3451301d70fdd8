"""`compat doctor`: the installed environment, the GPU and the training config against the rules."""

from typing import TYPE_CHECKING, Annotated

import typer

from compat.cli.base import app, colour_enabled, command, verbose_note
from compat.cli.options import (
    ENVIRONMENT,
    FACTS,
    KNOWLEDGE,
    DebugOpt,
    FailOnOpt,
    InstallOpt,
    NoColorOpt,
    OutputOpt,
    QuietOpt,
    ReportFormat,
    ReportFormatOpt,
    ReportsOpt,
    VerboseOpt,
)
from compat.errors import UsageError
from compat.report import FailOn

if TYPE_CHECKING:
    from compat.facts.gather import EnvOptions, FactOptions
    from compat.kb.knowledge import KnowledgeChoice

DOCTOR_HELP = """Check the installed environment, the GPU/driver and the training config.

\b
Examples:
  compat doctor
  compat doctor --deepspeed-config ds_zero3.json --set trainer=grpo --set use_vllm=true
  compat doctor --python ~/venvs/train/bin/python --format json -o report.json
  compat doctor --path /opt/site-packages --hardware cluster.json --fail-on possible
  compat doctor -- accelerate launch --config_file fsdp.yaml train.py --gradient_checkpointing
  compat doctor --install vllm==0.10.1 --install -r requirements.txt
  compat probe --format json -o mi300x.json   # on an AMD machine, then:
  compat doctor --hardware mi300x.json --install torch

\b
With --install, the environment's own pip (or uv) is asked what the install would do (a dry
run: nothing is installed), and the environment it would leave is judged: what it replaces,
the findings it would introduce (new), what it leaves behind built against the old torch.
Exit 1 when it introduces a finding at or above --fail-on.

\b
After `--`, the training command is read (never run): the configs, process counts and flags it
names become facts, and the report says which it used. Without --accelerate-config, accelerate's
default config ($HF_HOME/accelerate/default_config.yaml) is read when `accelerate launch` would.

\b
Exit codes: 0 nothing at or above --fail-on; 1 findings; 2 bad usage or input;
3 nothing could be checked (no distributions, no knowledge base); 70 internal error.
"""


@command(app, help=DOCTOR_HELP)
def doctor(
    *,
    env: Annotated["EnvOptions", ENVIRONMENT],
    facts: Annotated["FactOptions", FACTS],
    knowledge: Annotated["KnowledgeChoice", KNOWLEDGE],
    format_: ReportFormatOpt = ReportFormat.text,
    output: OutputOpt = None,
    report_to: ReportsOpt = None,
    fail_on: FailOnOpt = FailOn.AFFECTED,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
    install: InstallOpt = None,
    resolver: Annotated[
        str, typer.Option("--resolver", help="With --install: auto (the target's pip), pip or uv.")
    ] = "auto",
    launch: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[-- LAUNCH COMMAND...]",
            help="The training command, after --: read for configs and flags, never run.",
            show_default=False,
        ),
    ] = None,
) -> int:
    from compat.cli.output import emit, parse_reports, write_reports
    from compat.commands.doctor import run_doctor
    from compat.facts.gather import DoctorFactOptions
    from compat.formats import formatter

    reports = parse_reports(report_to or (), output)  # before the work: a typo costs nothing
    if install:
        if reports:
            raise UsageError("--report does not combine with --install: give one --format")
        from compat.cli.doctorinstall import doctor_install

        return doctor_install(
            env, facts, knowledge, install, launch or [], format_, output, fail_on, no_color,
            resolver, quiet=quiet,
        )  # fmt: skip
    report = run_doctor(env, DoctorFactOptions.of(facts, launch or ()), knowledge)
    verbose_note(verbose, f"{report.source}: {report.package_count} distributions")
    if quiet and format_ is ReportFormat.text:
        from compat.formats.text import render_findings

        text = render_findings(report, colour_enabled(no_color, output))
    else:
        text = formatter(format_.value)(report, colour_enabled(no_color, output))
    emit(text, output)
    write_reports(reports, lambda name: formatter(name)(report, False))
    return report.exit_code(fail_on)
