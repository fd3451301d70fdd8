"""Coverage per layer (scripts/coverage_layers.py, `scripts/test --coverage`): the table sums each
room's statements under the floors and units of test_layers.py, every module counted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.lib import paths
from tests.product.test_layers import MODULES

sys.path.insert(0, str(paths.REPO / "scripts"))
import coverage_layers
from coverage_layers import Row, by_layer, render


def test_modules_are_summed_per_room_and_the_bottom_floor_is_one() -> None:
    rows = by_layer(
        [
            ("compat.model", 10, 5),
            ("compat.errors", 4, 4),
            ("compat.kb.lint", 20, 0),
            ("compat.kb.knowledge", 30, 15),
            ("compat.cli.base", 8, 8),
        ]
    )
    assert rows == [
        Row(0, "bottom", 2, 14, 9),
        Row(4, "compat.kb", 2, 50, 15),
        Row(9, "compat.cli", 1, 8, 8),
    ]
    table = render(rows).splitlines()
    assert table[2].split() == ["0", "bottom", "2", "14", "9", "64.3%"]
    assert table[3].split() == ["4", "kb", "2", "50", "15", "30.0%"]
    assert table[-1].split() == ["total", "5", "72", "32", "44.4%"]


def test_a_module_on_no_floor_is_refused() -> None:
    with pytest.raises(SystemExit, match="compat_elsewhere"):
        by_layer([("compat_elsewhere", 1, 1)])


def test_the_table_of_a_real_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`compat --version` under coverage: the wiring it runs is covered, the rooms it never
    imports are counted at 0%, and every module of compat/ is in the total."""
    data = tmp_path / "cov"
    run = subprocess.run(
        [sys.executable, "-m", "coverage", "run", f"--rcfile={paths.REPO / 'pyproject.toml'}",
         f"--data-file={data}", "-m", "compat", "--version"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert coverage_layers.main([str(data)]) == 0
    table = capsys.readouterr().out
    lines = [line.split() for line in table.splitlines()[2:] if not line.startswith("-")]
    rows = {line[-5]: [int(n) for n in line[-4:-1]] + [line[-1]] for line in lines}
    assert set(rows) >= {"bottom", "cli", "fleet", "resolve", "__main__", "total"}
    assert rows["cli"][2] > 0
    assert rows["fleet"][2] == 0 and rows["fleet"][3] == "0.0%"
    assert rows["__main__"][3] == "100.0%"
    total = rows.pop("total")
    assert total[0] == len(MODULES)
    assert total[1:3] == [
        sum(row[1] for row in rows.values()),
        sum(row[2] for row in rows.values()),
    ]


def test_no_data_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    assert coverage_layers.main([str(tmp_path / "absent")]) == 2
