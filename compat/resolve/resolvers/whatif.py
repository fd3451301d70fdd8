"""What an install would do, asked of the target environment's own resolver, never performed.

`compat doctor --install SPEC` judges the environment an install would leave. The answer comes
from the resolver that would do the install, run against the environment as it is (what is
installed counts, as it does for a real `pip install`):

* pip: `PYTHON -m pip install --dry-run --report - --quiet SPEC...` when the target has pip;
  else this interpreter's pip with `--python PYTHON` (pip 22.3+); the report lists every release
  pip would install with its full metadata (name, version, Requires-Dist);
* uv, where neither pip can run: `uv pip install --dry-run --python PYTHON SPEC...`, whose
  `+`/`-` lines name what it would install and remove; the metadata of each release it would
  install is read from the index it used (PEP 658 or the wheel, compat.resolve.sources.index).

The resolver reads its own configuration (pip.conf, PIP_INDEX_URL, uv.toml, UV_INDEX_URL), as
the install would. `overlay` then builds the environment the install would leave: the installed
distributions with the planned releases in place of those they replace.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.errors import IndexAccessError, UncheckedError, UsageError, short_line
from compat.model import Environment, Package

_TIMEOUT = 600.0
_UV_LINE = re.compile(r"^\s*([+-])\s+([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")
_OPTION_SPEC = re.compile(r"^-")


@dataclass(frozen=True)
class Release:
    """One release the install would put in place."""

    name: NormalizedName
    version: Version
    display_name: str
    requires: tuple[str, ...]
    requested: bool = False


@dataclass(frozen=True)
class InstallPlan:
    """What the resolver says the install would do."""

    requested: tuple[str, ...]  # the specs and `-r FILE`s, as given
    install: tuple[Release, ...]
    remove: tuple[NormalizedName, ...]  # removed without a replacement (uv says so; pip never)
    tool: str  # "pip 25.1 (/venv/bin/python -m pip)"
    python: str


@dataclass(frozen=True)
class Change:
    """One distribution the install replaces, adds or removes."""

    name: NormalizedName
    display_name: str
    kind: str  # "replaced", "added", "removed"
    before: Version | None
    after: Version | None
    cuda_before: Version | None = None
    cuda_after: Version | None = None


def parse_specs(specs: Sequence[str], files: Sequence[Path]) -> tuple[str, ...]:
    """The requested specs, checked here so a typo is one line, not a resolver's traceback."""
    if not specs and not files:
        raise UsageError("--install: give a requirement (--install 'vllm==0.10.1') or -r FILE")
    for spec in specs:
        if not spec.strip() or _OPTION_SPEC.match(spec.strip()):
            raise UsageError(f"--install {spec!r}: not a requirement (use -r FILE for a file)")
        if is_location(spec):
            continue  # a wheel, a project directory or a URL: pip reads it
        try:
            Requirement(spec)
        except InvalidRequirement as error:
            reason = str(error).splitlines()[0]
            raise UsageError(f"--install {spec!r}: cannot parse it: {reason}") from None
    for path in files:
        if not path.is_file():
            raise UsageError(f"--install -r {path}: no such file")
    return (*specs, *(f"-r {path}" for path in files))


_URL = re.compile(r"^(?:[a-z][a-z0-9+.-]*\+)?(?:https?|file|ssh)://", re.IGNORECASE)


def is_location(spec: str) -> bool:
    """A spec pip reads as a place, not a requirement: a URL, a wheel/sdist file, a directory."""
    text = spec.strip()
    return bool(_URL.match(text)) or (
        ("/" in text or text.endswith((".whl", ".tar.gz", ".zip"))) and os.path.exists(text)
    )


def target_python(python: Path | None, conda_prefix: Path | None, paths: Sequence[Path]) -> str:
    """The interpreter whose resolver is asked: --python, the conda prefix's, or this one."""
    if paths and conda_prefix is None:
        raise UsageError(
            "--install with --path: compat cannot ask that environment's resolver (a directory "
            "has no interpreter to resolve for); give --python PYTHON or --conda-prefix PREFIX"
        )
    if python is not None:
        return str(python)
    if conda_prefix is not None:
        for candidate in (conda_prefix / "bin" / "python", conda_prefix / "python.exe"):
            if candidate.is_file():
                return str(candidate)
        raise UsageError(
            f"--install with --conda-prefix {conda_prefix}: it holds no Python to resolve for"
        )
    return sys.executable


def dry_run(
    python: str,
    specs: Sequence[str],
    files: Sequence[Path],
    *,
    tool: str = "auto",
    prefix: str | None = None,
    timeout: float = _TIMEOUT,
) -> InstallPlan:
    """Ask the target's resolver what installing `specs` and `files` would do. `tool`: auto
    (the target's pip, else this pip with --python, else uv), pip or uv."""
    if tool not in ("auto", "pip", "uv"):
        raise UsageError(f"--resolver {tool!r}: expected one of auto, pip, uv")
    requested = parse_specs(specs, files)
    args = [*specs, *(arg for path in files for arg in ("-r", str(path)))]
    command = _pip_command(python) if tool != "uv" else None
    if command is not None:
        return _pip_plan(command, python, args, requested, timeout)
    if tool == "pip":
        raise UncheckedError(f"--resolver pip: neither {python} nor compat's Python has pip")
    from compat.resolve.resolvers.resolver import find_uv

    uv = find_uv()
    if uv is None:
        raise UncheckedError(
            f"no resolver for {python}: it has no pip, and neither pip nor uv runs here",
            hint="install pip into the environment, or uv beside compat",
        )
    return _uv_plan(uv, python, args, requested, timeout, prefix)


@functools.lru_cache(maxsize=8)
def _pip_command(python: str) -> tuple[str, ...] | None:
    """The target's own pip, else this interpreter's pip pointed at it (--python)."""
    if _answers([python, "-m", "pip", "--version"]):
        return (python, "-m", "pip")
    if python != sys.executable and importlib.util.find_spec("pip") is not None:
        return (sys.executable, "-m", "pip", "--python", python)
    return None


def _answers(command: list[str]) -> bool:
    try:
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            stdin=subprocess.DEVNULL,
            env=_environ(),
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0 and result.stdout.startswith("pip ")


def _environ() -> dict[str, str]:
    from compat.resolve.resolvers.resolver import tool_environ

    # The target's own pip imports from the environment: no byte-code is written into it.
    return tool_environ(PIP_REQUIRE_VIRTUALENV="0", PYTHONDONTWRITEBYTECODE="1")


def _run(command: list[str], tool: str, timeout: float) -> subprocess.CompletedProcess[str]:
    from compat.resolve.resolvers.resolver import run_captured

    try:
        return run_captured(command, timeout, _environ())
    except subprocess.TimeoutExpired:
        raise UncheckedError(f"{tool} did not finish resolving within {timeout:g} s") from None
    except OSError as error:
        raise UncheckedError(f"cannot run {tool}: {error.strerror or error}") from None


def _uv_label(uv: str) -> str:
    try:
        out = subprocess.run(
            [uv, "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            stdin=subprocess.DEVNULL,
        ).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        out = []
    return f"uv {out[1] if len(out) > 1 else '?'} ({uv})"


def resolver_reason(output: str, tool: str) -> str:
    """The resolver's own reason, in one line: its ERROR lines (pip) or error lines (uv), never
    its warnings; an unreachable index raises IndexAccessError (exit 2)."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    from compat.resolve.resolvers.resolver import UNREACHABLE_INDEX

    unreachable = [line for line in lines if UNREACHABLE_INDEX.search(line)]
    errors = [
        re.sub(r"^(ERROR|error):\s*", "", line.strip())
        for line in lines
        if line.startswith(("ERROR:", "error:"))
        or (tool == "uv" and line.startswith(("  cause:", "  ╰─▶", "      ")))
    ]
    errors = [e for e in errors if e and not e.startswith("ResolutionImpossible: for help")]
    # Retries that finally got through say nothing: the index counts as unreachable only when
    # the resolver then found nothing at all.
    found_nothing = not errors or any(
        "from versions: none" in e or "No matching distribution" in e or "Failed to fetch" in e
        for e in errors
    )
    if unreachable and found_nothing:
        raise IndexAccessError(
            short_line(f"{tool} could not reach {_unreachable(unreachable[-1], output)}"),
            hint="check the index URL (pip.conf, PIP_INDEX_URL, UV_INDEX_URL) and the network",
        )
    if not errors:
        errors = [line.strip() for line in lines if not line.startswith("WARNING")][-3:]
    return short_line("; ".join(errors) or f"{tool} failed without saying why")


_PIP_CONNECTION = re.compile(
    r"(HTTPS?)Connection\(host='([^']+)', port=(\d+)\).*\)': (/\S*?)/[^/\s]+/?$"
)


def _unreachable(line: str, output: str) -> str:
    """`http://127.0.0.1:8080/simple: connection refused`: the index, from pip's retry warning
    (host, port and the project page's path), else from the resolver's own summary."""
    from compat.resolve.resolvers.resolver import _unreachable_summary

    summary = _unreachable_summary(output)
    match = _PIP_CONNECTION.search(line)
    if match is None or not summary.startswith("the package index:"):
        return summary
    scheme, host, port, path = match.groups()
    cause = summary.split(": ", 1)[1]
    return f"{scheme.lower()}://{host}:{port}{path}: {cause}"


def _pip_plan(
    pip: tuple[str, ...], python: str, args: list[str], requested: tuple[str, ...], timeout: float
) -> InstallPlan:
    command = [*pip, "install", "--dry-run", "--report", "-", "--quiet", "--no-input", *args]
    result = _run(command, "pip", timeout)
    if result.returncode != 0:
        reason = resolver_reason(result.stderr + "\n" + result.stdout, "pip")
        raise UncheckedError(f"pip cannot resolve the install: {reason}")
    try:
        document: Any = json.loads(result.stdout)
        install = tuple(_release(item) for item in document["install"])
    except (ValueError, KeyError, TypeError, InvalidVersion) as error:
        raise UncheckedError(f"pip wrote a report compat cannot read: {error}") from None
    label = f"pip {document.get('pip_version', '?')} ({' '.join(pip)})"
    return InstallPlan(requested, install, (), label, python)


def _release(item: Mapping[str, Any]) -> Release:
    metadata = item["metadata"]
    name = str(metadata["name"])
    return Release(
        name=canonicalize_name(name),
        version=Version(str(metadata["version"])),
        display_name=name,
        requires=tuple(str(r) for r in metadata.get("requires_dist") or ()),
        requested=bool(item.get("requested")),
    )


def _uv_plan(
    uv: str,
    python: str,
    args: list[str],
    requested: tuple[str, ...],
    timeout: float,
    prefix: str | None,
) -> InstallPlan:
    command = [uv, "pip", "install", "--dry-run", "--no-python-downloads", "--python", python]
    command += args
    # uv takes its environment lock even for a dry run, creating an empty `.lock` file in the
    # environment's root: one it created is removed, so the environment's files stay as they were.
    lock = Path(prefix) / ".lock" if prefix else None
    had_lock = lock is None or lock.exists()
    try:
        result = _run(command, "uv", timeout)
    finally:
        if lock is not None and not had_lock:
            _remove_empty(lock)
    output = result.stderr + "\n" + result.stdout
    if result.returncode != 0:
        raise UncheckedError(f"uv cannot resolve the install: {resolver_reason(output, 'uv')}")
    added: dict[NormalizedName, tuple[str, Version]] = {}
    removed: set[NormalizedName] = set()
    for line in output.splitlines():
        match = _UV_LINE.match(line)
        if match is None:
            continue
        name = canonicalize_name(match.group(2))
        try:
            version = Version(match.group(3))
        except InvalidVersion:
            continue
        if match.group(1) == "+":
            added[name] = (match.group(2), version)
        else:
            removed.add(name)
    names = {
        canonicalize_name(Requirement(s).name)
        for s in requested
        if not s.startswith("-r ") and not is_location(s)
    }
    requires = _index_requires({name: version for name, (_, version) in added.items()})
    install = tuple(
        Release(name, version, shown, requires.get(name, ()), name in names)
        for name, (shown, version) in sorted(added.items())
    )
    gone = tuple(sorted(removed - set(added)))
    return InstallPlan(requested, install, gone, _uv_label(uv), python)


def _remove_empty(path: Path) -> None:
    try:
        if path.is_file() and path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


def _index_requires(
    releases: Mapping[NormalizedName, Version],
) -> dict[NormalizedName, tuple[str, ...]]:
    """Requires-Dist of the releases uv would install, from the index its configuration names
    (PEP 658 metadata, else the wheel's METADATA read by range requests)."""
    from compat.resolve.sources.index import IndexClient
    from compat.resolve.sources.indexconfig import resolve_index_config

    config = resolve_index_config(index_url=None, extra_index_urls=())
    out: dict[NormalizedName, tuple[str, ...]] = {}
    with IndexClient(config, offline=False, timeout=30.0) as client:
        for name, version in releases.items():
            for candidate in client.candidates(name):
                if candidate.version == version:
                    out[name] = client.requires_dist(candidate)
                    break
    return out


def overlay(env: Environment, plan: InstallPlan) -> Environment:
    """The environment the install would leave: the planned releases in place of the installed
    distributions of the same name (their metadata, no files: nothing points at the old
    dist-info), everything else as it is."""
    packages: dict[NormalizedName, Package] = dict(env.packages)
    for name in plan.remove:
        packages.pop(name, None)
    for release in plan.install:
        packages[release.name] = Package(
            name=release.name,
            version=release.version,
            display_name=release.display_name,
            requires=release.requires,
        )
    touched = {r.name for r in plan.install} | set(plan.remove)
    problems = tuple(p for p in env.problems if p.name is None or p.name not in touched)
    builds = {k: v for k, v in env.builds.items() if not _replaced_build(k, touched)}
    return replace(
        env,
        source=f"{env.source}, after installing {' '.join(plan.requested)}",
        packages=packages,
        problems=problems,
        builds=builds,
    )


def _replaced_build(fact: str, touched: set[NormalizedName]) -> bool:
    """A build the package manager recorded (conda) no longer holds once pip replaces it."""
    return fact == "torch_cuda" and NormalizedName("torch") in touched


def changes(before: Environment, after: Environment) -> tuple[Change, ...]:
    """Each distribution replaced, added or removed, with both versions and CUDA builds."""
    out = []
    for name in sorted(set(before.packages) | set(after.packages)):
        old, new = before.packages.get(name), after.packages.get(name)
        if old is not None and new is not None and old == new:
            continue
        if old is not None and new is not None and old.version == new.version:
            continue
        kind = "added" if old is None else "removed" if new is None else "replaced"
        shown = (new or old).label  # type: ignore[union-attr]
        out.append(
            Change(
                name,
                shown,
                kind,
                old.version if old else None,
                new.version if new else None,
                _cuda(old),
                _cuda(new),
            )
        )
    return tuple(out)


def _cuda(package: Package | None) -> Version | None:
    """The CUDA build a distribution is for: torch's (local label, CUDA requirements, version.py),
    else a `+cuXYZ` label."""
    if package is None:
        return None
    from compat.probes.cuda import cuda_from_local_label, torch_cuda_build

    if package.name == "torch":
        location = package.origin.path if package.origin is not None else None
        return torch_cuda_build(package.version, package.requires, location)
    return cuda_from_local_label(package.version)


# Distributions that hold code compiled against torch's C++ library: they import only under the
# torch they were built with (undefined symbols otherwise), whatever their version says.
_TORCH_EXTENSIONS = frozenset(
    {
        "flash-attn", "flash-attn-3", "xformers", "apex", "vllm", "torchvision", "torchaudio",
        "mamba-ssm", "causal-conv1d", "transformer-engine-torch", "fbgemm-gpu", "torch-scatter",
        "torch-sparse", "torch-cluster", "torch-spline-conv", "detectron2", "natten",
    }
)  # fmt: skip
_TORCH_LABEL = re.compile(r"torch\d|(?:^|[._])pt\d", re.IGNORECASE)


@dataclass(frozen=True)
class LeftBehind:
    """An installed distribution the install keeps, built against the torch it replaces."""

    name: NormalizedName
    display_name: str
    version: Version
    reason: str


def left_behind(before: Environment, after: Environment) -> tuple[LeftBehind, ...]:
    """Distributions kept as they are while torch is replaced, that were built against the old
    torch: known compiled extensions, a `+torch…`/`+pt…` local label, or a recorded build."""
    old, new = before.packages.get("torch"), after.packages.get("torch")  # type: ignore[call-overload]
    if old is None or new is None or old.version == new.version:
        return ()
    from compat.probes.cuda import build_facts

    recorded = build_facts(before, with_nvcc=False)
    out = []
    for name, package in sorted(before.packages.items()):
        if after.packages.get(name) != package or name == "torch":
            continue
        reason = _built_against(package, recorded, old.version)
        if reason:
            out.append(LeftBehind(name, package.label, package.version, reason))
    return tuple(out)


def _built_against(package: Package, recorded: Mapping[str, Version], torch: Version) -> str:
    label = package.version.local or ""
    if package.name == "flash-attn" and "flash_attn_torch" in recorded:
        return f"its wheel was built for torch {recorded['flash_attn_torch']}"
    if package.name == "deepspeed" and "deepspeed_ops_torch" in recorded:
        return f"its prebuilt ops were compiled against torch {recorded['deepspeed_ops_torch']}"
    if _TORCH_LABEL.search(label):
        return f"its build label +{label} names the torch it was built for"
    if package.name in _TORCH_EXTENSIONS:
        return (
            "a compiled torch extension (it links torch's C++ library), built with the torch "
            f"installed then, presumably {torch}"
        )
    return ""
