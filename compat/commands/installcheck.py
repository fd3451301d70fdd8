"""`compat doctor --install SPEC`: the environment an install would leave, judged as doctor judges.

The target's own resolver says what the install would do (compat.resolve.resolvers.whatif, a dry run:
nothing is installed); the installed distributions with its releases in place of those they
replace are judged with every rule, pip check and the hardware, exactly as `run_doctor` judges
the real environment; the two reports are compared: what changes, which findings the install
would introduce, what it leaves behind built against the torch it replaces, and a way out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from compat.commands.doctor import run_doctor
from compat.commands.wayout import Proposal
from compat.errors import CompatError, short_line
from compat.facts.gather import EnvOptions, FactOptions, read_environment
from compat.kb.knowledge import KnowledgeChoice
from compat.model import Environment, Finding, Status
from compat.report import FailOn, Report
from compat.resolve.resolvers.whatif import (
    Change,
    InstallPlan,
    LeftBehind,
    changes,
    dry_run,
    left_behind,
    overlay,
    parse_specs,
    target_python,
)

FindingKey = tuple[str, tuple[str, ...]]


def finding_key(finding: Finding) -> FindingKey:
    """The same problem before and after: one rule about the same distributions (their versions
    may differ: a driver finding about torch stays the driver finding when torch moves)."""
    return finding.rule.id, tuple(sorted({p.name for p in finding.packages}))


def introduced(before: Report, finding: Finding) -> bool:
    """Introduced by the install: not there before, or there only as `possible`."""
    status = {finding_key(f): f.status for f in before.findings}.get(finding_key(finding))
    return status is None or (finding.status is Status.AFFECTED and status is not Status.AFFECTED)


@dataclass(frozen=True)
class InstallCheck:
    plan: InstallPlan
    before: Report
    after: Report
    changes: tuple[Change, ...]
    left_behind: tuple[LeftBehind, ...]
    way_out: dict[str, Any] | None = None

    def is_new(self, finding: Finding) -> bool:
        return introduced(self.before, finding)

    @property
    def new(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.after.findings if self.is_new(f))

    @property
    def resolved(self) -> tuple[Finding, ...]:
        """Findings of the environment as it is that the install would take away."""
        later = {finding_key(f) for f in self.after.findings}
        return tuple(f for f in self.before.judged if finding_key(f) not in later)

    def exit_code(self, fail_on: FailOn) -> int:
        """1 when the install introduces a finding at or above --fail-on."""
        return 1 if any(self.is_new(f) for f in self.after.failing(fail_on)) else 0


def run_install_check(
    env_options: EnvOptions,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    specs: Sequence[str],
    files: Sequence[Path] = (),
    *,
    resolver: str = "auto",
    way_out: bool = True,
) -> InstallCheck:
    """Judge the environment `pip install SPECS -r FILES` would leave; nothing is installed."""
    parse_specs(specs, files)  # a bad spec or file is one line before any slow work
    python = target_python(env_options.python, env_options.conda_prefix, env_options.paths)
    env = read_environment(env_options)
    before = run_doctor(env_options, fact_options, knowledge, environment=env)
    plan = dry_run(python, specs, files, tool=resolver, prefix=env.prefix)
    after_env = overlay(env, plan)
    after = run_doctor(env_options, fact_options, knowledge, environment=after_env)
    check = InstallCheck(plan, before, after, changes(env, after_env), left_behind(env, after_env))
    if way_out and any(f.status is Status.AFFECTED for f in check.new):
        way = find_way_out(env_options, fact_options, knowledge, env, check, python, resolver)
        check = replace(check, way_out=way)
    return check


def find_way_out(
    env_options: EnvOptions,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    env: Environment,
    check: InstallCheck,
    python: str,
    resolver: str,
) -> dict[str, Any]:
    """Constraints that avoid the affected findings the install introduces — pin's solver's,
    else the nearest release of each requested package whose requirements what is installed
    meets —, each proved by a dry run judged as the first; or why no release can live here."""
    from compat.commands.wayout import proposals

    new_rules = {f.rule.id for f in check.new if f.status is Status.AFFECTED}
    wanted = ", ".join(r.display_name for r in check.plan.install if r.requested) or "it"
    reasons: list[str] = []
    builds: list[str] = []  # another torch build the solver chose: said, not proved here
    seen: set[tuple[str, ...]] = set()
    try:
        for proposal in proposals(fact_options, knowledge, env, check.plan, new_rules):
            builds += proposal.builds
            if (*proposal.constraints, *proposal.kept) in seen:
                continue
            seen.add((*proposal.constraints, *proposal.kept))
            if not proposal.constraints or proposal.unresolved:
                reasons += [*proposal.unresolved, *proposal.outside]
                continue
            why = _disproved(
                env_options, fact_options, knowledge, env, check, python, resolver, proposal
            )
            if why:
                reasons.append(why)
                continue
            return _way(proposal, wanted, _build_notes(builds))
    except Exception as error:  # the way out is advice: the verdict above stands without it
        reasons.append(f"the search stopped: {short_line(str(error))}")
    return _no_way("", tuple(dict.fromkeys(reasons + _build_notes(builds))), wanted)


def _build_notes(builds: Sequence[str]) -> list[str]:
    return [
        f"or keep the request with {build} "
        "(not proved: the resolver was asked of the configured index only)"
        for build in dict.fromkeys(builds)
    ]


def _disproved(
    env_options: EnvOptions,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    env: Environment,
    check: InstallCheck,
    python: str,
    resolver: str,
    proposal: Proposal,
) -> str:
    """Why the resolver or the judgement refutes the proposal; empty when it stands."""
    specs = [*proposal.constraints, *proposal.kept]
    try:
        plan = dry_run(python, specs, (), tool=resolver, prefix=env.prefix)
    except CompatError as error:
        return f"the resolver refuses {' '.join(specs)}: {error}"
    after = run_doctor(env_options, fact_options, knowledge, environment=overlay(env, plan))
    still = sorted(
        {
            f.rule.id
            for f in after.findings
            if f.status is Status.AFFECTED and introduced(check.before, f)
        }
    )
    return f"{' '.join(specs)} would still introduce {', '.join(still)}" if still else ""


def _way(proposal: Proposal, wanted: str, notes: Sequence[str]) -> dict[str, Any]:
    refused = (
        f"no release of {wanted} that the request allows lives here without them; "
        if proposal.outside
        else ""
    )
    return {
        "summary": f"{refused}install {' '.join(proposal.constraints)} instead"
        + (f", keeping {' '.join(proposal.kept)}" if proposal.kept else "")
        + ": the resolver accepts it and it introduces no affected finding",
        "constraints": [*proposal.constraints, *proposal.kept],
        "verified": True,
        "request_allowed": not proposal.outside,
        "reasons": [*proposal.outside, *notes],
    }


def _no_way(why: str, unresolved: Sequence[str], wanted: str) -> dict[str, Any]:
    reasons = [*unresolved, *([why] if why else [])]
    return {
        "summary": f"no release of {wanted} that the request allows lives in this environment "
        "without what the install introduces",
        "constraints": [],
        "verified": False,
        "request_allowed": False,
        "reasons": reasons,
    }


def _version(version: object | None) -> str | None:
    return None if version is None else str(version)


def install_document(check: InstallCheck) -> dict[str, Any]:
    """The `install` member of compat.report/1 for doctor --install (docs/contract.md)."""
    return {
        "requested": list(check.plan.requested),
        "resolver": check.plan.tool,
        "python": check.plan.python,
        "changes": [
            {
                "name": c.display_name,
                "change": c.kind,
                "before": {"version": _version(c.before), "cuda": _version(c.cuda_before)},
                "after": {"version": _version(c.after), "cuda": _version(c.cuda_after)},
            }
            for c in check.changes
        ],
        "left_behind": [
            {"name": b.display_name, "version": str(b.version), "reason": b.reason}
            for b in check.left_behind
        ],
        "new": [f.rule.id for f in check.after.judged if check.is_new(f)],
        "resolved": [f.rule.id for f in check.resolved],
        "before": {
            "affected": check.before.count(Status.AFFECTED),
            "possible": check.before.count(Status.POSSIBLE),
        },
        "way_out": check.way_out,
    }
