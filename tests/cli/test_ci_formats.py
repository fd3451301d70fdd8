"""The formats CI systems read (issue 35 item 3): JUnit XML against Jenkins' schema, GitLab Code
Quality JSON against GitLab's documented fields, and several outputs from one run (--report)."""

from __future__ import annotations

import json
import os
import stat
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import xmlschema

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

JUNIT = xmlschema.XMLSchema(str(paths.JUNIT_XSD))
GITLAB = json.loads(paths.GITLAB_CODE_QUALITY_SCHEMA.read_text())
SARIF = json.loads(paths.SARIF_SCHEMA.read_text())
DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
# vllm 0.10.1 pins torch 2.7.1: affected findings; deepspeed 0.14.2 without a config: possible.
STACK = "deepspeed==0.14.2\nvllm==0.10.1\ntorch==2.7.0\n"


def project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def check(*args: str) -> Any:
    return run_cli(["check", "--no-probe", "--offline", *args])


def report_json(*args: str) -> Any:
    result = check(*args, "--format", "json")
    assert result.exit_code in (0, 1), result.stderr
    return result.json()


def test_junit_validates_one_case_per_file_and_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(
        project(tmp_path, {"requirements.txt": STACK, "clean.txt": "requests==2.32.3\n"})
    )
    result = check("requirements.txt", "clean.txt", "--format", "junit")
    assert result.exit_code == 1, result.stderr
    JUNIT.validate(result.stdout)
    root = ET.fromstring(result.stdout)
    findings = report_json("requirements.txt", "clean.txt")["findings"]
    affected = sorted(f["rule"] for f in findings if f["status"] == "affected")
    possible = sorted(f["rule"] for f in findings if f["status"] == "possible")
    assert affected and DS_RULE in possible
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert list(suites) == ["requirements.txt", "clean.txt"]
    cases = suites["requirements.txt"].findall("testcase")
    names = [str(c.get("name")) for c in cases]
    assert sorted(names) == sorted(affected + possible) and len(set(names)) == len(names)
    assert all(c.get("classname") == "requirements.txt" for c in cases)
    failed = sorted(str(c.get("name")) for c in cases if c.find("failure") is not None)
    assert failed == affected
    (ds_case,) = [c for c in cases if c.get("name") == DS_RULE]
    skipped = ds_case.find("skipped")
    assert skipped is not None and skipped.get("type") == "possible"
    assert skipped.text is not None and skipped.text.startswith("requirements.txt:1\n")
    assert root.get("failures") == str(len(affected)) and root.get("tests") == str(len(names) + 1)
    assert suites["requirements.txt"].get("skipped") == "1"
    # the clean file is one passing case: it was checked
    (clean,) = suites["clean.txt"].findall("testcase")
    assert clean.get("name") == "compat" and list(clean) == []


def test_junit_of_a_clean_check_and_of_doctor_validate(tmp_path: Path) -> None:
    requirements = (
        project(tmp_path, {"requirements.txt": "requests==2.32.3\n"}) / "requirements.txt"
    )
    result = check(str(requirements), "--format", "junit", "-o", str(tmp_path / "junit.xml"))
    assert result.exit_code == 0, result.stderr
    JUNIT.validate(str(tmp_path / "junit.xml"))
    root = ET.parse(tmp_path / "junit.xml").getroot()
    assert (root.get("tests"), root.get("failures")) == ("1", "0")
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "torch": "2.7.0"})
    doctor = run_cli(
        ["doctor", "--no-probe", "--path", str(site), "--report", f"junit={tmp_path / 'd.xml'}"]
    )
    assert doctor.exit_code == 1, doctor.stderr
    JUNIT.validate(str(tmp_path / "d.xml"))
    doctor_root = ET.parse(tmp_path / "d.xml").getroot()
    cases = {c.get("name"): c for c in doctor_root.iter("testcase")}
    # doctor's findings point at the distribution they name
    resume = cases["deepspeed-pre-0.16-resume-on-torch-2.6"]
    assert str(resume.get("classname")).endswith("deepspeed-0.14.2.dist-info")
    assert resume.find("failure") is not None


def test_gitlab_code_quality_fields_and_fingerprints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path, {"requirements.txt": STACK}))
    result = check("requirements.txt", "--format", "gitlab")
    assert result.exit_code == 1, result.stderr
    issues = json.loads(result.stdout)
    jsonschema.validate(issues, GITLAB)
    findings = report_json("requirements.txt")["findings"]
    assert sorted(i["check_name"] for i in issues) == sorted(f["rule"] for f in findings)
    by_rule = {i["check_name"]: i for i in issues}
    assert by_rule[DS_RULE]["location"] == {"path": "requirements.txt", "lines": {"begin": 1}}
    assert by_rule[DS_RULE]["severity"] == "major"  # possible: a step below an affected error
    assert by_rule["vllm-torch-pin-mismatch"]["severity"] == "critical"
    assert len({i["fingerprint"] for i in issues}) == len(issues)  # GitLab keeps one per print
    # Lines move: the fingerprints stay (path, rule and packages only).
    project(tmp_path, {"requirements.txt": "# pinned for the cluster\n\n" + STACK})
    moved = {
        i["check_name"]: i
        for i in json.loads(check("requirements.txt", "--format", "gitlab").stdout)
    }
    assert moved[DS_RULE]["location"]["lines"]["begin"] == 3
    assert {k: v["fingerprint"] for k, v in moved.items()} == {
        k: v["fingerprint"] for k, v in by_rule.items()
    }
    # Another file: other fingerprints.
    project(tmp_path, {"other.txt": STACK})
    other = {
        i["check_name"]: i for i in json.loads(check("other.txt", "--format", "gitlab").stdout)
    }
    assert other[DS_RULE]["fingerprint"] != by_rule[DS_RULE]["fingerprint"]
    # The SARIF run names the same finding by the same print.
    sarif = json.loads(check("requirements.txt", "--format", "sarif").stdout)
    prints = {
        r["ruleId"]: r["partialFingerprints"]["compatFinding/v1"]
        for r in sarif["runs"][0]["results"]
    }
    assert prints[DS_RULE] == by_rule[DS_RULE]["fingerprint"]


def test_clean_gitlab_report_is_an_empty_list(tmp_path: Path) -> None:
    requirements = project(tmp_path, {"r.txt": "requests==2.32.3\n"}) / "r.txt"
    result = check(str(requirements), "--format", "gitlab")
    assert result.exit_code == 0 and json.loads(result.stdout) == []


def test_several_outputs_from_one_run_equal_single_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project(tmp_path, {"requirements.txt": STACK}))
    (tmp_path / "out").mkdir()
    old = tmp_path / "out" / "compat.sarif"
    old.write_text("stale\n")
    old.chmod(0o640)
    result = check(
        "requirements.txt", "--format", "github",
        "--report", "sarif=out/compat.sarif", "--report", "JUnit=out/junit.xml",
        "--report", "gitlab=out/cq.json", "--report", "json=out/report.json",
    )  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert result.stdout == check("requirements.txt", "--format", "github").stdout
    for name, file in (("sarif", "compat.sarif"), ("junit", "junit.xml"), ("gitlab", "cq.json"),
                       ("json", "report.json")):  # fmt: skip
        alone = check("requirements.txt", "--format", name).stdout
        assert (tmp_path / "out" / file).read_text() == alone, name
    jsonschema.validate(json.loads(old.read_text()), SARIF)
    assert stat.S_IMODE(os.stat(old).st_mode) == 0o640  # replaced, its permissions kept
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]  # no temp left


@pytest.mark.parametrize(
    ("values", "fragment"),
    [
        (["sarif"], "--report: 'sarif' is not FORMAT=FILE"),
        (["pdf=out.pdf"], "--report: unknown format 'pdf'"),
        (["sarif=-"], "--report: 'sarif=-': --report writes a file"),
        (["sarif="], "--report sarif: empty file name"),
        (["sarif=missing/dir/c.sarif"], "--report sarif: directory does not exist"),
        (
            ["sarif=a.sarif", "json=a.sarif"],
            "--report json: the file is already written by --report sarif",
        ),
        (["json=main.json"], "--report json: the file is already written by -o"),
        (["junit=."], "--report junit: is a directory"),
    ],
)
def test_bad_report_values_are_one_line_exit_2_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, values: list[str], fragment: str
) -> None:
    monkeypatch.chdir(tmp_path)
    # the file check would read does not exist: --report is refused before anything is read
    args = [a for v in values for a in ("--report", v)]
    result = check("absent.txt", "-o", "main.json", *args)
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("compat: error: "), lines
    assert fragment in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_report_symlink_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project(tmp_path, {"r.txt": "requests==2.32.3\n", "target": "keep\n"}))
    (tmp_path / "link.sarif").symlink_to(tmp_path / "target")
    result = check("r.txt", "--report", "sarif=link.sarif")
    assert result.exit_code == 2 and "symbolic link" in result.stderr
    assert (tmp_path / "target").read_text() == "keep\n"


@pytest.mark.parametrize("command", ["check", "doctor"])
def test_help_shows_format_equals_file(command: str) -> None:
    result = run_cli([command, "--help"], env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert result.exit_code == 0
    assert "--report" in result.stdout and "FORMAT=FILE" in result.stdout


def test_doctor_install_refuses_report(tmp_path: Path) -> None:
    result = run_cli(
        ["doctor", "--no-probe", "--install", "x==1", "--report", f"json={tmp_path / 'r.json'}"]
    )
    assert result.exit_code == 2 and "--report does not combine with --install" in result.stderr
