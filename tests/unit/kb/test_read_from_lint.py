"""Issue 44 item 8: every hand-written rule with a version range names the artifact the range
was read from (`read_from`), or is one of the rules written before the field, counted in
compat/kb/read-from-backlog.txt. Real rule files on disk, linted as the shipped ones are."""

from __future__ import annotations

from pathlib import Path

from compat.kb.knowledge import validate_file
from compat.kb.lint import READ_FROM_BACKLOG, lint_base, read_from_backlog, when_digest
from tests.conftest import run_cli

RULE = """\
  - id: {id}
    title: a rule with a version range
    severity: error
    evidence: verified
    when:
      packages:
        trl: "==0.19.*"
        transformers: "<4.51"
    fix:
      summary: upgrade transformers
      constraints: ["transformers>=4.51"]
    references:
      - https://pypi.org/project/trl/0.19.0/
{read_from}    examples:
      affected:
        - packages: {{trl: "0.19.0", transformers: "4.50.0"}}
      clear:
        - packages: {{trl: "0.19.0", transformers: "4.51.0"}}
"""
NAMED = "    read_from:\n      - 'trl-0.19.0-py3-none-any.whl: METADATA transformers>=4.51.0'\n"


def _base(tmp_path: Path, *rules: str, backlog: str = "") -> tuple[Path, Path]:
    base = tmp_path / "matrix"
    base.mkdir()
    (base / "rules.yaml").write_text("schema: compat.matrix/1\nrules:\n" + "".join(rules))
    listed = tmp_path / "backlog.txt"
    listed.write_text(backlog)
    return base, listed


def test_a_new_rule_with_a_range_and_no_artifact_fails_naming_its_line(tmp_path: Path) -> None:
    base, backlog = _base(tmp_path, RULE.format(id="trl-new", read_from=""))
    result = lint_base(base, (), backlog)
    (problem,) = result.problems
    assert f"{base / 'rules.yaml'}:3:" in problem
    assert "trl-new" in problem and "read_from" in problem


def test_a_rule_naming_its_artifact_passes(tmp_path: Path) -> None:
    base, backlog = _base(tmp_path, RULE.format(id="trl-new", read_from=NAMED))
    result = lint_base(base, (), backlog)
    assert result.problems == () and result.backlog == 0


def _listed(base: Path, backlog: Path) -> None:
    """List every rule of `base` in `backlog` with its `when` as it is now."""
    (plain,) = validate_file(base / "rules.yaml")
    backlog.write_text(f"{plain['id']}  when:{when_digest(plain['when'])}  # rules.yaml\n")


def test_a_listed_rule_is_counted_not_failed_and_leaves_the_list_once_it_names_one(
    tmp_path: Path,
) -> None:
    base, backlog = _base(tmp_path, RULE.format(id="trl-old", read_from=""))
    _listed(base, backlog)
    result = lint_base(base, (), backlog)
    assert result.problems == () and result.backlog == 1
    (base / "rules.yaml").write_text(
        "schema: compat.matrix/1\nrules:\n" + RULE.format(id="trl-old", read_from=NAMED)
    )
    (problem,) = lint_base(base, (), backlog).problems
    assert problem.startswith(f"{backlog}:1: trl-old names its artifact")


def test_a_listed_rule_whose_range_changed_must_name_its_artifact(tmp_path: Path) -> None:
    base, backlog = _base(tmp_path, RULE.format(id="trl-old", read_from=""))
    _listed(base, backlog)
    text = (base / "rules.yaml").read_text()
    (base / "rules.yaml").write_text(text.replace('"<4.51"', '"<4.50.5"'))
    (problem,) = lint_base(base, (), backlog).problems
    assert "trl-old" in problem and "conditions changed since it was listed" in problem


def test_a_users_own_rule_file_is_not_held_to_it(tmp_path: Path) -> None:
    base, _ = _base(tmp_path, RULE.format(id="trl-mine", read_from=""))
    assert lint_base(base).problems == ()


def test_the_shipped_rules_pass_and_the_backlog_is_counted() -> None:
    result = run_cli(["matrix", "lint"])
    assert result.exit_code == 0, result.stderr
    waiting = len(read_from_backlog(READ_FROM_BACKLOG))
    assert f"{waiting} hand-written rule(s) with a version range name no artifact" in result.stdout
