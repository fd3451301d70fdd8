"""`compat doctor --format json` on an environment, through typer's runner."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.conftest import run_cli


def doctor_report(
    site: Path,
    *args: str,
    hardware: Path | None = None,
    settings: Sequence[str] = (),
    launch: Sequence[str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """The exit code (0 or 1: a verdict, never an error) and the compat.report/1 document of
    doctor on `site` (`--path`), on `hardware` (a profile file) or with no probe."""
    machine = ["--hardware", str(hardware)] if hardware is not None else ["--no-probe"]
    usage = [arg for pair in settings for arg in ("--set", pair)]
    tail = ["--", *launch] if launch is not None else []
    result = run_cli(
        ["doctor", "--path", str(site), *machine, "--format", "json", *usage, *args, *tail]
    )
    assert result.exit_code in (0, 1), result.stderr
    report: dict[str, Any] = result.json()
    return result.exit_code, report


def doctor_findings(site: Path, *args: str, **options: Any) -> dict[str, str]:
    """rule id -> status for every finding doctor reports (options as for doctor_report)."""
    _, report = doctor_report(site, *args, **options)
    return statuses(report)


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {f["rule"]: f["status"] for f in report["findings"]}


def finding(report: dict[str, Any], rule: str) -> dict[str, Any] | None:
    return next((f for f in report["findings"] if f["rule"] == rule), None)
