"""`compat CMD` builds only the command it runs (start-up time); everything else still sees all."""

from __future__ import annotations

from tests.conftest import run_subprocess

COMMANDS = ("doctor", "probe", "explain", "check", "pin", "fleet", "matrix", "mcp")


def test_help_and_version_list_every_command() -> None:
    result = run_subprocess(["--help"])
    assert result.exit_code == 0
    for command in COMMANDS:
        assert command in result.stdout
    assert run_subprocess(["--version"]).stdout.startswith("compat ")


def test_the_invoked_command_runs_and_its_help_is_its_own() -> None:
    result = run_subprocess(["doctor", "--no-probe", "--path", "/nonexistent-dir", "-q"])
    assert result.exit_code == 2 and result.stderr.startswith("compat: error: ")
    helped = run_subprocess(["doctor", "--help"])
    assert helped.exit_code == 0 and "Usage: compat doctor" in helped.stdout


def test_groups_and_typos_keep_clicks_handling() -> None:
    assert run_subprocess(["matrix", "list"]).exit_code == 0
    typo = run_subprocess(["dcotor"])
    assert typo.exit_code == 2 and "Did you mean 'doctor'?" in typo.stderr


def test_a_reader_that_closes_stdout_ends_the_run_quietly() -> None:
    """`compat matrix list | head -1`: once the reader is gone the output has nowhere to go. The run
    ends with 141 (128 + SIGPIPE, as shell tools do) and no "internal error" line on stderr."""
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before compat writes its first byte
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "compat", "matrix", "list"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert proc.returncode == 141, proc.stderr
    assert proc.stderr == ""
