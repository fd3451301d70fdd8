"""Fresh knowledge, and honesty when it is not (CLI, real files).

Every report states the date of the PyPI data the knowledge base was generated from
(compat/data/kb-inputs.json, written by scripts/gen_rules.py), names installed or pinned releases
newer than anything that data saw, and a clean verdict offline says how many ranged requirements
allow known-bad releases and how to judge them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

ROOT = paths.REPO
KB_INPUTS = json.loads((ROOT / "compat" / "data" / "kb-inputs.json").read_text(encoding="utf-8"))

# LLaVA's pyproject: peft, numpy and bitsandbytes unpinned beside exact torch/transformers pins.
LLAVA = """[project]
name = "llava"
version = "1.2.2.post1"
dependencies = [
    "torch==2.1.2", "torchvision==0.16.2", "transformers==4.37.2", "tokenizers==0.15.1",
    "accelerate==0.21.0", "peft", "bitsandbytes", "numpy", "einops==0.6.1",
]
"""


def test_reports_state_the_date_of_the_knowledge(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"transformers": "5.24.0", "torch": "2.9.0"})
    fetched = KB_INPUTS["fetched"]
    args = ["doctor", "--path", str(site), "--no-probe"]
    report = run_cli([*args, "--format", "json"]).json()
    assert report["knowledge_base"]["inputs_fetched"] == fetched
    assert report["knowledge_base"]["newer_than_seen"] == []  # 5.24.0 is in the data
    text = run_cli([*args, "--no-color"]).stdout
    assert f"PyPI data of {fetched['oldest']}" in text.splitlines()[0]
    markdown = run_cli([*args, "--format", "markdown"]).stdout
    assert f"PyPI data of {fetched['oldest']}" in markdown


def test_a_release_newer_than_the_knowledge_is_said_plainly(tmp_path: Path) -> None:
    newest = KB_INPUTS["newest_seen"]["transformers"]
    site = make_env(tmp_path / "site", {"transformers": "99.0.0", "torch": "2.9.0"})
    args = ["doctor", "--path", str(site), "--no-probe"]
    result = run_cli([*args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    report = result.json()
    assert report["knowledge_base"]["newer_than_seen"] == [
        {"name": "transformers", "version": "99.0.0", "newest_seen": newest}
    ]
    assert any(
        n.startswith("transformers 99.0.0 is newer than any release") for n in report["notes"]
    )
    verdict = run_cli([*args, "--no-color"]).stdout.rstrip().splitlines()[-1]
    assert "newer than the knowledge base: transformers 99.0.0" in verdict
    assert not verdict.startswith("No known-bad combination found.")


def test_offline_ranges_are_counted_on_the_verdict_line(tmp_path: Path) -> None:
    project = tmp_path / "pyproject.toml"
    # vllm 0.6.4 needs tokenizers>=0.19.1 beside tokenizers==0.15.1: the snapshot holds no install
    # of these requirements (issue 42: an install:unsatisfiable finding, both lines pinned), so
    # the ranges are judged over every release they allow (range notes) — what the verdict line
    # must count.
    project.write_text(LLAVA.replace('"einops==0.6.1",', '"einops==0.6.1", "vllm==0.6.4",'))
    # `compat check --offline` is what the pre-commit hook runs (.pre-commit-hooks.yaml).
    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())[0]["entry"].split()[1:]
    text = run_cli([*hook, "--no-color", str(project)])
    assert text.exit_code in (0, 1), text.stderr
    assert any("install:unsatisfiable" in line for line in text.stdout.splitlines())
    ranges = [line for line in text.stdout.splitlines() if "(range note, not a finding" in line]
    verdict = text.stdout.rstrip().splitlines()[-1]
    assert f"{len(ranges)} ranged requirements allow known-bad releases" in verdict
    # the install cannot happen as written: making it possible comes before running online
    assert "pin them, or make the resolve possible" in verdict and len(ranges) >= 2
    document = run_cli([*hook, "--format", "json", str(project)]).json()
    assert document["summary"]["unjudged_ranges"] == len(ranges)
    markdown = run_cli([*hook, "--format", "markdown", str(project)]).stdout
    assert f"{len(ranges)} ranged requirements allow known-bad releases" in markdown
    github = run_cli([*hook, "--format", "github", str(project)]).stdout
    [notice] = [line for line in github.splitlines() if line.startswith("::notice")]
    assert f"{len(ranges)} ranged requirements allow known-bad releases" in notice


def test_a_pinned_file_has_no_range_clause(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.1.2\ntransformers==4.37.2\nnumpy==1.26.4\n", encoding="utf-8")
    result = run_cli(["check", "--offline", "--format", "json", str(requirements)])
    assert result.exit_code == 0, result.stderr
    assert result.json()["summary"]["unjudged_ranges"] == 0


def test_kb_inputs_follow_the_recorded_inputs(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs"
    shutil.copytree(ROOT / "scripts" / "inputs", inputs)
    peft = json.loads((inputs / "peft.json").read_text())
    peft["versions"].append("0.99.0")
    (inputs / "peft.json").write_text(json.dumps(peft))
    script = [sys.executable, str(ROOT / "scripts" / "gen_rules.py"), "--check"]
    stale = subprocess.run([*script, "--inputs", str(inputs)], capture_output=True, text=True)
    assert stale.returncode == 1 and "compat/data/kb-inputs.json" in stale.stderr
    assert subprocess.run(script, capture_output=True, text=True).returncode == 0


def test_the_refresh_workflow_runs_the_refresh_and_proposes_it() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "refresh-kb.yml").read_text())
    assert "schedule" in workflow[True]  # YAML 1.1 reads the key `on` as True
    steps = workflow["jobs"]["refresh"]["steps"]
    commands = "\n".join(step.get("run", "") for step in steps)
    assert "scripts/gen_rules.py --refresh" in commands
    assert "scripts/gen_torch_builds.py --refresh" in commands
    assert any(
        str(step.get("uses", "")).startswith("peter-evans/create-pull-request") for step in steps
    )
