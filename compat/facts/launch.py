"""The training command as usage facts: `compat doctor -- accelerate launch ... train.py --flags`.

The command is read, never run. What it names becomes facts the same way the matching compat
flags would: `accelerate launch --config_file X` is `--accelerate-config X`, a script's
`--deepspeed ds.json` is `--deepspeed-config ds.json`, `torchrun --nproc_per_node 8` is
`num_processes=8`, `trl grpo` is `trainer=grpo`, `--use_vllm`, `--gradient_checkpointing` and
`--load_in_8bit` are what they say. Every fact remembers the words it came from, and `used` lists
them, so the report can say what it read. Unknown flags are ignored: a command is not a schema.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from compat.errors import InputError, UsageError
from compat.model import Origin, UsageFact
from compat.usage import coerce

TRAINERS = ("grpo", "ppo", "dpo", "sft", "orpo", "kto", "rloo", "reward", "online_dpo", "gkd")
# OpenRLHF entry points (python -m openrlhf.cli.train_X / deepspeed --module ...): always DeepSpeed.
_OPENRLHF = {"train_ppo_ray": "ppo", "train_ppo": "ppo", "train_dpo": "dpo", "train_sft": "sft",
             "train_rm": "reward", "train_kto": "kto", "train_grpo_ray": "grpo"}  # fmt: skip

# Launcher options that take no value (everything else starting with "-" takes one, or "=").
_ACCELERATE_BOOL = {
    "--multi_gpu", "--use_deepspeed", "--use_fsdp", "--use_megatron_lm", "--cpu", "--tpu",
    "--use_xpu", "-m", "--module", "--no_python", "--debug", "-q", "--quiet", "--same_network",
    "--dynamo_use_fullgraph", "--dynamo_use_dynamic", "--ipex", "--enable_cpu_affinity",
}  # fmt: skip
_TORCHRUN_BOOL = {"--standalone", "--no_python", "--no-python", "-m", "--module", "--run_path",
                  "--run-path", "--tee", "--redirects"}  # fmt: skip
_DEEPSPEED_BOOL = {"--no_python", "--module", "--no_local_rank", "--force_multi",
                   "--bind_cores_to_rank", "--no_ssh_check", "--no_ssh", "--save_pid",
                   "--enable_each_rank_log", "--elastic_training"}  # fmt: skip
_WRAPPERS = {"env", "nohup", "exec", "time", "srun", "stdbuf"}
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass
class Launch:
    """What a launch command says: configs to read, facts, and the words each came from."""

    command: tuple[str, ...]
    launcher: str = "script"  # accelerate, torchrun, deepspeed, trl, python, script
    accelerate_config: Path | None = None
    deepspeed_config: Path | None = None
    usage: dict[str, UsageFact] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)

    @property
    def uses_accelerate(self) -> bool:
        """Whether `accelerate launch` starts it (it then reads accelerate's default config)."""
        return self.launcher in ("accelerate", "trl")

    def fact(self, key: str, value: object, words: str) -> None:
        origin = Origin(f"launch command `{words}`")
        self.usage[key] = UsageFact(key, coerce(key, value, origin), origin)
        if words not in self.used:
            self.used.append(words)


def parse_launch(argv: Sequence[str], cwd: Path | None = None) -> Launch:
    """Read a launch command (already split into words, as the shell would)."""
    words = list(argv)
    if not words:
        raise UsageError("`compat doctor --` needs the launch command after the dashes")
    launch = Launch(tuple(words))
    base = cwd or Path.cwd()
    while words and (_ASSIGNMENT.match(words[0]) or Path(words[0]).name in _WRAPPERS):
        words.pop(0)  # FOO=1 env nohup ... accelerate launch
    if len(words) >= 2 and Path(words[0]).name == "uv" and words[1] == "run":
        words = words[2:]
    if not words:
        raise UsageError("the launch command names no program")
    program = Path(words[0]).name
    rest = words[1:]
    if program == "accelerate" and rest[:1] == ["launch"]:
        _accelerate(launch, rest[1:], base)
    elif program == "torchrun":
        _torchrun(launch, rest, base)
    elif program == "deepspeed":
        _deepspeed(launch, rest, base)
    elif program == "trl" and rest:
        _trl(launch, rest, base)
    elif re.fullmatch(r"python[0-9.]*", program):
        _python(launch, rest, base)
    else:
        _script(launch, program, rest, base)
    return launch


# ---------------------------------------------------------------------------------------------
# Launchers


def _options(args: Sequence[str], booleans: set[str]) -> tuple[dict[str, str | None], list[str]]:
    """Launcher options up to the program (script or -m module), and the words from there on."""
    options: dict[str, str | None] = {}
    index = 0
    while index < len(args):
        word = args[index]
        if word == "--":
            return options, list(args[index + 1 :])
        if not word.startswith("-"):
            return options, list(args[index:])
        name, eq, value = word.partition("=")
        name = _flag(name)
        if eq:
            options[name] = value
        elif name in booleans or _flag(name) in {_flag(b) for b in booleans}:
            if name in ("-m", "--module"):  # the module name is the program
                options[name] = None
                return options, list(args[index + 1 :])
            options[name] = None
        elif index + 1 < len(args):
            options[name] = args[index + 1]
            index += 1
        index += 1
    return options, []


def _flag(name: str) -> str:
    """`--config-file` and `--config_file` are one option (argparse spells both)."""
    return "--" + name[2:].replace("-", "_") if name.startswith("--") else name


def _accelerate(launch: Launch, args: Sequence[str], base: Path) -> None:
    launch.launcher = "accelerate"
    options, program = _options(args, _ACCELERATE_BOOL)
    config = options.get("--config_file")
    if config:
        launch.accelerate_config = _existing(base, config, "--config_file")
        launch.used.append(f"--config_file {config}")
    if "--use_deepspeed" in options:
        launch.fact("distributed", "deepspeed", "--use_deepspeed")
    if "--use_fsdp" in options:
        launch.fact("distributed", "fsdp", "--use_fsdp")
    if "--multi_gpu" in options and "distributed" not in launch.usage:
        launch.fact("distributed", "ddp", "--multi_gpu")
    for option, key in (
        ("--num_processes", "num_processes"),
        ("--mixed_precision", "mixed_precision"),
        ("--zero_stage", "zero_stage"),
        ("--offload_optimizer_device", "offload_optimizer"),
        ("--offload_param_device", "offload_param"),
        ("--gradient_clipping", "gradient_clipping"),
        ("--fsdp_version", "fsdp_version"),
    ):
        value = options.get(option)
        if value is not None and value.lower() != "auto":
            launch.fact(key, value, f"{option} {value}")
    ds_file = options.get("--deepspeed_config_file")
    if ds_file:
        launch.deepspeed_config = _existing(base, ds_file, "--deepspeed_config_file")
        launch.used.append(f"--deepspeed_config_file {ds_file}")
    _program(launch, program, module="-m" in options or "--module" in options, base=base)


def _torchrun(launch: Launch, args: Sequence[str], base: Path, *, module: bool = False) -> None:
    launch.launcher = "torchrun"
    options, program = _options(args, _TORCHRUN_BOOL)
    per_node = options.get("--nproc_per_node")
    nodes = (options.get("--nnodes") or "1").split(":")[-1]
    if per_node is not None and per_node.isdigit() and nodes.isdigit():
        words = f"--nproc_per_node {per_node}" + (f" --nnodes {nodes}" if nodes != "1" else "")
        launch.fact("num_processes", int(per_node) * int(nodes), words)
    is_module = module or "-m" in options or "--module" in options
    _program(launch, program, module=is_module, base=base)


def _deepspeed(launch: Launch, args: Sequence[str], base: Path) -> None:
    launch.launcher = "deepspeed"
    launch.fact("distributed", "deepspeed", "deepspeed")
    options, program = _options(args, _DEEPSPEED_BOOL)
    gpus = options.get("--num_gpus")
    include = options.get("--include")
    nodes = options.get("--num_nodes") or "1"
    if include:
        # "localhost:0,1,2@host2:0,1": count the GPUs named across hosts.
        count = sum(len(part.split(":", 1)[-1].split(",")) for part in include.split("@"))
        launch.fact("num_processes", count, f"--include {include}")
    elif gpus is not None and gpus.isdigit() and nodes.isdigit():
        words = f"--num_gpus {gpus}" + (f" --num_nodes {nodes}" if nodes != "1" else "")
        launch.fact("num_processes", int(gpus) * int(nodes), words)
    _program(launch, program, module="--module" in options, base=base)


def _trl(launch: Launch, args: Sequence[str], base: Path) -> None:
    """`trl grpo --config x.yaml --use_vllm ...`: TRL's CLI runs the trainer via accelerate."""
    command, rest = args[0], list(args[1:])
    if command not in TRAINERS:
        launch.launcher = "trl"
        return  # trl env, trl vllm-serve: not a training run
    launch.launcher = "trl"
    launch.fact("trainer", command, f"trl {command}")
    config = _value(rest, "--config_file")
    if config:
        launch.accelerate_config = _existing(base, config, "--config_file")
        launch.used.append(f"--config_file {config}")
    _script_flags(launch, rest, base)


def _python(launch: Launch, args: Sequence[str], base: Path) -> None:
    index = 0
    while index < len(args) and args[index].startswith("-") and args[index] != "-m":
        index += 1  # -u, -O, -X ...: interpreter switches
    rest = list(args[index:])
    if rest[:1] == ["-m"] and len(rest) >= 2:
        module, tail = rest[1], rest[2:]
        if module in ("torch.distributed.run", "torch.distributed.launch"):
            _torchrun(launch, tail, base)
        elif module == "accelerate.commands.launch":
            _accelerate(launch, tail, base)
        elif module == "deepspeed.launcher.runner":
            _deepspeed(launch, tail, base)
        else:
            launch.launcher = "python"
            _program(launch, [module, *tail], module=True, base=base)
        return
    launch.launcher = "python"
    _program(launch, rest, module=False, base=base)


def _script(launch: Launch, program: str, args: Sequence[str], base: Path) -> None:
    _program(launch, [program, *args], module=False, base=base)


def _program(launch: Launch, words: Sequence[str], *, module: bool, base: Path) -> None:
    """The trained program: its name (an OpenRLHF module, a `grpo.py`) and its flags."""
    if not words:
        return
    name = words[0]
    stem = name.rsplit(".", 1)[-1] if module else Path(name).stem
    if module and name.startswith("openrlhf."):
        trainer = _OPENRLHF.get(stem)
        launch.fact("distributed", "deepspeed", name)  # OpenRLHF trains through DeepSpeed only
        if trainer:
            launch.fact("trainer", trainer, name)
    elif "trainer" not in launch.usage:
        named = [t for t in TRAINERS if t in re.split(r"[_\-.]", stem.lower())]
        if len(named) == 1:
            launch.fact("trainer", named[0], Path(name).name)
    _script_flags(launch, words[1:], base)


# ---------------------------------------------------------------------------------------------
# The trained script's own flags (HF TrainingArguments, TRL configs, OpenRLHF)


def _script_flags(launch: Launch, args: Sequence[str], base: Path) -> None:
    flags = dict(_flag_pairs(args))
    config = flags.get("config")
    if isinstance(config, str) and config.endswith((".yaml", ".yml")):
        # TRL/open-r1 recipes: `--config recipe.yaml` holds the same keys as the flags.
        path = _existing(base, config, "--config")
        launch.used.append(f"--config {config}")
        from compat.files.yamlio import load_plain

        data = load_plain(path)
        if isinstance(data, dict):
            for key, value in data.items():
                if str(key) not in flags:
                    _script_flag(launch, str(key), value, base, f"{config}: {key}")
    for key, value in flags.items():
        shown = f"--{key}" if value is True else f"--{key} {value}"
        _script_flag(launch, key, value, base, shown)


def _flag_pairs(args: Sequence[str]) -> Iterator[tuple[str, object]]:
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if not word.startswith("--") or word == "--":
            continue
        name, eq, value = word[2:].partition("=")
        key = name.replace("-", "_")
        if eq:
            yield key, value
        elif index < len(args) and not args[index].startswith("--"):
            yield key, args[index]
            index += 1
        else:
            yield key, True  # a bare switch: --use_vllm, --adam_offload


def _truthy(value: object) -> bool | None:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off", "none", ""):
        return False
    return None


def _script_flag(launch: Launch, key: str, value: object, base: Path, words: str) -> None:
    boolean = _truthy(value)
    if key == "deepspeed" and isinstance(value, str) and value.endswith(".json"):
        launch.deepspeed_config = _existing(base, value, "--deepspeed")
        if "distributed" not in launch.usage:
            launch.fact("distributed", "deepspeed", words)
        elif words not in launch.used:
            launch.used.append(words)
    elif key == "zero_stage" and str(value).isdigit():  # OpenRLHF
        launch.fact("zero_stage", int(str(value)), words)
        launch.fact("distributed", "deepspeed", words)
    elif key == "adam_offload" and boolean:  # OpenRLHF: DeepSpeed CPU Adam
        launch.fact("offload_optimizer", "cpu", words)
    elif key in ("use_vllm", "gradient_checkpointing", "load_in_8bit") and boolean is not None:
        launch.fact(key, boolean, words)
    elif key == "vllm_num_engines" and str(value).isdigit():  # OpenRLHF
        launch.fact("use_vllm", int(str(value)) > 0, words)
    elif key == "vllm_device" and isinstance(value, str):
        launch.fact("vllm_device", value, words)
    elif key == "use_peft" and boolean is not None:
        launch.fact("peft", boolean, words)
    elif key == "lora_rank" and str(value).isdigit():  # OpenRLHF: 0 = full fine-tuning
        launch.fact("peft", int(str(value)) > 0, words)
    elif key in ("bf16", "fp16") and boolean:
        launch.fact("mixed_precision", key, words)
    elif key in ("max_grad_norm", "max_norm") and _number(value):
        launch.fact("gradient_clipping", value, words)
    elif key == "beta" and _number(value):
        launch.fact("beta", value, words)
    elif key == "attn_implementation" and isinstance(value, str):
        launch.fact("attn_implementation", value, words)
    elif key == "flash_attn" and boolean:  # OpenRLHF
        launch.fact("attn_implementation", "flash_attention_2", words)
    elif key == "fsdp" and isinstance(value, str) and value.strip() and boolean is not False:
        launch.fact("distributed", "fsdp", words)  # HF TrainingArguments --fsdp "full_shard"


def _number(value: object) -> bool:
    try:
        float(str(value))
    except ValueError:
        return False
    return not isinstance(value, bool)


def _value(args: Sequence[str], option: str) -> str | None:
    for key, value in _flag_pairs(args):
        if f"--{key}" == option and isinstance(value, str):
            return value
    return None


def _existing(base: Path, text: str, option: str) -> Path:
    path = Path(os.path.expanduser(text))
    path = path if path.is_absolute() else base / path
    if not path.is_file():
        raise InputError(
            f"launch command: {option} {text}: no such file (run compat where the command runs)"
        )
    return path


# ---------------------------------------------------------------------------------------------
# accelerate's default config


def describe(launch: Launch) -> str:
    """One line for the report: which launcher, and which words became facts."""
    used = ", ".join(launch.used) if launch.used else "nothing compat knows"
    return f"launch command ({launch.launcher}): used {used}"
