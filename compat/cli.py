"""The `compat` command line: parse options, call the layers, pick a formatter, map errors to exit codes.

No logic beyond wiring lives here. Every command body runs inside `_guarded`, which turns a
`CompatError` into one `compat: error: ...` line and its exit code, and any other exception into
one "internal error" line and exit 70 (the traceback only with `--debug`), so a CI gate never
reads a crash as a verdict.
"""

import os
import sys
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup, TyperOption

from compat import __version__
from compat.errors import EXIT_INTERNAL, EXIT_OK, CompatError, UsageError
from compat.report import FailOn

if TYPE_CHECKING:
    from compat.facts import FactOptions


# ---------------------------------------------------------------------------------------------
# Every option from the environment (COMPAT_<OPTION>), one mechanism for all commands


class _EnvOption(TyperOption):
    """A typer option whose bad value, when it came from a variable, names that variable."""

    def get_error_hint(self, ctx: Any) -> str:
        variable = _variable_used(ctx, self)
        if variable is None:
            return super().get_error_hint(ctx)
        # typer's own hint lists every candidate variable; say the one that was read.
        return " / ".join(f"'{x}'" for x in self.opts) + f" (from ${variable})"


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


def _current_context() -> Any:
    try:  # typer 0.2x carries its own copy of click; older releases use click itself
        from typer._click.globals import get_current_context
    except ImportError:  # pragma: no cover - depends on the typer release
        from click import get_current_context  # type: ignore[no-redef,unused-ignore]

    return get_current_context(silent=True)


def _from_environment() -> set[str]:
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
matrix_app = typer.Typer(
    help="Browse and lint the knowledge base.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(matrix_app, name="matrix")


class ReportFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


class ProbeFormat(str, Enum):
    text = "text"
    json = "json"


# ---------------------------------------------------------------------------------------------
# Shared options (typer has no option groups: these aliases keep the spellings identical)

PythonOpt = Annotated[
    Path | None,
    typer.Option(
        "--python", help="Check another interpreter's environment (e.g. the training venv)."
    ),
]
PathOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--path",
        help="Check the distributions installed in DIR (site-packages or --target dir). Repeatable.",
    ),
]
CondaPrefixOpt = Annotated[
    Path | None,
    typer.Option(
        "--conda-prefix",
        help="Check the conda environment at DIR (its conda-meta/ records and site-packages).",
    ),
]
HardwareOpt = Annotated[
    Path | None,
    typer.Option(
        "--hardware",
        help="Evaluate against a saved hardware profile (from `compat probe --format json`).",
    ),
]
NoProbeOpt = Annotated[
    bool, typer.Option("--no-probe", help="Do not probe the GPU: hardware facts stay unknown.")
]
DeepSpeedOpt = Annotated[
    Path | None, typer.Option("--deepspeed-config", help="DeepSpeed JSON config the run will use.")
]
AccelerateOpt = Annotated[
    Path | None,
    typer.Option("--accelerate-config", help="accelerate config YAML the run will use."),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set", help="Usage fact KEY=VALUE (trainer=grpo, use_vllm=true, ...). Repeatable."
    ),
]
MatrixOpt = Annotated[
    list[Path] | None,
    typer.Option("--matrix", help="Add rule files (FILE or DIR of *.yaml). Repeatable."),
]
OutputOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write to FILE atomically instead of stdout.")
]
FailOnOpt = Annotated[
    FailOn,
    typer.Option(
        "--fail-on", help="Lowest status that makes the exit code 1.", case_sensitive=False
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print findings only.")]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", "-v", help="Say what was read and evaluated (stderr).")
]
NoColorOpt = Annotated[bool, typer.Option("--no-color", help="No colour (also: NO_COLOR=1).")]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal errors.")]
TimeoutOpt = Annotated[
    float,
    typer.Option("--timeout", help="Seconds to wait for the package index (per request).", min=0.1),
]


def finite_timeout(timeout: float) -> float:
    """--timeout must be a real number of seconds (click's min=0.1 lets NaN through)."""
    import math

    if not math.isfinite(timeout):
        raise UsageError(f"--timeout: {timeout} is not a number of seconds")
    return timeout


def fact_options(
    hardware: Path | None,
    no_probe: bool,
    deepspeed_config: Path | None,
    accelerate_config: Path | None,
    settings: list[str] | None,
    matrices: list[Path] | None,
) -> "FactOptions":
    """The facts options every command shares, as the layer below wants them."""
    from compat.facts import FactOptions

    return FactOptions(
        hardware_file=hardware,
        no_probe=no_probe,
        deepspeed_config=deepspeed_config,
        accelerate_config=accelerate_config,
        settings=tuple(settings or ()),
        matrices=tuple(matrices or ()),
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
    from compat.errors import one_line

    # One line, always: CI logs and wrappers read the first stderr line as the whole story.
    suffix = f" (hint: {one_line(hint)})" if hint else ""
    sys.stderr.write(f"compat: error: {one_line(message)}{suffix}\n")


def _guarded(body: Callable[[], int], debug: bool) -> NoReturn:
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
    except Exception as error:  # an unexpected crash must never read as a verdict
        if debug:
            import traceback

            traceback.print_exc()
        _error(
            f"internal error ({error.__class__.__name__}: {error}) — please report it at "
            "https://github.com/compat-dev/compat/issues (rerun with --debug for the traceback)"
        )
        code = EXIT_INTERNAL
    raise typer.Exit(code)


def colour_enabled(no_color: bool, output: Path | None) -> bool:
    if no_color or os.environ.get("NO_COLOR") or output is not None:
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()


def _verbose(enabled: bool, message: str) -> None:
    if enabled:
        sys.stderr.write(f"compat: {message}\n")


# ---------------------------------------------------------------------------------------------
# doctor


DOCTOR_HELP = """Check the installed environment, the GPU/driver and the training config.

\b
Examples:
  compat doctor
  compat doctor --deepspeed-config ds_zero3.json --set trainer=grpo --set use_vllm=true
  compat doctor --python ~/venvs/train/bin/python --format json -o report.json
  compat doctor --path /opt/site-packages --hardware cluster.json --fail-on possible
  compat doctor -- accelerate launch --config_file fsdp.yaml train.py --gradient_checkpointing

\b
After `--`, the training command is read (never run): the configs, process counts and flags it
names become facts, and the report says which it used. Without --accelerate-config, accelerate's
default config ($HF_HOME/accelerate/default_config.yaml) is read when `accelerate launch` would.

\b
Exit codes: 0 nothing at or above --fail-on; 1 findings; 2 bad usage or input;
3 nothing could be checked (no distributions, no knowledge base); 70 internal error.
"""


@app.command(help=DOCTOR_HELP)
def doctor(
    python: PythonOpt = None,
    path: PathOpt = None,
    conda_prefix: CondaPrefixOpt = None,
    hardware: HardwareOpt = None,
    no_probe: NoProbeOpt = False,
    deepspeed_config: DeepSpeedOpt = None,
    accelerate_config: AccelerateOpt = None,
    set_: SetOpt = None,
    matrix: MatrixOpt = None,
    format_: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ReportFormat.text,
    output: OutputOpt = None,
    fail_on: FailOnOpt = FailOn.AFFECTED,
    quiet: QuietOpt = False,
    verbose: VerboseOpt = False,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
    launch: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="[-- LAUNCH COMMAND...]",
            help="The training command, after --: read for configs and flags, never run.",
            show_default=False,
        ),
    ] = None,
) -> None:
    def body() -> int:
        from dataclasses import replace

        from compat.doctor import run_doctor
        from compat.facts import EnvOptions
        from compat.formats import formatter
        from compat.output import emit

        options = fact_options(
            hardware, no_probe, deepspeed_config, accelerate_config, set_, matrix
        )
        options = replace(options, launch=tuple(launch or ()), default_accelerate_config=True)
        report = run_doctor(
            EnvOptions(python=python, paths=tuple(path or ()), conda_prefix=conda_prefix), options
        )
        _verbose(
            verbose,
            f"{report.environment['source']}: {report.environment['packages']} distributions",
        )
        if quiet and format_ is ReportFormat.text:
            from compat.formats.text import render_findings

            text = render_findings(report, colour_enabled(no_color, output))
        else:
            text = formatter(format_.value)(report, colour_enabled(no_color, output))
        emit(text, output)
        return report.exit_code(fail_on)

    _guarded(body, debug)


# ---------------------------------------------------------------------------------------------
# probe


@app.command(
    help="""Show the GPUs, driver and CUDA facts training will see (NVML; no CUDA context).

\b
Examples:
  compat probe
  compat probe --format json -o cluster.json   # a profile for `--hardware` on CPU-only CI
"""
)
def probe(
    format_: Annotated[
        ProbeFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ProbeFormat.text,
    output: OutputOpt = None,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.output import emit
        from compat.probes.gpu import probe_hardware
        from compat.probes.profile import profile_document, render_profile_text

        hardware = probe_hardware()
        if format_ is ProbeFormat.json:
            import json

            emit(json.dumps(profile_document(hardware), indent=2) + "\n", output)
        else:
            emit(render_profile_text(hardware), output)
        return EXIT_OK

    _guarded(body, debug)


# ---------------------------------------------------------------------------------------------
# explain


@app.command(
    help="""Find the known cause of an error in a training log, and the fix.

The log is streamed (any size; '-' for stdin; gzip, xz and zstd recognised), and the versions
and configuration it prints (pip list/freeze, conda list, ds_report, trl env, collect_env,
nvidia-smi, DeepSpeed's config dump, launcher flags) are the facts each rule is judged on:
CONFIRMED, OUTSIDE-RANGE (same message, versions or config outside the rule) or SYMPTOM-ONLY.
--python/--path, config files, --set and --hardware take precedence over the log.

\b
Examples:
  compat explain train.log
  compat explain - < slurm-1234.out
  zcat job.log.gz | compat explain -
  compat explain train.log --deepspeed-config ds.json --format json

\b
Exit codes: 0 a known cause matched (confirmed or symptom-only); 1 none did
(nothing matched, or only outside-range matches and unrelated errors);
2 unreadable log or bad input.
"""
)
def explain(
    log: Annotated[Path, typer.Argument(help="The log file ('-' for stdin).")],
    python: PythonOpt = None,
    path: PathOpt = None,
    hardware: HardwareOpt = None,
    no_probe: NoProbeOpt = False,
    deepspeed_config: DeepSpeedOpt = None,
    accelerate_config: AccelerateOpt = None,
    set_: SetOpt = None,
    matrix: MatrixOpt = None,
    format_: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ReportFormat.text,
    output: OutputOpt = None,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.explain import has_cause, render_explanations, run_explain
        from compat.facts import EnvOptions
        from compat.output import emit

        # A log usually comes from another machine: this one is never probed (--no-probe is
        # accepted for symmetry with the other commands); --hardware FILE gives the GPUs.
        explanations = run_explain(
            log,
            EnvOptions(python=python, paths=tuple(path or ())),
            fact_options(hardware, no_probe, deepspeed_config, accelerate_config, set_, matrix),
        )
        emit(
            render_explanations(explanations, format_.value, colour_enabled(no_color, output)),
            output,
        )
        return EXIT_OK if has_cause(explanations) else 1  # like grep: 0 when a cause matched

    _guarded(body, debug)


# ---------------------------------------------------------------------------------------------
# matrix lint | list | show


@matrix_app.command(
    "lint",
    help="""Validate rule files, run their examples and check their fixes.

\b
Examples:
  compat matrix lint                  # the shipped knowledge base
  compat matrix lint my-rules.yaml    # your own rules, checked together with the shipped ones
""",
)
def matrix_lint(
    paths: Annotated[list[Path] | None, typer.Argument(help="Rule files or directories.")] = None,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.lint import lint

        result = lint(tuple(paths or ()))
        from compat.errors import one_line

        for problem in result.problems:
            sys.stderr.write(f"{one_line(problem)}\n")
        if result.problems:
            sys.stderr.write(
                f"compat: {len(result.problems)} problem(s) in {result.files} file(s)\n"
            )
            return 2
        sys.stdout.write(
            f"{result.rules} rules in {result.files} file(s): OK ({result.examples} examples run)\n"
        )
        return EXIT_OK

    _guarded(body, debug)


@matrix_app.command(
    "update",
    help="""Fetch a newer knowledge-base bundle, verify its sha256 against the index, and use it.

The index URL: --url (--matrix-url), else $COMPAT_MATRIX_URL, else the latest GitHub release of compat
(docs/bundles.md has the format and the trust model). On any failure the knowledge base in
force stays as it is. --reset goes back to the rules shipped with compat.

\b
Examples:
  compat matrix update
  compat matrix update --url https://mirror.example.com/compat/compat-kb-index.json
  compat matrix update --reset

\b
Exit codes: 0 updated or already current; 2 the index or bundle was rejected (digest
mismatch, truncated, invalid rules, needs a newer compat) or a bad --url; 3 nothing could be
downloaded (offline, HTTP error, timeout).
""",
)
def matrix_update(
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
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.bundle import remove_installed
        from compat.bundlestate import active_bundle
        from compat.kbupdate import index_url, update

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
            result = update(index_url(url), timeout=timeout)
        except CompatError as error:
            error.message = f"matrix update: {error.message}; {in_force} stays in force"
            error.origin = None
            raise
        verb = "updated to" if result.changed else "already current:"
        sys.stdout.write(
            f"knowledge base {verb} bundle {result.version} ({result.rules} rules, "
            f"sha256:{result.sha256[:16]}…) from {result.source}\n"
        )
        return EXIT_OK

    _guarded(body, debug)


@matrix_app.command(
    "list",
    help="List the rules of the knowledge base.\n\n\b\nExamples:\n  compat matrix list\n  compat matrix list --format json",
)
def matrix_list(
    matrix: MatrixOpt = None,
    format_: Annotated[
        ProbeFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ProbeFormat.text,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.knowledge import load_knowledge_base

        kb = load_knowledge_base(tuple(matrix or ()))
        rules = kb.rules()
        if format_ is ProbeFormat.json:
            import json

            rows = [
                {
                    "id": r.id,
                    "severity": r.severity.value,
                    "evidence": r.evidence.value,
                    "title": r.title,
                }
                for r in rules
            ]
            document = {"digest": kb.digest, "source": kb.source, "version": kb.version}
            sys.stdout.write(json.dumps({**document, "rules": rows}, indent=2) + "\n")
            return EXIT_OK
        from compat.output import safe_text

        width = max(len(r.id) for r in rules)
        for r in rules:
            sys.stdout.write(
                safe_text(
                    f"{r.id:{width}}  {r.severity.value:7}  {r.evidence.value:8}  {r.title}\n"
                )
            )
        where = f"bundle {kb.version}" if kb.source == "bundle" else "shipped"
        sys.stdout.write(f"\n{len(rules)} rules · {kb.digest[:19]} · {where}\n")
        return EXIT_OK

    _guarded(body, debug)


@matrix_app.command(
    "show",
    help="Show one rule in full.\n\n\b\nExample:\n  compat matrix show deepspeed-zero3-offload-clip-device-mismatch",
)
def matrix_show(
    rule_id: Annotated[str, typer.Argument(help="The rule id.")],
    matrix: MatrixOpt = None,
    format_: Annotated[
        ProbeFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ProbeFormat.text,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.knowledge import load_knowledge_base
        from compat.ruleview import render_rule

        kb = load_knowledge_base(tuple(matrix or ()))
        rule = kb.get(rule_id)
        if rule is None:
            import difflib

            ids = [r.id for r in kb.rules()]
            close = difflib.get_close_matches(rule_id, ids, n=1)
            raise UsageError(
                f"no rule {rule_id!r} in the knowledge base",
                hint=f"did you mean {close[0]}?"
                if close
                else "`compat matrix list` shows every id",
            )
        from compat.output import safe_text

        sys.stdout.write(safe_text(render_rule(rule, format_.value)))
        return EXIT_OK

    _guarded(body, debug)


# ---------------------------------------------------------------------------------------------
# check


class CheckFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    sarif = "sarif"
    github = "github"


CHECK_HELP = """Gate requirement and lock file changes in CI: fail when they pin a known-bad combination.

Reads requirements files (pip syntax, -r/-c includes), pyproject.toml, pylock.toml, uv.lock, pip
--report JSON and pip freeze output. Ranged requirements are checked against released versions
(the package index; --offline: the versions the knowledge base names). Waivers come from
[tool.compat] in pyproject.toml or .compat.toml in the current directory.

\b
Examples:
  compat check requirements.txt
  compat check uv.lock --hardware cluster.json --python-version 3.11 --platform linux
  compat check requirements/*.txt --format sarif -o compat.sarif
  compat check requirements.txt --format github --step-summary --offline

\b
Exit codes: 0 nothing at or above --fail-on (new since --baseline); 1 findings;
2 bad usage or an invalid/unreadable file; 3 nothing could be checked; 70 internal error.
"""


@app.command(help=CHECK_HELP)
def check(
    files: Annotated[
        list[Path],
        typer.Argument(
            help="Requirement files, pyproject.toml (PEP 621, Poetry, [tool.pixi]), setup.py (read, "
            "never run), Pipfile, Pipfile.lock, pylock.toml, uv.lock, pip --report JSON, conda "
            "environment.yml, pixi.toml or pixi.lock."
        ),
    ],
    hardware: HardwareOpt = None,
    no_probe: Annotated[
        bool,
        typer.Option(
            "--no-probe", help="Accepted for symmetry: check never probes unless --probe."
        ),
    ] = False,
    probe: Annotated[
        bool,
        typer.Option(
            "--probe",
            help="Probe this machine's GPU and driver (check is usually run on a CI runner, not "
            "the training machine: prefer --hardware or [tool.compat] hardware).",
        ),
    ] = False,
    deepspeed_config: DeepSpeedOpt = None,
    accelerate_config: AccelerateOpt = None,
    set_: SetOpt = None,
    matrix: MatrixOpt = None,
    python_version: Annotated[
        str | None,
        typer.Option("--python-version", help="Target Python (default: this interpreter's)."),
    ] = None,
    platform: Annotated[
        str | None,
        typer.Option(
            "--platform", help="Target platform: linux, darwin, win32 (optionally /MACHINE)."
        ),
    ] = None,
    pixi_environment: Annotated[
        str | None,
        typer.Option(
            "--pixi-environment", help="The pixi environment judged (default: `default`)."
        ),
    ] = None,
    index_url: Annotated[
        str | None,
        typer.Option("--index-url", "-i", help="Base URL of the package index (PEP 503/691)."),
    ] = None,
    extra_index_url: Annotated[
        list[str] | None, typer.Option("--extra-index-url", help="More index URLs. Repeatable.")
    ] = None,
    offline: Annotated[
        bool, typer.Option("--offline", help="No network: ranges against knowledge-base versions.")
    ] = False,
    resolver: Annotated[
        str,
        typer.Option(
            "--resolver",
            help="Which real resolver judges ranges: auto (uv when installed, else pip), pip, uv.",
        ),
    ] = "auto",
    timeout: TimeoutOpt = 15.0,
    format_: Annotated[
        CheckFormat, typer.Option("--format", "-f", help="Output format.")
    ] = CheckFormat.text,
    output: OutputOpt = None,
    fail_on: FailOnOpt = FailOn.AFFECTED,
    baseline: Annotated[
        Path | None,
        typer.Option("--baseline", help="Fail only on findings not in this earlier JSON report."),
    ] = None,
    step_summary: Annotated[
        bool,
        typer.Option(
            "--step-summary", help="Also append the Markdown report to $GITHUB_STEP_SUMMARY."
        ),
    ] = False,
    quiet: QuietOpt = False,
    no_color: NoColorOpt = False,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        import dataclasses
        import datetime as dt

        from compat.check import TargetOptions, run_check
        from compat.formats import formatter
        from compat.output import emit
        from compat.pincmd import IndexOptions
        from compat.waivers import apply_waivers, load_baseline, load_waivers, new_since_baseline

        if probe and no_probe:
            raise UsageError("--probe and --no-probe contradict each other: give one of them")
        baseline_keys = load_baseline(baseline) if baseline is not None else None
        waivers = load_waivers(Path.cwd())
        report, findings = run_check(
            files,
            fact_options(hardware, no_probe, deepspeed_config, accelerate_config, set_, matrix),
            TargetOptions(python_version, platform, pixi_environment),
            IndexOptions(
                index_url=index_url,
                extra_index_urls=tuple(extra_index_url or ()),
                offline=offline,
                timeout=finite_timeout(timeout),
            ),
            probe=probe,
            resolver=resolver,
        )
        kept, waiver_notes = apply_waivers(findings, waivers, dt.date.today())
        report = dataclasses.replace(
            report, findings=tuple(kept), notes=(*report.notes, *waiver_notes)
        )
        if quiet and format_ is CheckFormat.text:
            from compat.formats.text import render_findings

            text = render_findings(report, colour_enabled(no_color, output))
        else:
            text = formatter(format_.value)(report, colour_enabled(no_color, output))
        emit(text, output)
        if step_summary:
            append_step_summary(formatter("markdown")(report, False))
        failing = report.failing(fail_on)
        if baseline_keys is not None:
            failing = new_since_baseline(failing, baseline_keys)
        return 1 if failing else EXIT_OK

    _guarded(body, debug)


def append_step_summary(markdown: str) -> None:
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        raise UsageError(
            "--step-summary: $GITHUB_STEP_SUMMARY is not set (it is inside GitHub Actions)"
        )
    from compat.output import append_text

    append_text(target, markdown, "$GITHUB_STEP_SUMMARY")


# ---------------------------------------------------------------------------------------------
# pin


class PinFormat(str, Enum):
    text = "text"
    json = "json"


class Avoid(str, Enum):
    affected = "affected"
    possible = "possible"


PIN_HELP = """Write pip constraints that keep the stack out of every known-bad combination.

Every installed package the knowledge base speaks of is pinned: to the installed version where it
is safe, to a chosen one where it is not (each line says why). Versions come from the package index
in your pip/uv configuration, cached; --offline uses only the cache, the installed versions and the
versions the knowledge base names. Never below what the stated usage needs (GRPO: trl 0.14.0);
your exact pins (== in -r files, --keep) move only when nothing else escapes; a chosen torch CUDA
build is written as an --extra-index-url line plus a +cuXYZ pin. Before writing, the real resolver
(uv, else pip) installs your requirements under the constraints and compat re-checks the result
(--no-verify and --offline skip this proof and say so).

\b
Examples:
  compat pin > constraints.txt && pip install -c constraints.txt -r requirements.txt
  compat pin --deepspeed-config ds.json -o constraints.txt
  compat pin --python ~/venvs/train/bin/python --freeze --offline
  compat pin -r requirements.txt -o constraints.txt

\b
Exit codes: 0 written; 1 written, but some rule could not be escaped (see UNRESOLVED lines) or
the resolver refused the constraints (PROOF FAILED);
2 bad input or an unreachable index; 3 nothing could be checked.
"""


@app.command(help=PIN_HELP)
def pin(
    python: PythonOpt = None,
    path: PathOpt = None,
    conda_prefix: CondaPrefixOpt = None,
    hardware: HardwareOpt = None,
    no_probe: NoProbeOpt = False,
    deepspeed_config: DeepSpeedOpt = None,
    accelerate_config: AccelerateOpt = None,
    set_: SetOpt = None,
    matrix: MatrixOpt = None,
    index_url: Annotated[
        str | None,
        typer.Option("--index-url", "-i", help="Base URL of the package index (PEP 503/691)."),
    ] = None,
    extra_index_url: Annotated[
        list[str] | None, typer.Option("--extra-index-url", help="More index URLs. Repeatable.")
    ] = None,
    offline: Annotated[
        bool,
        typer.Option("--offline", help="No network: cache, installed and knowledge-base versions."),
    ] = False,
    timeout: TimeoutOpt = 15.0,
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
    format_: Annotated[
        PinFormat, typer.Option("--format", "-f", help="Output format.")
    ] = PinFormat.text,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
    debug: DebugOpt = False,
) -> None:
    def body() -> int:
        from compat.facts import EnvOptions
        from compat.output import emit
        from compat.pincmd import (
            IndexOptions,
            pin_exit_code,
            render_constraints,
            render_json,
            run_pin,
        )

        result = run_pin(
            EnvOptions(python=python, paths=tuple(path or ()), conda_prefix=conda_prefix),
            fact_options(hardware, no_probe, deepspeed_config, accelerate_config, set_, matrix),
            IndexOptions(
                index_url=index_url,
                extra_index_urls=tuple(extra_index_url or ()),
                offline=offline,
                timeout=finite_timeout(timeout),
                pytorch_index=pytorch_index,
            ),
            requirements=tuple(requirement or ()),
            freeze=freeze,
            avoid_possible=avoid is Avoid.possible,
            keep=tuple(keep or ()),
            verify=not no_verify,
            resolver=resolver,
            progress=None if quiet else progress_reporter(),
        )
        text = render_json(result) if format_ is PinFormat.json else render_constraints(result)
        emit(text, output)
        if result.proof is not None and result.proof.status == "failed":
            sys.stderr.write(
                f"compat: warning: the resolver refused the constraints: {result.proof.detail}\n"
            )
        for item in result.plan.unresolved:
            sys.stderr.write(
                f"compat: warning: could not escape {item.rule.id} ({item.status.value}): {item.why}\n"
            )
        return pin_exit_code(result)

    _guarded(body, debug)


FLEET_HELP = """One report for every node of a job: per-node findings and the facts that differ.

Ray: one zero-CPU task pinned to each node runs doctor there (compat is shipped with the task;
the node's own COMPAT_* variables apply, e.g. COMPAT_HARDWARE). Run it with the cluster's
Python environment (pip install 'compat[ray]'): Ray refuses a driver of another Ray or Python.
Slurm and anything else: run doctor on every node, then merge the reports.

\b
Examples:
  compat fleet --ray auto
  srun --ntasks-per-node=1 compat doctor --format json -o reports/%N.json
  compat fleet --reports reports/ --nodes "$SLURM_JOB_NODELIST"
  compat fleet --reports reports/*.json --format markdown -o fleet.md

\b
Exit codes: 0 nothing at or above --fail-on and the compared facts agree; 1 findings or facts
that differ; 2 bad usage, an unreadable report or no Ray cluster (Ray/Python mismatch included);
3 a node could not be checked (dead, timed out, no report) unless --allow-missing; 70 internal error.
"""


@app.command(help=FLEET_HELP)
def fleet(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="More report files or directories (with --reports).", show_default=False
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option("--ray", help="Ray cluster address ('auto': the running cluster)."),
    ] = None,
    reports: Annotated[
        list[Path] | None,
        typer.Option(
            "--reports", help="compat.report/1 files, or directories of *.json. Repeatable."
        ),
    ] = None,
    nodes: Annotated[
        str | None,
        typer.Option(
            "--nodes",
            help="Nodes that must have a report (Slurm hostlist: gpu[01-04]); default "
            "$SLURM_JOB_NODELIST when set.",
        ),
    ] = None,
    allow_missing: Annotated[
        bool,
        typer.Option("--allow-missing", help="Nodes that could not be checked do not make exit 3."),
    ] = False,
    timeout: Annotated[
        float,
        typer.Option("--timeout", help="Seconds to wait for the nodes' answers (--ray).", min=1.0),
    ] = 60.0,
    deepspeed_config: DeepSpeedOpt = None,
    accelerate_config: AccelerateOpt = None,
    set_: SetOpt = None,
    matrix: MatrixOpt = None,
    format_: Annotated[
        ReportFormat, typer.Option("--format", "-f", help="Output format.")
    ] = ReportFormat.text,
    output: OutputOpt = None,
    fail_on: FailOnOpt = FailOn.AFFECTED,
    debug: DebugOpt = False,
) -> None:
    # Options that apply to one path only are ignored on the other path when they came from
    # the environment (COMPAT_SET exported for doctor must not break `fleet --reports`).
    ambient = _from_environment()
    if reports or paths:
        deepspeed_config = None if "deepspeed_config" in ambient else deepspeed_config
        accelerate_config = None if "accelerate_config" in ambient else accelerate_config
        set_ = None if "set_" in ambient else set_
        matrix = None if "matrix" in ambient else matrix
    elif "nodes" in ambient:
        nodes = None

    def body() -> int:
        from compat.fleetcmd import run_fleet

        fleet_report = run_fleet(
            ray=ray,
            reports=[*(reports or ()), *(paths or ())] if reports or paths else None,
            nodes=nodes,
            timeout=finite_timeout(timeout),
            facts=fact_options(None, False, deepspeed_config, accelerate_config, set_, matrix),
            given_paths=bool(paths) and not reports,
        )
        from compat.fleetview import render
        from compat.output import emit

        emit(render(fleet_report, format_.value), output)
        return fleet_report.exit_code(fail_on, allow_missing)

    _guarded(body, debug)


def progress_reporter() -> Callable[[str], None] | None:
    """Progress for network work on stderr, only on a terminal (never in piped output)."""
    if not sys.stderr.isatty() or os.environ.get("CI"):
        return None

    def report(message: str) -> None:
        sys.stderr.write(f"\r\x1b[K{message}")
        sys.stderr.flush()

    return report


def main() -> None:
    _register_only_the_invoked_command(sys.argv[1:])
    app(prog_name="compat")


# The words that need every command registered: help, version and completion.
_NEEDS_ALL = {"--help", "-h", "--version", "--install-completion", "--show-completion"}


def _register_only_the_invoked_command(argv: list[str]) -> None:
    """Build only the command being run: typer turns every registered command's signature
    into click parameters at start-up (about 10 ms for all of them), and `compat doctor` runs
    before every training job. Help, version and shell completion still see every command."""
    if not argv or argv[0].startswith("-") or _NEEDS_ALL.intersection(argv):
        return
    if any(name.startswith("_COMPAT") and name.endswith("_COMPLETE") for name in os.environ):
        return
    wanted = argv[0]
    commands = [c for c in app.registered_commands if _command_name(c) == wanted]
    if not commands:  # a group (`matrix`) or a typo: click's own handling, with every command
        return
    app.registered_commands = commands
    app.registered_groups = []


def _command_name(info: Any) -> str:
    name = info.name or info.callback.__name__
    return str(name).replace("_", "-")
