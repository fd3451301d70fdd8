"""Every option from the environment: COMPAT_<COMMAND>_<OPTION>, then COMPAT_<OPTION>."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer.main

from compat.cli import app
from compat.envopts import NOT_FROM_ENVIRONMENT
from tests.conftest import run_cli
from tests.dists import make_env


def _commands() -> list[tuple[str, object]]:
    root = typer.main.get_command(app)
    found = []
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        subcommands = getattr(command, "commands", None)
        if isinstance(subcommands, dict):
            found += [(f"{name} {sub}", cmd) for sub, cmd in subcommands.items()]
        else:
            found.append((name, command))
    return found


@pytest.mark.parametrize(("name", "command"), _commands(), ids=lambda v: str(v))
def test_every_option_lists_its_variables_in_help(name: str, command: object) -> None:
    words = name.split()
    result = run_cli([*words, "--help"])
    assert result.exit_code == 0
    help_text = " ".join(result.stdout.split())
    for param in command.params:  # type: ignore[attr-defined]
        if not getattr(param, "opts", None) or param.param_type_name != "option":
            continue
        if "--help" in param.opts:
            continue
        if NOT_FROM_ENVIRONMENT.intersection(param.opts):
            # check's --fix/--diff act on the user's files: only the command line asks for them.
            assert f"COMPAT_{max(param.opts, key=len).lstrip('-').upper()}" not in help_text
            continue
        option = max(param.opts, key=len).lstrip("-").replace("-", "_").upper()
        prefix = "_".join(w.upper() for w in words)
        assert f"COMPAT_{prefix}_{option}, COMPAT_{option}" in help_text, (name, option)


def _profile(path: Path, driver: str, cuda: str = "11.8") -> Path:
    path.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": driver,
                "cuda_driver_version": cuda,  # the CUDA version that driver reports
                "gpus": [
                    {"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_env(tmp_path / "site", {"torch": "2.3.0+cu121"})


def test_hardware_and_path_from_the_environment(site: Path, tmp_path: Path) -> None:
    old = _profile(tmp_path / "old.json", "520.61.05")  # below the CUDA 12 floor
    env = {"COMPAT_HARDWARE": str(old), "COMPAT_PATH": str(site), "COMPAT_FORMAT": "json"}
    result = run_cli(["doctor"], env=env)
    assert result.exit_code == 1
    rules = {f["rule"] for f in result.json()["findings"]}
    assert "cuda12-build-below-driver-floor" in rules
    # The command line beats the environment.
    new = _profile(tmp_path / "new.json", "535.104.05", "12.2")
    result = run_cli(["doctor", "--hardware", str(new)], env=env)
    assert "cuda12-build-below-driver-floor" not in {f["rule"] for f in result.json()["findings"]}


def test_path_lists_split_on_the_path_separator(site: Path, tmp_path: Path) -> None:
    other = make_env(tmp_path / "other", {"deepspeed": "0.14.2"})
    env = {"COMPAT_PATH": f"{site}:{other}", "COMPAT_NO_PROBE": "1", "COMPAT_FORMAT": "json"}
    result = run_cli(["doctor"], env=env)
    assert result.json()["environment"]["packages"] == 2


def test_the_commands_own_variable_wins(tmp_path: Path) -> None:
    # deepspeed 0.14.2 without a DeepSpeed config: a possible finding that --fail-on possible fails
    site = make_env(tmp_path / "ds-site", {"deepspeed": "0.14.2"})
    env = {
        "COMPAT_PATH": str(site),
        "COMPAT_NO_PROBE": "true",
        "COMPAT_FAIL_ON": "bogus",  # would be an error: the doctor variable wins over it
        "COMPAT_DOCTOR_FAIL_ON": "possible",
    }
    result = run_cli(["doctor"], env=env)
    assert result.exit_code == 1  # the possible finding now fails


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("COMPAT_FAIL_ON", "bogus", "'--fail-on' (from $COMPAT_FAIL_ON)"),
        ("COMPAT_DOCTOR_NO_PROBE", "maybe", "'--no-probe' (from $COMPAT_DOCTOR_NO_PROBE)"),
        ("COMPAT_HARDWARE", "/nonexistent/p.json", "(--hardware from $COMPAT_HARDWARE)"),
    ],
)
def test_a_bad_value_names_the_variable(
    site: Path, variable: str, value: str, expected: str
) -> None:
    result = run_cli(["doctor", "--path", str(site)], env={variable: value})
    assert result.exit_code == 2
    assert expected in result.stderr
