"""`compat doctor`: the installed environment + hardware + usage facts, checked against the rules."""

from __future__ import annotations

from typing import Any

from compat.commands.nativecheck import read_binaries, settle
from compat.commands.pythoncheck import read_python
from compat.engine import evaluate, finding_order
from compat.errors import UncheckedError, shorten
from compat.facts.gather import (
    DoctorFactOptions,
    EnvOptions,
    FactOptions,
    environment_facts,
    read_environment,
    read_hardware,
    read_usage,
    start_probe,
    usage_summary,
)
from compat.facts.nodes import host_identity, stack_summary
from compat.kb.bundlestate import bundle_expires
from compat.kb.freshness import freshness
from compat.kb.importtable import RULE_PREFIX as TABLE_RULES
from compat.kb.knowledge import KnowledgeBase, KnowledgeChoice, load_knowledge_base
from compat.kb.pipcheck import CheckResult, check_environment, conflict_findings
from compat.kb.sourcebuild import source_build_notes
from compat.model import Environment, Facts, Finding
from compat.probes.cuda import NvccQuery
from compat.report import Report, environment_summary


def run_doctor(
    env_options: EnvOptions,
    fact_options: FactOptions,
    knowledge: KnowledgeChoice,
    environment: Environment | None = None,
) -> Report:
    # Read every input first: a bad flag or file is reported before any slow work.
    notes: list[str] = []
    usage = read_usage(fact_options, notes)
    kb = load_knowledge_base(knowledge)
    # The host's nvcc is the toolkit of *this* machine: it says nothing about a --path copied from
    # elsewhere or the machine a --hardware profile describes. Its process runs while the
    # environment is read.
    local = (
        not env_options.paths
        and env_options.conda_prefix is None
        and fact_options.hardware_file is None
    )
    with_nvcc: bool | NvccQuery = False
    if local and kb.mentions("build", "nvcc"):
        with_nvcc = NvccQuery.start()
    probe = start_probe(fact_options)  # the NVML binding loads while the environment is read
    # doctor --install judges the environment an install would leave in place of the chosen one
    env = environment if environment is not None else read_environment(env_options)
    if not env.packages:
        where = ", ".join(env.paths) or env.source
        raise UncheckedError(
            f"no distributions found in {where}",
            hint="point --python at the training interpreter, or --path at its site-packages",
        )
    hardware, hardware_note = read_hardware(fact_options, probe)
    if hardware is not None and hardware.user_driver is not None and hardware.user_driver.note:
        notes.append(hardware.user_driver.note)  # the CUDA driver a process loads (issue 33)
    facts = environment_facts(env, hardware, usage, with_nvcc=with_nvcc)
    # doctor --install's environment is not on disk yet: its native files cannot be read
    findings, facts, files = judge_environment(kb, env, facts, notes, environment is None)
    fresh = freshness(kb.source, facts.packages, notes)  # how old the knowledge is
    declared = check_environment(env)
    findings.extend(conflict_findings(declared.conflicts))
    findings.sort(key=finding_order)
    launched = isinstance(fact_options, DoctorFactOptions) and bool(fact_options.launch)
    notes += unchecked_notes(env, declared, hardware is None, bool(usage) or launched)
    problems = environment_problems(env, declared)
    summary = environment_summary(
        env.source,
        str(env.python_version) if env.python_version else None,
        len(env.packages),
        problems,
    )
    summary.update(files)  # environment.native (issue 33), environment.python_imports (issue 41)
    return Report(
        findings=tuple(findings),
        kb_rules=len(kb),
        kb_digest=kb.digest,
        kb_source=kb.source,
        kb_expires=bundle_expires(kb.source),
        kb_version=kb.version,
        environment=summary,
        hardware=hardware,
        hardware_note=hardware_note,
        notes=tuple(notes),
        usage=usage_summary(usage),
        host=host_identity(),
        stack=stack_summary(env, facts.builds),
        **fresh,
    )


def judge_environment(
    kb: KnowledgeBase, env: Environment, facts: Facts, notes: list[str], read_files: bool
) -> tuple[list[Finding], Facts, dict[str, Any]]:
    """The rules over the facts, and what the installed native files themselves show (issue 33):
    their findings rank first, and rules whose question they answered defer to them. Returns the
    findings, the facts the rules saw (torch's own architecture list in them) and the report's
    `environment.native` and `environment.python_imports` (absent where the files were not read)."""
    binaries = None
    if read_files:
        binaries, facts = read_binaries(env, facts)
    findings = evaluate(kb, facts)
    documents: dict[str, Any] = {}
    if binaries is not None:
        findings, settled = settle(findings, binaries)
        findings.extend(binaries.findings)
        notes += binaries.notes + settled
        documents["native"] = binaries.document
    if read_files:
        python = read_python(env)  # issue 41: names imported that the installed modules lack
        # the import table's rules ask what these files answer: the files settle them
        findings[:] = [f for f in findings if not f.rule.id.startswith(TABLE_RULES)]
        findings.extend(python.findings)
        notes += python.notes
        documents["python_imports"] = python.document
    notes += source_build_notes(kb, facts)  # why a prebuilt-wheel rule said nothing
    return findings, facts, documents


def unchecked_notes(
    env: Environment, declared: CheckResult, no_hardware: bool, usage_given: bool
) -> list[str]:
    """What the run could not settle: undecided markers, unknown hardware, no training config."""
    notes = []
    if declared.undecided:
        notes.append(
            f"{declared.undecided} declared requirements have environment markers that "
            f"{env.source} does not decide (a directory tells at most its Python version and, "
            "through its binary wheels, its platform): not checked; --python checks them"
        )
    if no_hardware:
        notes.append(
            "hardware rules could only be checked as 'possible': no probe and no --hardware profile"
        )
    if not usage_given:
        notes.append(
            "no training config given: rules that depend on it are 'possible' "
            "(--deepspeed-config, --accelerate-config, --set KEY=VALUE, or -- LAUNCH COMMAND)"
        )
    return notes


def environment_problems(env: Environment, declared: CheckResult) -> list[dict[str, str]]:
    """What could not be read of the environment, and requirements that could not be parsed."""
    problems = [
        {"kind": p.kind, "message": p.message, **({"source": str(p.origin)} if p.origin else {})}
        for p in env.problems
    ]
    problems += [
        {
            "kind": "invalid-requirement",
            "message": f"{package.label} {package.version}: cannot parse its requirement "
            f"{shorten(repr(line), 120)}; its requirements were not checked (pip check skips it too)",
            **({"source": str(package.origin)} if package.origin else {}),
        }
        for package, line in declared.unparsable
    ]
    return problems
