"""Usage facts: what no environment shows (trainer, vLLM, ZeRO stage, offload, clipping, ...).

`VOCABULARY` is the single source of truth: the rule validator accepts only these keys, the
engine tells users which flag settles an unknown one, and `--set` validates against it.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
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


def _key(
    name: str,
    kind: type,
    description: str,
    settled_by: str,
    choices: tuple[str, ...] | None = None,
    minimum: float | None = None,
    maximum: float | None = None,
) -> tuple[str, UsageKey]:
    return name, UsageKey(name, kind, description, settled_by, choices, minimum, maximum)


_DS = "--deepspeed-config FILE"
_ACC = "--accelerate-config FILE"

VOCABULARY: Mapping[str, UsageKey] = dict(
    [
        _key("trainer", str, "the trainer: grpo, ppo, dpo, sft, orpo, kto, rloo, reward, online_dpo, ...",
             "--set trainer=NAME"),
        _key("use_vllm", bool, "generation runs through vLLM (TRL use_vllm, OpenRLHF vLLM engines)",
             "--set use_vllm=true|false"),
        _key("vllm_device", str, "where in-process vLLM runs (TRL <0.16 vllm_device): auto or cuda:N",
             "--set vllm_device=auto|cuda:N"),
        _key("distributed", str, "the distributed backend", f"{_ACC}, {_DS} or --set distributed=NAME",
             ("ddp", "fsdp", "deepspeed", "megatron", "none")),
        _key("fsdp_version", int, "FSDP version (accelerate fsdp_config.fsdp_version)",
             f"{_ACC} or --set fsdp_version=1|2", minimum=1, maximum=2),
        _key("zero_stage", int, "DeepSpeed ZeRO stage", f"{_DS}, {_ACC} or --set zero_stage=N",
             minimum=0, maximum=3),
        _key("offload_optimizer", str, "DeepSpeed optimizer offload device",
             f"{_DS}, {_ACC} or --set offload_optimizer=none|cpu|nvme", ("none", "cpu", "nvme")),
        _key("offload_param", str, "DeepSpeed parameter offload device",
             f"{_DS}, {_ACC} or --set offload_param=none|cpu|nvme", ("none", "cpu", "nvme")),
        _key("gradient_clipping", float, "gradient clipping norm (0 = off; HF max_grad_norm)",
             f"{_DS} or --set gradient_clipping=X", minimum=0),
        _key("gradient_checkpointing", bool, "gradient checkpointing on",
             "--set gradient_checkpointing=true|false"),
        _key("num_processes", int, "training processes (GPUs) in the launch", f"{_ACC} or --set num_processes=N",
             minimum=1),
        _key("mixed_precision", str, "mixed precision", f"{_ACC}, {_DS} or --set mixed_precision=bf16",
             ("no", "fp16", "bf16", "fp8")),
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


def parse_set(items: Sequence[str]) -> dict[str, UsageFact]:
    """`--set KEY=VALUE` (repeatable); a later item for the same key wins."""
    facts: dict[str, UsageFact] = {}
    origin = Origin("--set")
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"--set {item!r}: expected KEY=VALUE, e.g. --set zero_stage=3")
        facts[key] = UsageFact(key, coerce(key, value, origin), origin)
    return facts


def merge_usage(*layers: Mapping[str, UsageFact]) -> dict[str, UsageFact]:
    """Later layers win: accelerate config, then its DeepSpeed config, then --set."""
    merged: dict[str, UsageFact] = {}
    for layer in layers:
        merged.update(layer)
    return merged
