"""`compat pin --report FORMAT=FILE`: pin's result written to more files from the same run,
with check's and doctor's spelling, checks and atomic writing, while stdout (or -o) carries the
constraints. A real index on 127.0.0.1 and a real environment on disk; --no-verify keeps pip's
proof out of runs that compare outputs (tests/cli/test_pin.py has pip consume the constraints)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.schemas import problems

ZERO3 = {
    "gradient_clipping": 1.0,
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
}


def _stack(tmp_path: Path) -> tuple[Path, Path, dict[str, list[Dist]]]:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "torch": "2.3.0"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [Dist("deepspeed", v, requires=["torch"]) for v in ("0.14.2", "0.14.3")],
        "torch": [Dist("torch", v) for v in ("2.3.0", "2.4.0")],
    }
    return site, config, projects


def _pin(site: Path, config: Path, index: IndexServer, *args: str) -> Any:
    return run_cli(
        ["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
         "--deepspeed-config", str(config), "--no-verify", *args]
    )  # fmt: skip


def test_reports_from_the_same_run_as_the_constraints_on_stdout(tmp_path: Path) -> None:
    site, config, projects = _stack(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    old = out / "pin.json"
    old.write_text("stale\n")
    old.chmod(0o640)
    with IndexServer(projects) as index:
        result = _pin(site, config, index, "--report", f"json={old}", "--report",
                      f"TEXT={out / 'constraints.txt'}")  # fmt: skip
        assert result.exit_code == 0, result.stderr
        # stdout carries the constraints, as without --report
        assert "deepspeed==0.14.3" in result.stdout
        assert result.stdout == _pin(site, config, index).stdout
        alone = _pin(site, config, index, "--format", "json").stdout
    assert old.read_text() == alone  # the document --format json prints
    document = json.loads(old.read_text())
    assert document["schema"] == "compat.pin/1" and not problems(document)
    assert [p["version"] for p in document["pins"] if p["name"] == "deepspeed"] == ["0.14.3"]
    assert (out / "constraints.txt").read_text() == result.stdout
    assert stat.S_IMODE(os.stat(old).st_mode) == 0o640  # replaced, its permissions kept
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_a_text_report_beside_json_on_stdout_and_an_output_file(tmp_path: Path) -> None:
    site, config, projects = _stack(tmp_path)
    build = tmp_path / "build.txt"
    with IndexServer(projects) as index:
        result = _pin(site, config, index, "--format", "json", "-o", str(tmp_path / "pin.json"),
                      "--report", f"text={tmp_path / 'c.txt'}",
                      "--build-constraints-output", str(build))  # fmt: skip
        assert result.exit_code == 0, result.stderr
        assert result.stdout == ""  # -o took the JSON
        plain = _pin(site, config, index, "--build-constraints-output", str(build)).stdout
    # the constraints name the build-constraints file, in the report as on stdout
    assert (tmp_path / "c.txt").read_text() == plain
    assert f"# build constraints: {build}" in plain
    document = json.loads((tmp_path / "pin.json").read_text())
    assert document["build_constraints"] == str(build)


def test_a_failed_run_writes_no_report(tmp_path: Path) -> None:
    site, config, _ = _stack(tmp_path)
    report = tmp_path / "pin.json"
    report.write_text("previous\n")
    result = run_cli(
        ["pin", "--path", str(site), "--no-probe", "--index-url", "http://127.0.0.1:9/simple",
         "--deepspeed-config", str(config), "--report", f"json={report}"]
    )  # fmt: skip
    assert result.exit_code == 2
    assert "http://127.0.0.1:9/simple/" in result.stderr  # the dead index, not the option
    assert report.read_text() == "previous\n"


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        (["json"], "--report: 'json' is not FORMAT=FILE"),
        # check's CI formats carry findings at file lines; pin's result is a plan
        (["sarif=pin.sarif"], "format 'sarif' in 'sarif=pin.sarif' (choose from text, json)"),
        (["json=-"], "--report: 'json=-': --report writes a file"),
        (["json="], "--report json: empty file name"),
        (["json=missing/dir/pin.json"], "--report json: directory does not exist"),
        (["json=a.json", "text=a.json"], "text: the file is already written by --report json"),
        (["text=main.txt"], "--report text: the file is already written by -o"),
        (["json=build.txt"], "written by --build-constraints-output"),
        (["json=."], "--report json: is a directory"),
    ],
)
def test_bad_report_values_are_one_line_exit_2_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, values: list[str], fragment: str
) -> None:
    monkeypatch.chdir(tmp_path)
    # the requirement file pin would read does not exist: --report is refused before it is read
    args = [a for v in values for a in ("--report", v)]
    result = run_cli(["pin", "-r", "absent.txt", "--offline", "-o", "main.txt",
                      "--build-constraints-output", "build.txt", *args])  # fmt: skip
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("compat: error: "), lines
    assert fragment in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_help_shows_format_equals_file_and_an_example() -> None:
    result = run_cli(["pin", "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0
    assert "--report" in result.stdout and "FORMAT=FILE" in result.stdout
    assert "compat pin -r requirements.txt --report json=pin.json > constraints.txt" in (
        result.stdout
    )


def test_a_shared_compat_report_pin_cannot_write_is_ignored_with_a_note(tmp_path: Path) -> None:
    """One CI job's environment serves every command (as a shared $COMPAT_FORMAT does):
    $COMPAT_REPORT naming SARIF for check is not pin's, which says so and goes on; pin's own
    $COMPAT_PIN_REPORT is never skipped."""
    site, config, projects = _stack(tmp_path)
    sarif, report = tmp_path / "check.sarif", tmp_path / "pin.json"
    with IndexServer(projects) as index:
        args = ["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                "--deepspeed-config", str(config), "--no-verify"]  # fmt: skip
        shared = run_cli(args, env={"COMPAT_REPORT": f"json={report} sarif={sarif}"})
        assert shared.exit_code == 0, shared.stderr
        assert "deepspeed==0.14.3" in shared.stdout and not sarif.exists()
        assert not report.exists()  # the variable is skipped whole, as click reads it whole
        note = (
            f"compat: note: $COMPAT_REPORT=json={report} sarif={sarif} ignored: not a --report "
            "value of pin (text, json); $COMPAT_PIN_REPORT sets it for pin alone"
        )
        assert note in shared.stderr
        own = run_cli(args, env={"COMPAT_PIN_REPORT": f"json={report}"})
        assert own.exit_code == 0, own.stderr
        assert json.loads(report.read_text())["schema"] == "compat.pin/1"
        shared = run_cli(args, env={"COMPAT_REPORT": f"text={tmp_path / 'c.txt'}"})
        assert (tmp_path / "c.txt").read_text() == shared.stdout  # a format pin writes
        wrong = run_cli(args, env={"COMPAT_PIN_REPORT": f"sarif={sarif}"})
        assert wrong.exit_code == 2 and "unknown format 'sarif'" in wrong.stderr
        assert "$COMPAT_PIN_REPORT" in wrong.stderr  # the variable the value came from
