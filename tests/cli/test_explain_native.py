"""explain confirms an `undefined symbol` line from the files themselves (issue 33 item 4): in
the environment given with --path, or, run on the machine that crashed, in the very file the log
names and the torch beside it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.cli.test_doctor_native import extension, torch_site
from tests.conftest import run_cli
from tests.lib.nativeenv import CHECK_FAIL_CXX11, CHECK_FAIL_OLD


def explain(log: Path, *args: str) -> dict[str, Any]:
    result = run_cli(["explain", str(log), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def crash_log(tmp_path: Path, file: Path | str, symbol: str) -> Path:
    log = tmp_path / "train.log"
    log.write_text(
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    import ext\n"
        f"ImportError: {file}: undefined symbol: {symbol}\n",
        encoding="utf-8",
    )
    return log


def test_the_given_environment_confirms_or_rules_out_the_symbol(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    path = extension(site, undefined=(CHECK_FAIL_OLD,))
    elsewhere = "/opt/venv/lib/python3.11/site-packages/ext/_C.so"  # the crashed machine's path
    missing = explain(crash_log(tmp_path, elsewhere, CHECK_FAIL_OLD), "--path", str(site))
    [check] = missing["binary"]
    assert check["verdict"] == "confirmed" and check["line"] == 4
    assert check["demangled"].startswith("c10::detail::torchCheckFail")
    exported = explain(crash_log(tmp_path, path, CHECK_FAIL_CXX11), "--path", str(site))
    assert [c["verdict"] for c in exported["binary"]] == ["ruled-out"]


def test_on_the_machine_that_crashed_the_named_file_is_read(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "venv" / "lib" / "python3.11" / "site-packages")
    path = extension(site, undefined=(CHECK_FAIL_OLD,))
    here = explain(crash_log(tmp_path, path, CHECK_FAIL_OLD))
    assert [c["verdict"] for c in here["binary"]] == ["confirmed"]
    gone = explain(crash_log(tmp_path, "/nowhere/site-packages/ext/_C.so", CHECK_FAIL_OLD))
    assert [c["verdict"] for c in gone["binary"]] == ["unread"]


def test_text_names_the_files_verdict(tmp_path: Path) -> None:
    site = torch_site(tmp_path / "site")
    path = extension(site, undefined=(CHECK_FAIL_OLD,))
    result = run_cli(
        ["explain", str(crash_log(tmp_path, path, CHECK_FAIL_OLD)), "--path", str(site)]
    )
    assert "files confirmed (line 4)" in result.stdout
