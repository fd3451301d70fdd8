"""A reproducible verdict (issue 42 item 8): `--exclude-newer DATE` limits uv's resolve to
releases published by DATE (a real uv against a real index whose JSON pages carry PEP 700 upload
times); pip has no such option and a note says so; offline the snapshot records no upload times
and the note says what that leaves unexcluded; the report names the date and the knowledge
base; `[tool.compat]` pins both."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat import __version__
from tests.checkcli import by_rule, check, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer

PEFT_RULE = "peft-0.14-needs-transformers-4.43"
INDEX = {
    "peft": [
        Dist("peft", "0.13.2", uploaded="2024-10-10T10:00:00Z"),
        Dist("peft", "0.14.0", requires=["transformers"], uploaded="2024-12-06T10:00:00Z"),
    ],
    "transformers": [Dist("transformers", "4.40.0", uploaded="2024-04-18T10:00:00Z")],
}


@pytest.mark.usefixtures("resolver_env")
def test_exclude_newer_holds_the_resolve_to_a_day(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "peft\ntransformers==4.40.0\n")
    with IndexServer(INDEX) as index:
        code, today = check(str(requirements), "--index-url", index.url, "--resolver", "uv")
        then_code, then = check(
            str(requirements), "--index-url", index.url, "--resolver", "uv",
            "--exclude-newer", "2024-11-30",
        )  # fmt: skip
        # the day itself counts: 0.14.0 was published on 2024-12-06
        _, on_the_day = check(
            str(requirements), "--index-url", index.url, "--resolver", "uv",
            "--exclude-newer", "2024-12-06",
        )  # fmt: skip
    assert code == 1 and PEFT_RULE in by_rule(today)  # the newest peft: 0.14.0
    assert then_code == 0 and PEFT_RULE not in by_rule(then)
    (install,) = then["environment"]["installs"]
    assert install["packages"]["peft"] == "0.13.2"
    assert then["environment"]["exclude_newer"] == "2024-11-30"
    (said,) = [n for n in then["notes"] if "(--exclude-newer)" in n]
    assert "published by 2024-11-30" in said and f"knowledge base {__version__}" in said
    assert PEFT_RULE in by_rule(on_the_day)


@pytest.mark.usefixtures("resolver_env")
def test_pip_has_no_exclude_newer_and_says_so(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "peft\ntransformers==4.40.0\n")
    with IndexServer(INDEX) as index:
        _, report = check(
            str(requirements), "--index-url", index.url, "--resolver", "pip",
            "--exclude-newer", "2024-11-30",
        )  # fmt: skip
    assert any(n.startswith("pip has no --exclude-newer") for n in report["notes"])


def test_offline_the_note_says_what_the_snapshot_cannot_exclude(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "peft\n")
    _, report = check(str(requirements), "--offline", "--exclude-newer", "2024-11-30")
    (said,) = [n for n in report["notes"] if "(--exclude-newer)" in n]
    assert "records no upload times" in said


def test_config_pins_the_date_and_the_knowledge_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "requirements.txt", "peft==0.13.2\n")
    config = write(
        tmp_path / "pyproject.toml",
        f'[tool.compat]\nexclude-newer = "2024-11-30"\nknowledge-version = "{__version__}"\n',
    )
    monkeypatch.chdir(tmp_path)
    _, report = check("requirements.txt", "--offline")
    assert report["environment"]["exclude_newer"] == "2024-11-30"
    config.write_text('[tool.compat]\nknowledge-version = "0.0.0-other"\n', encoding="utf-8")
    result = run_cli(["check", "requirements.txt", "--offline"])
    assert result.exit_code == 2 and "0.0.0-other is pinned" in result.stderr


def test_a_date_that_does_not_parse_is_bad_input(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "peft\n")
    result = run_cli(["check", str(requirements), "--offline", "--exclude-newer", "last week"])
    assert result.exit_code == 2 and "expected a date, YYYY-MM-DD" in result.stderr
