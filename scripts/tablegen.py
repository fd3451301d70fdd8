"""The command line every table generator shares: write, `--check`, `--refresh`.

scripts/gen_arch_table.py, gen_native_libs.py and gen_numpy_abi.py each turn a recorded input
under scripts/inputs/ into a table under compat/data/; this runs one of them the same way: offline
and deterministic by default, `--check` exits 1 when the committed table differs from what the
script writes, `--refresh` re-reads the primary sources into the input first.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def run(
    doc: str | None,
    output: Path,
    generate: Callable[[], str],
    refresh: Callable[[argparse.Namespace], None],
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
) -> int:
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="re-read the primary sources")
    parser.add_argument("--check", action="store_true", help="exit 1 when the output is stale")
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args()
    if args.refresh:
        refresh(args)
    text = generate()
    if args.check:
        return 0 if output.exists() and output.read_text() == text else 1
    output.write_text(text)
    return 0
