"""`compat explain` on real crash logs (tests/data/logs, see PROVENANCE.md): the rule, the
verdict the log's own facts support, the line numbers, and unrelated crashes left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

LOGS = paths.LOGS
DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
TRL_RULE = "trl-grpo-inprocess-vllm-device-mismatch"
COMPOSITE = LOGS / "composite-minicpm-deepspeed-0.14.2.log"


def explain(*args: str) -> tuple[int, dict[str, object]]:
    result = run_cli(["explain", *args, "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert document["schema"] == "compat.explain/1"
    return result.exit_code, document


@pytest.mark.parametrize(
    ("log", "rule", "verdict", "line", "exit_code"),
    [
        ("composite-minicpm-deepspeed-0.14.2.log", DS_RULE, "confirmed", 23, 0),
        ("deepspeed-5538-zero3-cpu-offload.log", DS_RULE, "symptom-only", 26, 0),
        ("llamafactory-3583-zero3-offload.log", DS_RULE, "symptom-only", 17, 0),
        ("qwen-566-zero3-offload.log", DS_RULE, "symptom-only", 29, 0),
        ("open-r1-129-grpo-inprocess-vllm.log", TRL_RULE, "symptom-only", 19, 0),
        ("trl-2851-grpo-accelerate-config.log", TRL_RULE, "symptom-only", 43, 0),
        # The near miss: TRL 0.16.0.dev0 and vLLM 0.7.3, both outside the rule's range.
        ("trl-3008-grpo-vllm-0.7.3.log", TRL_RULE, "outside-range", 15, 1),
    ],
)
def test_real_logs_rank_the_right_rule_first(
    log: str, rule: str, verdict: str, line: int, exit_code: int
) -> None:
    code, document = explain(str(LOGS / log))
    matches = document["matches"]
    assert isinstance(matches, list)
    assert matches[0]["rule"] == rule
    assert matches[0]["verdict"] == verdict
    assert matches[0]["line"] == line
    text = (LOGS / log).read_bytes().split(b"\n")[line - 1].decode()
    assert matches[0]["text"] in text  # the quoted text is that very line (grep -n numbering)
    assert code == exit_code


def test_confirmed_rests_on_numbered_lines_with_the_facts_read() -> None:
    _, document = explain(str(COMPOSITE))
    match = document["matches"][0]  # type: ignore[index]
    roles = {(r["role"], r["line"]) for r in match["rests_on"]}
    assert ("symptom", 23) in roles and ("frame", 21) in roles and ("frame", 19) in roles
    facts = {f["fact"]: (f["value"], f["line"]) for f in match["facts"]}
    assert facts == {
        "packages.deepspeed": ("0.14.2", 3),
        "usage.zero_stage": ("3", 11),
        "usage.offload_optimizer": ("cpu", 9),
        "usage.gradient_clipping": ("1.0", 7),
    }
    lines = COMPOSITE.read_text().split("\n")
    for fact in match["facts"]:
        assert fact["text"] in lines[fact["line"] - 1]


def test_the_same_log_with_a_fixed_deepspeed_is_outside_the_range(tmp_path: Path) -> None:
    log = tmp_path / "fixed.log"
    log.write_text(COMPOSITE.read_text().replace("version=0.14.2", "version=0.14.4"))
    code, document = explain(str(log))
    assert code == 1  # the message is known, but not its cause here
    assert document["matches"][0]["verdict"] == "outside-range"  # type: ignore[index]
    result = run_cli(["explain", str(log)])
    # one of them the Python its package paths name (lib/python3.10/site-packages)
    assert result.stdout.startswith(f"{log}: no known cause found (8 fact(s) read from the log)")
    assert f"OUTSIDE-RANGE {DS_RULE}" in result.stdout
    assert "packages.deepspeed = 0.14.4 (line 3: " in result.stdout


def test_unrelated_crash_sharing_the_message_is_not_a_cause() -> None:
    code, document = explain(str(LOGS / "llamafactory-2493-qwen-rotary.log"))
    assert code == 1
    assert document["matches"] == []
    unrelated = {u["rule"]: u for u in document["unrelated"]}  # type: ignore[union-attr]
    assert DS_RULE in unrelated and unrelated[DS_RULE]["line"] == 38
    assert "stage3.py:unscale_and_clip_grads" in unrelated[DS_RULE]["reason"]
    text = run_cli(["explain", str(LOGS / "llamafactory-2493-qwen-rotary.log")]).stdout
    assert "no known cause found" in text and f"not a cause: {DS_RULE} (line 38)" in text


def test_near_miss_shows_the_versions_that_place_it_outside() -> None:
    _, document = explain(str(LOGS / "trl-3008-grpo-vllm-0.7.3.log"))
    match = document["matches"][0]  # type: ignore[index]
    facts = {f["fact"]: (f["value"], f["line"]) for f in match["facts"]}
    assert facts["packages.trl"] == ("0.16.0.dev0", 22)
    assert facts["packages.vllm"] == ("0.7.3", 37)
    assert facts["hardware.gpus"] == ("2 GPU(s)", 24)
    read = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}  # type: ignore[union-attr]
    assert read[("package", "torch")] == "2.5.1"
    assert read[("python", "python")] == "3.10.12"
    assert ("package", "deepspeed") not in read  # "not installed" is not a version


def test_ds_report_facts_and_a_warning_that_mentions_a_pin() -> None:
    code, document = explain(str(LOGS / "deepspeed-3376-ds-report.log"))
    assert code == 1 and document["matches"] == []
    read = {(f["kind"], f["key"]): (f["value"], f["line"]) for f in document["facts"]}  # type: ignore[union-attr]
    assert read == {
        ("package", "torch"): ("1.14.0a0+410ce96", 13),
        ("package", "deepspeed"): ("0.9.1", 15),
        ("build", "torch_cuda"): ("11.8", 16),
        ("python", "python"): ("3.8", 12),  # torch's install path: /usr/local/lib/python3.8/
    }  # `triton==1.0.0` inside a warning (line 17) is advice, not an installed version


def test_config_dump_and_launcher_facts_from_real_logs() -> None:
    _, document = explain(str(LOGS / "deepspeed-5538-zero3-cpu-offload.log"))
    read = {(f["kind"], f["key"]): (f["value"], f["line"]) for f in document["facts"]}  # type: ignore[union-attr]
    assert read[("usage", "zero_stage")] == ("3", 2)
    assert read[("usage", "offload_param")] == ("cpu", 4)
    assert read[("usage", "offload_optimizer")] == ("cpu", 8)
    _, document = explain(str(LOGS / "trl-2851-grpo-accelerate-config.log"))
    read = {(f["kind"], f["key"]): (f["value"], f["line"]) for f in document["facts"]}  # type: ignore[union-attr]
    assert read[("usage", "zero_stage")] == ("3", 9)
    assert read[("usage", "offload_optimizer")] == ("none", 5)
    assert read[("usage", "num_processes")] == ("8", 16)
    _, document = explain(str(LOGS / "qwen-566-zero3-offload.log"))
    read = {(f["kind"], f["key"]): (f["value"], f["line"]) for f in document["facts"]}  # type: ignore[union-attr]
    assert read[("usage", "distributed")] == ("deepspeed", 26)
    _, document = explain(str(LOGS / "open-r1-129-grpo-inprocess-vllm.log"))
    match = document["matches"][0]  # type: ignore[index]
    assert match["rank"] == 0
    assert match["frames"] == ["grpo_trainer.py:__init__", "llm.py:__init__"]
    # The trainer is read from the traceback's grpo_trainer.py frame.
    assert ("usage.trainer", "grpo", 7) in [
        (f["fact"], f["value"], f["line"]) for f in match["facts"]
    ]


def test_environment_and_settings_take_precedence_and_disagreements_are_reported(
    tmp_path: Path,
) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.4"})
    code, document = explain(str(COMPOSITE), "--path", str(site), "--set", "gradient_clipping=0")
    disagreements = {d["fact"]: d for d in document["disagreements"]}  # type: ignore[union-attr]
    assert disagreements["packages.deepspeed"]["log"] == {"value": "0.14.2", "line": 3}
    assert disagreements["packages.deepspeed"]["given"]["value"] == "0.14.4"
    assert disagreements["usage.gradient_clipping"]["log"] == {"value": "1.0", "line": 7}
    assert disagreements["usage.gradient_clipping"]["given"] == {"value": "0.0", "from": "--set"}
    assert document["matches"][0]["verdict"] == "outside-range"  # type: ignore[index]
    assert code == 1
    text = run_cli(["explain", str(COMPOSITE), "--path", str(site)]).stdout
    assert "disagreement: packages.deepspeed: the log shows 0.14.2 (line 3)" in text


def test_deepspeed_config_file_settles_what_the_log_does_not_show(tmp_path: Path) -> None:
    config = tmp_path / "ds.json"
    config.write_text(
        json.dumps(
            {
                "gradient_clipping": 1.0,
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
            }
        )
    )
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    _, document = explain(
        str(LOGS / "llamafactory-3583-zero3-offload.log"),
        "--path",
        str(site),
        "--deepspeed-config",
        str(config),
    )
    match = document["matches"][0]  # type: ignore[index]
    assert match["verdict"] == "confirmed"
    given = [f for f in match["facts"] if f["fact"] == "usage.zero_stage"]
    assert given[0]["line"] is None and str(config) in given[0]["text"]


def test_a_later_traceback_does_not_make_an_error_unrelated(tmp_path: Path) -> None:
    """Frames after the error line count only for interleaved ranks: a traceback printed
    after it (a second, unrelated crash) is not its code path."""
    log = tmp_path / "two.log"
    log.write_text(
        "RuntimeError: Expected all tensors to be on the same device, but found at least two "
        "devices, cuda:0 and cpu!\n"
        "Traceback (most recent call last):\n"
        '  File "/x/wandb/sdk/wandb_run.py", line 2210, in _atexit_cleanup\n'
        "KeyboardInterrupt\n"
    )
    code, document = explain(str(log))
    # (rules about packages this log never names are set apart for that reason alone: issue 40)
    unrelated = document["unrelated"]
    assert isinstance(unrelated, list)
    assert code == 0 and all("never mentions" in u["reason"] for u in unrelated)
    assert document["matches"][0]["verdict"] == "symptom-only"  # type: ignore[index]


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        (
            "vllm-10147-torch-collect-env.log",
            {
                ("package", "torch"): ("2.5.1+cu118", 5),
                ("build", "torch_cuda"): ("11.8", 7),
                ("python", "python"): ("3.10.15", 16),
                ("gpu", "0"): ("Tesla V100S-PCIE-32GB", 22),
                ("gpu", "1"): ("Tesla V100S-PCIE-32GB", 23),
                ("gpu", "2"): ("Tesla V100S-PCIE-32GB", 24),
            },
        ),
        (
            "vllm-21310-collect-env-aligned.log",
            {
                ("package", "torch"): ("2.5.1+cu124", 18),
                ("build", "torch_cuda"): ("12.4", 20),
                ("python", "python"): ("3.10.16", 26),
            },
        ),
        (
            "deepspeedexamples-475-nvidia-smi.log",
            {
                ("driver", "driver"): ("530.30.02", 4),
                ("cuda_driver", "cuda_driver"): ("12.1", 4),
                ("gpu", "0"): ("NVIDIA A100 80GB PCIe", 10),
                ("gpu", "1"): ("NVIDIA A100 80GB PCIe", 14),
            },
        ),
        (  # the R610+ header: KMD Version / CUDA UMD Version (issue 34)
            "sglang-27487-r610-nvidia-smi.log",
            {
                ("driver", "driver"): ("610.43.02", 3),
                ("cuda_driver", "cuda_driver"): ("13.3", 3),
                ("gpu", "0"): ("NVIDIA B200", 9),
                ("gpu", "1"): ("NVIDIA B200", 13),
            },
        ),
        (
            "deepspeed-6567-conda-list.log",
            {
                ("package", "annotated-types"): ("0.7.0", 5),
                ("package", "cmake"): ("3.26.4", 11),
                ("package", "cuda-cudart-dev"): ("12.1.55", 17),  # read past rows named _...
            },
        ),
        (
            "vllm-4211-pip3-versions.log",
            {
                ("package", "torch"): ("2.2.1", 6),
                ("package", "nvidia-nccl-cu12"): ("2.19.3", 5),
                ("package", "vllm-nccl-cu12"): ("2.18.1.0.3.0", 10),
            },
        ),
    ],
)
def test_environment_reports_from_real_issues(
    log: str, expected: dict[tuple[str, str], tuple[str, int]]
) -> None:
    code, document = explain(str(LOGS / log))
    assert code == 1 and document["matches"] == []
    read = {(f["kind"], f["key"]): (f["value"], f["line"]) for f in document["facts"]}  # type: ignore[union-attr]
    assert expected.items() <= read.items()
    if log.startswith("vllm-10147"):
        assert len([k for k in read if k[0] == "gpu"]) == 3
