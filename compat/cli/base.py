"""The `compat` application: the typer app every command module registers on, COMPAT_* variables
for every option, and `guarded`, the one place that maps errors to output and exit codes.

Every command body runs inside `guarded`, which turns a `CompatError` into one
`compat: error: ...` line and its exit code, and any other exception into one "internal error"
line and exit 70 (the traceback only with `--debug`), so a CI gate never reads a crash as a
verdict. No `from __future__ import annotations` in compat/cli/: typer would evaluate every
string annotation with compile() on each start-up.
"""

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup, TyperOption

from compat import __version__
from compat.errors import EXIT_INTERNAL, EXIT_READER_GONE, CompatError, UsageError

# ---------------------------------------------------------------------------------------------
# Every option from the environment (COMPAT_<OPTION>), one mechanism for all commands


class _EnvOption(TyperOption):
    """A typer option whose bad value, when it came from a variable, names that variable."""

    def get_error_hint(self, ctx: Any) -> str:
        variable = _variable_used(ctx, self)
        # click's own hint lists every candidate variable as a Python list, even when the value
        # came from the command line: name the option, and the variable only when one was read.
        named = " / ".join(f"'{x}'" for x in self.opts)
        return named if variable is None else f"{named} (from ${variable})"

    def resolve_envvar_value(self, ctx: Any) -> str | None:
        """The value of the first variable set, except a shared one (`COMPAT_FORMAT`) that this
        command cannot take (`sarif` for doctor): one job's environment serves every command,
        so it is skipped with a note and the option keeps its default. The command's own
        variable (`COMPAT_DOCTOR_FORMAT`) is never skipped: a bad value there is an error."""
        names = [self.envvar] if isinstance(self.envvar, str) else list(self.envvar or ())
        for position, name in enumerate(names):
            value = os.environ.get(name)
            if not value:
                continue
            choices = getattr(self.type, "choices", None)
            shared = position > 0
            command = ctx.command_path.split()[-1] if ctx is not None else "this command"
            if shared and choices is None and "--report" in self.opts:
                choices = _reports_elsewhere(command, value)
            elif shared and choices is not None and not _elsewhere(self, value, choices):
                choices = None
            if shared and choices is not None:
                sys.stderr.write(
                    f"compat: note: ${name}={value} ignored: not a {max(self.opts, key=len)} "
                    f"value of {command} ({', '.join(map(str, choices))}); ${names[0]} sets "
                    f"it for {command} alone\n"
                )
                continue
            return value
        return None


def _reports_elsewhere(command: str, value: str) -> tuple[str, ...] | None:
    """The command's report formats where a shared `--report` value (`COMPAT_REPORT`, several
    FORMAT=FILE split at whitespace, as click splits it) names a format this command cannot
    write but another can (sarif for pin); None where this command takes it, or no command
    does (a typo stays an error)."""
    from compat.formats import REPORT_FORMATS, report_formats

    own = report_formats(command)
    names = {each.partition("=")[0].strip().lower() for each in value.split()}
    return own if any(n not in own and n in REPORT_FORMATS for n in names) else None


def _elsewhere(param: Any, value: str, choices: Any) -> bool:
    """`value` is not one of this command's choices but another command's (`--format sarif`
    for doctor): a typo no command takes stays an error."""
    if value.lower() in {str(getattr(c, "value", c)).lower() for c in choices}:
        return False
    if "--format" not in param.opts:
        return False
    from compat.formats import REPORT_FORMATS

    return value.lower() in REPORT_FORMATS


def _variable_used(ctx: Any, param: Any) -> str | None:
    """The variable a parameter's value came from, or None when it did not come from one."""
    if ctx is None or param.name is None or not param.envvar:
        return None
    source = ctx.get_parameter_source(param.name)
    if getattr(source, "name", None) != "ENVIRONMENT":  # click's ParameterSource.ENVIRONMENT
        return None
    names = [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
    return next((name for name in names if os.environ.get(name)), None)


def _attach_environment(command: Any, path: tuple[str, ...]) -> None:
    """Give every option of `command` (and of its subcommands) its COMPAT_* variables.

    Runs when typer builds the click command, so options other modules add later get theirs
    without a name written anywhere; `--help` lists them (`env var: ...`)."""
    from compat.envopts import NOT_FROM_ENVIRONMENT, variable_names

    for param in command.params:
        if not isinstance(param, TyperOption) or param.hidden:
            continue
        longest = max(param.opts, key=len)
        if NOT_FROM_ENVIRONMENT.intersection(param.opts) or param.envvar:
            continue
        param.envvar = variable_names(path, longest)
        param.show_envvar = True
        param.__class__ = _EnvOption  # same layout; only the error hint differs
    subcommands = getattr(command, "commands", None)  # a group
    if isinstance(subcommands, dict):
        for name, sub in subcommands.items():
            _attach_environment(sub, (*path, name))


class _EnvGroup(TyperGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _attach_environment(self, ())

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            if type(error).__name__ == "NoSuchOption":  # click's, in typer's copy or click's own
                error.possibilities = close_options(  # type: ignore[attr-defined]
                    error.option_name,  # type: ignore[attr-defined]
                    error.ctx,  # type: ignore[attr-defined]
                )
            raise

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The command, and for check and doctor the config file's values as click's
        default_map: below the command line and the COMPAT_* variables (compat.cli.config)."""
        name, found, rest = super().resolve_command(ctx, args)
        own = rest[: rest.index("--")] if "--" in rest else rest
        if found is not None and not ctx.resilient_parsing and not {"-h", "--help"} & set(own):
            from compat.cli.config import CONFIGURED

            if name in CONFIGURED:
                ctx.default_map = {name: _file_defaults(name, found.params)}
        return name, found, rest


def close_options(typed: str, ctx: Any) -> list[str]:
    """The command's options a typo was meant to be: close in spelling, not merely sharing a few
    letters (click suggests `--no-probe` for `--frob`)."""
    import difflib

    command = getattr(ctx, "command", None)
    known = [opt for p in getattr(command, "params", ()) for opt in getattr(p, "opts", ())]
    long_ones = {opt.lstrip("-"): opt for opt in known if opt.startswith("--")}
    close = difflib.get_close_matches(typed.lstrip("-"), list(long_ones), n=2, cutoff=0.8)
    return [long_ones[name] for name in close]


def _file_defaults(name: str, params: list[Any]) -> dict[str, Any]:
    from compat.cli.config import file_defaults

    try:
        return file_defaults(name, params, Path())  # the current directory, named relatively
    except CompatError as error:  # before the command's own `guarded`: the same one line
        _error(str(error), error.hint)
        raise typer.Exit(error.exit_code) from None


def _current_context() -> Any:
    try:  # typer 0.2x carries its own copy of click; older releases use click itself
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - depends on the typer release
        from click import get_current_context  # type: ignore[no-redef,unused-ignore]

    return get_current_context(silent=True)


def from_environment() -> set[str]:
    """The parameters of the running command whose value came from a COMPAT_* variable."""
    ctx = _current_context()
    if ctx is None:
        return set()
    return {p.name for p in ctx.command.params if _variable_used(ctx, p) is not None}


def _from_environment_note(message: str) -> str:
    """' (--hardware from $COMPAT_HARDWARE)' for the options the failing value came from."""
    ctx = _current_context()
    if ctx is None:
        return ""
    notes = []
    for param in ctx.command.params:
        variable = _variable_used(ctx, param)
        if variable is None or not param.opts:
            continue
        value = os.environ.get(variable, "")
        option = max(param.opts, key=len)
        if option in message or (value and value in message):
            notes.append(f"{option} from ${variable}")
    return f" ({'; '.join(notes)})" if notes else ""


app = typer.Typer(
    name="compat",
    cls=_EnvGroup,
    help=(
        "Find known-bad combinations in ML training stacks (DeepSpeed, vLLM, TRL, OpenRLHF, "
        "transformers, torch, CUDA, driver, GPU, training config) before they cost a run, "
        "and pin around them."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"compat {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """compat: known-bad combinations in ML training stacks."""


# ---------------------------------------------------------------------------------------------
# Error handling and output


def _error(message: str, hint: str | None = None) -> None:
    from compat.errors import error_line

    # One line, always: CI logs and wrappers read the first stderr line as the whole story.
    sys.stderr.write(error_line(message, hint))


def guarded(body: Callable[[], int], debug: bool) -> NoReturn:
    debug = debug or bool(os.environ.get("COMPAT_DEBUG"))
    try:
        code = body()
    except CompatError as error:
        _error(str(error) + _from_environment_note(str(error)), error.hint)
        if debug:
            import traceback

            traceback.print_exc()
        code = error.exit_code
    except KeyboardInterrupt:
        sys.stderr.write("compat: interrupted\n")
        code = 130
    except BrokenPipeError as error:
        if not stdout_reader_gone():
            raise typer.Exit(_internal_error(error, debug)) from None
        code = EXIT_READER_GONE
    except Exception as error:  # an unexpected crash must never read as a verdict
        code = _internal_error(error, debug)
    raise typer.Exit(code)


def stdout_reader_gone() -> bool:
    """Whether stdout is a pipe whose reader has closed it (`compat ... | head -1`).

    Then the rest of the output has nowhere to go: the run ends quietly, as `yes | head` does,
    and stdout is pointed at /dev/null so the interpreter's last flush cannot fail again. A
    broken pipe anywhere else (a socket, a child's stdin) is not this and stays an internal
    error. Linux and the BSDs report POLLERR on a pipe's write end once no reader is left.
    """
    import select

    try:
        fd = sys.stdout.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        gone = any(events & select.POLLERR for _, events in poller.poll(0))
        if gone:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fd)
            os.close(devnull)
        return gone
    except (AttributeError, OSError, ValueError):  # no real stdout (a test runner's buffer)
        return False


def _internal_error(error: BaseException, debug: bool) -> int:
    if debug:
        import traceback

        traceback.print_exc()
    _error(
        f"internal error ({error.__class__.__name__}: {error}) — please report it at "
        "https://github.com/compat-dev/compat/issues (rerun with --debug for the traceback)"
    )
    return EXIT_INTERNAL


def command(
    registry: typer.Typer, name: str | None = None, **settings: Any
) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Register `body` as a command of `registry`: its option groups listed in their places and
    built into the values it takes (compat.cli.options), the whole run inside `guarded`, the
    value it returns the exit code. `--debug` (every command has it) decides on tracebacks."""

    def register(body: Callable[..., int]) -> Callable[..., int]:
        from compat.cli.options import expand

        shown, groups = expand(body)

        @functools.wraps(body)
        def run(**values: Any) -> None:
            def call() -> int:
                for name, group in groups.items():
                    values[name] = group.make(values)
                return body(**values)

            guarded(call, bool(values.get("debug")))

        run.__signature__ = shown  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in shown.parameters.values()}
        registry.command(name, **settings)(run)
        return body

    return register


def colour_enabled(no_color: bool, output: Path | None) -> bool:
    if no_color or os.environ.get("NO_COLOR") or output is not None:
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


def verbose_note(enabled: bool, message: str) -> None:
    if enabled:
        from compat.errors import short_line

        sys.stderr.write(f"compat: {short_line(message)}\n")


def progress_wanted(quiet: bool = False) -> bool:
    """Progress is for a person at a terminal: never with --quiet, in a pipe or a file, under
    CI (`CI` set, as every CI service sets it) or on a terminal without cursor control."""
    if quiet or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stderr.isatty()


class Progress:
    """What runs and for how long: one stderr line, `compat: MESSAGE (12s)`, redrawn each
    second while the work waits on a resolver, a cluster or an index, and cleared at the end.
    Called with a message, it names the step now running and restarts its clock."""

    def __init__(self, stream: Any, interval: float = 1.0) -> None:
        import threading

        self._stream = stream
        self._interval = interval
        self._message = ""
        self._since = 0.0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __call__(self, message: str) -> None:
        import threading
        import time

        with self._lock:
            self._message = message
            self._since = time.monotonic()
            self._draw()
        if self._thread is None:
            self._thread = threading.Thread(target=self._tick, name="compat-progress", daemon=True)
            self._thread.start()

    def _tick(self) -> None:
        while not self._stop.wait(self._interval):
            with self._lock:
                self._draw()

    def _draw(self) -> None:
        import time

        from compat.errors import short_line

        seconds = time.monotonic() - self._since
        line = short_line(f"compat: {self._message} ({seconds:.0f}s)")
        try:  # the terminal stderr is, whatever stdout is
            width = os.get_terminal_size(self._stream.fileno()).columns - 1
        except (AttributeError, OSError, ValueError):
            width = 79
        if len(line) > width > 10:  # a wrapped line would not be redrawn in place
            line = line[: width - 1] + "…"
        self._stream.write(f"\r\x1b[K{line}")
        self._stream.flush()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._stream.write("\r\x1b[K")  # the result alone stays on the terminal
            self._stream.flush()


@contextlib.contextmanager
def progress(quiet: bool = False) -> Iterator[Callable[[str], None] | None]:
    """A `Progress` on stderr where it is wanted (`progress_wanted`), else None: the callback
    the waiting layers take (pin's index client, matrix update) or a command names its steps
    with."""
    if not progress_wanted(quiet):
        yield None
        return
    shown = Progress(sys.stderr)
    try:
        yield shown
    finally:
        shown.close()


def finite_timeout(timeout: float) -> float:
    """--timeout must be a real number of seconds (click's min=0.1 lets NaN through)."""
    import math

    if not math.isfinite(timeout):
        raise UsageError(f"--timeout: {timeout} is not a number of seconds")
    return timeout
