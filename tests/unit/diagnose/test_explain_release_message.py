"""A message only some releases print settles which release ran (issue 40): numba hard-codes its
NumPy cap per release (numba/__init__.py _ensure_critical_deps, read in the wheels by
scripts/gen_rules.py), so "Numba needs NumPy 2.0 or less" is numba 0.60's and the numba version
is not asked; a cap two series share ("1.26 or less": 0.58.1 and 0.59) settles neither. The
releases come from the generated rule data, not from this test. Judged through the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.11/site-packages/librosa/core/audio.py", line 10, in <module>\n'
    "    import numba\n"
)


def explain(tmp_path: Path, text: str) -> dict[str, Any]:
    log = tmp_path / "run.log"
    log.write_text(text)
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def asked(match: dict[str, Any]) -> list[str]:
    return [str(u).split(" — ")[0] for u in match["unknown"]]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        # numba 0.60.0's wording, with the NumPy it found
        ("ImportError: Numba needs NumPy 2.0 or less. Got NumPy 2.1.", "numba-0.60-numpy-2.1"),
        # numba 0.58.0's, which names no NumPy: the listed one decides
        ("ImportError: Numba needs NumPy 1.25 or less\nnumpy==1.26.4", "numba-0.58.0-numpy-1.26"),
    ],
)
def test_a_cap_one_series_prints_settles_the_release(
    tmp_path: Path, message: str, rule: str
) -> None:
    document = explain(tmp_path, TRACEBACK + message + "\n")
    top = document["matches"][0]
    assert (top["rule"], top["verdict"], top["line"]) == (rule, "confirmed", 4)
    assert "packages.numba" not in asked(top)
    assert any("only these releases print the message" in h for h in top["held"])


def test_a_cap_two_series_share_settles_neither(tmp_path: Path) -> None:
    document = explain(tmp_path, TRACEBACK + "ImportError: Numba needs NumPy 1.26 or less\n")
    rules = {m["rule"]: m for m in document["matches"]}
    for rule in ("numba-0.58.1-numpy-1.27", "numba-0.59-numpy-1.27"):
        assert rules[rule]["verdict"] == "symptom-only"
        assert "packages.numba" in asked(rules[rule])
