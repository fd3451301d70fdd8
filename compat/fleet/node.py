"""The node side of `compat fleet --ray`: doctor, run inside a Ray task on one node.

compat need not be installed on the node: the driver ships this package and the pure-Python
modules doctor needs (packaging, yaml, pynvml) with the job's `runtime_env` `py_modules`, so the
node runs exactly the code `compat doctor` runs and its report is the one `srun compat doctor`
would write there (the Slurm path). The node reads its own environment (`--python`, `--path`,
`--hardware`, `--no-probe` from its COMPAT_* variables: a node's own settings can differ);
usage facts and extra rule files come from the driver, as texts, so every node is judged by the
same rules. Errors come back as values: a node that cannot be checked is a result, not a crash.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from compat.envopts import lookup, parse_flag
from compat.errors import EXIT_INTERNAL, CompatError, UsageError

# doctor's options that describe the node itself, read from the node's environment.
_COMMAND = ("doctor",)


def node_options(environ: Mapping[str, str]) -> dict[str, Any]:
    """--python, --path, --hardware, --no-probe from COMPAT_DOCTOR_* / COMPAT_* of this node."""
    options: dict[str, Any] = {"python": None, "paths": (), "hardware": None, "no_probe": False}
    found = lookup(_COMMAND, "--python", environ)
    if found:
        options["python"] = Path(found[1])
    found = lookup(_COMMAND, "--path", environ)
    if found:
        options["paths"] = tuple(Path(p) for p in found[1].split(os.pathsep) if p)
    found = lookup(_COMMAND, "--hardware", environ)
    if found:
        options["hardware"] = Path(found[1])
    found = lookup(_COMMAND, "--no-probe", environ)
    if found:
        try:
            options["no_probe"] = parse_flag(*found)
        except ValueError as error:
            raise UsageError(str(error)) from None
    return options


def node_state(inputs: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """node_report in two parts, for a task with two return objects: a small head
    ({"state": digest, "host": ..., "gpus": [[uuid, bus id], ...]} or node_report's error) that
    the driver reads from every node, and the report without identity, which the driver fetches
    from one node per state."""
    from compat.fleet.identity import split_report

    answer = node_report(inputs)
    if "report" not in answer:
        return answer, None
    split = split_report(answer["report"])
    head = {"state": split.state, "host": split.host, "gpus": [list(ids) for ids in split.gpus]}
    return head, split.report


def _write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def node_report(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """{"report": compat.report/1} or {"error": one line, "exit_code": n}. Never raises."""
    try:
        return {"report": _doctor(inputs)}
    except CompatError as error:
        return {"error": str(error), "exit_code": error.exit_code}
    except Exception as error:  # a crash on one node is that node's result
        return {
            "error": f"internal error on the node ({error.__class__.__name__}: {error})",
            "exit_code": EXIT_INTERNAL,
        }


def _doctor(inputs: Mapping[str, Any]) -> dict[str, Any]:
    from compat.commands.doctor import run_doctor
    from compat.facts.gather import EnvOptions, FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.reportdoc import report_document

    options = node_options(os.environ)
    with tempfile.TemporaryDirectory(prefix="compat-fleet-") as scratch:
        directory = Path(scratch)
        files = {
            key: _write(directory, name, text)
            for key, (name, text) in inputs.get("configs", {}).items()
        }
        matrices = []
        for position, (name, text) in enumerate(inputs.get("matrices", ())):
            folder = directory / f"matrix{position}"
            folder.mkdir()
            matrices.append(_write(folder, name, text))
        report = run_doctor(
            EnvOptions(python=options["python"], paths=options["paths"]),
            FactOptions(
                hardware_file=options["hardware"],
                no_probe=options["no_probe"],
                deepspeed_config=files.get("deepspeed_config"),
                accelerate_config=files.get("accelerate_config"),
                settings=tuple(inputs.get("settings", ())),
            ),
            KnowledgeChoice(matrices=tuple(matrices)),
        )
        return report_document(report)
