#!/usr/bin/env python3
"""Regenerate the rule families that come from published data: compat/matrix/generated-*.yaml.

    python scripts/gen_rules.py                 # rewrite every generated file from scripts/inputs/
    python scripts/gen_rules.py --check         # exit 1 when a generated file differs
    python scripts/gen_rules.py --out DIR       # write into DIR instead of compat/matrix/
    python scripts/gen_rules.py --inputs DIR    # read recorded inputs from DIR
    python scripts/gen_rules.py --refresh [PKG ...]   # re-fetch inputs from PyPI first

Regeneration is offline and deterministic: it reads only the recorded inputs
(scripts/inputs/<package>.json: the metadata fields read from PyPI, or the values read in the
released wheel's source, with the wheel's URL and sha256 and the fetch date). `--refresh` is the
only step that touches the network. Two kinds of family:

* declared: what a release's own metadata says (Requires-Dist, Requires-Python): vLLM's exact
  torch pin and Python window, torchvision/torchaudio/xformers torch pins, TRL's vLLM window,
  numba's NumPy cap, bitsandbytes' torch floor;
* runtime: what a release's code checks when it runs, read from the source shipped in its wheel:
  transformers' torch, accelerate and PEFT floors, accelerate's FSDP2 torch floor.

A release series is one group of consecutive releases with the same requirement; each group
becomes one `any` branch and one affected/clear example pair at its first release.

The families are data: scripts/families.yaml holds one row per rule, under the file it is written
to. This script holds what reads a row: the readers of the recorded inputs, the selection of
release groups and the rule template (Family, BuiltFor), and the one writer (rule_document).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import yaml
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import Specifier, SpecifierSet
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_helpers import (
    KB_INPUTS,
    below_scope,
    declared_by_python,
    floor_fix,
    kb_inputs,
    scoped,
    source_built,
    with_prebuilt,
)

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ROOT / "scripts" / "inputs"
MATRIX = ROOT / "compat" / "matrix"
SCRIPT = "scripts/gen_rules.py"
PYTHONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]
# The machine a declared requirement is evaluated for: what nearly every training stack runs on.
LINUX = {
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "python_version": "3.12",
    "python_full_version": "3.12.7",
}

Group = tuple[list[Version], Any]  # consecutive releases and the value they share


# ---------------------------------------------------------------------------------------------
# Reading recorded inputs


def load_input(package: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((INPUTS / f"{package}.json").read_text(encoding="utf-8"))
    return data


def releases(package: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = load_input(package)["releases"]
    return sorted(entries, key=lambda entry: Version(entry["version"]))


def candidates(package: str) -> list[Version]:
    """Every known release of a package, for choosing example versions."""
    if package == "python":
        return [Version(v) for v in PYTHONS]
    data = load_input(package)
    names = data.get("versions") or [entry["version"] for entry in data["releases"]]
    return sorted(Version(v) for v in names)


def declared(
    entry: dict[str, Any], dep: str, extra: str | None, env: dict[str, str] | None = None
) -> SpecifierSet | None:
    """The specifier a release declares on `dep` (for Linux x86-64, with `extra` selected)."""
    if dep == "python":
        text = entry.get("requires_python")
        return SpecifierSet(text) if text else None
    found: SpecifierSet | None = None
    for line in entry.get("requires_dist", []):
        requirement = Requirement(line)
        if requirement.name.lower() != dep:
            continue
        marker: Marker | None = requirement.marker
        if marker is not None and not marker.evaluate(
            {**LINUX, **(env or {}), "extra": extra or ""}
        ):
            continue
        if marker is None and extra is not None:
            continue  # the extra's own line is what we want, not the base requirement
        found = requirement.specifier if found is None else found & requirement.specifier
    return found


def group(values: Sequence[tuple[Version, Any]]) -> list[Group]:
    groups: list[Group] = []
    for version, value in values:
        if groups and groups[-1][1] == value:
            groups[-1][0].append(version)
        else:
            groups.append(([version], value))
    return groups


# ---------------------------------------------------------------------------------------------
# Specifier arithmetic


_COMPLEMENT = {"==": "!=", "!=": "==", ">=": "<", ">": "<=", "<": ">=", "<=": ">"}
_ORDER = {"<": 0, "<=": 1, ">": 2, ">=": 3, "==": 4, "!=": 5}


def clauses(spec: SpecifierSet) -> list[Specifier]:
    return sorted(
        spec, key=lambda s: (_ORDER.get(s.operator, 9), Version(s.version.removesuffix(".*")))
    )


def expand(spec: SpecifierSet) -> SpecifierSet:
    """`~=2.0` -> `>=2.0,<3`; `~=0.7.1` -> `>=0.7.1,<0.8` (PEP 440's compatible release)."""
    out = []
    for clause in spec:
        if clause.operator != "~=":
            out.append(str(clause))
            continue
        release = Version(clause.version).release
        upper = [*release[:-2], release[-2] + 1]
        out += [f">={clause.version}", "<" + ".".join(str(part) for part in upper)]
    return SpecifierSet(",".join(out))


def series(spec: SpecifierSet) -> SpecifierSet:
    """`==2.5.1` -> `==2.5.*`: the release series whose C++ ABI a wheel was built against."""
    out = []
    for clause in spec:
        if clause.operator == "==" and not clause.version.endswith(".*"):
            major, minor = Version(clause.version).release[:2]
            out.append(f"=={major}.{minor}.*")
        else:
            out.append(str(clause))
    return SpecifierSet(",".join(out))


def major(spec: SpecifierSet) -> SpecifierSet:
    """`==9.1.0.70` -> `==9.*`: libraries whose ABI holds within a major release (cuDNN)."""
    out = []
    for clause in spec:
        if clause.operator == "==" and not clause.version.endswith(".*"):
            out.append(f"=={Version(clause.version).major}.*")
        else:
            out.append(str(clause))
    return SpecifierSet(",".join(out))


def floor_of_pin(spec: SpecifierSet) -> SpecifierSet:
    """`==2.21.5` -> `>=2.21.5`: a pin that newer releases still satisfy in practice."""
    return SpecifierSet(",".join(f">={c.version}" if c.operator == "==" else str(c) for c in spec))


def complement(spec: SpecifierSet, keep: Sequence[str] | None = None) -> list[str]:
    """One specifier per clause, whose union is everything outside `spec`."""
    out = []
    for clause in clauses(expand(spec)):
        if clause.operator not in _COMPLEMENT:
            raise SystemExit(f"{SCRIPT}: cannot complement {clause}")
        if keep is not None and clause.operator not in keep:
            continue
        out.append(f"{_COMPLEMENT[clause.operator]}{clause.version}")
    return out


def span(versions: list[Version], open_end: bool) -> str:
    if open_end:
        return f">={versions[0]}"
    if len(versions) == 1:
        return f"=={versions[0]}"
    return f">={versions[0]},<={versions[-1]}"


def violating(branch: str, pool: list[Version]) -> Version | None:
    """The known release nearest the boundary on the wrong side of it."""
    spec = SpecifierSet(branch)
    inside = [v for v in pool if spec.contains(v, prereleases=False)]
    operator = next(iter(spec)).operator
    if not inside:
        # Nothing released there yet (NumPy 2.6 for a numba that caps <2.6): the boundary itself.
        return Version(next(iter(spec)).version) if operator == ">=" else None
    if operator in ("<", "<="):
        return inside[-1]
    if operator == "!=":
        pinned = Version(next(iter(spec)).version.removesuffix(".*"))
        above = [v for v in inside if v > pinned]
        return above[0] if above else inside[-1]
    return inside[0]


def satisfying(spec: SpecifierSet, pool: list[Version]) -> Version | None:
    """The known release nearest the boundary on the right side of it (the near miss)."""
    inside = [v for v in pool if expand(spec).contains(v, prereleases=False)]
    return inside[0] if inside else None


# ---------------------------------------------------------------------------------------------
# Families


@dataclass(kw_only=True)
class Family:
    """One generated rule: a package's requirement on another package (or on Python).

    Inputs: by default what each release of `package` declares on `dep` (Requires-Dist or
    Requires-Python, read from scripts/inputs/<package>.json, or <package>-metadata.json with
    `metadata`); `source_key` reads a floor found in the release's source instead; `values` is a
    reader of its own for what neither covers. Selection: the fields from `keep` to `exclude`.
    Template: the rest, written by `rule_document`."""

    rule_id: str
    title: str
    severity: str = "error"
    evidence: str = "verified"
    description: str
    package: str  # the package whose releases say something
    dep: str  # the package (or "python") they say it about
    metadata: bool = False  # read scripts/inputs/<package>-metadata.json
    extra: str | None = None  # the extra whose Requires-Dist lines are read
    env: dict[str, str] | None = None  # marker values over LINUX
    source_key: str | None = None  # the input field holding a floor read in the source
    by_python: bool = False  # scope the requirement to the Pythons that declare it (vLLM's numba)
    values: Callable[[], list[tuple[Version, Any]]] | None = None  # release -> SpecifierSet
    references: list[str]
    fix_summary: str
    # a floor that no recorded `dep` release meets yet is fixed by staying below it (floor_fix)
    fix_unmet_floor: bool = False
    change: str | None = None
    constraints: list[str] | None = None
    symptoms: list[str] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    keep: Sequence[str] | None = None  # complement only these operators (e.g. an upper cap)
    by_series: bool = False  # compare release series (`==2.5.*`), not exact pins
    open_end: bool = False  # floors only rise: the newest group covers later releases too
    window: tuple[str, str] | None = None  # restrict to releases in [low, high)
    exclude: Sequence[tuple[str, str]] = ()  # releases in these [low, high) a hand rule covers
    below_only: bool = False  # a pin is only broken from below (`==2.21.5` -> `<2.21.5`)
    by_major: bool = False  # compare major versions (`==9.1.0.70` -> `==9.*`)
    build: dict[str, str] = field(default_factory=dict)  # a build condition on every branch
    near_misses: list[dict[str, Any]] = field(default_factory=list)  # more clear examples
    # usage that makes an unknown trigger key a fair question (distributed=fsdp for fsdp_version)
    possible_usage: dict[str, Any] = field(default_factory=dict)
    # packages judged as prebuilt wheels: a source build of one leaves the rule (compat/kb/sourcebuild.py)
    prebuilt: list[str] = field(default_factory=list)
    # a build fact that names the exact `dep` release the package was built for (xFormers' own
    # warning: `build.xformers_torch`): one more branch per pinned release, so that a log showing
    # what it was built for and what is installed settles the rule without the package's version
    built_for: str | None = None

    def read(self) -> list[tuple[Version, Any]]:
        if self.values is not None:
            return self.values()
        if self.by_python:
            entries = releases(self.package)
            return declared_by_python(lambda: entries, self.dep, LINUX, PYTHONS)()
        if self.source_key is not None:
            return source_values(self.package, self.source_key, self.dep)()
        source = f"{self.package}-metadata" if self.metadata else self.package
        return declared_values(source, self.dep, self.extra, self.env)()

    def groups(self) -> list[Group]:
        values = self.read()
        if self.by_series:
            values = [(v, series(s) if s is not None else None) for v, s in values]
        if self.by_major:
            values = [(v, major(s) if s is not None else None) for v, s in values]
        if self.below_only:
            values = [(v, floor_of_pin(s) if s is not None else None) for v, s in values]
        for first, stop in self.exclude:
            values = [(v, s) for v, s in values if not Version(first) <= v < Version(stop)]
        if self.window is not None:
            low, high = (Version(v) for v in self.window)
            values = [(v, s) for v, s in values if low <= v < high]
        return group(values)

    def rule(self) -> dict[str, Any]:
        branches: list[dict[str, Any]] = []
        affected: list[dict[str, Any]] = []
        clear: list[dict[str, Any]] = []
        pool = candidates(self.dep)
        groups = self.groups()
        table = []
        for index, (versions, spec) in enumerate(groups):
            if spec is None or not str(spec):
                continue
            if index > 0 and groups[index - 1][1] is None:
                # The last release before the requirement existed: the same dep is no problem.
                before = str(groups[index - 1][0][-1])
                for outside in complement(spec, self.keep)[:1]:
                    bad = violating(outside, pool)
                    if bad is not None:
                        clear.append(self._example(before, bad, with_usage=True))
            bounds = span(versions, self.open_end and index == len(groups) - 1)
            first = str(versions[0])
            table.append(f"{_series(versions, bounds)}: {self.dep} {_show(spec)}")
            python = getattr(spec, "python", None)  # PythonScoped: holds on these Pythons only
            for outside in complement(spec, self.keep):
                branches.append(scoped(self._branch(bounds, outside), python))
                bad = violating(outside, pool)
                if bad is not None:
                    example = self._example(first, bad, with_usage=True)
                    affected.append(scoped(example, python, example=True))
                    if python is not None:
                        clear.append(below_scope(example, python, PYTHONS))
            good = satisfying(spec, pool)
            if good is not None:
                clear.append(
                    scoped(self._example(first, good, with_usage=True), python, example=True)
                )
        if not branches:
            raise SystemExit(f"{SCRIPT}: {self.rule_id}: the inputs give no requirement")
        if self.built_for is not None:
            branches += self._built_for_branches(groups)
            affected.append(self._built_for_example(groups, clear))
        examples: dict[str, Any] = {"affected": affected}
        if self.usage:
            possible: dict[str, Any] = {"packages": dict(affected[0]["packages"])}
            if self.possible_usage:
                possible["usage"] = dict(self.possible_usage)
            examples["possible"] = [possible]
            off = {key: _negate(value) for key, value in self.usage.items()}
            example = dict(affected[0])
            example["usage"] = off
            clear.append(example)
        if self.dep != "python":
            clear.append({"packages": {self.package: str(groups[-1][0][0])}})
        clear.extend(self.near_misses)
        clear.extend(source_built(affected[0], self.prebuilt))
        examples["clear"] = clear
        symptoms = list(self.symptoms)
        if symptoms:
            floors = sorted(
                {
                    c.version
                    for _, spec in groups
                    if spec is not None
                    for c in spec
                    if c.operator == ">="
                },
                key=Version,
            )
            alternatives = "(" + "|".join(re_escape(f) for f in floors) + ")"
            symptoms = [pattern.replace("{floors}", alternatives) for pattern in symptoms]
        return rule_document(
            self.rule_id,
            self.title,
            recorded(self.description, table),
            with_prebuilt(_when(branches, self.usage), self.prebuilt),
            symptoms,
            fix(*self._fix(), self.change),
            self.references,
            examples,
            severity=self.severity,
            evidence=self.evidence,
            settled_by={"build": self.built_for} if self.built_for is not None else None,
        )

    def _fix(self) -> tuple[str, list[str] | None]:
        if not self.fix_unmet_floor:
            return self.fix_summary, self.constraints
        pool = candidates(self.dep)
        return floor_fix(self.read, self.package, self.dep, pool, self.fix_summary)

    def _pinned(self, groups: list[Group]) -> list[str]:
        """The exact releases of `dep` the package's releases pin, oldest first."""
        pins = {
            c.version
            for _, spec in groups
            if spec is not None
            for c in spec
            if c.operator == "==" and "*" not in c.version
        }
        return sorted(pins, key=Version)

    def _built_for_branches(self, groups: list[Group]) -> list[dict[str, Any]]:
        """One branch per final release of `dep`, pinned by the package or not: the build fact
        names the release the installed build was made for, whichever package version that is
        (xformers 0.0.20 names torch 2.0.1, before the recorded pins); the rule is settled by it
        (`settled_by: {build: ...}`), so a release missing here would read as no mismatch."""
        assert self.built_for is not None
        releases = sorted(
            {str(v) for v in candidates(self.dep) if not v.is_prerelease and not v.local}
            | set(self._pinned(groups)),
            key=Version,
        )
        return [
            {"build": {self.built_for: f"=={release}"}, "packages": {self.dep: f"!={release}"}}
            for release in releases
        ]

    def _built_for_example(
        self, groups: list[Group], clear: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """What the log shows: the release built for, another installed; the same release as
        another build (a CPU torch) is no pin mismatch."""
        assert self.built_for is not None
        pins = self._pinned(groups)
        built, other = pins[-2], pins[-1]
        clear.append(
            {"packages": {self.dep: f"{built}+cpu"}, "build": {self.built_for: f"{built}+cu124"}}
        )
        return {
            "packages": {self.dep: f"{other}+cu124"},
            "build": {self.built_for: f"{built}+cu124"},
        }

    def _branch(self, bounds: str, outside: str) -> dict[str, Any]:
        branch: dict[str, Any]
        if self.dep == "python":
            branch = {"packages": {self.package: bounds}, "python": outside}
        else:
            branch = {"packages": {self.package: bounds, self.dep: outside}}
        if self.build:
            branch["build"] = dict(self.build)
        return branch

    def _example(self, first: str, dep_version: Version, *, with_usage: bool) -> dict[str, Any]:
        example: dict[str, Any]
        if self.dep == "python":
            example = {"packages": {self.package: first}, "python": str(dep_version)}
        else:
            example = {"packages": {self.package: first, self.dep: str(dep_version)}}
        if with_usage and self.usage:
            example["usage"] = dict(self.usage)
        if self.build:
            example["build"] = {key: _inside(spec) for key, spec in self.build.items()}
        return example


def rule_document(
    rule_id: str,
    title: str,
    description: str,
    when: dict[str, Any],
    symptoms: Sequence[str],
    fix: dict[str, Any],
    references: list[str],
    examples: dict[str, Any],
    *,
    severity: str = "error",
    evidence: str = "verified",
    settled_by: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The one writer of a generated rule, in the key order every generated file has."""
    rule: dict[str, Any] = {
        "id": rule_id,
        "title": title,
        "severity": severity,
        "evidence": evidence,
        "description": description,
        "when": when,
    }
    if symptoms:
        rule["symptoms"] = [{"match": pattern} for pattern in symptoms]
    rule["fix"] = fix
    rule["references"] = references
    rule["examples"] = examples
    if settled_by:
        rule["settled_by"] = settled_by
    return rule


def recorded(description: str, rows: Sequence[str]) -> str:
    """The description, then what each group of recorded releases says."""
    return (
        description.strip()
        + "\n\nWhat the recorded releases say:\n"
        + "\n".join(f"- {row}" for row in rows)
        + "\n"
    )


def fix(
    summary: str, constraints: list[str] | None = None, change: str | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": summary}
    if constraints:
        out["constraints"] = constraints
    if change:
        out["change"] = change
    return out


def _inside(spec: str) -> str:
    """A value inside a build specifier such as `>=12.0,<13` (its lower bound)."""
    return next(c.version for c in SpecifierSet(spec) if c.operator in (">=", "=="))


def _when(branches: list[dict[str, Any]], usage: dict[str, Any]) -> dict[str, Any]:
    """`any` over the branches, or the single branch itself (`any` needs two alternatives)."""
    when: dict[str, Any] = dict(branches[0]) if len(branches) == 1 else {"any": branches}
    if usage:
        when["usage"] = usage
    return when


def _negate(value: Any) -> Any:
    if value is True:
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return value - 1 if value > 1 else value + 1
    raise SystemExit(f"{SCRIPT}: cannot negate usage value {value!r}")


def _series(versions: list[Version], bounds: str) -> str:
    if bounds.startswith(">=") and "," not in bounds:
        return f"{versions[0]} and later"
    if len(versions) == 1:
        return str(versions[0])
    return f"{versions[0]}-{versions[-1]}"


def _show(spec: SpecifierSet) -> str:
    python = getattr(spec, "python", None)  # PythonScoped
    return ",".join(str(clause) for clause in clauses(spec)) + (
        f" on Python {python}" if python else ""
    )


def declared_values(
    package: str, dep: str, extra: str | None = None, env: dict[str, str] | None = None
) -> Callable[[], list[tuple[Version, Any]]]:
    def read() -> list[tuple[Version, Any]]:
        return [(Version(e["version"]), declared(e, dep, extra, env)) for e in releases(package)]

    return read


def source_values(package: str, key: str, dep: str) -> Callable[[], list[tuple[Version, Any]]]:
    """A floor read from the release's source: `key` holds the minimum `dep` version."""

    def read() -> list[tuple[Version, Any]]:
        out: list[tuple[Version, Any]] = []
        for entry in releases(package):
            floor = entry.get(key)
            out.append((Version(entry["version"]), SpecifierSet(f">={floor}") if floor else None))
        return out

    return read


# ---------------------------------------------------------------------------------------------
# --refresh: re-read the published facts (the only step that uses the network)

# package -> (first release read, dependencies whose Requires-Dist lines are kept)
DECLARED: dict[str, tuple[str, tuple[str, ...]]] = {
    "vllm": ("0.2.0", ("torch", "transformers", "flashinfer-python", "xformers", "numba")),
    "torchvision": ("0.16.0", ("torch",)),
    "torchaudio": ("2.1.0", ("torch",)),
    "xformers": ("0.0.23", ("torch",)),
    "trl": ("0.12.0", ("vllm", "transformers", "accelerate", "datasets", "peft")),
    "numba": ("0.57.0", ("numpy",)),
    "bitsandbytes": ("0.43.0", ("torch",)),
    "torch-metadata": (
        "2.0.0",
        (
            "triton",
            "nvidia-cudnn-cu12",
            "nvidia-cudnn-cu13",
            "nvidia-nccl-cu12",
            "nvidia-nccl-cu13",
        ),
    ),
    "openrlhf": (
        "0.3.6.post1",
        ("deepspeed", "transformers", "vllm", "flash-attn", "torch", "ray"),
    ),
    "transformers-metadata": ("4.40.0", ("tokenizers", "huggingface-hub", "safetensors")),
    "datasets-metadata": ("2.14.0", ("fsspec", "huggingface-hub", "pyarrow")),
}
# An input file named "<package>-metadata" holds another package's declared metadata (the
# package's own input file keeps what its source says, or its wheel tags).
PROJECT = {
    "torch-metadata": "torch",
    "transformers-metadata": "transformers",
    "datasets-metadata": "datasets",
}
_BNB_LIB = re.compile(r"libbitsandbytes_cuda(\d+)\w*\.so$")
# package -> (first release read, {field: (member of the wheel, regex whose group 1 is the value)})
SOURCE: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "transformers": (
        "4.51.0",
        {
            "torch_floor": (
                "transformers/utils/import_utils.py",
                r"Disabling PyTorch because PyTorch >= ([0-9.]+) is required",
            ),
            "accelerate_floor": (
                "transformers/utils/import_utils.py",
                r'ACCELERATE_MIN_VERSION = "([0-9.]+)"',
            ),
            "peft_floor": ("transformers/integrations/peft.py", r'MIN_PEFT_VERSION = "([0-9.]+)"'),
        },
    ),
    "accelerate": (
        "1.4.0",
        {
            "fsdp2_torch_floor": (
                "accelerate/utils/constants.py",
                r'FSDP2_PYTORCH_VERSION = "([0-9.]+)"',
            ),
        },
    ),
}
# Every release since this one is listed too (the example versions are chosen among them).
SOURCE_VERSIONS_SINCE = {"transformers": "4.40.0", "accelerate": "0.20.0"}
SOURCE_TREES = {
    "transformers": "https://github.com/huggingface/transformers/blob/v{version}/src/{member}",
    "accelerate": "https://github.com/huggingface/accelerate/blob/v{version}/src/{member}",
}
VERSIONS_ONLY = {
    "numpy": "1.24.0", "peft": "0.8.0", "tokenizers": "0.19.0", "huggingface-hub": "0.19.0",
    "safetensors": "0.4.0", "triton": "2.0.0", "nvidia-cudnn-cu12": "8.9.0", "nvidia-nccl-cu12": "2.18.0",
    "flashinfer-python": "0.2.0", "datasets": "2.14.0", "deepspeed": "0.14.0", "fsspec": "2023.1.0",
    "pyarrow": "12.0.0", "nvidia-nccl-cu13": "2.27.0", "flash-attn": "2.5.0", "ray": "2.30.0",
}  # fmt: skip


def refresh(packages: Sequence[str]) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import pypi_inputs as pypi

    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    for package in packages or [*DECLARED, *SOURCE, *VERSIONS_ONLY, "torch"]:
        project = PROJECT.get(package, package)
        files = pypi.simple_files(project)
        wheels = pypi.final_versions(files)
        record: dict[str, Any] = {
            "package": project,
            "fetched": today,
            "source": f"https://pypi.org/simple/{project}/ (PEP 691 JSON)",
        }
        if package in VERSIONS_ONLY or package == "torch":
            since = Version(VERSIONS_ONLY.get(package, "2.0.0"))
            chosen = sorted(v for v in wheels if v >= since)
            record["versions"] = [str(v) for v in pypi.release_versions(files) if v >= since]
            if package == "torch":
                record["note"] = "cpython_tags: cpXY tags of the release's manylinux x86_64 wheels"
                record["releases"] = [
                    {"version": str(v), "cpython_tags": _cpython_tags(wheels[v])} for v in chosen
                ]
        elif package in DECLARED:
            record.update(_refresh_declared(pypi, package, wheels))
        else:
            record.update(_refresh_source(pypi, package, wheels))
        INPUTS.mkdir(parents=True, exist_ok=True)
        path = INPUTS / f"{package}.json"
        path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"{path}: {len(record.get('releases') or record['versions'])} releases")


# --verify (and every --refresh): re-read a sample of the recorded rows from the artifacts

VERIFY_ROWS = 4  # rows re-read per input file


def verify(packages: Sequence[str], count: int = VERIFY_ROWS) -> list[str]:
    """Re-read a seeded sample of every recorded input's rows from PyPI by a second route and
    refuse (SampleDisagrees) where one differs: a declared row's Requires-Dist/Requires-Python
    from the METADATA inside the wheel (the input was read from the index's PEP 658 copy), a
    source row's fields from the wheel's files again, a version list's releases from the
    project's simple page. Inputs this script does not read (other generators') are skipped."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import pypi_inputs as pypi
    from tablegen import resample

    lines = []
    for package in packages or sorted(p.stem for p in INPUTS.glob("*.json")):
        path = INPUTS / f"{package}.json"
        if package not in (*DECLARED, *SOURCE, *VERSIONS_ONLY, "torch") or not path.exists():
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        rows, reread = _rereader(pypi, package, record)
        seed = f"{package} {record.get('fetched')}"
        lines.append(resample(str(path), rows, reread, count=count, seed=seed))
    return lines


def _rereader(
    pypi: Any, package: str, record: dict[str, Any]
) -> tuple[list[Any], Callable[[Any], tuple[str, Any, Any]]]:
    """The rows of one recorded input and how to read one of them again from its artifact."""
    if package in DECLARED:
        deps = DECLARED[package][1]

        def declared(row: dict[str, Any]) -> tuple[str, Any, Any]:
            fields = pypi.wheel_metadata(row["url"])
            kept = sorted(
                v for k, v in fields if k == "Requires-Dist" and Requirement(v).name.lower() in deps
            )
            python = next((v for k, v in fields if k == "Requires-Python"), None)
            recorded = (row.get("requires_python"), sorted(row["requires_dist"]))
            return f"{package} {row['version']} ({row['wheel']})", recorded, (python, kept)

        return record["releases"], declared
    if package in SOURCE:
        wanted = record["fields"]

        def source(row: dict[str, Any]) -> tuple[str, Any, Any]:
            texts = pypi.wheel_members(row["url"], sorted({f["file"] for f in wanted.values()}))
            read = {n: pypi.first_match(f["pattern"], texts[f["file"]]) for n, f in wanted.items()}
            recorded = {name: row.get(name) for name in wanted}
            return f"{package} {row['version']} ({row['wheel']})", recorded, read

        return record["releases"], source
    project = record["package"]
    listed = {str(v) for v in pypi.release_versions(pypi.simple_files(project))}

    def listing(version: str) -> tuple[str, Any, Any]:
        return f"{project} {version}", True, version in listed

    return record["versions"], listing


def _refresh_declared(pypi: Any, package: str, wheels: dict[Version, Any]) -> dict[str, Any]:
    since, deps = DECLARED[package]

    def read(version: Version) -> dict[str, Any]:
        wheel = pypi.pick_wheel(wheels[version])
        fields = pypi.core_metadata(wheel["url"])
        kept = [
            value
            for key, value in fields
            if key == "Requires-Dist" and Requirement(value).name.lower() in deps
        ]
        entry = {
            "version": str(version),
            "wheel": wheel["filename"],
            "url": wheel["url"].split("#")[0],
            "sha256": wheel.get("hashes", {}).get("sha256"),
            "requires_python": next((v for k, v in fields if k == "Requires-Python"), None),
            "requires_dist": kept,
        }
        if package == "bitsandbytes":  # the CUDA libraries the wheel ships (its file names)
            found = {
                m.group(1) for n in pypi.wheel_names(wheel["url"]) if (m := _BNB_LIB.search(n))
            }
            entry["cuda_libraries"] = sorted(found, key=int)
        return entry

    chosen = sorted(v for v in wheels if v >= Version(since))
    return {
        "method": "core metadata of the Linux x86-64 wheel (PEP 658 <wheel url>.metadata)",
        "releases": pypi.parallel(read, chosen),
    }


def _refresh_source(pypi: Any, package: str, wheels: dict[Version, Any]) -> dict[str, Any]:
    since, wanted = SOURCE[package]
    members = sorted({member for member, _ in wanted.values()})

    def read(version: Version) -> dict[str, Any]:
        wheel = pypi.pick_wheel(wheels[version])
        texts = pypi.wheel_members(wheel["url"], members)
        entry: dict[str, Any] = {
            "version": str(version),
            "wheel": wheel["filename"],
            "url": wheel["url"].split("#")[0],
            "sha256": wheel.get("hashes", {}).get("sha256"),
        }
        for key, (member, pattern) in wanted.items():
            entry[key] = pypi.first_match(pattern, texts[member])
        entry["source_urls"] = [
            SOURCE_TREES[package].format(version=version, member=member) for member in members
        ]
        return entry

    chosen = sorted(v for v in wheels if v >= Version(since))
    since_all = Version(SOURCE_VERSIONS_SINCE[package])
    return {
        "method": (
            "files read inside the released wheel (HTTP range requests on PyPI's copy); "
            "source_urls name the same files at the release tag"
        ),
        "versions": [str(v) for v in sorted(wheels) if v >= since_all],
        "fields": {key: {"file": m, "pattern": p} for key, (m, p) in wanted.items()},
        "releases": pypi.parallel(read, chosen, workers=6),
    }


def _cpython_tags(wheels: list[dict[str, Any]]) -> list[str]:
    from packaging.utils import parse_wheel_filename

    tags = set()
    for wheel in wheels:
        name = wheel["filename"]
        if "manylinux" not in name or "x86_64" not in name:
            continue
        for tag in parse_wheel_filename(name)[3]:
            if tag.interpreter.startswith("cp3") and tag.abi == tag.interpreter:
                tags.add(tag.interpreter)
    return sorted(tags, key=lambda t: int(t[3:]))


# ---------------------------------------------------------------------------------------------
# The table (scripts/families.yaml): each generated file, the recorded inputs it is made from
# (named in its header), and its rows. A row is a Family (inputs, selection, template: see its
# fields), a BuiltFor (an extension that records the torch or CUDA series it was built against),
# or a function named by `expand:` that writes Families (numba: one rule per release series).
# Every row is written by rule_document. Adding a family is adding a row to its file's list.

Row = Union["Family", "BuiltFor", Callable[[], list["Family"]]]


@dataclass
class Output:
    name: str  # the file under compat/matrix/
    inputs: tuple[str, ...]  # scripts/inputs/<input>.json
    rows: list[Row]
    extra_sources: list[str] = field(default_factory=list)  # inputs another script generated

    def rules(self) -> list[dict[str, Any]]:
        expanded = [row() if callable(row) else [row] for row in self.rows]
        return [family.rule() for families in expanded for family in families]


def numba_families() -> list[Family]:
    """One rule per numba release series and NumPy cap (the ids of the hand-written originals)."""
    values = declared_values("numba", "numpy")()
    capped = [(v, _upper(s)) for v, s in values]
    minors: dict[tuple[int, ...], list[Version]] = {}
    for version, _ in capped:
        minors.setdefault(version.release[:2], []).append(version)
    families = []
    keyed = [(v, (v.release[:2], cap)) for v, cap in capped]
    for versions, (minor, cap) in group(keyed):
        if cap is None:
            continue
        name = f"{minor[0]}.{minor[1]}" if versions == minors[minor] else str(versions[0])
        if len(versions) > 1 and versions != minors[minor]:
            name = f"{versions[0]}-{versions[-1]}"
        below = Version(cap).release
        shown = f"{below[0]}.{below[1] - 1}"
        families.append(
            Family(
                rule_id=f"numba-{name}-numpy-{cap}",
                title=f"numba {name} refuses NumPy {cap} and later",
                description=f"""
numba {name} declares numpy<{cap} and checks it again when numba is imported
(_ensure_critical_deps), so a NumPy upgraded afterwards by another install makes `import numba`
raise ImportError, and everything that imports numba (vLLM's n-gram speculative decoding, librosa,
many data pipelines) fails with it. vLLM 0.11-0.19 pin numba==0.61.2.""",
                package="numba",
                dep="numpy",
                values=_only(values, versions),
                keep=("<", "<="),
                references=[
                    f"https://pypi.org/project/numba/{versions[0]}/",
                    "https://github.com/numba/numba/issues/10033",
                ],
                fix_summary=f"keep NumPy below {cap} with numba {name}, or upgrade numba",
                constraints=[f"numpy<{cap}"],
                # numba/__init__.py _ensure_critical_deps, read in the wheels: 0.57.0-0.59.1 raise
                # "Numba needs NumPy 1.2N or less" with nothing after it; 0.60.0 and later add
                # ". Got NumPy X.Y". The tail is optional so both forms are the same mechanism.
                # The cap is hard-coded per release: only the releases of this rule print it
                # (release_numba; where two series share a cap, neither is settled by it).
                symptoms=[
                    rf"(?P<release_numba>Numba) needs NumPy {re_escape(shown)} or less"
                    r"(?:\. Got NumPy \d+\.\d+)?"
                ],
            )
        )
    return families


def _upper(spec: SpecifierSet | None) -> str | None:
    if spec is None:
        return None
    caps = [Version(c.version) for c in spec if c.operator == "<"]
    return str(min(caps)) if caps else None


def _only(
    values: list[tuple[Version, Any]], versions: list[Version]
) -> Callable[[], list[tuple[Version, Any]]]:
    chosen = set(versions)
    return lambda: [(v, s) for v, s in values if v in chosen]


def re_escape(value: str) -> str:
    return value.replace(".", r"\.")


# CUDA release series (NVIDIA's toolkit releases) that torch and DeepSpeed builds name.
CUDA_SERIES = (
    [f"11.{m}" for m in range(9)] + [f"12.{m}" for m in range(10)] + ["13.0", "13.1", "13.2"]
)


@dataclass
class BuiltFor:
    """A compiled extension that records the torch (or CUDA) series it was built against."""

    rule_id: str
    title: str
    description: str
    fact: str  # the build fact holding the series the extension was built for
    against: str  # "torch" (the installed torch's series) or "torch_cuda" (torch's CUDA build)
    package: str
    label: Callable[[str], dict[str, Any]]  # series -> the example fields that say it
    symptoms: list[str]
    references: list[str]
    fix_summary: str
    change: str
    settled_by: dict[str, str] | None = None  # what the installed files answer (issue 33)

    def rule(self) -> dict[str, Any]:
        if self.against == "torch":
            torches = candidates("torch")
            series = sorted({f"{v.major}.{v.minor}" for v in torches}, key=Version)
            branches = [
                {"build": {self.fact: f"=={s}"}, "packages": {"torch": f"!={s}.*"}} for s in series
            ]
            first = {s: str(min(v for v in torches if f"{v.major}.{v.minor}" == s)) for s in series}
            pairs = list(itertools.pairwise(series))
            mid = pairs[len(pairs) // 2]
            affected = [self._example(old, first[new]) for old, new in (pairs[-1], mid)] + [
                self._example(mid[1], first[mid[0]])
            ]
            clear = [self._example(s, first[s]) for s in (mid[0], series[-1])]
        else:
            series = CUDA_SERIES
            branches = [{"build": {self.fact: f"=={s}", "torch_cuda": f"!={s}"}} for s in series]
            affected = [self._cuda("12.1", "2.5.1+cu124"), self._cuda("12.8", "2.9.0+cu130")]
            clear = [self._cuda("12.8", "2.8.0+cu128"), self._cuda("12.1", "2.5.1+cpu")]
        table = ", ".join(series)
        return rule_document(
            self.rule_id,
            self.title,
            self.description.strip() + f"\n\nSeries compared: {table}.\n",
            {"any": branches},
            self.symptoms,
            fix(self.fix_summary, change=self.change),
            self.references,
            {"affected": affected, "clear": [*clear, self._plain()]},
            settled_by=self.settled_by,
        )

    def _example(self, built: str, torch: str) -> dict[str, Any]:
        example = self.label(built)
        example["packages"] = {**example.get("packages", {}), "torch": torch}
        return example

    def _cuda(self, built: str, torch: str) -> dict[str, Any]:
        series = ".".join(torch.split(".")[:2])
        example = self.label(series)
        example["build"] = {**example.get("build", {}), self.fact: built}
        example["packages"] = {**example.get("packages", {}), "torch": torch}
        return example

    def _plain(self) -> dict[str, Any]:
        """The package installed without any record of its build: nothing to say."""
        return {
            "packages": {
                self.package: self.label("2.8")["packages"][self.package].split("+")[0],
                "torch": "2.9.0",
            }
        }


def _flash_attn(series: str) -> dict[str, Any]:
    return {"packages": {"flash-attn": f"2.8.3+cu12torch{series}cxx11abiTRUE"}}


def _deepspeed(series: str) -> dict[str, Any]:
    return {"packages": {"deepspeed": "0.16.4"}, "build": {"deepspeed_ops_torch": series}}


# The bitsandbytes library family is table-driven now: scripts/gen_native_libs.py writes
# compat/data/native-libs.json and two rules (compat/matrix/abi.yaml) read it:
# bitsandbytes-no-library-for-torch-cuda through the derived fact `bitsandbytes_cuda_library`
# (0.40.1 on), bitsandbytes-runtime-loader-no-library-for-torch-cuda-major through
# `bitsandbytes_cuda_major` (0.31.8-0.40.0.post4, which pick by the machine's CUDA runtime).


FAMILIES = ROOT / "scripts" / "families.yaml"
EXPANSIONS = {"numba_families": numba_families}
LABELS = {"flash_attn": _flash_attn, "deepspeed": _deepspeed}


def load_outputs(path: Path) -> dict[str, Output]:
    """The table: scripts/families.yaml, one entry per generated file (and the shared `texts`)."""
    table = yaml.safe_load(path.read_text(encoding="utf-8"))
    texts = table.pop("texts", {})
    outputs = {}
    for name, spec in table.items():
        rows = []
        for row in spec["rows"]:
            try:
                rows.append(_row(row, texts))
            except (TypeError, KeyError) as error:  # a misspelt field, a missing one
                where = row.get("rule_id") or row.get("expand")
                raise SystemExit(f"{SCRIPT}: {path.name}: {name}: row {where}: {error}") from None
        outputs[name] = Output(name, tuple(spec["inputs"]), rows, spec.get("extra_sources", []))
    return outputs


def _row(row: dict[str, Any], texts: dict[str, str]) -> Row:
    if "expand" in row:
        return EXPANSIONS[row["expand"]]
    description = row["description"]
    for key, text in texts.items():
        description = description.replace("{" + key + "}", text)
    row = {**row, "description": description}
    if "fact" in row:
        return BuiltFor(**{**row, "label": LABELS[row["label"]]})
    return Family(**row)


OUTPUTS = load_outputs(FAMILIES)


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)
_Dumper.ignore_aliases = lambda self, data: True  # type: ignore[method-assign]


def render(name: str) -> str:
    out = OUTPUTS[name]
    fetched = ", ".join(f"{p} {load_input(p)['fetched']}" for p in out.inputs)
    sources = [f"scripts/inputs/{p}.json" for p in out.inputs] + out.extra_sources
    header = [
        f"# GENERATED by {SCRIPT} from " + ", ".join(sources) + ".",
        "# Do not edit by hand: change the script or refresh its inputs, then regenerate:",
        f"#   python {SCRIPT}             (offline, from the recorded inputs)",
        f"#   python {SCRIPT} --refresh   (re-reads PyPI first)",
        f"# Inputs fetched: {fetched}. tests/unit/kb/test_generated.py fails when this file differs.",
    ]
    document = {"schema": "compat.matrix/1", "rules": out.rules()}
    body = yaml.dump(document, Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True)
    return "\n".join(header) + "\n" + body


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=MATRIX, help="directory to write into")
    parser.add_argument("--check", action="store_true", help="exit 1 when a file differs")
    parser.add_argument("--inputs", type=Path, default=None, help="recorded inputs directory")
    parser.add_argument("--refresh", nargs="*", metavar="PACKAGE", help="re-fetch inputs from PyPI")
    parser.add_argument(
        "--verify",
        nargs="*",
        metavar="PACKAGE",
        help="re-read a sample of the recorded rows from PyPI and exit (1: one disagrees)",
    )
    args = parser.parse_args(argv)
    if args.inputs is not None:
        global INPUTS
        INPUTS = args.inputs
    if args.refresh is not None:
        refresh(args.refresh)
    if args.refresh is not None or args.verify is not None:
        from tablegen import SampleDisagrees  # only here: a plain regeneration needs no network

        try:
            for line in verify(args.verify or args.refresh or []):
                print(line)
        except SampleDisagrees as error:
            print(f"{SCRIPT}: refused: {error}", file=sys.stderr)
            return 1
        except OSError as error:  # the index cannot be read: the machine, not the table
            print(f"{SCRIPT}: could not re-read the artifacts: {error}", file=sys.stderr)
            return 3
        if args.verify is not None:
            return 0
    stale = []
    for name in OUTPUTS:
        text = render(name)
        path = args.out / name
        if args.check:
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current != text:
                stale.append(name)
            continue
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    # The inputs' dates and newest releases, for the reports' freshness lines (gen_helpers).
    summary, target = kb_inputs(INPUTS), ROOT / KB_INPUTS
    if args.check and (not target.exists() or target.read_text(encoding="utf-8") != summary):
        stale.append(KB_INPUTS)
    elif not args.check and args.out == MATRIX:
        target.write_text(summary, encoding="utf-8")
    if stale:
        print(f"{SCRIPT}: out of date: {', '.join(stale)} (run python {SCRIPT})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
