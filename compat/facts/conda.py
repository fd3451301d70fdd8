"""conda environments: the records in `PREFIX/conda-meta/*.json` (conda, mamba and pixi keep one
per package they linked into the prefix), merged into what the dist-info scan found.

* Which records are read: each file is named `{name}-{version}-{build}.json`, so the name is
  known without opening it. Only records that can matter are parsed: a conda package whose PyPI
  project the sourced map names (compat.facts.condanames), one whose name is that of an
  installed distribution (its `files` list then proves or disproves the link), and the CUDA
  packages (cuda-cudart, cudatoolkit, cuda-version, cudnn, nccl, pytorch-cuda). Everything else
  is conda-only (compilers, libraries, python itself) and never becomes a package fact.
* A conda package is the installed distribution when its record's `files` list holds that
  dist-info directory; with no `files` list (a minimal record), when the dist-info's INSTALLER
  says conda. A dist-info that the conda record does not own is pip's (or uv's): the package is
  managed by both, a `conda-pip` problem — a conda update, or a pip uninstall, leaves it broken.
* A conda package whose PyPI project has no dist-info in the scanned directories becomes the
  package fact itself (its origin is the record file).
* Build facts: torch's CUDA build from the conda pytorch build string (or pytorch-cuda), and the
  CUDA runtime, cuDNN and NCCL of the environment — used only when torch is conda's, or no pip
  torch is installed (a pip torch loads its own nvidia-* wheels, not conda's libraries).
* A record that cannot be read is a `broken-metadata` problem naming the file, like a broken
  dist-info: one bad file does not hide the rest of the environment.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from packaging.version import Version

from compat.errors import InputError, UsageError
from compat.facts import condanames
from compat.model import Environment, EnvironmentProblem, Origin, Package
from compat.names import canonicalize_name

CONDA_META = "conda-meta"
MAX_RECORDS = 50_000  # records in one conda-meta directory; more is not an environment
MAX_FILES_SCANNED = 200_000  # `files` entries looked at per record for its dist-info
RECORD_FILE = re.compile(r"^(?P<name>.+)-(?P<version>[^-]+)-(?P<build>[^-]+)\.json$")
# `lib/python3.11/site-packages/torch-2.1.0.dist-info/METADATA`; Windows' `Lib\site-packages\...`
_DIST_INFO = re.compile(r"(?:^|[/\\])site-packages[/\\]([^/\\]+\.(?:dist|egg)-info)(?:[/\\]|$)")


@dataclass(frozen=True)
class CondaRecord:
    name: str
    version: str
    build: str
    path: str  # the record file
    dist_infos: frozenset[str]  # dist-info/egg-info directory names its `files` list holds
    files_known: bool  # False: the record has no `files` list to judge ownership by


def prefix_of(directory: Path) -> Path | None:
    """The conda prefix a site-packages directory belongs to (PREFIX/lib/pythonX.Y/site-packages
    or, on Windows, PREFIX/Lib/site-packages), when that prefix has a conda-meta directory."""
    resolved = directory.resolve()
    candidates = []
    if resolved.name == "site-packages":
        if resolved.parent.name.lower() == "lib":
            candidates.append(resolved.parent.parent)
        elif resolved.parent.parent.name.lower() == "lib":
            candidates.append(resolved.parent.parent.parent)
    for candidate in candidates:
        if (candidate / CONDA_META).is_dir():
            return candidate
    return None


def site_packages(prefix: Path) -> list[Path]:
    """The site-packages directories of a conda prefix (one per Python it ever held)."""
    found = sorted(prefix.glob("lib/python*/site-packages"))
    windows = prefix / "Lib" / "site-packages"
    if windows.is_dir():
        found.append(windows)
    return [p for p in found if p.is_dir()]


def check_prefix(prefix: Path) -> None:
    if not prefix.is_dir():
        raise UsageError(f"--conda-prefix {prefix}: no such directory")
    if not (prefix / CONDA_META).is_dir():
        raise UsageError(
            f"--conda-prefix {prefix}: no conda-meta directory (not a conda environment)"
        )


def merge(env: Environment, prefix: Path) -> Environment:
    """`env` (the dist-info scan) with the conda records of `prefix` added."""
    meta = prefix / CONDA_META
    try:
        names = sorted(os.listdir(meta))
    except OSError:
        return env
    records: list[CondaRecord] = []
    problems: list[EnvironmentProblem] = []
    python_version: Version | None = None
    listed = 0
    for file_name in names:
        if not file_name.endswith(".json"):
            continue  # `history`, conda's own log
        listed += 1
        if listed > MAX_RECORDS:
            problems.append(
                EnvironmentProblem(
                    "broken-metadata",
                    f"{meta}: more than {MAX_RECORDS:,} records; the rest were not read",
                    Origin(str(meta)),
                )
            )
            break
        match = RECORD_FILE.match(file_name)
        path = meta / file_name
        if match is None:
            problems.append(
                EnvironmentProblem(
                    "broken-metadata",
                    f"{file_name}: not a conda record name (NAME-VERSION-BUILD.json)",
                    Origin(str(path)),
                )
            )
            continue
        name = match.group("name")
        if name == "python":
            python_version = condanames.version_of(match.group("version"))
        if not _wanted(name, env):
            continue
        record, problem = read_record(path)
        if problem is not None:
            problems.append(problem)
        elif record is not None:
            records.append(record)
    packages, builds, found, replaced = _link(env, records, problems)
    source = f"{env.source} + conda prefix {prefix} ({listed} conda records)"
    # A name conda and pip both installed is one conda-pip problem, not also "installed twice".
    scanned = [p for p in env.problems if not (p.kind == "duplicate" and p.name in replaced)]
    # conda-forge's pytorch carries its own recipe's arch list, not the PyPI wheel's
    forge = "torch_cuda" in builds and any(
        condanames.pypi_name(r.name) == "torch" and condanames.is_conda_forge_torch_build(r.build)
        for r in records
    )
    return replace(
        env,
        source=source,
        packages=packages,
        problems=(*scanned, *found, *problems),
        python_version=_python(env.python_version, python_version),
        builds={**env.builds, **builds},
        build_channels={
            **env.build_channels,
            **({"torch": condanames.CONDA_FORGE} if forge else {}),
        },
    )


def _python(scanned: Version | None, recorded: Version | None) -> Version | None:
    """The conda `python` record's full version where the scan only told `3.13` (a path)."""
    if recorded is None or (scanned is not None and scanned.release[:2] != recorded.release[:2]):
        return scanned
    return recorded if scanned is None or len(scanned.release) < 3 else scanned


def _wanted(name: str, env: Environment) -> bool:
    return (
        condanames.pypi_name(name) is not None
        or condanames.is_cuda_package(name)
        or canonicalize_name(name) in env.packages
    )


def read_record(path: Path) -> tuple[CondaRecord | None, EnvironmentProblem | None]:
    """One record, or the problem that stops it from being read (bounded, like every input)."""
    from compat.files.readers import decode, parse_json, read_bytes

    origin = Origin(str(path))
    try:
        data: Any = parse_json(decode(read_bytes(path, "metadata"), path), path)
    except InputError as error:
        where = f":{error.origin.line}" if error.origin and error.origin.line else ""
        return None, EnvironmentProblem(
            "broken-metadata", f"conda record {path.name}{where}: {error.message}", origin
        )
    fields = {
        k: data.get(k) if isinstance(data, dict) else None for k in ("name", "version", "build")
    }
    missing = [k for k, v in fields.items() if not isinstance(v, str) or not v]
    if missing:
        return None, EnvironmentProblem(
            "broken-metadata",
            f"conda record {path.name}: no {', '.join(missing)} (not a conda package record)",
            origin,
        )
    files = data.get("files")
    dist_infos: set[str] = set()
    if isinstance(files, list):
        for entry in files[:MAX_FILES_SCANNED]:
            if isinstance(entry, str) and "-info" in entry:
                found = _DIST_INFO.search(entry)
                if found:
                    dist_infos.add(found.group(1))
    return (
        CondaRecord(
            name=str(fields["name"]),
            version=str(fields["version"]),
            build=str(fields["build"]),
            path=str(path),
            dist_infos=frozenset(dist_infos),
            files_known=isinstance(files, list) and bool(files),
        ),
        None,
    )


def _pypi_of(record: CondaRecord) -> str | None:
    """The PyPI project a record installed: the dist-info its files hold, else the sourced map."""
    for dist_info in sorted(record.dist_infos):
        return str(canonicalize_name(dist_info.rsplit(".", 1)[0].split("-")[0]))
    return condanames.pypi_name(record.name)


def _installer(package: Package) -> str:
    if package.origin is None:
        return ""
    try:
        with open(os.path.join(package.origin.path, "INSTALLER"), encoding="utf-8") as handle:
            return handle.read(64).strip().lower()
    except (OSError, UnicodeDecodeError):
        return ""


def _owner(group: Sequence[CondaRecord], package: Package) -> tuple[bool | None, CondaRecord]:
    """Is the installed distribution conda's, and which record says so? Every record of the
    PyPI name counts (conda-forge splits `pyarrow` into a metapackage and `pyarrow-core`;
    `pytorch-cpu`/`pytorch-gpu` are metapackages beside `pytorch`): one whose files hold this
    dist-info owns it; one whose files hold another dist-info of the name shows pip replaced
    conda's. Only when no record lists a dist-info of the name does INSTALLER decide."""
    base = os.path.basename(package.origin.path) if package.origin is not None else ""
    listing = [r for r in group if r.dist_infos]
    for record in listing:
        if base in record.dist_infos:
            return True, record
    if listing:
        return False, listing[0]
    installer = _installer(package)
    if installer == "conda":
        return True, group[0]
    return (False if installer and not any(r.files_known for r in group) else None), group[0]


def _link(
    env: Environment, records: Sequence[CondaRecord], problems: list[EnvironmentProblem]
) -> tuple[dict[Any, Package], dict[str, Version], list[EnvironmentProblem], set[Any]]:
    packages = dict(env.packages)
    found: list[EnvironmentProblem] = []
    replaced: set[Any] = set()  # names whose `duplicate` problem a conda-pip one replaces
    conda_torch: CondaRecord | None = None
    pip_torch = False
    by_name: dict[Any, list[CondaRecord]] = {}
    for record in records:
        if condanames.is_cuda_package(record.name) and condanames.pypi_name(record.name) is None:
            continue
        pypi = _pypi_of(record)
        if pypi is not None:
            by_name.setdefault(canonicalize_name(pypi), []).append(record)
    for name, group in by_name.items():
        installed = packages.get(name)
        if installed is None:
            record = next((r for r in group if r.dist_infos), group[0])
            version = condanames.version_of(record.version)
            if version is None:
                problems.append(
                    EnvironmentProblem(
                        "invalid-version",
                        f"{name}: conda record {os.path.basename(record.path)} has version "
                        f"{record.version!r}, not PEP 440; rules cannot be checked for it",
                        Origin(record.path),
                        name,
                    )
                )
                continue
            packages[name] = Package(name, version, str(name), Origin(record.path))
            if name == "torch":
                conda_torch = record
            continue
        both = _both_installed(group, installed, env.problems)
        if both is not None:
            conda_dir, record, pip_package = both
            replaced.add(name)
            imported = _imported(installed, conda_dir, pip_package)
            packages[name] = imported
            found.append(_both_problem(imported, conda_dir, record, pip_package))
            if imported is pip_package and name == "torch":
                pip_torch = True
            elif name == "torch":
                conda_torch = record
            continue
        owned, record = _owner(group, installed)
        if owned is False:
            found.append(
                EnvironmentProblem(
                    "conda-pip",
                    f"{installed.label} is installed by both conda and pip: conda's "
                    f"{record.name} {record.version} ({record.build}, {record.path}) and "
                    f"{installed.version} from {_installer(installed) or 'pip'} "
                    f"({installed.origin}), which is the one imported; conda still records its "
                    f"package, so the next conda update or a pip uninstall breaks it — install "
                    f"{installed.label} with one of them only",
                    installed.origin,
                    name,
                )
            )
            if name == "torch":
                pip_torch = True
        elif owned and name == "torch":
            conda_torch = record
    torch = packages.get(canonicalize_name("torch"))
    if torch is not None and conda_torch is None and _installer(torch) != "conda":
        pip_torch = True  # a torch no conda record owns: pip's, with its own nvidia-* wheels
    return packages, _builds(records, conda_torch, pip_torch), found, replaced


def _both_installed(
    group: Sequence[CondaRecord], installed: Package, problems: Sequence[EnvironmentProblem]
) -> tuple[str, CondaRecord, Package] | None:
    """conda's metadata directory and pip's side by side in one site-packages (pip installed
    over conda's package without removing it: conda's pytorch leaves `torch-1.11.0-py3.9.egg-info`,
    pip writes `torch-2.1.0.dist-info`, and the scan reports a name installed twice). Returns
    (conda's directory, its record, pip's package), or None when that is not the case."""
    from compat.facts.installed import read_distribution

    if installed.origin is None:
        return None
    others = [
        p.origin.path
        for p in problems
        if p.kind == "duplicate" and p.name == installed.name and p.origin is not None
    ]
    if not others:
        return None
    listing = [r for r in group if r.dist_infos]
    conda_dirs: list[tuple[str, CondaRecord]] = []
    foreign: list[str] = []
    for directory in (installed.origin.path, *others):
        owner = next((r for r in listing if os.path.basename(directory) in r.dist_infos), None)
        if owner is not None:
            conda_dirs.append((directory, owner))
        else:
            foreign.append(directory)
    if not conda_dirs or not foreign:
        return None
    pip_dir = foreign[0]
    if pip_dir == installed.origin.path:
        pip_package: Package | None = installed
    else:
        metadata = "METADATA" if pip_dir.endswith(".dist-info") else "PKG-INFO"
        if pip_dir.endswith(".egg-info") and not os.path.isdir(pip_dir):
            metadata = ""
        pip_package, _ = read_distribution(pip_dir, metadata)
    if pip_package is None:
        return None
    return conda_dirs[0][0], conda_dirs[0][1], pip_package


def _same_directory(conda_dir: str, pip_package: Package) -> bool:
    pip_dir = pip_package.origin.path if pip_package.origin is not None else ""
    return os.path.dirname(conda_dir) == os.path.dirname(pip_dir)


def _imported(first: Package, conda_dir: str, pip_package: Package) -> Package:
    """In one site-packages pip wrote its files over conda's: pip's is imported. In two
    directories, the first on the path is (the scan's first)."""
    return pip_package if _same_directory(conda_dir, pip_package) else first


def _both_problem(
    imported: Package, conda_dir: str, record: CondaRecord, pip_package: Package
) -> EnvironmentProblem:
    label = pip_package.label
    installer = _installer(pip_package) or "pip"
    where = (
        f"in the same site-packages: pip wrote its files over conda's, so {pip_package.version} "
        "is the one imported"
        if _same_directory(conda_dir, pip_package)
        else f"{imported.version} is the one imported (first on the path)"
    )
    return EnvironmentProblem(
        "conda-pip",
        f"{label} is installed by both conda and pip: conda's {record.name} {record.version} "
        f"({record.build}, {record.path}; its metadata {os.path.basename(conda_dir)}) and "
        f"{pip_package.version} from {installer} ({pip_package.origin}); {where}, and conda "
        f"still records its package: the next conda update or a pip uninstall breaks it — "
        f"install {label} with one of them only",
        pip_package.origin,
        imported.name,
    )


def _builds(
    records: Sequence[CondaRecord], conda_torch: CondaRecord | None, pip_torch: bool
) -> dict[str, Version]:
    builds: dict[str, Version] = {}
    if pip_torch and conda_torch is None:
        return builds  # pip's torch loads its own CUDA wheels: conda's libraries say nothing
    by_name = {r.name.lower(): r for r in records}
    for record in records:
        fact = condanames.cuda_fact(record.name)
        version = condanames.version_of(record.version)
        # cuda-cudart is the runtime itself; cudatoolkit counts only where it is absent
        runtime_ok = (
            fact != "cuda_runtime" or record.name == "cuda-cudart" or "cuda-cudart" not in by_name
        )
        if fact is not None and version is not None and runtime_ok:
            builds[fact] = version
    cuda_version = by_name.get(condanames.CUDA_VERSION_PACKAGE)
    if "cuda_runtime" not in builds and cuda_version is not None:
        runtime = condanames.major_minor(cuda_version.version)
        if runtime is not None:
            builds["cuda_runtime"] = runtime
    if conda_torch is not None:
        known, cuda = condanames.torch_build(conda_torch.build)
        pinned = by_name.get(condanames.PYTORCH_CUDA_PACKAGE)
        if not known and pinned is not None:
            known, cuda = True, condanames.major_minor(pinned.version)
        if known and cuda is not None:
            builds["torch_cuda"] = cuda
    return builds
