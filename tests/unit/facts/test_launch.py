"""`compat doctor -- LAUNCH COMMAND`, accelerate's default config, and which machine nvcc speaks for.

Through the CLI, with real dist-info directories, real config files and (for nvcc) a real
executable on PATH and a real virtual environment for --python.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib.doctor import doctor_report, statuses

FSDP2 = "accelerate-fsdp2-needs-torch-2.6"
BNB_HOPPER = "bitsandbytes-int8-on-hopper"
DS_CUDA13 = "deepspeed-cuda13-minor-mismatch"
FSDP2_YAML = "compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_version: 2\n"
ZERO3 = {"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}}
H100 = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [{"index": 0, "name": "NVIDIA H100 80GB HBM3", "uuid": "GPU-0",
              "compute_capability": "9.0", "memory_total_mib": 81559, "mig": False}],
}  # fmt: skip


@pytest.fixture
def torch25(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """accelerate beside torch 2.5, and a launch directory holding the configs."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fsdp.yaml").write_text(FSDP2_YAML, encoding="utf-8")
    (tmp_path / "ds.json").write_text(json.dumps(ZERO3), encoding="utf-8")
    return make_env(tmp_path / "site", {"accelerate": "1.10.0", "torch": "2.5.1"})


def test_accelerate_launch_config_file_decides_fsdp2(torch25: Path) -> None:
    assert FSDP2 not in statuses(doctor_report(torch25)[1])  # nothing says FSDP is used: silent
    _, report = doctor_report(
        torch25, launch=["accelerate", "launch", "--config_file", "fsdp.yaml", "train.py"]
    )
    assert statuses(report)[FSDP2] == "affected"
    assert report["usage"]["fsdp_version"] == 2 and report["usage"]["num_processes"] == 8
    assert any("--config_file fsdp.yaml" in note for note in report["notes"])


@pytest.mark.parametrize(
    "how",
    [
        ["--set", "distributed=deepspeed"],
        ["--deepspeed-config", "ds.json"],
        ["--", "deepspeed", "--num_gpus", "8", "train.py", "--deepspeed", "ds.json"],
        ["--", "accelerate", "launch", "--use_deepspeed", "train.py"],
    ],
)
def test_a_deepspeed_run_settles_the_fsdp_question(torch25: Path, how: list[str]) -> None:
    # FSDP is in use but its version is unknown: worth asking. DeepSpeed settles it away.
    assert statuses(doctor_report(torch25, "--set", "distributed=fsdp")[1])[FSDP2] == "possible"
    result = run_cli(["doctor", "--path", str(torch25), "--no-probe", "-f", "json", *how])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert FSDP2 not in statuses(result.json())


@pytest.mark.parametrize(
    ("launch", "usage", "used"),
    [
        (["torchrun", "--nproc_per_node", "4", "--nnodes=2", "train.py"],
         {"num_processes": 8}, "--nproc_per_node 4 --nnodes 2"),
        (["python", "-m", "torch.distributed.run", "--nproc-per-node", "2", "-m", "pkg.train"],
         {"num_processes": 2}, "--nproc_per_node 2"),
        (["deepspeed", "--include", "localhost:0,1,2", "train.py", "--deepspeed", "ds.json"],
         {"num_processes": 3, "distributed": "deepspeed", "zero_stage": 3,
          "offload_optimizer": "cpu"}, "--deepspeed ds.json"),
        (["deepspeed", "--module", "openrlhf.cli.train_ppo_ray", "--zero_stage", "3",
          "--adam_offload", "--vllm_num_engines", "2", "--gradient_checkpointing", "--bf16"],
         {"trainer": "ppo", "distributed": "deepspeed", "zero_stage": 3, "offload_optimizer": "cpu",
          "use_vllm": True, "gradient_checkpointing": True, "mixed_precision": "bf16"},
         "--adam_offload"),
        (["python3", "-u", "-m", "openrlhf.cli.train_sft", "--lora_rank", "0"],
         {"trainer": "sft", "distributed": "deepspeed", "peft": False}, "--lora_rank 0"),
        (["CUDA_VISIBLE_DEVICES=0,1", "accelerate", "launch", "--num-processes=2",
          "--mixed_precision", "bf16", "src/open_r1/grpo.py", "--use_vllm", "true",
          "--load_in_8bit"],
         {"num_processes": 2, "mixed_precision": "bf16", "trainer": "grpo", "use_vllm": True,
          "load_in_8bit": True}, "grpo.py"),
        (["train.sh"], {}, "nothing compat knows"),
    ],
)  # fmt: skip
def test_launchers_and_flags_become_usage(
    torch25: Path, launch: list[str], usage: dict[str, Any], used: str
) -> None:
    _, report = doctor_report(torch25, launch=launch)
    assert {k: report["usage"][k] for k in usage} == usage
    assert set(report["usage"]) == set(usage)
    assert any(note.startswith("launch command") and used in note for note in report["notes"])


def test_trl_cli_reads_its_recipe(torch25: Path, tmp_path: Path) -> None:
    recipe = "model_name_or_path: Qwen/Qwen2.5-0.5B\nuse_vllm: true\ngradient_checkpointing: true\nbeta: 0.0\n"
    (tmp_path / "recipe.yaml").write_text(recipe, encoding="utf-8")
    _, report = doctor_report(
        torch25, launch=["trl", "grpo", "--config", "recipe.yaml", "--beta", "0.04"]
    )
    assert report["usage"] == {
        "trainer": "grpo",
        "use_vllm": True,
        "gradient_checkpointing": True,
        "beta": 0.04,  # the command line wins over the recipe, as TrlParser does
    }


def test_eight_bit_loading_anchors_the_hopper_rule(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"bitsandbytes": "0.44.1", "torch": "2.5.1"})
    profile = tmp_path / "h100.json"
    profile.write_text(json.dumps(H100), encoding="utf-8")
    args = ["doctor", "--path", str(site), "--hardware", str(profile), "-f", "json"]
    quiet = run_cli(args)
    assert quiet.exit_code == 0 and BNB_HOPPER not in statuses(quiet.json())
    loud = run_cli([*args, "--", "python", "train.py", "--load_in_8bit", "True"])
    assert loud.exit_code == 1 and statuses(loud.json())[BNB_HOPPER] == "affected"


def test_accelerate_default_config_is_read_when_accelerate_launch_would(
    torch25: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "hf"
    (home / "accelerate").mkdir(parents=True)
    default = home / "accelerate" / "default_config.yaml"
    default.write_text(FSDP2_YAML, encoding="utf-8")
    monkeypatch.setenv("HF_HOME", str(home))
    _, report = doctor_report(torch25)
    assert statuses(report)[FSDP2] == "affected"
    assert any(str(default) in note for note in report["notes"])
    assert statuses(doctor_report(torch25, launch=["accelerate", "launch", "train.py"])[1])[FSDP2]
    # torchrun and deepspeed never read it; an explicit accelerate config replaces it.
    assert FSDP2 not in statuses(doctor_report(torch25, launch=["torchrun", "train.py"])[1])
    (tmp_path / "ddp.yaml").write_text("distributed_type: MULTI_GPU\n", encoding="utf-8")
    assert FSDP2 not in statuses(doctor_report(torch25, "--accelerate-config", "ddp.yaml")[1])
    monkeypatch.delenv("HF_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "nohome"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    (tmp_path / "xdg" / "huggingface" / "accelerate").mkdir(parents=True)
    (tmp_path / "xdg" / "huggingface" / "accelerate" / "default_config.yaml").write_text(
        FSDP2_YAML, encoding="utf-8"
    )
    assert statuses(doctor_report(torch25)[1])[FSDP2] == "affected"


@pytest.mark.parametrize(
    ("launch", "fragment"),
    [
        (["accelerate", "launch", "--config_file", "missing.yaml", "t.py"], "missing.yaml"),
        (["python", "t.py", "--deepspeed", "nope.json"], "nope.json"),
        (["FOO=1"], "names no program"),
        (["python", "t.py", "--use_vllm", "--vllm_device", ""], "vllm_device: empty value"),
    ],
)
def test_bad_launch_commands_are_one_line_and_exit_2(
    torch25: Path, launch: list[str], fragment: str
) -> None:
    result = run_cli(["doctor", "--path", str(torch25), "--no-probe", "--", *launch])
    assert result.exit_code == 2
    assert fragment in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2  # the error, and maybe a hint


def test_empty_launch_command(torch25: Path) -> None:
    result = run_cli(["doctor", "--path", str(torch25), "--no-probe", "--"])
    assert result.exit_code == 0  # `--` and nothing after it: no launch command, as click reads it


# ---------------------------------------------------------------------------------------------
# nvcc: the toolkit of the machine compat runs on


def _fake_nvcc(directory: Path, release: str) -> None:
    nvcc = directory / "nvcc"
    directory.mkdir(parents=True, exist_ok=True)
    nvcc.write_text(
        f"#!/bin/sh\necho 'Cuda compilation tools, release {release}, V{release}.41'\n",
        encoding="utf-8",
    )
    nvcc.chmod(0o755)


def test_host_nvcc_counts_only_for_the_running_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    site = venv / "lib" / version / "site-packages"
    make_env(site, {"deepspeed": "0.18.4", "torch": "2.11.0+cu130"})
    _fake_nvcc(tmp_path / "cuda" / "bin", "13.1")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "cuda"))
    profile = tmp_path / "h100.json"
    profile.write_text(json.dumps(H100), encoding="utf-8")
    here = run_cli(["doctor", "--python", str(venv / "bin" / "python"), "--no-probe", "-f", "json"])
    assert statuses(here.json()).get(DS_CUDA13) == "affected"
    for other_machine in (["--path", str(site), "--no-probe"],
                          ["--python", str(venv / "bin" / "python"), "--hardware", str(profile)]):  # fmt: skip
        result = run_cli(["doctor", *other_machine, "-f", "json"])
        assert DS_CUDA13 not in statuses(result.json()), other_machine


def test_target_dir_python_from_wheel_tags(tmp_path: Path) -> None:
    site = make_env(tmp_path / "target", {"vllm": "0.10.1", "torch": "2.7.1"})
    (next(site.glob("torch-*.dist-info")) / "WHEEL").write_text(
        "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp311-cp311-manylinux_2_28_x86_64\n",
        encoding="utf-8",
    )
    (next(site.glob("vllm-*.dist-info")) / "WHEEL").write_text(
        "Wheel-Version: 1.0\nTag: cp38-abi3-manylinux1_x86_64\n", encoding="utf-8"
    )
    _, report = doctor_report(site)
    assert report["environment"]["python"] == "3.11"
    assert "vllm-python-outside-requires-python" not in statuses(report)


def test_target_dir_python_from_compiled_byte_code(tmp_path: Path) -> None:
    site = make_env(tmp_path / "target", {"vllm": "0.10.1", "six": "1.16.0"})
    record = next(site.glob("six-*.dist-info")) / "RECORD"
    record.write_text("six.py,,\n__pycache__/six.cpython-313.pyc,,\n", encoding="utf-8")
    _, report = doctor_report(site)
    assert report["environment"]["python"] == "3.13"
    assert statuses(report)["vllm-python-outside-requires-python"] == "affected"


def test_an_fsdp_config_without_a_version_is_fsdp1(torch25: Path, tmp_path: Path) -> None:
    (tmp_path / "fsdp1.yaml").write_text("distributed_type: FSDP\nfsdp_config: {}\n")
    _, report = doctor_report(torch25, "--accelerate-config", "fsdp1.yaml")
    assert report["usage"]["fsdp_version"] == 1 and FSDP2 not in statuses(report)
