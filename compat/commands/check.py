"""`compat check FILE...`: the CI gate over requirement and lock files.

Declared requirements become package facts for a *target* (Python version — `--python-version`
or the files' requires-python —, platform, hardware profile) that need not be this machine, nor the
CI runner: check probes nothing unless asked (`--probe`). A pinned or locked package is one version,
online and offline alike. Ranges are judged at what a fresh resolve installs: online the real
resolver (compat.resolve.resolver: pip or uv for the target) resolves the declared set and the result is
judged like an environment; offline a range stands for every version it allows, known or not, so
a rule hitting only some of them is `possible` and a note says the verdict was not settled.
Details of the facts: compat.resolve.declared.
"""

from __future__ import annotations

import dataclasses
import platform as _platform
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

from compat.engine import evaluate
from compat.errors import InputError, UncheckedError, UsageError
from compat.facts.declared.setuppy import REPORT_HINT
from compat.facts.gather import FactOptions, read_hardware, read_usage, usage_summary
from compat.kb.freshness import freshness
from compat.kb.knowledge import KnowledgeBase, load_knowledge_base
from compat.kb.sourcebuild import source_build_notes
from compat.model import Facts, Finding, Origin, PackageFact
from compat.report import Report, environment_summary
from compat.resolve.declared import LOCK_KINDS
from compat.resolve.indexconfig import IndexOptions
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
    target: TargetOptions,
    index_options: IndexOptions,
    *,
    probe: bool = False,
    resolver: str = "auto",
    resolver_timeout: float | None = None,
) -> tuple[Report, list[Finding]]:
    """The report, and the findings that waivers did not silence."""
    from compat.facts.declared.detect import read_declared
    from compat.resolve.declared import applicable, conflicts, unsettled_note
    from compat.resolve.installs import installs, label_by_origin, merge_findings, merge_notes
    from compat.resolve.transitive import unread_note

    if not paths:
        raise UsageError("give at least one requirement or lock file to check")
    if target.pixi_environment is None:
        from compat.facts.declared.detect import pixi_environments

        names = pixi_environments(paths)
        if len(names) > 1:  # each environment installs on its own: judged on its own
            from compat.commands.pixienvs import judge_each

            def judge_one(name: str) -> tuple[Report, list[Finding]]:
                one = dataclasses.replace(target, pixi_environment=name)
                return run_check(
                    paths, fact_options, one, index_options, probe=probe, resolver=resolver,
                    resolver_timeout=resolver_timeout,
                )  # fmt: skip

            return judge_each(names, judge_one)
    usage = read_usage(fact_options)
    kb = load_knowledge_base(tuple(fact_options.matrices))
    notes: list[str] = []
    chosen: dict[str, Any] = {}
    early = read_hardware(fact_options) if fact_options.hardware_file is not None else None
    target = _profile_platform(target, early[0] if early else None, notes)

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
        raise UncheckedError(
            f"no requirements found in {', '.join(str(p) for p in paths)}; " + REPORT_HINT
        )
    hardware, hardware_note = early or check_hardware(fact_options, declared_set.hardware, probe)
    if early is None and target.platform is None and hardware is not None:
        implied = _profile_platform(target, hardware, notes)
        if implied.platform is not None:  # `[tool.compat] hardware`: read the files for it
            target = implied
            chosen.clear()
            declared_set = read_declared(
                paths, markers_for=markers_for, pixi_environment=target.pixi_environment,
                platform=target.platform,
            )  # fmt: skip
    markers = markers_for(declared_set.requires_python)
    options: TargetOptions = chosen["options"]
    python_version: Version = chosen["markers"][1]
    platform_name = f"{markers['sys_platform']}/{markers['platform_machine']}"
    notes += declared_set.notes
    from compat.facts.declared import condaspec

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
    declared_all = applicable(declared_set.requirements, markers)
    notes += conflicts(declared_all)
    judge = _Judge(
        kb, declared_set, options, index_options, resolver, resolver_timeout, usage, hardware,
        markers, python_version, platform_name,
    )  # fmt: skip
    plan = installs(declared_all)
    union = (
        judge.judge(declared_all, union=True)
        if len(plan) > 1 and not index_options.offline
        else None
    )
    if union is not None:  # the extras install together: one resolve judges them all
        per_install = [("", (label_by_origin(union[0], declared_all), *union[1:]))]
    else:  # offline, or the resolver refused the union: one install at a time
        per_install = [(i.label, judge(i.requirements)) for i in plan]
    findings = merge_findings([(label, judged[0]) for label, judged in per_install])
    unsettled_why = "the resolve did not happen" if judge.not_made else "offline"
    notes += [unsettled_note(judge.unsettled, unsettled_why)] if judge.unsettled else []
    notes += [unread_note(judge.unread)] if judge.unread else []
    notes += merge_notes([(label, judged[1]) for label, judged in per_install])
    packages = {name: fact for _, judged in per_install for name, fact in judged[2].items()}
    fresh = freshness(kb.source, packages, notes)  # how old the knowledge is
    report = Report(
        findings=tuple(findings),
        kb_rules=len(kb),
        kb_digest=kb.digest,
        kb_source=kb.source,
        kb_version=kb.version,
        environment=environment_summary(
            "files " + ", ".join(declared_set.files), str(python_version), len(packages), []
        ),
        hardware=hardware,
        hardware_note=hardware_note,
        notes=tuple(notes),
        usage=usage_summary(usage),
        files=tuple(declared_set.files),
        unjudged_ranges=len(judge.range_notes),
        resolve_failed=judge.not_made or None,
        **fresh,
    )
    return report, findings


@dataclass
class _Judge:
    """Judges one install (a list of declared requirements) for the target: its findings, its
    notes and its package facts."""

    kb: KnowledgeBase
    declared_set: Any
    target: TargetOptions
    index_options: IndexOptions
    resolver: str
    resolver_timeout: float | None
    usage: Mapping[str, Any]
    hardware: Any
    markers: Mapping[str, str]
    python_version: Version
    platform_name: str  # "linux/x86_64"
    # Over every install judged, one note each: ranges offline could not settle, and declared
    # packages whose requirements metadata could not be read.
    unsettled: list[str] = dataclasses.field(default_factory=list)
    unread: list[str] = dataclasses.field(default_factory=list)
    gave_up: str = ""  # the note of a resolve that did not happen, once it failed
    not_made: str = ""  # why that resolve did not happen (the verdict line, exit 3)
    range_notes: dict[str, None] = dataclasses.field(default_factory=dict)  # over every install

    def __call__(
        self, declared: Sequence[Any]
    ) -> tuple[list[Finding], list[str], dict[NormalizedName, PackageFact]]:
        """One install's findings, notes and facts."""
        judged = self.judge(declared)
        assert judged is not None  # only a union is refused
        return judged

    def judge(
        self, declared: Sequence[Any], *, union: bool = False
    ) -> tuple[list[Finding], list[str], dict[NormalizedName, PackageFact]] | None:
        """`union`: every extra at once, or None when the resolver says they cannot install
        together."""
        from compat.probes.cuda import builds_from_versions
        from compat.resolve.clash import clash_findings
        from compat.resolve.declared import declared_facts, torch_cuda

        kb, declared_set, markers = self.kb, self.declared_set, self.markers
        notes: list[str] = []
        clashes = clash_findings(declared)
        resolved, resolved_by = None, ""
        online = not self.index_options.offline and _needs_resolve(declared)
        if online and clashes:
            notes.append(
                "the resolver was not run: these requirements cannot install together (the "
                "pip-check:conflict findings); ranges were judged over every version they allow"
            )
        elif online and self.gave_up:
            notes.append(self.gave_up)  # out of time once: not again for each extra
        elif online:
            from compat.resolve.resolver import ResolutionFailed, ResolveNotMade

            try:
                resolved, resolved_by = resolve_declared(
                    declared, declared_set, self.target, self.index_options, notes,
                    self.resolver, self.resolver_timeout, refusal_raises=union,
                )  # fmt: skip
            except ResolutionFailed:
                return None  # the union only: judged one install at a time instead
            except ResolveNotMade as error:
                # No verdict from the resolver (a time limit, or the tool failed): said, and the
                # verdict line and exit status (3) say the answer lacks it (docs/resolver.md).
                self.not_made = not_made(error)
                self.gave_up = (
                    f"{self.not_made} — ranges were judged offline, over every version they "
                    "allow, and the result is not a clean verdict (exit 3 unless a finding fails "
                    "the gate)"
                )
                notes.append(self.gave_up)
        if union and resolved is None:
            return None  # only a resolve can say which extras' pins win together
        packages = declared_facts(
            declared, kb, notes, resolved, resolved_by, unsettled_out=self.unsettled
        )
        pulled: dict[NormalizedName, PackageFact] = {}
        if not any(i.kind in LOCK_KINDS for i in declared) and resolved is None:
            from compat.resolve.transitive import infer

            # The index itself only where the resolver was asked and gave no answer; else the
            # cache, so that a pinned file reads the same metadata online and offline.
            pulled, pulled_notes = infer(
                declared, packages, kb, markers, self.index_options, online, self.unread
            )
            packages = {**packages, **pulled}
            notes += pulled_notes
            notes.append(
                "packages not named in these files are treated as absent unless a note above "
                "infers them; check a lock file or `pip install --dry-run --report` output for "
                "the whole resolved set"
            )
        exact_versions = {name: fact.versions[0] for name, fact in packages.items() if fact.exact}
        builds = {
            k: Version(str(v))
            for k, v in builds_from_versions(
                {str(name): version for name, version in exact_versions.items()}
            ).items()
        }
        from compat.facts.declared import condaspec

        # conda specs (environment.yml, pixi) name torch's CUDA build in their own words
        torch_fact = packages.get(canonicalize_name("torch"))
        conda_builds, conda_torch = condaspec.check_builds(
            declared_set.conda, torch_fact is not None
        )
        for key, value in conda_builds.items():
            builds.setdefault(key, value)
        cuda, why = conda_torch or torch_cuda(
            torch_fact, declared_set.indexes, self.platform_name, markers
        )
        unknown_builds = {}
        if cuda is not None:
            builds["torch_cuda"] = cuda
            notes.append(f"torch's CUDA build {cuda}: from {why}")
        elif why == "unsettled":
            unknown_builds["torch_cuda"] = (
                "which torch release (and CUDA build) a resolve installs: pin torch, or run online"
            )
        elif why == condaspec.UNSETTLED:
            unknown_builds["torch_cuda"] = condaspec.UNSETTLED_NEEDS
        facts = Facts(
            packages=packages,
            python_version=self.python_version,
            markers=markers,
            hardware=self.hardware,
            builds=builds,
            usage=dict(self.usage),
            unknown_builds=unknown_builds,
            conda_packages=frozenset(declared_set.conda.names if declared_set.conda else ()),
            target_assumed=frozenset(
                name
                for name, given in (
                    ("python", self.target.python_version),
                    # `--platform darwin` names no machine: x86_64 is compat's default, not theirs
                    (
                        "platform",
                        self.target.platform if "/" in (self.target.platform or "") else None,
                    ),
                )
                if given is None
            ),
        )
        findings = [attach_build_packages(f, packages, why) for f in evaluate(kb, facts)]
        findings, unsettled = split_unsettled(
            findings, packages, pulled, "the resolve did not happen" if self.not_made else "offline"
        )
        notes += unsettled
        self.range_notes.update(dict.fromkeys(unsettled))  # the verdict line counts them once
        notes += source_build_notes(kb, facts)  # why a prebuilt-wheel rule said nothing
        if resolved is not None:
            notes += range_notes(kb, facts, findings, declared_facts(declared, kb, []))
        return [*clashes, *findings], notes, packages


_BUILD_PACKAGES = {
    "torch_cuda": ("torch",),
    "cuda_runtime": ("nvidia-cuda-runtime", "nvidia-cuda-runtime-cu13", "nvidia-cuda-runtime-cu12"),
    "cudnn": ("nvidia-cudnn-cu13", "nvidia-cudnn", "nvidia-cudnn-cu12"),
    "nccl": ("nvidia-nccl-cu13", "nvidia-nccl", "nvidia-nccl-cu12"),
}


def attach_build_packages(
    finding: Finding, packages: Mapping[NormalizedName, PackageFact], why: str
) -> Finding:
    """A finding about a CUDA build names the package whose build it is (`torch`, at its line),
    so that it points at the line to change and carries a SARIF location."""
    from compat.model import MatchedPackage
    from compat.resolve.declared import range_text

    keys = [k for k in _BUILD_PACKAGES if any(m.startswith(f"{k} ") for m in finding.matched)]
    keys += [k for k in _BUILD_PACKAGES if any(u.fact == f"build.{k}" for u in finding.unknown)]
    named = {p.name for p in finding.packages}
    added = []
    for key in dict.fromkeys(keys):
        for name in _BUILD_PACKAGES[key]:
            fact = packages.get(NormalizedName(name))
            if fact is None or fact.name in named:
                continue
            version = str(fact.versions[0]) if fact.exact else range_text(fact)
            added.append(MatchedPackage(fact.name, version, fact.origin))
            break
    matched = tuple(
        f"{m} ({why})" if why and m.startswith("torch_cuda ") else m for m in finding.matched
    )
    if not added and matched == finding.matched:
        return finding
    return dataclasses.replace(finding, packages=(*finding.packages, *added), matched=matched)


def split_unsettled(
    findings: Sequence[Finding],
    packages: Mapping[NormalizedName, PackageFact],
    inferred: Container[NormalizedName] = (),
    why: str = "offline",
) -> tuple[list[Finding], list[str]]:
    """Offline, a range that admits some bad releases is a range note, not a finding: which
    release a resolve installs is the one verdict offline cannot make. (Every allowed release
    bad: the finding stays — it is `affected`. A moving git ref stays `possible`.) No range note
    for a package `inferred` from another's requirements: its own note says it is judged over
    every release, and a line the user did not write has no range to pin."""
    kept: list[Finding] = []
    rules: dict[NormalizedName, list[str]] = {}
    for finding in findings:
        ranged = [
            NormalizedName(u.fact.split(".")[1])
            for u in finding.unknown
            if u.fact.count(".") == 1
            and u.fact.startswith("packages.")
            and getattr(packages.get(NormalizedName(u.fact.split(".")[1])), "candidates_from", None)
            == "knowledge-base"
        ]
        if not ranged:
            kept.append(finding)
            continue
        for name in ranged:
            if finding.rule.id not in rules.get(name, []):
                rules.setdefault(name, []).append(finding.rule.id)
    notes = []
    for name, ids in rules.items():
        fact = packages[name]
        if name in inferred:
            continue
        notes.append(
            f"{fact.origin}: `{fact.requirement}` allows {fact.label} releases that "
            f"{', '.join(ids)} {'is' if len(ids) == 1 else 'are'} about (range note, not a "
            f"finding: {why}, the release a resolve installs is unknown; pin {fact.label}, or "
            + (
                "run online to judge what the resolver picks)"
                if why == "offline"
                else "let the resolver run to judge what it picks)"
            )
        )
    return kept, notes


def range_notes(
    kb: KnowledgeBase,
    facts: Facts,
    findings: Sequence[Finding],
    ranged: Mapping[NormalizedName, PackageFact],
) -> list[str]:
    """A range that admits a bad release the resolve did not pick is a note, not a finding."""
    widened = {n: f for n, f in ranged.items() if not f.exact and n in facts.packages}
    if not widened:
        return []
    seen = {f.rule.id for f in findings}
    rules: dict[NormalizedName, list[str]] = {}
    for finding in evaluate(kb, dataclasses.replace(facts, packages={**facts.packages, **widened})):
        if finding.rule.id in seen or any(
            not u.fact.startswith("packages.") for u in finding.unknown
        ):
            continue  # only where the range alone decides it
        for unknown in finding.unknown:
            name = NormalizedName(unknown.fact.split(".")[1])
            if name in widened and finding.rule.id not in rules.get(name, []):
                rules.setdefault(name, []).append(finding.rule.id)
    notes = []
    for name, ids in rules.items():
        fact, picked = widened[name], facts.packages[name]
        notes.append(
            f"{fact.origin}: `{fact.requirement}` also allows {fact.label} releases that "
            f"{', '.join(ids)} {'is' if len(ids) == 1 else 'are'} about; the resolve picks "
            f"{picked.versions[0]} (range note, not a finding: pin {fact.label} to keep it)"
        )
    return notes


def not_made(error: Any) -> str:
    """A resolve that did not happen, in one line: which tool, and why."""
    from compat.resolve.resolver import ResolverTimedOut

    if isinstance(error, ResolverTimedOut):
        # A time limit, not a count of work (neither pip nor uv offers one): said.
        return (
            f"{error.tool} did not finish resolving within its limit of {error.limit:g} s "
            "(--resolver-timeout)"
        )
    return str(error.message)


def _needs_resolve(declared: Sequence[Any]) -> bool:
    """A fresh resolve matters only when a package is ranged and nothing pins it (a pinned file,
    or a pyproject with its lock, is judged as written)."""
    pinned = {item.name for item in declared if item.pinned is not None}
    return any(
        item.kind not in LOCK_KINDS
        and item.pinned is None
        and not item.url
        and item.name not in pinned
        for item in declared
    )


def resolve_declared(
    declared: Sequence[Any],
    declared_set: Any,
    target: TargetOptions,
    index_options: IndexOptions,
    notes: list[str],
    tool: str = "auto",
    resolver_timeout: float | None = None,
    *,
    refusal_raises: bool = False,
) -> tuple[dict[NormalizedName, Version] | None, str]:
    """What the real resolver installs for the declared set on the target, or None with a note
    when it refuses the set (`refusal_raises`: ResolutionFailed instead). Raises ResolverTimedOut
    when it runs out of time (the caller says so and judges offline)."""
    from compat.resolve.resolver import ResolutionFailed, Target, resolve

    lines = [
        item.raw.split(";")[0].strip() if item.marker is not None else item.raw
        for item in declared
        if item.kind in ("requirement",) and not item.url
    ]
    constraints = [
        item.raw.split(";")[0].strip() if item.marker is not None else item.raw
        for item in declared
        if item.kind in ("constraint", *LOCK_KINDS) and not item.url
    ]
    options = [
        f"{'--index-url' if line.replaces_default else '--extra-index-url'} {line.url}"
        for line in declared_set.indexes
        if not line.packages
    ]
    limit = resolver_timeout or max(index_options.timeout * 8, 120.0)
    try:
        resolution = resolve(
            [*options, *lines],
            constraints,
            target=Target(target.python_version, target.platform),
            index=index_options,
            tool=tool,
            timeout=limit,
        )
    except ResolutionFailed as error:
        if refusal_raises:
            raise
        notes.append(
            f"{error.tool} cannot install these requirements together for the target: "
            f"{error.message} — ranges were judged over every version they allow"
        )
        return None, ""
    notes.append(
        f"ranged requirements were judged at the versions {resolution.tool} resolves for the target"
    )
    return dict(resolution.packages), resolution.tool


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
