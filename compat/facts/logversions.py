"""The versions a log states in its own words, each with its line (compat.facts.logfacts reads the
reports and tables; this module reads what people and tools print in passing):

- `NAME: VERSION`, `NAME==VERSION`, `NAME VERSION` lines (`torch: 2.3.0`, `- flash-attn 2.5.7`)
  for the names the knowledge base knows; the line must be only that, after a rank prefix, a
  timestamp, a log level or a list bullet: a version is never guessed from a sentence;
- `pip show` blocks (`Name:` then `Version:`);
- pip's own output: wheel file names (`flash_attn-2.5.7+cu122torch2.3cxx11abiFALSE-...whl`, whose
  label also says which torch it was built for), `Requirement already satisfied: NAME in PATH
  (VERSION)` and `Successfully installed NAME-VERSION ...`;
- `torch.__version__` / `torch.version.cuda` / `torch.version.hip` prints, on their line or the
  next (a REPL, IPython's `Out[N]:`, a `python -c "print(...)"`);
- printed mappings of names to versions (`{'torch': '2.4.1+rocm6.1', ...}`, JSON objects);
- banners and messages that carry build facts: xFormers' "xFormers was built for: PyTorch
  2.6.0+cu124 with CUDA 1204 (you have 2.8.0+cu128)" and Unsloth's start-up banner;
- the named groups of a rule's symptom signature (`(?P<build_nvcc>...)`, see
  docs/knowledge-base.md), read from the line the signature matched.

Every reader is keyed on a literal anchor (compat.facts.logread), runs on at most a few lines, and
bounds what it accepts (a version is at most compat.facts.logfacts.MAX_VERSION characters).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from packaging.utils import canonicalize_name

from compat.facts.logfacts import FactCollector, parse_version
from compat.facts.logread import Hit, Probe, clean, strip_rank


@dataclass(frozen=True)
class VersionKey:
    """The key of this module's probes, so that explain hands their hits here."""

    kind: str


# How a name is written where it is printed, beyond its distribution name (matched without
# regard to case, `-`/`_`/space alike). Names missing here are matched as the KB spells them.
_SPELLINGS: dict[str, tuple[str, ...]] = {
    "torch": ("PyTorch", "Torch"),
    "deepspeed": ("DeepSpeed",),
    "vllm": ("vLLM",),
    "xformers": ("xFormers",),
    "numpy": ("NumPy",),
    "openrlhf": ("OpenRLHF",),
    "trl": ("TRL",),
    "flash-attn": ("flash_attn", "flash-attention", "Flash Attention", "FlashAttention"),
    "huggingface-hub": ("huggingface_hub", "hf hub"),
    "transformers": ("Transformers",),
    "triton": ("Triton",),
    "ray": ("Ray",),
    "python": ("Python",),
}
# Module names in `X.__version__` prints -> distribution names, where they differ.
_MODULES = {"flash_attn": "flash-attn", "huggingface_hub": "huggingface-hub", "sklearn": ""}

_LEAD = re.compile(
    r"^\s{0,16}"
    r"(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?\]?[\s|:-]{0,4})?"
    r"(?:\[?(?:INFO|WARNING|WARN|DEBUG|ERROR|NOTICE)\]?[\s|:-]{0,4})?"
    r"(?:[-*+\u2022]\s{1,4})?"
)
_NAMED = re.compile(
    r"^`?(?P<name>[A-Za-z][A-Za-z0-9_. -]{0,39}?)`?\s{0,8}(?::|==|\s)\s{0,40}v?"
    r"(?P<version>[0-9][0-9A-Za-z.+!_-]{0,80})(?:\s{1,8}\((?!you have)[^()]{0,80}\))?\s{0,8}$"
)
# A listing's row: the name, its version and one to three more columns, two spaces or more apart
# (`conda list`: `torch   2.5.1+rocm6.2   pypi_0   pypi`)
_ROW = re.compile(
    r"^(?P<name>[A-Za-z][\w.-]{0,60})\s{2,}v?(?P<version>\d[\w.+!-]{0,80})"
    r"(?:\s{2,}[^\s]{1,80}){1,3}\s{0,8}$"
)
# The separators of a footer's items: a bullet, a middle dot or a bar with spaces around it
_BULLETS = re.compile(r"\s[\u2022\u00b7|]\s")
_PIP_NAME = re.compile(r"^\s*Name:\s*([A-Za-z0-9][A-Za-z0-9._-]{0,100})\s*$")
_PIP_VERSION = re.compile(r"^\s*Version:\s*(\S{1,100})\s*$")
_WHEEL = re.compile(
    r"(?:^|[\s/=\"'(])(?P<name>[A-Za-z0-9][A-Za-z0-9._]{0,100}?)-(?P<version>[0-9][^-\s/]{0,100})"
    r"(?:-[0-9][^-\s/]{0,40})?-[^-\s/]{1,40}-[^-\s/]{1,40}-[^-\s/]{1,200}\.whl\b"
)
_SATISFIED = re.compile(
    r"Requirement already satisfied: (?P<name>[A-Za-z0-9][A-Za-z0-9._-]{0,100})[^(\s]{0,200}"
    r"\sin\s.{0,4000}\((?P<version>[0-9][^()\s]{0,100})\)\s*$"
)
_INSTALLED = "Successfully installed "
_DUNDER = re.compile(
    r"\b(?P<module>[A-Za-z_][A-Za-z0-9_]{0,40})\.__version__['\"]?\)?\s{0,8}(?::|=(?!=)|,|\s)\s{0,8}"
    r"['\"]?v?(?P<version>[0-9][0-9A-Za-z.+!_-]{0,80})"
)
_PRINTED = re.compile(
    r"\b([A-Za-z_][A-Za-z0-9_]{0,40}\.__version__|torch\.version\.(?:cuda|hip))\b"
)
_PROMPT = re.compile(r"^\s{0,8}(?:>>>|In \[\d{1,6}\]:|\$|#)")
# A REPL's output prompt before the value it prints (IPython: `Out[2]: '2.2.0+rocm5.7'`)
_OUTPUT_PROMPT = re.compile(r"^\s{0,8}Out\[\d{1,6}\]:\s{0,8}")
# torch.version.hip stated on its line (`torch.version.hip: 6.2.41133-dd7f95766`,
# `torch.version.hip = '6.2.41133'`): the ROCm (HIP) version torch was built with
_HIP_STATED = re.compile(
    r"\btorch\.version\.hip['\"]?\)?\s{0,8}(?::|=(?!=)|,|\s)\s{0,8}['\"]?"
    r"(?P<version>\d{1,2}\.\d{1,3}(?:\.\d{1,6})?)"
)
# A printed mapping of names to versions (a Python dict or JSON object: sdnext's `System packages:
# {'torch': '2.4.1+rocm6.1', 'diffusers': ...}`, a report's `{"torch": "2.3.0"}`): each pair whose
# name the knowledge base knows and whose value is a version
_DICT_PAIR = re.compile(
    r"(?<![\w.-])(?P<q>['\"])(?P<name>[A-Za-z][\w.-]{0,60})(?P=q)\s{0,4}:\s{0,8}"
    r"(?P<r>['\"])v?(?P<version>\d[\w.+!-]{0,80})(?P=r)"
)
_XFORMERS = re.compile(
    r"xFormers was built for:?\s+(?:\([\w.]{1,80} pid=\d+[^)]{0,80}\)\s+)?PyTorch\s+"
    r"(?P<built>\S{1,100}) with CUDA (?P<cuda>\d{3,5}) \(you have (?P<have>[^)\s]{1,100})\)"
    r"(?:\s+(?:\([\w.]{1,80} pid=\d+[^)]{0,80}\)\s+)?Python\s+\S{1,40} \(you have "
    r"(?P<python>[^)\s]{1,40})\))?"
)
_UNSLOTH = re.compile(r"Unsloth (?P<unsloth>[0-9][^\s:]{0,80}):")
_BANNER_ITEM = re.compile(
    r"\b(?P<key>Transformers|vLLM|Torch|CUDA Toolkit|CUDA|Triton|Diffusers): "
    r"(?P<value>[0-9][0-9A-Za-z.+!_-]{0,80})"
)
_UNSLOTH_GPU = re.compile(
    r"^[\s\\/|]{0,40}(?:GPU: )?(?P<name>\S.{0,80}?)\. Num GPUs = (?P<n>\d+)\."
)

HEAD_NAMES = 80  # names the `NAME: VERSION` reader looks for (the KB has ~35)


def _normal(name: str) -> str:
    return re.sub(r"[-_. ]+", "-", name.strip().lower())


def known_names(kb_names: Iterable[str]) -> dict[str, str]:
    """Written name (normalised) -> distribution name (or "python")."""
    table: dict[str, str] = {}
    for name in [*sorted(kb_names)[:HEAD_NAMES], *_SPELLINGS]:
        canonical = str(canonicalize_name(name)) if name != "python" else name
        for spelling in (name, *_SPELLINGS.get(canonical, ())):
            table[_normal(spelling)] = canonical
    table[_normal("pytorch")] = "torch"
    return table


def _anchors(kb_names: Iterable[str]) -> list[bytes]:
    """One literal per written name, its first letter left out so that `Torch` and `torch` share
    one; an anchor that contains another is dropped (the shorter finds its lines too)."""
    spellings = {
        s
        for name in [*sorted(kb_names)[:HEAD_NAMES], *_SPELLINGS]
        for s in (name, name.replace("-", "_"), *_SPELLINGS.get(name, ()))
    }
    tails = {s[1:] if len(s) >= 5 else s for s in spellings}
    tails |= {s.lower() for s in tails if len(s) < 5}  # `trl` and `TRL`
    # `lash-attn`, `lash_attn`, `lash Attention`: their first word finds them all
    tails = {w if len(w := re.split(r"[-_ ]", t)[0]) >= 4 else t for t in tails}
    kept = sorted(t for t in tails if not any(o != t and o in t for o in tails))
    return [t.encode() for t in kept]


class VersionReader:
    """The probes of this module and what their hits mean, recorded into a FactCollector."""

    def __init__(self, collector: FactCollector, kb_names: Iterable[str]) -> None:
        self.collector = collector
        names = list(kb_names)
        self.names = known_names(names)
        self._anchor_list = _anchors(names)

    def probes(self) -> list[Probe]:
        named = [Probe(a, VersionKey("named"), head=True) for a in self._anchor_list]
        return [
            *named,
            Probe(b"Name: ", VersionKey("pip-show"), 2, startup=True),
            Probe(b".whl", VersionKey("wheel"), startup=True),
            Probe(b"__version__", VersionKey("printed"), 2, startup=True),
            Probe(b"version.cuda", VersionKey("printed"), 2, startup=True),
            Probe(b"version.hip", VersionKey("printed"), 2, startup=True),
            Probe(b"{'", VersionKey("mapping"), startup=True),
            Probe(b'{"', VersionKey("mapping"), startup=True),
            # Printed when a run starts (installs, imports, model load): no pass through GBs of
            # training steps, however long the anchor.
            Probe(b"Requirement already satisfied: ", VersionKey("satisfied"), startup=True),
            Probe(_INSTALLED.encode(), VersionKey("installed"), startup=True),
            Probe(b"xFormers was built for", VersionKey("xformers"), 3, startup=True),
            Probe(b"==((====))==", VersionKey("unsloth"), 3, startup=True),
        ]

    def handle(self, hit: Hit) -> None:
        assert isinstance(hit.key, VersionKey)
        lines = [strip_rank(clean(raw))[0] for raw in hit.lines]
        getattr(self, "_" + hit.key.kind.replace("-", "_"))(lines, hit.line)

    # -- recording

    def _package(self, name: str, version: str, line: int, text: str, source: str) -> None:
        if name == "python":
            if parse_version(version) is not None:
                self.collector.add("python", "python", version, line, text, source)
            return
        old = self.collector.facts.get(("package", str(canonicalize_name(name))))
        if old is not None and "+" in old.value and old.value.split("+")[0] == version:
            return  # `flash-attn-2.5.7` after its wheel `flash_attn-2.5.7+cu122torch2.3...`
        self.collector.add_package(name, version, line, text, source)

    def _build(self, key: str, version: str, line: int, text: str, source: str) -> None:
        if parse_version(version) is not None:
            self.collector.add("build", key, version, line, text, source)

    # -- readers

    def _named(self, lines: list[str], line: int) -> None:
        text = lines[0]
        lead = _LEAD.match(text)
        body = text[lead.end() if lead else 0 :]
        found = _NAMED.match(body) or _ROW.match(body)
        if found is not None:
            self._name_version(found, line, text)
            return
        # a footer of `NAME: VERSION` items between bullets (A1111's `version: v1.10.1  •
        # python: 3.10.12  •  torch: 2.3.1+rocm5.7  •  xformers: N/A`): each item is one line's
        parts = _BULLETS.split(body)
        if len(parts) > 1:
            for part in parts:
                item = _NAMED.match(part.strip())
                if item is not None:
                    self._name_version(item, line, text)

    def _name_version(self, found: re.Match[str], line: int, text: str) -> None:
        name = self.names.get(_normal(found.group("name")))
        if name is not None:
            self._package(name, found.group("version"), line, text, "version line")

    def _pip_show(self, lines: list[str], line: int) -> None:
        name = _PIP_NAME.match(lines[0])
        version = _PIP_VERSION.match(lines[1]) if len(lines) > 1 else None
        if name and version:
            self.collector.add_package(
                name.group(1), version.group(1), line + 1, lines[1], "pip show"
            )

    def _wheel(self, lines: list[str], line: int) -> None:
        text = lines[0]
        if "Guessing wheel URL" in text:
            return  # flash-attn's setup.py names the wheel it will try, not one it installed
        for found in _WHEEL.finditer(unquote(text) if "%2B" in text else text):
            name = str(canonicalize_name(found.group("name")))
            if name in self.names.values():
                self._package(name, found.group("version"), line, text, "pip")

    def _satisfied(self, lines: list[str], line: int) -> None:
        found = _SATISFIED.search(lines[0])
        if found:
            name = str(canonicalize_name(found.group("name")))
            self._package(name, found.group("version"), line, lines[0], "pip")

    def _installed(self, lines: list[str], line: int) -> None:
        text = lines[0]
        start = text.find(_INSTALLED)
        if start == -1:
            return  # the anchor lies past the part of a very long line that is read
        for item in text[start + len(_INSTALLED) :].split():
            name, _, version = item.rpartition("-")
            if name and version[:1].isdigit():
                self._package(str(canonicalize_name(name)), version, line, text, "pip")

    def _printed(self, lines: list[str], line: int) -> None:
        """`torch.__version__ = 2.3.0` on one line, or a print / REPL expression whose output
        is the next line (`2.3.0+cu121 12.1` for `print(torch.__version__, torch.version.cuda)`)."""
        text = lines[0]
        for found in _DUNDER.finditer(text):
            self._printed_value(found.group("module"), found.group("version"), line, text)
        hip = _HIP_STATED.search(text)
        if hip is not None:
            self._hip(hip.group("version"), line, text)
        if _DUNDER.search(text) or hip is not None or len(lines) < 2:
            return
        expressions = _PRINTED.findall(text)
        if not expressions or ("print(" not in text and not _PROMPT.match(text)):
            return
        output = _OUTPUT_PROMPT.sub("", lines[1]).strip().strip("()[]")
        values = [v.strip("'\",") for v in output.replace(",", " ").split()]
        if len(values) != len(expressions) or not all(v[:1].isdigit() for v in values):
            return
        for expression, value in zip(expressions, values, strict=True):
            if expression == "torch.version.cuda":
                self._build("torch_cuda", value, line + 1, lines[1], "printed")
            elif expression == "torch.version.hip":
                self._hip(value, line + 1, lines[1])
            else:
                self._printed_value(expression.split(".")[0], value, line + 1, lines[1])

    def _hip(self, version: str, line: int, text: str) -> None:
        """torch.version.hip (`6.2.41133-dd7f95766`): torch's ROCm build, as collect_env's "ROCM
        used to build PyTorch" states it (major.minor)."""
        parts = version.split("-")[0].split(".")
        if len(parts) >= 2 and parts[0].isdigit() and parts[1].isdigit():
            self._build("torch_rocm", f"{parts[0]}.{parts[1]}", line, text, "printed")

    def _mapping(self, lines: list[str], line: int) -> None:
        text = lines[0]
        for found in _DICT_PAIR.finditer(text):
            name = self.names.get(_normal(found.group("name")))
            if name is not None:
                self._package(name, found.group("version"), line, text, "printed mapping")

    def _printed_value(self, module: str, version: str, line: int, text: str) -> None:
        name = _MODULES.get(module, str(canonicalize_name(module)))
        if name and name in self.names.values():
            self._package(name, version, line, text, "printed")

    def _xformers(self, lines: list[str], line: int) -> None:
        joined = " ".join(lines)
        found = _XFORMERS.search(joined)
        if not found:
            return
        have = found.group("have")
        where = next((i for i, t in enumerate(lines) if f"(you have {have})" in t), 0)
        text = lines[where]
        self._package("torch", have, line + where, text, "xFormers warning")
        self._build("xformers_torch", found.group("built"), line + where, text, "xFormers warning")
        cuda = int(found.group("cuda"))
        self._build(
            "xformers_cuda", f"{cuda // 100}.{cuda % 100}", line + where, text, "xFormers warning"
        )
        python = found.group("python")
        if python:
            at = next((i for i, t in enumerate(lines) if f"(you have {python})" in t), where)
            self._package("python", python, line + at, lines[at], "xFormers warning")

    def _unsloth(self, lines: list[str], line: int) -> None:
        """Unsloth's banner: its version, Transformers and vLLM on the first line; the GPU and
        how many on the second; torch, the GPU's compute capability (`CUDA: 8.0` is
        `major.minor` of the device, not a CUDA version), torch's CUDA build (`CUDA Toolkit`)
        and Triton on the third."""
        version = _UNSLOTH.search(lines[0])
        if version is None:
            return
        self._package("unsloth", version.group("unsloth").rstrip("."), line, lines[0], "Unsloth")
        names = {"Transformers": "transformers", "vLLM": "vllm", "Torch": "torch"}
        names |= {"Triton": "triton", "Diffusers": "diffusers"}
        capability = None
        for offset, text in enumerate(lines):
            for item in _BANNER_ITEM.finditer(text):
                key, value = item.group("key"), item.group("value").rstrip(".")
                if key == "CUDA Toolkit":
                    self._build("torch_cuda", value, line + offset, text, "Unsloth")
                elif key == "CUDA":
                    capability = (value, line + offset, text)
                else:
                    self._package(names[key], value, line + offset, text, "Unsloth")
        gpu = _UNSLOTH_GPU.match(lines[1]) if len(lines) > 1 else None
        # One device's name is printed: a GPU list only when it is the only one.
        if gpu and gpu.group("n") == "1":
            self.collector.add("gpu", "0", gpu.group("name"), line + 1, lines[1], "Unsloth")
            if capability is not None and parse_version(capability[0]) is not None:
                self.collector.add("compute_capability", "0", *capability, "Unsloth")


# ---------------------------------------------------------------------------------------------
# Facts a symptom signature carries in its named groups


def record_groups(
    collector: FactCollector, groups: Mapping[str, str | None], line: int, text: str, rule: str
) -> None:
    """The named groups of a signature that matched `text` on `line`, as log facts."""
    source = f"message ({rule})"
    for group, value in sorted(groups.items()):
        if value is None:
            continue  # an optional group that took no part in the match
        if group == "python":
            if parse_version(value) is not None:
                collector.add("python", "python", value, line, text, source)
        elif group == "python_tag":  # an extension's CPython tag: cpython-310 is Python 3.10
            shown = collector.facts.get(("python", "python"))
            series = f"3.{value[1:]}"
            if value[:1] != "3" or not value[1:].isdigit():
                continue
            if shown is None or not (shown.value + ".").startswith(series + "."):
                collector.add("python", "python", series, line, text, source)  # not 3.10.14's
        elif group.startswith("seen_"):  # the message itself is the fact: build KEY is 1
            collector.add("build", group[len("seen_") :], "1", line, text, source)
        elif group.startswith("package_"):
            collector.add_package(group[len("package_") :], value, line, text, source)
        elif group.startswith("build_") and parse_version(value) is not None:
            collector.add("build", group[len("build_") :], value, line, text, source)
        elif group.startswith(("installed_", "release_")):
            # release_NAME: only the NAME releases the rule names print this text (the judge
            # settles that condition, compat.diagnose.judge); NAME printed it, so it is installed
            name = str(canonicalize_name(group.partition("_")[2]))
            collector.add("installed", name, "", line, text, source)


# Libraries whose versions a message states as build facts, by role: the cuDNN torch was compiled
# against and the one the loader found (torch/backends/cudnn/__init__.py).
_BUILD_ROLES = {("cudnn", "compiled"): "cudnn_torch", ("cudnn", "installed"): "cudnn_runtime"}
# The extension a loader message names -> the build fact that records its C++ ABI.
_ABI_KEYS = {"flash_attn_2_cuda": "flash_attn_cxx11abi"}
_EXTENSION = re.compile(
    r"([A-Za-z_][\w]{0,80})(?:\.cpython-[\w-]{1,40}|\.abi3)?\.so\s{0,4}:\s{0,4}undefined symbol"
)


def _extension(text: str) -> str:
    found = _EXTENSION.search(text)
    return found.group(1) if found else ""


# CUDA libraries whose soname major is the CUDA major they ship with (the nvidia-*-cuNN wheels:
# libcudart.so.11.0 / .so.12 / .so.13, libcublas(Lt).so.11/12/13, libnvrtc.so.11.2/12/13).
# cuFFT, cuRAND and cuSOLVER are left out: their majors are not CUDA's (libcufft.so.11 is CUDA 12).
CUDA_SONAMES = frozenset({"libcudart.so", "libcublas.so", "libcublasLt.so", "libnvrtc.so"})


def _arch_range(
    collector: FactCollector,
    value: str,
    shapes: list[Any],
    line: int,
    text: str,
    source: str,
) -> None:
    """torch 2.8's "Minimum and Maximum cuda capability supported by this version of PyTorch is
    (7.0) - (12.0)": the build's lowest and highest architectures. As an architecture list it
    settles a GPU below the lowest (no SASS of an older GPU runs on it, and PTX only runs on
    newer ones) and one of the highest's major (its SASS runs on a higher minor: a GB10, 12.1,
    under a (8.0) - (12.0) build); a GPU of a newer major depends on PTX the range does not
    show, so nothing is recorded for it."""
    low, _, high = value.partition("-")
    seen = next((s.value for s in shapes if s.kind == "capability" and s.role == "seen"), None)
    known = collector.facts.get(("compute_capability", "0"))
    capability = parse_version(seen or (known.value if known else ""))
    floor, ceiling = parse_version(low), parse_version(high)
    if capability is None or floor is None or ceiling is None:
        return
    collector.add("installed", "torch", "", line, text, source)  # torch printed it
    if ("arch_list", "torch") in collector.facts:
        return
    if capability < floor or capability.major == ceiling.major:
        listed = " ".join(f"sm_{v.replace('.', '')}" for v in (low, high))
        collector.add("arch_list", "torch", listed, line, text, source)


# The words of a requirement check that failed (transformers' require_version and Trainer checks)
_CHECK = re.compile(r"\brequires?\b|is required for|needs?\b")

_NOT_PACKAGES = frozenset({"cuda", "cudnn", "nccl", "python", "gpu"})
_REFUSES = ("only supported", "not supported", "doesn't support", "does not support", "requires")
_GPU_NAMED = re.compile(
    r"\bYour (?P<gpu>\S.{0,60}?) GPU has compute capability"
    r"|\bFound GPU\d{1,2} (?P<found>\S.{0,80}?) which is of (?:cuda|compute) capability"
)


def record_shapes(collector: FactCollector, text: str, line: int, rule: str) -> None:
    """Every fact a matched message states (compat.facts.shapes), whichever rule matched it:
    the versions it says were found, the cuDNN torch was compiled against and the one found,
    the GPU's compute capability, the dtype it refuses. A requirement or a bound the message
    names (`requires accelerate>=0.26.0`, `NumPy 1.24 or less`) is never taken for what is
    installed; a version that only repeats a listed one's release (`NumPy 2.1` under
    `numpy==2.1.3`) adds nothing."""
    from compat.facts.shapes import read

    source = f"message ({rule})"
    shapes = read(text)
    for shape in shapes:
        if shape.kind == "version" and (shape.name, shape.role) in _BUILD_ROLES:
            key = _BUILD_ROLES[(shape.name, shape.role)]
            collector.add("build", key, shape.value, line, text, source)
        elif shape.kind == "version" and shape.role == "installed" and shape.name:
            if shape.name in _NOT_PACKAGES or parse_version(shape.value) is None:
                continue
            listed = collector.facts.get(("package", shape.name))
            if listed is not None and (listed.value + ".").startswith(shape.value + "."):
                continue
            collector.add_package(shape.name, shape.value, line, text, source)
        elif (
            shape.kind == "capability"
            and shape.role == "seen"
            and ("compute_capability", "0") not in collector.facts
        ):
            named = _GPU_NAMED.search(text)
            if ("gpu", "0") not in collector.facts and ("gpu_seen", "0") not in collector.facts:
                gpu = (named.group("gpu") or named.group("found")) if named else ""
                gpu = gpu or "the GPU the message names"
                collector.add("gpu_seen", "0", gpu, line, text, source)
            collector.add("compute_capability", "0", shape.value, line, text, source)
    # An undefined symbol the extension needs mangles std::string as the ABI it was built with:
    # `Ss` is the old ABI, std::__cxx11 the new one (a fact about the extension).
    abi_key = _ABI_KEYS.get(_extension(text))
    abi = next((s.value for s in shapes if s.kind == "symbol" and s.value), None)
    if abi_key is not None and abi is not None:
        collector.add("build", abi_key, "1" if abi == "cxx11" else "0", line, text, source)
    for shape in shapes:
        # The loader could not open a CUDA library whose soname major is its CUDA major
        # (libcudart.so.12): the file that needs it was built for that CUDA.
        if shape.kind == "soname" and shape.role == "missing" and shape.name in CUDA_SONAMES:
            collector.add("build", "missing_cuda", shape.value, line, text, source)
            break
    from compat.facts import loaderlog, rocmlog

    rocmlog.record(collector, text, shapes, line, source)
    loaderlog.record(collector, text, line, source)
    for shape in shapes:
        if shape.kind == "arch_range":
            _arch_range(collector, shape.value, shapes, line, text, source)
    if _CHECK.search(text):
        # a release's own requirement check: what it requires is a fact (the first specifier
        # for each package; the later ones repeat it in `pip install` hints)
        stated: set[str] = set()
        for shape in shapes:
            if shape.kind == "requirement" and shape.name not in stated:
                stated.add(shape.name)
                name = str(canonicalize_name(shape.name))
                collector.add("requirement", name, shape.value, line, text, source)
    refused = [s for s in shapes if s.kind == "dtype"]
    required = any(s.kind == "capability" and s.role == "required" for s in shapes)
    if refused and (required or any(word in text for word in _REFUSES)):
        # the dtype a message refuses first is the one asked for ("Bfloat16 is only supported
        # on GPUs with compute capability of at least 8.0 ... You can use float16 instead")
        dtype = {"bfloat16": "bf16", "float16": "fp16", "float8": "fp8"}.get(refused[0].name)
        if dtype and ("usage", "mixed_precision") not in collector.facts:
            collector.add("usage", "mixed_precision", dtype, line, text, source)
