"""Progress where users wait (issue 35 item 6): `compat: WHAT (Ns)` on stderr, redrawn while an
online check, doctor --install, fleet --ray, matrix update or pin waits, and cleared at the end;
seen in a real terminal (a pty), never in a pipe, under CI or with --quiet."""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from tests.indexserver import Dist, Faults, IndexServer
from tests.lib.terminal import drain

SLOW = 2.6  # seconds the index takes to answer: long enough for the clock to tick twice


def run_on_terminal(
    argv: Sequence[str], cwd: Path, env: dict[str, str], *, stderr_tty: bool = True
) -> tuple[int, str, str]:
    """`python -m compat ARGV` as a real process whose stderr is a terminal (a pty, 120
    columns) or a pipe; stdout is a pipe. (exit code, stdout, stderr as the terminal got it)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "compat", *argv],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave if stderr_tty else subprocess.PIPE,
    )
    os.close(slave)
    seen = drain(master, proc, until_exit=not stderr_tty)
    stdout, piped = proc.communicate(timeout=60)
    stderr = seen.decode() if stderr_tty else piped.decode()
    return proc.returncode, stdout.decode(), stderr


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COMPAT_") and k != "CI"}
    environ["COMPAT_CACHE_DIR"] = str(tmp_path / "cache")
    environ["TERM"] = "xterm"
    return environ


@pytest.fixture
def slow_index() -> Iterator[IndexServer]:
    with IndexServer(
        {"slowpkg": [Dist("slowpkg", "1.0")]}, faults=Faults(slow={"slowpkg": SLOW})
    ) as index:
        yield index


def update_argv(index: IndexServer) -> list[str]:
    # Its index URL answers slowly, with a project page: the update waits, then is refused.
    return ["matrix", "update", "--url", f"{index.url}/slowpkg/", "--timeout", "30"]


def test_matrix_update_shows_what_runs_and_for_how_long(
    tmp_path: Path, env: dict[str, str], slow_index: IndexServer
) -> None:
    code, stdout, stderr = run_on_terminal(update_argv(slow_index), tmp_path, env)
    assert code == 2, stderr  # not a knowledge-base index
    assert f"compat: matrix update: fetching the index {slow_index.url}/slowpkg/ (0s)" in stderr
    assert "(1s)" in stderr and "(2s)" in stderr  # the clock runs while it waits
    # Cleared before the answer: the error is a line of its own.
    progress, _, error = stderr.rpartition("\r\x1b[K")
    assert progress and error.startswith("compat: error: matrix update: ")
    assert stdout == ""


@pytest.mark.parametrize(
    ("how", "extra_env", "extra_argv"),
    [("pipe", {}, []), ("CI", {"CI": "true"}, []), ("--quiet", {}, ["--quiet"])],
)
def test_no_progress_in_a_pipe_under_ci_or_quiet(
    tmp_path: Path,
    env: dict[str, str],
    slow_index: IndexServer,
    how: str,
    extra_env: dict[str, str],
    extra_argv: list[str],
) -> None:
    code, _, stderr = run_on_terminal(
        [*update_argv(slow_index), *extra_argv],
        tmp_path,
        {**env, **extra_env},
        stderr_tty=how != "pipe",
    )
    assert code == 2
    lines = stderr.replace("\r\n", "\n")  # a terminal ends lines with CR LF
    assert "fetching" not in lines and "\x1b" not in lines and "\r" not in lines
    assert lines.count("\n") == 1 and lines.startswith("compat: error: ")  # the error alone


@pytest.mark.usefixtures("resolver_env")
def test_an_online_check_shows_progress_and_a_quiet_one_none(
    tmp_path: Path, env: dict[str, str], slow_index: IndexServer
) -> None:
    (tmp_path / "requirements.txt").write_text("slowpkg>=0.5\n")
    env = {**env, **{k: v for k, v in os.environ.items() if k.startswith(("PIP_", "UV_"))}}
    argv = ["check", "requirements.txt", "--index-url", slow_index.url, "--resolver", "pip"]
    code, stdout, stderr = run_on_terminal(argv, tmp_path, env)
    assert code in (0, 3), stderr
    assert (
        "compat: check: judging requirements.txt with the package index and the pip resolver"
        in stderr
    )
    assert "(1s)" in stderr
    assert "compat 0." in stdout and "\x1b[K" not in stdout  # the report itself is untouched
    code, _, stderr = run_on_terminal([*argv, "--quiet"], tmp_path, env)
    assert "judging" not in stderr and "\x1b[K" not in stderr
