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


def text(version: Version, dep: str) -> str:
    return str(version)


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
        assert self.built_for is not None
        return [
            {"build": {self.built_for: f"=={pin}"}, "packages": {self.dep: f"!={pin}"}}
            for pin in self._pinned(groups)
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
    "vllm": ("0.4.0", ("torch", "transformers", "flashinfer-python", "xformers", "numba")),
    "torchvision": ("0.16.0", ("torch",)),
    "torchaudio": ("2.1.0", ("torch",)),
    "xformers": ("0.0.23", ("torch",)),
    "trl": ("0.14.0", ("vllm", "transformers", "accelerate", "datasets", "peft")),
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
# The table: each generated file, the recorded inputs it is made from (named in its header), and
# its rows. A row is a Family (inputs, selection, template: see its fields), a BuiltFor (an
# extension that records the torch or CUDA series it was built against), or a function that
# expands into Families (numba: one rule per release series). Every row is written by
# rule_document. Adding a family is adding a row to its file's list.

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


PIP_NO_MATCH = "Could not find a version that satisfies the requirement"


VLLM = Output(
    "generated-vllm.yaml",
    ("vllm", "torch", "transformers"),
    [
        Family(
            rule_id="vllm-torch-pin-mismatch",
            title="vLLM's compiled kernels are built for one exact torch release, and a different torch is installed",
            description="""
Every vLLM wheel requires one torch release exactly (Requires-Dist torch==X) because
vllm/_C.abi3.so links against that torch's C++ library. Upgrading torch afterwards (a training
library, flash-attn or torchvision install that moves it) leaves vLLM's extension with unresolved
symbols; installing vLLM into a training environment does the opposite and silently swaps the
torch the rest of the stack was built for. A vLLM built from source against the installed torch
is fine, but its version cannot be told apart here.""",
            package="vllm",
            dep="torch",
            references=[
                "https://pypi.org/project/vllm/",
                "https://docs.vllm.ai/en/latest/getting_started/installation/gpu.html",
            ],
            fix_summary="install the torch this vLLM release pins (listed in the description), or give vLLM its own environment",
            change='reinstall in one command so pip resolves the pair, e.g. pip install "vllm==0.11.0" "torch==2.8.0" "torchvision==0.23.0"',
            symptoms=[r"vllm/_C\.abi3\.so: undefined symbol"],
            prebuilt=["vllm"],
        ),
        Family(
            rule_id="vllm-python-outside-requires-python",
            title="vLLM release outside its supported Python range",
            description="""
Each vLLM release declares a Requires-Python window and ships compiled wheels only for it. pip
then reports "no matching distribution"; a lock file or --no-deps install that forces it gets an
extension that does not import.""",
            package="vllm",
            dep="python",
            references=["https://pypi.org/project/vllm/"],
            fix_summary="use a Python inside the release's window (listed in the description), or a vLLM release that supports your Python",
            change="create the environment with a supported interpreter, e.g. uv venv --python 3.12",
            symptoms=[PIP_NO_MATCH + " vllm", "Package 'vllm' requires a different Python"],
            prebuilt=["vllm"],
        ),
        Family(
            rule_id="vllm-transformers-outside-declared-range",
            title="transformers outside the range this vLLM release declares",
            severity="warning",
            description="""
vLLM declares which transformers releases it works with: from 0.11.1 it caps transformers
below 5 (0.11.1 and 0.11.2 still read tokenizer.all_special_tokens_extended, which transformers 5
removed), and from 0.31 it caps transformers again below the next minors it has not been tested
with. This rule compares those upper caps. A --no-deps install, a hand-edited lock or a later `pip install -U
transformers` leaves vLLM outside it: tokenizer and model-config code then meet APIs they were
not written for. vLLM before 0.11.1 declared no upper bound (see
vllm-before-0.19.1-with-transformers-5).""",
            package="vllm",
            dep="transformers",
            # Upper caps only: a floor or a single excluded release is what pip's resolver enforces
            # anyway (an unpinned transformers never lands below it), and projects override the
            # exclusions on purpose (open-instruct's uv.lock: transformers>=5.4.0 beside 0.19.1).
            keep=("<", "<="),
            references=[
                "https://pypi.org/project/vllm/",
                "https://github.com/vllm-project/vllm/issues/30466",
            ],
            fix_summary="install the transformers this vLLM declares (pip install vllm==X re-resolves it), or a vLLM whose window includes your transformers",
            change='reinstall the pair in one command, e.g. pip install "vllm==0.19.1" "transformers>=5.5.1"',
        ),
    ],
)


TORCH_PAIRS = Output(
    "generated-torch-pairs.yaml",
    ("torchvision", "torchaudio", "xformers", "bitsandbytes", "torch"),
    [
        Family(
            rule_id="torchvision-torch-pair-mismatch",
            title="torchvision is built against one torch release series, and a different torch is installed",
            description="""
Each torchvision release requires one torch release (Requires-Dist torch==X) because its
compiled operators link against that torch's C++ library; PyTorch's compatibility table pairs
them by series (torch 2.X with torchvision 0.(X+15)), which is what this rule compares. A torch
upgraded on its own (pip install -U torch, a vLLM install that swaps torch) leaves torchvision's
operators pointing at the old ABI. torchvision 0.29.1 relaxed the pin to a floor.""",
            package="torchvision",
            dep="torch",
            by_series=True,
            references=[
                "https://github.com/pytorch/vision#installation",
                "https://github.com/pytorch/vision/issues/8985",
                "https://pypi.org/project/torchvision/",
            ],
            fix_summary="install torch and torchvision together, from the same index, as a matching pair (torch 2.X with torchvision 0.(X+15))",
            change='pip install "torch==2.X.Y" "torchvision==0.(X+15).Y" --index-url <the same index for both>',
            symptoms=[
                "operator torchvision::nms does not exist",
                r"Couldn't load custom C\+\+ ops",
            ],
            prebuilt=["torchvision"],
        ),
        Family(
            rule_id="torchaudio-torch-pair-mismatch",
            title="torchaudio 2.1-2.10 is built against one torch release series, and a different torch is installed",
            description="""
Up to 2.10, every torchaudio wheel requires the torch release of the same number (Requires-Dist
torch==2.X.Y) because libtorchaudio.so links against torch's C++ library; the rule compares
the release series. Upgrading torch alone leaves torchaudio's extension with unresolved symbols
at import. torchaudio 2.11 is built against torch's stable ABI and declares no torch at all, so
it is out of this rule.""",
            package="torchaudio",
            dep="torch",
            by_series=True,
            references=[
                "https://docs.pytorch.org/audio/2.11.0/installation.html",
                "https://github.com/pytorch/audio/issues/3335",
                "https://pypi.org/project/torchaudio/",
            ],
            fix_summary="install torchaudio with the same version number as torch, in one command from the same index (or torchaudio 2.11+ with torch 2.11+)",
            change='pip install "torch==2.X.Y" "torchaudio==2.X.Y" --index-url <the same index for both>',
            symptoms=[r"libtorchaudio\.so: undefined symbol"],
            prebuilt=["torchaudio"],
        ),
        Family(
            rule_id="xformers-torch-pin-mismatch",
            title="xformers' compiled extensions are built for one exact torch release, and a different torch is installed",
            description="""
Every xformers wheel up to 0.0.34 requires one torch release exactly (Requires-Dist torch==X):
its C++/CUDA extensions link against that torch. With another torch, `import xformers` warns
that it "can't load C++/CUDA extensions" and names the torch it was built for; memory-efficient
attention then falls back or fails. `pip install xformers` also replaces torch to satisfy the pin,
which breaks the other half of the stack. 0.0.35 relaxed the pin to a floor. xFormers' own
warning ("built for: PyTorch 2.2.0+cu121 ... (you have 2.3.0+cu121)", read as build.xformers_torch)
settles the rule without the xformers version; the same release as another build (a CPU torch)
is not a pin mismatch.""",
            package="xformers",
            dep="torch",
            references=[
                "https://github.com/facebookresearch/xformers/issues/982",
                "https://pypi.org/project/xformers/",
            ],
            fix_summary="install the xformers release whose pin equals your torch (listed in the description), from the same CUDA index",
            change='pip install "torch==X" "xformers==Y" --index-url <the same index for both>',
            symptoms=[r"xFormers can't load C\+\+/CUDA extensions", "xFormers was built for"],
            prebuilt=["xformers"],
            built_for="xformers_torch",
        ),
        Family(
            rule_id="bitsandbytes-below-declared-torch-floor",
            title="bitsandbytes with a torch older than the release declares",
            description="""
bitsandbytes raised its declared torch floor as it moved to torch's custom-operator API (0.46
needs torch 2.2, 0.48 needs 2.3, 0.50 needs 2.4). On an older pinned torch (an image installed
with --no-deps, or a lock that kept torch) the new bitsandbytes registers operators torch does
not have and fails at import or at the first quantized matmul.""",
            package="bitsandbytes",
            dep="torch",
            keep=(">=", ">"),
            open_end=True,
            references=[
                "https://pypi.org/project/bitsandbytes/",
                "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/main/CHANGELOG.md",
            ],
            fix_summary="upgrade torch to the floor of your bitsandbytes release, or keep an older bitsandbytes (0.45.x for torch 2.0-2.1)",
            change='pip install "bitsandbytes<0.46" on torch 2.0-2.1, "bitsandbytes<0.48" on torch 2.2',
        ),
    ],
)


TRL_VLLM = Output(
    "generated-trl-vllm.yaml",
    ("trl", "vllm"),
    [
        Family(
            rule_id="trl-vllm-outside-supported-window",
            title="TRL with a vLLM outside the window that release declares (trl[vllm])",
            severity="warning",
            description="""
Each TRL release declares the vLLM versions its GRPO/online-DPO generation path was built for in
its vllm extra (and recent releases warn from trl/import_utils.py when the installed vLLM is
outside them). vLLM's engine, sampling and weight-loading APIs change between minors, so TRL's
colocate/server weight sync and generation calls can fail or misbehave outside the window.
Installing trl and vllm separately skips the extra's bounds.""",
            package="trl",
            dep="vllm",
            extra="vllm",
            usage={"use_vllm": True},
            references=[
                "https://github.com/huggingface/trl/blob/v0.26.0/trl/import_utils.py",
                "https://github.com/huggingface/trl/blob/v1.0.0/trl/import_utils.py",
                "https://pypi.org/project/trl/",
            ],
            fix_summary="install TRL with its vllm extra so pip picks a vLLM inside the window (listed in the description)",
            change='pip install "trl[vllm]==<your TRL version>" (vLLM also pins torch; see vllm-torch-pin-mismatch)',
            symptoms=["TRL currently supports vLLM versions"],
        ),
    ],
)


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
                symptoms=[rf"Numba needs NumPy {re_escape(shown)} or less\. Got NumPy \d+\.\d+"],
            )
        )
    return families


NUMBA = Output("generated-numba.yaml", ("numba", "numpy"), [numba_families])


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


TRANSFORMERS_PR = ["https://github.com/huggingface/transformers/pull/35479"]

TRANSFORMERS = Output(
    "generated-transformers.yaml",
    ("transformers", "torch", "accelerate", "peft"),
    [
        Family(
            rule_id="transformers-4.52-disables-torch-below-2.1",
            title="transformers 4.52-4.57 switch PyTorch off when torch is older than 2.1",
            description="""
From 4.52.0 transformers/utils/import_utils.py treats torch below 2.1 as absent
(is_torch_available() is False), logging "Disabling PyTorch" instead of raising. Every PyTorch
model class then resolves to a dummy that fails later with "None of PyTorch, TensorFlow >= 2.0,
or Flax have been found", far from the cause. 4.51 and older have no such gate.""",
            package="transformers",
            dep="torch",
            source_key="torch_floor",
            window=("4.0", "5.0"),
            references=[
                *TRANSFORMERS_PR,
                "https://github.com/huggingface/transformers/blob/v4.52.0/src/transformers/utils/import_utils.py",
            ],
            fix_summary="upgrade torch to 2.1 or later, or keep transformers below 4.52 on torch 2.0",
            constraints=["torch>=2.1"],
            symptoms=[
                r"Disabling PyTorch because PyTorch >= 2\.1 is required but found",
                r"None of PyTorch, TensorFlow >= 2\.0, or Flax have been found",
            ],
        ),
        Family(
            rule_id="transformers-5-disables-old-torch",
            title="transformers 5 switches PyTorch off below its torch floor, which rises within 5.x",
            description="""
transformers/utils/import_utils.py treats a torch below the release's floor as absent and only
logs "Disabling PyTorch"; model classes then fail later with "None of PyTorch, TensorFlow >= 2.0,
or Flax have been found". The floor moves within 5.x; each release's floor was read from the
import_utils.py it ships.""",
            package="transformers",
            dep="torch",
            source_key="torch_floor",
            window=("5.0", "99"),
            open_end=True,
            references=[
                "https://github.com/huggingface/transformers/blob/v5.0.0/src/transformers/utils/import_utils.py",
                "https://github.com/huggingface/transformers/blob/v5.1.0/src/transformers/utils/import_utils.py",
                "https://github.com/huggingface/transformers/blob/v5.15.0/src/transformers/utils/import_utils.py",
                "https://github.com/huggingface/transformers/blob/v5.20.0/src/transformers/utils/import_utils.py",
            ],
            fix_summary="upgrade torch to the release's floor (2.6 for current transformers 5, and what .bin checkpoints need anyway), or stay on transformers 4.x",
            constraints=["torch>=2.6"],
            symptoms=[
                "Disabling PyTorch because PyTorch >= {floors} is required but found",
                r"None of PyTorch, TensorFlow >= 2\.0, or Flax have been found",
            ],
        ),
        Family(
            rule_id="transformers-trainer-needs-accelerate",
            title="the transformers Trainer refuses accelerate below the release's floor (0.26.0 in 4.x, 1.1.0 in 5.x)",
            description="""
TrainingArguments/Trainer check ACCELERATE_MIN_VERSION from transformers/utils/import_utils.py
when they set up devices. An image that pins an old accelerate fails at TrainingArguments,
before any model is loaded. TRL trainers go through the same check.""",
            package="transformers",
            dep="accelerate",
            source_key="accelerate_floor",
            open_end=True,
            references=[
                "https://github.com/huggingface/transformers/blob/v4.56.0/src/transformers/utils/import_utils.py",
                "https://github.com/huggingface/transformers/blob/v5.23.0/src/transformers/utils/import_utils.py",
            ],
            fix_summary="upgrade accelerate to 1.1.0 or later (0.26.0 is enough for transformers 4.x)",
            constraints=["accelerate>=1.1.0"],
            symptoms=[
                r"Using the `?Trainer`? with `?PyTorch`? requires `?accelerate>=\d+\.\d+\.\d+"
            ],
        ),
        Family(
            rule_id="transformers-5-peft-floor",
            title="transformers 5 refuses PEFT adapters from a PEFT below its floor, which rises within 5.x",
            description="""
transformers/integrations/peft.py checks MIN_PEFT_VERSION before load_adapter, add_adapter or
from_pretrained on an adapter repository (4.x asked only for 0.5.0). PEFT declares no upper
bound on transformers, so an upgraded transformers beside an older PEFT fails only when an
adapter is loaded. Some patch releases on older branches (5.10.4, 5.12.1) raised the floor too.
5.24.0 asks for PEFT 0.22.0, above every PEFT release when it shipped (0.21.2): while no release
meets a floor, every adapter call fails and the fix is to stay below that transformers.""",
            package="transformers",
            dep="peft",
            source_key="peft_floor",
            window=("5.0", "99"),
            open_end=True,
            usage={"peft": True},
            references=[
                "https://github.com/huggingface/transformers/blob/v5.0.0/src/transformers/integrations/peft.py",
                "https://github.com/huggingface/transformers/blob/v5.6.0/src/transformers/integrations/peft.py",
                "https://github.com/huggingface/transformers/blob/v5.13.0/src/transformers/integrations/peft.py",
                "https://github.com/huggingface/transformers/blob/v5.18.0/src/transformers/integrations/peft.py",
                "https://github.com/huggingface/transformers/blob/v5.24.0/src/transformers/integrations/peft.py",
                "https://pypi.org/simple/peft/",
            ],
            # 5.24.0 asks for PEFT 0.22.0, which no release meets yet: stay below it
            fix_summary="upgrade PEFT to the release's floor (0.20.0 for transformers 5.18-5.23)",
            fix_unmet_floor=True,
            symptoms=[
                r"The version of PEFT you are using is not compatible, please use a version >= \d+\.\d+\.\d+"
            ],
        ),
    ],
)


ACCELERATE = Output(
    "generated-accelerate.yaml",
    ("accelerate", "torch"),
    [
        Family(
            rule_id="accelerate-fsdp2-needs-torch-2.6",
            title="accelerate's FSDP2 refuses torch below its floor (2.5.1 in accelerate 1.6.0, 2.6.0 from 1.7.0)",
            description="""
accelerate added FSDP2 (fsdp_version: 2) in 1.6.0 and refuses it below FSDP2_PYTORCH_VERSION
(accelerate/utils/constants.py): 2.5.1 in 1.6.0, 2.6.0 from 1.7.0. accelerate 1.5 and older have
no fsdp_version at all, so this rule says nothing about them.""",
            package="accelerate",
            dep="torch",
            source_key="fsdp2_torch_floor",
            open_end=True,
            usage={"fsdp_version": 2},
            possible_usage={"distributed": "fsdp"},
            references=[
                "https://github.com/huggingface/accelerate/blob/v1.6.0/src/accelerate/utils/constants.py",
                "https://github.com/huggingface/accelerate/blob/v1.7.0/src/accelerate/utils/constants.py",
            ],
            fix_summary="install torch 2.6 or later (2.5.1 is enough for accelerate 1.6.0), or use FSDP1",
            constraints=["torch>=2.6"],
            change="fsdp_version 1 in the accelerate config",
            symptoms=[r"FSDP2 requires PyTorch >= 2\.\d+\.\d+"],
        ),
    ],
)


# The PyPI wheels pin the -cu12 libraries; torch's CUDA 11.8 variants pin -cu11 ones instead.
CUDA12 = {"torch_cuda": ">=12.0,<13"}


# What torch's own wheel pins beside it (Linux x86-64, CPython 3.11 markers).
PY311 = {"python_version": "3.11", "python_full_version": "3.11.9"}

TORCH_PINS = Output(
    "generated-torch-pins.yaml",
    ("torch-metadata", "triton", "nvidia-cudnn-cu12", "nvidia-nccl-cu12", "nvidia-nccl-cu13"),
    [
        Family(
            rule_id="torch-triton-series-mismatch",
            title="Triton is not the release series this torch was built and tested with",
            severity="warning",
            description="""
Every Linux torch wheel pins the Triton release its compiler stack (torch.compile / Inductor)
generates code for (Requires-Dist triton==X). Another package (vLLM, an unsloth or liger
install, a plain `pip install -U triton`) that moves Triton to another series leaves Inductor
importing Triton APIs that moved or were renamed: torch.compile, and libraries that compile Triton
kernels through it, fail at the first compiled call. Eager PyTorch is not affected. The rule
compares release series; patch releases of Triton within a series are not flagged.""",
            package="torch",
            dep="triton",
            metadata=True,
            env=PY311,
            by_series=True,
            references=[
                "https://pypi.org/project/torch/",
                "https://github.com/pytorch/pytorch/blob/main/RELEASE.md",
            ],
            fix_summary="install the Triton series this torch pins (reinstall torch, or pip install the triton it declares)",
            change='pip install "torch==X" --force-reinstall --no-deps, then pip install the triton it declares (pip check lists it)',
            # Inductor imports triton_key from where its own Triton series has it (pytorch#127271)
            symptoms=[r"cannot import name 'triton_key' from 'triton\.compiler\.compiler'"],
            prebuilt=["torch"],
        ),
        Family(
            rule_id="torch-cudnn-major-mismatch",
            title="the installed cuDNN wheel is another major release than the one this torch links",
            description="""
torch's Linux CUDA 12 wheels pin nvidia-cudnn-cu12 (8.9 for torch 2.1-2.3, 9.x from 2.4) and
load its libcudnn.so.<major>. A package that installs another cuDNN major into the same
environment (TensorFlow, JAX, onnxruntime-gpu pins of their own) replaces the library torch
expects: convolution and attention kernels then fail to load, or torch reports the cuDNN version
incompatibility at the first cuDNN call. Within one major, cuDNN keeps compatibility, so only the
major is compared.""",
            package="torch",
            dep="nvidia-cudnn-cu12",
            metadata=True,
            by_major=True,
            build=CUDA12,
            near_misses=[  # a CUDA 11.8 build loads cudnn-cu11: a cu12 wheel beside it is unused
                {"packages": {"torch": "2.4.0+cu118", "nvidia-cudnn-cu12": "8.9.7.29"}}
            ],
            references=[
                "https://pypi.org/project/torch/",
                "https://docs.nvidia.com/deeplearning/cudnn/backend/latest/reference/support-matrix.html",
            ],
            fix_summary="reinstall the cuDNN major this torch pins, and give the other framework its own environment",
            change='pip install "nvidia-cudnn-cu12==<the version torch declares>" (pip check names it)',
            symptoms=[
                "cuDNN version incompatibility: PyTorch was compiled against",
                r"libcudnn[\w.]*\.so\.\d+: cannot open shared object file",
            ],
            prebuilt=["torch"],
        ),
        Family(
            rule_id="torch-nccl-older-than-pinned",
            title="the installed NCCL wheel is older than the one this torch pins",
            severity="warning",
            evidence="reported",
            description="""
torch's Linux CUDA 12 wheels pin nvidia-nccl-cu12 exactly and call NCCL entry points of that
release. Another package's pin that moves NCCL backwards (older vLLM or DeepSpeed images,
a requirements file written for an older torch) leaves torch calling symbols the older libnccl
lacks, reported as undefined-symbol errors at import of torch.distributed or as missing features
(user-buffer registration, cuMem). A newer NCCL within the same major is expected to work and is
not flagged.""",
            package="torch",
            dep="nvidia-nccl-cu12",
            metadata=True,
            below_only=True,
            build=CUDA12,
            near_misses=[{"packages": {"torch": "2.6.0+cu118", "nvidia-nccl-cu12": "2.18.1"}}],
            references=[
                "https://pypi.org/project/torch/",
                "https://github.com/NVIDIA/nccl/releases",
            ],
            fix_summary="install at least the NCCL release this torch pins",
            change='pip install "nvidia-nccl-cu12>=<the version torch declares>"',
            symptoms=[r"libtorch[\w.]*\.so: undefined symbol: nccl\w+"],
            prebuilt=["torch"],
        ),
        Family(
            rule_id="torch-nccl-cu13-older-than-pinned",
            title="the installed CUDA 13 NCCL wheel is older than the one this torch pins",
            severity="warning",
            evidence="reported",
            description="""
From 2.11 torch's default Linux wheels are CUDA 13 builds and pin nvidia-nccl-cu13 exactly. As
with the CUDA 12 wheels (torch-nccl-older-than-pinned), an older NCCL moved in by another
package's pin leaves torch.distributed calling entry points the older libnccl lacks. A newer
NCCL is not flagged.""",
            package="torch",
            dep="nvidia-nccl-cu13",
            metadata=True,
            below_only=True,
            build={"torch_cuda": ">=13.0,<14"},
            references=[
                "https://pypi.org/project/torch/",
                "https://github.com/NVIDIA/nccl/releases",
            ],
            fix_summary="install at least the NCCL release this torch pins",
            change='pip install "nvidia-nccl-cu13>=<the version torch declares>"',
            symptoms=[r"libtorch[\w.]*\.so: undefined symbol: nccl\w+"],
            prebuilt=["torch"],
        ),
    ],
)


# Packages transformers checks at import (dependency_versions_check.py) against its table.
DEPENDENCY_CHECK = (
    "transformers checks this package at import (dependency_versions_check.py) against the "
    "range in its dependency table, the same range its metadata declares, and raises ImportError "
    "outside it, so nothing of transformers loads."
)
DEPENDENCY_CHECK_REFS = [
    "https://github.com/huggingface/transformers/blob/v4.56.0/src/transformers/dependency_versions_check.py",
    "https://github.com/huggingface/transformers/blob/v5.23.0/src/transformers/dependency_versions_check.py",
]
DEPENDENCY_SYMPTOM = (
    "{dep}[<>=!,.0-9]* is required for a normal functioning of this module, but found {dep}=="
)

TRANSFORMERS_DEPS = Output(
    "generated-transformers-deps.yaml",
    ("transformers-metadata", "tokenizers", "huggingface-hub", "safetensors"),
    [
        Family(
            rule_id="transformers-tokenizers-outside-declared-range",
            title="tokenizers outside the range this transformers release requires",
            description="Each transformers release accepts one tokenizers window (0.19 for 4.40-4.44, "
            "0.21 for 4.47-4.55, 0.22-0.23.0 from 4.56, 0.23.1+ from 5.16). "
            + DEPENDENCY_CHECK
            + " A tokenizers upgraded by another package (a newer vLLM, sentence-transformers) is the usual cause.",
            package="transformers",
            dep="tokenizers",
            metadata=True,
            references=DEPENDENCY_CHECK_REFS,
            fix_summary="install the tokenizers this transformers declares (pip install transformers==X re-resolves it)",
            change='pip install "transformers==<your version>" --force-reinstall (or pin tokenizers to its window)',
            symptoms=[DEPENDENCY_SYMPTOM.format(dep="tokenizers")],
        ),
        Family(
            rule_id="transformers-huggingface-hub-outside-declared-range",
            title="huggingface-hub outside the range this transformers release requires",
            description="transformers 4.x requires huggingface-hub below 1.0 and transformers 5 requires "
            "1.x (from 5.18 up to 3.0). "
            + DEPENDENCY_CHECK
            + " huggingface-hub 1.0 beside transformers 4.x (pulled "
            "in by datasets, gradio or a newer vLLM) is the common case.",
            package="transformers",
            dep="huggingface-hub",
            metadata=True,
            references=DEPENDENCY_CHECK_REFS,
            fix_summary="install the huggingface-hub this transformers declares (below 1.0 for transformers 4.x)",
            change='pip install "huggingface-hub<1.0" with transformers 4.x, or move to transformers 5',
            symptoms=[DEPENDENCY_SYMPTOM.format(dep="huggingface-hub")],
        ),
        Family(
            rule_id="transformers-safetensors-below-declared-floor",
            title="safetensors older than this transformers release requires",
            description="transformers raises its safetensors floor over time (0.4.3 from 4.50, 0.8.0 "
            "from 5.13). " + DEPENDENCY_CHECK,
            package="transformers",
            dep="safetensors",
            metadata=True,
            keep=(">=", ">"),
            open_end=True,
            references=DEPENDENCY_CHECK_REFS,
            fix_summary="upgrade safetensors to the floor this transformers declares",
            change='pip install -U "safetensors"',
            symptoms=[DEPENDENCY_SYMPTOM.format(dep="safetensors")],
        ),
    ],
)


OPENRLHF_REFS = [
    "https://pypi.org/project/openrlhf/",
    "https://github.com/OpenRLHF/OpenRLHF/blob/main/requirements.txt",
]

OPENRLHF = Output(
    "generated-openrlhf.yaml",
    ("openrlhf", "vllm", "deepspeed", "transformers", "flash-attn", "ray"),
    [
        Family(
            rule_id="openrlhf-vllm-older-than-pinned",
            title="OpenRLHF with a vLLM older than the one that release pins",
            severity="warning",
            description="""
Each OpenRLHF release pins the vLLM its Ray vLLM engines were written against (extra vllm:
vllm==X; extra vllm-latest: anything newer). An older vLLM lacks the engine, weight-update and
sleep-mode APIs that release calls, so generation or weight sync fails once the engines start.""",
            package="openrlhf",
            dep="vllm",
            extra="vllm",
            below_only=True,
            usage={"use_vllm": True},
            references=OPENRLHF_REFS,
            fix_summary="install OpenRLHF with its vllm extra (pip install openrlhf[vllm]==X), or a newer vLLM",
            change='pip install "openrlhf[vllm]==<your version>"',
        ),
        Family(
            rule_id="openrlhf-deepspeed-differs-from-pin",
            title="OpenRLHF with another DeepSpeed than the one that release pins",
            severity="info",
            description="""
OpenRLHF pins DeepSpeed exactly in every release, because its ZeRO-3 and offload paths have
broken with DeepSpeed regressions before (deepspeed-zero3-offload-clip-device-mismatch). Another
DeepSpeed is a deliberate override that release was not tested with; this is information, not a
failure.""",
            package="openrlhf",
            dep="deepspeed",
            references=OPENRLHF_REFS,
            fix_summary="install the DeepSpeed this OpenRLHF release pins, or record why the override is needed",
            change='pip install "openrlhf==<your version>" --force-reinstall',
        ),
        Family(
            rule_id="openrlhf-transformers-differs-from-pin",
            title="OpenRLHF with another transformers than the one that release pins",
            severity="info",
            description="""
OpenRLHF pins transformers exactly in nearly every release (0.9.4 alone declared a floor). Another
transformers is an override that release was not tested with; model loading and generation
code paths change between transformers minors. This is information, not a failure.""",
            package="openrlhf",
            dep="transformers",
            references=OPENRLHF_REFS,
            fix_summary="install the transformers this OpenRLHF release pins, or record why the override is needed",
            change='pip install "openrlhf==<your version>" --force-reinstall',
        ),
        Family(
            rule_id="openrlhf-flash-attn-differs-from-pin",
            title="OpenRLHF with another flash-attn than the one that release pins",
            severity="info",
            description="""
OpenRLHF pins flash-attn exactly (2.6.1 up to 0.5.2, 2.8.3 from 0.8.10) and uses its varlen and
packed-sequence kernels through its own wrappers. Another flash-attn is an override that release
was not tested with (and flash-attn itself must match the installed torch, see
flash-attn-built-for-another-torch). This is information, not a failure.""",
            package="openrlhf",
            dep="flash-attn",
            references=["https://pypi.org/project/openrlhf/"],
            fix_summary="install the flash-attn this OpenRLHF release pins, built for your torch",
            change="pip install flash-attn==<the pinned version> --no-build-isolation",
        ),
        Family(
            rule_id="openrlhf-ray-differs-from-pin",
            title="OpenRLHF with another Ray than the one that release pins",
            severity="info",
            description="""
OpenRLHF pins ray[default] exactly: its actors, placement groups and the vLLM engines it
schedules are written against that Ray. Another Ray is an override the release was not tested
with, and every node of the cluster must run the same Ray as the driver. This is information,
not a failure.""",
            package="openrlhf",
            dep="ray",
            references=[
                "https://pypi.org/project/openrlhf/",
                "https://docs.ray.io/en/latest/ray-overview/installation.html",
            ],
            fix_summary="install the Ray this OpenRLHF release pins, on the driver and every node",
            change='pip install "openrlhf==<your version>" --force-reinstall',
        ),
    ],
)


VLLM_PINS = Output(
    "generated-vllm-pins.yaml",
    ("vllm", "flashinfer-python", "xformers", "numba"),
    [
        Family(
            rule_id="vllm-flashinfer-differs-from-pin",
            title="vLLM with another flashinfer than the one that release pins",
            severity="warning",
            description="""
vLLM pins flashinfer-python exactly in its base requirements from 0.11.1 (0.10.1-0.11.0 pinned
it only in their `flashinfer` extra, which this rule does not read) and calls its attention and
sampling kernels through APIs that change between flashinfer releases; a flashinfer moved by
another install (sglang, a newer vLLM wheel left behind) breaks the FlashInfer backend and
FlashInfer sampling at engine start.""",
            package="vllm",
            dep="flashinfer-python",
            references=[
                "https://pypi.org/project/vllm/",
                "https://docs.vllm.ai/en/latest/getting_started/installation/gpu.html",
            ],
            fix_summary="install the flashinfer-python this vLLM pins",
            change='pip install "vllm==<your version>" --force-reinstall (pip check names the flashinfer it wants)',
            prebuilt=["vllm", "flashinfer-python"],
        ),
        Family(
            rule_id="vllm-xformers-differs-from-pin",
            title="vLLM with another xformers than the one that release pins",
            description="""
vLLM 0.4.0-0.11.2 pin xformers exactly (on Linux x86-64 from 0.5.5; 0.12 dropped xformers):
its XFormers attention backend calls that build, and each xformers build is itself pinned to one
torch (xformers-torch-pin-mismatch). An xformers changed by another install leaves the backend
with operators of another release. A vLLM or xformers built from source (a `+g<sha>` or
`.d<date>` label, a git install) is built against what is installed, not this pin, so neither
is judged here.""",
            package="vllm",
            dep="xformers",
            references=["https://pypi.org/project/vllm/"],
            fix_summary="install the xformers this vLLM pins (reinstalling vLLM restores it)",
            change='pip install "vllm==<your version>" --force-reinstall',
            # unsloth's Blackwell stack: both built from source against the installed torch
            near_misses=[
                {
                    "packages": {
                        "vllm": "0.9.2.dev280+g04e1642e3",
                        "xformers": "0.0.32+ff490c3.d20250626",
                    }
                }
            ],
            prebuilt=["vllm", "xformers"],
        ),
        Family(
            rule_id="vllm-numba-differs-from-pin",
            title="vLLM with another numba than the one that release pins",
            severity="warning",
            description="""
vLLM pins numba exactly for its n-gram speculative-decoding proposer: 0.60.0 in 0.7.3-0.8.2;
0.61.x in 0.8.3-0.19 (0.8.3-0.11.0 only on Python above 3.9, where 3.9 keeps 0.60.0); 0.65.0
from 0.20. A numba moved by another install may refuse the NumPy vLLM resolved (see the
numba-*-numpy-* rules) or lack what the proposer compiles; the feature then fails at engine
start.""",
            package="vllm",
            dep="numba",
            values=declared_by_python(lambda: releases("vllm"), "numba", LINUX, PYTHONS),
            references=[
                "https://pypi.org/project/vllm/",
                "https://github.com/vllm-project/vllm/pull/16376",
            ],
            fix_summary="install the numba this vLLM pins",
            change='pip install "vllm==<your version>" --force-reinstall',
            # vLLM's own Python 3.9 pin: the audit's false alarm
            near_misses=[{"packages": {"vllm": "0.9.2", "numba": "0.60.0"}, "python": "3.9"}],
            prebuilt=["vllm"],
        ),
    ],
)


TRL_REFS = ["https://pypi.org/project/trl/"]

TRL_FLOORS = Output(
    "generated-trl-floors.yaml",
    ("trl", "transformers", "accelerate", "datasets", "peft"),
    [
        Family(
            rule_id="trl-below-declared-transformers-floor",
            title="TRL with a transformers older than that release declares",
            description="""
Each TRL release declares a transformers floor and imports symbols added in it. A stack pinned
before the TRL upgrade (pip install --no-deps, a hand-edited lock, an image with older packages)
then fails at import or in the trainer. TRL 0.19 and 0.29+ have their own rules
(trl-0.19-below-transformers-4.51-or-accelerate-1.4, trl-0.29-plus-below-transformers-4.56.2).""",
            package="trl",
            dep="transformers",
            keep=(">=", ">"),
            exclude=(("0.19.0", "0.20.0"), ("0.29.0", "99")),
            references=TRL_REFS,
            fix_summary="upgrade transformers to the floor your TRL release declares",
            change='pip install "trl==<your version>" (without --no-deps) so pip raises transformers',
        ),
        Family(
            rule_id="trl-below-declared-accelerate-floor",
            title="TRL with an accelerate older than that release declares",
            description="""
TRL declares an accelerate floor (0.34 for 0.14-0.18, 1.4 from 0.19, 1.10.1 from 1.16) and its
trainers call accelerate APIs added there (FSDP2 and DeepSpeed plugin handling among them). An
older accelerate left in place fails when the trainer prepares the model. TRL 0.19 has its own
rule (trl-0.19-below-transformers-4.51-or-accelerate-1.4).""",
            package="trl",
            dep="accelerate",
            keep=(">=", ">"),
            exclude=(("0.19.0", "0.20.0"),),
            open_end=True,
            references=TRL_REFS,
            fix_summary="upgrade accelerate to the floor your TRL release declares",
            change='pip install "trl==<your version>" (without --no-deps) so pip raises accelerate',
        ),
        Family(
            rule_id="trl-below-declared-peft-floor",
            title="TRL training a PEFT adapter with a PEFT older than its peft extra declares",
            description="""
TRL's peft extra declares the PEFT its LoRA paths (get_peft_model, adapter merging for vLLM weight
sync, prepare_model_for_kbit_training) are written for. PEFT is optional, so pip never checks it
unless trl[peft] is installed; an older PEFT left in the image fails once a PEFT config is passed
to a trainer.""",
            package="trl",
            dep="peft",
            extra="peft",
            keep=(">=", ">"),
            open_end=True,
            usage={"peft": True},
            references=TRL_REFS,
            fix_summary="upgrade PEFT to the floor your TRL's peft extra declares",
            change='pip install "trl[peft]==<your version>"',
        ),
        Family(
            rule_id="trl-below-declared-datasets-floor",
            title="TRL with a datasets older than that release declares",
            description="""
TRL declares a datasets floor and its trainers' data preparation calls the Dataset APIs of that
release (map/with_transform signatures, IterableDataset features). An older datasets left by a
pinned image fails when the trainer tokenizes or packs the dataset.""",
            package="trl",
            dep="datasets",
            keep=(">=", ">"),
            open_end=True,
            references=TRL_REFS,
            fix_summary="upgrade datasets to the floor your TRL release declares",
            change='pip install "trl==<your version>" (without --no-deps) so pip raises datasets',
        ),
    ],
)


DATASETS_REFS = ["https://pypi.org/project/datasets/"]

DATASETS = Output(
    "generated-datasets.yaml",
    ("datasets-metadata", "fsspec", "huggingface-hub", "pyarrow"),
    [
        Family(
            rule_id="datasets-fsspec-outside-declared-range",
            title="fsspec outside the range this datasets release declares",
            severity="warning",
            description="""
datasets caps fsspec at the release it was tested with, because its caching and data-file
resolution call fsspec internals that change between releases (datasets #6352: a newer fsspec
made load_dataset fail with "Loading a dataset cached in a LocalFileSystem is not supported").
An fsspec moved by another package (s3fs, gcsfs, a newer torch or lightning) leaves datasets
outside that range.""",
            package="datasets",
            dep="fsspec",
            metadata=True,
            references=[*DATASETS_REFS, "https://github.com/huggingface/datasets/issues/6352"],
            fix_summary="install the fsspec this datasets declares, or a datasets release whose range includes yours",
            change='pip install "datasets==<your version>" --force-reinstall (pip check names the fsspec it wants)',
            symptoms=["Loading a dataset cached in a LocalFileSystem is not supported"],
        ),
        Family(
            rule_id="datasets-huggingface-hub-outside-declared-range",
            title="huggingface-hub outside the range this datasets release declares",
            severity="warning",
            description="""
datasets declares the huggingface-hub releases its Hub downloads and uploads are written for
(2.14 caps it below 1.0, 4.2 allows 1.x, 5.1 needs 1.31 or later). Outside that range Hub
calls meet APIs that were removed or not yet added. transformers 5 and recent vLLM need
huggingface-hub 1.x, so an old datasets beside them is the usual way in.""",
            package="datasets",
            dep="huggingface-hub",
            metadata=True,
            references=DATASETS_REFS,
            fix_summary="install the huggingface-hub this datasets declares, or upgrade datasets",
            change="pip install -U datasets",
        ),
        Family(
            rule_id="datasets-pyarrow-below-declared-floor",
            title="pyarrow older than this datasets release declares",
            description="""
datasets stores everything in Arrow tables and raises its pyarrow floor when it starts using newer
Arrow APIs (large_list, string views, ...). An older pyarrow kept by a pinned image fails at
import of datasets or when a dataset is loaded.""",
            package="datasets",
            dep="pyarrow",
            metadata=True,
            keep=(">=", ">"),
            open_end=True,
            references=DATASETS_REFS,
            fix_summary="upgrade pyarrow to the floor this datasets declares",
            change="pip install -U pyarrow",
        ),
    ],
)


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
# compat/data/native-libs.json and one rule (compat/matrix/abi.yaml,
# bitsandbytes-no-library-for-torch-cuda) reads it through the derived fact
# `bitsandbytes_cuda_library`.


ABI = Output(
    "generated-abi.yaml",
    ("torch", "bitsandbytes"),
    [
        BuiltFor(
            rule_id="flash-attn-built-for-another-torch",
            title="flash-attn wheel built for another torch series than the one installed",
            description="""
flash-attn's compiled extension (flash_attn_2_cuda) links against torch's C++ library, so it
only imports under the torch series it was built for. Its release wheels say which one in their
name (flash_attn-2.8.3+cu12torch2.8cxx11abiTRUE-...: CUDA 12, torch 2.8, C++11 ABI), and
setup.py downloads the one that matches the torch present at install time. Upgrading or
downgrading torch afterwards (pip install -U torch, a vLLM install that swaps it) leaves the old
extension behind: `import flash_attn` fails with an undefined C++ symbol. compat reads the series
from the installed version's local label or from the wheel name in direct_url.json; a flash-attn
built from source records nothing and is not judged.""",
            fact="flash_attn_torch",
            against="torch",
            package="flash-attn",
            label=_flash_attn,
            symptoms=[r"flash_attn_2_cuda[^\s]*\.so: undefined symbol"],
            references=[
                "https://github.com/Dao-AILab/flash-attention/issues/931",
                "https://github.com/Dao-AILab/flash-attention/issues/723",
                "https://github.com/Dao-AILab/flash-attention/issues/1832",
                "https://github.com/Dao-AILab/flash-attention/blob/v2.8.3/.github/workflows/publish.yml",
            ],
            fix_summary="reinstall flash-attn for the installed torch (the release wheel named for your torch series, or a build against it)",
            change="pip uninstall -y flash-attn && pip install flash-attn --no-build-isolation --no-cache-dir",
        ),
        BuiltFor(
            rule_id="deepspeed-prebuilt-ops-torch-mismatch",
            title="DeepSpeed ops were prebuilt for another torch series than the one installed",
            description="""
A DeepSpeed installed with prebuilt ops (DS_BUILD_OPS=1, or a wheel built that way) records the
torch it compiled them against in deepspeed/git_version_info_installed.py (torch_info). When an
op is loaded, op_builder/builder.py validate_torch_version compares that series with the running
torch and raises. A JIT-only install (no prebuilt op) compiles against the running torch and is
not judged.""",
            fact="deepspeed_ops_torch",
            against="torch",
            package="deepspeed",
            label=_deepspeed,
            symptoms=[
                r"PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version"
            ],
            references=[
                "https://github.com/deepspeedai/DeepSpeed/blob/v0.16.4/op_builder/builder.py",
                "https://github.com/deepspeedai/DeepSpeed/blob/v0.16.4/setup.py",
            ],
            fix_summary="rebuild DeepSpeed's ops against the installed torch, or install the torch series they were built for",
            change="DS_BUILD_OPS=1 pip install --force-reinstall --no-cache-dir --no-build-isolation deepspeed (or drop DS_BUILD_OPS for JIT builds)",
        ),
        BuiltFor(
            rule_id="deepspeed-prebuilt-ops-cuda-mismatch",
            title="DeepSpeed ops were prebuilt for another CUDA series than the installed torch's",
            description="""
Prebuilt DeepSpeed ops record the CUDA series of the torch they were compiled with
(torch_info cuda_version in deepspeed/git_version_info_installed.py); op_builder/builder.py
validate_torch_op_version compares it with torch.version.cuda when a CUDA op loads and raises on
a difference, e.g. ops built beside torch +cu121 after torch was replaced by a +cu124 build.""",
            fact="deepspeed_ops_cuda",
            against="torch_cuda",
            package="deepspeed",
            label=_deepspeed,
            symptoms=[
                r"CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version"
            ],
            references=[
                "https://github.com/deepspeedai/DeepSpeed/blob/v0.16.4/op_builder/builder.py",
                "https://github.com/deepspeedai/DeepSpeed/blob/v0.16.4/setup.py",
            ],
            fix_summary="rebuild DeepSpeed's ops against the installed torch build, or install the torch CUDA build they were compiled for",
            change="DS_BUILD_OPS=1 pip install --force-reinstall --no-cache-dir --no-build-isolation deepspeed",
        ),
    ],
    ["compat/data/torch-builds.json (scripts/gen_torch_builds.py)"],
)


OUTPUTS: dict[str, Output] = {
    out.name: out
    for out in [
        VLLM,
        TORCH_PAIRS,
        TRL_VLLM,
        NUMBA,
        TRANSFORMERS,
        ACCELERATE,
        ABI,
        TORCH_PINS,
        TRANSFORMERS_DEPS,
        OPENRLHF,
        DATASETS,
        VLLM_PINS,
        TRL_FLOORS,
    ]
}


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
        f"# Inputs fetched: {fetched}. tests/test_generated.py fails when this file differs.",
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
    args = parser.parse_args(argv)
    if args.inputs is not None:
        global INPUTS
        INPUTS = args.inputs
    if args.refresh is not None:
        refresh(args.refresh)
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
