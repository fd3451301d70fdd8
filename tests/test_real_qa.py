"""Real files of public training repositories met in the QA pass (tests/data/real/qa/PROVENANCE.md),
checked whole through the CLI as a user would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import run_cli

QA = Path(__file__).parent / "data" / "real" / "qa"
TARGET = ["--offline", "--python-version", "3.11", "--platform", "linux", "-f", "json"]


def check(name: str, *args: str) -> dict[str, Any]:
    result = run_cli(["check", *TARGET, str(QA / name), *args])
    assert result.exit_code in (0, 1), result.stderr
    report: dict[str, Any] = result.json()
    return report


def test_a_git_commit_no_rule_ties_to_a_release_is_not_called_unpinned() -> None:
    # LLaVA-NeXT's train extra installs transformers@git+...@1c39974a: pinned to a commit whose
    # release the knowledge base does not know. Its rules stay possible, but the report says why
    # (a commit, not a missing pin) and asks for the release, not for "a pin" the file has.
    report = check("LLaVA-NeXT-pyproject.toml")
    (note,) = [n for n in report["notes"] if "at git commit 1c39974a4c" in n]
    assert "ties no release to that commit" in note
    transformers = [
        f for f in report["findings"] if any(p["name"] == "transformers" for p in f["packages"])
    ]
    assert transformers and all(f["status"] == "possible" for f in transformers)
    for finding in transformers:
        assert not any("(unpinned)" in m for m in finding["matched"])
        assert any(
            "at git commit 1c39974a4c (its release unknown)" in m for m in finding["matched"]
        )
        settle = [
            u["settle_with"] for u in finding["unknown"] if u["fact"] == "packages.transformers"
        ]
        assert settle and "release that commit belongs to" in settle[0]
