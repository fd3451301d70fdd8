"""Gathering facts: environment + hardware + usage -> `Facts` for the engine.

This is where the command-line choices (`--python`, `--path`, `--hardware`, `--no-probe`,
`--deepspeed-config`, `--accelerate-config`, `--set`) become sources and probes, once: each file
they name is read here, through compat.files.readers (which names the file and line of a bad
byte), and its text handed with the file's name to a pure interpreter (compat.probes.configs,
compat.probes.profile); below this module only facts flow. Nothing here prints; the CLI decides
what to say about what was gathered.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from compat.errors import UsageError
from compat.lazyre import Lazy
from compat.model import Environment, Facts, Hardware, Origin, PackageFact, UsageFact

if TYPE_CHECKING:
    from packaging.version import Version

    from compat.probes.cuda import NvccQuery
    from compat.probes.gpu import HardwareProbe


@dataclass(frozen=True)
class FactOptions:
    """The facts options shared by doctor, check, pin and explain."""

    hardware_file: Path | None = None
    no_probe: bool = False
    deepspeed_config: Path | None = None
    accelerate_config: Path | None = None
    settings: Sequence[str] = ()


@dataclass(frozen=True)
class DoctorFactOptions(FactOptions):
    """doctor's own: the training command after `--` (read, never run), and accelerate's default
    config read where `accelerate launch` would read it. The shared group never carries them."""

    launch: Sequence[str] = ()

    @classmethod
    def of(cls, facts: FactOptions, launch: Sequence[str]) -> DoctorFactOptions:
        shared = {f.name: getattr(facts, f.name) for f in fields(FactOptions)}
        return cls(**shared, launch=tuple(launch))


@dataclass(frozen=True)
class EnvOptions:
    python: Path | None = None
    paths: Sequence[Path] = field(default_factory=tuple)
    conda_prefix: Path | None = None  # a conda environment that is not the running one


def read_environment(options: EnvOptions) -> Environment:
    """The distributions of the chosen environment; where it is a conda environment (its prefix
    holds conda-meta/), its conda records too (compat.facts.conda)."""
    from compat.facts import installed

    if options.python is not None and (options.paths or options.conda_prefix is not None):
        raise UsageError(
            "--python and --path/--conda-prefix select different environments: give one of them"
        )
    if options.conda_prefix is not None:
        return _read_conda_prefix(options.conda_prefix, options.paths)
    if options.python is not None:
        return _with_conda(installed.read_python(options.python))
    if options.paths:
        env = installed.read_paths(options.paths)
        if env.python_version is None:  # a `pip install --target` dir: ask its compiled wheels
            python = python_from_wheel_tags(env)
            if python is not None:
                env = replace(env, python_version=python)
        from compat.facts.conda import prefix_of

        prefix = prefix_of(options.paths[0])
        return _with_conda(replace(env, prefix=str(prefix))) if prefix is not None else env
    return _with_conda(installed.read_running())


def _with_conda(env: Environment) -> Environment:
    """One stat when the prefix is not a conda environment: doctor's start-up stays as it was."""
    if env.prefix is None or not os.path.isdir(os.path.join(env.prefix, "conda-meta")):
        return env
    from compat.facts.conda import merge

    return merge(env, Path(env.prefix))


def _read_conda_prefix(prefix: Path, paths: Sequence[Path]) -> Environment:
    from compat.facts import installed
    from compat.facts.conda import check_prefix, merge, site_packages

    check_prefix(prefix)
    dirs = list(paths) or site_packages(prefix)
    if dirs:
        env = installed.read_paths(dirs)
    else:  # no Python in it (yet): the conda records are all there is
        env = Environment(source=f"conda prefix {prefix}", packages={}, markers={})
    return merge(replace(env, prefix=str(prefix)), prefix)


_CPYTHON_TAG = Lazy(r"^Tag:\s*cp(\d)(\d+)-cp(\d)(\d+)[a-z]*-", re.MULTILINE)
_CPYTHON_PYC = Lazy(r"\.cpython-(\d)(\d+)[a-z]*[.-]")


def python_from_wheel_tags(env: Environment, limit: int = 64) -> Version | None:
    """The Python a directory was installed for: the WHEEL tags of its compiled wheels
    (`Tag: cp311-cp311-manylinux...`; `abi3` gives only a floor and is skipped), else the
    byte-code pip compiled at install time, as RECORD lists it (`__pycache__/x.cpython-311.pyc`)."""

    records = []
    for checked, package in enumerate(env.packages.values()):
        if checked >= limit or package.origin is None:
            break
        dist_info = Path(package.origin.path)
        try:
            text = (dist_info / "WHEEL").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        match = _CPYTHON_TAG.search(text)
        if match and match.group(1, 2) == match.group(3, 4):
            return _python(match.group(1), match.group(2))
        records.append(dist_info / "RECORD")
    for record in records:
        try:
            with record.open(encoding="utf-8", errors="replace") as handle:
                head = handle.read(65536)  # torch's RECORD runs to megabytes: its start suffices
        except OSError:
            continue
        found = _CPYTHON_PYC.search(head)
        if found:
            return _python(found.group(1), found.group(2))
    return None


def _python(major: str, minor: str) -> Version | None:
    """`3.11` from a wheel tag or a byte-code name; None for a number no Python has."""
    from packaging.version import InvalidVersion

    from compat.versions import parse_version

    try:
        return parse_version(f"{major}.{minor}")
    except InvalidVersion:
        return None


def read_facts(
    options: FactOptions, notes: list[str] | None = None
) -> tuple[dict[str, UsageFact], Hardware | None, str]:
    """Every input of the facts options in one go: the usage facts, then the hardware and the
    note on where it came from (a bad file is reported before any slow work)."""
    usage = read_usage(options, notes)
    hardware, hardware_note = read_hardware(options)
    return usage, hardware, hardware_note


def read_hardware(
    options: FactOptions, started: HardwareProbe | None = None
) -> tuple[Hardware | None, str]:
    """The hardware facts and a note on where they came from (or why they are unknown).
    `started`: the probe `start_probe` began earlier for these options, read here."""
    if options.hardware_file is not None:
        if options.no_probe:
            raise UsageError("--hardware and --no-probe contradict each other: give one of them")
        from compat.probes.profile import PROFILE_READ, profile_from_text

        path = options.hardware_file
        return profile_from_text(_read_config(path, PROFILE_READ), str(path)), f"profile {path}"
    if options.no_probe:
        return None, "--no-probe"
    if started is None:
        from compat.probes.gpu import HardwareProbe

        started = HardwareProbe()
    return started.result(), "probed"


def start_probe(options: FactOptions) -> HardwareProbe | None:
    """The live GPU probe these options ask for (neither --hardware nor --no-probe), started
    now so that it runs while other inputs are read; None when they ask for none."""
    if options.hardware_file is not None or options.no_probe:
        return None
    from compat.probes.gpu import HardwareProbe

    return HardwareProbe()


def read_usage(options: FactOptions, notes: list[str] | None = None) -> dict[str, UsageFact]:
    """Usage facts, later layers winning: accelerate's default config, what the launch command
    names (its accelerate config, its DeepSpeed config, its flags), the --accelerate-config and
    --deepspeed-config files, then --set. `notes` receives a line per source read implicitly."""
    from compat.usage import merge_usage

    layers: list[Mapping[str, UsageFact]] = []
    launch = None
    doctor = isinstance(options, DoctorFactOptions)
    command = options.launch if isinstance(options, DoctorFactOptions) else ()
    if command:
        from compat.facts.launch import describe, parse_launch

        launch = parse_launch(command)
        if notes is not None:
            notes.append(describe(launch))
    if (
        doctor
        and options.accelerate_config is None
        and (launch is None or (launch.uses_accelerate and launch.accelerate_config is None))
    ):
        from compat.probes.configs import accelerate_default_config

        default = accelerate_default_config()
        if default is not None:
            layers.append(read_accelerate_config(default))
            if notes is not None:
                notes.append(
                    f"read accelerate's default config {default} (as `accelerate launch` does)"
                )
    if launch is not None:
        if launch.accelerate_config is not None:
            layers.append(read_accelerate_config(launch.accelerate_config))
        if launch.deepspeed_config is not None:
            layers.append(read_deepspeed_config(launch.deepspeed_config))
        layers.append(launch.usage)
    if options.accelerate_config is not None:
        layers.append(read_accelerate_config(options.accelerate_config))
    if options.deepspeed_config is not None:
        layers.append(read_deepspeed_config(options.deepspeed_config))
    layers.append(parse_set(options.settings))  # --set wins over every file
    return merge_usage(*layers)


def _read_config(path: Path, what: str) -> str:
    """A config's text, read once (regular files only, size-capped, bad bytes named by line)."""
    from compat.files.readers import read_text

    return read_text(path, "config", what=what)


def read_deepspeed_config(path: Path) -> dict[str, UsageFact]:
    """The usage facts of a DeepSpeed JSON config (compat.probes.configs interprets it)."""
    from compat.probes.configs import deepspeed_config_facts

    return deepspeed_config_facts(_read_config(path, "DeepSpeed config"), str(path))


def read_accelerate_config(path: Path, *, cwd: Path | None = None) -> dict[str, UsageFact]:
    """The usage facts of an `accelerate config` YAML file, over those of the DeepSpeed JSON it
    references (the YAML's own keys win, as accelerate applies them)."""
    from compat.probes.configs import accelerate_config_facts, deepspeed_config_file

    text = _read_config(path, "accelerate config")
    facts, reference = accelerate_config_facts(text, str(path))
    if reference is None:
        return facts
    referenced = read_deepspeed_config(deepspeed_config_file(reference, path, text, cwd))
    return {**referenced, **facts}


def parse_set(items: Sequence[str]) -> dict[str, UsageFact]:
    """`--set KEY=VALUE` (repeatable); a later item for the same key wins. Each value is checked
    against the usage vocabulary (compat.usage.coerce)."""
    from compat.usage import coerce

    facts: dict[str, UsageFact] = {}
    origin = Origin("--set")
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"--set {item!r}: expected KEY=VALUE, e.g. --set zero_stage=3")
        facts[key] = UsageFact(key, coerce(key, value, origin), origin)
    return facts


def package_facts(env: Environment) -> dict[str, PackageFact]:
    return {
        name: PackageFact(
            name=name,
            versions=(package.version,),
            display_name=package.display_name,
            origin=package.origin,
            commit=package.commit,
            source=package.source,
        )
        for name, package in env.packages.items()
    }


def environment_facts(
    env: Environment,
    hardware: Hardware | None,
    usage: Mapping[str, UsageFact],
    *,
    with_nvcc: bool | NvccQuery = True,
) -> Facts:
    """Facts for the engine. `with_nvcc=False` skips running `nvcc --version` when no rule asks;
    a query started earlier (NvccQuery.start) is read here."""
    return replace(installed_facts(env, with_nvcc=with_nvcc), hardware=hardware, usage=dict(usage))


def installed_facts(env: Environment, *, with_nvcc: bool | NvccQuery = True) -> Facts:
    """What an environment alone says: its packages, Python, markers and builds (the machine and
    the usage unknown). pin's planner adds the machine and usage it holds to each environment it
    weighs, so that they are read once and never handed back down."""
    from compat.probes.cuda import build_facts

    return Facts(
        packages=package_facts(env),  # type: ignore[arg-type]
        python_version=env.python_version,
        markers=dict(env.markers) if env.markers else None,
        builds=build_facts(env, with_nvcc=with_nvcc),
        build_channels=dict(env.build_channels),
    )


def usage_summary(usage: Mapping[str, UsageFact]) -> dict[str, object]:
    return {key: fact.value for key, fact in sorted(usage.items())}


def origin_text(origin: Origin | None) -> str:
    return str(origin) if origin else ""
