"""Load, validate and compile the knowledge base (compat/matrix/*.yaml plus `--matrix` files).

Three stages, so that start-up does not pay for parsing:

1. *validate*: YAML (safe, C loader) -> plain, normalized rule dicts; every schema violation is a
   `KnowledgeBaseError` naming `file:line`. The schema is documented in docs/knowledge-base.md.
2. *cache*: the plain dicts are marshalled into the user cache, keyed by a digest of compat's
   version and every rule file's bytes, and authenticated (HMAC with a per-user key) so that
   nothing planted in the cache directory is ever unmarshalled. A warm start hashes the rule
   files and reads one cache file; see "The rule cache" below and docs/security.md.
3. *compile*: a plain dict becomes a `Rule` with a condition tree only when it is needed; the
   engine skips, without compiling, every rule whose packages are not installed.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.specifiers import InvalidSpecifier

from compat import __version__
from compat.errors import KnowledgeBaseError, UncheckedError
from compat.kb.conditions import (
    All,
    AnyOf,
    BuildCondition,
    HardwareCondition,
    PackageVersion,
    PlatformMarker,
    PythonVersion,
    SettledAnyOf,
    UsageCondition,
    parse_numeric,
    version_in,
)
from compat.kb.derived import DerivedCondition
from compat.model import Condition, Evidence, Example, Fix, Origin, Rule, Severity, Symptom
from compat.names import canonicalize_name
from compat.specifiers import specifier_set

if TYPE_CHECKING:
    from packaging.version import Version
from compat.usage import VOCABULARY

MATRIX_DIR = Path(__file__).parent.parent / "matrix"
MATRIX_SCHEMA = "compat.matrix/1"
# 7: entries keyed by the files' paths, vouched for by their stat signature; 6: features name
# `prebuilt.NAME`; 5: patterns that can backtrack or match empty are refused
CACHE_FORMAT = 9  # 9: rules carry read_from; 8: settled_by

RULE_KEYS = {
    "id", "title", "severity", "evidence", "description", "when", "symptoms", "fix", "references",
    "examples", "supersedes", "settled_by", "read_from",
}  # fmt: skip
# `read_from` (issue 44 item 8): the artifacts a hand-written rule's version range was read from,
# one line each: a wheel or sdist file name with the member and line, a tag with the file
# (`pytorch/pytorch@v2.4.0:torch/backends/cudnn/__init__.py`), or a release page. `compat matrix
# lint` asks it of every hand-written rule with a version range (compat/kb/lint.py).
# What compat reads of the installed files that answers a rule's question directly (issue 33):
# `settled_by: {symbols: PACKAGE}` -- PACKAGE's extensions resolved against the installed torch's
# exports (compat/kb/binarycheck.py) decide whether it was built for another torch.
# `settled_by: {build: KEY}` -- a build fact that states directly what the rule's package
# alternatives infer from versions (xFormers' own "built for: PyTorch X" warning, build
# xformers_torch): where the fact is known, only the alternatives that test it decide.
SETTLED_BY_KEYS = {"symbols", "build"}
REQUIRED_RULE_KEYS = (
    "id",
    "title",
    "severity",
    "evidence",
    "when",
    "fix",
    "references",
    "examples",
)
WHEN_KEYS = {
    "packages", "python", "platform", "hardware", "build", "derived", "usage", "prebuilt", "any",
}  # fmt: skip
HARDWARE_KEYS = {
    "gpu_count", "compute_capability", "gpu_name", "driver", "cuda_driver", "mig", "memory_mib",
    "nvml_error",
    # AMD (compat/probes/amd.py): a GPU's target as the runtime reports it (the override's where
    # HSA_OVERRIDE_GFX_VERSION is set), the ROCm user space, the amdgpu kernel driver
    "gfx_target", "rocm", "amdgpu_driver",
}  # fmt: skip
BUILD_KEYS = {
    "torch_cuda", "cuda_runtime", "cudnn", "nccl", "nvcc",
    # what a compiled extension was built for (compat/probes/cuda.py)
    "flash_attn_torch", "flash_attn_cxx11abi", "deepspeed_ops_torch", "deepspeed_ops_cuda",
    "xformers_torch",  # the torch release xFormers says it was built for (a log's warning)
    "flash_attn_link_error",  # 1: flash_attn_2_cuda failed to load (a log's undefined symbol)
    # AMD (compat/probes/rocmbuild.py): torch's ROCm build from its +rocmX.Y label or version.py,
    # and the ROCm user space TheRock's rocm-sdk-core wheel brings
    "torch_rocm", "rocm_sdk",
    # the PyTorch ROCm index a declared xformers comes from alone (its wheels carry no label)
    "xformers_rocm",
    # the cuDNN torch was compiled against and the one the loader found (torch's cuDNN check)
    "cudnn_torch", "cudnn_runtime",
    # the CUDA major of a CUDA library the loader could not open (libcudart.so.12: 12)
    "missing_cuda",
    # what a ROCm failure message states (compat/facts/rocmlog.py): INVALID_ISA (1), no HIP GPU
    # (1), the HIP runtime major the loader could not open (libamdhip64.so.7: 7), another ROCm
    # library it could not open (its soname major), a Tensile kernel library absent for a target
    "hsa_invalid_isa", "hip_no_device", "missing_hip", "missing_rocm_lib", "hip_library_missing",
    # the libbitsandbytes_rocmNN.so bitsandbytes looked for and did not find (NN: 80)
    "bnb_rocm_library",
    # flash-attention's setup.py refused the GPU targets of a ROCm build (1); flash-attn's setup
    # asked for nvcc, the CUDA compiler (1)
    "flash_attn_arch_refused", "flash_attn_needs_nvcc",
    # a package's own check refused the GPU target by name (1)
    "gpu_target_refused",
    # a GPU memory access fault (1); the loader refused a library's executable stack (1: EINVAL,
    # glibc 2.41+; 2: another errno)
    "gpu_memory_fault", "execstack_refused",
    # the HIP runtime the loader could not open was torch's own import's (its frames) (1)
    "missing_hip_torch",
    # /dev/kfd could not be opened (1 EACCES, 2 ENOENT, 3 another errno); the kernel's KFD does
    # not support the GPU (1)
    "kfd_open_failed", "kfd_unsupported_gpu",
    # torch's CUDA build found no NVIDIA driver (`Found no NVIDIA driver on your system`) (1)
    "cuda_no_driver",
}  # fmt: skip
EXAMPLE_KINDS = ("affected", "possible", "clear")
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9.-]*[a-z0-9]$")
URL_PATTERN = re.compile(r"^https?://\S+$")


# ---------------------------------------------------------------------------------------------
# Stage 1: validation


class _Validator:
    """Turns one YAML document into plain rule dicts, raising on the first schema violation."""

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, node: Any, message: str, key: str | None = None) -> KnowledgeBaseError:
        line = None
        if key is not None and hasattr(node, "key_lines"):
            line = node.key_lines.get(key)
        if line is None:
            line = getattr(node, "line", None)
        return KnowledgeBaseError(message, origin=Origin(self.path, line))

    def mapping(self, node: Any, what: str, parent: Any = None, key: str | None = None) -> Any:
        if not isinstance(node, dict):
            raise self.fail(
                parent if parent is not None else node, f"{what} must be a mapping", key
            )
        return node

    def sequence(self, node: Any, what: str, parent: Any, key: str) -> list[Any]:
        if not isinstance(node, list):
            raise self.fail(parent, f"{what} must be a list", key)
        return node

    def text(self, node: Any, what: str, parent: Any, key: str) -> str:
        if not isinstance(node, str) or not node.strip():
            raise self.fail(parent, f"{what} must be a non-empty string", key)
        return node

    def unknown_keys(self, node: Any, allowed: set[str], what: str) -> None:
        for key in node:
            if key not in allowed:
                choices = ", ".join(sorted(allowed))
                raise self.fail(
                    node, f"unknown key {key!r} in {what} (expected one of: {choices})", key
                )

    def document(self, doc: Any) -> list[dict[str, Any]]:
        if doc is None:
            return []
        doc = self.mapping(doc, "a rule file")
        if doc.get("schema") == "compat.capabilities/1":
            return []  # capabilities, not rules: compat.kb.capabilities reads them (for pin and lint)
        self.unknown_keys(doc, {"schema", "rules"}, "the file")
        if doc.get("schema") != MATRIX_SCHEMA:
            raise self.fail(doc, f"schema must be {MATRIX_SCHEMA!r}", "schema")
        rules = self.sequence(doc.get("rules", []), "rules", doc, "rules")
        return [self.rule(rule) for rule in rules]

    def rule(self, node: Any) -> dict[str, Any]:
        node = self.mapping(node, "a rule")
        self.unknown_keys(node, RULE_KEYS, "a rule")
        for key in REQUIRED_RULE_KEYS:
            if key not in node:
                raise self.fail(node, f"rule is missing required key {key!r}")
        rule_id = self.text(node["id"], "id", node, "id")
        if not ID_PATTERN.match(rule_id):
            raise self.fail(node, f"id {rule_id!r} must be lowercase words joined by '-'", "id")
        severity = node["severity"]
        if not isinstance(severity, str) or severity not in {s.value for s in Severity}:
            raise self.fail(
                node, f"severity must be error, warning or info, not {severity!r}", "severity"
            )
        evidence = node["evidence"]
        # `observed` is what compat read from installed files (compat/kb/binarycheck.py): a rule
        # written in YAML states knowledge, never an observation.
        if not isinstance(evidence, str) or evidence not in (
            Evidence.VERIFIED.value,
            Evidence.REPORTED.value,
        ):
            raise self.fail(
                node, f"evidence must be verified or reported, not {evidence!r}", "evidence"
            )
        when = self.when(node["when"], node, "when", top=True)
        references = self.sequence(node["references"], "references", node, "references")
        if not references:
            raise self.fail(node, "a rule must cite at least one reference", "references")
        for ref in references:
            if not isinstance(ref, str) or not URL_PATTERN.match(ref):
                raise self.fail(references, f"reference {ref!r} is not an http(s) URL")
        return {
            "id": rule_id,
            "title": self.text(node["title"], "title", node, "title"),
            "severity": severity,
            "evidence": evidence,
            "description": str(node.get("description") or "").strip(),
            "when": when,
            "symptoms": self.symptoms(node.get("symptoms", []), node),
            "fix": self.fix(node["fix"], node),
            "references": [str(r) for r in references],
            "examples": self.examples(node["examples"], node),
            "supersedes": [
                self.text(old, "supersedes", node, "supersedes")
                for old in self.sequence(
                    node.get("supersedes", []), "supersedes", node, "supersedes"
                )
            ],
            "settled_by": self.settled_by(node.get("settled_by", {}), node),
            "read_from": [
                self.text(artifact, "read_from", node, "read_from")
                for artifact in self.sequence(
                    node.get("read_from", []), "read_from", node, "read_from"
                )
            ],
            "file": self.path,
            "line": node.line,
        }

    def settled_by(self, node: Any, parent: Any) -> dict[str, str]:
        node = self.mapping(node, "settled_by", parent, "settled_by")
        self.unknown_keys(node, SETTLED_BY_KEYS, "settled_by")
        out = {}
        for key, value in node.items():
            if key == "build":
                if value not in BUILD_KEYS:
                    raise self.fail(
                        node, f"settled_by.build must be one of {sorted(BUILD_KEYS)}", key
                    )
                out[str(key)] = str(value)
                continue
            if not isinstance(value, str) or not _valid_name(value):
                raise self.fail(node, f"settled_by.{key} must name a package", key)
            out[str(key)] = str(canonicalize_name(value))
        return out

    def when(self, node: Any, parent: Any, key: str, top: bool = False) -> dict[str, Any]:
        node = self.mapping(node, "when", parent, key)
        if not node:
            raise self.fail(parent, "when must name at least one condition", key)
        self.unknown_keys(node, WHEN_KEYS, "when")
        out: dict[str, Any] = {}
        if "packages" in node:
            out["packages"] = self.packages(node["packages"], node)
        for scalar_key, check in (("python", self.specifier), ("platform", self.marker)):
            if scalar_key in node:
                out[scalar_key] = check(node[scalar_key], node, scalar_key)
        if "hardware" in node:
            out["hardware"] = self.hardware(node["hardware"], node)
        if "build" in node:
            build = self.mapping(node["build"], "build", node, "build")
            self.unknown_keys(build, BUILD_KEYS, "build")
            out["build"] = {k: self.specifier(v, build, k) for k, v in build.items()}
        if "derived" in node:
            out["derived"] = self.derived(node["derived"], node)
        if "usage" in node:
            out["usage"] = self.usage(node["usage"], node)
        if "prebuilt" in node:  # packages judged as prebuilt wheels (compat/kb/sourcebuild.py)
            names = self.sequence(node["prebuilt"], "prebuilt", node, "prebuilt")
            if not names or not all(isinstance(n, str) and _valid_name(n) for n in names):
                raise self.fail(node, "prebuilt must list package names", "prebuilt")
            out["prebuilt"] = [canonicalize_name(n) for n in names]
        if "any" in node:
            branches = self.sequence(node["any"], "any", node, "any")
            if len(branches) < 2:
                raise self.fail(node, "any needs at least two alternatives", "any")
            out["any"] = [self.when(b, node, "any") for b in branches]
        if top and not _has_anchor(out):
            raise self.fail(
                parent,
                "when needs a package, python, platform, hardware or build condition "
                "(usage facts alone would flag every environment)",
                key,
            )
        return out

    def derived(self, node: Any, parent: Any) -> dict[str, str]:
        from compat.kb.derived import VOCABULARY as DERIVED

        node = self.mapping(node, "derived", parent, "derived")
        self.unknown_keys(node, set(DERIVED), "derived")
        out = {}
        for key, value in node.items():
            if value not in DERIVED[key]:
                raise self.fail(node, f"derived.{key} must be one of {list(DERIVED[key])}", key)
            out[key] = str(value)
        return out

    def specifier(self, value: Any, parent: Any, key: str) -> str:
        text = str(value).strip() if isinstance(value, str | int | float) else None
        if text is None:
            raise self.fail(parent, f"{key} must be a version specifier string", key)
        if text and text[0].isdigit():
            text = "==" + text
        try:
            specifier_set(text)  # bounded (compat.versions): a huge number is refused here too
        except InvalidSpecifier as error:
            raise self.fail(parent, f"invalid specifier for {key}: {error}", key) from None
        return text

    def marker(self, value: Any, parent: Any, key: str) -> str:
        from packaging.markers import (
            InvalidMarker,
            UndefinedComparison,
            UndefinedEnvironmentName,
        )
        from packaging.version import InvalidVersion

        from compat.versions import parse_marker

        try:
            # Evaluated once here so that a comparison packaging cannot make
            # (`os_name ~= "posix"`) is a rule-file error, not a crash during a check.
            parse_marker(self.text(value, key, parent, key)).evaluate()
        except (
            InvalidMarker,
            UndefinedComparison,
            UndefinedEnvironmentName,
            InvalidVersion,
        ) as error:
            first = str(error).splitlines()[0]
            raise self.fail(parent, f"invalid marker for {key}: {first}", key) from None
        except RecursionError:
            raise self.fail(parent, f"invalid marker for {key}: nested too deeply", key) from None
        return str(value)

    def packages(self, node: Any, parent: Any) -> dict[str, Any]:
        node = self.mapping(node, "packages", parent, "packages")
        out: dict[str, Any] = {}
        for name, spec in node.items():
            normalized = canonicalize_name(name) if _valid_name(name) else None
            if normalized is None:
                raise self.fail(node, f"invalid package name {name!r}", name)
            if isinstance(spec, dict):
                self.unknown_keys(spec, {"version", "commit"}, f"packages.{name}")
                version = self.specifier(spec.get("version", ""), spec, "version")
                commits = self.sequence(spec.get("commit", []), "commit", spec, "commit")
                for commit in commits:
                    if not isinstance(commit, str) or not re.fullmatch(r"[0-9a-f]{7,40}", commit):
                        raise self.fail(
                            spec, f"commit {commit!r} must be 7-40 hex digits", "commit"
                        )
                out[normalized] = {"version": version, "commit": [c.lower() for c in commits]}
            else:
                out[normalized] = {"version": self.specifier(spec, node, name), "commit": []}
        return out

    def hardware(self, node: Any, parent: Any) -> dict[str, Any]:
        node = self.mapping(node, "hardware", parent, "hardware")
        self.unknown_keys(node, HARDWARE_KEYS, "hardware")
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in ("compute_capability", "driver", "cuda_driver", "rocm", "amdgpu_driver"):
                out[key] = self.specifier(value, node, key)
            elif key == "gfx_target":
                out[key] = self.regex(value, node, key)
            elif key in ("gpu_count", "memory_mib"):
                if isinstance(value, bool) or not (
                    isinstance(value, int) or parse_numeric(str(value)) is not None
                ):
                    raise self.fail(node, f"{key} must be a number or a comparison like '>=2'", key)
                out[key] = value if isinstance(value, int) else str(value)
            elif key == "gpu_name":
                out[key] = self.regex(value, node, key)
            elif key == "mig":
                if not isinstance(value, bool):
                    raise self.fail(node, "mig must be true or false", key)
                out[key] = value
            else:
                out[key] = self.text(value, key, node, key)
        return out

    def usage(self, node: Any, parent: Any) -> dict[str, Any]:
        node = self.mapping(node, "usage", parent, "usage")
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key not in VOCABULARY:
                raise self.fail(node, f"unknown usage key {key!r} (see docs/usage-keys.md)", key)
            alternatives = value if isinstance(value, list) else [value]
            for alternative in alternatives:
                if not isinstance(alternative, str | int | float | bool):
                    raise self.fail(
                        node, f"usage.{key} must be a value, a list or a comparison", key
                    )
            out[key] = list(value) if isinstance(value, list) else value
        return out

    def regex(self, value: Any, parent: Any, key: str) -> str:
        import warnings

        text = self.text(value, key, parent, key)
        if len(text) > 2000:
            raise self.fail(parent, f"regular expression for {key} is over 2000 characters", key)
        try:
            with warnings.catch_warnings():  # "possible nested set" and the like: not our output
                warnings.simplefilter("ignore")
                re.compile(text)
        except re.error as error:
            raise self.fail(parent, f"invalid regular expression for {key}: {error}", key) from None
        except RecursionError:
            raise self.fail(parent, f"regular expression for {key} nests too deeply", key) from None
        # Every pattern a file can carry runs through Python's backtracking `re` on text compat
        # does not choose (log lines, GPU names from a profile): one that can backtrack
        # catastrophically would hang doctor or explain, so it is refused here, at load, for
        # shipped rules, bundles and --matrix files alike.
        from compat.kb.signatures import backtracking_problem, matches_empty

        what = "symptom" if key == "match" else key
        problem = backtracking_problem(text)
        if problem:
            raise self.fail(
                parent,
                f"{what} {text!r} can backtrack catastrophically: {problem}; rewrite it "
                "without nested or overlapping repeats",
                key,
            )
        if key == "match" and matches_empty(text):
            raise self.fail(
                parent, f"symptom {text!r} can match an empty line: it would match every line", key
            )
        if key == "match":
            # A signature's named groups become log facts (compat.facts.logversions): each name
            # must say which fact it is.
            from compat.kb.signatures import group_problem

            for group in re.compile(text).groupindex:
                problem = group_problem(group, BUILD_KEYS)
                if problem:
                    raise self.fail(parent, f"symptom {text!r}: {problem}", key)
        return text

    def symptoms(self, node: Any, parent: Any) -> list[dict[str, Any]]:
        out = []
        for item in self.sequence(node, "symptoms", parent, "symptoms"):
            item = self.mapping(item, "a symptom")
            self.unknown_keys(item, {"match", "frames"}, "a symptom")
            frames = self.sequence(item.get("frames", []), "frames", item, "frames")
            out.append(
                {
                    "match": self.regex(item.get("match"), item, "match"),
                    "frames": [str(f) for f in frames],
                }
            )
        return out

    def fix(self, node: Any, parent: Any) -> dict[str, Any]:
        from packaging.requirements import InvalidRequirement

        from compat.versions import parse_requirement

        node = self.mapping(node, "fix", parent, "fix")
        self.unknown_keys(node, {"summary", "constraints", "change"}, "fix")
        constraints = self.sequence(node.get("constraints", []), "constraints", node, "constraints")
        for text in constraints:
            try:
                requirement = parse_requirement(str(text))
            except InvalidRequirement as error:
                raise self.fail(
                    node, f"invalid constraint {text!r}: {error}", "constraints"
                ) from None
            if requirement.url or requirement.extras:
                raise self.fail(
                    node,
                    f"constraint {text!r}: constraints cannot carry extras or URLs",
                    "constraints",
                )
        change = node.get("change")
        if not constraints and not change:
            raise self.fail(node, "fix needs constraints, a change, or both", None)
        return {
            "summary": self.text(node.get("summary"), "fix.summary", node, "summary"),
            "constraints": [str(c) for c in constraints],
            "change": str(change).strip() if change else None,
        }

    def examples(self, node: Any, parent: Any) -> list[dict[str, Any]]:
        node = self.mapping(node, "examples", parent, "examples")
        self.unknown_keys(node, set(EXAMPLE_KINDS), "examples")
        for required in ("affected", "clear"):
            if not node.get(required):
                raise self.fail(node, f"examples need at least one {required!r} environment", None)
        out = []
        for kind in EXAMPLE_KINDS:
            for item in self.sequence(node.get(kind, []), kind, node, kind):
                item = self.mapping(item, f"an example under {kind}")
                self.unknown_keys(
                    item,
                    {
                        "packages",
                        "python",
                        "platform",
                        "hardware",
                        "build",
                        "usage",
                        "requirements",
                        "arch_lists",
                    },
                    "an example",
                )
                out.append({"expect": kind, "data": _plain(item), "line": item.line})
        return out


def _valid_name(name: Any) -> bool:
    return (
        isinstance(name, str)
        and re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?", name) is not None
    )


def _has_anchor(when: Mapping[str, Any]) -> bool:
    if any(
        key in when for key in ("packages", "python", "platform", "hardware", "build", "derived")
    ):
        return True
    return "any" in when and all(_has_anchor(branch) for branch in when["any"])


def _plain(value: Any) -> Any:
    """LinedDict/LinedList -> dict/list, so the result can be marshalled."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, int | float | str | bool) or value is None:
        return value
    return str(value)  # dates and the like: keep them readable


def validate_file(path: Path, data: bytes | None = None) -> list[dict[str, Any]]:
    """Read and validate one rule file into plain rule dicts (KnowledgeBaseError on failure)."""
    from compat.errors import InputError
    from compat.files.readers import decode
    from compat.files.yamlio import load_with_lines

    try:
        if data is None:
            data = _read_rule_bytes(path)
        memo = (str(path), hashlib.sha256(data).digest())
        if (known := _VALIDATED.get(memo)) is not None:
            return list(marshal.loads(known))
        doc = load_with_lines(decode(data, path, what="cannot read rule file"), str(path))
    except InputError as error:
        raise KnowledgeBaseError(error.message, origin=error.origin) from None
    rules = _Validator(str(path)).document(doc)
    if len(_VALIDATED) >= _VALIDATED_MAX:
        _VALIDATED.clear()
    _VALIDATED[memo] = marshal.dumps(rules)
    return rules


# A file's validated rules by its path and the sha256 of its bytes, for the life of the process:
# validation reads nothing but those bytes and compat's own vocabularies, so the same bytes at
# the same path give the same rules. A process that loads the knowledge base more than once with
# a new file beside the shipped ones (`--matrix` misses the compiled cache, which is per set of
# files) parsed and validated all ~200 shipped files again each time: ~0.4 s a command in-process
# (issue 45). Kept marshalled, so no caller can change what the next one gets; failures are
# never kept. A long-lived process (the MCP server) re-reading edited files starts it afresh past
# _VALIDATED_MAX entries.
_VALIDATED: dict[tuple[str, bytes], bytes] = {}
_VALIDATED_MAX = 2048

# A rule compiled from its marshalled plain form, by those bytes, for the life of the process:
# compile_rule reads nothing else (compat's own vocabularies aside), and a Rule is frozen, so the
# same bytes give an equal rule to every knowledge base that holds them. Each command run
# in-process (the tests' CLI runner, the MCP server) compiled every rule it asked for again:
# ~20 ms an `explain` of the shipped rules (issue 45).
_COMPILED: dict[bytes, Rule] = {}
_COMPILED_MAX = 8192


# ---------------------------------------------------------------------------------------------
# Stage 3: compiling plain dicts into Rules


def compile_when(when: Mapping[str, Any], settled_by_build: str | None = None) -> Condition:
    """A `when:` mapping as conditions; `settled_by_build` makes its top-level `any:` defer to
    that build fact where it is known (SettledAnyOf)."""
    parts: list[Condition] = []
    for name, spec in when.get("packages", {}).items():
        parts.append(
            PackageVersion(canonicalize_name(name), spec["version"], tuple(spec["commit"]))
        )
    if "python" in when:
        parts.append(PythonVersion(when["python"]))
    if "platform" in when:
        parts.append(PlatformMarker(when["platform"]))
    for key, expected in when.get("hardware", {}).items():
        parts.append(HardwareCondition(key, expected))
    for key, spec in when.get("build", {}).items():
        parts.append(BuildCondition(key, spec))
    for key, expected in when.get("derived", {}).items():
        parts.append(DerivedCondition(key, expected))
    for key, expected in when.get("usage", {}).items():
        spec = VOCABULARY[key]
        parts.append(UsageCondition(key, expected, spec.settled_by, spec.is_trigger(expected)))
    if "prebuilt" in when:
        from compat.kb.sourcebuild import Prebuilt

        parts.append(Prebuilt(tuple(when["prebuilt"])))
    if "any" in when:
        branches = tuple(compile_when(branch) for branch in when["any"])
        if settled_by_build is not None:
            parts.append(SettledAnyOf(branches, settled_by_build))
        else:
            parts.append(AnyOf(branches))
    return parts[0] if len(parts) == 1 else All(tuple(parts))


def compile_rule(plain: Mapping[str, Any]) -> Rule:
    from compat.kb.buildfix import wrap

    path = plain["file"]
    fix = Fix(plain["fix"]["summary"], tuple(plain["fix"]["constraints"]), plain["fix"]["change"])
    return Rule(
        id=plain["id"],
        title=plain["title"],
        severity=Severity(plain["severity"]),
        evidence=Evidence(plain["evidence"]),
        when=wrap(compile_when(plain["when"], plain.get("settled_by", {}).get("build")), fix),
        fix=fix,
        references=tuple(plain["references"]),
        symptoms=tuple(Symptom(s["match"], tuple(s["frames"])) for s in plain["symptoms"]),
        description=plain["description"],
        examples=tuple(
            Example(e["expect"], e["data"], Origin(path, e["line"])) for e in plain["examples"]
        ),
        origin=Origin(path, plain["line"]),
        supersedes=tuple(plain.get("supersedes", ())),
        settled_by=tuple(sorted(plain.get("settled_by", {}).items())),
    )


# ---------------------------------------------------------------------------------------------
# The knowledge base


@dataclass
class KnowledgeBase:
    """Validated rules, decoded and compiled on demand. `digest` identifies the exact rule set.

    `index` holds, per rule, its id and the packages its top-level conditions name; the rule
    itself stays a marshalled blob until something asks for it, so a check over 2,000 rules
    decodes only those whose packages are installed.
    """

    digest: str
    files: tuple[str, ...]
    index: tuple[tuple[str, tuple[str, ...]], ...]
    blobs: tuple[bytes, ...]
    features: frozenset[str] = frozenset()  # condition_keys() over every rule
    source: str = "shipped"  # "shipped" with compat, or "bundle" (compat matrix update)
    version: str = __version__  # compat's version for the shipped rules, else the bundle's
    # Per rule, its top-level package conditions as (name, specifier): all must hold for the
    # rule to hold, so a rule whose gate no version of the package meets is skipped undecoded.
    gates: tuple[tuple[tuple[str, str], ...], ...] = ()
    _compiled: dict[int, Rule] = field(default_factory=dict, repr=False)
    _plain: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.index)

    def plain_at(self, position: int) -> dict[str, Any]:
        plain = self._plain.get(position)
        if plain is None:
            plain = self._plain[position] = marshal.loads(self.blobs[position])
        return plain

    @property
    def plain(self) -> list[dict[str, Any]]:
        return [self.plain_at(i) for i in range(len(self.index))]

    def rule_at(self, position: int) -> Rule:
        rule = self._compiled.get(position)
        if rule is None:
            blob = self.blobs[position]
            rule = _COMPILED.get(blob)
            if rule is None:
                rule = compile_rule(self.plain_at(position))
                if len(_COMPILED) >= _COMPILED_MAX:
                    _COMPILED.clear()
                _COMPILED[blob] = rule
            self._compiled[position] = rule
        return rule

    def rules(self) -> list[Rule]:
        return [self.rule_at(i) for i in range(len(self.index))]

    def get(self, rule_id: str) -> Rule | None:
        """The rule with this id, or the rule that superseded a retired id."""
        for position, (candidate, _) in enumerate(self.index):
            if candidate == rule_id:
                return self.rule_at(position)
        for position, plain in enumerate(self.plain):
            if rule_id in plain.get("supersedes", ()):
                return self.rule_at(position)
        return None

    def candidates(self, installed: Iterable[str] | None) -> Iterator[Rule]:
        """Rules that could match: with `installed` known, only those whose packages are all present."""
        present = None if installed is None else set(installed)
        for position, (_, required) in enumerate(self.index):
            if present is not None and any(name not in present for name in required):
                continue
            yield self.rule_at(position)

    def candidates_for(self, versions: Mapping[str, tuple[Version, ...]] | None) -> Iterator[Rule]:
        """`candidates`, also skipping rules whose top-level package gate none of the known
        versions meets (those evaluate FALSE anyway: decoding and compiling them is waste)."""
        if versions is None or not self.gates:
            yield from self.candidates(None if versions is None else versions.keys())
            return
        for position, (_, required) in enumerate(self.index):
            if any(name not in versions for name in required):
                continue
            if any(
                spec and not any(version_in(v, spec) for v in versions[name])
                for name, spec in self.gates[position]
            ):
                continue
            yield self.rule_at(position)

    def mentions(self, section: str, key: str) -> bool:
        """Whether any rule has a `section: {key: ...}` condition (e.g. build.nvcc)."""
        return f"{section}.{key}" in self.features


def condition_keys(when: Mapping[str, Any]) -> set[str]:
    """`section.key` for every hardware, build, derived and usage condition, and `prebuilt.NAME`
    for every package a rule judges as a prebuilt wheel, `any` branches included."""
    keys = {
        f"{section}.{key}"
        for section in ("hardware", "build", "derived", "usage", "prebuilt")
        for key in when.get(section, {})
    }
    for branch in when.get("any", []):
        keys |= condition_keys(branch)
    return keys


def _identity(path: Path) -> tuple[int, int] | Path:
    try:
        info = path.stat()
    except OSError:
        return path  # vanished or unreadable: reading it will say so
    return (info.st_dev, info.st_ino)


def rule_files(extra: Sequence[Path] = (), base: Path = MATRIX_DIR) -> list[Path]:
    """The base matrices (shipped, or an installed bundle's), then each `--matrix FILE|DIR`."""
    files = sorted(base.glob("*.yaml"))
    # Identity by (device, inode): one stat per file, where resolve() walks every component.
    shipped = {_identity(path) for path in files}
    for item in extra:
        if item.is_dir():
            found = sorted([*item.glob("*.yaml"), *item.glob("*.yml")])
            if not found:
                raise KnowledgeBaseError(
                    "no *.yaml rule files in directory", origin=Origin(str(item))
                )
            files.extend(path for path in found if _identity(path) not in shipped)
        elif item.is_file():
            if _identity(item) not in shipped:  # naming a shipped file lints it once, not twice
                files.append(item)
        elif item.exists():
            raise KnowledgeBaseError(
                "--matrix: not a regular file (a FIFO, socket or device is not read)",
                origin=Origin(str(item)),
            )
        else:
            raise KnowledgeBaseError(
                "--matrix: no such file or directory", origin=Origin(str(item))
            )
    return files


@dataclass(frozen=True)
class KnowledgeChoice:
    """Which knowledge base a command judges by: the one in force (shipped, or the bundle
    `compat matrix update` installed) plus each `--matrix FILE|DIR`. A command setting of its
    own, not a fact: doctor, check, pin, explain and fleet each take it beside their facts."""

    matrices: tuple[Path, ...] = ()


def load_knowledge_base(
    extra: KnowledgeChoice | Sequence[Path] = (), *, use_cache: bool = True
) -> KnowledgeBase:
    """The knowledge base in force plus `extra` files (a command's `KnowledgeChoice`).
    `use_cache=False` reads nothing from the user cache: neither compiled rules nor a bundle
    installed by `compat matrix update`."""
    from compat.kb.bundlestate import active_bundle

    if isinstance(extra, KnowledgeChoice):
        extra = extra.matrices

    bundle = active_bundle() if use_cache else None
    files = rule_files(extra, bundle.matrix_dir if bundle else MATRIX_DIR)
    source, kb_version = ("bundle", bundle.version) if bundle else ("shipped", __version__)
    if not files:
        raise UncheckedError(f"no knowledge base: no rule files in {MATRIX_DIR}")
    directory = _cache_dir()
    key = _cache_key(directory) if use_cache else None
    # The compiled rules carry their files' paths (a finding's `source`), so the cache entry is
    # per set of paths: two installs of the same knowledge base (a venv and a pipx copy, two
    # checkouts) share one cache directory, and each must name its own files.
    where = hashlib.sha256("\0".join(str(path) for path in files).encode()).hexdigest()[:32]
    cache_path = directory / f"kb-{CACHE_FORMAT}-{__version__}-{where}.bin"
    signature, settled = _signature(files)  # taken before any file is read
    cached = _read_cache(cache_path, key) if key is not None else None
    if cached is not None and cached[0] is not None and cached[0] == signature:
        # Files unchanged since the entry was written (size, times to the nanosecond, inode):
        # the entry's digest is theirs, and a warm run reads none of them.
        return _from_cache(cached, files, source, kb_version)
    # The digest of the rule files' bytes names the rule set and checks the entry when the files
    # were touched: reading and hashing them costs a few milliseconds even for 2,000 rules, much
    # less than one wrong verdict from a stale cache.
    contents = [_read_rule_bytes(path) for path in files]
    hasher = hashlib.sha256()
    for data in contents:
        hasher.update(hashlib.sha256(data).digest())
    digest = "sha256:" + hasher.hexdigest()
    recorded = signature if settled else None
    if cached is not None and cached[1] == digest:
        if key is not None and recorded is not None:  # touched, not changed: vouch for them now
            _write_cache(cache_path, key, (recorded, *cached[1:]))
        return _from_cache(cached, files, source, kb_version)
    plain: list[dict[str, Any]] = []
    seen: dict[str, Origin] = {}
    for path, data in zip(files, contents, strict=True):
        for rule in validate_file(path, data):
            if rule["id"] in seen:
                raise KnowledgeBaseError(
                    f"duplicate rule id {rule['id']!r} (first defined at {seen[rule['id']]})",
                    origin=Origin(rule["file"], rule["line"]),
                )
            seen[rule["id"]] = Origin(rule["file"], rule["line"])
            plain.append(rule)
    if not plain:
        raise UncheckedError("no knowledge base: the rule files hold no rules")
    index = tuple((rule["id"], tuple(rule["when"].get("packages", {}))) for rule in plain)
    blobs = tuple(marshal.dumps(rule) for rule in plain)
    feature_set = frozenset().union(*(condition_keys(rule["when"]) for rule in plain))
    gates = tuple(
        tuple(
            (name, str(spec["version"])) for name, spec in rule["when"].get("packages", {}).items()
        )
        for rule in plain
    )
    if key is not None:
        features = tuple(sorted(feature_set))
        _write_cache(cache_path, key, (recorded, digest, index, blobs, features, gates))
    kb = KnowledgeBase(
        digest, tuple(str(p) for p in files), index, blobs, feature_set, source, kb_version, gates
    )
    kb._plain.update(enumerate(plain))
    return kb


def _from_cache(
    cached: tuple[Any, ...], files: Sequence[Path], source: str, kb_version: str
) -> KnowledgeBase:
    _, digest, index, blobs, features, gates = cached
    return KnowledgeBase(
        digest,
        tuple(str(p) for p in files),
        index,
        blobs,
        frozenset(features),
        source,
        kb_version,
        gates,
    )


# A file changed less than this long ago could change again within its file system's timestamp
# granularity (2 s on FAT; 1 s on some network file systems) without its times moving: its
# signature is not recorded until it is older (git's "racily clean" index entries).
_RACY_NS = 2_000_000_000


def _signature(files: Sequence[Path]) -> tuple[tuple[tuple[object, ...], ...] | None, bool]:
    """What each rule file is on disk now (path, size, modification and change times in ns,
    inode, device), and whether all of them are old enough for that to vouch for their bytes.
    A change of content moves the change time (ctime), which no user can set back. None for
    the signature when a file is not a regular one or cannot be stat'ed: then files are read."""
    import stat
    import time

    now = time.time_ns()
    entries = []
    settled = True
    for path in files:
        try:
            info = os.stat(path)
        except OSError:
            return None, False
        if not stat.S_ISREG(info.st_mode):
            return None, False
        newest = max(info.st_mtime_ns, info.st_ctime_ns)
        settled = settled and now - newest >= _RACY_NS
        entries.append(
            (str(path), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)
        )
    return tuple(entries), settled


def _read_rule_bytes(path: Path) -> bytes:
    from compat.errors import InputError
    from compat.files.readers import read_bytes

    try:
        return read_bytes(path, "rules", what="cannot read rule file")
    except InputError as error:
        raise KnowledgeBaseError(error.message, origin=error.origin) from None


# ---------------------------------------------------------------------------------------------
# The rule cache: marshal data, loaded only after an HMAC check.
#
# A cache file is MAGIC + HMAC-SHA256(key, payload) + payload, payload = marshal of
# (signature, digest, index, blobs, features, gates), one file per set of rule-file paths. The
# key is 32 random bytes in `kb.key`, readable only by its owner: a file planted by someone else
# (another user sharing the cache directory, a CI step that writes into it) cannot carry a valid
# tag, and a key file that is not ours, or that others can read, turns the cache off. An entry
# is used when its signature is the files' stat signature now (they are unchanged since it was
# written), or else when its digest is the digest of the files' bytes read now; otherwise it is
# stale: rebuilt, never used.

_MAGIC = b"compat-kb\x00"
_TAG = 32
_MAX_CACHE_BYTES = 256 * 1024 * 1024


def _cache_dir() -> Path:
    from compat.files.cachedir import user_cache_dir

    return user_cache_dir()


def _cache_key(directory: Path) -> bytes | None:
    """This user's cache key, created on first use; None when it cannot be trusted or made."""
    import stat

    path = directory / "kb.key"
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    for _attempt in range(2):
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            try:
                directory.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(
                    path,
                    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                    0o600,
                )
            except FileExistsError:
                continue  # another compat created it meanwhile: read theirs
            except OSError:
                return None
            import secrets

            key = secrets.token_bytes(32)
            try:
                os.write(fd, key)
            except OSError:
                return None
            finally:
                os.close(fd)
            return key
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            key = os.read(fd, 64)
        except OSError:
            return None
        finally:
            os.close(fd)
        getuid = getattr(os, "getuid", None)
        if (
            not stat.S_ISREG(info.st_mode)
            or (getuid is not None and info.st_uid != getuid())
            or (getuid is not None and info.st_mode & 0o077)
            or len(key) != 32
        ):
            return None
        return key
    return None


def user_cache_key() -> bytes | None:
    """This user's cache key (the rule cache's): what another cache signs its entries with, so
    that a file planted in the cache directory is never believed; None: cache nothing."""
    return _cache_key(_cache_dir())


def _read_cache(path: Path, key: bytes) -> tuple[Any, ...] | None:
    """The cached (signature, digest, index, blobs, features, gates), or None: any doubt means a
    rebuild."""
    import hmac
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_CACHE_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(_MAX_CACHE_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    head = len(_MAGIC) + _TAG
    if len(data) <= head or not data.startswith(_MAGIC):
        return None
    tag, payload = data[len(_MAGIC) : head], data[head:]
    if not hmac.compare_digest(tag, hmac.digest(key, payload, "sha256")):
        return None
    try:
        content = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(content, tuple) and len(content) == 6 and isinstance(content[1], str)):
        return None
    signature, digest, index, blobs, features, gates = content
    if not (
        isinstance(index, tuple)
        and isinstance(blobs, tuple)
        and isinstance(features, tuple)
        and isinstance(gates, tuple)
        and len(index) == len(blobs) == len(gates)
        and len(blobs) > 0
    ):
        return None
    if signature is not None and not isinstance(signature, tuple):
        return None
    return signature, digest, index, blobs, features, gates


def _write_cache(path: Path, key: bytes, content: tuple[Any, ...]) -> None:
    # Best effort: a read-only home or a full disk must never fail the check itself.
    import hmac
    import tempfile

    payload = marshal.dumps(content)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".kb-", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(_MAGIC + hmac.digest(key, payload, "sha256") + payload)
        Path(tmp).replace(path)
    except OSError:
        pass
