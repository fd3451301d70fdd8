"""`compat pin` end to end: a real index on 127.0.0.1, real environments on disk, and the real pip
resolver consuming the constraints compat writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, Faults, IndexServer
from tests.lib.doctor import doctor_findings
from tests.lib.resolvers import pip_resolve

ZERO3 = {
    "gradient_clipping": 1.0,
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
}
DEEPSPEEDS = ["0.13.5", "0.14.0", "0.14.1", "0.14.2", "0.14.3", "0.14.4", "0.15.0"]


def pin(site: Path, index: IndexServer, *args: str) -> Any:
    return run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url, *args])


def test_pin_escapes_the_deepspeed_bug_and_pip_accepts_it(tmp_path: Path) -> None:
    site = make_env(
        tmp_path / "site", {"deepspeed": "0.14.2", "transformers": "4.40.0", "torch": "2.3.0+cu121"}
    )
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [Dist("deepspeed", v, requires=["torch"]) for v in DEEPSPEEDS],
        "transformers": [Dist("transformers", "4.40.0", requires=["torch>=1.11"])],
        "torch": [Dist("torch", v) for v in ("2.2.0", "2.3.0", "2.4.0")],
    }
    with IndexServer(projects) as index:
        result = pin(site, index, "--deepspeed-config", str(config))
        assert result.exit_code == 0, result.stderr
        lines = [
            " ".join(line.split())
            for line in result.stdout.splitlines()
            if not line.startswith("#")
        ]
        assert (
            "deepspeed==0.14.3 # upgrade from 0.14.2 via deepspeed-zero3-offload-clip-device-mismatch"
            in lines
        )
        assert any(
            line.startswith("torch==2.3.0 ") and "# kept (installed), guarded by" in line
            for line in lines
        )
        assert "# knowledge base: " in result.stdout and "sha256:" in result.stdout
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        resolved = pip_resolve(index.url, constraints, ["deepspeed", "transformers"], tmp_path)
    assert resolved["deepspeed"] == "0.14.3"
    after = make_env(tmp_path / "after", resolved)
    assert "deepspeed-zero3-offload-clip-device-mismatch" not in doctor_findings(
        after, "--deepspeed-config", str(config)
    )


def test_a_fix_for_one_rule_does_not_walk_into_another(tmp_path: Path) -> None:
    # 0.14.3 escapes the ZeRO-3 bug but OpenRLHF < 0.3.0 wants DeepSpeed <= 0.14.0: jointly, 0.14.0.
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "openrlhf": "0.2.9"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [Dist("deepspeed", v) for v in DEEPSPEEDS],
        "openrlhf": [Dist("openrlhf", "0.3.6.post1", requires=["deepspeed==0.14.4"])],
    }
    with IndexServer(projects) as index:
        # The index has no openrlhf 0.2.9 for the resolver to prove with: the search alone.
        result = pin(
            site, index, "--deepspeed-config", str(config), "--format", "json", "--no-verify"
        )
    assert result.exit_code == 0, result.stderr
    pins = {p["name"]: p for p in result.json()["pins"]}
    assert pins["deepspeed"]["version"] == "0.14.0"
    assert pins["openrlhf"]["version"] == "0.2.9" and not pins["openrlhf"]["changed"]
    assert set(pins["deepspeed"]["via"]) >= {"deepspeed-zero3-offload-clip-device-mismatch"}


def test_chosen_versions_respect_dependency_metadata(tmp_path: Path) -> None:
    # trl 0.14.0 + vllm 0.7.1 on two A100s: the nearest escape is vllm 0.7.2 (trl 0.15.2's pin,
    # FlashAttention backend on Ampere), which pins torch 2.5.1 exactly, as 0.7.1 and 0.7.3 do;
    # 0.8.0 would need torch 2.6.0.
    hardware = tmp_path / "a100x2.json"
    gpu = {"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
    hardware.write_text(
        json.dumps(
            {"schema": "compat.hardware/1", "gpus": [{"index": 0, **gpu}, {"index": 1, **gpu}]}
        )
    )
    usage = ["--set", "trainer=grpo", "--set", "use_vllm=true"]
    projects = {
        "trl": [Dist("trl", "0.14.0")],
        "vllm": [Dist("vllm", v, requires=["torch==2.5.1"]) for v in ("0.7.1", "0.7.2", "0.7.3")]
        + [Dist("vllm", "0.8.0", requires=["torch==2.6.0"])],
        "torch": [Dist("torch", v) for v in ("2.5.1", "2.6.0")],
    }
    good = make_env(tmp_path / "good", {"trl": "0.14.0", "vllm": "0.7.1", "torch": "2.5.1"})
    bad = make_env(tmp_path / "bad", {"trl": "0.14.0", "torch": "2.4.0"})
    make_dist(
        bad, "vllm", "0.7.1", requires=["torch==2.4.0"]
    )  # a locally built vLLM against torch 2.4.0
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(good), "--hardware", str(hardware), "--index-url", index.url, *usage,
                          "--format", "json"])  # fmt: skip
        assert result.exit_code == 0, result.stderr
        assert {p["name"]: p["version"] for p in result.json()["pins"]}["vllm"] == "0.7.2"
        # vLLM 0.7.2 requires torch==2.5.1: torch moves along with it (a joint move).
        result = run_cli(["pin", "--path", str(bad), "--hardware", str(hardware), "--index-url", index.url, *usage,
                          "--format", "json"])  # fmt: skip
        assert result.exit_code == 0, result.stderr
        pins = {p["name"]: p for p in result.json()["pins"]}
        assert pins["vllm"]["version"] == "0.7.2" and pins["trl"]["version"] == "0.14.0"
        assert pins["torch"]["version"] == "2.5.1" and pins["torch"]["action"] == "upgrade"
        assert pins["torch"]["companion"] == "vllm 0.7.2 requires torch==2.5.1"
        # With torch kept (the user's word), no fixed vLLM release agrees with it.
        result = run_cli(["pin", "--path", str(bad), "--hardware", str(hardware), "--index-url", index.url, *usage,
                          "--keep", "torch", "--format", "json"])  # fmt: skip
    pins = {p["name"]: p for p in result.json()["pins"]}
    assert pins["torch"]["version"] == "2.4.0" and pins["torch"]["action"] == "kept"
    assert pins["vllm"]["version"] not in (
        "0.7.2",
        "0.7.3",
        "0.8.0",
    )  # all contradict the kept torch
    assert result.exit_code == 1
    assert (
        result.json()["unresolved"][0]["rule"]
        == "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1"
    )


def test_unresolvable_rule_is_reported_and_exit_1(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    with IndexServer(
        {"deepspeed": [Dist("deepspeed", "0.14.1"), Dist("deepspeed", "0.14.2")]}
    ) as index:
        result = pin(site, index, "--deepspeed-config", str(config))
    assert result.exit_code == 1
    assert "# UNRESOLVED deepspeed-zero3-offload-clip-device-mismatch" in result.stdout
    assert "could not escape deepspeed-zero3-offload-clip-device-mismatch" in result.stderr


def test_yanked_and_python_incompatible_versions_are_never_chosen(tmp_path: Path) -> None:
    site = make_env(tmp_path / "lib" / "python3.10" / "site-packages", {"deepspeed": "0.14.2"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [
            Dist("deepspeed", "0.14.2"),
            Dist("deepspeed", "0.14.3", yanked="bad upload"),
            Dist("deepspeed", "0.14.4", requires_python=">=3.11"),
            Dist("deepspeed", "0.14.5"),
        ]
    }
    with IndexServer(projects) as index:
        result = pin(site, index, "--deepspeed-config", str(config), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["pins"][0]["version"] == "0.14.5"


def test_installed_safe_versions_are_kept_and_freeze_pins_everything(tmp_path: Path) -> None:
    site = make_env(
        tmp_path / "site", {"deepspeed": "0.14.4", "requests": "2.32.3", "torch": "2.3.0+cu121"}
    )
    with IndexServer({"deepspeed": [Dist("deepspeed", "0.14.4")]}) as index:
        # requests and torch are not on this index: the search alone, without the proof.
        plain = pin(site, index, "--no-verify")
        frozen = pin(site, index, "--freeze", "--no-verify")
    assert plain.exit_code == 0
    body = [line for line in plain.stdout.splitlines() if not line.startswith("#")]
    assert [line.split("#")[0].rstrip() for line in body] == [
        "deepspeed==0.14.4",
        "torch==2.3.0",
    ]  # not requests
    assert (
        body[0].split("#")[1].startswith(" kept (installed), guarded by ")
    )  # the safe version is kept
    assert "installed build 2.3.0+cu121" in body[1]  # the CUDA build is named, not pinned
    frozen_body = [
        line.split("#")[0].rstrip()
        for line in frozen.stdout.splitlines()
        if not line.startswith("#")
    ]
    assert frozen_body == [
        "deepspeed==0.14.4",
        "requests==2.32.3",
        "torch==2.3.0",
    ]  # local label left off


def test_offline_uses_knowledge_base_versions_and_says_so(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    # The plan alone (--no-verify): the offline proof would install torch beside DeepSpeed
    # (the environment has none) and plan again from that install.
    result = run_cli(["pin", "--path", str(site), "--no-probe", "--offline", "--deepspeed-config", str(config),
                      "--index-url", "http://127.0.0.1:9/simple", "--no-verify"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "# candidates: offline" in result.stdout
    assert "deepspeed==0.14.3" in result.stdout  # the first fixed release the rule names


@pytest.mark.parametrize(
    "faults",
    [
        Faults(status={"deepspeed": 500}),
        Faults(malformed={"deepspeed": "json"}),
        Faults(slow={"deepspeed": 3.0}),
    ],
)
def test_index_faults_are_one_line_exit_2_and_no_output_file(
    tmp_path: Path, faults: Faults
) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    out = tmp_path / "constraints.txt"
    out.write_text("# the user's previous constraints\n")
    with IndexServer({"deepspeed": [Dist("deepspeed", "0.14.3")]}, faults=faults) as index:
        result = run_cli(
            [
                "pin",
                "--path",
                str(site),
                "--no-probe",
                "--index-url",
                index.url,
                "--timeout",
                "0.5",
                "-o",
                str(out),
            ]
        )
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("compat: error: http://127.0.0.1:")
    assert line.endswith(" (hint: use --offline to work from the cache)")
    assert out.read_text() == "# the user's previous constraints\n"


def test_dead_index(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    result = run_cli(
        ["pin", "--path", str(site), "--no-probe", "--index-url", "http://127.0.0.1:9/simple"]
    )
    assert result.exit_code == 2
    [line] = result.stderr.strip().splitlines()  # the contract, not httpx's exception name
    assert line.startswith("compat: error: http://127.0.0.1:9/simple/")
    assert "Traceback" not in result.stderr


def test_pin_from_requirement_files(tmp_path: Path) -> None:
    (tmp_path / "base.txt").write_text("torch==2.3.0\n")
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("-r base.txt\ndeepspeed==0.14.2\ntrl>=0.15,<0.17\n")
    projects = {
        "deepspeed": [Dist("deepspeed", v, requires=["torch"]) for v in DEEPSPEEDS],
        "torch": [Dist("torch", "2.3.0")],
        "trl": [Dist("trl", v) for v in ("0.15.2", "0.16.1")],
    }
    with IndexServer(projects) as index:
        result = run_cli(
            ["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url, *ZERO3_SET]
        )
        assert result.exit_code == 0, result.stderr
        pins = {
            line.split("==")[0]: line.split("==")[1].split()[0]
            for line in result.stdout.splitlines()
            if "==" in line
        }
        assert pins["deepspeed"] == "0.14.3"
        assert pins["trl"] == "0.16.1"  # the newest version the range allows
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        # The requirement file itself still says deepspeed==0.14.2 (pip would refuse the pair, as it
        # should); with the pin relaxed to a name, the constraints decide.
        resolved = pip_resolve(
            index.url, constraints, ["deepspeed", "torch", "trl>=0.15,<0.17"], tmp_path
        )
    assert resolved["deepspeed"] == "0.14.3"


ZERO3_SET = [
    "--set",
    "zero_stage=3",
    "--set",
    "offload_optimizer=cpu",
    "--set",
    "gradient_clipping=1.0",
]
