"""schema/compat-matrix-1.schema.json: every shipped rule file validates against it, and it agrees
with `matrix lint`'s validator on a table of valid and invalid rules."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from compat.errors import KnowledgeBaseError
from compat.kb.knowledge import BUILD_KEYS, HARDWARE_KEYS, MATRIX_DIR, validate_file
from compat.usage import VOCABULARY
from tests.conftest import run_cli
from tests.lib import paths

SCHEMA_PATH = paths.REPO / "schema" / "compat-matrix-1.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

BASE_RULE: dict[str, Any] = yaml.safe_load(
    """
id: demo-zero3-clip
title: A demo rule
severity: error
evidence: verified
when:
  packages:
    deepspeed: ">=0.14.1,<0.14.3"
fix:
  summary: move DeepSpeed off 0.14.1-0.14.2
  constraints: ["deepspeed!=0.14.1,!=0.14.2"]
references: ["https://github.com/deepspeedai/DeepSpeed/pull/5461"]
examples:
  affected: [{packages: {deepspeed: 0.14.2}}]
  clear: [{packages: {deepspeed: 0.14.3}}]
"""
)


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("path", sorted(MATRIX_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_rule_file_validates(path: Path) -> None:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(document)]
    assert errors == []


def test_the_schema_knows_the_validators_vocabulary() -> None:
    # A key added to compat (a usage fact, a hardware or build condition) must reach the schema.
    when = SCHEMA["$defs"]["when"]["properties"]
    assert set(when["usage"]["properties"]) == set(VOCABULARY)
    assert set(when["hardware"]["properties"]) == HARDWARE_KEYS
    assert set(when["build"]["properties"]) == BUILD_KEYS


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(rule: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = rule
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value

    return change


def _drop(path: str) -> Callable[[dict[str, Any]], None]:
    def change(rule: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node = rule
        for key in parents:
            node = node[key]
        del node[last]

    return change


# (case, change to BASE_RULE, valid?)
CASES: list[tuple[str, Callable[[dict[str, Any]], None], bool]] = [
    ("base", lambda rule: None, True),
    ("description", _set("description", "Why it breaks."), True),
    ("bare-version", _set("when.packages.deepspeed", "0.14.2"), True),
    ("python-number", _set("when.python", 3.11), True),
    ("platform", _set("when.platform", "platform_machine == 'aarch64'"), True),
    (
        "commit-form",
        _set("when.packages.openrlhf", {"version": ">=0.5", "commit": ["01b8a23d"]}),
        True,
    ),
    ("usage", _set("when.usage", {"zero_stage": 3, "trainer": ["grpo", "ppo"]}), True),
    ("hardware", _set("when.hardware", {"gpu_count": ">=2", "mig": True}), True),
    ("hardware-int", _set("when.hardware", {"memory_mib": 40000}), True),
    ("build", _set("when.build", {"torch_cuda": ">=13"}), True),
    (
        "any-anchored",
        lambda rule: rule.update(
            when={"any": [{"packages": {"trl": "<0.15"}}, {"python": ">=3.13"}]}
        ),
        True,
    ),
    ("fix-change-only", lambda rule: rule.update(fix={"summary": "s", "change": "do x"}), True),
    ("possible-example", _set("examples.possible", [{"packages": {"deepspeed": "0.14.1"}}]), True),
    ("symptom", _set("symptoms", [{"match": "gather.*hang", "frames": ["a.py:f"]}]), True),
    ("no-schema", lambda rule: None, False),  # handled below: the file lacks `schema`
    ("unknown-rule-key", _set("tags", ["x"]), False),
    ("missing-references", _drop("references"), False),
    ("empty-references", _set("references", []), False),
    ("reference-not-url", _set("references", ["see the forum"]), False),
    ("bad-id", _set("id", "Demo_Rule"), False),
    ("bad-severity", _set("severity", "fatal"), False),
    ("bad-evidence", _set("evidence", "rumour"), False),
    ("empty-title", _set("title", " "), False),
    ("empty-when", lambda rule: rule.update(when={}), False),
    ("usage-only", lambda rule: rule.update(when={"usage": {"zero_stage": 3}}), False),
    (
        "any-unanchored-branch",
        lambda rule: rule.update(
            when={"any": [{"packages": {"trl": "<0.15"}}, {"usage": {"zero_stage": 3}}]}
        ),
        False,
    ),
    ("any-one-branch", _set("when.any", [{"python": ">=3.13"}]), False),
    ("unknown-when-key", _set("when.gpu", "H100"), False),
    ("unknown-usage-key", _set("when.usage", {"zero": 3}), False),
    ("unknown-hardware-key", _set("when.hardware", {"vram": 80}), False),
    ("gpu-count-words", _set("when.hardware", {"gpu_count": "lots"}), False),
    ("mig-string", _set("when.hardware", {"mig": "yes"}), False),
    ("unknown-build-key", _set("when.build", {"rocm": ">=6"}), False),
    ("bad-specifier", _set("when.packages.deepspeed", "=>0.14"), False),
    ("bad-package-name", _set("when.packages.-bad", ">=1"), False),
    ("bad-commit", _set("when.packages.openrlhf", {"commit": ["xyz"]}), False),
    ("usage-value-mapping", _set("when.usage", {"zero_stage": {"x": 1}}), False),
    ("fix-without-action", lambda rule: rule.update(fix={"summary": "s"}), False),
    ("fix-without-summary", _drop("fix.summary"), False),
    ("constraint-with-extras", _set("fix.constraints", ["deepspeed[dev]>=0.15"]), False),
    ("unknown-fix-key", _set("fix.note", "x"), False),
    ("examples-without-clear", _drop("examples.clear"), False),
    ("examples-empty-affected", _set("examples.affected", []), False),
    ("example-unknown-key", _set("examples.clear", [{"gpu": "H100"}]), False),
    ("symptom-without-match", _set("symptoms", [{"frames": ["a.py:f"]}]), False),
]


@pytest.mark.parametrize(("case", "change", "valid"), CASES, ids=[c[0] for c in CASES])
def test_schema_and_lint_agree(
    tmp_path: Path, case: str, change: Callable[[dict[str, Any]], None], valid: bool
) -> None:
    rule = copy.deepcopy(BASE_RULE)
    change(rule)
    document: dict[str, Any] = {"rules": [rule]}
    if case != "no-schema":
        document = {"schema": "compat.matrix/1", **document}
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    schema_valid = VALIDATOR.is_valid(yaml.safe_load(path.read_text(encoding="utf-8")))
    try:
        validate_file(path)
        lint_valid = True
    except KnowledgeBaseError:
        lint_valid = False
    assert (schema_valid, lint_valid) == (valid, valid)


def test_editor_comment_and_lint_of_a_file_using_the_schema(tmp_path: Path) -> None:
    # The yaml-language-server comment docs/knowledge-base.md shows is only a comment to lint.
    path = tmp_path / "mine.yaml"
    text = yaml.safe_dump({"schema": "compat.matrix/1", "rules": [BASE_RULE]}, sort_keys=False)
    path.write_text(
        f"# yaml-language-server: $schema={SCHEMA['$id']}\n{text}",
        encoding="utf-8",
    )
    result = run_cli(["matrix", "lint", str(path)])
    assert result.exit_code == 0, result.stderr
