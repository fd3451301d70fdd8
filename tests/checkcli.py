"""`compat check` through typer's runner, for the test modules that judge declared files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

TOOLS = pytest.mark.parametrize("tool", ["pip", "uv"])


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(*args: str) -> tuple[int, Any]:
    """The exit code (0 or 1: a verdict, never an error) and the compat.report/1 document."""
    result = run_cli(["check", *args, "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, result.json()


def by_rule(report: Any) -> dict[str, Any]:
    return {f["rule"]: f for f in report["findings"]}
