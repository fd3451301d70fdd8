"""The facts a log prints, each in the format its tool writes (minimal cases; the real logs are
in tests/unit/diagnose/test_explain_logs.py): package tables and reports, GPUs, launcher flags,
git commits."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
OPEN_R1 = (LOGS / "open-r1-129-grpo-inprocess-vllm.log").read_text()

PIP_LIST = """\
Package                  Version      Editable project location
------------------------ ------------ -------------------------
deepspeed                0.13.5
openrlhf                 0.3.1        /root/OpenRLHF
torch                    2.3.0+cu121

"""
CONDA_LIST = """\
# packages in environment at /opt/conda/envs/train:
#
# Name                    Version                   Build  Channel
deepspeed                 0.14.2                   pypi_0    pypi
python                    3.10.14              h955ad1f_1
pytorch                   2.3.0           py3.10_cuda12.1_cudnn8.9.2_0    pytorch
"""
COLLECT_ENV = """\
PyTorch version: 2.3.0+cu121
Is debug build: False
CUDA used to build PyTorch: 12.1
ROCM used to build PyTorch: N/A

Python version: 3.10.14 (main, May  6 2024, 19:42:50) [GCC 11.2.0] (64-bit runtime)
Is CUDA available: True
CUDA runtime version: 12.1.105
GPU models and configuration:
GPU 0: NVIDIA A100-SXM4-80GB
GPU 1: NVIDIA A100-SXM4-80GB

Nvidia driver version: 535.104.05
vLLM Version: 0.7.1
Versions of relevant libraries:
[pip3] numpy==1.26.4
[pip3] trl==0.15.1
"""
NVIDIA_SMI = """\
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |
|=========================================+======================+======================|
|   0  NVIDIA H100 80GB HBM3          On  | 00000000:18:00.0 Off |                    0 |
| N/A   33C    P0              62W / 700W |      4MiB / 81559MiB |      0%      Default |
+-----------------------------------------+----------------------+----------------------+
|   1  NVIDIA H100 80GB HBM3          On  | 00000000:2A:00.0 Off |                    0 |
| N/A   31C    P0              64W / 700W |      4MiB / 81559MiB |      0%      Default |
+-----------------------------------------+----------------------+----------------------+
"""


def facts_of(tmp_path: Path, text: str, *extra: str) -> dict[tuple[str, str], tuple[str, int]]:
    log = tmp_path / "run.log"
    log.write_text(text)
    result = run_cli(["explain", str(log), "--format", "json", *extra])
    assert result.exit_code in (0, 1), result.stderr
    return {(f["kind"], f["key"]): (f["value"], f["line"]) for f in result.json()["facts"]}


def test_pip_list_and_conda_list_tables(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, "starting\n" + PIP_LIST + CONDA_LIST)
    assert facts[("package", "openrlhf")] == ("0.3.1", 5)
    assert facts[("package", "deepspeed")] == ("0.14.2", 11)  # the later listing wins
    assert facts[("package", "torch")] == ("2.3.0", 13)  # conda's "pytorch"
    assert facts[("python", "python")] == ("3.10.14", 12)
    assert ("package", "editable") not in facts and ("package", "name") not in facts


def test_collect_env_report(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, COLLECT_ENV)
    assert facts[("package", "torch")] == ("2.3.0+cu121", 1)
    assert facts[("build", "torch_cuda")] == ("12.1", 3)
    assert facts[("python", "python")] == ("3.10.14", 6)
    assert facts[("gpu", "0")] == ("NVIDIA A100-SXM4-80GB", 10)
    assert facts[("gpu", "1")] == ("NVIDIA A100-SXM4-80GB", 11)
    assert facts[("driver", "driver")] == ("535.104.05", 13)
    assert facts[("package", "vllm")] == ("0.7.1", 14)
    assert facts[("package", "trl")] == ("0.15.1", 17)
    assert ("package", "cuda-runtime") not in facts


def test_nvidia_smi_table(tmp_path: Path) -> None:
    facts = facts_of(tmp_path, "job 42 on node a\n" + NVIDIA_SMI)
    assert facts[("driver", "driver")] == ("535.104.05", 3)
    assert facts[("cuda_driver", "cuda_driver")] == ("12.2", 3)
    assert facts[("gpu", "0")] == ("NVIDIA H100 80GB HBM3", 8)
    assert facts[("gpu", "1")] == ("NVIDIA H100 80GB HBM3", 11)
    assert len([k for k in facts if k[0] == "gpu"]) == 2


def test_trl_grpo_confirmed_from_collect_env_and_config(tmp_path: Path) -> None:
    """GRPO with in-process vLLM: versions and GPUs from the report, use_vllm from the printed
    GRPOConfig, the trainer from the traceback: every condition of the rule, from the log."""
    config = "GRPOConfig(output_dir='out', use_vllm=True, vllm_device='auto', beta=0.04)\n"
    log = tmp_path / "grpo.log"
    log.write_text(COLLECT_ENV + config + OPEN_R1)
    result = run_cli(["explain", str(log), "--format", "json"])
    match = result.json()["matches"][0]
    # vLLM 0.7.1: the branch that rests on TRL's pin (evidence reported), not the verified rule
    assert (match["rule"], match["verdict"]) == (
        "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1",
        "confirmed",
    )
    verdicts = {m["rule"]: m["verdict"] for m in result.json()["matches"]}
    assert verdicts["trl-grpo-inprocess-vllm-device-mismatch"] == "outside-range"
    assert match["line"] == COLLECT_ENV.count("\n") + 1 + 19
    used = {f["fact"]: f["line"] for f in match["facts"]}
    assert used["packages.trl"] == 17 and used["packages.vllm"] == 14
    assert used["usage.use_vllm"] == 18 and used["hardware.gpus"] == 10
    assert result.exit_code == 0


def test_openrlhf_launcher_and_git_commit(tmp_path: Path) -> None:
    traceback = """\
Traceback (most recent call last):
  File "/root/OpenRLHF/openrlhf/trainer/ppo_utils/experience_maker.py", line 112, in make_experience
    sequences, attention_mask, action_mask = self.actor.generate(**inputs, **generate_kwargs)
  File "/root/OpenRLHF/openrlhf/models/actor.py", line 160, in generate
    return self.process_sequences(sequences, input_ids.size(1), eos_token_id, pad_token_id)
  File "/root/OpenRLHF/openrlhf/models/actor.py", line 178, in process_sequences
    mask = (mask <= eos_indices) & (mask >= first_token_indices)
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0!
"""
    launch = (
        "deepspeed --module openrlhf.cli.train_ppo --pretrain OpenRLHF/Llama-3-8b-sft-mixture "
        "--zero_stage 3 --adam_offload --bf16 --max_norm 1.0\n"
    )
    bad = "openrlhf @ git+https://github.com/OpenRLHF/OpenRLHF@01b8a23d79a8b4e965084cdf7d0c769dc569dc82\n"
    log = tmp_path / "ppo.log"
    log.write_text(launch + bad + PIP_LIST + traceback)
    result = run_cli(["explain", str(log), "--format", "json"])
    document = result.json()
    facts = {(f["kind"], f["key"]): (f["value"], f["line"]) for f in document["facts"]}
    assert facts[("usage", "zero_stage")] == ("3", 1)
    assert facts[("usage", "offload_optimizer")] == ("cpu", 1)
    assert facts[("usage", "trainer")] == ("ppo", 1)
    assert facts[("usage", "use_vllm")] == ("false", 1)
    assert facts[("commit", "openrlhf")][1] == 2
    match = document["matches"][0]
    assert (match["rule"], match["verdict"]) == (
        "openrlhf-process-sequences-mask-on-cpu",
        "confirmed",
    )
    assert match["line"] == 16
    # The fixed commit: the same message, outside the rule.
    fixed = bad.replace(
        "01b8a23d79a8b4e965084cdf7d0c769dc569dc82", "7adaedc2206fa1bcb8eda1addfa7729c06a21c12"
    )
    log.write_text(launch + fixed + PIP_LIST + traceback)
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.json()["matches"][0]["verdict"] == "outside-range"
    assert result.exit_code == 1


def test_a_shell_variable_or_auto_is_not_a_fact(tmp_path: Path) -> None:
    text = (
        "torchrun --nproc_per_node $GPUS_PER_NODE train.py --deepspeed ds.json\n"
        '  "zero_optimization": {"stage": "auto", "offload_optimizer": {"device": "auto"}},\n'
        '  "gradient_clipping": "auto",\n'
    )
    facts = facts_of(tmp_path, text)
    assert ("usage", "num_processes") not in facts
    assert ("usage", "zero_stage") not in facts
    assert facts[("usage", "distributed")] == ("deepspeed", 1)
    # HF Trainer fills "auto" clipping with max_grad_norm, default 1.0 (noted on the fact).
    assert facts[("usage", "gradient_clipping")] == ("auto", 3)


def test_transformers_env_and_accelerate_config_in_it(tmp_path: Path) -> None:
    """`transformers env` prints names in backticks, "(GPU?)" after PyTorch and the accelerate
    config as "- key: value" lines."""
    report = """\
- `transformers` version: 4.40.0
- Platform: Linux-5.15.0-105-generic-x86_64-with-glibc2.35
- Python version: 3.10.14
- Accelerate version: 0.30.0
- Accelerate config: 	- compute_environment: LOCAL_MACHINE
	- distributed_type: DEEPSPEED
	- num_processes: 4
	- deepspeed_config: {'gradient_clipping': 1.0, 'offload_optimizer_device': 'cpu', 'zero_stage': 3}
- PyTorch version (GPU?): 2.3.0+cu121 (True)
"""
    facts = facts_of(tmp_path, report)
    assert facts[("package", "transformers")] == ("4.40.0", 1)
    assert facts[("package", "accelerate")] == ("0.30.0", 4)
    assert facts[("package", "torch")] == ("2.3.0+cu121", 9)
    assert facts[("usage", "num_processes")] == ("4", 7)
    assert facts[("usage", "zero_stage")] == ("3", 8)
    assert facts[("usage", "offload_optimizer")] == ("cpu", 8)
    assert facts[("usage", "gradient_clipping")] == ("1.0", 8)


def test_ray_and_torchrun_prefixes(tmp_path: Path) -> None:
    """OpenRLHF on Ray prefixes each line with its actor; torchrun --tee with [defaultN]:."""
    error = (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two "
        "devices, cuda:0 and cpu!"
    )
    log = tmp_path / "ray.log"
    log.write_text(
        "(PolicyModelRayActor pid=4242, ip=10.0.0.7)   File "
        '"/opt/OpenRLHF/openrlhf/models/actor.py", line 178, in process_sequences\n'
        f"(PolicyModelRayActor pid=4242, ip=10.0.0.7) {error}\n"
        f"[default1]:[rank1]: {error}\n"
    )
    result = run_cli(["explain", str(log), "--format", "json"])
    match = result.json()["matches"][0]
    assert match["rule"] == "openrlhf-process-sequences-mask-on-cpu"
    assert (match["line"], match["text"], match["rank"]) == (2, error, None)
    assert match["frames"] == ["actor.py:process_sequences"]


def test_accelerate_fsdp_config_dump(tmp_path: Path) -> None:
    dump = """\
compute_environment: LOCAL_MACHINE
distributed_type: FSDP
fsdp_config:
  fsdp_sharding_strategy: FULL_SHARD
  fsdp_version: 2
mixed_precision: bf16
num_processes: 8
"""
    facts = facts_of(tmp_path, dump)
    assert facts[("usage", "distributed")] == ("fsdp", 2)
    assert facts[("usage", "fsdp_version")] == ("2", 5)
    assert facts[("usage", "mixed_precision")] == ("bf16", 6)
    assert facts[("usage", "num_processes")] == ("8", 7)
