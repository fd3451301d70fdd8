"""A resolve that did not happen is named as one (issue 23): the resolver's verdict (the
requirements cannot be installed together, or not for the target) is kept apart from the tool's
own failure (a refused option, a source distribution it cannot build, a time-out). check says
which tool failed and why, judges offline instead, never calls the run "offline" nor the files
uninstallable, and exits 3 where no finding fails the gate; pin writes nothing and exits 3. The
resolver's ERROR lines are quoted, never its WARNING lines. Real pip and uv on an index on
127.0.0.1; the pip-before-23.3 case runs in tests/product/test_user_install.py (a venv with
pip 23.2.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.checkcli import TOOLS, by_rule, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib.schemas import problems

pytestmark = pytest.mark.usefixtures("resolver_env")

PEFT_RULE = "peft-0.14-needs-transformers-4.43"


def check_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = run_cli(["check", *args, "--format", "json"])
    assert result.exit_code in (0, 1, 3), result.stderr
    document: dict[str, Any] = result.json()
    return result.exit_code, document


def notes_of(document: dict[str, Any]) -> list[str]:
    return [str(n) for n in document["notes"]]


@TOOLS
def test_an_sdist_the_tool_cannot_build_is_a_failed_resolve_not_a_verdict(
    tmp_path: Path, tool: str
) -> None:
    # peft's only release for the range is a source distribution that is not one: the tool
    # fails to read it. That says nothing about whether the requirements install together.
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\npeft>=0.10.0\n")
    projects = {
        "transformers": [Dist("transformers", "4.40.0")],
        "peft": [Dist("peft", "0.14.0", wheel=False, metadata_file=False)],
    }
    # One run, its text on stdout and its JSON report beside it (--report): a resolve per format
    # was the same resolve twice (issue 45 item 2).
    json_report = tmp_path / "report.json"
    with IndexServer(projects) as index:
        text = run_cli(
            ["check", str(requirements), "--index-url", index.url, "--resolver", tool, "--no-probe",
             "--report", f"json={json_report}"]
        )  # fmt: skip
    assert text.exit_code == 3, text.stderr  # no finding fails the gate, and no resolve happened
    report = json.loads(json_report.read_text(encoding="utf-8"))
    assert not problems(report), problems(report)
    notes = notes_of(report)
    (failed,) = [n for n in notes if "did not resolve" in n]
    assert failed.startswith(f"{tool} ") and "failed without a verdict" in failed
    assert "ranges were judged offline" in failed
    assert not any("cannot install these requirements together" in n for n in notes)
    assert not any(n.startswith("offline") for n in notes)  # the run was online
    assert report["summary"]["resolve_failed"].startswith(f"{tool} ")
    verdict = text.stdout.rstrip().splitlines()[-1]
    # peft 0.14.0 has no wheel on the index: a build on the target whatever this machine does,
    # `possible` (issue 44 item 3; the verdict was "No known-bad combination found ...").
    build = by_rule(report)["build-from-source:peft"]
    assert build["status"] == "possible"
    assert verdict.startswith("0 affected, 1 possible")
    assert f"the resolve it rests on did not happen ({tool} " in verdict


@TOOLS
def test_a_resolve_that_happened_keeps_its_exit_status(tmp_path: Path, tool: str) -> None:
    # The same files with an installable peft: the resolver picks 0.14.0, which the rule is
    # about: affected, exit 1, and no resolve_failed.
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\npeft>=0.10.0\n")
    projects = {
        "transformers": [Dist("transformers", "4.40.0")],
        "peft": [Dist("peft", "0.10.0"), Dist("peft", "0.14.0")],
    }
    with IndexServer(projects) as index:
        code, report = check_json(
            str(requirements), "--index-url", index.url, "--resolver", tool, "--no-probe"
        )
    assert code == 1
    assert [f["rule"] for f in report["findings"]] == [PEFT_RULE]
    assert report["summary"]["resolve_failed"] is None


def test_pip_warnings_are_not_quoted_its_errors_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A find-links location that does not exist: pip warns about it on every run (the issue's
    # "Location ... is ignored"). The requirements really conflict: pip's ERROR lines say so.
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "no-such-wheelhouse"))
    requirements = write(tmp_path / "requirements.txt", "vllm==0.7.3\ntransformers<4.49\n")
    projects = {
        "vllm": [Dist("vllm", "0.7.3", requires=["transformers>=4.49.0"])],
        "transformers": [Dist("transformers", v) for v in ("4.48.2", "4.49.0")],
    }
    with IndexServer(projects) as index:
        code, report = check_json(
            str(requirements), "--index-url", index.url, "--resolver", "pip", "--no-probe"
        )
    (refused,) = [n for n in notes_of(report) if "cannot install these requirements" in n]
    assert "conflicting dependencies" in refused and "vllm" in refused
    assert "WARNING" not in refused and "is ignored" not in refused
    # A verdict: the install cannot happen (issue 42 item 1), the first finding, exit 1.
    assert report["summary"]["resolve_failed"].startswith("pip")
    assert report["findings"][0]["rule"] == "install:unsatisfiable"
    assert code == 1


def test_a_pin_with_no_distribution_for_the_target_python_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # torch 1.12.1 has no build for this Python (as PyPI's has no cp311 wheel): the file as
    # written does not resolve, because of the user's own pin, and says why in the resolver's words, not its warnings. (pip: the
    # index's wheels are py3-none-any, so the missing build is a Requires-Python bound, which
    # uv does not apply as an upper bound; uv names PyPI's missing cp311 wheel itself.)
    tool = "pip"
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "no-such-wheelhouse"))
    requirements = write(tmp_path / "requirements.txt", "torch==1.12.1\n")
    projects = {
        "torch": [
            Dist("torch", "1.12.1", requires_python="<3.10"),
            Dist("torch", "2.5.1"),
        ]
    }
    with IndexServer(projects) as index:
        result = run_cli(
            ["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
             "--resolver", tool]
        )  # fmt: skip
    # pin moves the pin (issue 44 item 6): the file as the user will edit it resolves, and is
    # what is proven; the refusal of the file as written is said first, in pip's words.
    assert result.exit_code == 0, result.stderr
    (proof,) = [line for line in result.stdout.splitlines() if line.startswith("# proof: ")]
    assert proof.startswith("# proof: pip: your requirements alone do not resolve")
    assert "with the pins this plan moves, moved (torch): pip " in proof
    assert "WARNING" not in proof and "is ignored" not in proof
    assert "torch 1.12.1 has no wheel or source distribution pip can install" in proof
    assert "ERROR: No matching distribution found for torch==1.12.1" in proof


@TOOLS
def test_pin_names_a_failed_resolve_and_judges_the_plan_offline(tmp_path: Path, tool: str) -> None:
    # The resolver cannot make the proof (peft's sdist cannot be read on this machine): pin still
    # judges its plan, against the offline solve, says the proof is not made and what that
    # leaves unproven, and exits 3 (issue 44 item 6; this was exit 3 with nothing written).
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\npeft>=0.10.0\n")
    projects = {
        "transformers": [Dist("transformers", "4.40.0")],
        "peft": [Dist("peft", "0.10.0", wheel=False, metadata_file=False)],
    }
    output = tmp_path / "constraints.txt"
    with IndexServer(projects) as index:
        result = run_cli(
            ["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
             "--resolver", tool, "-o", str(output)]
        )  # fmt: skip
    assert result.exit_code == 3, result.stderr
    text = output.read_text()
    (proof,) = [line for line in text.splitlines() if line.startswith("# proof: ")]
    assert proof.startswith(f"# proof: not proven: {tool} ") and " did not resolve (" in proof
    assert "judged instead against compat's offline solve" in proof
    assert proof.endswith(" installs what that solve picked") and "unproven: that " in proof
    assert "transformers==4.40.0" in text and "cannot install" not in text
    (line,) = [ln for ln in result.stderr.splitlines() if "did not resolve" in ln]
    assert line.startswith(f"compat: warning: {tool} ")
    assert "judged against compat's offline solve" in line


# A build backend that fails the way vllm 0.1.1's does when uv backtracks to it (TinyZero's
# pyproject.toml, tests/data/real/qa/PROVENANCE.md): a Python warning naming a file in the
# build's temporary directory, a glog line with a time stamp and a process id, and an exception
# naming a temporary directory. None of that may reach the report: the same files give the same
# answer on every run.
FAILING_BACKEND = """
import os, sys, tempfile, time, warnings

def get_requires_for_build_wheel(config_settings=None):
    here = os.path.join(tempfile.mkdtemp(), "functional_tensor.py")
    warnings.warn_explicit("Failed to initialize NumPy", UserWarning, here, 377)
    stamp = time.strftime("W%m%d %H:%M:%S") + f".{time.time_ns() % 1000000:06d} {os.getpid()}"
    sys.stderr.write(f"{stamp} cpp_extension.py:183] No CUDA runtime is found\\n")
    raise RuntimeError(f"Cannot find CUDA at CUDA_HOME: {tempfile.mkdtemp()}")

get_requires_for_build_sdist = get_requires_for_build_wheel
prepare_metadata_for_build_wheel = get_requires_for_build_wheel
build_wheel = build_sdist = get_requires_for_build_wheel
"""


@TOOLS
def test_a_failed_build_is_quoted_the_same_on_every_run(tmp_path: Path, tool: str) -> None:
    requirements = write(tmp_path / "requirements.txt", "transformers==4.40.0\npeft>=0.10.0\n")
    projects = {
        "transformers": [Dist("transformers", "4.40.0")],
        "peft": [Dist("peft", "0.14.0", wheel=False, metadata_file=False, backend=FAILING_BACKEND)],
    }
    with IndexServer(projects) as index:
        runs = [
            check_json(
                str(requirements), "--index-url", index.url, "--resolver", tool, "--no-probe"
            )
            for _ in range(2)
        ]
    (code, first), (again, second) = runs
    assert code == again == 3
    failed = first["summary"]["resolve_failed"]
    assert "Cannot find CUDA at CUDA_HOME: <temporary directory>" in failed
    assert "Warning" not in failed and "No CUDA runtime" not in failed
    assert failed == second["summary"]["resolve_failed"]
    assert notes_of(first) == notes_of(second)
