"""`compat check FILE...`: the CI gate over requirement and lock files.

Declared requirements become package facts for a *target* (Python version — `--python-version`
or the files' requires-python —, platform, hardware profile) that need not be this machine, nor the
CI runner: check probes nothing unless asked (`--probe`). A pinned or locked package is one version,
online and offline alike. Ranges are judged at what a fresh resolve installs: online the real
resolver (compat.resolve.resolvers.resolver: pip or uv for the target) resolves the declared set and the result is
judged like an environment; offline a range stands for every version it allows, known or not, so
a rule hitting only some of them is `possible` and a note says the verdict was not settled.
Details of the facts: compat.resolve.check.declared.
"""

from __future__ import annotations

import dataclasses
import platform as _platform
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.errors import InputError, NothingDeclared, UsageError
from compat.facts.declared.setuppy import REPORT_HINT
from compat.facts.gather import FactOptions, read_hardware, read_usage, usage_summary
from compat.kb.bundlestate import bundle_expires
from compat.kb.freshness import freshness
from compat.kb.knowledge import KnowledgeChoice, load_knowledge_base
from compat.model import Finding, Hardware, Origin, PackageFact
from compat.report import Report, environment_summary
from compat.resolve.check.judge import Judge
from compat.resolve.sources.indexconfig import IndexOptions
from compat.resolve.target import TargetOptions, target_markers
from compat.versions import parse_specifier

KNOWN_PYTHONS = tuple(f"3.{minor}" for minor in range(8, 15))


def target_python(
    options: TargetOptions, requires: Sequence[tuple[str, Origin]], notes: list[str]
) -> str | None:
    """--python-version, else this interpreter when the files' requires-python allow it, else the
    allowed Python release nearest to it."""
    if options.python_version is not None or not requires:
        return options.python_version
    spec = SpecifierSet()
    for text, origin in requires:
        try:
            spec &= parse_specifier(text)
        except InvalidSpecifier:
            raise InputError(f"invalid requires-python {text!r}", origin=origin) from None
    here = Version(_platform.python_version())
    if spec.contains(here, prereleases=True):
        return None
    allowed = [
        found
        for minor in KNOWN_PYTHONS
        for found in [
            next(
                (f"{minor}.{p}" for p in range(40) if spec.contains(Version(f"{minor}.{p}"))), None
            )
        ]
        if found is not None
    ]
    if not allowed:
        raise InputError(
            f"requires-python {spec} allows no Python release compat knows", origin=requires[0][1]
        )
    chosen = min(allowed, key=lambda v: abs(Version(v).minor - here.minor))
    notes.append(f"target Python {chosen}: from requires-python {spec} ({requires[0][1]})")
    return chosen


def run_check(
    paths: Sequence[Path],
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index_options: IndexOptions,
    *,
    probe: bool = False,
    resolver: str = "auto",
    resolver_timeout: float | None = None,
    exclude_newer: str | None = None,
    knowledge_version: str | None = None,
) -> tuple[Report, list[Finding]]:
    """The report, and the findings that waivers did not silence. `exclude_newer` ("2025-06-30"):
    only releases published by that day; `knowledge_version`: the knowledge base version the
    verdict must come from (a reproducible gate pins both, issue 42 item 8)."""
    from compat.resolve.check.declared import applicable, conflicts

    if not paths:
        raise UsageError("give at least one requirement or lock file to check")
    each = _each_pixi_environment(
        paths, fact_options, knowledge, target, index_options, probe, resolver, resolver_timeout,
        exclude_newer, knowledge_version,
    )  # fmt: skip
    if each is not None:
        return each
    usage = read_usage(fact_options)
    kb = load_knowledge_base(knowledge)
    if knowledge_version is not None and knowledge_version != kb.version:
        raise UsageError(
            f"the knowledge base in force is {kb.version} ({kb.source}), but {knowledge_version} "
            "is pinned (--knowledge-version / [tool.compat] knowledge-version)",
            hint="install that bundle with `compat matrix update`, or change the pin",
        )
    notes: list[str] = []
    (declared_set, options, (markers, python_version)), (hardware, hardware_note) = (
        read_files_and_hardware(paths, target, fact_options, probe, notes)
    )
    platform_name = f"{markers['sys_platform']}/{markers['platform_machine']}"
    notes += declared_set.notes
    notes += _conda_cuda_notes(declared_set, hardware)
    declared_all = applicable(declared_set.requirements, markers)
    notes += conflicts(declared_all)
    judge = Judge(
        kb, declared_set, options, index_options, resolver, resolver_timeout, usage, hardware,
        markers, python_version, platform_name,
    )  # fmt: skip
    if exclude_newer is not None:
        from compat.resolve.check.judge import exclude_newer_note

        judge.exclude_newer = exclude_newer
        notes.append(
            exclude_newer_note(exclude_newer, kb.version, kb.digest, index_options.offline)
        )
    findings, packages = judge_installs(judge, declared_all, index_options.offline, notes)
    report = _report(judge, findings, packages, hardware_note, notes)
    return report, findings


def _conda_cuda_notes(declared_set: Any, hardware: Hardware | None) -> list[str]:
    """What a conda or pixi file's declared CUDA says against the machine: its `cuda` pin
    against the driver, and its system-requirements CUDA against the hardware."""
    from compat.facts.declared import condaspec

    notes: list[str] = []
    driver_note = condaspec.driver_note(
        declared_set.conda, hardware.cuda_driver_version if hardware is not None else None
    )
    if driver_note is not None:  # pixi/conda's declared CUDA against the profile's driver
        notes.append(driver_note)
    if declared_set.conda is not None and declared_set.conda.system_cuda is not None:
        import os

        from compat.probes.condavirtual import cuda_requirement_notes

        required, where = declared_set.conda.system_cuda
        notes += cuda_requirement_notes(required, where, hardware, os.environ)
    return notes


def _report(
    judge: Judge,
    findings: list[Finding],
    packages: Mapping[NormalizedName, PackageFact],
    hardware_note: str,
    notes: list[str],
) -> Report:
    """check's report over what the judge found: the install it judged, the knowledge's age."""
    kb, declared_set = judge.kb, judge.declared_set
    fresh = freshness(kb.source, packages, notes)  # how old the knowledge is
    return Report(
        findings=tuple(findings),
        kb_rules=len(kb),
        kb_digest=kb.digest,
        kb_source=kb.source,
        kb_expires=bundle_expires(kb.source),
        kb_version=kb.version,
        environment={
            **environment_summary(
                "files " + ", ".join(declared_set.files),
                str(judge.python_version),
                len(packages),
                [],
            ),
            "installs": judge.installs,
            # --exclude-newer: the day the verdict is as of (null: today's releases)
            "exclude_newer": judge.exclude_newer,
        },
        hardware=judge.hardware,
        hardware_note=hardware_note,
        notes=tuple(notes),
        usage=usage_summary(judge.usage),
        files=tuple(declared_set.files),
        unjudged_ranges=len(judge.range_notes),
        unjudged_pins=len(judge.outside_snapshot),
        unjudged_outside=len(judge.ranges_outside),
        snapshot_date=_snapshot_date() if judge.outside_snapshot or judge.ranges_outside else "",
        resolve_failed=judge.not_made or judge.unsatisfiable or None,
        **fresh,
    )


def _each_pixi_environment(
    paths: Sequence[Path],
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index_options: IndexOptions,
    probe: bool,
    resolver: str,
    resolver_timeout: float | None,
    exclude_newer: str | None = None,
    knowledge_version: str | None = None,
) -> tuple[Report, list[Finding]] | None:
    """A pixi workspace with several environments, none chosen: each installs on its own, so
    each is judged on its own (as extras are); None when there is one environment or none."""
    if target.pixi_environment is not None:
        return None
    from compat.facts.declared.detect import pixi_environments

    names = pixi_environments(paths)
    if len(names) <= 1:
        return None
    from compat.commands.pixienvs import judge_each

    def judge_one(name: str) -> tuple[Report, list[Finding]]:
        one = dataclasses.replace(target, pixi_environment=name)
        return run_check(
            paths, fact_options, knowledge, one, index_options, probe=probe, resolver=resolver,
            resolver_timeout=resolver_timeout, exclude_newer=exclude_newer,
            knowledge_version=knowledge_version,
        )  # fmt: skip

    return judge_each(names, judge_one)


def read_files_and_hardware(
    paths: Sequence[Path],
    target: TargetOptions,
    fact_options: FactOptions,
    probe: bool,
    notes: list[str],
) -> tuple[tuple[Any, TargetOptions, tuple[Mapping[str, str], Version]], tuple[Any, str]]:
    """The files read for the target, and the hardware judged for. Without --platform, the
    target is the platform the hardware profile states or implies (a GB200 node is
    linux/aarch64): a --hardware profile is read first, a `[tool.compat] hardware` profile after
    the files that name it, and then the files again for its platform."""
    early = read_hardware(fact_options) if fact_options.hardware_file is not None else None
    target = _profile_platform(target, early[0] if early else None, notes)
    read = read_files(paths, target, notes)
    hardware = early or check_hardware(fact_options, read[0].hardware, probe)
    if early is None and target.platform is None and hardware[0] is not None:
        implied = _profile_platform(target, hardware[0], notes)
        if implied.platform is not None:
            read = read_files(paths, implied, notes)
    return read, hardware


def _profile_platform(target: TargetOptions, hardware: Any, notes: list[str]) -> TargetOptions:
    """check judges for the training machine: without --platform, the platform the hardware
    profile states or implies (a GB200 node is linux/aarch64), said in a note."""
    if target.platform is not None or hardware is None or not hardware.source.startswith("profile"):
        return target  # a probe is this machine: the default target already
    from compat.probes.profile import implied_platform

    implied = implied_platform(hardware)
    if implied is None:
        return target
    platform, why = implied
    notes.append(f"target platform {platform}: from {why} (--platform judges for another)")
    return dataclasses.replace(target, platform=platform)


def read_files(
    paths: Sequence[Path], target: TargetOptions, notes: list[str]
) -> tuple[Any, TargetOptions, tuple[Mapping[str, str], Version]]:
    """The declared set, the target it is judged for (its Python from --python-version or the
    files' requires-python) and the target's markers and Python version."""
    from compat.facts.declared.detect import read_declared

    chosen: dict[str, Any] = {}

    def markers_for(requires: Sequence[tuple[str, Origin]]) -> Mapping[str, str]:
        if "markers" not in chosen:
            python = target_python(target, requires, notes)
            chosen["options"] = TargetOptions(python, target.platform, target.pixi_environment)
            chosen["markers"] = target_markers(chosen["options"])
        markers: Mapping[str, str] = chosen["markers"][0]
        return markers

    declared_set = read_declared(
        paths,
        markers_for=markers_for,
        pixi_environment=target.pixi_environment,
        platform=target.platform,
    )
    if not declared_set.requirements:
        raise NothingDeclared(
            f"no requirements found in {', '.join(str(p) for p in paths)}; " + REPORT_HINT
        )
    markers_for(declared_set.requires_python)
    return declared_set, chosen["options"], chosen["markers"]


def judge_installs(
    judge: Judge, declared_all: Sequence[Any], offline: bool, notes: list[str]
) -> tuple[list[Finding], dict[NormalizedName, PackageFact]]:
    """Every install the files declare (a project's extras), judged together when the resolver
    installs them together, else one at a time; the merged findings and package facts."""
    from compat.resolve.check.declared import unsettled_note
    from compat.resolve.check.installs import installs, label_by_origin, merge_findings, merge_notes
    from compat.resolve.check.transitive import unread_note

    plan = installs(declared_all)
    union = judge.judge(declared_all, union=True) if len(plan) > 1 and not offline else None
    if union is not None:  # the extras install together: one resolve judges them all
        per_install = [("", (label_by_origin(union[0], declared_all), *union[1:]))]
    else:  # offline, or the resolver refused the union: one install at a time
        per_install = [(i.label, judge(i.requirements)) for i in plan]
    findings = merge_findings([(label, judged[0]) for label, judged in per_install])
    notes += [unsettled_note(judge.unsettled, judge.unsettled_why())] if judge.unsettled else []
    notes += [unread_note(judge.unread, not offline)] if judge.unread else []
    notes += merge_notes([(label, judged[1]) for label, judged in per_install])
    packages = {name: fact for _, judged in per_install for name, fact in judged[2].items()}
    return findings, packages


def check_hardware(
    options: FactOptions, declared: Sequence[tuple[str, Origin]], probe: bool
) -> tuple[Any, str]:
    """check gates for the training machine, not the CI runner: hardware comes from --hardware,
    else `[tool.compat] hardware` of a checked (or the current directory's) pyproject.toml, and
    the runner is probed only with --probe."""
    if options.hardware_file is not None:
        return read_hardware(options)
    configured = list(declared) or _cwd_hardware()
    if configured:
        text, origin = configured[0]
        base = Path(origin.path).parent if origin.path else Path.cwd()
        file = Path(text) if Path(text).is_absolute() else base / text
        if not file.is_file():
            raise InputError(f"[tool.compat] hardware: no such file {text!r}", origin=origin)
        return read_hardware(dataclasses.replace(options, hardware_file=file, no_probe=False))
    if probe:
        return read_hardware(dataclasses.replace(options, no_probe=False))
    return (
        None,
        "not probed: give --hardware FILE (a `compat probe --format json` profile) or --probe",
    )


def _cwd_hardware() -> list[tuple[str, Origin]]:
    path = Path("pyproject.toml")
    if not path.is_file():
        return []
    from compat.facts.declared.tomlfiles import read_pyproject

    try:
        return read_pyproject(path).hardware
    except InputError:
        return []


def _snapshot_date() -> str:
    from compat.resolve.sources.snapshot import fetched

    return fetched()
