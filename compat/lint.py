"""`compat matrix lint`: schema, examples and fixes of rule files, every problem as `file:line: ...`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.capabilities import example_problems, is_capability_file, read_capability_file
from compat.engine import check_example
from compat.errors import CompatError
from compat.knowledge import compile_rule, rule_files, validate_file
from compat.model import Origin, Rule


@dataclass(frozen=True)
class LintResult:
    problems: tuple[str, ...]
    rules: int
    files: int
    examples: int


def lint(paths: Sequence[Path]) -> LintResult:
    """Lint `paths` (default: the shipped knowledge base), with ids checked across all files."""
    # The user's files are checked together with the shipped ones, so id clashes show up too.
    files = rule_files(paths)
    problems: list[str] = []
    seen: dict[str, Origin] = {}
    rules = examples = 0
    for path in files:
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
                version = Version(str(version_text))
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
