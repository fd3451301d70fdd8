"""A gate CI can trust (issue 42 items 3, 4, 6 and 11): new versus existing findings, paths from
the repository root, suppression where the line is, quiet text. Every test runs compat as a CI
job does, from a directory of a real `git init` repository, and validates the SARIF, JUnit and
GitLab outputs against their schemas."""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import xmlschema

from tests.conftest import Result, run_subprocess
from tests.lib import paths

JUNIT = xmlschema.XMLSchema(str(paths.JUNIT_XSD))
GITLAB = json.loads(paths.GITLAB_CODE_QUALITY_SCHEMA.read_text())
SARIF = json.loads(paths.SARIF_SCHEMA.read_text())
# vllm 0.10.1 pins torch 2.7.1: vllm-torch-pin-mismatch and xformers-torch-pin-mismatch, affected.
OLD = "vllm==0.10.1\ntorch==2.7.0\n"
# deepspeed 0.14.2 on torch 2.6+: deepspeed-pre-0.16-resume-on-torch-2.6, affected (new).
NEW = "deepspeed==0.14.2\nvllm==0.10.1\ntorch==2.7.0\n"
VLLM = "vllm-torch-pin-mismatch"
XFORMERS = "xformers-torch-pin-mismatch"
DEEPSPEED = "deepspeed-pre-0.16-resume-on-torch-2.6"
# vllm 0.10.1's torch==2.7.1 beside torch==2.7.0 cannot install either (issue 42 item 1): in NEW
# the snapshot's explanation also names deepspeed, so that conflict is a new finding too.
UNSATISFIABLE = "install:unsatisfiable"


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "svc").mkdir(parents=True)
    git(root, "init", "-q")
    return root


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(cwd: Path, *args: str) -> Result:
    result = run_subprocess(["check", "--offline", *args], cwd=cwd)
    assert result.exit_code in (0, 1), result.stderr
    return result


def every_format(cwd: Path, *args: str) -> dict[str, Any]:
    """One run, every format (--report), each validated against its schema."""
    outputs = {
        "sarif": "out.sarif",
        "junit": "out.xml",
        "gitlab": "out-cq.json",
        "github": "out.github",
        "json": "out.json",
        "text": "out.txt",
    }
    reports = [f"--report={name}={file}" for name, file in outputs.items()]
    result = check(cwd, *args, *reports)
    texts = {name: (cwd / file).read_text(encoding="utf-8") for name, file in outputs.items()}
    documents: dict[str, Any] = {"exit": result.exit_code, "stdout": result.stdout}
    documents["sarif"] = json.loads(texts["sarif"])
    jsonschema.validate(documents["sarif"], SARIF)
    JUNIT.validate(str(cwd / outputs["junit"]))
    documents["junit"] = ET.fromstring(texts["junit"].split("\n", 1)[1])
    documents["gitlab"] = json.loads(texts["gitlab"])
    jsonschema.validate(documents["gitlab"], GITLAB)
    documents["json"] = json.loads(texts["json"])
    documents["github"] = texts["github"]
    documents["text"] = texts["text"]
    for name in ("sarif", "gitlab", "github", "json", "text"):
        assert "file://" not in texts[name].replace('"uri": "file://', ""), name
    return documents


def sarif_results(documents: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["ruleId"]: r for r in documents["sarif"]["runs"][0]["results"]}


# ---------------------------------------------------------------------------------------------
# Item 4: paths from the repository root


def test_locations_are_from_the_repository_root_when_run_in_a_subdirectory(repo: Path) -> None:
    write(repo / "svc" / "requirements.txt", NEW)
    out = every_format(repo / "svc", "requirements.txt")
    run = out["sarif"]["runs"][0]
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == repo.resolve().as_uri() + "/"
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "svc/requirements.txt", "uriBaseId": "SRCROOT"}
    assert {i["location"]["path"] for i in out["gitlab"]} == {"svc/requirements.txt"}
    assert "file=svc/requirements.txt,line=" in out["github"]
    assert {s.get("name") for s in out["junit"]} == {"svc/requirements.txt"}
    assert "(svc/requirements.txt:2)" in out["text"]
    sources = {p["source"] for f in out["json"]["findings"] for p in f["packages"]}
    assert sources and all(s.startswith("svc/requirements.txt:") for s in sources)


def test_a_file_above_the_working_directory_is_named_from_the_root_not_file_uri(
    repo: Path,
) -> None:
    write(repo / "requirements.txt", NEW)
    out = every_format(repo / "svc", "../requirements.txt")
    for result in out["sarif"]["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "requirements.txt", "uriBaseId": "SRCROOT"}
    assert {i["location"]["path"] for i in out["gitlab"]} == {"requirements.txt"}
    assert "file=requirements.txt,line=" in out["github"]
    assert "../" not in out["text"] and "(requirements.txt:2)" in out["text"]


def test_the_fingerprint_does_not_depend_on_where_the_run_starts(repo: Path) -> None:
    write(repo / "svc" / "requirements.txt", NEW)
    from_svc = json.loads(check(repo / "svc", "requirements.txt", "--format", "gitlab").stdout)
    from_top = json.loads(check(repo, "svc/requirements.txt", "--format", "gitlab").stdout)
    assert from_svc == from_top


# ---------------------------------------------------------------------------------------------
# Item 3: new versus existing


def _assert_new_and_unchanged(out: dict[str, Any]) -> None:
    results = sarif_results(out)
    assert results[DEEPSPEED]["baselineState"] == "new"
    assert results[VLLM]["baselineState"] == "unchanged"
    states = {f["rule"]: f.get("baseline") for f in out["json"]["findings"]}
    assert states[DEEPSPEED] == "new" and states[VLLM] == "unchanged"
    assert states[XFORMERS] == "unchanged"
    summary = out["json"]["summary"]
    assert summary["unchanged"] == 2 and summary["affected"] == 2
    # Annotations: new = error, unchanged = notice.
    lines = out["github"].splitlines()
    assert any(line.startswith("::error ") and DEEPSPEED in line for line in lines)
    assert any(line.startswith("::notice ") and VLLM in line for line in lines)
    assert not any(line.startswith("::error ") and VLLM in line for line in lines)
    # JUnit: unchanged findings are no failures.
    failed = {
        case.get("name")
        for suite in out["junit"]
        for case in suite
        if case.tag == "testcase" and case.find("failure") is not None
    }
    assert failed == {DEEPSPEED, UNSATISFIABLE}
    # GitLab: unchanged is info and says so.
    gitlab = {i["check_name"]: i for i in out["gitlab"]}
    assert gitlab[VLLM]["severity"] == "info" and gitlab[VLLM]["compat_baseline"] == "unchanged"
    assert gitlab[DEEPSPEED]["compat_baseline"] == "new"
    # Text counts only new findings, and lists the rest apart.
    assert "2 affected" in out["text"] and "2 unchanged since the baseline" in out["text"]
    errors = out["text"].split("Unchanged since the baseline")[0]
    assert VLLM not in errors and DEEPSPEED in errors
    assert out["exit"] == 1


def test_baseline_marks_each_finding_new_or_unchanged_in_every_format(repo: Path) -> None:
    requirements = write(repo / "svc" / "requirements.txt", OLD)
    baseline = check(repo / "svc", "requirements.txt", "--format", "json").stdout
    write(repo / "baseline.json", baseline)
    requirements.write_text(NEW, encoding="utf-8")
    _assert_new_and_unchanged(
        every_format(repo / "svc", "requirements.txt", "--baseline", "../baseline.json")
    )


def test_only_unchanged_findings_pass_the_gate(repo: Path) -> None:
    write(repo / "requirements.txt", NEW)
    write(repo / "baseline.json", check(repo, "requirements.txt", "--format", "json").stdout)
    result = run_subprocess(
        ["check", "--offline", "requirements.txt", "--baseline", "baseline.json"], cwd=repo
    )
    assert result.exit_code == 0, result.stdout
    verdict = result.stdout.strip().splitlines()[-1]
    assert verdict.startswith("No new known-bad combination found"), verdict
    assert "5 unchanged since the baseline" in verdict


def test_baseline_ref_judges_the_files_at_the_revision(repo: Path) -> None:
    write(repo / "svc" / "requirements.txt", OLD)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "old")
    write(repo / "svc" / "requirements.txt", NEW)
    out = every_format(repo / "svc", "requirements.txt", "--baseline-ref", "HEAD")
    _assert_new_and_unchanged(out)


def test_baseline_ref_follows_includes_and_a_new_file_is_all_new(repo: Path) -> None:
    write(repo / "base.txt", "vllm==0.10.1\n")
    write(repo / "requirements.txt", "-r base.txt\ntorch==2.7.0\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "old")
    unchanged = json.loads(
        check(repo, "requirements.txt", "--baseline-ref", "HEAD", "--format", "json").stdout
    )
    assert {f["baseline"] for f in unchanged["findings"]} == {"unchanged"}
    write(repo / "other.txt", NEW)
    fresh = json.loads(
        check(repo, "other.txt", "--baseline-ref", "HEAD", "--format", "json").stdout
    )
    assert {f["baseline"] for f in fresh["findings"]} == {"new"}


def test_baseline_ref_that_is_no_commit_is_one_line(repo: Path) -> None:
    write(repo / "requirements.txt", NEW)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "x")
    result = run_subprocess(
        ["check", "--offline", "requirements.txt", "--baseline-ref", "no-such-ref"], cwd=repo
    )
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "no-such-ref" in result.stderr


# ---------------------------------------------------------------------------------------------
# Item 6: suppression where the line is; items 6 and 11: misspelled ids are warnings


def test_an_inline_ignore_suppresses_that_rule_on_that_line(repo: Path) -> None:
    write(
        repo / "requirements.txt",
        "deepspeed==0.14.2\n"
        f"vllm==0.10.1  # compat: ignore[{VLLM}] the image pins torch for vLLM\n"
        "torch==2.7.0\n",
    )
    out = every_format(repo, "requirements.txt")
    results = sarif_results(out)
    assert results[VLLM]["suppressions"] == [
        {
            "kind": "inSource",
            "status": "accepted",
            "justification": "the image pins torch for vLLM (requirements.txt:2)",
        }
    ]
    assert "suppressions" not in results[XFORMERS]  # the other rule on that line stays
    assert [f["rule"] for f in out["json"]["suppressed"]] == [VLLM]
    assert out["json"]["summary"]["suppressed"] == 1
    assert VLLM not in {f["rule"] for f in out["json"]["findings"]}
    assert "1 suppressed" in out["text"] and "1 suppressed" in out["github"]
    assert VLLM not in {i["check_name"] for i in out["gitlab"]}
    properties = {p.get("name"): p.get("value") for p in out["junit"].iter("property")}
    assert properties["suppressed"] == "1"


def test_a_misspelled_id_is_a_warning_with_the_closest_id_in_every_format(repo: Path) -> None:
    write(
        repo / "requirements.txt",
        "vllm==0.10.1  # compat: ignore[vllm-torch-pin-mismatc] typo\ntorch==2.7.0\n",
    )
    write(
        repo / "pyproject.toml",
        '[tool.compat]\nignore = [{ id = "xformers-torch-pin-mismach", reason = "typo" }]\n',
    )
    out = every_format(repo, "requirements.txt")
    for wrong, right in (
        ("vllm-torch-pin-mismatc", VLLM),
        ("xformers-torch-pin-mismach", XFORMERS),
    ):
        said = f"names {wrong}, which is no rule id; did you mean {right}?"
        assert said in out["text"] and said in out["github"]
        assert any(said in w["message"] for w in out["json"]["warnings"])
        notes = out["sarif"]["runs"][0]["invocations"][0]["toolConfigurationNotifications"]
        assert any(said in n["message"]["text"] for n in notes)
        assert any(said in i["description"] for i in out["gitlab"])
        assert any(said in (p.get("value") or "") for p in out["junit"].iter("property"))
    # Nothing was silenced by either: both findings stand.
    assert {VLLM, XFORMERS} <= {f["rule"] for f in out["json"]["findings"]}
    assert "::warning file=requirements.txt,line=1," in out["github"]


def test_an_inline_ignore_without_a_reason_is_bad_input(repo: Path) -> None:
    write(repo / "requirements.txt", f"vllm==0.10.1  # compat: ignore[{VLLM}]\ntorch==2.7.0\n")
    result = run_subprocess(["check", "--offline", "requirements.txt"], cwd=repo)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "requirements.txt:1:" in result.stderr and "needs a reason" in result.stderr


def test_an_inline_ignore_in_pyproject_toml(repo: Path) -> None:
    write(
        repo / "pyproject.toml",
        '[project]\nname = "x"\nversion = "0"\ndependencies = [\n'
        f'  "vllm==0.10.1",  # compat: ignore[{VLLM}, xformers-*] pinned by the image\n'
        '  "torch==2.7.0",\n]\n',
    )
    out = every_format(repo, "pyproject.toml")
    assert {f["rule"] for f in out["json"]["suppressed"]} == {VLLM, XFORMERS}
    assert out["json"]["findings"] == [] or VLLM not in {f["rule"] for f in out["json"]["findings"]}


def test_select_and_ignore_take_rule_id_patterns(repo: Path) -> None:
    write(repo / "requirements.txt", NEW)
    ignored = json.loads(
        check(repo, "requirements.txt", "--ignore", "xformers-*", "--format", "json").stdout
    )
    rules = {f["rule"] for f in ignored["findings"]}
    assert XFORMERS not in rules and VLLM in rules
    chosen = json.loads(
        check(repo, "requirements.txt", "--select", "vllm-*", "--format", "json").stdout
    )
    assert {f["rule"] for f in chosen["findings"]} == {VLLM}
    typo = json.loads(
        check(
            repo, "requirements.txt", "--ignore", "xformer-torch-pin-mismatch", "-f", "json"
        ).stdout
    )
    assert any("did you mean xformers-torch-pin-mismatch" in w["message"] for w in typo["warnings"])


# ---------------------------------------------------------------------------------------------
# Item 11: findings first, notes in one line


def test_findings_come_first_and_notes_are_one_line_unless_verbose(repo: Path) -> None:
    write(repo / "requirements.txt", "torch==2.5.1\nvllm==0.6.3\ndeepspeed==0.14.2\nrich\n")
    text = check(repo, "requirements.txt").stdout
    head = text.split("Errors (")[0]
    assert "note:" not in head, head
    assert "note(s) on what was read and how (--verbose)" in text
    verbose = check(repo, "requirements.txt", "--verbose").stdout
    assert verbose.split("Errors (")[0].count("note:") == 0
    assert verbose.count("note:") > text.count("note:") >= 0
    assert "--verbose)" not in verbose


# ---------------------------------------------------------------------------------------------
# Item 5: one install per file unless the files say otherwise


def test_unrelated_requirements_files_are_separate_installs(repo: Path) -> None:
    write(repo / "docs" / "requirements.txt", "numpy==1.26.4\n")
    write(repo / "requirements.txt", "numpy==2.0.0\ntorch==2.5.1\n")
    apart = json.loads(
        check(repo, "docs/requirements.txt", "requirements.txt", "-f", "json").stdout
    )
    assert not [f for f in apart["findings"] if f["rule"].startswith("pip-check:conflict")]
    assert apart["notes"][0].startswith("judged as separate installs")
    assert "docs/requirements.txt; requirements.txt" in apart["notes"][0]
    together = json.loads(
        check(repo, "docs/requirements.txt", "requirements.txt", "--together", "-f", "json").stdout
    )
    assert "pip-check:conflict:numpy" in {f["rule"] for f in together["findings"]}


def test_a_file_that_includes_another_is_one_install_with_it(repo: Path) -> None:
    write(repo / "base.txt", "vllm==0.10.1\n")
    write(repo / "requirements.txt", "-r base.txt\ntorch==2.7.0\n")
    report = json.loads(check(repo, "requirements.txt", "base.txt", "-f", "json").stdout)
    # vllm (base.txt) against torch (requirements.txt): only one install holds both.
    assert VLLM in {f["rule"] for f in report["findings"]}
    assert not any(n.startswith("judged as separate installs") for n in report["notes"])


def test_a_project_without_requirements_beside_one_with_is_a_note(repo: Path) -> None:
    write(repo / "tools" / "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
    write(repo / "requirements.txt", OLD)
    result = check(repo, "tools/pyproject.toml", "requirements.txt", "-f", "json")
    notes = result.json()["notes"]
    assert any(n.startswith("tools/pyproject.toml: nothing to check") for n in notes), notes
    assert result.exit_code == 1  # requirements.txt's findings still fail the gate


def test_pre_commit_passes_a_staged_file_with_nothing_to_check(repo: Path) -> None:
    write(repo / "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
    plain = run_subprocess(["check", "--offline", "pyproject.toml"], cwd=repo)
    assert plain.exit_code == 3  # on the command line, nothing to check is not a clean verdict
    hook = run_subprocess(["check", "--offline", "--pre-commit", "pyproject.toml"], cwd=repo)
    assert hook.exit_code == 0, hook.stderr
    assert "nothing to check" in hook.stderr


def test_pre_commit_checks_the_project_of_a_staged_config_or_profile(repo: Path) -> None:
    write(repo / "svc" / "requirements.txt", OLD)
    write(repo / "svc" / ".compat.toml", '[check]\nfail-on = "possible"\n')
    write(repo / "svc" / ".compat" / "cluster.json", json.dumps({"schema": "compat.hardware/1"}))
    for staged in ("svc/.compat.toml", "svc/.compat/cluster.json"):
        result = run_subprocess(
            ["check", "--offline", "--pre-commit", staged, "-f", "json"], cwd=repo
        )
        assert result.exit_code == 1, (staged, result.stderr)
        assert VLLM in {f["rule"] for f in result.json()["findings"]}


def test_each_project_of_a_monorepo_keeps_its_own_waivers(repo: Path) -> None:
    write(repo / "svc-a" / "requirements.txt", OLD)
    write(repo / "svc-b" / "requirements.txt", OLD)
    write(
        repo / "svc-a" / ".compat.toml",
        f'ignore = [{{ id = "{VLLM}", reason = "svc-a runs vLLM from its own image" }}]\n',
    )
    report = json.loads(
        check(repo, "svc-a/requirements.txt", "svc-b/requirements.txt", "-f", "json").stdout
    )
    waived = [(f["rule"], f["packages"][0]["source"]) for f in report["suppressed"]]
    assert [rule for rule, _ in waived] == [VLLM]
    assert waived[0][1].startswith("svc-a/requirements.txt:")
    standing = {(f["rule"], f["packages"][0]["source"].split(":")[0]) for f in report["findings"]}
    assert (VLLM, "svc-b/requirements.txt") in standing
    assert (VLLM, "svc-a/requirements.txt") not in standing


def test_each_project_of_a_monorepo_is_judged_with_its_own_config(repo: Path) -> None:
    write(repo / "svc-a" / "requirements.txt", OLD)
    write(repo / "svc-b" / "requirements.txt", OLD)
    write(repo / "svc-a" / ".compat.toml", 'python-version = "3.9"\n')
    write(repo / "svc-b" / "pyproject.toml", '[tool.compat]\npython-version = "3.12"\n')
    for project, python in (("svc-a", "3.9"), ("svc-b", "3.12")):
        report = json.loads(check(repo, f"{project}/requirements.txt", "-f", "json").stdout)
        assert report["environment"]["python"].startswith(python), project
        assert any("judged with its project's config" in n for n in report["notes"])
    # The command line wins over any file.
    given = json.loads(
        check(repo, "svc-a/requirements.txt", "--python-version", "3.11", "-f", "json").stdout
    )
    assert given["environment"]["python"].startswith("3.11")
