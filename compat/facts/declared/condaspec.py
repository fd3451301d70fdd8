"""conda match specs (`pytorch=2.1.*=*cuda*`, `pytorch::pytorch>=2`, `numpy<2`, `pytorch 2.3.0
py3.10_cuda12.1_cudnn8.9.2_0`, `pytorch[version='>=2',build=*cuda*]`) and what they declare:

* a package fact, for conda packages whose PyPI project the sourced map names
  (compat.facts.condanames) — the version spec translated to PEP 440 (`=2.1` is `2.1.*`,
  `=2.1.0` and `==2.1` exact, `2.1.*`, `,` and, `|` or: an or-spec is kept as "any version");
* build facts: torch's CUDA build from a pytorch build string or `pytorch-cuda=X.Y`, CPU from
  `pytorch-cpu` or a `cpu` build; the CUDA runtime from `cuda-version`/`cudatoolkit`/`cuda-cudart`,
  cuDNN and NCCL from `cudnn`/`nccl`, each only where the spec pins one version.

Every other conda package (compilers, C libraries, python itself) is conda-only: no fact, so no
rule can fire on it. Shared by environment.yml and pixi readers.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.errors import InputError
from compat.facts import condanames
from compat.facts.declared.entries import (
    CondaFacts,
    Declared,
    FileResult,
    locked,
    parse_requirement,
)
from compat.model import Origin

_NAME = re.compile(r"^\s*([A-Za-z0-9_][A-Za-z0-9_.+-]*)")
_BRACKET = re.compile(r"\[(.*)\]\s*$")
_BRACKET_FIELD = re.compile(r"""(\w+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,\]]+))""")
_OPERATOR = re.compile(r"^(==|!=|>=|<=|~=|>|<|=)?\s*(.*)$")
MAX_SPEC = 1000  # characters in one match spec


@dataclass(frozen=True)
class MatchSpec:
    channel: str
    name: str  # as written (conda names are lower case)
    version: str  # conda version spec, "" = any
    build: str  # build string pattern, "" = any


def parse_spec(text: str, origin: Origin) -> MatchSpec:
    """One match spec; InputError naming the file and line when it is not one."""
    spec = text.strip()
    if len(spec) > MAX_SPEC:
        raise InputError(f"conda spec is {len(spec):,} characters long", origin=origin)
    channel = ""
    if "::" in spec:
        channel, _, spec = spec.rpartition("::")
    bracket = _BRACKET.search(spec)
    fields: dict[str, str] = {}
    if bracket is not None:
        for found in _BRACKET_FIELD.finditer(bracket.group(1)):
            fields[found.group(1)] = next(g for g in found.groups()[1:] if g is not None).strip()
        spec = spec[: bracket.start()]
    match = _NAME.match(spec)
    if match is None:
        raise InputError(f"not a conda package spec: {text.strip()!r}", origin=origin)
    name, rest = match.group(1), spec[match.end() :].strip()
    version, build = "", ""
    if rest.startswith("=") and not rest.startswith("=="):
        parts = rest[1:].split("=", 1)  # name=version=build
        version = "=" + parts[0].strip() if parts[0].strip() else ""
        build = parts[1].strip() if len(parts) > 1 else ""
    elif rest.startswith("==") and "=" in rest[2:]:  # name==version=build
        exact, _, build = rest[2:].partition("=")
        version, build = "==" + exact.strip(), build.strip()
    elif rest:
        words = rest.split()
        version, build = words[0], (words[1] if len(words) > 1 else "")
        if len(words) > 1 and words[1][0] in "<>=!~,|":  # `numpy >=1.2, <2`: one version spec
            version, build = "".join(words), ""
    version = fields.get("version", version)
    build = fields.get("build", build)
    return MatchSpec(channel, name.lower(), version.strip(), build.strip())


def pep440(version: str) -> str | None:
    """A conda version spec as a PEP 440 specifier string ("" = any); None when it cannot be
    expressed (an or-spec, a version PEP 440 cannot parse)."""
    if version in ("", "*"):
        return ""
    if "|" in version:
        return None
    out = []
    for part in version.split(","):
        match = _OPERATOR.match(part.strip())
        assert match is not None
        operator, value = match.group(1) or "", match.group(2).strip()
        if not value:
            return None
        fuzzy = value.endswith("*")
        value = value.rstrip("*").rstrip(".")
        if not value:
            continue  # `*`
        if operator == "=" and not fuzzy and value.count(".") >= 2:
            # `=1.26.4` is fuzzy in conda (1.26.4.*), but a three-part release has no further
            # releases in practice: judged as the pin it is meant to be
            out.append(f"=={value}")
        elif operator in ("", "=", "==") and (fuzzy or operator == "="):
            out.append(f"=={value}.*")  # `=2.1` and `2.1.*` mean every 2.1 release
        elif operator in ("", "=="):
            out.append(f"=={value}")  # a bare version in `name 2.1` is exact, as conda reads it
        else:
            out.append(f"{operator}{value}")
    text = ",".join(out)
    try:
        SpecifierSet(text)
    except InvalidSpecifier:
        return None
    return text


def exact_version(version: str) -> Version | None:
    """The one version a spec pins (`=12.1`, `==12.1`, `12.1`, `12.1.*`), else None."""
    if not version or any(c in version for c in ",|<>!~"):
        return None
    return condanames.version_of(version.lstrip("=").rstrip("*").rstrip("."))


def declare(
    spec: MatchSpec, origin: Origin, facts: CondaFacts, kind: str = "requirement", group: str = ""
) -> Declared | None:
    """The package fact a spec declares (or None: conda-only, or a build-only package), with its
    build facts recorded in `facts`."""
    name = spec.name
    where = f"`{_text(spec)}` ({origin})"
    if name == condanames.PYTORCH_CUDA_PACKAGE:
        cuda = exact_version(spec.version)
        if cuda is not None:
            value = condanames.major_minor(str(cuda))
            if value is not None:
                facts.builds["torch_cuda"] = (value, where)
                facts.torch, facts.torch_why = "cuda", where
        return None
    fact = condanames.cuda_fact(name) or (
        "cuda_runtime" if name == condanames.CUDA_VERSION_PACKAGE else None
    )
    if fact is not None:
        pinned = exact_version(spec.version)
        if pinned is not None:
            facts.builds.setdefault(fact, (pinned, where))
            if name == condanames.CUDATOOLKIT_PACKAGE:
                facts.cudatoolkit = (pinned, where)
        return None
    if name == condanames.CPUONLY_PACKAGE:
        facts.torch, facts.torch_why = "cpu", where
        return None
    pypi = condanames.pypi_name(name)
    if name == condanames.PYTORCH_GPU_PACKAGE:
        pypi = "torch"  # conda-forge's metapackage for pytorch's CUDA build (pytorch-cpu-feedstock)
    if pypi is None:
        return None
    requirement = canonicalize_name(pypi)
    if requirement == "torch":
        _torch_build(spec, where, facts)
        facts.torch_channel = (
            condanames.CONDA_FORGE
            if condanames.is_conda_forge_torch_build(spec.build)
            else condanames.torch_channel(spec.channel, facts.channels)
        )
    specifier = pep440(spec.version)
    text = f"{requirement}{specifier or ''}"
    declared = parse_requirement(text, origin, kind, group)
    facts.names[declared.name] = origin
    return declared


def _torch_build(spec: MatchSpec, where: str, facts: CondaFacts) -> None:
    if spec.name == condanames.PYTORCH_CPU_PACKAGE:
        facts.torch, facts.torch_why = "cpu", where
        return
    if spec.name == condanames.PYTORCH_GPU_PACKAGE and not facts.torch:
        facts.torch, facts.torch_why = "cuda", where
    pattern = spec.build.strip("*")
    if not pattern:
        return
    known, cuda = condanames.torch_build(pattern)
    if known and cuda is not None:
        facts.builds["torch_cuda"] = (cuda, where)
        facts.torch, facts.torch_why = "cuda", where
    elif known:
        facts.torch, facts.torch_why = "cpu", where
    elif "cuda" in pattern:
        facts.torch, facts.torch_why = "cuda", where


def _text(spec: MatchSpec) -> str:
    out = f"{spec.channel}::" if spec.channel else ""
    out += spec.name
    if spec.version:
        out += spec.version if spec.version[0] in "=<>!~" else f" {spec.version}"
    if spec.build:
        out += f" {spec.build}"
    return out


def check_builds(
    facts: CondaFacts | None, torch_declared: bool
) -> tuple[dict[str, Version], tuple[Version | None, str] | None]:
    """For `compat check`: the CUDA builds conda declared (runtime, cuDNN, NCCL) and, when torch
    is conda's, its CUDA build and where it came from — (None, "") for a CPU build, (None,
    UNSETTLED) when nothing says which build conda installs. None: torch is not conda's (its
    build is judged as a PyPI torch's)."""
    if facts is None:
        return {}, None
    builds = {k: v for k, (v, _) in facts.builds.items() if k != "torch_cuda"}
    if not torch_declared or "torch" not in facts.names:
        return builds, None
    if "torch_cuda" in facts.builds:
        value, why = facts.builds["torch_cuda"]
        return builds, (value, f"conda {why}")
    if facts.torch == "cpu":
        return builds, (None, "")
    if facts.cudatoolkit is not None:  # before pytorch-cuda, cudatoolkit=X.Y chose the build
        value, why = facts.cudatoolkit
        cuda = condanames.major_minor(str(value))
        if cuda is not None:
            return builds, (cuda, f"conda {why} (the cudatoolkit pytorch's CUDA build needs)")
    return builds, (None, UNSETTLED)


def build_channels(facts: CondaFacts | None, conda_torch: object) -> dict[str, str]:
    """For `compat check`: {"torch": "conda-forge"} where conda installs torch from conda-forge
    (judged by conda-forge's own arch lists, compat.kb.archtable.forge_arch_lists)."""
    if facts is None or conda_torch is None or facts.torch_channel != condanames.CONDA_FORGE:
        return {}
    return {"torch": condanames.CONDA_FORGE}


UNSETTLED = "conda-unsettled"
UNSETTLED_NEEDS = (
    "which CUDA build of conda's pytorch is installed: pin it (`pytorch-cuda=12.1`, "
    "`pytorch=2.5.1=*cuda126*`), or check the lock (pixi.lock)"
)


def driver_note(facts: CondaFacts | None, driver_cuda: Version | None) -> str | None:
    """pixi refuses to install an environment whose `__cuda` requirement the machine's driver
    does not meet ("The current system has a mismatching virtual package")."""
    if facts is None or facts.system_cuda is None or driver_cuda is None:
        return None
    required, where = facts.system_cuda
    if driver_cuda >= required:
        return None
    return (
        f"{where}: the target driver supports CUDA {driver_cuda} only, so pixi refuses to install "
        f"this environment there (its `__cuda` is below {required})"
    )


def file_name_fields(url: str) -> dict[str, str]:
    """name, version and build of a conda package from its file name (NAME-VERSION-BUILD.conda)."""
    base = os.path.basename(url.split("#")[0])
    for suffix in (".conda", ".tar.bz2"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    parts = base.rsplit("-", 2)
    if len(parts) != 3:
        return {}
    return {"name": parts[0], "version": parts[1], "build": parts[2]}


def locked_conda(
    record: dict[str, Any],
    origin: Origin,
    facts: CondaFacts,
    result: FileResult,
    pypi_names: set[str],
    what: str,
) -> None:
    """One conda package of a lock file (pixi.lock, conda-lock.yml): a locked package fact where
    it is a PyPI project, its build facts (torch's CUDA build from the build string), python as
    the target Python. A name also locked from PyPI is judged as the PyPI one."""
    name, version, build = (str(record.get(k, "")) for k in ("name", "version", "build"))
    if not name or not version:
        raise InputError(f"{what}: a conda package has no name or version", origin=origin)
    if name == "python":  # the environment's interpreter: the target Python
        if condanames.version_of(version) is not None:
            result.python.append((f"=={version}", origin))
        return
    spec = MatchSpec("", name.lower(), f"=={version}", build)
    pypi = condanames.pypi_name(name) or (
        "torch" if name == condanames.PYTORCH_GPU_PACKAGE else None
    )
    if pypi is not None and pypi in pypi_names:
        result.notes.append(
            f"{origin}: {pypi} is locked both as the conda package {name} and from PyPI; "
            "the PyPI one is judged"
        )
        return
    if pypi is not None and condanames.version_of(version) is None:
        result.notes.append(f"{origin}: {name} {version} is not a PEP 440 version: not checked")
        return
    declared = declare(spec, origin, facts, kind="lock")
    if declared is not None and name != condanames.PYTORCH_GPU_PACKAGE:
        result.requirements.append(locked(declared.name, version, origin, "lock"))
