"""`compat fleet --reports`: per-node reports written by real `compat doctor` runs, merged.

Each node is simulated by its own environment variables (COMPAT_PATH, COMPAT_HARDWARE and
SLURMD_NODENAME, as srun sets it), the way `srun --ntasks-per-node=1 compat doctor --format json
-o reports/%N.json` runs doctor on every node of an allocation.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.dists import make_env


def _profile(path: Path, driver: str, gpus: int) -> Path:
    path.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": driver,
                "cuda_driver_version": "12.2",
                "gpus": [
                    {"index": i, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
                    for i in range(gpus)
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


def _doctor_on_node(tmp: Path, node: str, packages: dict[str, str], driver: str) -> Path:
    """What srun runs on one node: doctor, configured by that node's environment only."""
    reports = tmp / "reports"
    reports.mkdir(exist_ok=True)
    # Nodes of one cluster share the image: the same stack is at the same path on each.
    stack = "-".join(f"{name}{version}" for name, version in sorted(packages.items()))
    site = tmp / f"site-{stack}"
    if not site.exists():
        make_env(site, packages)
    env = {
        "COMPAT_PATH": str(site),
        "COMPAT_HARDWARE": str(_profile(tmp / f"hw-{driver}.json", driver, 8)),
        "COMPAT_FORMAT": "json",
        "SLURMD_NODENAME": node,
    }
    result = run_cli(["doctor", "-o", str(reports / f"{node}.json")], env=env)
    assert result.exit_code == 0, result.stderr
    return reports


STACK = {"torch": "2.4.1+cu121", "transformers": "4.44.2", "nvidia-nccl-cu12": "2.20.5"}


@pytest.fixture
def reports(tmp_path: Path) -> Path:
    _doctor_on_node(tmp_path, "gpu01", STACK, "535.104.05")
    _doctor_on_node(tmp_path, "gpu02", STACK, "535.104.05")
    return _doctor_on_node(tmp_path, "gpu03", {**STACK, "nvidia-nccl-cu12": "2.21.5"}, "550.54.15")


def test_reports_merge_names_nodes_and_the_facts_that_differ(reports: Path) -> None:
    result = run_cli(["fleet", "--reports", str(reports), "--format", "json"])
    assert result.exit_code == 1, result.stderr  # facts differ
    document = result.json()
    assert document["schema"] == "compat.fleet/2"
    # gpu01 and gpu02 differ only in their host: one group, its report once, without host.
    assert [(g["group"], g["nodes"], g["count"], g["status"]) for g in document["groups"]] == [
        (1, "gpu[01-02]", 2, "ok"),
        (2, "gpu03", 1, "ok"),
    ]
    assert all("host" not in g["report"] for g in document["groups"])
    assert document["summary"]["nodes"] == 3 and document["summary"]["groups"] == 2
    differing = {
        h["fact"]: [(v["value"], v["count"], v["groups"]) for v in h["values"]]
        for h in document["heterogeneity"]
    }
    assert differing == {
        "hardware.driver_version": [("535.104.05", 2, [1]), ("550.54.15", 1, [2])],
        "builds.nccl": [("2.20.5", 2, [1]), ("2.21.5", 1, [2])],
    }


def test_the_same_stack_everywhere_is_clean(tmp_path: Path) -> None:
    for node in ("gpu01", "gpu02"):
        reports = _doctor_on_node(tmp_path, node, STACK, "535.104.05")
    result = run_cli(
        ["fleet", "--reports", str(reports / "gpu01.json"), str(reports / "gpu02.json")]
    )
    assert result.exit_code == 0, result.stdout
    assert "the compared facts agree on every checked node" in result.stdout


def test_a_node_without_a_report_is_reported_and_fails_unless_allowed(reports: Path) -> None:
    args = ["fleet", "--reports", str(reports), "--nodes", "gpu[01-04]", "--fail-on", "never"]
    result = run_cli(args)
    assert result.exit_code == 3
    lines = result.stdout.splitlines()
    missing = lines.index("  [3] gpu04")
    assert lines[missing + 1] == (
        "      1 node, MISSING: no report from this node (did doctor fail or not run there?)"
    )
    assert run_cli([*args, "--allow-missing"]).exit_code == 0
    # Inside an allocation the node list comes from Slurm.
    slurm = run_cli(
        ["fleet", "--reports", str(reports), "--format", "json"],
        env={"SLURM_JOB_NODELIST": "gpu[01-03],gpu05"},
    )
    assert slurm.exit_code == 3
    groups = [(g["nodes"], g["status"], g["report"]) for g in slurm.json()["groups"]]
    assert [group[:2] for group in groups] == [
        ("gpu[01-02]", "ok"),
        ("gpu03", "ok"),
        ("gpu05", "missing"),
    ]
    assert groups[2][2] is None


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{"schema": "compat.report/1", "findings": [', "invalid JSON"),
        ("[]", "not a compat report: not a JSON object"),
        ('{"schema": "compat.fleet/1"}', "expected 'compat.report/1'"),
        ('{"schema": "compat.report/1", "findings": [{"rule": 1}]}', "findings must be"),
        (b"\xff\xfe", "not UTF-8"),
    ],
)
def test_a_malformed_report_is_one_line_naming_the_file(
    reports: Path, content: str | bytes, problem: str
) -> None:
    bad = reports / "gpu09.json"
    if isinstance(content, bytes):
        bad.write_bytes(content)
    else:
        bad.write_text(content, encoding="utf-8")
    result = run_cli(["fleet", "--reports", str(reports)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"compat: error: {bad}") and problem in result.stderr


def test_markdown_output(reports: Path) -> None:
    result = run_cli(["fleet", "--reports", str(reports), "-f", "markdown"])
    assert result.exit_code == 1
    assert "| 1 | gpu[01-02] | 2 | ok: " in result.stdout
    assert "| 2 | gpu03 | 1 | ok: " in result.stdout
    assert (
        "| NVIDIA driver | 535.104.05: 2 nodes (group 1)<br>550.54.15: 1 node (group 2) |"
        in result.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give --ray ADDRESS or --reports DIR|FILE...: one of them"),
        (["--ray", "auto", "--reports", "x"], "one of them"),
        (["some.json"], "report files need --reports"),
        (["--reports", "nope"], "--reports nope: no such file or directory"),
        (["--reports", ".", "--set", "zero_stage=3"], "apply to --ray"),
        (["--ray", "auto", "--nodes", "a"], "--nodes applies to --reports"),
        (["--reports", ".", "--nodes", "gpu[01-"], "unclosed '['"),
    ],
)
def test_usage_errors(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.json").write_text("{}", encoding="utf-8")
    result = run_cli(["fleet", *args])
    assert result.exit_code == 2
    assert message in result.stderr


def test_empty_report_dir(tmp_path: Path) -> None:
    result = run_cli(["fleet", "--reports", str(tmp_path)])
    assert result.exit_code == 2
    assert "no *.json reports" in result.stderr


def test_reports_from_the_environment(reports: Path) -> None:
    result = run_cli(["fleet"], env={"COMPAT_REPORTS": str(reports), "COMPAT_FORMAT": "json"})
    assert result.exit_code == 1
    assert result.json()["summary"]["nodes"] == 3


def test_ray_is_imported_by_no_other_path(reports: Path) -> None:
    """`import compat`, doctor and fleet --reports never import Ray (only fleet --ray does)."""
    script = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from compat.cli import app\n"
        "runner = CliRunner()\n"
        "runner.invoke(app, ['doctor', '--no-probe'])\n"
        f"runner.invoke(app, ['fleet', '--reports', {str(reports)!r}])\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"


def test_doctor_settings_exported_for_the_nodes_do_not_break_the_merge(reports: Path) -> None:
    env = {"COMPAT_SET": "zero_stage=3", "COMPAT_NODES": "gpu[01-03]"}
    assert run_cli(["fleet", "--reports", str(reports)], env=env).exit_code == 1
    # On the command line, the contradiction is still an error.
    given = run_cli(["fleet", "--reports", str(reports), "--set", "zero_stage=3"])
    assert given.exit_code == 2


def test_reports_judged_by_other_rules_or_usage_are_said(reports: Path) -> None:
    edited = json.loads((reports / "gpu03.json").read_text(encoding="utf-8"))
    edited["knowledge_base"]["digest"] = "sha256:" + "0" * 64
    edited["usage"] = {"zero_stage": 3}
    (reports / "gpu03.json").write_text(json.dumps(edited), encoding="utf-8")
    notes = run_cli(["fleet", "--reports", str(reports), "-f", "json"]).json()["notes"]
    assert notes[0].startswith("the reports were made with different knowledge bases (")
    assert notes[0].endswith(": gpu03)")
    assert notes[1] == (
        'the reports were made with different usage facts ({}: gpu[01-02]; {"zero_stage": 3}: gpu03)'
    )
