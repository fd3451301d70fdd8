"""`xdist_group` holds under `--dist loadgroup` as scripts/test runs the suite (tests/lib/xdistgroups.py):
the tests of a group run on one worker, so a costly module fixture (a Ray cluster, a venv with
compat's wheel) is made once, not once per worker. A real pytest with two xdist workers runs a
small suite of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.lib import paths

SUITE = """\
import os
from pathlib import Path

import pytest


def record(name):
    with open(os.environ["WHERE"], "a", encoding="utf-8") as out:
        out.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']}\\n")


@pytest.mark.xdist_group("cluster")
@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    record(f"grouped{i}")


@pytest.mark.parametrize("i", range(6))
def test_free(i):
    record(f"free{i}")
"""


def test_the_tests_of_a_group_run_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_suite.py").write_text(SUITE, encoding="utf-8")
    where = tmp_path / "where.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPAT_TEST_", "PYTEST_"))}
    env.update(PYTHONPATH=str(paths.REPO), WHERE=str(where))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup",
         "-p", "tests.lib.xdistgroups", "-p", "no:cacheprovider", "-q", "test_suite.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    ran = dict(line.split() for line in where.read_text(encoding="utf-8").splitlines())
    assert len(ran) == 12, ran
    assert len({ran[f"grouped{i}"] for i in range(6)}) == 1, ran
