"""Where the suite's time goes: the time of each phase of scripts/test and the slowest tests.

    scripts/test                          # writes build/test-times/{phases.tsv,durations.jsonl}
    python scripts/test_times.py          # then: the phases, the 30 slowest tests, the costliest files
    python scripts/test_times.py --top 50 build/test-times/durations.jsonl
    python scripts/test_times.py report.xml           # a JUnit file (pytest --junitxml) instead

A test's time is its setup, call and teardown together: a fixture built again for every test
shows up as setup time, the thing to look for when a suite slows down without new tests. The
files are summed too, and the slow-marked tests (pyproject's `slow` marker, whose total has a
budget: tests/lib/timing.py). Times are wall-clock: on a machine shared with other work they
are all inflated, so compare runs on the same machine, not against the bounds in CONTRIBUTING.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TIMES = REPO / "build" / "test-times"


@dataclass
class Test:
    nodeid: str
    setup: float = 0.0
    call: float = 0.0
    teardown: float = 0.0
    outcome: str = "passed"
    slow: bool = False

    @property
    def total(self) -> float:
        return self.setup + self.call + self.teardown

    @property
    def file(self) -> str:
        return self.nodeid.split("::", 1)[0]


@dataclass
class Run:
    tests: dict[str, Test] = field(default_factory=dict)
    wall: float | None = None  # the pytest session's wall time, where the input records it
    finished: bool = False

    def test(self, nodeid: str) -> Test:
        return self.tests.setdefault(nodeid, Test(nodeid))


def read_jsonl(lines: Iterable[str]) -> Run:
    """tests/lib/timing.py's rows: one per phase of each test, then one for the session's end
    (absent when the run was cut short: what was measured is still shown)."""
    run = Run()
    last_at = 0.0
    for line in lines:
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:  # two workers' appends interleaved on one line: skip what is torn
            continue
        if not isinstance(row, dict) or ("nodeid" not in row and row.get("session") != "end"):
            continue
        if row.get("session") == "end":
            run.wall, run.finished = float(row["wall"]), True
            continue
        test = run.test(row["nodeid"])
        setattr(test, row["when"], getattr(test, row["when"]) + float(row["duration"]))
        test.slow = test.slow or bool(row.get("slow"))
        if row["outcome"] != "passed" and test.outcome == "passed":
            test.outcome = row["outcome"]
        last_at = max(last_at, float(row.get("at", 0.0)))
    if run.wall is None and last_at:
        run.wall = last_at
    return run


def read_junit(path: Path) -> Run:
    """pytest's --junitxml: one testcase per test, its time the whole of setup, call and
    teardown (pytest's default junit_duration_report)."""
    run = Run(finished=True)
    root = ET.parse(path).getroot()
    for suite in root.iter("testsuite"):
        if suite.get("time"):
            run.wall = max(run.wall or 0.0, float(suite.get("time", "0")))
    for case in root.iter("testcase"):
        module = case.get("classname", "").replace(".", "/")
        nodeid = f"{module}.py::{case.get('name')}"
        test = run.test(nodeid)
        test.call += float(case.get("time", "0"))
        if case.find("failure") is not None or case.find("error") is not None:
            test.outcome = "failed"
        elif case.find("skipped") is not None:
            test.outcome = "skipped"
    return run


def read_phases(path: Path) -> list[tuple[str, float, int]]:
    """scripts/test's phases.tsv: name, seconds, exit status, one line per phase."""
    phases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        name, seconds, status = line.split("\t")
        phases.append((name, float(seconds), int(status)))
    return phases


def render(run: Run, phases: list[tuple[str, float, int]], top: int) -> str:
    out: list[str] = []
    if phases:
        out.append("scripts/test, per phase:")
        width = max(len(name) for name, _, _ in phases)
        for name, seconds, status in phases:
            flag = "" if status == 0 else f"  (exit {status})"
            out.append(f"  {name:<{width}}  {seconds:8.1f} s{flag}")
        out.append(f"  {'total':<{width}}  {sum(s for _, s, _ in phases):8.1f} s")
        out.append("")
    tests = sorted(run.tests.values(), key=lambda t: t.total, reverse=True)
    summed = sum(t.total for t in tests)
    wall = f", {run.wall:.1f} s wall" if run.wall else ""
    state = "" if run.finished else " (the run did not finish: what it measured so far)"
    out.append(f"{len(tests)} tests, {summed:.1f} s summed over every worker{wall}{state}")
    out.append("")
    out.append(
        f"the {min(top, len(tests))} slowest tests (seconds: total = setup + call + teardown):"
    )
    out.append(f"  {'total':>7} {'setup':>7} {'call':>7} {'tear':>6}")
    for test in tests[:top]:
        marks = (" [slow]" if test.slow else "") + (
            f" [{test.outcome}]" if test.outcome != "passed" else ""
        )
        out.append(
            f"  {test.total:7.1f} {test.setup:7.1f} {test.call:7.1f} {test.teardown:6.1f}"
            f"  {test.nodeid}{marks}"
        )
    files: dict[str, list[Test]] = defaultdict(list)
    for test in tests:
        files[test.file].append(test)
    ranked = sorted(files.items(), key=lambda kv: sum(t.total for t in kv[1]), reverse=True)
    out.append("")
    out.append("the costliest files (seconds summed; setup is fixture time):")
    out.append(f"  {'total':>7} {'setup':>7} {'tests':>5}")
    for name, members in ranked[:15]:
        total = sum(t.total for t in members)
        setup = sum(t.setup for t in members)
        out.append(f"  {total:7.1f} {setup:7.1f} {len(members):5d}  {name}")
    slow = [t for t in tests if t.slow]
    if slow:
        spent = sum(t.total for t in slow)  # every phase, as tests/lib/timing.py counts them
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.lib.timing import DEFAULT_SLOW_BUDGET

        out.append("")
        out.append(
            f"slow-marked: {len(slow)} tests, {spent:.1f} s with their fixtures "
            f"(budget {DEFAULT_SLOW_BUDGET:g} s)"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "durations",
        nargs="?",
        type=Path,
        default=TIMES / "durations.jsonl",
        help="tests/lib/timing.py's JSON lines (COMPAT_TEST_DURATIONS), or a JUnit XML file",
    )
    parser.add_argument("--phases", type=Path, default=TIMES / "phases.tsv")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    if not args.durations.is_file():
        print(f"{args.durations}: no such file (run scripts/test first)", file=sys.stderr)
        return 2
    if args.durations.suffix == ".xml":
        run = read_junit(args.durations)
    else:
        with args.durations.open(encoding="utf-8") as lines:
            run = read_jsonl(lines)
    phases = read_phases(args.phases) if args.phases.is_file() else []
    print(render(run, phases, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
