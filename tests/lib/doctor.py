"""`compat doctor --format json`, through typer's runner or as a real process, in the shapes the
suite asks it: the argv on an environment, the exit code and document, rule -> status."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.conftest import Result, run_cli, run_subprocess
from tests.lib.nvml import fake_nvml_env


def doctor_argv(site: Path, *args: str) -> list[str]:
    """doctor's arguments on `site` (`--path`), without the probe unless `args` name a
    `--hardware` profile (the two contradict each other)."""
    probe = [] if "--hardware" in args else ["--no-probe"]
    return ["doctor", "--path", str(site), *probe, *args]


def doctor_json(*args: str) -> tuple[int, dict[str, Any]]:
    """The exit code (0 or 1: a verdict, never an error) and the compat.report/1 document of
    `compat doctor --format json ARGS` (the caller names the environment and the machine)."""
    result = run_cli(["doctor", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    report: dict[str, Any] = result.json()
    return result.exit_code, report


def doctor_report(
    site: Path,
    *args: str,
    hardware: Path | None = None,
    settings: Sequence[str] = (),
    launch: Sequence[str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """doctor_json on `site` (`--path`), on `hardware` (a profile file) or with no probe."""
    machine = ["--hardware", str(hardware)] if hardware is not None else ["--no-probe"]
    usage = [arg for pair in settings for arg in ("--set", pair)]
    tail = ["--", *launch] if launch is not None else []
    return doctor_json("--path", str(site), *machine, *usage, *args, *tail)


def doctor_on_machine(site: Path, machine: str, *args: str) -> Result:
    """doctor on `site` as a real process whose probe reads the stand-in NVML replaying
    `machine` (tests/fake_nvml/machines): the probe itself is part of what is tested."""
    result = run_subprocess(
        ["doctor", "--path", str(site), "--format", "json", *args], env=fake_nvml_env(machine)
    )
    assert result.exit_code in (0, 1), result.stderr
    return result


def doctor_findings(site: Path, *args: str, **options: Any) -> dict[str, str]:
    """rule id -> status for every finding doctor reports (options as for doctor_report)."""
    _, report = doctor_report(site, *args, **options)
    return statuses(report)


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {f["rule"]: f["status"] for f in report["findings"]}


def finding(report: dict[str, Any], rule: str) -> dict[str, Any] | None:
    return next((f for f in report["findings"] if f["rule"] == rule), None)
