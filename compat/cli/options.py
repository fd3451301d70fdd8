"""Options declared once: the spellings every command shares, and the groups they form.

A command takes a group as one parameter, `facts: Annotated["FactOptions", FACTS]`; `command`
(compat.cli.base) lists the group's options in that place, so `--help` shows them where the
command names the group, and hands the command the value the group builds (FactOptions,
KnowledgeChoice, EnvOptions, IndexOptions). A command that words one option differently, or takes one more in
the middle of a group, says so with `but` or `plus`; the rest stays declared here only.
"""

import inspect
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Generic, TypeVar, get_args, get_origin

import typer

from compat.report import FailOn

if TYPE_CHECKING:
    from compat.facts.gather import EnvOptions, FactOptions
    from compat.kb.knowledge import KnowledgeChoice
    from compat.resolve.sources.indexconfig import IndexOptions

T = TypeVar("T")


class OptionGroup(Generic[T]):
    """Options that travel together, and the one value `build` makes of them."""

    def __init__(
        self,
        build: Callable[..., T],
        parameters: Sequence[inspect.Parameter] | None = None,
        passed: frozenset[str] = frozenset(),
    ) -> None:
        self.build = build
        if parameters is None:
            parameters = tuple(inspect.signature(build).parameters.values())
        self.parameters = tuple(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters)
        self.passed = passed  # options listed with the group but handed to the command itself

    def but(self, **annotations: Any) -> "OptionGroup[T]":
        """The same options, some worded differently for one command."""
        unknown = set(annotations) - {p.name for p in self.parameters}
        if unknown:
            raise TypeError(f"no such options in the group: {sorted(unknown)}")
        parameters = [
            p.replace(annotation=annotations.get(p.name, p.annotation)) for p in self.parameters
        ]
        return OptionGroup(self.build, parameters, self.passed)

    def only(self, *names: str) -> "OptionGroup[T]":
        """Some of the options; `build` takes its defaults for the others."""
        return OptionGroup(self.build, [p for p in self.parameters if p.name in names], self.passed)

    def plus(self, after: str, name: str, annotation: Any, default: Any) -> "OptionGroup[T]":
        """One more option listed after `after`, given to the command as its own parameter."""
        parameters = list(self.parameters)
        at = [p.name for p in parameters].index(after) + 1
        extra = inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
        )
        parameters.insert(at, extra)
        return OptionGroup(self.build, parameters, self.passed | {name})

    def make(self, values: dict[str, Any]) -> T:
        """Take the group's options out of `values` and build its value."""
        own = {p.name: values.pop(p.name) for p in self.parameters if p.name not in self.passed}
        return self.build(**own)


def group_of(annotation: Any) -> "OptionGroup[Any] | None":
    if get_origin(annotation) is not Annotated:
        return None
    return next((m for m in get_args(annotation)[1:] if isinstance(m, OptionGroup)), None)


def expand(body: Callable[..., Any]) -> tuple[inspect.Signature, dict[str, OptionGroup[Any]]]:
    """The signature typer should see for `body` (each group's options in its place, all of them
    keyword-only), and the groups by the parameter name they are handed to `body` under."""
    signature = inspect.signature(body)
    groups: dict[str, OptionGroup[Any]] = {}
    for param in signature.parameters.values():
        group = group_of(param.annotation)
        if group is not None:
            groups[param.name] = group
    passed = {name for group in groups.values() for name in group.passed}
    shown: list[inspect.Parameter] = []
    for param in signature.parameters.values():
        if param.name in groups:
            shown.extend(groups[param.name].parameters)
        elif param.name not in passed:  # listed where its group lists it
            shown.append(param.replace(kind=inspect.Parameter.KEYWORD_ONLY))
    return signature.replace(parameters=shown), groups


class ReportFormat(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    html = "html"


class TextOrJson(str, Enum):
    text = "text"
    json = "json"


# ---------------------------------------------------------------------------------------------
# Spellings (typer has no option groups of its own: these aliases keep them identical)

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
IndexUrlOpt = Annotated[
    str | None,
    typer.Option("--index-url", "-i", help="Base URL of the package index (PEP 503/691)."),
]
ExtraIndexUrlOpt = Annotated[
    list[str] | None, typer.Option("--extra-index-url", help="More index URLs. Repeatable.")
]
OfflineOpt = Annotated[
    bool, typer.Option("--offline", help="No network: ranges against knowledge-base versions.")
]
TimeoutOpt = Annotated[
    float,
    typer.Option("--timeout", help="Seconds to wait for the package index (per request).", min=0.1),
]
OutputOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write to FILE atomically instead of stdout.")
]
ReportsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--report",
        metavar="FORMAT=FILE",
        help="Also write the report in FORMAT to FILE, atomically, from the same run (repeatable: "
        "--report sarif=compat.sarif --report junit=compat.xml). FORMAT: text, json, markdown, "
        "html, sarif, github, junit, gitlab.",
        show_default=False,
    ),
]
FailOnOpt = Annotated[
    FailOn,
    typer.Option(
        "--fail-on", help="Lowest status that makes the exit code 1.", case_sensitive=False
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print findings only.")]
NoProgressOpt = Annotated[  # commands that print no findings of their own: --quiet is this only
    bool, typer.Option("--quiet", "-q", help="No progress on stderr (none in a pipe or under CI).")
]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", "-v", help="Say what was read and evaluated (stderr).")
]
NoColorOpt = Annotated[bool, typer.Option("--no-color", help="No colour (also: NO_COLOR=1).")]
DebugOpt = Annotated[bool, typer.Option("--debug", help="Show tracebacks of internal errors.")]
ReportFormatOpt = Annotated[ReportFormat, typer.Option("--format", "-f", help="Output format.")]
InstallOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--install",
        metavar="SPEC",
        help="Judge the environment `pip install SPEC` would leave (repeatable; "
        "`--install -r FILE` for a requirements file). Nothing is installed.",
        show_default=False,
    ),
]
TextOrJsonOpt = Annotated[TextOrJson, typer.Option("--format", "-f", help="Output format.")]


# ---------------------------------------------------------------------------------------------
# Groups: the options, and the value the layer below wants of them


def _environment(
    python: PythonOpt = None, path: PathOpt = None, conda_prefix: CondaPrefixOpt = None
) -> "EnvOptions":
    from compat.facts.gather import EnvOptions

    return EnvOptions(python=python, paths=tuple(path or ()), conda_prefix=conda_prefix)


def _facts(
    hardware: HardwareOpt = None,
    no_probe: NoProbeOpt = False,
    deepspeed_config: DeepSpeedOpt = None,
    accelerate_config: AccelerateOpt = None,
    set_: SetOpt = None,
) -> "FactOptions":
    from compat.facts.gather import FactOptions

    return FactOptions(
        hardware_file=hardware,
        no_probe=no_probe,
        deepspeed_config=deepspeed_config,
        accelerate_config=accelerate_config,
        settings=tuple(set_ or ()),
    )


def _knowledge(matrix: MatrixOpt = None) -> "KnowledgeChoice":
    from compat.kb.knowledge import KnowledgeChoice

    return KnowledgeChoice(matrices=tuple(matrix or ()))


def _index(
    index_url: IndexUrlOpt = None,
    extra_index_url: ExtraIndexUrlOpt = None,
    offline: OfflineOpt = False,
    timeout: TimeoutOpt = 15.0,
) -> "IndexOptions":
    from compat.resolve.sources.indexconfig import IndexOptions

    return IndexOptions(
        index_url=index_url,
        extra_index_urls=tuple(extra_index_url or ()),
        offline=offline,
        timeout=finite_timeout(timeout),
    )


def finite_timeout(timeout: float) -> float:
    """--timeout must be a real number of seconds (click's min=0.1 lets NaN through)."""
    import math

    from compat.errors import UsageError

    if not math.isfinite(timeout):
        raise UsageError(f"--timeout: {timeout} is not a number of seconds")
    return timeout


ENVIRONMENT = OptionGroup(_environment)  # --python, --path, --conda-prefix: which environment
FACTS = OptionGroup(_facts)  # --hardware, --no-probe, the configs, --set: what the run is told
KNOWLEDGE = OptionGroup(_knowledge)  # --matrix: which rules judge it (listed after FACTS)
INDEX = OptionGroup(_index)  # --index-url, --extra-index-url, --offline, --timeout
