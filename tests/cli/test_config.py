"""One config (issue 35 item 4): every option of check and doctor from `[tool.compat]` of
pyproject.toml or `.compat.toml`; the command line beats COMPAT_* variables, which beat the file;
an unknown key or a wrong type is exit 2 naming the key, the file and the line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.main import get_command

from compat.cli import app
from compat.cli.config import KEYS, option_key
from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib.hardware import R535, profile_file

ZERO3 = '["zero_stage=3", "offload_optimizer=cpu", "gradient_clipping=1.0"]'
DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
TEAM_RULE = """\
schema: compat.matrix/1
rules:
  - id: my-team-deepspeed-pin
    title: our cluster image needs deepspeed 0.15
    severity: warning
    evidence: reported
    when:
      packages: {deepspeed: "<0.15"}
    fix: {summary: take 0.15, constraints: ["deepspeed>=0.15"]}
    references: ["https://wiki.example.org/cluster-image"]
    examples:
      affected: [{packages: {deepspeed: "0.14.2"}}]
      clear: [{packages: {deepspeed: "0.15.0"}}]
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project directory, the current one, with a requirements file that has the ZeRO-3 bug."""
    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.startswith("COMPAT_"):
            monkeypatch.delenv(name)
    (tmp_path / "requirements.txt").write_text("deepspeed==0.14.2\n")
    return tmp_path


def pyproject(root: Path, compat_table: str) -> Path:
    path = root / "pyproject.toml"
    path.write_text(f'[project]\nname = "x"\nversion = "0"\n\n[tool.compat]\n{compat_table}')
    return path


def test_keys_are_the_options_of_check_and_doctor() -> None:
    """The key list (which lets doctor know check's keys without importing check) is every
    option of each command: a new option is settable from the file or this test fails."""
    group = get_command(app)
    for name, keys in KEYS.items():
        command = group.commands[name]  # type: ignore[attr-defined]
        options = {option_key(p.opts) for p in command.params if p.param_type_name == "option"}
        # check's --fix and --diff rewrite or replace what the user reads: asked for on the
        # command line only, never by a file every run reads (test below).
        assert options - {"help", "fix", "diff"} == keys, name


def test_fix_is_not_a_setting_of_the_file_nor_of_the_environment(project: Path) -> None:
    (project / "requirements.txt").write_text("deepspeed==0.14.2\n")
    pyproject(project, "fix = true\n")
    result = run_cli(["check", "requirements.txt", "--offline"])
    assert result.exit_code == 2
    assert "fix: unknown key" in result.stderr
    pyproject(project, 'fail-on = "never"\n')
    result = run_cli(
        ["check", "requirements.txt", "--offline"], env={"COMPAT_FIX": "1", "COMPAT_DIFF": "1"}
    )
    assert result.exit_code == 0, result.stderr
    assert (project / "requirements.txt").read_text() == "deepspeed==0.14.2\n"
    assert "note: fix:" not in result.stdout and not result.stdout.startswith("---")


def test_check_takes_every_option_from_pyproject(project: Path) -> None:
    (project / "rules.yaml").write_text(TEAM_RULE)
    (project / "requirements.txt").write_text("deepspeed==0.14.2 ; sys_platform == 'win32'\n")
    pyproject(
        project,
        f'set = {ZERO3}\nfail-on = "never"\nmatrix = ["rules.yaml"]\npython-version = "3.10"\n'
        'platform = "win32"\nresolver = "pip"\noffline = true\nformat = "json"\n'
        'output = "report.json"\nno-probe = true\n',
    )
    result = run_cli(["check", "requirements.txt"])
    assert result.exit_code == 0, result.stderr  # fail-on = never
    assert result.stdout == ""  # output = report.json
    report = json.loads((project / "report.json").read_text())  # format = json
    found = {f["rule"]: f["status"] for f in report["findings"]}
    assert found[DS_RULE] == "affected"  # set, and the win32 marker holds: platform
    assert found["my-team-deepspeed-pin"] == "affected"  # matrix
    assert report["environment"]["python"].startswith("3.10")  # python-version
    # The same file judged for linux: the marker leaves deepspeed out.
    result = run_cli(["check", "requirements.txt", "--platform", "linux", "-o", "linux.json"])
    assert result.exit_code in (0, 3), result.stderr
    assert DS_RULE not in (project / "linux.json").read_text()


def test_compat_toml_and_a_commands_own_table(project: Path) -> None:
    (project / ".compat.toml").write_text(
        f'offline = true\nset = {ZERO3}\nfail-on = "never"\n\n[check]\nfail-on = "affected"\n'
    )
    assert run_cli(["check", "requirements.txt", "-q"]).exit_code == 1  # [check] wins
    pyproject(project, 'fail-on = "possible"\nformat = "json"\n')
    result = run_cli(["check", "requirements.txt"])  # .compat.toml wins a key both set
    assert result.exit_code == 1 and result.json()["schema"] == "compat.report/1"


@pytest.mark.parametrize(
    ("file_value", "variable", "argv", "code"),
    [
        ("never", None, [], 0),
        ("affected", None, [], 1),
        ("never", "affected", [], 1),  # the environment beats the file
        ("affected", "never", [], 0),
        ("never", "never", ["--fail-on", "affected"], 1),  # the command line beats both
        ("affected", "affected", ["--fail-on", "never"], 0),
    ],
)
def test_command_line_then_environment_then_file(
    project: Path, file_value: str, variable: str | None, argv: list[str], code: int
) -> None:
    pyproject(project, f'offline = true\nset = {ZERO3}\nfail-on = "{file_value}"\n')
    env = {"COMPAT_FAIL_ON": variable} if variable else None
    result = run_cli(["check", "requirements.txt", "-q", *argv], env=env)
    assert result.exit_code == code, result.stderr


def test_a_repeatable_option_from_the_command_line_replaces_the_files(project: Path) -> None:
    pyproject(project, f"offline = true\nset = {ZERO3}\n")
    assert run_cli(["check", "requirements.txt", "-q"]).exit_code == 1
    result = run_cli(["check", "requirements.txt", "-q", "--set", "zero_stage=2"])
    assert result.exit_code == 0, result.stderr


BOTH = ("check", "doctor")


@pytest.mark.parametrize(
    ("name", "text", "line", "fragment", "commands"),
    [
        ("pyproject.toml", 'offline = true\nfail_on = "never"\n', 7, "fail_on", BOTH),
        ("pyproject.toml", 'offline = true\nfail-on = "sometimes"\n', 7, "fail-on", BOTH),
        (
            "pyproject.toml",
            "offline = true\npython-version = 3.11\n",
            7,
            "python-version",
            ("check",),
        ),
        ("pyproject.toml", 'offline = "yes"\n', 6, "offline", ("check",)),
        ("pyproject.toml", 'offline = true\nmatrix = "rules/"\n', 7, "matrix", BOTH),
        ("pyproject.toml", 'offline = true\nset = ["zero_stage=3", 3]\n', 7, "set", BOTH),
        ("pyproject.toml", 'offline = true\ntimeout = "15"\n', 7, "timeout", ("check",)),
        (
            "pyproject.toml",
            'offline = true\n\n[tool.compat.check]\nplatfrom = "linux"\n',
            9,
            "platfrom",
            BOTH,
        ),
        (
            "pyproject.toml",
            'offline = true\n\n[tool.compat.doctor]\nresolver = ["uv"]\n',
            9,
            "resolver",
            ("doctor",),
        ),
        (".compat.toml", '# ours\nhardwre = "cluster.json"\n', 2, "hardwre", BOTH),
        (".compat.toml", '[check]\n"fail-on" = 1\n', 2, "fail-on", ("check",)),
    ],
)
def test_a_typo_or_a_wrong_type_is_exit_2_with_key_file_and_line(
    project: Path, name: str, text: str, line: int, fragment: str, commands: tuple[str, ...]
) -> None:
    if name == "pyproject.toml":
        pyproject(project, text)
    else:
        (project / name).write_text(text)
    for command in BOTH:
        argv = ["check", "requirements.txt"] if command == "check" else ["doctor", "--no-probe"]
        result = run_cli(argv)
        if command not in commands:  # another command's key, well formed for it: not ours
            assert result.exit_code != 2, (argv, result.stderr)
            continue
        assert result.exit_code == 2, (argv, result.stdout, result.stderr)
        error = result.stderr.strip()
        assert "\n" not in error and "Traceback" not in error
        assert error.startswith(f"compat: error: {name}:{line}: "), error
        assert fragment in error


def test_a_bad_file_does_not_stop_help(project: Path) -> None:
    pyproject(project, 'fail_on = "never"\n')
    assert run_cli(["check", "--help"]).exit_code == 0
    assert run_cli(["doctor", "-h"]).exit_code == 0


def test_doctor_takes_its_options_and_leaves_checks_hardware(project: Path) -> None:
    site = make_env(project / "site", {"torch": "2.11.0"})
    profile = profile_file(project / "hw", R535)
    pyproject(
        project,
        f'hardware = "{profile}"\npath = ["{site}"]\nformat = "json"\nfail-on = "never"\n'
        'python-version = "3.11"\nno-probe = true\n',
    )
    result = run_cli(["doctor"])
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["environment"]["packages"] == 1  # path
    assert report["hardware"] is None  # [tool.compat] hardware is check's training machine
    pyproject(
        project,
        f'path = ["{site}"]\nformat = "json"\n\n[tool.compat.doctor]\nhardware = "{profile}"\n',
    )
    report = run_cli(["doctor"]).json()
    assert report["hardware"]["driver_version"] == R535["driver_version"]
