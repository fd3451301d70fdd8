"""`compat pin`: pip constraints that keep the stack out of every known-bad combination."""

import sys
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from compat.cli.base import app, command, progress
from compat.cli.options import (
    ENVIRONMENT,
    FACTS,
    INDEX,
    KNOWLEDGE,
    DebugOpt,
    OutputOpt,
    QuietOpt,
    TextOrJson,
    TextOrJsonOpt,
)

if TYPE_CHECKING:
    from compat.facts.gather import EnvOptions, FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.resolve.sources.indexconfig import IndexOptions


class Avoid(str, Enum):
    affected = "affected"
    possible = "possible"


PIN_HELP = """Write pip constraints that keep the stack out of every known-bad combination.

Every installed package the knowledge base speaks of is pinned: to the installed version where it
is safe, to a chosen one where it is not (each line says why). Versions come from the package index
in your pip/uv configuration, cached; --offline uses only compat's dependency snapshot, the
installed versions and the versions the knowledge base names (never the cache). Never below what
the stated usage needs (GRPO: trl 0.14.0); your exact pins (== in -r files, --keep) move only
when nothing else escapes; a chosen torch CUDA build is written as an --extra-index-url line
plus a +cuXYZ pin, and on AMD GPUs torch's ROCm build as PyTorch's ROCm index plus a +rocmX.Y
pin. Before writing, the real resolver (uv, else pip) installs your requirements
under the constraints and compat re-checks the result; --offline proves it with compat's offline
solve over its dependency snapshot, and says what the snapshot cannot decide (--no-verify skips
the proof and says so).

\b
Examples:
  compat pin > constraints.txt && pip install -c constraints.txt -r requirements.txt
  compat pin --deepspeed-config ds.json -o constraints.txt
  compat pin --python ~/venvs/train/bin/python --freeze --offline
  compat pin -r requirements.txt -o constraints.txt
  compat pin -r requirements.txt --report json=pin.json > constraints.txt
  compat pin -r requirements.txt --hardware mi300x.json   # AMD: ROCm torch

\b
Exit codes: 0 written; 1 written, but some rule could not be escaped (see UNRESOLVED lines) or
the resolver refused the constraints (PROOF FAILED);
2 bad input or an unreachable index; 3 nothing could be checked.
"""

PinReportsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--report",
        metavar="FORMAT=FILE",
        help="Also write pin's result in FORMAT to FILE, atomically, from the same run "
        "(repeatable: --report json=pin.json). FORMAT: text (the constraints), json.",
        show_default=False,
    ),
]

PIN_INDEX = INDEX.but(
    offline=Annotated[
        bool,
        typer.Option(
            "--offline", help="No network: snapshot, installed and knowledge-base versions."
        ),
    ]
)


@command(app, help=PIN_HELP)
def pin(
    *,
    env: Annotated["EnvOptions", ENVIRONMENT],
    facts: Annotated["FactOptions", FACTS],
    knowledge: Annotated["KnowledgeChoice", KNOWLEDGE],
    index: Annotated["IndexOptions", PIN_INDEX],
    requirement: Annotated[
        list[Path] | None,
        typer.Option(
            "--requirement",
            "-r",
            help="Pin what these requirement/lock files declare instead of an environment.",
        ),
    ] = None,
    freeze: Annotated[
        bool,
        typer.Option("--freeze", help="Pin every installed distribution, not only guarded ones."),
    ] = False,
    keep: Annotated[
        list[str] | None,
        typer.Option(
            "--keep",
            help="Keep this package at its installed or pinned version unless nothing else "
            "escapes an affected rule. Repeatable.",
        ),
    ] = None,
    pytorch_index: Annotated[
        str,
        typer.Option(
            "--pytorch-index",
            help="Where PyTorch's per-CUDA indexes live (BASE/cu126, ...), for a chosen torch build.",
        ),
    ] = "https://download.pytorch.org/whl",
    no_verify: Annotated[
        bool,
        typer.Option(
            "--no-verify",
            help="Skip the proof: do not have pip/uv resolve the constraints before writing them.",
        ),
    ] = False,
    resolver: Annotated[
        str,
        typer.Option(
            "--resolver", help="The resolver that proves the constraints: auto, pip or uv."
        ),
    ] = "auto",
    avoid: Annotated[
        Avoid,
        typer.Option(
            "--avoid", help="Also steer clear of 'possible' findings (default) or only 'affected'."
        ),
    ] = Avoid.possible,
    format_: TextOrJsonOpt = TextOrJson.text,
    output: OutputOpt = None,
    report_to: PinReportsOpt = None,
    build_constraints_output: Annotated[
        Path | None,
        typer.Option(
            "--build-constraints-output",
            help="Also write the torch that source builds (flash-attn, DeepSpeed ops, apex) "
            "compile against, for pip --build-constraint / uv --build-constraints.",
        ),
    ] = None,
    quiet: QuietOpt = False,
    debug: DebugOpt = False,
) -> int:
    from compat.cli.output import emit, parse_reports, write_reports
    from compat.commands.pin import run_pin
    from compat.errors import short_line
    from compat.formats import PIN_FORMATS
    from compat.formats.pin import render, render_build_constraints_file
    from compat.resolve.pin.pinresult import ENV_NOTE, PinSettings

    # before the work: a typo costs nothing
    reports = parse_reports(
        report_to or (),
        output,
        PIN_FORMATS,
        {"--build-constraints-output": build_constraints_output},
    )
    with progress(quiet) as shown:
        result = run_pin(
            env,
            facts,
            knowledge,
            replace(index, pytorch_index=pytorch_index),
            PinSettings(
                requirements=tuple(requirement or ()),
                freeze=freeze,
                avoid_possible=avoid is Avoid.possible,
                keep=tuple(keep or ()),
                verify=not no_verify,
                resolver=resolver,
            ),
            progress=shown,
        )
    if build_constraints_output is not None:
        result = replace(result, build_constraints=str(build_constraints_output))
        emit(render_build_constraints_file(result), build_constraints_output)
    emit(render(result, format_.value), output)
    write_reports(reports, lambda name: render(result, name))
    if result.proof is not None and result.proof.status == "failed":
        refused = f"the resolver refused the constraints: {result.proof.detail}"
        sys.stderr.write(f"compat: warning: {short_line(refused)}\n")
    if result.proof is not None and result.proof.not_made:
        unproven = f"{result.proof.not_made}; the plan was judged against compat's offline solve"
        sys.stderr.write(f"compat: warning: {short_line(unproven)}\n")
    for item in result.plan.unresolved:
        why = f"could not escape {item.rule.id} ({item.status.value}): {item.why}"
        sys.stderr.write(f"compat: warning: {short_line(why)}\n")
    for note in result.plan.notes:  # distributions that could not be read: said, not fatal
        if note.startswith(ENV_NOTE):
            sys.stderr.write(f"compat: warning: {short_line(note)}\n")
    return result.exit_code()
