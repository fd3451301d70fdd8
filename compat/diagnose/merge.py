"""The facts `compat explain` judges on: the log's, overridden by what the command line gives
(`--python`/`--path`, config files, `--set`, `--hardware`), every disagreement reported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from compat.facts.gather import EnvOptions, FactOptions, read_environment, read_usage
from compat.facts.logfacts import LogEvidence
from compat.model import Environment, Facts, Hardware, UsageFact


@dataclass(frozen=True)
class Disagreement:
    fact: str
    log_value: str
    log_line: int
    given_value: str
    given_from: str
    used: str = "given"  # "log": the log's own value stands (a listing contradicted by the process)


def merge_facts(
    ev: LogEvidence, env_options: EnvOptions, fact_options: FactOptions
) -> tuple[Facts, list[Disagreement], str, Environment | None]:
    """The log's facts under the command line's, and the environment given (None: none)."""
    disagreements: list[Disagreement] = [
        Disagreement(
            f"packages.{name}",
            *_log_side(ev.packages[name]),
            listed.value,
            f"the log's line {listed.line} ({listed.source})",
            used="log",
        )
        for name, listed in ev.conflicts.items()
        if name in ev.packages
    ]
    notes: list[str] = []
    packages: dict[Any, Any] = dict(ev.packages)
    builds = dict(ev.builds)
    python, markers, packages_known = ev.python, None, False
    env = None
    if env_options.python is not None or env_options.paths:
        from compat.probes.cuda import build_facts

        env = read_environment(env_options)
        packages = _given_packages(ev, env, disagreements)
        # what the environment states wins; what only the log's messages state (a load failure,
        # a build xFormers names) stays
        builds = {**builds, **build_facts(env, with_nvcc=False)}
        python = env.python_version or python
        markers = dict(env.markers) if env.markers else None
        packages_known = True
        notes.append(f"environment {env.source} over the log's versions")
    usage = _usage(ev, fact_options, disagreements)
    hardware = _hardware(ev, fact_options, disagreements, notes)
    shown = len(ev.facts)
    notes.insert(
        0,
        f"{shown} fact(s) read from the log"
        if shown
        else "the log shows no versions or configuration",
    )
    facts = Facts(
        packages=packages,
        python_version=python,
        markers=markers,
        hardware=hardware,
        builds=builds,
        usage=usage,
        packages_known=packages_known,
        arch_lists=dict(ev.arch_lists) if not packages_known else {},
        requirements=dict(ev.requirements),
    )
    return facts, disagreements, "; ".join(notes), env


def _log_side(fact: Any) -> tuple[str, int]:
    """A package fact of the log as a disagreement's log side: its version and line."""
    line = int(fact.origin.line) if fact.origin is not None and fact.origin.line else 0
    return (str(fact.versions[0]) if fact.versions else "present"), line


def _given_packages(ev: LogEvidence, env: Any, disagreements: list[Disagreement]) -> dict[Any, Any]:
    from compat.facts.gather import package_facts

    given = package_facts(env)
    for name, fact in ev.packages.items():
        other = given.get(name)
        if other is None or (fact.versions and other.versions != fact.versions):
            disagreements.append(
                Disagreement(
                    f"packages.{name}",
                    *_log_side(fact),
                    str(other.versions[0]) if other else "not installed",
                    env.source,
                )
            )
    return dict(given)


def _usage(
    ev: LogEvidence, fact_options: FactOptions, disagreements: list[Disagreement]
) -> dict[str, UsageFact]:
    usage: dict[str, UsageFact] = dict(ev.usage)
    for key, setting in read_usage(fact_options).items():
        mine = ev.usage.get(key)
        if mine is not None and mine.value != setting.value:
            disagreements.append(
                Disagreement(
                    f"usage.{key}",
                    str(mine.value),
                    mine.origin.line or 0,
                    str(setting.value),
                    str(setting.origin),
                )
            )
        usage[key] = setting
    return usage


def _hardware(
    ev: LogEvidence,
    fact_options: FactOptions,
    disagreements: list[Disagreement],
    notes: list[str],
) -> Hardware | None:
    hardware: Hardware | None = ev.hardware
    if fact_options.hardware_file is None:
        return hardware
    from compat.probes.profile import load_profile

    profile = load_profile(fact_options.hardware_file)
    listed = hardware is not None and not hardware.partial
    if hardware is not None and listed and len(hardware.gpus) != len(profile.gpus):
        first = min(g.index for g in hardware.gpus) if hardware.gpus else 0
        line = next((f.line for f in ev.facts if f.kind == "gpu" and f.key == str(first)), 0)
        disagreements.append(
            Disagreement(
                "hardware.gpu_count",
                str(len(hardware.gpus)),
                line,
                str(len(profile.gpus)),
                f"profile {fact_options.hardware_file}",
            )
        )
    notes.append(f"hardware profile {fact_options.hardware_file}")
    return profile
