"""`compat doctor` through the CLI: realistic environments on disk, the JSON contract, exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli, run_subprocess
from tests.dists import git_install, make_dist, make_env
from tests.lib.doctor import doctor_report, finding

DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
ZERO3_OFFLOAD = {
    "train_micro_batch_size_per_gpu": "auto",
    "gradient_clipping": "auto",
    "zero_optimization": {
        "stage": 3,
        "offload_optimizer": {"device": "cpu", "pin_memory": True},
        "offload_param": {"device": "cpu", "pin_memory": True},
    },
    "bf16": {"enabled": "auto"},
}


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        ("0.13.5", None),
        ("0.14.0", None),
        ("0.14.1", "affected"),
        ("0.14.2", "affected"),
        ("0.14.2+unknown", "affected"),
        ("0.14.2rc1", "affected"),
        ("0.14.3", None),
        ("0.14.3.dev0", None),  # PEP 440: <0.14.3 excludes its pre-releases
        ("0.14.5+6eed634e", None),
        ("0.15.0", None),
    ],
)
def test_deepspeed_zero3_offload_boundaries(
    tmp_path: Path, version: str, expected: str | None
) -> None:
    site = make_env(
        tmp_path / "site", {"DeepSpeed": version, "transformers": "4.40.0", "torch": "2.1.2+cu121"}
    )
    config = write_json(tmp_path / "ds_config_zero3.json", ZERO3_OFFLOAD)
    code, report = doctor_report(site, "--deepspeed-config", str(config))
    found = finding(report, DS_RULE)
    if expected is None:
        assert found is None
        assert code == 0
    else:
        assert found is not None and found["status"] == expected
        assert found["packages"] == [
            {
                "name": "deepspeed",
                "version": version,
                "source": str(site / f"DeepSpeed-{version}.dist-info"),
            }
        ]
        assert found["fix"]["constraints"] == ["deepspeed!=0.14.1,!=0.14.2"]
        assert found["unknown"] == []
        assert found["evidence"] == "verified" and found["severity"] == "error"
        assert code == 1


def test_without_config_the_finding_is_possible_and_says_how_to_settle_it(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    code, report = doctor_report(site)
    found = finding(report, DS_RULE)
    assert found is not None and found["status"] == "possible"
    facts = {u["fact"]: u["settle_with"] for u in found["unknown"]}
    assert set(facts) == {"usage.zero_stage", "usage.offload_optimizer", "usage.gradient_clipping"}
    assert "--deepspeed-config" in facts["usage.zero_stage"]
    assert code == 0  # default --fail-on affected
    assert report["summary"] == {
        "affected": 0,
        "possible": 1,
        "needs_hardware": 0,
        "unjudged_ranges": 0,
    }
    code, _ = doctor_report(site, "--fail-on", "possible")
    assert code == 1


@pytest.mark.parametrize(
    ("ds", "expected"),
    [
        (
            {
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "none"}},
                "gradient_clipping": 1.0,
            },
            None,
        ),
        (
            {
                "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}},
                "gradient_clipping": 1.0,
            },
            None,
        ),
        (
            {
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
                "gradient_clipping": 0.0,
            },
            None,
        ),
        (
            {"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}},
            "possible",
        ),  # clipping unknown
        (
            {
                "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
                "gradient_clipping": 1.0,
            },
            "affected",
        ),
    ],
)
def test_config_decides(tmp_path: Path, ds: dict[str, Any], expected: str | None) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    _, report = doctor_report(site, "--deepspeed-config", str(write_json(tmp_path / "ds.json", ds)))
    found = finding(report, DS_RULE)
    assert (found and found["status"]) == expected


def test_set_overrides_the_config(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.1"})
    config = write_json(tmp_path / "ds.json", ZERO3_OFFLOAD)
    code, report = doctor_report(
        site, "--deepspeed-config", str(config), "--set", "gradient_clipping=0"
    )
    assert finding(report, DS_RULE) is None and code == 0


def test_accelerate_config_pulls_in_its_deepspeed_file(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    write_json(tmp_path / "ds_z3_offload.json", ZERO3_OFFLOAD)
    accelerate = tmp_path / "accelerate.yaml"
    accelerate.write_text(
        "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\n"
        "deepspeed_config:\n  deepspeed_config_file: ds_z3_offload.json\n  zero3_init_flag: true\n"
        "num_processes: 8\n",
        encoding="utf-8",
    )
    _, report = doctor_report(site, "--accelerate-config", str(accelerate))
    found = finding(report, DS_RULE)
    assert found is not None and found["status"] == "affected"
    assert report["usage"]["num_processes"] == 8


def test_openrlhf_git_window_and_releases(tmp_path: Path) -> None:
    inside = make_env(tmp_path / "a", {"deepspeed": "0.13.5"})
    make_dist(
        inside,
        "OpenRLHF",
        "0.3.1",
        direct_url=git_install("f28a665349658edcd2ea554c1d990f8f84694a5e"),
    )
    code, report = doctor_report(inside, "--set", "trainer=ppo", "--set", "use_vllm=false")
    found = finding(report, "openrlhf-process-sequences-mask-on-cpu")
    assert found is not None and found["status"] == "affected" and code == 1
    assert finding(report, DS_RULE) is None  # DeepSpeed is not the cause here

    fixed = tmp_path / "b"
    make_dist(
        fixed,
        "openrlhf",
        "0.3.1",
        direct_url=git_install("7adaedc2206fa1bcb8eda1addfa7729c06a21c12"),
    )
    _, report = doctor_report(fixed, "--set", "trainer=ppo", "--set", "use_vllm=false")
    assert finding(report, "openrlhf-process-sequences-mask-on-cpu") is None

    pypi = make_env(tmp_path / "c", {"openrlhf": "0.3.6.post1", "deepspeed": "0.14.4"})
    _, report = doctor_report(pypi, "--set", "trainer=ppo", "--set", "use_vllm=false")
    assert report["findings"] == []


def test_trl_grpo_vllm_needs_the_hardware(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"trl": "0.15.1", "vllm": "0.7.1", "torch": "2.5.1"})
    profile = write_json(
        tmp_path / "a100x2.json",
        {
            "schema": "compat.hardware/1",
            "driver_version": "535.104.05",
            "cuda_driver_version": "12.2",
            "gpus": [
                {"index": i, "name": "NVIDIA A100-SXM4-80GB", "uuid": f"GPU-{i}", "compute_capability": "8.0",
                 "memory_total_mib": 81920, "mig": False}
                for i in range(2)
            ],
        },
    )  # fmt: skip
    usage = ["--set", "trainer=grpo", "--set", "use_vllm=true"]
    result = run_cli(
        ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json", *usage]
    )
    report = result.json()
    found = finding(report, "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1")
    assert found is not None and found["status"] == "affected" and result.exit_code == 1
    # vLLM 0.7.1 is flagged on TRL's pin (PR #2860), not on a located code change
    assert found["evidence"] == "reported"
    assert finding(report, "trl-grpo-inprocess-vllm-device-mismatch") is None
    # split off that rule: check's waiver written for the old id still waives the 0.7.1 finding
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.15.1\nvllm==0.7.1\n")
    args = ["check", str(requirements), "--offline", "--hardware", str(profile), "-f", "json"]
    before = run_subprocess([*args, *usage], cwd=tmp_path)
    assert finding(before.json(), "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1")
    (tmp_path / ".compat.toml").write_text(
        'ignore = [{id = "trl-grpo-inprocess-vllm-device-mismatch", reason = "vLLM on cuda:0"}]\n'
    )
    waived = run_subprocess([*args, *usage], cwd=tmp_path)
    assert finding(waived.json(), "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1") is None
    assert report["hardware"]["gpus"][1]["name"] == "NVIDIA A100-SXM4-80GB"
    # Without hardware facts the same environment waits for a hardware profile: apart from the
    # findings (no gate fails on a machine it cannot see), saying what would settle it.
    _, report = doctor_report(site, *usage)
    assert finding(report, "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1") is None
    [waiting] = [
        f
        for f in report["needs_hardware"]
        if f["rule"] == "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1"
    ]
    assert waiting["status"] == "possible"
    assert [u["fact"] for u in waiting["unknown"]] == ["hardware.gpu_count"]
    assert "--hardware FILE" in waiting["unknown"][0]["settle_with"]
    assert report["hardware"] is None and report["summary"]["needs_hardware"] >= 1


def test_report_contract(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "trl": "0.17.0"})
    _, report = doctor_report(site, "--set", "trainer=grpo", "--set", "distributed=fsdp")
    assert report["schema"] == "compat.report/1"
    assert report["knowledge_base"]["rules"] >= 8
    assert report["knowledge_base"]["digest"].startswith("sha256:")
    assert report["environment"]["packages"] == 2
    for item in report["findings"]:
        assert set(item) >= {
            "rule", "title", "severity", "status", "evidence", "packages", "unknown", "symptoms", "fix", "references",
        }  # fmt: skip
        assert item["references"] and all(r.startswith("https://") for r in item["references"])
    statuses = [f["status"] for f in report["findings"]]
    assert statuses == sorted(statuses)  # affected before possible
    fsdp = finding(report, "trl-grpo-fsdp-ref-model-on-cpu")
    assert (
        fsdp is not None
        and fsdp["status"] == "affected"
        and fsdp["fix"]["constraints"] == ["trl>=0.18.0"]
    )


def test_duplicates_and_broken_metadata_are_reported_not_fatal(tmp_path: Path) -> None:
    first, second = (
        make_env(tmp_path / "a", {"deepspeed": "0.14.2"}),
        make_env(tmp_path / "b", {"deepspeed": "0.14.0"}),
    )
    make_dist(
        second,
        "broken",
        "1.0",
        metadata_text="Metadata-Version: 2.1\nName: broken\nVersion: not a version\n\n",
    )
    result = run_cli(
        ["doctor", "--path", str(first), "--path", str(second), "--no-probe", "--format", "json"]
    )
    assert result.exit_code == 0
    kinds = sorted(p["kind"] for p in result.json()["environment"]["problems"])
    assert kinds == ["duplicate", "invalid-version"]
    text = run_cli(["doctor", "--path", str(first), "--path", str(second), "--no-probe"]).stdout
    assert "installed twice" in text and "invalid version 'not a version'" in text


def test_clean_environment(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"requests": "2.32.3", "numpy": "2.1.0"})
    result = run_cli(["doctor", "--path", str(site), "--no-probe"])
    assert result.exit_code == 0
    assert "No known-bad combination found." in result.stdout
    assert "\x1b[" not in result.stdout  # no colour off a terminal


def test_markdown_is_a_table(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "markdown"])
    assert "| Status | Severity | Rule | Packages | Fix |" in result.stdout
    assert (
        f"| possible | error | `{DS_RULE}` | deepspeed 0.14.2 | `deepspeed!=0.14.1,!=0.14.2` |"
        in result.stdout
    )


def test_output_file_is_written_atomically_and_kept_on_failure(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    out = tmp_path / "report.json"
    out.write_text("previous report\n", encoding="utf-8")
    bad = run_cli(
        ["doctor", "--path", str(site), "--no-probe", "--set", "zero_stage=four", "-o", str(out)]
    )
    assert bad.exit_code == 2
    assert out.read_text(encoding="utf-8") == "previous report\n"
    good = run_cli(
        ["doctor", "--path", str(site), "--no-probe", "--format", "json", "-o", str(out)]
    )
    assert good.exit_code == 0 and good.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["schema"] == "compat.report/1"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report")] == []


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--set", "zero_stage=four"], "--set: zero_stage=four: expected an integer"),
        (["--set", "garbage"], "expected KEY=VALUE"),
        (["--set", "zero_stag=3"], "did you mean zero_stage"),
        (["--deepspeed-config", "{missing}"], "no such file"),
        (["--deepspeed-config", "{bad_json}"], "bad.json:3: invalid JSON"),
        (
            ["--accelerate-config", "{bad_yaml}"],
            "accelerate.yaml:3: invalid YAML: ",  # file:line, not PyYAML's wording
        ),
        (["--hardware", "{bad_profile}"], "schema is 'wrong'"),
        (["--matrix", "{bad_matrix}"], "rules.yaml:6: invalid specifier for deepspeed"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], fragment: str) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    files = {
        "missing": tmp_path / "nope.json",
        "bad_json": tmp_path / "bad.json",
        "bad_yaml": tmp_path / "accelerate.yaml",
        "bad_profile": tmp_path / "profile.json",
        "bad_matrix": tmp_path / "rules.yaml",
    }
    files["bad_json"].write_text('{\n  "zero_optimization": {\n    "stage": 3,,\n  }\n}\n')
    files["bad_yaml"].write_text("distributed_type: DEEPSPEED\nnum_processes: [8\n")
    files["bad_profile"].write_text('{"schema": "wrong", "gpus": []}')
    files["bad_matrix"].write_text(
        "schema: compat.matrix/1\nrules:\n  - id: x-rule\n    when:\n      packages:\n"
        "        deepspeed: '>=0.14,<<0.15'\n    title: t\n    severity: error\n    evidence: reported\n"
        "    fix: {summary: s, constraints: ['deepspeed<0.14']}\n    references: ['https://example.org/x']\n"
        "    examples: {affected: [{packages: {deepspeed: '0.14.1'}}], clear: [{}]}\n"
    )
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
    probe = [] if "--hardware" in args else ["--no-probe"]
    result = run_cli(["doctor", "--path", str(site), *probe, *args])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith("compat: error: ")
    assert fragment in lines[0]
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_no_distributions_is_exit_3(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run_cli(["doctor", "--path", str(empty), "--no-probe"])
    assert result.exit_code == 3
    assert "no distributions found" in result.stderr


def test_hardware_and_no_probe_contradict(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    profile = write_json(tmp_path / "p.json", {"schema": "compat.hardware/1", "gpus": []})
    result = run_cli(["doctor", "--path", str(site), "--hardware", str(profile), "--no-probe"])
    assert result.exit_code == 2 and "contradict" in result.stderr


def test_console_entry_point_and_version(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    result = run_subprocess(["doctor", "--path", str(site), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    report = result.json()
    # The live probe on a machine without a driver: hardware known, no GPU, nothing crashed.
    assert report["hardware"]["gpus"] == [] and report["hardware"]["driver_version"] is None
    version = run_subprocess(["--version"])
    assert version.exit_code == 0 and version.stdout.startswith("compat ")
