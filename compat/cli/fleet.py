"""`compat fleet`: one report for every node of a job (Ray, or the nodes' own doctor reports)."""

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from compat.cli.base import app, command, from_environment, progress
from compat.cli.options import (
    FACTS,
    KNOWLEDGE,
    DebugOpt,
    FailOnOpt,
    NoProgressOpt,
    OutputOpt,
    ReportFormat,
    ReportFormatOpt,
)
from compat.report import FailOn

if TYPE_CHECKING:
    from compat.facts.gather import FactOptions
    from compat.kb.knowledge import KnowledgeChoice

FLEET_HELP = """One report for every node of a job: per-node findings and the facts that differ.

Ray: one zero-CPU task pinned to each node runs doctor there (compat is shipped with the task;
the node's own COMPAT_* variables apply, e.g. COMPAT_HARDWARE). Run it with the cluster's
Python environment (pip install 'compat[ray]'): Ray refuses a driver of another Ray or Python.
Slurm and anything else: run doctor on every node, then merge the reports.

\b
Examples:
  compat fleet --ray auto
  srun --ntasks-per-node=1 compat doctor --format json -o reports/%N.json
  compat fleet --reports reports/ --nodes "$SLURM_JOB_NODELIST"
  compat fleet --reports reports/*.json --format markdown -o fleet.md

\b
Exit codes: 0 nothing at or above --fail-on and the compared facts agree; 1 findings or facts
that differ; 2 bad usage, an unreadable report or no Ray cluster (Ray/Python mismatch included);
3 a node could not be checked (dead, timed out, no report) unless --allow-missing; 70 internal error.
"""

# The node's doctor probes its own GPUs: the fleet takes the configs, --set and --matrix only.
FLEET_FACTS = FACTS.only("deepspeed_config", "accelerate_config", "set_")
# Options for the nodes' doctor (--ray), and what they are when not given.
_FOR_NODES = {
    "deepspeed_config": ("deepspeed_config", None),
    "accelerate_config": ("accelerate_config", None),
    "set_": ("settings", ()),
}


@command(app, help=FLEET_HELP)
def fleet(
    *,
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="More report files or directories (with --reports).", show_default=False
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="Ray cluster address ('auto': the running cluster)."),
    ] = None,
    reports: Annotated[
        list[Path] | None,
        typer.Option(
            "--reports", help="compat.report/1 files, or directories of *.json. Repeatable."
        ),
    ] = None,
    nodes: Annotated[
        str | None,
        typer.Option(
            "--nodes",
            help="Nodes that must have a report (Slurm hostlist: gpu[01-04]); default "
            "$SLURM_JOB_NODELIST when set.",
        ),
    ] = None,
    allow_missing: Annotated[
        bool,
        typer.Option("--allow-missing", help="Nodes that could not be checked do not make exit 3."),
    ] = False,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds to wait for the nodes' answers (--ray).", min=1.0),
    ] = 60.0,
    facts: Annotated["FactOptions", FLEET_FACTS],
    knowledge: Annotated["KnowledgeChoice", KNOWLEDGE],
    format_: ReportFormatOpt = ReportFormat.text,
    output: OutputOpt = None,
    fail_on: FailOnOpt = FailOn.AFFECTED,
    quiet: NoProgressOpt = False,
    debug: DebugOpt = False,
) -> int:
    from compat.cli.options import finite_timeout
    from compat.cli.output import emit
    from compat.fleet.command import run_fleet
    from compat.formats.fleet import render

    # Options that apply to one path only are ignored on the other path when they came from
    # the environment (COMPAT_SET exported for doctor must not break `fleet --reports`).
    ambient = from_environment()
    if reports or paths:
        cleared = {field: empty for name, (field, empty) in _FOR_NODES.items() if name in ambient}
        facts = replace(facts, **cleared)  # type: ignore[arg-type]
        if "matrix" in ambient:
            knowledge = replace(knowledge, matrices=())
    elif "nodes" in ambient:
        nodes = None
    merging = bool(reports or paths)
    # --ray waits on a cluster (connecting, then every node's doctor): say so on a terminal.
    with progress(quiet or merging) as shown:
        if shown is not None:
            shown(f"fleet: doctor on every node of the Ray cluster {ray or 'auto'}")
        fleet_report = run_fleet(
            ray=ray,
            reports=[*(reports or ()), *(paths or ())] if merging else None,
            nodes=nodes,
            timeout=finite_timeout(timeout),
            facts=facts,
            knowledge=knowledge,
            given_paths=bool(paths) and not reports,
        )
    emit(render(fleet_report, format_.value), output)
    return fleet_report.exit_code(fail_on, allow_missing)
