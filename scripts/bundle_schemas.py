"""Bundle the schemas that refer to each other, so each one validates on its own.

`compat-report-1` holds the hardware profile and `compat-fleet-2` a report: their `$ref`s point
at their own `$defs` (`#/$defs/hardware`, `#/$defs/report`), which hold copies of the other
schemas, so a plain `jsonschema.validate(document, schema)` resolves everything with no registry
and no fetch (issue 42 item 9). The copies are made here from the schemas they copy; run this
after editing one (`--check` fails when a copy is stale: tests/product/test_schemas.py runs it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
# The schema, and the schemas it embeds under `$defs` (name in $defs -> file).
EMBEDS = {
    "compat-report-1.schema.json": {"hardware": "compat-hardware-1.schema.json"},
    "compat-fleet-2.schema.json": {"report": "compat-report-1.schema.json"},
}


def _read(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    return document


def _body(document: dict[str, Any]) -> dict[str, Any]:
    """A schema as an embedded definition: without `$schema`, `$id` and its own `$defs` (those
    are hoisted into the embedding schema's `$defs`, where its `#/$defs/...` refs then point)."""
    return {k: v for k, v in document.items() if k not in ("$schema", "$id", "$defs")}


def bundled(name: str) -> dict[str, Any]:
    """The schema `name` with its embedded copies brought up to date."""
    document = _read(name)
    own = {k: v for k, v in document.get("$defs", {}).items() if k not in EMBEDS[name]}
    defs: dict[str, Any] = {}
    for key, embedded_name in EMBEDS[name].items():
        embedded = bundled(embedded_name) if embedded_name in EMBEDS else _read(embedded_name)
        for sub_key, sub in embedded.get("$defs", {}).items():
            defs[sub_key] = sub
        defs[key] = _body(embedded)
    for key, value in own.items():  # an embedded schema's definitions are its copies: they win
        defs.setdefault(key, value)
    return {**document, "$defs": dict(sorted(defs.items()))}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 where a schema is stale"
    )
    check = parser.parse_args(argv).check
    stale = []
    for name in EMBEDS:
        text = json.dumps(bundled(name), indent=2, ensure_ascii=False) + "\n"
        path = SCHEMA_DIR / name
        if path.read_text(encoding="utf-8") != text:
            stale.append(name)
            if not check:
                path.write_text(text, encoding="utf-8")
    if check and stale:
        print(f"stale embedded schemas in {', '.join(stale)}: run scripts/bundle_schemas.py")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
