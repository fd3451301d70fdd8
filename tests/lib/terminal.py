"""`python -m compat ARGV` as a person runs it in a terminal: stdout and stderr on one pty of a
given width (what the screen receives, escapes kept), or stdout on a pipe."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

ESC = "\x1b"


def on_terminal(
    argv: Sequence[str],
    env: Mapping[str, str] | None = None,
    *,
    columns: int = 80,
    cwd: Path | None = None,
) -> tuple[int, str]:
    """(exit code, everything the terminal received, `\\r\\n` read as `\\n`)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    full = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns), **(env or {})}
    for name in ("NO_COLOR", "CI", "GITHUB_ACTIONS"):  # the person's terminal, not the suite's
        if name not in (env or {}):
            full.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "compat", *argv],
        cwd=cwd,
        env=full,
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=slave,
    )
    os.close(slave)
    seen = drain(master, proc)
    code = proc.wait(timeout=30)
    return code, seen.decode("utf-8", "replace").replace("\r\n", "\n")


def drain(master: int, proc: subprocess.Popen[bytes], *, until_exit: bool = True) -> bytes:
    """What a pty's writers sent, read until they have all gone (EIO), for at most 120 s, and
    closed; with `until_exit`, also stop once the process has exited and nothing is waiting
    (a child that keeps the terminal open would otherwise hold the read to the bound)."""
    seen = bytearray()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer of the terminal has gone
                break
            if not chunk:
                break
            seen += chunk
        elif until_exit and proc.poll() is not None:
            break
    os.close(master)
    return bytes(seen)


def piped(argv: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) with stdout on a pipe, as `compat ... | less` has it."""
    done = subprocess.run(
        [sys.executable, "-m", "compat", *argv],
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr
