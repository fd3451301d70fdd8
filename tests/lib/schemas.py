"""The published JSON Schemas of schema/ (issue 35 item 5), and a check that a document the CLI
wrote validates against the schema it names. tests/conftest.py runs `check_output` on every
output of `run_cli` and `run_subprocess` (stdout, the `-o`/`--output` file and the `--report`
files), so every JSON document the suite produces is validated."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from tests.lib import paths

SCHEMA_DIR = paths.REPO / "schema"
# The document's `schema` value -> its schema file.
SCHEMAS = {
    "compat.report/1": "compat-report-1.schema.json",
    "compat.fleet/2": "compat-fleet-2.schema.json",
    "compat.explain/1": "compat-explain-1.schema.json",
    "compat.hardware/1": "compat-hardware-1.schema.json",
    "compat.pin/1": "compat-pin-1.schema.json",
}


@cache
def validator(schema: str) -> jsonschema.protocols.Validator:
    contents = json.loads((SCHEMA_DIR / SCHEMAS[schema]).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(contents)
    # No registry: each published schema resolves on its own (issue 42 item 9).
    return jsonschema.Draft202012Validator(contents)


def problems(document: Any) -> list[str]:
    """Where the document breaks the schema it names ([] when it names none of ours)."""
    if not isinstance(document, dict) or document.get("schema") not in SCHEMAS:
        return []
    check = validator(str(document["schema"]))
    found = []
    for error in sorted(check.iter_errors(document), key=lambda e: list(map(str, e.path))):
        while error.context:  # oneOf/anyOf: the branch that got deepest says what is wrong
            error = max(error.context, key=lambda e: len(e.absolute_path))
        found.append(f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message[:300]}")
    return found[:10]


def _documents(text: str) -> list[Any]:
    """The JSON documents in a command's output: one document, or JSON lines."""
    text = text.strip()
    if not text.startswith("{"):
        return []
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    found = []
    for line in text.splitlines():
        try:
            found.append(json.loads(line))
        except ValueError:
            return []
    return found


def _output_files(args: Sequence[str], cwd: Path | None) -> list[Path]:
    files = []
    for position, arg in enumerate(args):
        if arg in ("-o", "--output") and position + 1 < len(args):
            files.append(Path(args[position + 1]))
        elif arg.startswith("--output="):
            files.append(Path(arg.split("=", 1)[1]))
        elif arg == "--report" and position + 1 < len(args):  # --report FORMAT=FILE
            files.append(Path(args[position + 1].partition("=")[2]))
    return [path if path.is_absolute() or cwd is None else cwd / path for path in files]


def check_output(args: Sequence[str], stdout: str, cwd: Path | None = None) -> None:
    """Fail the test when a document the command wrote breaks its published schema."""
    texts = [("stdout", stdout)]
    for path in _output_files(args, cwd):
        try:
            texts.append((str(path), path.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    for where, text in texts:
        for document in _documents(text):
            found = problems(document)
            assert not found, (
                f"compat {' '.join(args)}: {where}: {document.get('schema')} breaks "
                f"schema/{SCHEMAS[document['schema']]}:\n  " + "\n  ".join(found)
            )
