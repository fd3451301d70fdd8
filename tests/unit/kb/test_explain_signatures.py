"""Symptom signatures: linear-time only (matrix lint and explain refuse the others), and every
signature found whatever literal anchor it has, or none."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

RULE = """\
schema: compat.matrix/1
rules:
  - id: my-team-loader-crash
    title: our loader crashes on torch 2.4
    severity: warning
    evidence: reported
    when:
      packages: {{torch: ">=2.4"}}
    symptoms:
      - match: '{pattern}'
    fix: {{summary: stay on 2.3, constraints: ["torch<2.4"]}}
    references: ["https://wiki.example.org/loader"]
    examples:
      affected: [{{packages: {{torch: "2.4.1"}}}}]
      clear: [{{packages: {{torch: "2.3.1"}}}}]
"""


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (r"(\w+\s?)*$ failed", "nested quantifiers"),
        (r"loader: (a+)+ died", "nested quantifiers"),
        (r"(.*?,){11}P", "nested quantifiers"),
        (r"shard (\d+|\w+)* missing", "branches can match the same text"),
    ],
)
def test_lint_and_explain_refuse_backtracking_signatures(
    tmp_path: Path, pattern: str, why: str
) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULE.format(pattern=pattern))
    lint = run_cli(["matrix", "lint", str(rules)])
    assert lint.exit_code == 2
    assert "rules.yaml:10: symptom " in lint.stderr  # the pattern's own line
    assert "can backtrack catastrophically" in lint.stderr and why in lint.stderr
    log = tmp_path / "train.log"
    log.write_text("x" * 50 + "\n")
    explain = run_cli(["explain", str(log), "--matrix", str(rules)])
    assert explain.exit_code == 2 and explain.stderr.count("\n") == 1
    assert "can backtrack catastrophically" in explain.stderr


@pytest.mark.parametrize(
    ("pattern", "line"),
    [
        (r"loader crashed in shard \d+", "loader crashed in shard 17"),  # a literal anchor
        (r"[A-Z]{3}-\d{4}", "code XQZ-1234 raised"),  # no literal: matched on every line
        (r"(?i)LOADER DIED", "the loader died"),  # case-insensitive: no anchor either
    ],
)
def test_user_signatures_are_found_with_or_without_a_literal(
    tmp_path: Path, pattern: str, line: str
) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULE.format(pattern=pattern))
    assert run_cli(["matrix", "lint", str(rules)]).exit_code == 0
    log = tmp_path / "train.log"
    log.write_text("step 1\nstep 2\n" + line + "\nstep 3\n")
    result = run_cli(["explain", str(log), "--matrix", str(rules), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    match = result.json()["matches"][0]
    assert (match["rule"], match["line"], match["text"]) == ("my-team-loader-crash", 3, line)
    assert match["verdict"] == "symptom-only"
