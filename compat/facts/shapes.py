"""One catalogue of the shapes in which a message states a fact, independent of any rule.

A message that explains itself prints its facts: the cuDNN torch was compiled against and the one
found (`compiled  against (8, 5, 0) but found runtime version (8, 4, 1)`), the NumPy found
(`Got NumPy 2.1`), a requirement its own check failed (`requires accelerate>=0.26.0`), the GPU's
compute capability and the one needed, the architectures a build carries (`sm_50 sm_60 ...`, or
torch 2.8's `(7.0) - (12.0)`), the dtype asked for, the shared object the loader could not open
(`libcudart.so.12`) and a C++ symbol, with its ABI and the library its namespace belongs to.

Every shape is read here, by one bounded regex each, and handed back with the role the words
around it give it (`installed`, `compiled`, `required`, `missing`, ...): rules and fact readers
take these facts from here instead of each writing its own version regex (issue 40). Whitespace
never decides: every pattern accepts a run of spaces where one is printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Names a message calls a library or package by -> the name facts use.
NAMES: dict[str, str] = {
    "cudnn": "cudnn",
    "cuda": "cuda",
    "nccl": "nccl",
    "numpy": "numpy",
    "pytorch": "torch",
    "torch": "torch",
    "numba": "numba",
    "triton": "triton",
    "transformers": "transformers",
    "accelerate": "accelerate",
    "flash-attn": "flash-attn",
    "flash_attn": "flash-attn",
    "xformers": "xformers",
    "vllm": "vllm",
    "deepspeed": "deepspeed",
    "bitsandbytes": "bitsandbytes",
    "peft": "peft",
    "trl": "trl",
    "python": "python",
}
_NAME = r"(?P<name>cuDNN|CUDNN|cudnn|CUDA|NCCL|NumPy|numpy|PyTorch|[Tt]orch|Numba|numba|[Tt]riton|transformers|accelerate|flash[-_]attn|xFormers|xformers|vLLM|vllm|DeepSpeed|deepspeed|bitsandbytes|peft|TRL|trl|Python)"

# The words before a version that say what it is.
_ROLE_WORDS = (
    (
        "compiled",
        re.compile(
            r"(?:compiled|built|build)\s+(?:against|for|with|using)\s*$|compiled\s+against\s*$"
        ),
    ),
    (
        "installed",
        re.compile(
            r"(?:found(?:\s+runtime)?(?:\s+version)?|runtime\s+version|linked\s+against|[Gg]ot|you\s+have|installed|detected|current(?:ly)?|loaded)\s*:?\s*$"
        ),
    ),
    ("required", re.compile(r"(?:needs?|requires?|at\s+least|minimum|>=|or\s+later)\s*$")),
)
_TUPLE = re.compile(
    r"\((?P<major>\d{1,3}),\s{0,4}(?P<minor>\d{1,3})(?:,\s{0,4}(?P<patch>\d{1,4}))?\)"
)
# cuDNN before torch 1.12 printed its version as one integer: 7102 is 7.1.2 (8-series: 8302)
_CUDNN_INT = re.compile(r"(?:compiled|linked)\s+against\s+(?P<v>[5-9]\d{3})\b")
_NAMED_VERSION = re.compile(
    _NAME
    + r"(?:\s+(?:version|v))?\s{1,4}v?(?P<version>\d{1,3}\.\d{1,4}(?:\.\d{1,6})?(?:\.?(?:post|dev|rc|a|b)\d{1,6})?(?:\+[\w.]{1,40})?)(?P<after>\s+or\s+(?:less|older|lower|earlier|later|newer|higher|above|greater))?"
)
_REQUIREMENT = re.compile(
    r"(?P<name>[A-Za-z][A-Za-z0-9._-]{0,60})\s{0,4}(?P<op>>=|<=|==|~=|!=|>|<)\s{0,4}(?P<version>\d{1,4}(?:\.\d{1,6}){0,3}(?:\.?(?:post|dev|rc|a|b)\d{1,6})?)"
)
_CAPABILITY = re.compile(
    r"(?:compute|cuda|CUDA)\s+capability(?:\s+\(CC\))?(?:\s+(?:of|is|=|:))?(?P<least>\s+(?:at\s+least|>=|minimum(?:\s+of)?))?\s{0,4}(?P<cc>\d{1,2}\.\d)(?P<after>\s+or\s+(?:higher|newer|above|later))?"
)
_CAPABILITY_SM = re.compile(r"(?:CUDA|compute)\s+capability\s+sm_(?P<sm>\d{2,3})")
# Architectures by name, as messages require them ("only supports Ampere GPUs or newer").
ARCHITECTURES = {
    "Volta": "7.0",
    "Turing": "7.5",
    "Ampere": "8.0",
    "Ada": "8.9",
    "Hopper": "9.0",
    "Blackwell": "10.0",
}
_ARCH_NAMED = re.compile(
    r"(?:supports?|requires?|needs?|only\s+on)\s+(?P<arch>Volta|Turing|Ampere|Ada|Hopper|Blackwell)\b(?:\s+GPUs?)?(?P<after>\s+(?:or|and)\s+(?:newer|later|above))?"
)
_ARCH_LIST = re.compile(
    r"(?<![\w])(?:sm|compute)_\d{2,3}[af]?(?:[\s,]{1,4}(?:sm|compute)_\d{2,3}[af]?){0,40}"
)
_ARCH_RANGE = re.compile(r"\((?P<low>\d{1,2}\.\d)\)\s{0,4}-\s{0,4}\((?P<high>\d{1,2}\.\d)\)")
_DTYPE = re.compile(
    r"\b(?P<dtype>[Bb]float16|BFloat16|bf16|BF16|[Ff]loat16|fp16|FP16|half|[Ff]loat8\w{0,12}|fp8|FP8|float32|fp32)\b"
)
DTYPES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "fp16": "float16",
          "half": "float16", "fp8": "float8", "float32": "float32", "fp32": "float32"}  # fmt: skip
_SONAME = re.compile(
    r"(?P<soname>lib[A-Za-z0-9_+-]{1,80}\.so)\.(?P<major>\d{1,3})(?:\.\d{1,6}){0,3}"
)
_MISSING = re.compile(r"cannot open shared object file|No such file or directory|not found")
_SYMBOL = re.compile(r"\b_Z[A-Za-z0-9_]{2,4000}")
# The namespace of a mangled name -> the library that defines it
NAMESPACES = {
    "c10": "torch",
    "at": "torch",
    "torch": "torch",
    "caffe2": "torch",
    "pybind11": "pybind11",
    "std": "libstdc++",
    "google": "protobuf",
    "cv": "opencv",
}
# collect_env: `[pip3] numpy==1.26.4`, `[conda] nvidia-nccl-cu12   2.20.5   pypi_0   pypi`
_COLLECT_LINE = re.compile(
    r"^\s*\[(?P<tool>pip3?|conda)\]\s+(?P<name>[A-Za-z0-9][A-Za-z0-9._-]{0,100})(?:==|\s{1,40})(?P<version>\d[\w.+!-]{0,60})(?:\s|$)"
)


@dataclass(frozen=True)
class Shape:
    kind: str  # version | requirement | capability | arch_list | arch_range | dtype | soname | symbol | listed
    name: str  # the library or package ("cudnn", "numpy"), the soname, the namespace's library
    value: str  # "8.5.0", ">=0.26.0", "8.0", "sm_50 sm_60", "7.0-12.0", "bfloat16", "12", "old"
    role: str = ""  # installed | compiled | required | seen | missing | listed | ""
    start: int = 0  # where in the text it was read


def _role(before: str) -> str:
    tail = before[-48:]
    for role, words in _ROLE_WORDS:
        if words.search(tail):
            return role
    return ""


_LIBRARIES = ("cudnn", "cuda", "nccl")


def _nearest_name(text: str, end: int) -> str:
    """The library a bare version (a tuple) belongs to: the last C library named before it
    (tuples are how torch prints cuDNN's and CUDA's versions; "PyTorch was compiled against
    (8, 5, 0)" names the library earlier), else the last name printed before it."""
    names = [
        NAMES[f.group("name").lower().replace("_", "-")] for f in re.finditer(_NAME, text[:end])
    ]
    libraries = [name for name in names if name in _LIBRARIES]
    return (libraries or names or [""])[-1]


def versions(text: str) -> list[Shape]:
    """Versions after a name (`NumPy 2.1`, `cuDNN 9.1.0`), version tuples (`(8, 5, 0)`, named by
    the last library before them) and cuDNN's old integer form, each with its role."""
    out: list[Shape] = []
    for found in _TUPLE.finditer(text):
        parts = [found.group("major"), found.group("minor"), found.group("patch")]
        value = ".".join(p for p in parts if p is not None)
        name = _nearest_name(text, found.start())
        out.append(Shape("version", name, value, _role(text[: found.start()]), found.start()))
    for found in _CUDNN_INT.finditer(text):
        if "cudnn" in text[: found.start()].lower():
            n = int(found.group("v"))
            value = f"{n // 1000}.{n % 1000 // 100}.{n % 100}"
            role = "compiled" if found.group(0).startswith("compiled") else "installed"
            out.append(Shape("version", "cudnn", value, role, found.start("v")))
    for found in _NAMED_VERSION.finditer(text):
        name = NAMES[found.group("name").lower().replace("_", "-")]
        after = (found.group("after") or "").split()
        role = _role(text[: found.start()])
        value = found.group("version")
        if after:  # "NumPy 1.24 or less": a bound, not what is installed
            role = "required"
            value = ("<=" if after[-1] in ("less", "older", "lower", "earlier") else ">=") + value
        out.append(Shape("version", name, value, role, found.start("version")))
    return out


def requirements(text: str) -> list[Shape]:
    """Specifiers inside a message (`requires accelerate>=0.26.0`, `pip install 'x<2'`)."""
    out = []
    for found in _REQUIREMENT.finditer(text):
        name = found.group("name").lower().replace("_", "-").strip(".-")
        if not name or name[0].isdigit():
            continue
        spec = found.group("op") + found.group("version")
        if found.group("op") == "==" and re.search(
            r"(?:found|got|have|installed)\s$", text[: found.start()]
        ):
            # "... but found accelerate==0.25.0" (transformers' require_version): what is installed
            out.append(Shape("version", name, found.group("version"), "installed", found.start()))
            continue
        out.append(Shape("requirement", name, spec, "required", found.start()))
    return out


def capabilities(text: str) -> list[Shape]:
    """Compute capabilities: the GPU's (`has compute capability 7.5`, `CUDA capability sm_86`,
    `which is of compute capability (CC) 12.1`) and the one required (`of at least 8.0`,
    `only supports Ampere GPUs or newer`)."""
    out = []
    for found in _CAPABILITY.finditer(text):
        required = bool(found.group("least") or found.group("after"))
        required = required or _role(text[: found.start()]) == "required"
        role = "required" if required else "seen"
        out.append(Shape("capability", "gpu", found.group("cc"), role, found.start("cc")))
    for found in _CAPABILITY_SM.finditer(text):
        sm = found.group("sm")
        out.append(Shape("capability", "gpu", f"{sm[:-1]}.{sm[-1]}", "seen", found.start("sm")))
    for found in _ARCH_NAMED.finditer(text):
        cc = ARCHITECTURES[found.group("arch")]
        out.append(Shape("capability", "gpu", cc, "required", found.start("arch")))
    return out


def arch_lists(text: str) -> list[Shape]:
    """A build's architectures: `sm_50 sm_60 ... compute_90` lists, and torch 2.8's supported
    range `(7.0) - (12.0)` (what get_arch_list() spans, min and max)."""
    out = []
    for found in _ARCH_LIST.finditer(text):
        arches = re.findall(r"(?:sm|compute)_\d{2,3}[af]?", found.group(0))
        if len(arches) > 1 or "supports" in text[: found.start()]:
            out.append(Shape("arch_list", "torch", " ".join(arches), "", found.start()))
    for found in _ARCH_RANGE.finditer(text):
        value = f"{found.group('low')}-{found.group('high')}"
        out.append(Shape("arch_range", "torch", value, "", found.start()))
    return out


def dtypes(text: str) -> list[Shape]:
    out = []
    for found in _DTYPE.finditer(text):
        word = found.group("dtype").lower()
        dtype = DTYPES.get(word, "float8" if word.startswith("float8") else word)
        out.append(Shape("dtype", dtype, dtype, "requested", found.start()))
    return out


def sonames(text: str) -> list[Shape]:
    """Shared objects with their major (`libcudart.so.12`), `missing` where the loader says it
    could not open them."""
    missing = bool(_MISSING.search(text))
    return [
        Shape(
            "soname",
            found.group("soname"),
            found.group("major"),
            "missing" if missing else "",
            found.start(),
        )
        for found in _SONAME.finditer(text)
    ]


@dataclass(frozen=True)
class Symbol:
    mangled: str
    namespace: str  # the outermost namespace (c10, at, torch, std, ...), "" when none
    library: str  # the library the namespace belongs to (NAMESPACES), "" when not known
    abi: str  # "cxx11" (a std::__cxx11 type), "old" (std::string as `Ss`), "" (no string type)


def symbol(mangled: str) -> Symbol:
    """A mangled C++ name read as far as its ABI goes: the identifiers (`<length><name>`) are
    skipped, so the letters inside them are never taken for the `Ss` of the old ABI's
    std::string; `B5cxx11` / `NSt7__cxx11` are the new ABI's strings."""
    namespace = ""
    abi = ""
    i = 2  # past "_Z"
    n = len(mangled)
    first = True
    while i < n:
        ch = mangled[i]
        if ch.isdigit():
            j = i
            while j < n and mangled[j].isdigit():
                j += 1
            length = int(mangled[i:j][:5])
            name = mangled[j : j + length]
            if first:
                namespace, first = name, False
            if name in ("cxx11", "__cxx11"):
                abi = "cxx11"
            i = j + length
            continue
        if mangled.startswith("Ss", i) and abi != "cxx11":
            abi = "old"
        if mangled.startswith("St", i) and first:
            namespace, first = "std", False
        i += 1
    return Symbol(mangled, namespace, NAMESPACES.get(namespace, ""), abi)


def symbols(text: str) -> list[Shape]:
    out = []
    for found in _SYMBOL.finditer(text):
        read = symbol(found.group(0))
        out.append(Shape("symbol", read.library or read.namespace, read.abi, "", found.start()))
    return out


def collect_env_line(text: str) -> Shape | None:
    """`[pip3] NAME==VERSION` / `[conda] NAME  VERSION  BUILD  CHANNEL` (collect_env)."""
    found = _COLLECT_LINE.match(text)
    if found is None:
        return None
    return Shape("listed", found.group("name"), found.group("version"), found.group("tool"))


def read(text: str) -> list[Shape]:
    """Every shape the catalogue knows, in the order they are printed."""
    text = re.sub(r"[ \t]{2,}", " ", text) if "  " in text else text
    found = [
        *versions(text),
        *requirements(text),
        *capabilities(text),
        *arch_lists(text),
        *dtypes(text),
        *sonames(text),
        *symbols(text),
    ]
    return sorted(found, key=lambda s: s.start)
