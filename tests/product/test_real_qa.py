"""Real files of public training repositories met in the QA pass (tests/data/real/qa/PROVENANCE.md),
checked whole through the CLI as a user would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib import paths

QA = paths.REAL / "qa"
TARGET = ["--offline", "--python-version", "3.11", "--platform", "linux", "-f", "json"]


def check(name: str, *args: str) -> dict[str, Any]:
    result = run_cli(["check", *TARGET, str(QA / name), *args])
    assert result.exit_code in (0, 1, 3), result.stderr
    report: dict[str, Any] = result.json()
    if result.exit_code == 3:  # only where an offline solve reached its bound (issue 42 item 13)
        assert "offline solve stopped at its bound" in report["summary"]["resolve_failed"]
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


def test_uv_sources_to_a_path_or_git_are_direct_references() -> None:
    # prime-rl's [tool.uv.sources] installs prime-rl-configs and verifiers from local paths and
    # torchtitan from a git commit: not from the index, so not asked of it.
    report = check("prime-rl-pyproject.toml")
    notes = report["notes"]
    for name, path in (
        ("prime-rl-configs", "packages/prime-rl-configs"),
        ("verifiers", "deps/verifiers"),
    ):
        assert any(f"{name} @ file:{path} is a direct reference: not checked" in n for n in notes)


@pytest.mark.usefixtures("resolver_env")
def test_a_package_uv_sources_sends_to_a_path_is_not_asked_of_the_index(tmp_path: Path) -> None:
    # The index has transformers and peft, not the project's own workspace package: uv installs
    # that from its path. Before, compat asked the index for it and reported that the
    # requirements "cannot be installed together" (prime-rl's prime-rl-configs).
    project = tmp_path / "pyproject.toml"
    project.write_text(
        '[project]\nname = "trainer"\nversion = "0"\n'
        'dependencies = ["trainer-configs", "transformers==4.40.0", "peft>=0.10.0"]\n\n'
        '[tool.uv.sources]\ntrainer-configs = { path = "packages/trainer-configs", editable = true }\n'
    )
    projects = {
        "transformers": [Dist("transformers", "4.40.0")],
        "peft": [Dist("peft", "0.10.0"), Dist("peft", "0.14.0")],
    }
    with IndexServer(projects) as index:
        result = run_cli(
            [
                "check",
                str(project),
                "--index-url",
                index.url,
                "--resolver",
                "uv",
                "--no-probe",
                "-f",
                "json",
            ]
        )
    assert result.exit_code == 1, result.stderr
    report = result.json()
    assert report["summary"]["resolve_failed"] is None
    assert not any("cannot install these requirements together" in n for n in report["notes"])
    assert any(
        "trainer-configs @ file:packages/trainer-configs is a direct reference" in n
        for n in report["notes"]
    )
    assert [f["rule"] for f in report["findings"]] == ["peft-0.14-needs-transformers-4.43"]
