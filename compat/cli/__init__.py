"""The `compat` command line: one module per command, each a few lines of wiring.

A command module parses its options (the shared ones are declared once in compat.cli.options),
calls one function of compat.commands (or compat.fleet), picks a formatter and returns the exit
code; compat.cli.base maps errors to one line and an exit code. `main` imports only the module
of the command being run: `compat doctor` runs before every training job, and typer turns every
registered command's signature into click parameters at start-up. Help, version, completion and
typos (click's "Did you mean") still see every command.
"""

import gc
import importlib
import os
import sys
from typing import Any

# In the order `compat --help` lists them.
COMMANDS = ("doctor", "probe", "explain", "check", "pin", "fleet", "matrix", "mcp")
# The words that need every command registered: help, version and completion.
_NEEDS_ALL = {"--help", "-h", "--version", "--install-completion", "--show-completion"}


def load_commands(argv: list[str]) -> None:
    """Register the command `argv` runs, or every command when it names none (or a typo)."""
    wanted = argv[0] if argv else None
    completing = any(n.startswith("_COMPAT") and n.endswith("_COMPLETE") for n in os.environ)
    if wanted in COMMANDS and not _NEEDS_ALL.intersection(argv) and not completing:
        importlib.import_module(f"compat.cli.{wanted}")
        return
    for name in COMMANDS:
        importlib.import_module(f"compat.cli.{name}")


def main() -> None:
    _tune_gc()
    try:
        load_commands(sys.argv[1:])
        from compat.cli.base import app

        app(prog_name="compat")
    finally:
        # The process ends here: at exit the interpreter walks every object it still tracks in
        # one last collection (4% of a doctor run's instructions). Frozen, there is nothing to
        # walk; the memory goes back with the process, and files are closed by then (output is
        # written and closed by compat.cli.output before the command returns).
        gc.freeze()


def _tune_gc() -> None:
    """Fewer cycle collections in a short-lived process that mostly allocates what it keeps.

    With CPython's default threshold (700 allocations) a doctor run collects hundreds of times,
    and every older-generation pass walks the modules, rules and distributions it just read and
    keeps to the end: about 4% of its instructions, for no memory back. What is already loaded is
    moved out of the collector's view (gc.freeze) and the young generation is allowed to grow
    larger; cycles are still collected, so the long-running `compat mcp` server and an explain
    over a huge log stay bounded. Output cannot change: only when collections run does.
    """
    gc.freeze()
    gc.set_threshold(100_000, 10, 10)


def __getattr__(name: str) -> Any:
    """`compat.cli.app`, with every command registered (tests drive it with CliRunner)."""
    if name == "app":
        load_commands([])
        from compat.cli.base import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
