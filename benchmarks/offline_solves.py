"""Every offline solve `compat check --offline` makes on the real dependency files of the check
tests (tests/data/real/check), recorded and replayed: the corpus that proves a faster solve gives
the same answer (issue 45), and the profile of where its time goes.

    python benchmarks/offline_solves.py record   # the inputs and answers -> tests/data/solves/
    python benchmarks/offline_solves.py replay [--profile N] [--only NAME]   # CPU time per file
    python benchmarks/offline_solves.py steps   # the steps each file's solves take together

`record` runs each file's check in-process with the solve's clock switched off (SOLVE_SECONDS, a
last-resort guard: on a loaded machine it stops a command the counts of work would let finish;
before issue 45 the clock decided answers), captures what each install asks `offline.solve` and what it answered, and writes them
as JSON (inputs.json.gz, answers.json.gz). A torch index's `served` predicate is recorded as the
snapshot's torch releases it accepts. `replay` solves the recorded inputs again and reports the
CPU seconds per file (process time: the machine is shared, wall time is not a measure here);
tests/unit/resolve/test_offline_same_answer.py compares the answers.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT
from tests.lib.solves import OUT, encode_answer, encode_inputs, read, solve_recorded, write

CHECKED = ROOT / "tests" / "data" / "real" / "check"


def real_files() -> list[Path]:
    return sorted(p for p in CHECKED.iterdir() if not p.name.startswith("PROVENANCE"))


def record() -> None:
    from typer.testing import CliRunner

    from compat.cli import app
    from compat.resolve.check import offline

    offline.SOLVE_SECONDS = float("inf")  # the clock off: see the module's docstring
    original = offline.solve
    inputs: dict[str, list[Any]] = {}
    answers: dict[str, list[Any]] = {}
    current: list[str] = []

    def recording(*args: Any, **kwargs: Any) -> Any:
        inputs[current[0]].append(encode_inputs(args, kwargs))
        try:
            answer = original(*args, **kwargs)
        except offline.NoOfflineInstall as error:
            answers[current[0]].append(encode_answer(error))
            raise
        answers[current[0]].append(encode_answer(answer))
        return answer

    offline.solve = recording  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as work:
        for path in real_files():
            checked = path
            if path.name.endswith("setup.py"):  # found by its name
                (Path(work) / path.stem).mkdir()
                checked = Path(work) / path.stem / "setup.py"
                shutil.copy(path, checked)
            current[:] = [path.name]
            inputs[path.name], answers[path.name] = [], []
            start = time.process_time()
            result = CliRunner().invoke(app, ["check", "--offline", str(checked), "-q"])
            assert result.exit_code in (0, 1, 3), (path.name, result.output)
            spent = time.process_time() - start
            print(f"{spent:7.1f} s CPU  {len(inputs[path.name]):4d} solves  {path.name}")
    write(OUT / "inputs.json.gz", inputs)
    write(OUT / "answers.json.gz", answers)


def replay(profile: int, only: str | None) -> None:
    inputs, answers = read("inputs.json.gz"), read("answers.json.gz")
    profiler = cProfile.Profile() if profile else None
    total, differ = 0.0, 0
    for name, items in inputs.items():
        if only and only not in name:
            continue
        start = time.process_time()
        if profiler:
            profiler.enable()
        got = [solve_recorded(item) for item in items]
        if profiler:
            profiler.disable()
        spent = time.process_time() - start
        total += spent
        wrong = sum(a != b for a, b in zip(got, answers[name], strict=True))
        differ += wrong
        print(f"{spent:7.1f} s CPU  {len(items):4d} solves  {wrong} differ  {name}")
    print(f"{total:7.1f} s CPU in all; {differ} answers differ from the recorded ones")
    if profiler:
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(profile)
        print(text.getvalue())
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(profile)
        print(text.getvalue())


def steps() -> None:
    """The steps (rounds and rejected releases, offline.SolveBudget) each file's recorded solves
    take together: what the check's budget (SOLVE_STEPS) is calibrated against."""
    from compat.resolve.check import offline
    from tests.lib.solves import decode_inputs

    most = 0
    for name, items in read("inputs.json.gz").items():
        budget = offline.SolveBudget(steps=10**9, seconds=float("inf"))
        for item in items:
            with contextlib.suppress(offline.NoOfflineInstall):
                offline.solve(*decode_inputs(item), budget=budget)
        most = max(most, budget.steps_spent)
        print(f"{budget.steps_spent:8d} steps  {len(items):4d} solves  {name}")
    print(f"{most:8d} steps at most; the budget (SOLVE_STEPS) is {offline.SOLVE_STEPS}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("record", "replay", "steps"))
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions")
    parser.add_argument("--only", help="replay only the files whose name holds this")
    args = parser.parse_args()
    if args.action == "record":
        record()
    elif args.action == "steps":
        steps()
    else:
        replay(args.profile, args.only)


if __name__ == "__main__":
    main()
