"""The offline solve's answer is a function of its inputs, never of the clock (issue 45): a count
of steps (rounds and rejected releases, over every solve of one check: COMPAT_SOLVE_STEPS)
decides where a solve stops, so a process slowed to a crawl (stopped and continued by signals,
its wall clock running on while it does nothing) gives the same bytes as one left alone; the
wall clock is a last-resort guard only (COMPAT_SOLVE_SECONDS), and past it the check gives no
verdict at all (exit 3, one line saying so), never another verdict."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from compat.resolve.check.offline import SOLVE_STEPS, STEPS_MEASURED
from tests.lib import paths

# OpenRLHF's setup.py: its base and three extras, four solves over the snapshot (464 steps)
OPENRLHF = paths.REAL / "check" / "OpenRLHF-setup.py"
STEPS = "150"  # spent within the first installs: the rest are stopped by the count


def check(tmp_path: Path, env: dict[str, str], slowed: bool) -> tuple[int, bytes, bytes]:
    """`compat check --offline` of OpenRLHF's setup.py as a real process; `slowed`: stopped
    (SIGSTOP) for most of each 50 ms until it exits, so its clock runs ~5x its work."""
    project = tmp_path / ("slowed" if slowed else "free")
    project.mkdir()
    setup = project / "setup.py"
    shutil.copy(OPENRLHF, setup)
    out, err = project / "stdout", project / "stderr"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "compat", "check", "--offline", "setup.py", "--format", "json"],
            cwd=project, env={**os.environ, **env}, stdout=stdout, stderr=stderr,
        )  # fmt: skip
        started = time.monotonic()
        while slowed and proc.poll() is None and time.monotonic() - started < 300:
            os.kill(proc.pid, signal.SIGSTOP)
            time.sleep(0.04)
            os.kill(proc.pid, signal.SIGCONT)
            time.sleep(0.01)
        code = proc.wait(timeout=300)
    return code, out.read_bytes(), err.read_bytes()


def test_the_budget_holds_the_largest_real_file_with_room() -> None:
    # unsloth's 173 solves (the most of any real file) take STEPS_MEASURED steps together
    assert SOLVE_STEPS >= 4 * STEPS_MEASURED > 0


def test_a_step_budget_gives_the_same_answer_on_a_slowed_clock(tmp_path: Path) -> None:
    env = {"COMPAT_SOLVE_STEPS": STEPS}
    free = check(tmp_path, env, slowed=False)
    slowed = check(tmp_path, env, slowed=True)
    assert free[0] == 3, free[2]  # not a clean verdict: installs were not solved
    assert b"150 steps (rounds and rejected releases)" in free[1]  # the count stopped them
    assert slowed == free


def test_past_the_clock_guard_there_is_no_verdict(tmp_path: Path) -> None:
    code, stdout, stderr = check(tmp_path, {"COMPAT_SOLVE_SECONDS": "0.000001"}, slowed=False)
    assert code == 3 and stdout == b""
    line = stderr.decode().strip()
    assert "\n" not in line and "not judged" in line and "exceeded 1e-06 s" in line


def test_a_budget_that_is_not_a_number_is_refused_in_one_line(tmp_path: Path) -> None:
    code, stdout, stderr = check(tmp_path, {"COMPAT_SOLVE_STEPS": "many"}, slowed=False)
    assert code == 2 and stdout == b""
    assert (
        stderr.decode().strip()
        == "compat: error: $COMPAT_SOLVE_STEPS='many' is not a positive number"
    )
