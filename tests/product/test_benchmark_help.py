"""Benchmark scripts read their command lines with argparse: `--help` prints the usage and runs
nothing. Before, pin_clauses.py took `--help` as its output path and ran every real file into a
file named `--help`; param_walk.py ran `compat --help` as the command to walk;
score_install_questions.py ran its online checks against PyPI; score_torch_rocm.py and
score_xformers_rocm.py (now one score_check_cases.py) read `--help` as the set's folder and
crashed. Every script in benchmarks/ is asked, so a new one that forgets is caught. A missing
output path is argparse's exit 2, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.lib import paths

BENCHMARKS = paths.REPO / "benchmarks"


def _run(cwd: Path, script: str, *args: str) -> subprocess.CompletedProcess[str]:
    # bounded: the old scripts ran for minutes on `--help`
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True, text=True, cwd=cwd, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("script", "usage", "words"),
    [
        ("pin_clauses.py", "[-h] [--root ROOT] [--only ONLY] OUT.jsonl", "MaxSAT"),
        ("param_walk.py", "[-h] [--facts] [{pin,doctor}] [CLASS[,CLASS...]]", "climbs"),
        ("score_install_questions.py", "[-h]", "online against PyPI"),
    ],
)
def test_help_prints_the_usage_and_runs_nothing(
    tmp_path: Path, script: str, usage: str, words: str
) -> None:
    result = _run(tmp_path, script, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: {script} {usage}\n"), result.stdout[:300]
    assert words in " ".join(result.stdout.split())
    assert list(tmp_path.iterdir()) == []


# modules imported by the scripts, not scripts themselves
_NOT_SCRIPTS = {"__init__.py", "common.py"}
EVERY_SCRIPT = sorted(
    path.name for path in BENCHMARKS.glob("*.py") if path.name not in _NOT_SCRIPTS
)


SCRIPTS = paths.REPO / "scripts"
# scripts/ holds modules the generators import beside the scripts: only files that run as a
# program (a __main__ block) are asked
EVERY_TOOL = sorted(
    path.name for path in SCRIPTS.glob("*.py") if 'if __name__ == "__main__"' in path.read_text()
)


@pytest.mark.parametrize("script", EVERY_SCRIPT)
def test_every_benchmark_script_answers_help_and_runs_nothing(tmp_path: Path, script: str) -> None:
    _answers_help(tmp_path, BENCHMARKS / script)


@pytest.mark.parametrize("script", EVERY_TOOL)
def test_every_tool_script_answers_help_and_runs_nothing(tmp_path: Path, script: str) -> None:
    """scripts/ too: snapshot_outputs.py recorded every command into a folder named `--help`,
    gen_conda_names.py died on an IndexError, bundle_schemas.py ran as if told to rewrite the
    schemas,
    pin_sweep.py ran its whole sweep into `--help`."""
    _answers_help(tmp_path, SCRIPTS / script)


def _answers_help(cwd: Path, script: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True, text=True, cwd=cwd, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith(f"usage: {script.name} "), result.stdout[:300]
    assert "Traceback" not in result.stderr
    assert list(cwd.iterdir()) == []


def test_no_output_path_is_a_usage_error(tmp_path: Path) -> None:
    result = _run(tmp_path, "pin_clauses.py")
    assert result.returncode == 2
    assert "the following arguments are required: OUT.jsonl" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []
