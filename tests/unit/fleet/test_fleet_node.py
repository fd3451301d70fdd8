"""The node side of `compat fleet --ray` (compat/fleet/node.py), called as a Ray worker calls it.

In the Ray tests it runs inside the workers, where coverage does not see it; here the same
function runs in this process with the node's environment variables set, and the inputs the
driver ships (compat.fleet.command.shipped_inputs) built from real files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compat.facts.gather import FactOptions
from compat.fleet.command import shipped_inputs
from compat.fleet.node import node_report
from compat.kb.knowledge import KnowledgeChoice
from tests.dists import make_env

RULE = """\
schema: compat.matrix/1
rules:
  - id: local-torch-rule
    title: a site rule about torch
    severity: warning
    evidence: reported
    when:
      packages: {torch: ">=2.0"}
    fix: {summary: upgrade, constraints: ["torch<2.0"]}
    references: ["https://example.org/local"]
    examples:
      affected: [{packages: {torch: "2.3.0"}}]
      clear: [{packages: {torch: "1.13.0"}}]
"""


@pytest.fixture
def node(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    site = make_env(tmp_path / "site", {"torch": "2.3.0+cu121", "deepspeed": "0.14.2"})
    monkeypatch.setenv("COMPAT_PATH", str(site))
    monkeypatch.setenv("COMPAT_NO_PROBE", "yes")
    return tmp_path


def test_the_driver_ships_configs_and_rules_as_text(node: Path) -> None:
    ds = node / "ds.json"
    ds.write_text(
        json.dumps(
            {
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
                "gradient_clipping": 1.0,
            }
        ),
        encoding="utf-8",
    )
    rules = node / "rules"
    rules.mkdir()
    (rules / "local.yaml").write_text(RULE, encoding="utf-8")
    inputs = shipped_inputs(FactOptions(deepspeed_config=ds), KnowledgeChoice(matrices=(rules,)))
    assert inputs["configs"]["deepspeed_config"][0] == "ds.json"
    # What the node gets is plain data: it crosses the wire as such.
    answer = node_report(json.loads(json.dumps(inputs)))
    report = answer["report"]
    statuses = {f["rule"]: f["status"] for f in report["findings"]}
    assert statuses["deepspeed-zero3-offload-clip-device-mismatch"] == "affected"
    assert statuses["local-torch-rule"] == "affected"
    assert report["hardware"] is None
    assert report["stack"]["packages"]["deepspeed"] == "0.14.2"


def test_a_bad_node_variable_is_that_nodes_error(
    node: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPAT_DOCTOR_NO_PROBE", "maybe")
    answer = node_report({})
    assert answer["exit_code"] == 2
    assert answer["error"].startswith("$COMPAT_DOCTOR_NO_PROBE='maybe' is not a boolean")


def test_a_node_with_nothing_installed_is_unchecked(
    node: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = node / "empty"
    empty.mkdir()
    monkeypatch.setenv("COMPAT_PATH", str(empty))
    answer = node_report({})
    assert answer["exit_code"] == 3
    assert "no distributions found" in answer["error"]


def test_node_hardware_and_python_from_its_variables(
    node: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPAT_NO_PROBE")
    monkeypatch.setenv("COMPAT_HARDWARE", str(node / "missing.json"))
    answer = node_report({})
    assert answer["exit_code"] == 2 and "cannot read hardware profile" in answer["error"]
    monkeypatch.delenv("COMPAT_HARDWARE")
    monkeypatch.delenv("COMPAT_PATH")
    monkeypatch.setenv("COMPAT_NO_PROBE", "1")
    monkeypatch.setenv("COMPAT_PYTHON", str(node / "no-python"))
    answer = node_report({})
    assert answer["exit_code"] == 2 and "no such file" in answer["error"]
