"""`compat matrix lint`: schema, examples and fixes of rule files, every problem as `file:line: ...`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

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
    # hand-written rules with a version range that name no artifact yet (read_from), listed in
    # compat/kb/read-from-backlog.txt: counted, not failed
    backlog: int = 0


# Rules written before `read_from` existed: each one's range is still to be traced to its
# artifact. A rule not listed here must name it; a listed rule that names it (or is gone) must
# leave the list, so it only shrinks.
READ_FROM_BACKLOG = Path(__file__).with_name("read-from-backlog.txt")


def lint_base(base: Path, paths: Sequence[Path] = (), backlog: Path | None = None) -> LintResult:
    """Lint the rule files of `base` (a matrix directory) and `paths` together. With `backlog`
    (the shipped knowledge base's READ_FROM_BACKLOG), the rules in `base` are held to read_from."""
    files = rule_files(paths, base)
    problems: list[str] = []
    seen: dict[str, Origin] = {}
    rules = examples = 0
    # read_from is asked of the shipped rules only: a user's own rule file, or a bundle built
    # before the field existed (checked on install), is not held to it
    waiting_list = read_from_backlog(backlog) if backlog is not None else {}
    waiting: set[str] = set()
    changed: set[str] = set()
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
            in_base = Path(plain["file"]).resolve().parent == base.resolve()
            held = backlog is not None and in_base
            missing = read_from_problem(plain, origin, waiting_list) if held else ""
            if missing == "backlog":
                waiting.add(plain["id"])
            elif missing:
                problems.append(missing)
                changed.add(plain["id"])  # a listed rule that changed: one problem, not two
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
    for rule_id in sorted(set(waiting_list) - waiting - changed):
        problems.append(
            f"{backlog}:{waiting_list[rule_id].line}: {rule_id} names its artifact (read_from) or has"
            " no version range or no longer exists: remove it from the backlog"
        )
    return LintResult(tuple(problems), rules, len(files), examples, len(waiting))


class Listed(NamedTuple):
    line: int
    when: str  # the digest of the rule's `when` as listed (when_digest)


def read_from_backlog(path: Path) -> dict[str, Listed]:
    """The backlog: `rule-id  when:DIGEST  # file` per line."""
    out = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if words:
            digest = words[1].removeprefix("when:") if len(words) > 1 else ""
            out[words[0]] = Listed(number, digest)
    return out


def when_digest(when: Any) -> str:
    """A short digest of a rule's normalized `when`: a listed rule whose conditions changed is
    a changed rule, and a changed rule names its artifact like a new one."""
    text = json.dumps(when, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def read_from_problem(plain: dict[str, Any], origin: Origin, backlog: dict[str, Listed]) -> str:
    """'' when the rule needs no read_from or names one, 'backlog' when it is a listed rule
    still waiting with its `when` as listed, else the problem line. Generated files (first
    line `# GENERATED`) record their artifacts in their inputs (scripts/inputs/, re-read by the
    generators' --verify)."""
    if plain.get("read_from") or not has_version_range(plain["when"]):
        return ""
    if _generated(str(plain["file"])):
        return ""
    listed = backlog.get(plain["id"])
    if listed is not None and listed.when == when_digest(plain["when"]):
        return "backlog"
    why = "its conditions changed since it was listed, and " if listed else ""
    return (
        f"{origin}: rule {plain['id']}: {why}its version range names no artifact it was read "
        "from (read_from: the wheel or sdist and file, or the tag and file; "
        "docs/knowledge-base.md)"
    )


def has_version_range(when: Any) -> bool:
    """A package range other than presence (`>=0`), a python range, or a driver version range,
    anywhere in a when (any-branches included)."""
    if isinstance(when, list):
        return any(has_version_range(part) for part in when)
    if not isinstance(when, dict):
        return False
    for key, value in when.items():
        if key == "packages" and isinstance(value, dict):
            for spec in value.values():
                text = spec.get("version") if isinstance(spec, dict) else spec
                if text and str(text).strip() != ">=0":
                    return True
        elif key == "python" and value:
            return True
        elif key == "hardware" and isinstance(value, dict):
            if value.get("driver") or value.get("cuda_driver"):
                return True
        elif has_version_range(value):
            return True
    return False


_GENERATED: dict[str, bool] = {}


def _generated(path: str) -> bool:
    if path not in _GENERATED:
        with open(path, encoding="utf-8") as handle:
            _GENERATED[path] = handle.readline().startswith("# GENERATED")
    return _GENERATED[path]


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
