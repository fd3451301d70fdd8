"""`compat explain LOG`: the known cause behind an error in a training log."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from compat.cli.base import app, colour_enabled, command
from compat.cli.options import (
    ENVIRONMENT,
    FACTS,
    KNOWLEDGE,
    DebugOpt,
    NoColorOpt,
    OutputOpt,
    ReportFormat,
    ReportFormatOpt,
)
from compat.errors import EXIT_OK

if TYPE_CHECKING:
    from compat.facts.gather import EnvOptions, FactOptions
    from compat.kb.knowledge import KnowledgeChoice


@command(
    app,
    help="""Find the known cause of an error in a training log, and the fix.

The log is streamed (any size; '-' for stdin; gzip, xz and zstd recognised), and the versions
and configuration it prints (pip list/freeze/show, conda list, ds_report, trl env, collect_env,
nvidia-smi, `torch: 2.3.0` lines, version prints, banners, DeepSpeed's config dump, launcher
flags, what torch, CUDA, NCCL and bitsandbytes print about the GPU, the driver's CUDA version
and the builds, and the facts an error message states) are the facts each rule is judged on:
CONFIRMED, OUTSIDE-RANGE (same message, versions or config outside the rule) or SYMPTOM-ONLY
(the log does not settle it: the unknowns say what would).
--python/--path, config files, --set and --hardware take precedence over the log.

\b
Examples:
  compat explain train.log
  compat explain - < slurm-1234.out
  zcat job.log.gz | compat explain -
  compat explain train.log --deepspeed-config ds.json --format json

\b
Exit codes: 0 a known cause matched (confirmed or symptom-only, or a
`cannot import name` failure no rule judged); 1 none did
(nothing matched, or only outside-range matches and unrelated errors);
2 unreadable log or bad input.
""",
)
def explain(
    *,
    log: Annotated[Path, typer.Argument(help="The log file ('-' for stdin).")],
    env: Annotated["EnvOptions", ENVIRONMENT],
    facts: Annotated["FactOptions", FACTS],
    knowledge: Annotated["KnowledgeChoice", KNOWLEDGE],
    format_: ReportFormatOpt = ReportFormat.text,
    output: OutputOpt = None,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
) -> int:
    from compat.cli.output import emit
    from compat.commands.explain import has_cause, run_explain
    from compat.formats.explain import render_explanations

    # A log usually comes from another machine: this one is never probed (--no-probe is
    # accepted for symmetry with the other commands); --hardware FILE gives the GPUs.
    explanations = run_explain(log, env, facts, knowledge)
    emit(render_explanations(explanations, format_.value, colour_enabled(no_color, output)), output)
    return EXIT_OK if has_cause(explanations) else 1  # like grep: 0 when a cause matched
