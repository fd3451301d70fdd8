"""Usage facts: what no environment shows (trainer, vLLM, ZeRO stage, offload, clipping, ...).

`VOCABULARY` is the single source of truth: the rule validator accepts only these keys, the
engine tells users which flag settles an unknown one, and `--set` validates against it.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass

from compat.errors import InputError, UsageError
from compat.model import Origin, UsageFact, UsageValue

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


@dataclass(frozen=True)
class UsageKey:
    name: str
    kind: type  # bool, int, float or str
    description: str
    settled_by: str
    choices: tuple[str, ...] | None = None  # for str keys; None = free text
    minimum: float | None = None
    maximum: float | None = None
    trigger: bool = False  # an opt-in feature: rules wait until it is known (see knowledge-base.md)
    # Values of an ordinary key that are opt-in features themselves: mixed_precision=fp8 is
    # chosen on purpose (bf16 is every recipe's default), distributed=fsdp likewise. A condition
    # that asks only for such values waits like a trigger key: an installed transformer-engine or
    # torchao says nothing about whether this run trains in FP8.
    trigger_values: frozenset[str] = frozenset()

    def is_trigger(self, expected: object) -> bool:
        """Whether a condition expecting `expected` waits until the key is known."""
        if self.trigger:
            return True
        wanted = expected if isinstance(expected, list | tuple) else [expected]
        return bool(self.trigger_values) and all(
            str(value).lower() in self.trigger_values for value in wanted
        )


def _key(
    name: str,
    kind: type,
    description: str,
    settled_by: str,
    choices: tuple[str, ...] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
    trigger: bool = False,
    trigger_values: tuple[str, ...] = (),
) -> tuple[str, UsageKey]:
    return name, UsageKey(
        name, kind, description, settled_by, choices, minimum, maximum, trigger,
        frozenset(trigger_values),
    )  # fmt: skip


_DS = "--deepspeed-config FILE"
_ACC = "--accelerate-config FILE"
_LAUNCH = "`compat doctor -- LAUNCH COMMAND`"

VOCABULARY: Mapping[str, UsageKey] = dict(
    [
        _key("trainer", str, "the trainer: grpo, ppo, dpo, sft, orpo, kto, rloo, reward, online_dpo, ...",
             "--set trainer=NAME"),
        _key("use_vllm", bool, "generation runs through vLLM (TRL use_vllm, OpenRLHF vLLM engines)",
             "--set use_vllm=true|false"),
        _key("vllm_device", str, "where in-process vLLM runs (TRL <0.16 vllm_device): auto or cuda:N",
             "--set vllm_device=auto|cuda:N"),
        _key("distributed", str, "the distributed backend", f"{_ACC}, {_DS} or --set distributed=NAME",
             ("ddp", "fsdp", "deepspeed", "megatron", "none"), trigger_values=("fsdp",)),
        _key("fsdp_version", int, "FSDP version (accelerate fsdp_config.fsdp_version)",
             f"{_ACC} or --set fsdp_version=1|2", minimum=1, maximum=2, trigger=True),
        _key("zero_stage", int, "DeepSpeed ZeRO stage", f"{_DS}, {_ACC} or --set zero_stage=N",
             minimum=0, maximum=3),
        _key("offload_optimizer", str, "DeepSpeed optimizer offload device",
             f"{_DS}, {_ACC} or --set offload_optimizer=none|cpu|nvme", ("none", "cpu", "nvme")),
        _key("offload_param", str, "DeepSpeed parameter offload device",
             f"{_DS}, {_ACC} or --set offload_param=none|cpu|nvme", ("none", "cpu", "nvme")),
        _key("gradient_clipping", float, "gradient clipping norm (0 = off; HF max_grad_norm)",
             f"{_DS} or --set gradient_clipping=X", minimum=0),
        _key("gradient_checkpointing", bool, "gradient checkpointing on",
             f"{_LAUNCH} or --set gradient_checkpointing=true|false", trigger=True),
        _key("load_in_8bit", bool, "weights loaded in 8 bits through bitsandbytes (LLM.int8)",
             f"{_LAUNCH} or --set load_in_8bit=true|false", trigger=True),
        _key("ptx_jit", bool, "code hands PTX to the driver to JIT-compile (an extension or container "
             "built with PTX only for this GPU)", "--set ptx_jit=true|false", trigger=True),
        _key("num_processes", int, "training processes (GPUs) in the launch", f"{_ACC} or --set num_processes=N",
             minimum=1),
        _key("mixed_precision", str, "mixed precision", f"{_ACC}, {_DS} or --set mixed_precision=bf16",
             ("no", "fp16", "bf16", "fp8"), trigger_values=("fp8",)),
        _key("beta", float, "GRPO KL coefficient (0 = no reference model)", "--set beta=X", minimum=0),
        _key("peft", bool, "training a PEFT adapter (LoRA, ...)", "--set peft=true|false"),
        _key("attn_implementation", str, "attention implementation", "--set attn_implementation=NAME",
             ("eager", "sdpa", "flash_attention_2", "flash_attention_3", "flex_attention")),
    ]
)  # fmt: skip


def coerce(key: str, raw: object, origin: Origin) -> UsageValue:
    """Validate and convert a raw value (from --set text, JSON or YAML) for `key`.

    Raises UsageError for `--set`, InputError for values read from files."""
    error = UsageError if origin.path == "--set" else InputError
    spec = VOCABULARY.get(key)
    if spec is None:
        close = difflib.get_close_matches(key, VOCABULARY, n=1)
        hint = f" (did you mean {close[0]}?)" if close else f" (known: {', '.join(VOCABULARY)})"
        raise error(f"unknown usage key {key!r}{hint}", origin=origin)
    text = str(raw).strip()
    if spec.kind is bool:
        if isinstance(raw, bool):
            return raw
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise error(f"{key}={text}: expected true or false", origin=origin)
    if spec.kind in (int, float):
        if isinstance(raw, bool):
            raise error(f"{key}={text}: expected a number", origin=origin)
        try:
            number: float = int(text) if spec.kind is int else float(text)
        except ValueError:
            kind = "an integer" if spec.kind is int else "a number"
            raise error(f"{key}={text}: expected {kind}{_bounds(spec)}", origin=origin) from None
        if not math.isfinite(number):  # NaN/Infinity: no comparison holds, no JSON can carry it
            raise error(f"{key}={text}: expected a finite number", origin=origin)
        if (spec.minimum is not None and number < spec.minimum) or (
            spec.maximum is not None and number > spec.maximum
        ):
            raise error(f"{key}={text}: out of range{_bounds(spec)}", origin=origin)
        return number
    value = text.lower()
    if not value:
        raise error(f"{key}: empty value", origin=origin)
    if spec.choices is not None and value not in spec.choices:
        raise error(f"{key}={text}: expected one of {', '.join(spec.choices)}", origin=origin)
    return value


def _bounds(spec: UsageKey) -> str:
    if spec.minimum is not None and spec.maximum is not None:
        return f" {spec.minimum:g}..{spec.maximum:g}"
    if spec.minimum is not None:
        return f" >= {spec.minimum:g}"
    return ""


# Facts imply facts. Each entry: the key it settles, the fact that settles it, and the values of
# that fact under which the key does not apply (the condition is then false, not unknown).
NOT_APPLICABLE: tuple[tuple[str, str, frozenset[UsageValue]], ...] = (
    # Only FSDP has an FSDP version; only DeepSpeed has ZeRO stages and ZeRO offload.
    ("fsdp_version", "distributed", frozenset({"ddp", "deepspeed", "megatron", "none"})),
    ("zero_stage", "distributed", frozenset({"ddp", "fsdp", "megatron", "none"})),
    ("offload_optimizer", "distributed", frozenset({"ddp", "fsdp", "megatron", "none"})),
    ("offload_param", "distributed", frozenset({"ddp", "fsdp", "megatron", "none"})),
    # Where vLLM runs is moot when it does not run.
    ("vllm_device", "use_vllm", frozenset({False})),
)
# Trainers that can generate with vLLM (TRL GRPO/online DPO/RLOO/NashMD/XPO/GKD, OpenRLHF PPO):
# any other known trainer settles use_vllm=false.
VLLM_TRAINERS = frozenset(
    {"grpo", "ppo", "online_dpo", "rloo", "nash_md", "xpo", "gkd", "reinforce"}
)


def settled_away(key: str, usage: Mapping[str, UsageFact]) -> UsageFact | None:
    """The known fact that makes `key` not apply to this run, if any (its condition is false)."""
    for settled, by, values in NOT_APPLICABLE:
        fact = usage.get(by)
        if settled == key and fact is not None and fact.value in values:
            return fact
    if key == "use_vllm" or key == "vllm_device":
        trainer = usage.get("trainer")
        if trainer is not None and str(trainer.value) not in VLLM_TRAINERS:
            return trainer
    return None


# A trigger whose feature is known to be in use is an ordinary question: with distributed=fsdp
# known, "FSDP1 or FSDP2?" is worth asking.
TRIGGER_IN_USE: Mapping[str, tuple[str, UsageValue]] = {"fsdp_version": ("distributed", "fsdp")}


def trigger_in_use(key: str, usage: Mapping[str, UsageFact]) -> bool:
    parent = TRIGGER_IN_USE.get(key)
    if parent is None:
        return False
    fact = usage.get(parent[0])
    return fact is not None and fact.value == parent[1]


def merge_usage(*layers: Mapping[str, UsageFact]) -> dict[str, UsageFact]:
    """Later layers win: accelerate config, then its DeepSpeed config, then --set."""
    merged: dict[str, UsageFact] = {}
    for layer in layers:
        merged.update(layer)
    return merged
