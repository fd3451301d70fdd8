"""A `possible` finding must be worth a user's minute (docs/knowledge-base.md), through the CLI.

The rules here are the user's own (`--matrix`), so the semantics are tested apart from the shipped
knowledge base's version content.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

RULES = """schema: compat.matrix/1
rules:
  - id: presence-only
    title: anything with accelerate under ZeRO-3
    severity: error
    evidence: reported
    when:
      packages: {accelerate: ">=0"}
      usage: {zero_stage: 3}
    fix: {summary: none, change: none}
    references: ["https://example.org/a"]
    examples:
      affected: [{packages: {accelerate: "1.0.0"}, usage: {zero_stage: 3}}]
      clear: [{packages: {accelerate: "1.0.0"}}]
  - id: vllm-placement
    title: in-process vLLM on the training GPU
    severity: error
    evidence: reported
    when:
      packages: {trl: "<0.16"}
      usage: {vllm_device: auto}
    fix: {summary: none, change: none}
    references: ["https://example.org/b"]
    examples:
      affected: [{packages: {trl: "0.15.0"}, usage: {vllm_device: auto}}]
      possible: [{packages: {trl: "0.15.0"}}]
      clear: [{packages: {trl: "0.15.0"}, usage: {use_vllm: false}}]
  - id: checkpointing
    title: gradient checkpointing with trl before 0.16
    severity: warning
    evidence: reported
    when:
      packages: {trl: "<0.16"}
      usage: {gradient_checkpointing: true, trainer: grpo}
    fix: {summary: none, change: none}
    references: ["https://example.org/c"]
    examples:
      affected: [{packages: {trl: "0.15.0"}, usage: {gradient_checkpointing: true, trainer: grpo}}]
      possible: [{packages: {trl: "0.15.0"}, usage: {trainer: grpo}}]
      clear: [{packages: {trl: "0.15.0"}}]
  - id: old-torch-on-blackwell
    title: a hardware-only question
    severity: error
    evidence: reported
    when:
      packages: {torch: "<2.7"}
      hardware: {compute_capability: ">=10.0"}
    fix: {summary: none, change: none}
    references: ["https://example.org/d"]
    examples:
      affected: [{packages: {torch: "2.5.1"}, hardware: {gpu: B200, compute_capability: "10.0"}}]
      possible: [{packages: {torch: "2.5.1"}}]
      clear: [{packages: {torch: "2.7.0"}}]
"""


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


def found(tmp_path: Path, rules: Path, *args: str) -> dict[str, str]:
    site = make_env(tmp_path / "site", {"accelerate": "1.0.0", "trl": "0.15.0"})
    result = run_cli(
        ["doctor", "--path", str(site), "--no-probe", "--matrix", str(rules), "-f", "json", *args]
    )
    assert result.exit_code in (0, 1), result.stderr
    own = {"presence-only", "vllm-placement", "checkpointing"}
    return {f["rule"]: f["status"] for f in result.json()["findings"] if f["rule"] in own}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # accelerate>=0 anchors nothing; trl<0.16 does; a trigger waits for the run to use it.
        ([], {"vllm-placement": "possible"}),
        (["--set", "zero_stage=3"], {"presence-only": "affected", "vllm-placement": "possible"}),
        # Facts imply facts: no vLLM, no vLLM placement; SFT does not generate with vLLM.
        (["--set", "use_vllm=false"], {}),
        (["--set", "trainer=sft"], {}),
        # What the user said about the run points at the trigger rule: worth asking then.
        (["--set", "trainer=grpo"], {"vllm-placement": "possible", "checkpointing": "possible"}),
        (["--set", "trainer=grpo", "--set", "gradient_checkpointing=false"],
         {"vllm-placement": "possible"}),
        (["--set", "gradient_checkpointing=true"],
         {"vllm-placement": "possible", "checkpointing": "possible"}),
    ],
)  # fmt: skip
def test_only_questions_worth_asking(
    tmp_path: Path, rules: Path, args: list[str], expected: dict[str, str]
) -> None:
    assert found(tmp_path, rules, *args) == expected


def test_text_ranks_by_certainty(tmp_path: Path, rules: Path) -> None:
    site = make_env(tmp_path / "site", {"accelerate": "1.0.0", "trl": "0.15.0", "torch": "2.5.1"})
    args = ["doctor", "--path", str(site), "--no-probe", "--matrix", str(rules), "--no-color"]
    text = run_cli([*args, "--set", "zero_stage=3", "--set", "trainer=grpo"]).stdout
    errors, possible = text.index("Errors ("), text.index("Possible (")
    assert errors < text.index("presence-only") < possible < text.index("vllm-placement")
    assert "2 checks depend on" not in text  # the two possible checks ask different things
    assert "1 check depends on: --set vllm_device=auto|cuda:N" in text
    # Hardware-only questions on a machine with no profile: one line, not one finding each.
    assert "GPU facts: " in text and "old-torch-on-blackwell" in text.split("GPU facts: ")[1]
    assert "  old-torch-on-blackwell  [" not in text
    assert "usage: trainer=grpo, zero_stage=3" in text


def test_usage_keys_page_lists_the_vocabulary() -> None:
    from compat.usage import VOCABULARY

    page = (paths.REPO / "docs" / "usage-keys.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip().strip("`"): line.split("|")[5].strip()
        for line in page.splitlines()
        if line.startswith("| `")
    }
    assert set(rows) == set(VOCABULARY)
    assert {k for k, v in rows.items() if v == "yes"} == {
        k for k, spec in VOCABULARY.items() if spec.trigger
    }
    assert {k: v for k, v in rows.items() if v.startswith("value ")} == {
        k: "value " + ", ".join(f"`{v}`" for v in sorted(spec.trigger_values))
        for k, spec in VOCABULARY.items()
        if spec.trigger_values
    }


def test_driver_prints_as_the_driver_spells_it(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"torch": "2.11.0+cu130"})
    profile = tmp_path / "a100.json"
    profile.write_text(
        '{"schema": "compat.hardware/1", "driver_version": "535.104.05", "cuda_driver_version": '
        '"12.2", "gpus": [{"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}]}',
        encoding="utf-8",
    )
    text = run_cli(["doctor", "--path", str(site), "--hardware", str(profile), "--no-color"]).stdout
    assert "driver 535.104.05 is in <580" in text and "535.104.5" not in text


def test_an_installed_fp8_backend_is_not_fp8_training(tmp_path: Path) -> None:
    # The shipped fp8 rule on an A100: transformer-engine installed (NeMo, unsloth bring it) asks
    # nothing; a config or --set that says fp8 makes it a finding.
    site = make_env(tmp_path / "site", {"transformer-engine": "1.13.0", "torch": "2.6.0"})
    profile = tmp_path / "a100.json"
    profile.write_text(
        '{"schema": "compat.hardware/1", "driver_version": "550.54.15", "cuda_driver_version": '
        '"12.4", "gpus": [{"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}]}',
        encoding="utf-8",
    )
    args = ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json"]
    quiet = run_cli(args)
    assert quiet.exit_code == 0, quiet.stderr
    assert "fp8-needs-ada-or-hopper" not in {f["rule"] for f in quiet.json()["findings"]}
    used = run_cli([*args, "--set", "mixed_precision=fp8"])
    assert used.exit_code == 1
    [found] = [f for f in used.json()["findings"] if f["rule"] == "fp8-needs-ada-or-hopper"]
    assert found["status"] == "affected"
