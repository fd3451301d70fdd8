"""`compat check --fix` / `--diff`: the requirement lines that a finding's fix changes, rewritten.

The versions are pin's: `compat pin -r FILE...` plans and proves them (compat.resolve.pin), and
each package pin moves is written into the requirement lines that name it (the constraint pin
would write, `==VERSION`, as the line's specifier: compat.resolve.pin.rewrite keeps
everything else). Nothing is chosen here. Before anything is written, every rewritten file is resolved
again by the real resolver (offline: check's solve over the snapshot), each file on its own; a
file that no longer installs, or a resolve that cannot be made, refuses the whole fix.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.errors import EXIT_FINDINGS, EXIT_UNCHECKED
from compat.facts.gather import EnvOptions, FactOptions
from compat.kb.knowledge import KnowledgeChoice
from compat.model import Hardware
from compat.resolve.pin.rewrite import FixPlan, plan_rewrite
from compat.resolve.sources.indexconfig import IndexOptions
from compat.resolve.target import TargetOptions


@dataclass(frozen=True)
class Refusal:
    """Why the fix is not written, in one line, and the exit status that says it."""

    reason: str
    exit_code: int


def plan_fix(
    paths: Sequence[Path],
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    index_options: IndexOptions,
    resolver: str,
    hardware: tuple[Hardware | None, str],
    target: TargetOptions | None = None,
) -> FixPlan:
    """Pin's plan for the files, as line edits, for the target check judged (its Python and
    platform)."""
    from compat.commands.pin import run_pin
    from compat.facts.declared.detect import read_declared
    from compat.resolve.pin.pinresult import PinSettings

    settings = PinSettings(requirements=tuple(paths), resolver=resolver, target=target)
    result = run_pin(
        EnvOptions(), fact_options, knowledge, index_options, settings, hardware_known=hardware
    )
    declared = read_declared(paths)
    hashes = _IndexHashes(index_options)
    try:
        return plan_rewrite(result.plan, declared.requirements, result.env.markers, hashes)
    finally:
        hashes.close()


class _IndexHashes:
    """The sha256 of every file of a release, as the index states them (offline: its cache);
    [] when the index does not state one for each file, or cannot be read."""

    def __init__(self, index_options: IndexOptions) -> None:
        self.index_options = index_options
        self.client: Any = None

    def __call__(self, name: NormalizedName, version: Version) -> list[str]:
        from compat.errors import CompatError
        from compat.resolve.sources.index import IndexClient
        from compat.resolve.sources.indexconfig import resolve_index_config

        options = self.index_options
        try:
            if self.client is None:
                config = resolve_index_config(
                    index_url=options.index_url, extra_index_urls=tuple(options.extra_index_urls)
                )
                self.client = IndexClient(config, offline=options.offline, timeout=options.timeout)
            files = [c for c in self.client.candidates(name) if c.version == version]
        except CompatError:
            return []  # said by the note that the hashes were dropped
        if not files or any(c.sha256 is None for c in files):
            return []
        return sorted({c.sha256 for c in files})

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


def validate_fix(
    plan: FixPlan,
    paths: Sequence[Path],
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index_options: IndexOptions,
    resolver: str,
    resolver_timeout: float | None,
) -> Refusal | None:
    """Resolve every given file as the fix leaves it (a copy in a temporary directory, with the
    files it includes), each on its own; None when each installs, else why not."""
    from compat.facts.declared.detect import read_declared

    everything = [Path(p).resolve() for p in read_declared(paths).files]
    everything += [Path(p).resolve() for p in paths]
    root = Path(os.path.commonpath([str(p.parent) for p in everything]))
    rewritten = {Path(f.path).resolve(): f.new for f in plan.files}
    with tempfile.TemporaryDirectory(prefix="compat-fix-") as tmp:
        for source in everything:
            copy = Path(tmp) / source.relative_to(root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            if source in rewritten:
                copy.write_bytes(rewritten[source].encode("utf-8"))
            elif source.is_file():
                copy.write_bytes(source.read_bytes())
        for path in paths:
            copy = Path(tmp) / Path(path).resolve().relative_to(root)
            refusal = _resolves(
                copy, str(path), fact_options, knowledge, target, index_options, resolver,
                resolver_timeout,
            )  # fmt: skip
            if refusal is not None:
                return refusal
    return None


def _resolves(
    copy: Path,
    shown: str,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    target: TargetOptions,
    index_options: IndexOptions,
    resolver: str,
    resolver_timeout: float | None,
) -> Refusal | None:
    """One rewritten file, resolved for the target as check resolves it."""
    if index_options.offline:
        from compat.commands.check import run_check

        report, _ = run_check(
            [copy], fact_options, knowledge, target, index_options, resolver=resolver,
            resolver_timeout=resolver_timeout,
        )  # fmt: skip
        if report.resolve_failed:
            return Refusal(f"{shown} as fixed: {report.resolve_failed}", EXIT_UNCHECKED)
        return None
    from compat.commands.check import read_files
    from compat.resolve.check.declared import applicable
    from compat.resolve.check.installs import installs
    from compat.resolve.check.judge import resolve_declared
    from compat.resolve.resolvers.resolver import ResolutionFailed, ResolveNotMade

    notes: list[str] = []
    declared_set, options, (markers, _) = read_files([copy], target, notes)
    for install in installs(applicable(declared_set.requirements, markers)):
        # A project's extras install one at a time, each with the base, as check judges them.
        which = f" ({install.label})" if install.label else ""
        try:
            resolve_declared(
                install.requirements, declared_set, options, index_options, notes, resolver,
                resolver_timeout, refusal_raises=True,
            )  # fmt: skip
        except ResolutionFailed as error:
            said = " ".join(str(error.message).split())
            return Refusal(
                f"{shown}{which} as fixed cannot be installed ({error.tool}: {said})",
                EXIT_FINDINGS,
            )
        except ResolveNotMade as error:
            return Refusal(
                f"{shown}{which} as fixed could not be resolved: {error.message}", EXIT_UNCHECKED
            )
    return None
