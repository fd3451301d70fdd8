"""Coverage per layer: the statements of each room of the house (the floors and units of
tests/product/test_layers.py) and how many of them a test run executed.

    scripts/test --coverage                       # the suite under coverage, then this table
    scripts/test --coverage tests/unit/kb         # one folder's coverage of every room
    python scripts/coverage_layers.py [.coverage] # the table of an existing data file

Every module of compat/ is counted, imported or not (a module no test loads is 0%), so a
room's percentage is not flattered by the files nothing touched. Statements are coverage.py's
own (its parser, its exclusions from pyproject's [tool.coverage]); branch data, where the run
recorded it, is left to coverage's own report.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


@dataclass(frozen=True)
class Row:
    floor: int
    unit: str
    modules: int
    statements: int
    covered: int

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.statements if self.statements else 100.0


def by_layer(measured: Iterable[tuple[str, int, int]]) -> list[Row]:
    """(module, statements, covered) per module -> one row per unit, bottom floor first. The
    bottom floor is one unit (the model, errors, vocabulary and engine every layer shares)."""
    from tests.product.test_layers import unit_of

    totals: dict[tuple[int, str], list[int]] = {}
    for module, statements, covered in measured:
        place = unit_of(module)
        if place is None:
            raise SystemExit(f"coverage_layers: {module} is on no floor of test_layers.py")
        floor, unit = place
        row = totals.setdefault((floor, "bottom" if floor == 0 else unit), [0, 0, 0])
        row[0] += 1
        row[1] += statements
        row[2] += covered
    return [Row(floor, unit, *counts) for (floor, unit), counts in sorted(totals.items())]


def measure(data_file: Path) -> list[tuple[str, int, int]]:
    """(module, statements, covered) for every module of compat/, from a coverage data file."""
    import coverage

    from tests.product.test_layers import MODULES

    cov = coverage.Coverage(data_file=str(data_file), config_file=str(REPO / "pyproject.toml"))
    cov.load()
    rows = []
    for module, path in sorted(MODULES.items()):
        _, statements, _, missing, _ = cov.analysis2(str(path))
        rows.append((module, len(statements), len(statements) - len(missing)))
    return rows


def render(rows: list[Row]) -> str:
    header = (
        f"{'floor':>5}  {'layer':<18} {'modules':>7} {'statements':>10} {'covered':>8}"
        f" {'percent':>7}"
    )
    lines = [header, "-" * len(header)]
    total = Row(
        -1,
        "total",
        sum(r.modules for r in rows),
        sum(r.statements for r in rows),
        sum(r.covered for r in rows),
    )
    for row in [*rows, total]:
        if row is total:
            lines.append("-" * len(header))
        floor = str(row.floor) if row.floor >= 0 else ""
        lines.append(
            f"{floor:>5}  {row.unit.removeprefix('compat.'):<18} {row.modules:>7}"
            f" {row.statements:>10} {row.covered:>8} {row.percent:>6.1f}%"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_file", nargs="?", default=".coverage", type=Path)
    args = parser.parse_args(argv)
    if not args.data_file.is_file():
        print(f"coverage_layers: no coverage data at {args.data_file}", file=sys.stderr)
        return 2
    print(render(by_layer(measure(args.data_file))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
