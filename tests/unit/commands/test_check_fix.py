"""`compat check --fix` / `--diff` end to end: real requirement files (CRLF, -r includes, hashes),
a real index on 127.0.0.1, pin's versions written into the lines, real pip installing the fixed
file, and the SARIF fixes validated against the SARIF 2.1.0 schema."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib import paths

DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
DEEPSPEEDS = ["0.13.5", "0.14.0", "0.14.1", "0.14.2", "0.14.3", "0.14.4", "0.15.0"]
ZERO3 = [
    "--set",
    "zero_stage=3",
    "--set",
    "offload_optimizer=cpu",
    "--set",
    "gradient_clipping=1.0",
]
LINE = b'deepspeed[autotuning]==0.14.2 ; sys_platform == "linux"  # the trainer\'s pin\r\n'
FIXED = b'deepspeed[autotuning]==0.14.3 ; sys_platform == "linux"  # the trainer\'s pin\r\n'
HEAD = b"# training stack\r\n-r base.txt\r\n"
TAIL = b"trl>=0.15,<0.17  # any 0.15/0.16\r\n"


def projects(deepspeed_requires: tuple[str, ...] = ("torch",)) -> dict[str, list[Dist]]:
    return {
        "deepspeed": [
            Dist("deepspeed", v, requires=["torch"] if v <= "0.14.2" else list(deepspeed_requires))
            for v in DEEPSPEEDS
        ],
        "torch": [Dist("torch", "2.3.0")],
        "trl": [Dist("trl", v) for v in ("0.15.2", "0.16.1")],
    }


def files(root: Path, requirements: bytes = HEAD + LINE + TAIL) -> Path:
    (root / "base.txt").write_bytes(b"torch==2.3.0\n")
    (root / "requirements.txt").write_bytes(requirements)
    return root / "requirements.txt"


def check(index: IndexServer, path: Path, *args: str) -> Any:
    return run_cli(["check", str(path), "--index-url", index.url, *ZERO3, *args])


def pip_install(index_url: str, requirements: Path, target: Path) -> dict[str, str]:
    """What real pip installs from the file (into a --target directory, isolated config)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-cache-dir", "--disable-pip-version-check",
         "--index-url", index_url, "--target", str(target), "-r", str(requirements)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return {
        p.name.removesuffix(".dist-info").split("-")[0].lower(): p.name.removesuffix(
            ".dist-info"
        ).split("-")[1]
        for p in target.glob("*.dist-info")
    }


def test_fix_rewrites_the_one_line_byte_for_byte_and_pip_installs_the_result(
    tmp_path: Path,
) -> None:
    requirements = files(tmp_path)
    with IndexServer(projects()) as index:
        before = check(index, requirements)
        assert before.exit_code == 1 and DS_RULE in before.stdout
        result = check(index, requirements, "--fix")
        assert result.exit_code == 0, result.stdout + result.stderr
        # Only the deepspeed line changed: extras, marker, comment and CRLF kept; the included
        # file and the ranged trl line untouched.
        assert requirements.read_bytes() == HEAD + FIXED + TAIL
        assert (tmp_path / "base.txt").read_bytes() == b"torch==2.3.0\n"
        assert "fix: rewrote" in result.stdout and DS_RULE not in result.stdout
        installed = pip_install(index.url, requirements, tmp_path / "site")
    assert installed["deepspeed"] == "0.14.3" and installed["torch"] == "2.3.0"
    assert not list(tmp_path.glob(".requirements.txt.*"))  # no temporary file left behind


def test_diff_writes_nothing_exits_as_the_files_are_and_git_applies_to_the_fix(
    tmp_path: Path,
) -> None:
    requirements = files(tmp_path)
    with IndexServer(projects()) as index:
        # A real process, bytes kept: the diff's CRLF lines are the file's own.
        proc = subprocess.run(
            [sys.executable, "-m", "compat", "check", "requirements.txt", "--index-url", index.url,
             *ZERO3, "--diff"],
            capture_output=True, cwd=tmp_path, timeout=300,
        )  # fmt: skip
    assert proc.returncode == 1, proc.stderr  # the files as they are still fail the gate
    assert requirements.read_bytes() == HEAD + LINE + TAIL
    diff = proc.stdout
    assert diff.startswith(b"--- a/requirements.txt\n+++ b/requirements.txt\n@@ -1,4 +1,4 @@\n")
    assert b"\n-" + LINE in diff and b"\n+" + FIXED in diff
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    # The diff is a patch: applied to the file, it gives exactly what --fix writes.
    (tmp_path / "fix.patch").write_bytes(diff)
    applied = subprocess.run(
        ["git", "apply", "fix.patch"], cwd=tmp_path, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stderr
    assert requirements.read_bytes() == HEAD + FIXED + TAIL


def test_a_pin_in_an_included_file_is_fixed_there(tmp_path: Path) -> None:
    (tmp_path / "base.txt").write_bytes(b"torch==2.3.0\ndeepspeed==0.14.2  # shared\n")
    requirements = tmp_path / "requirements.txt"
    requirements.write_bytes(b"-r base.txt\ntrl>=0.15,<0.17\n")
    with IndexServer(projects()) as index:
        result = check(index, requirements, "--fix")
    assert result.exit_code == 0, result.stdout
    assert (tmp_path / "base.txt").read_bytes() == b"torch==2.3.0\ndeepspeed==0.14.3  # shared\n"
    assert requirements.read_bytes() == b"-r base.txt\ntrl>=0.15,<0.17\n"


def sha256_of(index: IndexServer, name: str, version: str) -> str:
    """The hash the index states for the release's one file (PEP 691 JSON)."""
    request = urllib.request.Request(
        f"{index.url}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        files = json.loads(answer.read())["files"]
    [found] = [f for f in files if f"-{version}-" in f["filename"]]
    return str(found["hashes"]["sha256"])


def test_a_hashed_file_gets_the_new_releases_hashes_and_still_installs(tmp_path: Path) -> None:
    # pip's hash-checking mode is all or nothing: a line left without hashes in a hashed file
    # makes pip refuse the whole file, so the old release's hashes are replaced, not just dropped.
    with IndexServer(projects()) as index:
        torch, old, new = (
            sha256_of(index, "torch", "2.3.0"),
            sha256_of(index, "deepspeed", "0.14.2"),
            sha256_of(index, "deepspeed", "0.14.3"),
        )
        requirements = tmp_path / "requirements.txt"
        requirements.write_bytes(
            f"torch==2.3.0 --hash=sha256:{torch}  # inline\r\n"
            f"deepspeed==0.14.2 \\\r\n    --hash=sha256:{old} \\\r\n    --hash=sha256:{'b' * 64}\r\n"
            "".encode()
        )
        result = check(index, requirements, "--fix")
        assert result.exit_code == 0, result.stdout
        assert requirements.read_bytes() == (
            f"torch==2.3.0 --hash=sha256:{torch}  # inline\r\n"
            f"deepspeed==0.14.3 \\\r\n    --hash=sha256:{new}\r\n".encode()
        )
        assert (
            "the 2 --hash option(s) of deepspeed's old release replaced by the 1" in result.stdout
        )
        installed = pip_install(index.url, requirements, tmp_path / "site")
    assert installed["deepspeed"] == "0.14.3"


def test_a_fix_whose_file_no_longer_installs_is_refused_and_nothing_written(
    tmp_path: Path,
) -> None:
    # Every release past 0.14.2 needs a project the index does not have: the versions pin chose
    # cannot be installed, and the real resolver says so before anything is written.
    requirements = files(tmp_path)
    with IndexServer(projects(("torch", "deepspeed-kernels-missing"))) as index:
        result = check(index, requirements, "--fix")
    assert requirements.read_bytes() == HEAD + LINE + TAIL
    if "fix: nothing to rewrite" in result.stdout:
        pytest.fail("pin chose no move: the test no longer exercises the refusal")
    assert result.exit_code == 1
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("compat: ") and "as fixed cannot be installed" in line
    assert "Traceback" not in result.stderr


def test_sarif_results_carry_the_fix_and_validate(tmp_path: Path) -> None:
    requirements = files(tmp_path)
    sarif = tmp_path / "compat.sarif"
    with IndexServer(projects()) as index:
        result = check(index, requirements, "--diff", "--report", f"sarif={sarif}")
    assert result.exit_code == 1
    document = json.loads(sarif.read_text())
    jsonschema.validate(document, json.loads(paths.SARIF_SCHEMA.read_text()))
    [found] = [r for r in document["runs"][0]["results"] if r["ruleId"] == DS_RULE]
    [fix] = found["fixes"]
    [change] = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"].endswith("requirements.txt")
    [replacement] = change["replacements"]
    assert replacement["deletedRegion"] == {"startLine": 3, "endLine": 3}
    assert replacement["insertedContent"]["text"] == FIXED.decode().removesuffix("\r\n")
    assert fix["description"]["text"].startswith("deepspeed==0.14.3: upgrade from your pin 0.14.2")


def test_pyproject_strings_are_edited_in_place_never_re_dumped(tmp_path: Path) -> None:
    def pyproject(deepspeed: bytes) -> bytes:
        return (
            b'[project]\r\nname = "train"\r\nversion = "0"\r\n'
            b"dependencies = [\r\n"
            b'    "torch==2.3.0",\r\n'
            b'    "' + deepspeed + b"; sys_platform == 'linux'\",  # the trainer's pin\r\n"
            b"]\r\n\r\n[project.optional-dependencies]\r\n"
            b"rl = ['trl>=0.15,<0.17']  # literal strings too\r\n"
        )

    path = tmp_path / "pyproject.toml"
    path.write_bytes(pyproject(b"deepspeed[autotuning] == 0.14.2"))
    with IndexServer(projects()) as index:
        result = check(index, path, "--fix")
    assert result.exit_code == 0, result.stdout
    assert path.read_bytes() == pyproject(b"deepspeed[autotuning] ==0.14.3")


def test_nothing_to_fix_is_an_empty_diff_a_note_and_the_verdict(tmp_path: Path) -> None:
    clean = b"-r base.txt\r\ndeepspeed==0.14.3\r\n"
    requirements = files(tmp_path, clean)
    with IndexServer(projects()) as index:
        result = check(index, requirements, "--diff")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "compat: fix: nothing to rewrite" in result.stderr
    assert requirements.read_bytes() == clean


def test_a_symlinked_file_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    real = files(tmp_path)
    link = tmp_path / "linked.txt"
    link.symlink_to(real)
    with IndexServer(projects()) as index:
        result = check(index, link, "--fix")
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert "--fix: is a symbolic link" in line
    assert real.read_bytes() == HEAD + LINE + TAIL and link.is_symlink()


def test_diff_with_o_sends_the_report_there_and_the_diff_to_stdout(tmp_path: Path) -> None:
    requirements = files(tmp_path)
    report = tmp_path / "report.json"
    with IndexServer(projects()) as index:
        result = check(index, requirements, "--diff", "--format", "json", "-o", str(report))
    assert result.exit_code == 1
    assert result.stdout.startswith("--- a/") and "+deepspeed[autotuning]==0.14.3" in result.stdout
    document = json.loads(report.read_text())
    assert DS_RULE in {f["rule"] for f in document["findings"]}  # the files as they are
    assert requirements.read_bytes() == HEAD + LINE + TAIL


def test_the_fix_is_planned_for_the_python_check_judges_for(tmp_path: Path) -> None:
    # 0.14.3 exists only for Python < 3.11: judged for 3.10 it is the nearest escape; for this
    # interpreter's Python (3.11 or later) pin would have to take 0.14.4.
    index_projects = projects()
    index_projects["deepspeed"] = [
        Dist("deepspeed", v, requires=["torch"], requires_python="<3.11" if v == "0.14.3" else None)
        for v in DEEPSPEEDS
    ]
    requirements = files(tmp_path, b"-r base.txt\ndeepspeed==0.14.2\n")
    assert sys.version_info >= (3, 11)
    with IndexServer(index_projects) as index:
        here = check(index, requirements, "--diff")
        assert "+deepspeed==0.14.4" in here.stdout, here.stderr
        result = check(index, requirements, "--python-version", "3.10", "--fix")
    assert result.exit_code == 0, result.stdout
    assert requirements.read_bytes() == b"-r base.txt\ndeepspeed==0.14.3\n"


def test_a_last_line_without_a_newline_stays_without_one(tmp_path: Path) -> None:
    requirements = files(tmp_path, b"-r base.txt\ndeepspeed==0.14.2")
    with IndexServer(projects()) as index:
        shown = check(index, requirements, "--diff")
        assert shown.stdout.endswith("+deepspeed==0.14.3\n\\ No newline at end of file\n")
        result = check(index, requirements, "--fix")
    assert result.exit_code == 0, result.stdout
    assert requirements.read_bytes() == b"-r base.txt\ndeepspeed==0.14.3"


def test_offline_the_fix_comes_from_the_snapshot_and_is_proven_by_the_offline_solve(
    tmp_path: Path,
) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_bytes(b"torch==2.3.0\r\ndeepspeed==0.14.2  # pin\r\n")
    result = run_cli(["check", str(requirements), "--offline", *ZERO3, "--fix"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert requirements.read_bytes() == b"torch==2.3.0\r\ndeepspeed==0.14.3  # pin\r\n"
    assert DS_RULE not in result.stdout


def test_a_plain_sarif_run_offers_the_proven_fix_and_writes_nothing(tmp_path: Path) -> None:
    requirements = files(tmp_path)
    with IndexServer(projects()) as index:
        result = check(index, requirements, "--format", "sarif")
        assert result.exit_code == 1
        document = json.loads(result.stdout)
        jsonschema.validate(document, json.loads(paths.SARIF_SCHEMA.read_text()))
        [found] = [r for r in document["runs"][0]["results"] if r["ruleId"] == DS_RULE]
        [change] = found["fixes"][0]["artifactChanges"]
        assert change["replacements"][0]["insertedContent"]["text"].startswith(
            "deepspeed[autotuning]==0.14.3 "
        )
        assert requirements.read_bytes() == HEAD + LINE + TAIL
    # A fix whose files would not install is not offered, and the verdict is check's own.
    with IndexServer(projects(("torch", "deepspeed-kernels-missing"))) as index:
        result = check(index, requirements, "--format", "sarif")
    assert result.exit_code == 1 and result.stderr == ""
    document = json.loads(result.stdout)
    assert DS_RULE in {r["ruleId"] for r in document["runs"][0]["results"]}
    assert all("fixes" not in r for r in document["runs"][0]["results"])
