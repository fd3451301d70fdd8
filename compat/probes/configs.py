"""Usage facts from training configs: DeepSpeed JSON and accelerate YAML.

Interpreters of a config's text, with the name of the file it came from for messages: the file
is read once, by compat.facts.gather through compat.files.readers, and nothing here reads one.

Only what a file states becomes a fact; an absent key stays unknown (never defaulted), so rules
that depend on it stay `possible` instead of silently clear. `"auto"` values are what the HF
Trainer integration fills in at launch: `gradient_clipping: "auto"` becomes the Trainer's
`max_grad_norm`, default 1.0 (noted on the fact); an `"auto"` stage or device stays unknown.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.files.jsonio import parse_json
from compat.model import Origin, UsageFact
from compat.usage import coerce

AUTO_CLIPPING_NOTE = (
    '"auto": filled from TrainingArguments.max_grad_norm (default 1.0); '
    "--set gradient_clipping=0 if you disabled clipping"
)
ACCELERATE_FSDP_NOTE = "no fsdp_version in the config: accelerate's default, FSDP1"
_DISTRIBUTED_TYPES = {
    "DEEPSPEED": "deepspeed",
    "FSDP": "fsdp",
    "MULTI_GPU": "ddp",
    "MULTI_NPU": "ddp",
    "MULTI_XPU": "ddp",
    "NO": "none",
    "MEGATRON_LM": "megatron",
}


def _line_of(text: str, key: str, after: int = 0) -> int | None:
    """The line where `"key"` (JSON) or `key:` (YAML) first appears, at or after line `after`."""
    pattern = re.compile(rf"""(^|[\s{{,])["']?{re.escape(key)}["']?\s*:""")
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= after and pattern.search(line):
            return number
    return None


class _Facts:
    """Collects facts with file:line origins and validates each through the vocabulary."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text
        self.facts: dict[str, UsageFact] = {}

    def add(
        self, key: str, value: Any, source_key: str, note: str | None = None, after: int = 0
    ) -> None:
        origin = Origin(self.source, _line_of(self.text, source_key, after))
        self.facts[key] = UsageFact(key, coerce(key, value, origin), origin, note)


def deepspeed_config_facts(text: str, source: str) -> dict[str, UsageFact]:
    """ZeRO stage, offload devices, gradient clipping and precision from a DeepSpeed JSON config
    (`text`, read from the file named `source`)."""
    config = parse_json(text, source)
    if not isinstance(config, dict):
        raise InputError("a DeepSpeed config must be a JSON object", origin=Origin(source, 1))
    return deepspeed_facts(config, source, text)


def deepspeed_facts(config: Mapping[str, Any], source: str, text: str) -> dict[str, UsageFact]:
    facts = _Facts(source, text)
    facts.add(
        "distributed", "deepspeed", next(iter(config), "zero_optimization") if config else "{"
    )
    zero = config.get("zero_optimization")
    if zero is not None and not isinstance(zero, dict):
        raise InputError(
            "zero_optimization must be an object",
            origin=Origin(source, _line_of(text, "zero_optimization")),
        )
    zero = zero or {}
    zero_line = _line_of(text, "zero_optimization") or 0
    if _known(zero.get("stage")):
        facts.add("zero_stage", zero["stage"], "stage", after=zero_line)
    for section, key in (
        ("offload_optimizer", "offload_optimizer"),
        ("offload_param", "offload_param"),
    ):
        block = zero.get(section)
        if isinstance(block, dict) and _known(block.get("device")):
            facts.add(
                key,
                block["device"],
                "device",
                after=_line_of(text, section, zero_line) or zero_line,
            )
        elif isinstance(block, str) and _known(block):  # older configs: "offload_optimizer": "cpu"
            facts.add(key, block, section, after=zero_line)
    clipping = config.get("gradient_clipping")
    if _is_auto(clipping):
        facts.add("gradient_clipping", 1.0, "gradient_clipping", note=AUTO_CLIPPING_NOTE)
    elif clipping is not None:
        facts.add("gradient_clipping", clipping, "gradient_clipping")
    for precision in ("bf16", "fp16"):
        block = config.get(precision)
        if isinstance(block, dict) and block.get("enabled") is True:
            facts.add("mixed_precision", precision, precision)
    return facts.facts


def accelerate_config_facts(text: str, source: str) -> tuple[dict[str, UsageFact], str | None]:
    """distributed type, process count, precision, FSDP version and DeepSpeed settings from an
    `accelerate config` YAML file (`text`, read from the file named `source`), and the DeepSpeed
    JSON it references, if any (deepspeed_config_file finds it; its facts go under these, as
    accelerate applies the YAML's own keys over the JSON it points to)."""
    from compat.files.yamlio import load_plain_text

    config = load_plain_text(text, source)
    if not isinstance(config, dict):
        raise InputError("an accelerate config must be a YAML mapping", origin=Origin(source, 1))
    facts = _Facts(source, text)
    distributed = config.get("distributed_type")
    if distributed is not None:
        mapped = _DISTRIBUTED_TYPES.get(str(distributed).upper())
        if mapped is None:
            raise InputError(
                f"unknown distributed_type {distributed!r}",
                origin=Origin(source, _line_of(text, "distributed_type")),
            )
        facts.add("distributed", mapped, "distributed_type")
    if config.get("num_processes") is not None:
        facts.add("num_processes", config["num_processes"], "num_processes")
    precision = config.get("mixed_precision")
    if precision is not None and str(precision).lower() != "auto":
        facts.add("mixed_precision", str(precision).lower(), "mixed_precision")
    fsdp = config.get("fsdp_config")
    if isinstance(fsdp, dict) and fsdp.get("fsdp_version") is not None:
        facts.add("fsdp_version", fsdp["fsdp_version"], "fsdp_version")
    elif facts.facts.get("distributed") and facts.facts["distributed"].value == "fsdp":
        # accelerate launch exports FSDP_VERSION=1 when the config names none.
        facts.add("fsdp_version", 1, "distributed_type", note=ACCELERATE_FSDP_NOTE)
    ds = config.get("deepspeed_config")
    reference = None
    if isinstance(ds, dict):
        ds_line = _line_of(text, "deepspeed_config") or 0
        if _known(ds.get("zero_stage")):
            facts.add("zero_stage", ds["zero_stage"], "zero_stage", after=ds_line)
        for key in ("offload_optimizer", "offload_param"):
            device = ds.get(f"{key}_device")
            if _known(device):
                facts.add(key, device, f"{key}_device", after=ds_line)
        clipping = ds.get("gradient_clipping")
        if _is_auto(clipping):
            facts.add(
                "gradient_clipping",
                1.0,
                "gradient_clipping",
                note=AUTO_CLIPPING_NOTE,
                after=ds_line,
            )
        elif clipping is not None:
            facts.add("gradient_clipping", clipping, "gradient_clipping", after=ds_line)
        file = ds.get("deepspeed_config_file")
        if file:
            reference = str(file)
    return facts.facts, reference


def deepspeed_config_file(
    reference: str, config_path: Path, text: str, cwd: Path | None = None
) -> Path:
    """The DeepSpeed config an accelerate config references: accelerate opens the path as given
    (relative to the launch directory); fall back to the config file's own directory, where
    projects usually keep both."""
    file = Path(reference)
    if file.is_absolute():
        candidates = [file]
    else:
        candidates = [(cwd or Path.cwd()) / file, config_path.parent / file]
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    raise InputError(
        f"deepspeed_config_file {str(file)!r} not found (looked in {', '.join(str(c.parent) for c in candidates)})",
        origin=Origin(str(config_path), _line_of(text, "deepspeed_config_file")),
    )


def _is_auto(value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() == "auto"


def _known(value: Any) -> bool:
    return value is not None and not _is_auto(value)


def accelerate_default_config(environ: Mapping[str, str] | None = None) -> Path | None:
    """The file `accelerate launch` reads when given no --config_file, if it exists.

    As accelerate/commands/config/config_args.py resolves it: $HF_HOME/accelerate, else
    $XDG_CACHE_HOME/huggingface/accelerate, else ~/.cache/huggingface/accelerate; the YAML file,
    or the legacy JSON one when only that exists.
    """
    env = os.environ if environ is None else environ
    cache = env.get("XDG_CACHE_HOME") or os.path.join("~", ".cache")
    home = env.get("HF_HOME") or os.path.join(cache, "huggingface")
    directory = Path(os.path.expanduser(home)) / "accelerate"
    yaml_file, json_file = directory / "default_config.yaml", directory / "default_config.json"
    if yaml_file.is_file():
        return yaml_file
    return json_file if json_file.is_file() else None
