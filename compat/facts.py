"""Gathering facts: environment + hardware + usage -> `Facts` for the engine.

This is where the command-line choices (`--python`, `--path`, `--hardware`, `--no-probe`,
`--deepspeed-config`, `--accelerate-config`, `--set`) become sources and probes. Nothing here
prints; the CLI decides what to say about what was gathered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from compat.errors import UsageError
from compat.model import Environment, Facts, Hardware, Origin, PackageFact, UsageFact


@dataclass(frozen=True)
class FactOptions:
    """The facts options shared by doctor, check, pin and explain."""

    hardware_file: Path | None = None
    no_probe: bool = False
    deepspeed_config: Path | None = None
    accelerate_config: Path | None = None
    settings: Sequence[str] = ()
    matrices: Sequence[Path] = ()


@dataclass(frozen=True)
class EnvOptions:
    python: Path | None = None
    paths: Sequence[Path] = field(default_factory=tuple)


def read_environment(options: EnvOptions) -> Environment:
    from compat.sources import installed

    if options.python is not None and options.paths:
        raise UsageError("--python and --path select different environments: give one of them")
    if options.python is not None:
        return installed.read_python(options.python)
    if options.paths:
        return installed.read_paths(options.paths)
    return installed.read_running()


def read_hardware(options: FactOptions) -> tuple[Hardware | None, str]:
    """The hardware facts and a note on where they came from (or why they are unknown)."""
    if options.hardware_file is not None:
        if options.no_probe:
            raise UsageError("--hardware and --no-probe contradict each other: give one of them")
        from compat.probes.profile import load_profile

        return load_profile(options.hardware_file), f"profile {options.hardware_file}"
    if options.no_probe:
        return None, "--no-probe"
    from compat.probes.gpu import probe_hardware

    hardware = probe_hardware()
    return hardware, "probed"


def read_usage(options: FactOptions) -> dict[str, UsageFact]:
    from compat.usage import merge_usage, parse_set

    layers: list[Mapping[str, UsageFact]] = []
    if options.accelerate_config is not None:
        from compat.probes.configs import read_accelerate_config

        layers.append(read_accelerate_config(options.accelerate_config))
    if options.deepspeed_config is not None:
        from compat.probes.configs import read_deepspeed_config

        layers.append(read_deepspeed_config(options.deepspeed_config))
    layers.append(parse_set(options.settings))  # --set wins over every file
    return merge_usage(*layers)


def package_facts(env: Environment) -> dict[str, PackageFact]:
    return {
        name: PackageFact(
            name=name,
            versions=(package.version,),
            display_name=package.display_name,
            origin=package.origin,
            commit=package.commit,
        )
        for name, package in env.packages.items()
    }


def environment_facts(
    env: Environment,
    hardware: Hardware | None,
    usage: Mapping[str, UsageFact],
    *,
    with_nvcc: bool = True,
) -> Facts:
    """Facts for the engine. `with_nvcc=False` skips running `nvcc --version` when no rule asks."""
    from compat.probes.cuda import build_facts

    return Facts(
        packages=package_facts(env),  # type: ignore[arg-type]
        python_version=env.python_version,
        markers=dict(env.markers) if env.markers else None,
        hardware=hardware,
        builds=build_facts(env, with_nvcc=with_nvcc),
        usage=dict(usage),
    )


def usage_summary(usage: Mapping[str, UsageFact]) -> dict[str, object]:
    return {key: fact.value for key, fact in sorted(usage.items())}


def origin_text(origin: Origin | None) -> str:
    return str(origin) if origin else ""
