"""`compat matrix lint`: schema, examples and fixes of rule files, every problem as `file:line: ...`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion

from compat.engine import evaluate_rule
from compat.errors import CompatError
from compat.kb.capabilities import (
    SHIPPED,
    example_problems,
    is_capability_file,
    read_capability_file,
)
from compat.kb.conditions import All, AnchorCondition, AnyOf, UsageCondition
from compat.kb.examples import check_example, facts_from_example
from compat.kb.knowledge import compile_rule, rule_files, validate_file
from compat.model import Condition, Origin, Rule
from compat.versions import parse_version


class LintResult(NamedTuple):
    problems: tuple[str, ...]
    rules: int
    files: int
    examples: int


def lint_base(base: Path, paths: Sequence[Path] = ()) -> LintResult:
    """Lint the rule files of `base` (a matrix directory) and `paths` together."""
    files = rule_files(paths, base)
    problems: list[str] = []
    seen: dict[str, Origin] = {}
    rules = examples = 0
    # The shipped capabilities are linted with the rules (they are not rule files: not counted).
    for path in (SHIPPED, *files):
        if path != SHIPPED and path.resolve() == SHIPPED.resolve():
            continue
        if is_capability_file(path):
            examples += _lint_capabilities(path, problems)
            continue
        try:
            plain_rules = validate_file(path)
        except CompatError as error:
            problems.append(str(error))
            continue
        for plain in plain_rules:
            origin = Origin(plain["file"], plain["line"])
            if plain["id"] in seen:
                problems.append(
                    f"{origin}: duplicate rule id {plain['id']!r} (first at {seen[plain['id']]})"
                )
                continue
            seen[plain["id"]] = origin
            try:
                rule = compile_rule(plain)
                for index in range(len(rule.examples)):
                    examples += 1
                    problem = check_example(rule, index)
                    if problem:
                        problems.append(problem)
                problems.extend(fix_problems(rule))
                problems.extend(worth_problems(rule))
            except CompatError as error:
                problems.append(f"{error} (in rule {plain['id']})")
            rules += 1
    return LintResult(tuple(problems), rules, len(files), examples)


def _lint_capabilities(path: Path, problems: list[str]) -> int:
    """Schema and examples of a `compat.capabilities/1` file; returns how many examples ran."""
    try:
        capabilities = read_capability_file(path)
    except CompatError as error:
        problems.append(str(error))
        return 0
    for capability in capabilities:
        problems.extend(example_problems(capability))
    return sum(len(c.examples) for c in capabilities)


def fix_problems(rule: Rule) -> list[str]:
    """fix.constraints must exclude the package versions of every affected example."""
    constraints = [Requirement(text) for text in rule.fix.constraints]
    if not constraints:
        return []
    problems = []
    for example in rule.examples:
        if example.expect != "affected":
            continue
        packages = example.data.get("packages") or {}
        assert isinstance(packages, dict)
        excluded = False
        for name, spec in packages.items():
            version_text = spec["version"] if isinstance(spec, dict) else spec
            try:
                version = parse_version(str(version_text))
            except InvalidVersion:
                continue
            for constraint in constraints:
                if canonicalize_name(constraint.name) == canonicalize_name(
                    str(name)
                ) and not constraint.specifier.contains(version, prereleases=True):
                    excluded = True
        if not excluded:
            problems.append(
                f"{example.origin}: rule {rule.id}: fix.constraints {list(rule.fix.constraints)} "
                "do not exclude this affected example's versions"
            )
    return problems


def anchors(condition: Condition) -> bool:
    """Whether every way the condition can hold includes a specific fact: a package range that
    excludes some version (or a commit), a python, platform, hardware or build condition, or a
    trigger usage (8-bit loading, FSDP2). `accelerate>=0` plus usage facts would ask every
    environment with accelerate installed about its config."""
    if isinstance(condition, All):
        return any(anchors(part) for part in condition.parts)
    if isinstance(condition, AnyOf):
        return all(anchors(part) for part in condition.parts)
    if isinstance(condition, AnchorCondition):
        return condition.specific()
    return isinstance(condition, UsageCondition) and condition.trigger


def worth_problems(rule: Rule) -> list[str]:
    """A `possible` finding must be worth a user's minute (docs/knowledge-base.md): the rule is
    anchored by a specific fact, and each unknown a possible example lists names how to settle it."""
    problems = []
    if not anchors(rule.when):
        problems.append(
            f"{rule.origin}: rule {rule.id}: no specific condition anchors it (a package range "
            "that excludes some version, python, platform, hardware, build or a trigger usage); "
            "a presence-only package like '>=0' anchors nothing"
        )
    for example in rule.examples:
        if example.expect != "possible":
            continue
        finding = evaluate_rule(rule, facts_from_example(example.data, example.origin))
        for unknown in finding.unknown if finding else ():
            if not any(word in unknown.needs for word in ("--", "pin", "reinstall")):
                problems.append(
                    f"{example.origin}: rule {rule.id}: unknown {unknown.fact} names no flag or "
                    f"file that settles it ({unknown.needs!r})"
                )
    return problems
