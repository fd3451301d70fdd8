"""`compat matrix lint | update | list | show`: the knowledge base itself."""

import sys
from pathlib import Path
from typing import Annotated

import typer

from compat import __version__
from compat.cli.base import app, command, progress
from compat.cli.options import DebugOpt, MatrixOpt, NoProgressOpt, TextOrJson, TextOrJsonOpt
from compat.errors import EXIT_OK, CompatError, UsageError

matrix_app = typer.Typer(
    help="Browse and lint the knowledge base.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(matrix_app, name="matrix")


@command(
    matrix_app,
    "lint",
    help="""Validate rule files, run their examples and check their fixes.

\b
Examples:
  compat matrix lint                  # the shipped knowledge base
  compat matrix lint my-rules.yaml    # your own rules, checked together with the shipped ones
""",
)
def matrix_lint(
    *,
    paths: Annotated[list[Path] | None, typer.Argument(help="Rule files or directories.")] = None,
    debug: DebugOpt = False,
) -> int:
    from compat.kb.bundle import lint

    result = lint(tuple(paths or ()))
    from compat.errors import short_line

    for problem in result.problems:
        sys.stderr.write(f"{short_line(problem)}\n")
    if result.problems:
        sys.stderr.write(f"compat: {len(result.problems)} problem(s) in {result.files} file(s)\n")
        return 2
    sys.stdout.write(
        f"{result.rules} rules in {result.files} file(s): OK ({result.examples} examples run)\n"
    )
    if result.backlog:
        sys.stdout.write(
            f"{result.backlog} hand-written rule(s) with a version range name no artifact it was "
            "read from yet (read_from): the counted backlog in compat/kb/read-from-backlog.txt\n"
        )
    return EXIT_OK


@command(
    matrix_app,
    "update",
    help="""Fetch a newer knowledge-base bundle, verify its sha256 against the index, and use it.

The index URL: --url (--matrix-url), else $COMPAT_MATRIX_URL, else the latest GitHub release of compat
(docs/bundles.md has the format and the trust model). On any failure the knowledge base in
force stays as it is. --reset goes back to the rules shipped with compat.

\b
Examples:
  COMPAT_MATRIX_URL=https://kb.internal/compat-kb-index.json compat matrix update
  compat matrix update --url https://kb.internal/compat-kb-index.json
  compat matrix update --reset

\b
There is no default index: give --url or set COMPAT_MATRIX_URL (scripts/build_bundle.py
writes a bundle and its index). A bundle older than the one in force (version or date) is
refused unless --allow-downgrade; a bundle past its stated expiry is a warning in every report.

\b
Exit codes: 0 updated or already current; 2 the index or bundle was rejected (digest
mismatch, truncated, invalid rules, needs a newer compat, older than the one in force), a bad
--url or none; 3 nothing could be downloaded (offline, HTTP error, timeout).
""",
)
def matrix_update(
    *,
    url: Annotated[
        str | None,
        typer.Option(
            "--matrix-url",
            "--url",
            help="URL of the knowledge-base index (compat.kb-index/1).",
        ),
    ] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds for the whole update.", min=0.1)
    ] = 20.0,
    reset: Annotated[
        bool, typer.Option("--reset", help="Remove the installed bundle: use the shipped rules.")
    ] = False,
    allow_downgrade: Annotated[
        bool,
        typer.Option(
            "--allow-downgrade",
            help="Install the index's bundle even when it is older (version or date) than the "
            "knowledge base in force.",
        ),
    ] = False,
    quiet: NoProgressOpt = False,
    debug: DebugOpt = False,
) -> int:
    from compat.kb.bundle import remove_installed
    from compat.kb.bundlestate import active_bundle
    from compat.kb.update import index_url, update

    if reset:
        removed = remove_installed()
        sys.stdout.write(
            f"knowledge base: the rules shipped with compat {__version__}"
            + ("" if removed else " (no bundle was installed)")
            + "\n"
        )
        return EXIT_OK
    before = active_bundle()
    in_force = (
        f"bundle {before.version}"
        if before
        else f"the knowledge base shipped with compat {__version__}"
    )
    try:
        with progress(quiet) as shown:
            result = update(
                index_url(url), timeout=timeout, progress=shown, allow_downgrade=allow_downgrade
            )
    except CompatError as error:
        error.message = f"matrix update: {error.message}; {in_force} stays in force"
        error.origin = None
        raise
    from compat.cli.output import emit

    verb = "updated to" if result.changed else "already current:"
    emit(
        f"knowledge base {verb} bundle {result.version} ({result.rules} rules, "
        f"sha256:{result.sha256[:16]}…) from {result.source}\n",
        None,
    )
    return EXIT_OK


@command(
    matrix_app,
    "list",
    help="List the rules of the knowledge base.\n\n\b\nExamples:\n  compat matrix list\n  compat matrix list --format json",
)
def matrix_list(
    *,
    matrix: MatrixOpt = None,
    format_: TextOrJsonOpt = TextOrJson.text,
    debug: DebugOpt = False,
) -> int:
    from compat.kb.knowledge import load_knowledge_base
    from compat.kb.questions import table_rows

    kb = load_knowledge_base(tuple(matrix or ()))
    rules = kb.rules()
    counts = [table_rows(plain) for plain in kb.plain]
    if format_ is TextOrJson.json:
        import json

        rows = [
            {
                "id": r.id,
                "severity": r.severity.value,
                "evidence": r.evidence.value,
                "title": r.title,
                "counts_as": count,
            }
            for r, count in zip(rules, counts, strict=True)
        ]
        document = {"digest": kb.digest, "source": kb.source, "version": kb.version}
        listing = {**document, "counted": sum(counts), "rules": rows}
        sys.stdout.write(json.dumps(listing, indent=2) + "\n")
        return EXIT_OK
    from compat.cli.output import safe_text

    width = max(len(r.id) for r in rules)
    for r in rules:
        sys.stdout.write(
            safe_text(f"{r.id:{width}}  {r.severity.value:7}  {r.evidence.value:8}  {r.title}\n")
        )
    where = f"bundle {kb.version}" if kb.source == "bundle" else "shipped"
    counted = (
        f"{sum(counts)} rules ({len(rules)} entries; a rule reading a table counts once "
        "per table row)"
        if sum(counts) != len(rules)
        else f"{len(rules)} rules"
    )
    sys.stdout.write(f"\n{counted} · {kb.digest[:19]} · {where}\n")
    return EXIT_OK


@command(
    matrix_app,
    "show",
    help="Show one rule in full.\n\n\b\nExample:\n  compat matrix show deepspeed-zero3-offload-clip-device-mismatch",
)
def matrix_show(
    *,
    rule_id: Annotated[str, typer.Argument(help="The rule id.")],
    matrix: MatrixOpt = None,
    format_: TextOrJsonOpt = TextOrJson.text,
    debug: DebugOpt = False,
) -> int:
    from compat.formats.ruleview import render_rule
    from compat.kb.knowledge import load_knowledge_base

    kb = load_knowledge_base(tuple(matrix or ()))
    rule = kb.get(rule_id)
    if rule is None:
        import difflib

        ids = [r.id for r in kb.rules()]
        close = difflib.get_close_matches(rule_id, ids, n=1)
        raise UsageError(
            f"no rule {rule_id!r} in the knowledge base",
            hint=f"did you mean {close[0]}?" if close else "`compat matrix list` shows every id",
        )
    from compat.cli.output import safe_text

    sys.stdout.write(safe_text(render_rule(rule, format_.value)))
    return EXIT_OK
