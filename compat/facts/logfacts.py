"""Facts a training log prints about its environment and configuration, each with its line.

Read: `pip list` / `pip freeze` / `conda list` tables, `ds_report`, `trl env`, `vllm
collect-env` and `python -m torch.utils.collect_env` reports, `nvidia-smi` tables, DeepSpeed's
config dump (the `config.py:print` lines and the JSON block), accelerate config dumps, launcher
command lines (`--deepspeed ds.json`, `--nproc_per_node 8`, `--zero_stage 3 --adam_offload`),
version banners (`DeepSpeed info: version=...`, vLLM's engine banner) and `NAME @ git+URL@SHA`
commits. Every extractor is keyed on a literal anchor (see compat.facts.logread), so a log of any size
is read in one pass; a fact printed twice keeps the last value printed (the run that crashed is
usually the last one in a log), and the line it came from.

Only what is printed is a fact: a package the log does not mention is unknown, never absent.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.errors import CompatError
from compat.facts.logread import Hit, Probe, clean, strip_rank
from compat.model import Gpu, Hardware, Origin, PackageFact, UsageFact

MAX_VERSION = 64  # characters: a longer "version" is not one (and 5,000 digits would not parse)


def parse_version(text: str) -> Version | None:
    """A version printed in a log, or None: bounded, so hostile text never reaches int()."""
    if not text or len(text) > MAX_VERSION:
        return None
    try:
        return Version(text)
    except (InvalidVersion, ValueError):
        return None


class LogFact(NamedTuple):
    # package | installed | commit | python | build | usage | driver | cuda_driver (the driver's
    # CUDA version, never a build's) | gpu (a GPU list's) | gpu_seen (a GPU a message names) |
    # compute_capability | arch_list (compat.facts.machinefacts)
    kind: str
    key: str  # package name, build or usage key, GPU index
    value: str
    line: int
    text: str  # the log line it was read from (trimmed)
    source: str  # "pip freeze", "ds_report", "DeepSpeed config", "launcher", ...


# Names as env reports spell them -> distribution names.
_REPORT_NAMES = {
    "pytorch": "torch",
    "torch": "torch",
    "trl": "trl",
    "transformers": "transformers",
    "vllm": "vllm",
    "deepspeed": "deepspeed",
    "accelerate": "accelerate",
    "peft": "peft",
    "datasets": "datasets",
    "hf hub": "huggingface-hub",
    "huggingface_hub": "huggingface-hub",
    "bitsandbytes": "bitsandbytes",
    "liger-kernel": "liger-kernel",
    "flash-attn": "flash-attn",
    "flash attention": "flash-attn",
    "numpy": "numpy",
    "triton": "triton",
    "xformers": "xformers",
    "openrlhf": "openrlhf",
    "ray": "ray",
    "torchvision": "torchvision",
    "torchaudio": "torchaudio",
    "safetensors": "safetensors",
    "llamafactory": "llamafactory",
}

_FREEZE = re.compile(
    r"^\s*(?:\[(?:pip3?|conda)\]\s+)?([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][^\s;,'\"]*)\s*$"
)
_FOUND = re.compile(r"\bfound ([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][^\s;,'\"]*)")
_GIT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*) @ git\+\S+?@([0-9a-fA-F]{7,40})\b")
# `- TRL version: 0.15.1`, `- \`transformers\` version: 4.40.0`, `PyTorch version (GPU?): 2.3.0`
# (the name's length is bounded: these run on any line with "ersion" in it)
_REPORT = re.compile(
    r"^\s*(?:[-*]\s*)?`?(?P<name>[A-Za-z][\w .+/-]{0,40}?)`?\s+[Vv]ersion(?:\s*\([^)]{0,20}\))?"
    r"\s*:\s*(?P<value>\S.*)"
)
_DOTTED = re.compile(r"(?:^|print\]|\s)(?P<key>[A-Za-z][\w ]{0,40}?)\s+\.{2,}\s*(?P<value>\S.*)")
_TABLE_ROW = re.compile(r"^\s*([A-Za-z0-9_][A-Za-z0-9._-]*)\s+([0-9][^\s]*)(?:\s|$)")
_PIP_HEADER = re.compile(r"^\s*Package\s+Version\b")
_CONDA_HEADER = re.compile(r"^\s*#\s*Name\s+Version\s+Build")
# nvidia-smi's header: `Driver Version:` / `CUDA Version:`, and from R610 `KMD Version:` (the
# kernel-mode driver: the same number) / `CUDA UMD Version:` (the user-mode driver's CUDA)
_SMI_DRIVER = re.compile(r"(?:Driver|KMD) Version:\s*([0-9.]+)")
_SMI_CUDA = re.compile(r"CUDA (?:UMD )?Version:\s*([0-9.]+)")
_SMI_GPU = re.compile(r"^\|\s+(\d+)\s+(\S.{0,60}?)\s+(?:On|Off)\s+\|")
_COLLECT_GPU = re.compile(r"^\s*GPU (\d+): (\S.*)")
_DS_BANNER = re.compile(r"DeepSpeed info: version=([^\s,]+)(?:, git-hash=([0-9a-fA-F]{7,40}))?")
_VLLM_BANNER = re.compile(
    r"(?:LLM engine \(v|vLLM API server version |vLLM version:? v?)([0-9][^\s),]*)"
)
_TORCH_CUDA = re.compile(r"CUDA used to build PyTorch\s*:\s*([0-9.]+)")
_CUDA_DEVICES = re.compile(r"CUDA device\(s\):\s*(\S.*)")
_ARG = re.compile(r"(?:^|\s)--([A-Za-z][\w-]*)(?:[= ]+([^\s\\-][^\s\\]*))?")
_KWARG = re.compile(
    r"\b(use_vllm|vllm_device|max_grad_norm|gradient_checkpointing|zero_stage|num_processes)"
    r"=([\w.:'\"-]+?)(?=[,)\s]|$)"
)
_DICT_ITEM = re.compile(
    r"'(zero_stage|offload_optimizer_device|offload_param_device|gradient_clipping|num_processes)'"
    r":\s*'?([\w.]+)"
)
_SCRIPT = re.compile(r"\btrain_(ppo|grpo|dpo|sft|kto|orpo|rloo)(_ray)?\b")
_YAML_KEY = re.compile(r"^\s*(?:-\s+)?([A-Za-z_]+)\s*:\s*([^\s#]+)\s*(?:#.*)?$")  # "- key: v" too

# Launcher and config keys -> (usage key, how the value is read).
_ARG_USAGE = {
    "nproc_per_node": "num_processes",
    "nproc-per-node": "num_processes",
    "num_gpus": "num_processes",
    "num_processes": "num_processes",
    "zero_stage": "zero_stage",
    "max_grad_norm": "gradient_clipping",
    "use_vllm": "use_vllm",
    "gradient_checkpointing": "gradient_checkpointing",
}
_YAML_USAGE = {
    "zero_stage": "zero_stage",
    "offload_optimizer_device": "offload_optimizer",
    "offload_param_device": "offload_param",
    "num_processes": "num_processes",
    "use_vllm": "use_vllm",
    "gradient_clipping": "gradient_clipping",
    "max_grad_norm": "gradient_clipping",
    "vllm_device": "vllm_device",
    "fsdp_version": "fsdp_version",
    "gradient_checkpointing": "gradient_checkpointing",
    "distributed_type": "distributed",
    "mixed_precision": "mixed_precision",
}
# accelerate's distributed_type -> the `distributed` usage key.
_DISTRIBUTED = {
    "deepspeed": "deepspeed",
    "fsdp": "fsdp",
    "multi_gpu": "ddp",
    "no": "none",
    "megatron_lm": "megatron",
}
_TRAINER_FILES = {
    "grpo_trainer.py": "grpo",
    "ppo_trainer.py": "ppo",
    "dpo_trainer.py": "dpo",
    "sft_trainer.py": "sft",
    "orpo_trainer.py": "orpo",
    "kto_trainer.py": "kto",
    "rloo_trainer.py": "rloo",
}

TABLE_LINES = 1500  # a pip list / conda list table is read up to this many rows
BLOCK_LINES = 80  # a JSON zero_optimization block


def _version_block(line: bytes) -> int:
    """Lines with "ersion" that start a block: the headers of pip and conda tables."""
    if b"Package" in line or b"# Name" in line:
        return TABLE_LINES
    return 1


# Few anchors, each shared by several extractors: every anchor is one pass over the log. The
# short ones run where a run starts (see compat.facts.logread.Probe.startup).
PROBES = (
    Probe(b"==", "freeze", startup=True),
    Probe(b"ersion", "version", _version_block, startup=True),
    Probe(b"/lib/python3.", "pypath", startup=True),
    Probe(b" ....", "dotted", startup=True),
    Probe(b" --", "args", startup=True),
    Probe(b"offload", "args", startup=True),
    Probe(b"vllm", "args", startup=True),
    Probe(b"zero_stage", "args", startup=True),
    Probe(b"gradient_c", "clip", startup=True),
    Probe(b" @ git+", "git", startup=True),
    Probe(b"[conda] ", "collect_env", startup=True),
    Probe(b"num_processes", "args", startup=True),
    Probe(b"max_grad_norm", "args", startup=True),
    Probe(b"distributed_type", "args", startup=True),
    Probe(b"fsdp_version", "args", startup=True),
    Probe(b"mixed_precision", "args", startup=True),
    Probe(b"DeepSpeed info: version=", "ds-banner", reopens=True),
    Probe(b"ds_accelerator to ", "marker", reopens=True),
    Probe(b"GPU models and configuration", "collect-gpus", 17, reopens=True),
    Probe(b"CUDA used to build PyTorch", "torch-cuda", reopens=True),
    Probe(b"CUDA device(s):", "cuda-devices", reopens=True),
    Probe(b"LLM engine (v", "vllm-banner", reopens=True),
    Probe(b"NVIDIA-SMI", "version", 40, reopens=True),
    Probe(b'"zero_optimization"', "ds-json", BLOCK_LINES, reopens=True),
)


# A POSIX interpreter's package directory: lib/python3.8/dist-packages, lib/python3.11/site-packages
_PYTHON_PATH = re.compile(r"/lib/python(3\.\d{1,2})t?/(?:site|dist)-packages/")
PATH_SOURCE = "a package path"

# Sources that are the running process reporting itself, not a listing of an environment.
_RUNTIME_SOURCES = frozenset(
    {"xFormers warning", "printed", "Unsloth", "DeepSpeed banner", "vLLM banner"}
)


def _is_runtime(source: str) -> bool:
    return source in _RUNTIME_SOURCES or source.startswith("message")


def _release(value: str) -> str:
    """`2.3.0+cu121` -> `2.3.0`: a local label is a build, not another release."""
    return value.split("+", 1)[0]


@dataclass
class FactCollector:
    """Receives the hits of PROBES (and of frame lines) and keeps the last value of each fact."""

    log: str
    facts: dict[tuple[str, str], LogFact] = field(default_factory=dict)
    # A version a listing printed that the running process contradicts (the fact kept instead).
    conflicts: dict[tuple[str, str], LogFact] = field(default_factory=dict)
    path_pythons: set[str] = field(default_factory=set)  # the X.Y of every .../lib/pythonX.Y/

    def handle(self, hit: Hit) -> None:
        kind = hit.key
        if kind == "ds-json" or (kind == "collect-gpus"):
            self._block(kind, hit)
            return
        if kind == "version" and hit.need > 1:
            first = hit.lines[0]
            self._block("smi" if b"NVIDIA-SMI" in first else "table", hit)
            return
        text, _ = strip_rank(clean(hit.lines[0]))
        getattr(self, "_" + str(kind).replace("-", "_"))(text, hit.line)

    def _version(self, text: str, line: int) -> None:
        """Every line with "ersion": env reports, banners, ds_report, nvidia-smi's header."""
        if "DeepSpeed info: version=" in text:
            return  # its own probe reads it
        if "API server version" in text or "vLLM version" in text:
            self._vllm_banner(text, line)
        if " ...." in text:
            return  # ds_report's "torch version ....": the dotted extractor reads it
        self._report(text, line)

    def _clip(self, text: str, line: int) -> None:
        if '"gradient_clipping"' in text:
            self._ds_json_clip(text, line)
        elif " ...." not in text:
            self._args(text, line)

    def _pypath(self, text: str, line: int) -> None:
        """`/usr/local/lib/python3.8/dist-packages/vllm/_C.abi3.so`: the interpreter whose
        packages the path is, read only where nothing better says the Python (a version line,
        an extension's CPython tag), and never where the log's paths name two Pythons."""
        found = _PYTHON_PATH.findall(text)
        if not found:
            return
        self.path_pythons.update(found)
        old = self.facts.get(("python", "python"))
        if len(self.path_pythons) > 1:
            if old is not None and old.source == PATH_SOURCE:
                del self.facts[("python", "python")]  # two interpreters: the log does not say
            return
        if old is None:
            self._add("python", "python", found[0], line, text, PATH_SOURCE)

    def frame(self, file: str, text: str, line: int) -> None:
        """A traceback frame near an error (`file` is its base name): grpo_trainer.py, ... say
        which trainer ran."""
        trainer = _TRAINER_FILES.get(file)
        if trainer:
            self._usage("trainer", trainer, line, text, "traceback")

    # -- recording

    def _add(self, kind: str, key: str, value: str, line: int, text: str, source: str) -> None:
        old = self.facts.get((kind, key))
        new = LogFact(kind, key, value, line, text.strip()[:300], source)
        if old is not None and old.source == PATH_SOURCE and source != PATH_SOURCE:
            self.facts[(kind, key)] = new  # a stated Python beats one a path implies
            return
        if old is not None and kind == "package" and _release(old.value) != _release(value):
            # What the running process reports (xFormers' "(you have X)", a printed
            # torch.__version__) is what ran; a listing (pip list, freeze, an env report) may be
            # another environment's (InvokeAI#6590 pastes pip's torch 2.3.0 under a warning from
            # a process running 2.0.1). The process wins over a listing, and the two are said.
            runtime_old, runtime_new = _is_runtime(old.source), _is_runtime(source)
            if runtime_old != runtime_new:
                kept, other = (old, new) if runtime_old else (new, old)
                self.facts[(kind, key)] = kept
                self.conflicts[(kind, key)] = other
                return
        if old is None or old.line <= line:  # the last one printed wins
            self.facts[(kind, key)] = new

    def _marker(self, text: str, line: int) -> None:
        """A run starts (DeepSpeed's accelerator line): nothing to read, it reopens the scan."""

    def _package(self, name: str, version: str, line: int, text: str, source: str) -> None:
        if parse_version(version) is not None:
            self._add("package", canonicalize_name(name), version, line, text, source)

    # The readers of compat.facts.logversions record through these.
    add = _add
    add_package = _package

    def _usage(self, key: str, value: str, line: int, text: str, source: str) -> None:
        self._add("usage", key, value, line, text, source)

    # -- single-line extractors

    def _collect_env(self, text: str, line: int) -> None:
        """collect_env's `[conda] NAME  VERSION  BUILD  CHANNEL` lines (its `[pip3] NAME==VERSION`
        lines are pip freeze's shape, read by _freeze), through the catalogue of fact shapes."""
        from compat.facts.shapes import collect_env_line

        found = collect_env_line(text)
        if found is not None:
            self._package(found.name, found.value, line, text, "collect_env")

    def _freeze(self, text: str, line: int) -> None:
        found = _FREEZE.match(text)
        if found:
            source = "collect_env" if text.lstrip().startswith("[") else "pip freeze"
            self._package(found.group(1), found.group(2), line, text, source)
            return
        found = _FOUND.search(text)
        if found:
            self._package(found.group(1), found.group(2), line, text, "version check")

    def _git(self, text: str, line: int) -> None:
        found = _GIT.match(text)
        if found:
            name = canonicalize_name(found.group(1))
            self._add("commit", name, found.group(2).lower(), line, text, "pip freeze")

    def _report(self, text: str, line: int) -> None:
        found = _REPORT.match(text)
        if not found:
            self._smi_line(text, line)
            return
        name = found.group("name").strip().lower()
        value = found.group("value").split()[0]
        if name == "python":
            self._add("python", "python", value, line, text, "env report")
        elif name == "nvidia driver":
            self._add("driver", "driver", value, line, text, "collect_env")
        elif name in _REPORT_NAMES:
            self._package(_REPORT_NAMES[name], value, line, text, "env report")
        else:
            self._smi_line(text, line)

    def _smi_line(self, text: str, line: int) -> None:
        driver = _SMI_DRIVER.search(text)
        if driver:
            self._add("driver", "driver", driver.group(1), line, text, "nvidia-smi")
        cuda = _SMI_CUDA.search(text)
        if cuda:
            self._add("cuda_driver", "cuda_driver", cuda.group(1), line, text, "nvidia-smi")

    def _dotted(self, text: str, line: int) -> None:
        found = _DOTTED.search(text)
        if not found:
            return
        key, value = found.group("key").strip().lower(), found.group("value").strip()
        if key == "torch version":
            self._package("torch", value.split()[0], line, text, "ds_report")
        elif key == "deepspeed info":
            self._package("deepspeed", value.split(",")[0].strip(), line, text, "ds_report")
        elif key == "torch cuda version":
            self._add("build", "torch_cuda", value.split()[0], line, text, "ds_report")
        elif key == "nvcc version":  # the toolkit DeepSpeed compiles its ops with
            self._add("build", "nvcc", value.split()[0], line, text, "ds_report")
        elif key == "gradient_clipping":
            self._usage("gradient_clipping", value.split()[0], line, text, "DeepSpeed config")
        elif key == "zero_optimization_stage":
            self._usage("zero_stage", value.split()[0], line, text, "DeepSpeed config")
        elif key == "zero_config":
            self._zero_config(value, line, text)

    def _zero_config(self, value: str, line: int, text: str) -> None:
        stage = re.search(r"\bstage=(\d)", value)
        if stage:
            self._usage("zero_stage", stage.group(1), line, text, "DeepSpeed config")
        for key in ("offload_optimizer", "offload_param"):
            found = re.search(rf"\b{key}=(None|\w+\(device='?(\w+))", value)
            if found:
                device = "none" if found.group(1) == "None" else found.group(2).lower()
                self._usage(key, device, line, text, "DeepSpeed config")

    def _torch_cuda(self, text: str, line: int) -> None:
        found = _TORCH_CUDA.search(text)
        if found:
            self._add("build", "torch_cuda", found.group(1), line, text, "collect_env")

    def _cuda_devices(self, text: str, line: int) -> None:
        found = _CUDA_DEVICES.search(text)
        if found:
            for index, name in enumerate(n.strip() for n in found.group(1).split(",")):
                if name:
                    self._add("gpu", str(index), name, line, text, "trl env")

    def _ds_banner(self, text: str, line: int) -> None:
        found = _DS_BANNER.search(text)
        if found:
            self._package("deepspeed", found.group(1), line, text, "DeepSpeed banner")
            if found.group(2):
                self._add("commit", "deepspeed", found.group(2).lower(), line, text, "banner")

    def _vllm_banner(self, text: str, line: int) -> None:
        found = _VLLM_BANNER.search(text)
        if found:
            self._package("vllm", found.group(1), line, text, "vLLM banner")

    def _ds_json_clip(self, text: str, line: int) -> None:
        found = re.search(r'"gradient_clipping"\s*:\s*("auto"|[0-9.eE+-]+)', text)
        if found:
            value = found.group(1).strip('"')
            self._usage("gradient_clipping", value, line, text, "DeepSpeed config")

    def _args(self, text: str, line: int) -> None:
        script = _SCRIPT.search(text)
        if script:
            self._usage("trainer", script.group(1), line, text, "launcher")
            if script.group(1) == "ppo" and not script.group(2):
                # OpenRLHF's train_ppo generates with the HF model; only train_ppo_ray has vLLM.
                self._usage("use_vllm", "false", line, text, "launcher")
        yaml = _YAML_KEY.match(text)
        if yaml and yaml.group(1) in _YAML_USAGE:
            value = yaml.group(2).strip("'\"")
            if yaml.group(1) == "distributed_type":
                value = _DISTRIBUTED.get(value.lower(), "")
                if not value:
                    return
            self._usage(_YAML_USAGE[yaml.group(1)], value, line, text, "config dump")
            return
        for name, value in _DICT_ITEM.findall(text):  # accelerate's deepspeed_config dict
            self._usage(_YAML_USAGE[name], value, line, text, "config dump")
        for name, value in _KWARG.findall(text):  # TrainingArguments / GRPOConfig reprs
            key = _YAML_USAGE.get(name)
            if key and value.lower() not in ("none", "auto"):
                self._usage(key, value.strip("'\""), line, text, "training arguments")
        for name, value in _ARG.findall(text):
            key = name.replace("-", "_")
            if key in ("nproc_per_node", "num_gpus", "num_processes") and value.isdigit():
                self._usage("num_processes", value, line, text, "launcher")
            elif key == "zero_stage" and value.isdigit():
                self._usage("zero_stage", value, line, text, "launcher")
            elif key == "adam_offload":
                self._usage("offload_optimizer", "cpu", line, text, "launcher")
            elif key == "deepspeed":
                self._usage("distributed", "deepspeed", line, text, "launcher")
            elif key in ("fsdp", "use_fsdp"):
                self._usage("distributed", "fsdp", line, text, "launcher")
            elif key == "use_vllm":
                self._usage("use_vllm", value or "true", line, text, "launcher")
            elif key == "vllm_num_engines" and value.isdigit():
                self._usage(
                    "use_vllm", "true" if int(value) > 0 else "false", line, text, "launcher"
                )
            elif key == "max_grad_norm" and value:
                self._usage("gradient_clipping", value, line, text, "launcher")
            elif key == "gradient_checkpointing" and value.lower() in ("", "true", "false"):
                self._usage("gradient_checkpointing", value or "true", line, text, "launcher")
            elif key == "vllm_device" and value:
                self._usage("vllm_device", value, line, text, "launcher")

    # -- multi-line blocks

    def _block(self, kind: object, hit: Hit) -> None:
        lines = [strip_rank(clean(raw))[0] for raw in hit.lines]
        if kind == "table" and _PIP_HEADER.match(lines[0]):
            self._table(lines, hit.line, "pip list")
        elif kind == "table" and _CONDA_HEADER.match(lines[0]):
            self._table(lines, hit.line, "conda list")
        elif kind == "smi":
            self._smi(lines, hit.line)
        elif kind == "collect-gpus":
            self._collect_gpus(lines, hit.line)
        elif kind == "ds-json":
            self._ds_json(lines, hit.line)

    def _table(self, lines: list[str], first: int, source: str) -> None:
        rows = 0
        for offset, text in enumerate(lines[1:], start=1):
            if not text.strip() or set(text.strip()) <= {"-", " "}:
                if rows:
                    break
                continue
            if text.lstrip().startswith("#"):
                continue
            found = _TABLE_ROW.match(text)
            if not found:
                break
            rows += 1
            name = found.group(1).lower()
            if name == "python":  # conda lists the interpreter
                self._add("python", "python", found.group(2), first + offset, text, source)
            else:
                name = "torch" if name == "pytorch" else name
                self._package(name, found.group(2), first + offset, text, source)

    def _smi(self, lines: list[str], first: int) -> None:
        gpus = 0
        for offset, text in enumerate(lines):
            self._smi_line(text, first + offset)
            found = _SMI_GPU.match(text)
            if found and "Name" not in text:
                self._add("gpu", found.group(1), found.group(2), first + offset, text, "nvidia-smi")
                gpus += 1
            if (
                gpus
                and text.startswith("+")
                and offset > 0
                and "Processes" in "".join(lines[offset : offset + 2])
            ):
                break

    def _collect_gpus(self, lines: list[str], first: int) -> None:
        head = lines[0].split(":", 1)[1].strip() if ":" in lines[0] else ""
        found = re.match(r"GPU (\d+): (.+)", head)
        if found:  # "GPU models and configuration: GPU 0: NVIDIA ..." on one line
            self._add("gpu", found.group(1), found.group(2).strip(), first, lines[0], "collect_env")
        elif head and not head.startswith("GPU"):  # a single GPU model name
            self._add("gpu", "0", head, first, lines[0], "collect_env")
        for offset, text in enumerate(lines[1:], start=1):
            gpu = _COLLECT_GPU.match(text)
            if not gpu:
                break
            self._add(
                "gpu", gpu.group(1), gpu.group(2).strip(), first + offset, text, "collect_env"
            )

    def _ds_json(self, lines: list[str], first: int) -> None:
        """`"zero_optimization": {...}` printed as JSON: stage and offload devices, each with
        the line it is on."""
        depth, seen_brace, end = 0, False, len(lines)
        for index, text in enumerate(lines):
            start = text.index('"zero_optimization"') if index == 0 else 0
            for char in text[start:]:
                if char == "{":
                    depth, seen_brace = depth + 1, True
                elif char == "}":
                    depth -= 1
            if seen_brace and depth <= 0:
                end = index + 1
                break
        block = lines[:end]
        section: str | None = None
        for offset, text in enumerate(block):
            key = re.search(r'"(offload_optimizer|offload_param)"', text)
            if key:
                section = key.group(1)
                inline = re.search(r'"device"\s*:\s*"(\w+)"', text)
                if inline:
                    self._usage(
                        section, inline.group(1).lower(), first + offset, text, "DeepSpeed config"
                    )
                    section = None
                continue
            stage = re.search(r'"stage"\s*:\s*"?(\d)', text)
            if stage:
                self._usage("zero_stage", stage.group(1), first + offset, text, "DeepSpeed config")
            device = re.search(r'"device"\s*:\s*"(\w+)"', text)
            if device and section:
                self._usage(
                    section, device.group(1).lower(), first + offset, text, "DeepSpeed config"
                )
                section = None


# ---------------------------------------------------------------------------------------------
# From log facts to engine facts


@dataclass(frozen=True)
class LogEvidence:
    """What the log shows, ready for the engine."""

    facts: tuple[LogFact, ...]
    packages: Mapping[str, PackageFact]
    python: Version | None
    builds: Mapping[str, Version]
    usage: Mapping[str, UsageFact]
    hardware: Hardware | None
    # The architectures a build carries, as its own message lists them ("torch": sm_50 ... sm_90).
    arch_lists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # package name -> the version a listing printed that the running process contradicts
    conflicts: Mapping[str, LogFact] = field(default_factory=dict)
    # package -> the specifier a release's own requirement check printed (the last one)
    requirements: Mapping[str, str] = field(default_factory=dict)


def evidence(collector: FactCollector) -> LogEvidence:
    from compat.probes.cuda import builds_from_versions
    from compat.usage import coerce

    log = collector.log
    facts = sorted(collector.facts.values(), key=lambda f: (f.line, f.kind, f.key))
    commits = {f.key: f for f in facts if f.kind == "commit"}
    packages: dict[str, PackageFact] = {}
    for fact in facts:
        if fact.kind == "package":
            commit = commits.get(fact.key)
            packages[fact.key] = PackageFact(
                fact.key,  # type: ignore[arg-type]
                (Version(fact.value),),
                fact.key,
                Origin(log, fact.line),
                commit.value if commit else None,
            )
    for fact in facts:
        # A message only its package prints (a rule's `installed_*` group): present, version
        # not shown. An empty `versions` says so to the engine (compat.kb.conditions.PackageVersion).
        if fact.kind == "installed" and fact.key not in packages:
            packages[fact.key] = PackageFact(
                fact.key,  # type: ignore[arg-type]
                (),
                fact.key,
                Origin(log, fact.line),
            )
    builds = {
        key: Version(str(value))
        for key, value in builds_from_versions(
            {name: p.versions[0] for name, p in packages.items() if p.versions}
        ).items()
    }
    usage: dict[str, UsageFact] = {}
    kept: list[LogFact] = []
    for fact in facts:
        if fact.kind == "build":
            version = parse_version(fact.value)
            if version is None:
                continue
            builds[fact.key] = version
        elif fact.kind == "usage":
            value = fact.value
            note = f"read from the log ({fact.source})"
            if value.lower() == "auto" and fact.key == "gradient_clipping":
                value, note = "1.0", note + '; "auto": HF Trainer max_grad_norm, default 1.0'
            try:
                coerced = coerce(fact.key, value, Origin(log, fact.line))
            except CompatError:
                continue  # "auto" stage, a shell variable, ...: not a fact
            usage[fact.key] = UsageFact(fact.key, coerced, Origin(log, fact.line), note)
        kept.append(fact)
    python = next((_version(f.value) for f in facts if f.kind == "python"), None)
    arch_lists = {f.key: tuple(f.value.split()) for f in facts if f.kind == "arch_list"}
    conflicts = {
        key: fact for (kind, key), fact in collector.conflicts.items() if kind == "package"
    }
    requirements = {f.key: f.value for f in facts if f.kind == "requirement"}
    return LogEvidence(
        tuple(kept),
        packages,
        python,
        builds,
        usage,
        _hardware(facts),
        arch_lists,
        conflicts,
        requirements,
    )


_version = parse_version


def _hardware(facts: list[LogFact]) -> Hardware | None:
    """The machine as the log shows it. A GPU list (nvidia-smi, collect_env) gives the GPU
    count; a GPU a message names (`gpu_seen`) or a driver's CUDA version alone leaves the count
    unknown (`Hardware.extra["gpu_list"] = "partial"`, read as `Hardware.partial`)."""
    listed = [f for f in facts if f.kind == "gpu"]
    seen = [f for f in facts if f.kind == "gpu_seen"]
    # an AMD GPU's target (rocminfo's `Name: gfx942`, collect_env's `(gfx942:...)`): where no
    # GPU is named otherwise, it is one GPU seen
    gfx = {f.key: f.value for f in facts if f.kind == "gfx_target"}
    if gfx and not listed and not seen:
        seen = [
            LogFact("gpu_seen", key, f"AMD {value}", 0, "", "rocminfo")
            for key, value in gfx.items()
        ]
    driver = next((f for f in reversed(facts) if f.kind == "driver"), None)
    cuda = next((f for f in reversed(facts) if f.kind == "cuda_driver"), None)
    override = next((f.value for f in reversed(facts) if f.kind == "gfx_override"), None)
    if not listed and not seen and cuda is None and driver is None and override is None:
        return None  # nothing about the machine: unknown, whatever else was printed
    capability = {
        f.key: v
        for f in facts
        if f.kind == "compute_capability" and (v := parse_version(f.value)) is not None
    }
    gpus = listed or seen
    problems = () if driver else ("the log shows no driver version",)
    return Hardware(
        driver_version=_version(driver.value) if driver else None,
        cuda_driver_version=_version(cuda.value) if cuda else None,
        gpus=tuple(
            Gpu(
                index=int(f.key),
                name=f.value,
                compute_capability=capability.get(f.key),
                vendor="amd" if f.key in gfx else None,
                gfx_target=gfx.get(f.key),
            )
            for f in sorted(gpus, key=lambda f: int(f.key))
        ),
        source="log",
        problems=problems if listed else (*problems, "the log shows no GPU list"),
        extra={} if listed else {"gpu_list": "partial"},
        driver_text=driver.value if driver else None,
        gfx_override=override,
    )


def fact_document(fact: LogFact) -> dict[str, object]:
    return {
        "kind": fact.kind,
        "key": fact.key,
        "value": fact.value,
        "line": fact.line,
        "text": fact.text,
        "source": fact.source,
    }
