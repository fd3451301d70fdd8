"""The packaged GitHub Action (action.yml, issue 35 item 2), run here as a runner runs it: its
steps read from action.yml, their `${{ }}` expressions evaluated the way GitHub does for the
few forms it uses (any other form fails the test), each `run:` script executed by bash with
the GITHUB_* files and variables a runner gives, on a fixture repository."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.lib import paths
from tests.lib.hardware import profile_file

ACTION: dict[str, Any] = yaml.safe_load(paths.ACTION.read_text())
SARIF = json.loads(paths.SARIF_SCHEMA.read_text())
# vllm 0.10.1 pins torch 2.7.1; deepspeed 0.14.2 cannot resume on torch 2.6+: affected findings.
STACK = "deepspeed==0.14.2\nvllm==0.10.1\ntorch==2.7.0\n"
INSTALLED = str(Path(sys.executable).with_name("compat"))  # this checkout, installed -e
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
UPLOAD = "github/codeql-action/upload-sarif"
CLAUSE = re.compile(r"^([\w.-]+)\s*(==|!=)\s*'([^']*)'$")


@dataclass
class Run:
    """One run of the action's steps: what each step printed and returned, and its outputs."""

    workspace: Path
    action_path: Path = paths.REPO
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)
    stdout: dict[str, str] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)
    used: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # `uses:` steps reached
    outcomes: dict[str, str] = field(default_factory=dict)  # steps.<id>.outcome
    summary: str = ""

    def uses(self, action: str) -> list[dict[str, str]]:
        """The `with:` of each step reached that uses `action` (owner/repo[/path], no ref)."""
        return [with_ for uses, with_ in self.used if uses.split("@")[0] == action]


def lookup(name: str, inputs: dict[str, str], run: Run) -> str:
    parts = name.split(".")
    if parts[0] == "inputs" and len(parts) == 2:
        return inputs[parts[1]]
    if parts == ["github", "action_path"]:
        return str(run.action_path)
    if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
        return run.outputs.get(parts[1], {}).get(parts[3], "")
    if parts[0] == "steps" and len(parts) == 3 and parts[2] == "outcome":
        return run.outcomes.get(parts[1], "")  # a step not reached yet has no outcome
    raise AssertionError(f"action.yml uses an expression this runner does not know: {name}")


def substitute(text: str, inputs: dict[str, str], run: Run) -> str:
    return EXPRESSION.sub(lambda m: lookup(m.group(1), inputs, run), text)


def condition(text: str, inputs: dict[str, str], run: Run) -> bool:
    """`if:` as GitHub reads the forms action.yml uses: clauses `X == 'v'` / `X != 'v'` joined by
    `&&` (a status function such as always() fails the test: this runner does not model it)."""
    expression = EXPRESSION.fullmatch(text.strip())
    body = expression.group(1) if expression else text
    result = True
    for clause in body.split("&&"):
        match = CLAUSE.match(clause.strip())
        assert match, f"action.yml uses a condition this runner does not know: {clause}"
        value = lookup(match.group(1), inputs, run)
        result &= (value == match.group(3)) == (match.group(2) == "==")
    return result


def read_outputs(path: Path) -> dict[str, str]:
    """$GITHUB_OUTPUT's `name=value` lines and `name<<DELIMITER` blocks."""
    outputs: dict[str, str] = {}
    lines = iter(path.read_text().splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            for item in lines:
                if item == delimiter:
                    break
                block.append(item)
            outputs[name] = "\n".join(block)
        elif line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


def run_action(
    workspace: Path,
    given: dict[str, str],
    *,
    install: bool = False,
    env: dict[str, str] | None = None,
    failing: frozenset[str] = frozenset(),
    action_path: Path = paths.REPO,
) -> Run:
    """The action's steps as a runner takes them. `failing`: the `uses:` actions (owner/repo/path,
    no ref) that fail here, as the SARIF upload does on a fork's pull request; every other
    `uses:` step succeeds without outputs (a cache restore then misses)."""
    specs = ACTION["inputs"]
    assert set(given) <= set(specs), set(given) - set(specs)
    inputs = {name: str(spec.get("default", "")) for name, spec in specs.items()}
    inputs.update(given)
    missing = [n for n, s in specs.items() if s.get("required") and not inputs[n]]
    assert not missing, missing
    run = Run(workspace, action_path)
    temp = workspace.parent / "runner-temp"
    temp.mkdir(exist_ok=True)
    summary = workspace.parent / "step-summary.md"
    failed = False
    for index, step in enumerate(ACTION["runs"]["steps"]):
        step_id = step.get("id", f"step{index}")
        # action.yml uses no status function (always(), failure()): GitHub then reads `if:` as
        # `success() && (...)`, so nothing runs after a failed step (one that may fail,
        # `continue-on-error: true`, fails with outcome `failure` and the job goes on).
        if failed or ("if" in step and not condition(str(step["if"]), inputs, run)):
            run.outcomes[step_id] = "skipped"
            continue
        may_fail = step.get("continue-on-error", False) is True
        if "uses" in step:
            with_ = {k: substitute(str(v), inputs, run) for k, v in step.get("with", {}).items()}
            run.used.append((step["uses"], with_))
            broke = step["uses"].split("@")[0] in failing
            run.outcomes[step_id] = "failure" if broke else "success"
            failed = failed or (broke and not may_fail)
            continue
        if step_id == "install" and not install:
            # This checkout is the action's revision, installed already: the install step itself
            # runs for real in test_install_step_installs_the_actions_own_revision.
            run.outputs["locate"]["compat"] = INSTALLED
            run.outcomes[step_id] = "success"
            continue
        assert step["shell"] == "bash"
        output = workspace.parent / f"output-{step_id}"
        output.write_text("")
        step_env = {
            **os.environ,
            **(env or {}),
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_ACTION_PATH": str(action_path),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_PATH": str(workspace.parent / "path"),
            "GITHUB_ENV": str(workspace.parent / "env"),
            "RUNNER_TEMP": str(temp),
        }
        step_env.update(
            {k: substitute(str(v), inputs, run) for k, v in step.get("env", {}).items()}
        )
        assert "${{" not in step["run"], "inputs reach scripts through env:, never spliced in"
        # bash as the runner calls it for `shell: bash`
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace, env=step_env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        run.stdout[step_id] = proc.stdout + proc.stderr
        run.codes[step_id] = proc.returncode
        run.outputs[step_id] = read_outputs(output)
        run.outcomes[step_id] = "success" if proc.returncode == 0 else "failure"
        failed = failed or (proc.returncode != 0 and not may_fail)
    run.summary = summary.read_text() if summary.exists() else ""
    return run


def repository(root: Path, files: dict[str, str]) -> Path:
    workspace = root / "repo"
    for name, text in files.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text, encoding="utf-8")
    return workspace


def test_action_declares_its_inputs_and_is_composite() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"files", "hardware", "fail-on", "baseline", "compat-version"} <= set(ACTION["inputs"])
    assert ACTION["inputs"]["files"]["required"] is True
    assert {"exit-code", "sarif-file"} <= set(ACTION["outputs"])


def test_one_run_writes_annotations_summary_and_sarif(tmp_path: Path) -> None:
    workspace = repository(
        tmp_path,
        {
            "requirements.txt": STACK,
            "requirements-dev.txt": "requests==2.32.3\n",
            "extra.txt": "x==1\n",
        },
    )
    run = run_action(workspace, {"files": "requirements*.txt", "offline": "true"})
    assert run.outputs["check"]["exit-code"] == "1", run.stdout["check"]
    # annotations on the lines, from one run of compat
    assert (
        "::error file=requirements.txt,line=2,title=compat%3A vllm-torch-pin-mismatch::"
        in run.stdout["check"]
    )
    # the job summary
    assert run.summary.startswith("## compat report")
    assert "`vllm-torch-pin-mismatch`" in run.summary
    # the SARIF file, handed to the upload step
    assert run.outputs["check"]["sarif-file"] == "compat.sarif"
    sarif = json.loads((workspace / "compat.sarif").read_text())
    jsonschema.validate(sarif, SARIF)
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"vllm-torch-pin-mismatch"}
    artifacts = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in sarif["runs"][0]["results"]
    }
    assert artifacts == {"requirements.txt"}  # the glob found both files; extra.txt not named
    (with_,) = run.uses(UPLOAD)
    assert with_ == {"sarif_file": "compat.sarif", "category": "compat"}
    # the gate fails the job, after the upload
    assert run.codes["gate"] == 1
    assert "::warning title=compat::" not in "".join(run.stdout.values())  # the upload worked


def test_fail_on_never_passes_and_upload_can_be_turned_off(tmp_path: Path) -> None:
    workspace = repository(tmp_path, {"reqs/a.txt": STACK})
    run = run_action(
        workspace,
        {"files": "reqs/a.txt", "offline": "true", "fail-on": "never", "upload-sarif": "false",
         "sarif-file": "out.sarif"},
    )  # fmt: skip
    assert run.outputs["check"] == {"exit-code": "0", "sarif-file": "out.sarif"}
    assert "::error file=reqs/a.txt" in run.stdout["check"]  # still annotated
    assert run.uses(UPLOAD) == [] and run.codes["gate"] == 0


def test_hardware_profile_input_judges_the_hardware_rules(tmp_path: Path) -> None:
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    without = run_action(workspace, {"files": "requirements.txt", "offline": "true"})
    sarif = json.loads((workspace / "compat.sarif").read_text())
    assert sarif["runs"][0]["properties"].get("hardwareOnlyPossibleNotReported"), without.stdout
    profile = profile_file(workspace / ".compat")
    run = run_action(
        workspace,
        {
            "files": "requirements.txt",
            "offline": "true",
            "hardware": str(profile.relative_to(workspace)),
        },
    )
    sarif = json.loads((workspace / "compat.sarif").read_text())
    assert "hardwareOnlyPossibleNotReported" not in sarif["runs"][0]["properties"], run.stdout


def test_dependency_bot_recipe_fails_only_on_what_the_pr_adds(tmp_path: Path) -> None:
    """docs/ci.md's recipe: the base branch's report is the baseline; a bot PR that bumps torch
    alone fails only on the findings that bump brings."""
    workspace = repository(tmp_path, {"requirements.txt": "deepspeed==0.14.2\ntorch==2.5.1\n"})
    base = subprocess.run(
        [INSTALLED, "check", "requirements.txt", "--offline", "--format", "json",
         "-o", str(tmp_path / "baseline.json"), "--fail-on", "never"],
        cwd=workspace, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert base.returncode == 0, base.stderr
    inputs = {
        "files": "requirements.txt",
        "offline": "true",
        "baseline": str(tmp_path / "baseline.json"),
    }
    # an unrelated bump: the old findings stay annotated, the gate passes
    (workspace / "requirements.txt").write_text(
        "deepspeed==0.14.2\ntorch==2.5.1\nrequests==2.32.3\n"
    )
    same = run_action(workspace, inputs)
    assert same.outputs["check"]["exit-code"] == "0", same.stdout["check"]
    assert same.codes["gate"] == 0
    # the bot bumps torch alone: deepspeed 0.14.2 cannot resume on torch 2.6+, new: the gate fails
    (workspace / "requirements.txt").write_text("deepspeed==0.14.2\ntorch==2.7.0\n")
    bumped = run_action(workspace, inputs)
    assert bumped.outputs["check"]["exit-code"] == "1", bumped.stdout["check"]
    assert "deepspeed-pre-0.16-resume-on-torch-2.6" in bumped.stdout["check"]
    assert bumped.codes["gate"] == 1


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ({"files": "missing.txt"}, "2"),  # compat's own one-line error
        ({"files": "requirements.txt", "hardware": "nope.json"}, "2"),
        ({"files": "requirements.txt", "fail-on": "sometimes"}, "2"),
        ({"files": "   \n  "}, "2"),
    ],
)
def test_bad_inputs_fail_the_gate_without_an_upload(
    tmp_path: Path, given: dict[str, str], code: str
) -> None:
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    run = run_action(workspace, {"offline": "true", **given})
    assert run.outputs["check"].get("exit-code") == code, run.stdout
    assert "sarif-file" not in run.outputs["check"] and run.uses(UPLOAD) == []
    assert run.codes["gate"] == int(code)


def test_inputs_never_run_as_shell(tmp_path: Path) -> None:
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    marker = tmp_path / "pwned"
    run = run_action(
        workspace, {"files": f"requirements.txt $(touch {marker})", "offline": "true",
                    "args": f"; touch {marker}"},
    )  # fmt: skip
    assert not marker.exists()
    assert run.outputs["check"]["exit-code"] == "2"  # the words are file names and arguments


def test_a_failed_upload_warns_and_the_gate_still_decides(tmp_path: Path) -> None:
    """Issue 42: a fork's pull request (read-only token) or a repository without code scanning
    fails the upload; the verdict must not go with it."""
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    run = run_action(workspace, {"files": "requirements.txt", "offline": "true"},
                     failing=frozenset({UPLOAD}))  # fmt: skip
    assert run.outcomes["upload"] == "failure"
    warnings = [line for out in run.stdout.values() for line in out.splitlines()
                if line.startswith("::warning title=compat::")]  # fmt: skip
    assert len(warnings) == 1 and "SARIF upload to code scanning failed" in warnings[0]
    assert "the gate below still decides" in warnings[0]
    assert run.codes["gate"] == 1  # the findings still fail the job
    passing = run_action(
        workspace,
        {"files": "requirements.txt", "offline": "true", "fail-on": "never"},
        failing=frozenset({UPLOAD}),
    )
    assert passing.outcomes["upload"] == "failure" and passing.codes["gate"] == 0


def test_every_action_used_is_pinned_to_a_commit() -> None:
    """A tag can be moved to other code; a commit cannot. Each `uses:` names a full commit SHA
    and, in a comment, the release it is."""
    lines = [line.strip() for line in paths.ACTION.read_text().splitlines()]
    uses = [line for line in lines if line.startswith(("uses:", "- uses:"))]
    assert len(uses) == 3, uses  # the cache restore and save, the SARIF upload
    for line in uses:
        assert re.fullmatch(r"(- )?uses: [\w.-]+/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+", line), (
            line
        )


def test_category_input_names_the_upload(tmp_path: Path) -> None:
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    run = run_action(
        workspace, {"files": "requirements.txt", "offline": "true", "category": "compat-py3.12"}
    )
    (with_,) = run.uses(UPLOAD)
    assert with_["category"] == "compat-py3.12"


def test_a_file_named_like_an_option_is_a_file(tmp_path: Path) -> None:
    """The files follow `--`: a changed file named `--output=junk.txt` is checked, and redirects
    nothing."""
    workspace = repository(tmp_path, {"--output=junk.txt": STACK})
    run = run_action(workspace, {"files": "--output=junk.txt", "offline": "true"})
    assert run.outputs["check"]["exit-code"] == "1", run.stdout["check"]
    assert "::error file=--output=junk.txt,line=2" in run.stdout["check"]
    assert not (workspace / "junk.txt").exists()


def test_the_install_is_cached_under_a_key_of_its_source(tmp_path: Path) -> None:
    """One key per revision of the action's source (or compat release) and runner Python: the
    restore and save steps use it, and a change to the source is a new key."""
    action = tmp_path / "action"
    (action / "compat").mkdir(parents=True)
    (action / "pyproject.toml").write_bytes((paths.REPO / "pyproject.toml").read_bytes())
    (action / "compat" / "__init__.py").write_text("__version__ = '0'\n")
    workspace = repository(tmp_path, {"requirements.txt": "requests==2.32.3\n"})
    inputs = {"files": "requirements.txt", "offline": "true", "upload-sarif": "false"}

    def key(**given: str) -> str:
        run = run_action(workspace, {**inputs, **given}, action_path=action)
        (restore,) = run.uses("actions/cache/restore")
        assert restore == {
            "path": run.outputs["locate"]["venv"],
            "key": run.outputs["locate"]["key"],
        }
        assert run.uses("actions/cache/save") == []  # nothing was installed: nothing to save
        return run.outputs["locate"]["key"]

    first = key()
    assert first.startswith("compat-action-") and key() == first
    (action / "compat" / "__init__.py").write_text("__version__ = '1'\n")
    assert key() not in {first}
    assert key(**{"compat-version": "0.1.0"}) not in {first, key()}


def recipes() -> list[dict[str, Any]]:
    """The workflows docs/ci.md gives, parsed."""
    text = (paths.REPO / "docs" / "ci.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(# \.github/workflows/.*?)```", text, re.S)
    return [yaml.safe_load(block) for block in blocks]


def test_the_docs_recipes_work_as_written_from_this_repository(tmp_path: Path) -> None:
    """No placeholder organisation, no release that does not exist: the action by path, every
    other action pinned to a commit, inputs the action has, files this repository has."""
    workflows = recipes()
    assert len(workflows) == 2
    for workflow in workflows:
        steps = workflow["jobs"]["compat"]["steps"]
        used = [step["uses"] for step in steps if "uses" in step]
        assert "./" in used
        for uses in used:
            assert uses == "./" or re.fullmatch(r"[\w-]+/[\w./-]+@[0-9a-f]{40}", uses), uses
        (given,) = [step["with"] for step in steps if step.get("uses") == "./"]
        assert set(given) <= set(ACTION["inputs"]), set(given) - set(ACTION["inputs"])
        names = given["files"].split()
        assert all((paths.REPO / name).is_file() for name in names), names
    # section 2's step on this repository's files (offline here: the index is the machine's)
    (given,) = [s["with"] for s in workflows[0]["jobs"]["compat"]["steps"] if s.get("uses") == "./"]
    workspace = repository(
        tmp_path, {name: (paths.REPO / name).read_text() for name in given["files"].split()}
    )
    run = run_action(workspace, {**{k: str(v) for k, v in given.items()}, "offline": "true"})
    assert run.outputs["check"]["exit-code"] == "0", run.stdout["check"]
    assert run.codes["gate"] == 0


def test_install_step_refuses_a_version_that_is_not_one(tmp_path: Path) -> None:
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    run = run_action(
        workspace, {"files": "requirements.txt", "compat-version": "0.1.0 --index-url http://x"},
        install=True,
    )  # fmt: skip
    assert run.codes["locate"] == 2 and "compat-version must be a release" in run.stdout["locate"]
    assert "check" not in run.codes and run.used == []  # nothing after a failed step runs


# Real pip installs the action's own revision and its dependencies into a new venv: 14-17 s in
# quiet fresh-clone .ci/runs, 28 s on the slowest, loaded one; under the 60 s limit, so not
# `slow` (issue 45). Integration by folder.
def test_install_step_installs_the_actions_own_revision(tmp_path: Path) -> None:
    workspace = repository(tmp_path, {"requirements.txt": STACK})
    run = run_action(workspace, {"files": "requirements.txt", "offline": "true"}, install=True)
    assert run.codes["install"] == 0, run.stdout["install"]
    compat = run.outputs["locate"]["compat"]
    assert compat.startswith(str(tmp_path / "runner-temp")) and Path(compat).exists()
    assert run.outputs["check"]["exit-code"] == "1", run.stdout["check"]
    assert (workspace / "compat.sarif").exists()
    # installed, so saved to the cache under the key the restore looked for
    key = run.outputs["locate"]["key"]
    assert run.uses("actions/cache/save") == [{"path": str(Path(compat).parent.parent), "key": key}]
    # the next run finds the install where the restore puts it: nothing installed, nothing saved
    again = run_action(workspace, {"files": "requirements.txt", "offline": "true"}, install=True)
    assert "restored from the cache" in again.stdout["install"], again.stdout["install"]
    assert "Installing" not in again.stdout["install"] and again.uses("actions/cache/save") == []
    assert again.outputs["check"]["exit-code"] == "1", again.stdout["check"]
