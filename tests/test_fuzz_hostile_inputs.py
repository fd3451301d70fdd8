"""Hostile input, one named case per class of issue 16, through `python -m compat` as a real
process within 10 s (tests/fuzzing.py): patterns in any file that could backtrack, exit 70 where
the contract says 2, terminal escapes from flags, undecodable names under `-o`, and error lines
that echo a huge input. Each case asserts the contract (exit code, one line naming the file, no
traceback), never a dependency's wording."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.dists import make_dist
from tests.fuzzing import LIMIT_S, assert_input_error, run_hostile

BACKTRACKING = "(a+)+$"
RULE = """schema: compat.matrix/1
rules:
  - id: hostile-rule
    title: a rule from a pull request
    severity: error
    evidence: verified
    when: {{packages: {{trl: ">=0.1"}}{extra_when}}}
    {extra}
    fix: {{summary: upgrade, constraints: ["trl>=9"]}}
    references: ["https://example.org/x"]
    examples:
      affected: [{{packages: {{trl: "{affected}"}}{affected_extra}}}]
      clear: [{{packages: {{trl: "9.0"}}}}]
"""
ESC_SET = "trainer=\x1b[31mred"


def rule_file(
    path: Path,
    *,
    extra: str = "",
    extra_when: str = "",
    affected: str = "0.1",
    affected_extra: str = "",
) -> Path:
    text = RULE.format(
        extra=extra, extra_when=extra_when, affected=affected, affected_extra=affected_extra
    )
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    make_dist(site, "trl", "0.17.0")
    make_dist(site, "deepspeed", "0.14.2")
    return site


@pytest.fixture
def hardware(tmp_path: Path) -> Path:
    """A GPU whose name makes `(a+)+$` backtrack for hours: forty a's and no match at the end."""
    profile = tmp_path / "hw.json"
    profile.write_text(json.dumps({"gpus": [{"name": "a" * 40 + "!"}]}), encoding="utf-8")
    return profile


# ---------------------------------------------------------------------------------------------
# a hang: every regex a file can carry goes through the linear-time check


def test_gpu_name_pattern_that_backtracks_in_doctor(
    tmp_path: Path, site: Path, hardware: Path
) -> None:
    rules = rule_file(
        tmp_path / "rules.yaml", extra_when=f", hardware: {{gpu_name: '{BACKTRACKING}'}}"
    )
    outcome = run_hostile(
        ["doctor", "--path", str(site), "--hardware", str(hardware), "--matrix", str(rules)]
    )
    assert_input_error(outcome, "rules.yaml:7")


def test_gpu_name_pattern_that_backtracks_in_every_command_that_reads_rules(
    tmp_path: Path, site: Path, hardware: Path
) -> None:
    """The same rule file given to every command that reads rules: refused by each, promptly."""
    rules = rule_file(
        tmp_path / "rules.yaml",
        extra_when=f", any: [{{hardware: {{gpu_name: 'x'}}}}, {{hardware: {{gpu_name: '{BACKTRACKING}'}}}}]",
    )
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    log = tmp_path / "train.log"
    log.write_text("a" * 40 + "!\n", encoding="utf-8")
    for args in (
        ["check", str(requirements), "--offline", "--hardware", str(hardware)],
        ["explain", str(log), "--path", str(site), "--no-probe"],
        ["pin", "--path", str(site), "--no-probe", "--offline"],
        ["matrix", "show", "hostile-rule"],
    ):
        outcome = run_hostile([*args, "--matrix", str(rules)])
        assert_input_error(outcome, "rules.yaml:7", BACKTRACKING)


def test_matrix_lint_refuses_a_backtracking_gpu_name(tmp_path: Path) -> None:
    rules = rule_file(
        tmp_path / "rules.yaml", extra_when=f", hardware: {{gpu_name: '{BACKTRACKING}'}}"
    )
    outcome = run_hostile(["matrix", "lint", str(rules)])
    assert outcome.returncode == 2
    lines = outcome.stderr.splitlines()
    assert any(line.startswith(f"{rules}:7: ") and BACKTRACKING in line for line in lines)
    assert "Traceback" not in outcome.stderr


@pytest.mark.parametrize("pattern", ["x*", "^", "(?=Error)", "a?|b"])
def test_symptom_that_matches_the_empty_string(tmp_path: Path, site: Path, pattern: str) -> None:
    rules = rule_file(tmp_path / "rules.yaml", extra=f"symptoms: [{{match: '{pattern}'}}]")
    log = tmp_path / "train.log"
    log.write_text("hello\n\nworld\n", encoding="utf-8")
    explain = run_hostile(
        ["explain", str(log), "--path", str(site), "--no-probe", "--matrix", str(rules)]
    )
    assert_input_error(explain, "rules.yaml:8")
    lint = run_hostile(["matrix", "lint", str(rules)])
    assert lint.returncode == 2 and f"{rules}:8: " in lint.stderr, lint.stderr


# ---------------------------------------------------------------------------------------------
# a raw ESC from a flag never reaches the terminal


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_escape_in_a_set_value_doctor(site: Path, fmt: str) -> None:
    outcome = run_hostile(
        ["doctor", "--path", str(site), "--no-probe", "--set", ESC_SET, "-f", fmt]
    )
    assert outcome.returncode in (0, 1), outcome.stderr
    assert "\x1b" not in outcome.stdout + outcome.stderr
    if fmt == "json":  # JSON keeps the value as it was given, escaped the JSON way
        assert json.loads(outcome.stdout)["usage"]["trainer"] == "\x1b[31mred"
    elif fmt == "text":
        assert "trainer=\\u001b[31mred" in outcome.stdout


@pytest.mark.parametrize("fmt", ["text", "markdown", "github", "json", "sarif"])
def test_escape_in_a_set_value_check(tmp_path: Path, fmt: str) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\ndeepspeed==0.14.2\n", encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline", "--set", ESC_SET, "-f", fmt])
    assert outcome.returncode in (0, 1), outcome.stderr
    assert "\x1b" not in outcome.stdout + outcome.stderr


def test_escape_in_a_set_value_explain(tmp_path: Path, site: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 1\n", encoding="utf-8")
    for fmt in ("text", "json"):
        args = ["explain", str(log), "--path", str(site), "--no-probe", "--set", ESC_SET]
        outcome = run_hostile([*args, "-f", fmt])
        assert outcome.returncode in (0, 1), outcome.stderr
        assert "\x1b" not in outcome.stdout + outcome.stderr


def test_escape_in_a_set_value_on_a_colour_terminal(site: Path) -> None:
    """On a real terminal compat colours its own text; the ESC a value carries stays escaped."""
    primary, secondary = pty.openpty()
    usage = ["--set", ESC_SET, "--set", "zero_stage=3"]
    env = {**os.environ, "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    env.pop("CI", None)
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "compat", "doctor", "--path", str(site), "--no-probe", *usage],
        stdout=secondary,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=LIMIT_S)
    os.close(primary)
    assert proc.stderr is not None
    with proc.stderr:
        assert b"\x1b" not in proc.stderr.read()
    assert time.monotonic() - started < LIMIT_S
    out = b"".join(chunks).decode()
    assert proc.returncode in (0, 1)
    assert "\x1b[" in out  # compat's own colours: this is a terminal
    assert "\x1b[31mred" not in out and "\\u001b[31mred" in out


# ---------------------------------------------------------------------------------------------
# error lines are one short line, whatever they echo


def test_marker_of_2000_parentheses_is_a_short_line(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    marker = "(" * 2000 + 'os_name == "posix"' + ")" * 2000
    requirements.write_text(f"trl==0.1; {marker}\n", encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline"])
    assert_input_error(outcome, "requirements.txt:1")
    assert len(outcome.stderr) < 500


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "trainer=" + "x" * 5000],
        ["--set", "x" * 5000 + "=1"],
        ["--matrix", "/nonexistent/" + "d" * 3000],
    ],
    ids=["set-value", "set-key", "missing-file"],
)
def test_long_flag_values_give_a_short_line(site: Path, args: list[str]) -> None:
    outcome = run_hostile(["doctor", "--path", str(site), "--no-probe", *args])
    if outcome.returncode == 2:
        assert_input_error(outcome)
        assert len(outcome.stderr) < 500
    else:  # a value doctor accepts is not an error
        assert outcome.returncode in (0, 1), outcome.stderr
