"""`compat doctor --install SPEC`: the options read, one call, the two formats (text, json)."""

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from compat.cli.base import colour_enabled, progress
from compat.cli.options import ReportFormat
from compat.errors import UsageError
from compat.report import FailOn

if TYPE_CHECKING:
    from compat.facts.gather import EnvOptions, FactOptions
    from compat.kb.knowledge import KnowledgeChoice

_REQUIREMENT_FLAGS = ("-r", "--requirement")


def split_install(
    values: Sequence[str], launch: Sequence[str]
) -> tuple[list[str], list[Path], list[str]]:
    """(specs, requirement files, the launch command): `--install -r FILE` arrives as the value
    `-r` and FILE as the first positional word, `--install '-r FILE'` and `--install -rFILE`
    as one value."""
    specs: list[str] = []
    files: list[Path] = []
    rest = list(launch)
    for value in values:
        text = value.strip()
        flag = next((f for f in _REQUIREMENT_FLAGS if text.startswith(f)), None)
        if flag is None:
            specs.append(value)
            continue
        tail = text[len(flag) :].lstrip("= ").strip()
        if not tail:
            if not rest:
                raise UsageError("--install -r: give the requirements file (--install -r FILE)")
            tail = rest.pop(0)
        files.append(Path(tail))
    return specs, files, rest


def doctor_install(
    env: "EnvOptions",
    facts: "FactOptions",
    knowledge: "KnowledgeChoice",
    install: Sequence[str],
    launch: Sequence[str],
    format_: ReportFormat,
    output: Path | None,
    fail_on: FailOn,
    no_color: bool,
    resolver: str,
    quiet: bool = False,
) -> int:
    from compat.cli.output import emit
    from compat.commands.installcheck import install_document, run_install_check
    from compat.facts.gather import DoctorFactOptions
    from compat.formats.installview import render_json, render_new_findings, render_text

    if format_ not in (ReportFormat.text, ReportFormat.json):
        raise UsageError(f"--install reports as text or json, not --format {format_.value}")
    specs, files, rest = split_install(install, launch)
    doctor_facts = DoctorFactOptions.of(facts, rest)
    with progress(quiet) as shown:
        if shown is not None:
            asked = " ".join([*specs, *(f"-r {f}" for f in files)])
            shown(f"doctor --install: a dry run of `install {asked}` ({resolver} resolver)")
        check = run_install_check(env, doctor_facts, knowledge, specs, files, resolver=resolver)
    document = install_document(check)
    colour = colour_enabled(no_color, output)
    if format_ is ReportFormat.json:
        text = render_json(check.after, document, check.is_new)
    elif quiet:
        text = render_new_findings(check.after, check.is_new, colour)
    else:
        text = render_text(check.after, document, check.is_new, colour)
    emit(text, output)
    return check.exit_code(fail_on)
