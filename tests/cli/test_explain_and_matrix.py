"""`compat explain LOG` and `compat matrix lint | list | show` through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
MINICPM_LOG = """\
[2024-06-03 10:12:44,101] [INFO] [stage3.py:130:__init__] Reduce bucket size 500000000
  0%|          | 0/1000 [00:00<?, ?it/s]\x1b[31m
Traceback (most recent call last):
  File "finetune.py", line 297, in <module>
    train()
  File "/usr/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 2169, in step
    self._take_model_step(lr_kwargs)
  File "/usr/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2047, in step
    self.unscale_and_clip_grads(sub_group_id, scaled_global_grad_norm)
  File "/usr/lib/python3.10/site-packages/deepspeed/runtime/zero/stage3.py", line 2117, in unscale_and_clip_grads
    self.fp32_partitioned_groups_flat[sub_group_id].grad.mul_(1. / combined_scale)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
"""


def test_explain_ranks_the_cause_the_environment_shows(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(MINICPM_LOG)
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "transformers": "4.40.0"})
    usage = [
        "--set",
        "zero_stage=3",
        "--set",
        "offload_optimizer=cpu",
        "--set",
        "gradient_clipping=1",
    ]
    result = run_cli(
        ["explain", str(log), "--path", str(site), "--no-probe", "--format", "json", *usage]
    )
    assert result.exit_code == 0, result.stderr
    matches = result.json()["matches"]
    assert matches[0]["rule"] == DS_RULE and matches[0]["verdict"] == "confirmed"
    assert matches[0]["line"] == 12
    assert set(matches[0]["frames"]) == {"stage3.py:unscale_and_clip_grads", "stage3.py:step"}
    # The same message has other known causes, whose code paths this traceback does not run
    # through: they are not called a cause.
    unrelated = {u["rule"] for u in result.json()["unrelated"]}
    assert "openrlhf-process-sequences-mask-on-cpu" in unrelated
    assert "openrlhf-process-sequences-mask-on-cpu" not in {m["rule"] for m in matches}


def test_explain_text_and_stdin(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    result = run_cli(["explain", "-", "--path", str(site), "--no-probe"], input=MINICPM_LOG)
    assert result.exit_code == 0
    first = result.stdout.splitlines()[2]
    assert first.startswith("SYMPTOM-ONLY  deepspeed-zero3-offload-clip-device-mismatch")
    assert "log line 12: RuntimeError: Expected all tensors" in result.stdout


def test_explain_nothing_known(tmp_path: Path) -> None:
    log = tmp_path / "ok.log"
    log.write_text("epoch 1 loss 0.3\nepoch 2 loss 0.2\n")
    result = run_cli(
        ["explain", str(log), "--path", str(make_env(tmp_path / "s", {"x": "1"})), "--no-probe"]
    )
    assert result.exit_code == 1
    assert "no known cause found" in result.stdout


def test_explain_unreadable_log(tmp_path: Path) -> None:
    result = run_cli(["explain", str(tmp_path / "missing.log"), "--no-probe"])
    assert result.exit_code == 2
    assert result.stderr.startswith("compat: error: ") and "cannot read log" in result.stderr


def test_matrix_lint_passes_on_the_shipped_knowledge_base() -> None:
    result = run_cli(["matrix", "lint"])
    assert result.exit_code == 0, result.stderr
    assert "rules in" in result.stdout and "OK" in result.stdout
    shipped = paths.MATRIX
    for target in (shipped, shipped / "trl.yaml"):  # naming shipped files is not a duplicate
        named = run_cli(["matrix", "lint", str(target)])
        assert named.exit_code == 0, named.stderr


GOOD_RULE = """\
schema: compat.matrix/1
rules:
  - id: my-team-torch-pin
    title: our cluster image needs torch 2.3
    severity: warning
    evidence: reported
    when:
      packages: {torch: ">=2.4"}
    fix: {summary: stay on 2.3, constraints: ["torch<2.4"]}
    references: ["https://wiki.example.org/cluster-image"]
    examples:
      affected: [{packages: {torch: "2.4.1"}}]
      clear: [{packages: {torch: "2.3.1"}}]
"""


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (
            ("severity: warning", "severity: fatal"),
            "rules.yaml:5: severity must be error, warning or info",
        ),
        (('torch: ">=2.4"', 'torch: ">=2.4.x"'), "rules.yaml:8: invalid specifier for torch"),
        (
            ('clear: [{packages: {torch: "2.3.1"}}]', 'clear: [{packages: {torch: "2.4.0"}}]'),
            "example expected clear, got affected",
        ),
        (
            ('constraints: ["torch<2.4"]', 'constraints: ["torch<2.5"]'),
            "do not exclude this affected example",
        ),
        (
            ("id: my-team-torch-pin", "id: deepspeed-zero3-offload-clip-device-mismatch"),
            "duplicate rule id",
        ),
        (("references: [", "references: [not-a-url, "), "is not an http(s) URL"),
        (
            ('      packages: {torch: ">=2.4"}', "      usage: {zero_stage: 3}"),
            "when needs a package",
        ),
        (
            (
                '      packages: {torch: ">=2.4"}',
                '      packages: {torch: ">=0"}\n      usage: {zero_stage: 3}',
            ),
            "rule my-team-torch-pin: no specific condition anchors it",
        ),
        (
            ("title: our", "title: [our"),
            "rules.yaml:5: invalid YAML: ",  # file:line, not PyYAML's wording
        ),
    ],
)
def test_matrix_lint_rejects_broken_rules_with_file_and_line(
    tmp_path: Path, edit: tuple[str, str], fragment: str
) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(GOOD_RULE.replace(*edit))
    result = run_cli(["matrix", "lint", str(rules)])
    assert result.exit_code == 2
    assert fragment in result.stderr


def test_user_rules_join_the_check(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(GOOD_RULE)
    assert run_cli(["matrix", "lint", str(rules)]).exit_code == 0
    site = make_env(tmp_path / "site", {"torch": "2.4.1"})
    result = run_cli(
        ["doctor", "--path", str(site), "--no-probe", "--matrix", str(rules), "--format", "json"]
    )
    findings = {f["rule"]: f["status"] for f in result.json()["findings"]}
    assert findings["my-team-torch-pin"] == "affected"


def test_matrix_list_and_show() -> None:
    listing = run_cli(["matrix", "list", "--format", "json"]).json()
    ids = [r["id"] for r in listing["rules"]]
    assert DS_RULE in ids and len(ids) == len(set(ids))
    shown = run_cli(["matrix", "show", DS_RULE])
    assert shown.exit_code == 0
    assert (
        "deepspeed!=0.14.1,!=0.14.2" in shown.stdout
        and "https://github.com/deepspeedai/DeepSpeed/pull/5461" in shown.stdout
    )
    document = json.loads(run_cli(["matrix", "show", DS_RULE, "--format", "json"]).stdout)
    assert document["examples"] and document["evidence"] == "verified"
    missing = run_cli(["matrix", "show", "deepspeed-zero3-offload-clip"])
    assert (
        missing.exit_code == 2
        and "did you mean deepspeed-zero3-offload-clip-device-mismatch" in missing.stderr
    )


def test_help_has_examples() -> None:
    for command in (["doctor"], ["check"], ["pin"], ["explain"], ["probe"], ["matrix", "lint"]):
        result = run_cli([*command, "--help"])
        assert result.exit_code == 0
        assert "Example" in result.stdout, command


def test_a_rule_names_its_own_file_whatever_the_cache_holds(tmp_path: Path) -> None:
    """Two copies of one rule file (two installs, two checkouts) share a cache directory: each
    run names the file it read, not the one that filled the cache first."""
    rule = "schema: compat.matrix/1\nrules:\n" + (
        "- id: team-torch-pin\n"
        "  title: our cluster needs torch 2.4\n"
        "  severity: error\n"
        "  evidence: reported\n"
        "  when: {packages: {torch: '<2.4'}}\n"
        "  fix: {summary: upgrade torch, constraints: ['torch>=2.4']}\n"
        "  references: ['https://example.org/team/runbook']\n"
        "  examples:\n"
        "    affected: [{packages: {torch: '2.3.0'}}]\n"
        "    clear: [{packages: {torch: '2.4.0'}}]\n"
    )
    env = {"COMPAT_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("first", "second", "first"):
        (tmp_path / name).mkdir(exist_ok=True)
        (tmp_path / name / "team.yaml").write_text(rule)
        args = ["matrix", "show", "team-torch-pin", "--matrix", str(tmp_path / name)]
        shown = run_cli([*args, "--format", "json"], env=env)
        assert shown.exit_code == 0, shown.stderr
        assert json.loads(shown.stdout)["source"] == f"{tmp_path / name / 'team.yaml'}:3"
