"""The command line every table generator shares: write, `--check`, `--refresh`.

scripts/gen_arch_table.py, gen_native_libs.py and gen_numpy_abi.py each turn a recorded input
under scripts/inputs/ into a table under compat/data/; this runs one of them the same way: offline
and deterministic by default, `--check` exits 1 when the committed table differs from what the
script writes, `--refresh` re-reads the primary sources into the input first.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

Row = TypeVar("Row")


def run(
    doc: str | None,
    output: Path,
    generate: Callable[[], str],
    refresh: Callable[[argparse.Namespace], bool | None],
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
    verify: Callable[[Path | None], str] | None = None,
) -> int:
    """With `verify` (a generator's re-read of a sample of its input, through `resample`):
    `--verify [INPUT]` runs it and exits (0 agree, 1 one row disagrees, 3 the source cannot be
    read), and every `--refresh` runs it after writing the input: all but one whose `refresh`
    returns False, having written none of the input `verify` re-reads (gen_wheels.py's
    `--flash-attn-git` records a clone's publish matrices, not the index rows it samples)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="re-read the primary sources")
    parser.add_argument("--check", action="store_true", help="exit 1 when the output is stale")
    if verify is not None:
        parser.add_argument(
            "--verify",
            nargs="?",
            const="",
            metavar="INPUT",
            help="re-read a sample of the recorded rows from the artifacts and exit",
        )
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args()
    refreshed = refresh(args) if args.refresh else None
    if verify is not None and (
        (args.refresh and refreshed is not False) or args.verify is not None
    ):
        try:
            print(verify(Path(args.verify) if args.verify else None))
        except SampleDisagrees as error:
            print(f"{parser.prog}: refused: {error}", file=sys.stderr)
            return 1
        except OSError as error:  # the source cannot be read: the machine, not the table
            print(f"{parser.prog}: could not re-read: {error}", file=sys.stderr)
            return 3
        if args.verify is not None:
            return 0
    return write_or_check(output, generate(), check=args.check)


def write_or_check(output: Path, text: str, *, check: bool) -> int:
    """Write a generated table, or with `check` write nothing and exit 1 where the committed file
    is not exactly `text` (a hand edit, or inputs changed without regenerating)."""
    if check:
        return 0 if output.is_file() and output.read_text() == text else 1
    output.write_text(text)
    return 0


class SampleDisagrees(Exception):
    """A recorded row that its primary artifact, read again now, contradicts: the table would
    state something the artifact does not, so the generator refuses to write it."""


def resample(
    label: str,
    rows: Sequence[Row],
    reread: Callable[[Row], tuple[str, Any, Any]],
    *,
    count: int,
    seed: str,
) -> str:
    """Re-read `count` of the recorded `rows` from their primary artifact, at generation time.

    `reread(row)` returns (the row's name, what the input records, what the artifact says now,
    read by its own route: the wheel's file rather than the index's copy of its metadata, the
    source file at the tag rather than a summary). The sample is seeded by `seed` (the input's
    fetch date, say), so a rerun re-reads the same rows and a failure can be reproduced. Raises
    SampleDisagrees naming the first row whose two readings differ; returns one line for the
    log otherwise. Every generator's --verify (or --refresh) goes through here, as
    gen_arch_table.py's fat-binary check and gen_rocm_targets.py's re-read did first."""
    chosen = random.Random(seed).sample(list(rows), min(count, len(rows)))
    unread = []
    for row in chosen:
        name, recorded, read = reread(row)
        if isinstance(read, Unread):
            unread.append(f"{name} ({read.why})")
        elif recorded != read:
            raise SampleDisagrees(
                f"{label}: {name}: the input records {recorded!r}, the artifact says {read!r}"
            )
    done = len(chosen) - len(unread)
    line = f"{label}: re-read {done} of {len(rows)} rows from the artifacts: they agree"
    return line + (f"; not re-read: {', '.join(unread)}" if unread else "")


class Unread(NamedTuple):
    """What `reread` returns for a row whose artifact holds no readable answer within bounds
    (a 60 MB extension, say): said in the summary line, never counted as agreeing."""

    why: str
