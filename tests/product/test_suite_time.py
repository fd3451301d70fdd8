"""The suite's own time budget (issue 45, tests/lib/timing.py) and its report
(scripts/test_times.py), run on a small suite of their own by a real pytest process: a test over
the limit fails unless marked slow with a reason, the slow tests have a total budget, and every
phase of every test is written where scripts/test_times.py reads it."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.lib import paths

SUITE = """\
import time
import pytest


def test_quick():
    pass


def test_sleeps():
    time.sleep(0.6)


@pytest.mark.slow(reason="sleeps on purpose")
def test_sleeps_and_says_why():
    time.sleep(0.6)
"""
INI = "[pytest]\nmarkers =\n    slow(reason): slow for a stated reason\n"


def pytest_run(tmp_path: Path, suite: str, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_suite.py").write_text(suite, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(INI, encoding="utf-8")
    given = {k: v for k, v in os.environ.items() if not k.startswith("COMPAT_TEST_")}
    given["PYTHONPATH"] = str(paths.REPO)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.lib.timing", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-q", str(tmp_path / "test_suite.py")],
        cwd=tmp_path, env={**given, **env}, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_a_test_over_the_limit_fails_unless_marked_slow(tmp_path: Path) -> None:
    run = pytest_run(tmp_path, SUITE, COMPAT_TEST_TIME_LIMIT="0.3")
    assert run.returncode == 1, run.stdout
    assert "FAILED test_suite.py::test_sleeps" in run.stdout
    assert "over the 0.3 s limit for one test" in run.stdout
    assert "test_sleeps_and_says_why" not in run.stdout.split("short test summary")[-1]
    assert "1 failed, 2 passed" in run.stdout
    # the same suite under the default limit passes
    assert pytest_run(tmp_path, SUITE).returncode == 0


def test_the_slow_tests_have_a_total_budget(tmp_path: Path) -> None:
    run = pytest_run(tmp_path, SUITE, COMPAT_TEST_SLOW_BUDGET="0.2")
    assert run.returncode == 1, run.stdout
    assert "the 1 slow-marked tests took" in run.stdout and "over the 0.2 s budget" in run.stdout
    within = pytest_run(tmp_path, SUITE, COMPAT_TEST_SLOW_BUDGET="60")
    assert within.returncode == 0, within.stdout
    assert "slow-marked tests: 1, 0.6 s (setup, call and teardown) (budget 60 s" in within.stdout


def test_the_budget_fails_a_run_spread_over_xdist_workers(tmp_path: Path) -> None:
    """As scripts/test (and so .ci/run) runs the suite: the slow tests run on xdist workers, the
    total is summed on the controller from their reports, and going over it fails the pytest
    process whose exit status scripts/test returns."""
    (tmp_path / "test_suite.py").write_text(SUITE, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(INI, encoding="utf-8")
    given = {k: v for k, v in os.environ.items() if not k.startswith("COMPAT_TEST_")}
    given["PYTHONPATH"] = str(paths.REPO)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.lib.timing", "-p", "no:cacheprovider",
         "-n", "2", "--dist", "loadgroup", "-q", str(tmp_path / "test_suite.py")],
        cwd=tmp_path, env={**given, "COMPAT_TEST_SLOW_BUDGET": "0.2"}, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 1, run.stdout + run.stderr
    assert "3 passed" in run.stdout  # every test passed: the budget alone failed the run
    assert "the 1 slow-marked tests took" in run.stdout and "over the 0.2 s budget" in run.stdout


FIXTURED = """\
import time
import pytest


@pytest.fixture
def costly():
    time.sleep(0.4)
    yield
    time.sleep(0.4)


def test_in_a_fixture(costly):
    pass


@pytest.mark.slow(reason="sleeps in its fixture on purpose")
def test_slow_in_a_fixture(costly):
    pass


@pytest.mark.slow(reason="fails, and still took its time")
def test_slow_and_failing():
    time.sleep(0.3)
    assert False
"""


def test_time_spent_in_fixtures_is_the_tests_own(tmp_path: Path) -> None:
    """Work moved out of a test's body into a fixture (setup, teardown) is not a way around the
    limit or the budget; a slow test that fails counts too."""
    run = pytest_run(tmp_path, FIXTURED, COMPAT_TEST_TIME_LIMIT="0.6")
    # over the limit at its teardown: pytest says ERROR, the run fails either way
    assert "ERROR test_suite.py::test_in_a_fixture" in run.stdout, run.stdout
    assert "over the 0.6 s limit for one test" in run.stdout
    assert "test_slow_in_a_fixture" not in run.stdout.split("short test summary")[-1]
    total = float(run.stdout.split("slow-marked tests: 2, ")[1].split(" s ")[0])
    assert total >= 0.4 + 0.4 + 0.3  # both slow tests, every phase
    over = pytest_run(tmp_path, FIXTURED, COMPAT_TEST_SLOW_BUDGET="1.0")
    assert "over the 1 s budget" not in over.stdout  # the run failed already (a failing test)
    assert "slow-marked tests: 2, " in over.stdout


def test_every_slow_marker_in_the_suite_states_a_reason() -> None:
    """The lint of the markers themselves, over every test file (collected by a run or not):
    `pytest.mark.slow` is always called, with a reason that is not empty."""
    bare = []
    for path in sorted(paths.TESTS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr == "slow"):
                continue
            if not (isinstance(node.value, ast.Attribute) and node.value.attr == "mark"):
                continue
            where = f"{path.relative_to(paths.REPO)}:{node.lineno}"
            if id(node) not in called:
                bare.append(where)
                continue
            call = next(c for c in ast.walk(tree) if isinstance(c, ast.Call) and c.func is node)
            reasons = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "reason")]
            if len(reasons) != 1 or (
                isinstance(reasons[0], ast.Constant) and not str(reasons[0].value).strip()
            ):
                bare.append(where)
    assert bare == []
    assert "tests/product/test_check_real.py" in {
        str(p.relative_to(paths.REPO))
        for p in paths.TESTS.rglob("*.py")
        if "mark.slow(" in p.read_text()
    }  # the lint sees the suite's markers


def test_a_slow_marker_needs_a_reason(tmp_path: Path) -> None:
    suite = "import pytest\n\n@pytest.mark.slow\ndef test_bare():\n    pass\n"
    run = pytest_run(tmp_path, suite)
    assert run.returncode == 4, run.stdout + run.stderr  # a usage error, before any test runs
    assert "`slow` needs a reason" in run.stderr and "test_bare" in run.stderr


def test_every_phase_is_recorded_and_the_report_ranks_them(tmp_path: Path) -> None:
    durations = tmp_path / "times" / "durations.jsonl"
    run = pytest_run(tmp_path, SUITE, COMPAT_TEST_DURATIONS=str(durations))
    assert run.returncode == 0, run.stdout
    rows = [json.loads(line) for line in durations.read_text().splitlines()]
    assert rows[-1]["session"] == "end" and rows[-1]["exitstatus"] == 0
    tests = rows[:-1]
    assert len(tests) == 9  # three tests, three phases each
    assert {r["when"] for r in tests} == {"setup", "call", "teardown"}
    assert [r["slow"] for r in tests if r["when"] == "call"] == [False, False, True]
    phases = tmp_path / "times" / "phases.tsv"
    phases.write_text("ruff check\t1.5\t0\npytest (2 workers)\t12.0\t1\n", encoding="utf-8")
    report = subprocess.run(
        [sys.executable, str(paths.REPO / "scripts" / "test_times.py"), str(durations),
         "--phases", str(phases), "--top", "2"],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    lines = report.splitlines()
    assert lines[1].split() == ["ruff", "check", "1.5", "s"]
    assert lines[2].startswith("  pytest (2 workers)") and lines[2].endswith("12.0 s  (exit 1)")
    ranked = [word for line in lines for word in line.split() if "test_suite.py::" in word]
    assert set(ranked[:2]) == {
        "test_suite.py::test_sleeps",
        "test_suite.py::test_sleeps_and_says_why",
    }
    assert "slow-marked: 1 tests" in report


def test_the_fast_tier_leaves_out_what_is_integration() -> None:
    """tests/lib/tiers.py, through pytest's own `-m`: CLI runs are integration, the config
    contract is not, and a test asking for real resolves (`resolver_env`) is, wherever it is."""

    def collected(*args: str) -> set[str]:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
             "-p", "no:xdist", *args],
            cwd=paths.REPO, capture_output=True, text=True, timeout=300,
            env={k: v for k, v in os.environ.items() if not k.startswith("COMPAT_TEST_")},
        )  # fmt: skip
        assert run.returncode in (0, 5), run.stdout + run.stderr  # 5: nothing selected
        return {line.split("::")[0] for line in run.stdout.splitlines() if "::" in line}

    files = [
        "tests/cli/test_config.py",
        "tests/cli/test_check.py",
        "tests/unit/resolve/test_resolver.py",
    ]
    fast = collected("-m", "not integration and not slow", *files)
    assert fast == {"tests/cli/test_config.py"}  # test_resolver.py: every test uses resolver_env
    everything = collected(*files)
    assert everything == set(files)  # nothing is lost: the full run collects every file


NESTING = """\
import os
import subprocess
import sys


def test_before():
    pass


def test_starts_a_pytest_of_its_own(tmp_path):
    (tmp_path / "test_inner.py").write_text("def test_inner():\\n    pass\\n")
    subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.lib.timing", "-p", "no:cacheprovider",
         "-p", "no:xdist", "-q", str(tmp_path / "test_inner.py")],
        cwd=tmp_path, env=dict(os.environ), check=True, capture_output=True,
    )


def test_after():
    pass
"""


def test_a_pytest_a_test_starts_does_not_cut_the_runs_durations(tmp_path: Path) -> None:
    """A nested pytest inherits COMPAT_TEST_DURATIONS; it must not open the outer run's file
    again (opening it with "w" cut the rows written so far and left NUL holes)."""
    durations = tmp_path / "times" / "durations.jsonl"
    run = pytest_run(tmp_path, NESTING, COMPAT_TEST_DURATIONS=str(durations))
    assert run.returncode == 0, run.stdout + run.stderr
    raw = durations.read_bytes()
    assert b"\0" not in raw
    ids = {json.loads(line).get("nodeid") for line in raw.decode().splitlines()}
    assert {"test_suite.py::test_before", "test_suite.py::test_after"} <= ids
    assert not any(i and "test_inner" in i for i in ids)
