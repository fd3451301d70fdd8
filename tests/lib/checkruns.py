"""One `compat check --offline` run per file and flags for the whole pytest run, its SARIF (stdout)
and its JSON report (`--report json=FILE`, the same run) both kept, for tests that assert on
either: a check of a real file costs seconds to a minute of offline solving, the same for each
format (issue 45 item 2). Computed by whichever test (on whichever xdist worker) asks first; the
others wait for it (tests/lib/sessioncache.py), so no test depends on another having run."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.lib.schemas import problems
from tests.lib.sessioncache import built_once, run_root


@dataclass(frozen=True)
class CheckRun:
    exit_code: int
    stderr: str
    sarif: Any  # stdout, `--format sarif`
    report: Any  # `--report json=FILE`: the compat.report/1 document; None where none was written


def shared_file(request: pytest.FixtureRequest, name: str, text: str) -> Path:
    """A file every worker of this run sees at one path (named by its content), so that a run
    it is an argument of is the same run for each of them."""
    directory = built_once(
        "file", [name, text], lambda d: (d / name).write_text(text, "utf-8"), run_root(request)
    )
    return directory / name


def check_once(request: pytest.FixtureRequest, path: Path, *args: str) -> CheckRun:
    """`compat check --offline PATH ARGS --format sarif --report json=...`, run once per run of
    the suite for this file's bytes and these arguments (files among them: by path and bytes)."""
    files = [Path(a) for a in (str(path), *args) if Path(a).is_file()]

    def build(directory: Path) -> None:
        report = directory / "report.json"
        run = ["check", "--offline", str(path), *args, "--format", "sarif"]
        result = run_cli([*run, "--report", f"json={report}"])
        (directory / "exit_code").write_text(str(result.exit_code))
        (directory / "stderr").write_text(result.stderr, "utf-8")
        (directory / "stdout").write_text(result.stdout, "utf-8")

    directory = built_once("check", [str(path), *args, *files], build, run_root(request))
    exit_code = int((directory / "exit_code").read_text())
    stderr = (directory / "stderr").read_text("utf-8")
    stdout = (directory / "stdout").read_text("utf-8")
    report_file = directory / "report.json"
    report = json.loads(report_file.read_text("utf-8")) if report_file.is_file() else None
    # run_cli validates stdout's JSON only: the JSON report here, against schema/ all the same
    assert not problems(report), problems(report)
    return CheckRun(exit_code, stderr, json.loads(stdout) if stdout.strip() else None, report)
