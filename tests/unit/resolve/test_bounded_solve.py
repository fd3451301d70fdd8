"""The offline solve is bounded (issue 42 item 13): verl@4879d61's setup.py, whose `sglang` extra
made resolvelib backtrack through the snapshot for over ten minutes, is judged within the bound:
what could be judged, a note naming the bound and the install not solved, `summary.
resolve_failed`, exit 3 (no finding fails the gate). Speed itself: benchmarks/bench_bounded.py."""

from __future__ import annotations

import shutil
from pathlib import Path

from compat.resolve.check.offline import MAX_REJECTED
from tests.conftest import run_cli
from tests.lib import paths

VERL = paths.REAL / "bounded" / "verl-4879d61-setup.py"


def test_verl_setup_py_is_judged_within_the_bound(tmp_path: Path) -> None:
    setup = tmp_path / "setup.py"
    shutil.copy(VERL, setup)
    result = run_cli(["check", "--offline", str(setup), "--format", "json"])
    assert result.exit_code == 3, result.stderr
    report = result.json()
    stopped = [n for n in report["notes"] if "stopped at its bound" in n]
    # a count of work, not the clock: the same verdict on any machine
    assert len(stopped) == 1 and f"{MAX_REJECTED} releases tried and rejected" in stopped[0]
    # which install was not solved: verl's sglang extra, by its lines
    assert stopped[0].startswith("[extra sglang]") and "sglang[srt,openai]==0.4.8" in stopped[0]
    assert "releases tried and rejected" in report["summary"]["resolve_failed"]
    # every other install was solved and judged
    assert len(report["environment"]["installs"]) >= 8
    assert report["summary"]["affected"] == 0
