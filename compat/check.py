"""`compat check FILE...`: the CI gate over requirement and lock files.

Declared requirements become package facts for a *target* (Python version, platform, hardware
profile) that need not be this machine. A pinned or locked package is one version; a ranged one is
every released version the range allows — from the package index, or offline from the versions the
knowledge base names — so a rule is `affected` when every allowed choice is bad and `possible` when
some are.
"""

from __future__ import annotations

import platform as _platform
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.specifiers import SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.engine import evaluate
from compat.errors import UncheckedError, UsageError
from compat.facts import FactOptions, read_hardware, read_usage, usage_summary
from compat.knowledge import KnowledgeBase, load_knowledge_base
from compat.model import Facts, Finding, PackageFact
from compat.pin import offline_versions
from compat.pincmd import IndexOptions
from compat.report import Report, environment_summary

PLATFORMS: Mapping[str, dict[str, str]] = {
    "linux": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix"},
    "darwin": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"},
    "win32": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
}
LOCK_KINDS = {"lock", "report", "freeze"}


@dataclass(frozen=True)
class TargetOptions:
    python_version: str | None = None  # "3.11" or "3.11.7"
    platform: str | None = None  # linux | darwin | win32, optionally with a machine: linux/aarch64


def target_markers(options: TargetOptions) -> tuple[dict[str, str], Version]:
    """A complete PEP 508 environment for the target (defaults: this interpreter)."""
    env = {key: str(value) for key, value in default_environment().items()}
    if options.python_version is not None:
        try:
            version = Version(options.python_version)
        except ValueError:
            raise UsageError(
                f"--python-version {options.python_version!r}: expected X.Y or X.Y.Z"
            ) from None
        release = (*version.release, 0, 0)[:3]
        env["python_version"] = f"{release[0]}.{release[1]}"
        env["python_full_version"] = ".".join(str(part) for part in release)
        env["implementation_version"] = env["python_full_version"]
    if options.platform is not None:
        system, _, machine = options.platform.partition("/")
        if system not in PLATFORMS:
            raise UsageError(
                f"--platform {options.platform!r}: expected one of {', '.join(PLATFORMS)}"
            )
        env.update(PLATFORMS[system])
        env["platform_machine"] = machine or ("AMD64" if system == "win32" else "x86_64")
        if system != _platform.system().lower():
            env["platform_release"] = ""
            env["platform_version"] = ""
    return env, Version(env["python_full_version"])


def declared_facts(
    declared: Sequence[Any],
    markers: Mapping[str, str],
    kb: KnowledgeBase,
    client: Any | None,
    python_version: Version,
    notes: list[str],
) -> dict[NormalizedName, PackageFact]:
    """Collapse the declared requirements of each package into one fact for the target."""
    by_name: dict[NormalizedName, list[Any]] = {}
    for item in declared:
        if item.marker is not None and not item.marker.evaluate({**markers, "extra": ""}):
            continue  # not for this target
        by_name.setdefault(item.name, []).append(item)
    facts: dict[NormalizedName, PackageFact] = {}
    ranged: dict[NormalizedName, SpecifierSet] = {}
    for name, items in by_name.items():
        exact = [i for i in items if i.pinned is not None]
        locked = [i for i in exact if i.kind in LOCK_KINDS]
        chosen = (locked or exact or [None])[0]
        if chosen is not None:
            facts[name] = PackageFact(
                name, (chosen.pinned,), chosen.display_name, chosen.origin, requirement=chosen.raw
            )
            continue
        if any(item.url for item in items):
            notes.append(
                f"{items[0].origin}: {items[0].display_name} is a direct reference: its version is not checked"
            )
            continue
        spec = SpecifierSet()
        for item in items:
            spec &= item.specifier
        ranged[name] = spec
    if ranged:
        candidates: dict[NormalizedName, list[Any]] = {}
        if client is not None:
            candidates = client.candidates_many(sorted(ranged))
        for name, spec in ranged.items():
            first = (
                next(i for i in by_name[name] if i.kind != "constraint")
                if any(i.kind != "constraint" for i in by_name[name])
                else by_name[name][0]
            )
            versions = _released(candidates.get(name, []), python_version)
            source = "index"
            if client is None:
                versions = offline_versions(kb, name, None)
                source = "knowledge-base"
            allowed = tuple(v for v in versions if spec.contains(v))
            if not allowed:
                if client is not None:
                    notes.append(
                        f"{first.origin}: no released version of {first.display_name} satisfies {spec or 'any'}"
                    )
                continue
            facts[name] = PackageFact(
                name,
                allowed,
                first.display_name,
                first.origin,
                requirement=first.raw,
                candidates_from=source,
            )
    return facts


def _released(candidates: Sequence[Any], python_version: Version) -> list[Version]:
    from compat.index import allows_python

    return sorted(
        {
            c.version
            for c in candidates
            if c.yanked is None and not c.version.is_prerelease and allows_python(c, python_version)
        }
    )


def run_check(
    paths: Sequence[Path],
    fact_options: FactOptions,
    target: TargetOptions,
    index_options: IndexOptions,
) -> tuple[Report, list[Finding]]:
    """The report, and the findings that waivers did not silence."""
    from compat.probes.cuda import builds_from_versions
    from compat.sources.detect import read_declared

    if not paths:
        raise UsageError("give at least one requirement or lock file to check")
    usage = read_usage(fact_options)
    kb = load_knowledge_base(tuple(fact_options.matrices))
    declared_set = read_declared(paths)
    if not declared_set.requirements:
        raise UncheckedError(f"no requirements found in {', '.join(str(p) for p in paths)}")
    markers, python_version = target_markers(target)
    hardware, hardware_note = read_hardware(fact_options)
    notes: list[str] = []
    client = None
    if not index_options.offline:
        from compat.index import IndexClient
        from compat.indexconfig import resolve_index_config

        config = resolve_index_config(
            index_url=index_options.index_url,
            extra_index_urls=tuple(index_options.extra_index_urls),
        )
        client = IndexClient(config, timeout=index_options.timeout)
    try:
        packages = declared_facts(
            declared_set.requirements, markers, kb, client, python_version, notes
        )
    finally:
        if client is not None:
            client.close()
    if any(f.candidates_from for f in packages.values()):
        how = (
            "released versions from the package index"
            if client
            else "versions the knowledge base names (--offline)"
        )
        notes.append(f"ranged requirements were checked against {how}")
    if not any(i.kind in LOCK_KINDS for i in declared_set.requirements):
        notes.append(
            "packages not named in these files are treated as absent; check a lock file or "
            "`pip install --dry-run --report` output for the whole resolved set"
        )
    exact_versions = {name: fact.versions[0] for name, fact in packages.items() if fact.exact}
    facts = Facts(
        packages=packages,
        python_version=python_version,
        markers=markers,
        hardware=hardware,
        builds={
            k: Version(str(v))
            for k, v in builds_from_versions(
                {str(name): version for name, version in exact_versions.items()}
            ).items()
        },
        usage=usage,
    )
    findings = evaluate(kb, facts)
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
    )
    return report, findings
