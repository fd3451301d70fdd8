"""benchmarks/pin_clauses.py reads its command line with argparse: `--help` prints its usage
and writes nothing (it was taken as the output path, and the whole benchmark ran into a file
named `--help`); a missing output path is argparse's exit 2, not a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.lib import paths

SCRIPT = paths.REPO / "benchmarks" / "pin_clauses.py"


def _run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # bounded: the old script would run every real file (minutes) for `--help`
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True, text=True, cwd=cwd, timeout=60, check=False,
    )  # fmt: skip


def test_help_prints_the_usage_and_writes_nothing(tmp_path: Path) -> None:
    result = _run(tmp_path, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: pin_clauses.py [-h] [--root ROOT] [--only ONLY]")
    assert "OUT.jsonl" in result.stdout and "MaxSAT" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_no_output_path_is_a_usage_error(tmp_path: Path) -> None:
    result = _run(tmp_path)
    assert result.returncode == 2
    assert "the following arguments are required: OUT.jsonl" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []
