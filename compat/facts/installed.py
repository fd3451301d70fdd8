"""Installed distributions, read from dist-info/egg-info directories without executing anything.

This is the hot path of `compat doctor`, so it reads only the header block of each METADATA file
(the long description after the first blank line is never read) and parses it by hand: faster
than `importlib.metadata`, which email-parses the whole file. Broken or invalid distributions
become `EnvironmentProblem`s, never exceptions; a name installed twice is flagged.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from packaging.version import InvalidVersion, Version

from compat.errors import UsageError
from compat.model import Environment, EnvironmentProblem, Origin, Package
from compat.names import canonicalize_name

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

_HEADER_LIMIT = 256 * 1024  # a header block bigger than this is not metadata
_PYTHON_DIR = re.compile(r"python(\d+)\.(\d+)")

# What runs inside the *target* interpreter: the marker-environment module's own text (stdlib
# only: nothing of compat is imported there) plus a report of the sys.path it can see.
_CHILD_REPORT = """
paths = [p for p in sys.path if p and os.path.isdir(p)]
import json
print(json.dumps({"executable": sys.executable, "paths": paths, "markers": marker_environment(),
                  "prefix": sys.prefix}))
"""


def _child_script() -> str:
    return Path(__file__).with_name("markerenv.py").read_text(encoding="utf-8") + _CHILD_REPORT


def read_running() -> Environment:
    """The environment of the interpreter running compat."""
    from compat.facts.markerenv import marker_environment

    markers = marker_environment()
    paths = [p for p in sys.path if p and os.path.isdir(p)]
    env = _read(
        paths,
        source=f"running interpreter {sys.executable}",
        python=Version(markers["python_full_version"]),
        markers=markers,
    )
    return replace(env, prefix=sys.prefix)


def read_paths(dirs: Sequence[Path]) -> Environment:
    """`--path DIR` (repeatable): site-packages or `pip install --target` directories."""
    for directory in dirs:
        if not directory.exists():
            raise UsageError(f"--path {directory}: no such directory")
        if not directory.is_dir():
            raise UsageError(f"--path {directory}: not a directory")
    python = None
    for directory in dirs:  # lib/python3.11/site-packages tells the Python version, nothing more
        match = _PYTHON_DIR.search(str(directory.resolve()))
        if match:
            python = Version(f"{match.group(1)}.{match.group(2)}")
            break
    return _read(
        [str(d) for d in dirs],
        source="path " + ", ".join(str(d) for d in dirs),
        python=python,
        markers={},
    )


def read_python(python: Path, timeout: float = 20.0) -> Environment:
    """`--python PATH`: ask that interpreter for its sys.path and marker environment, then read
    its distributions from disk here. Nothing of compat runs inside it."""
    if not python.exists():
        raise UsageError(f"--python {python}: no such file")
    try:
        proc = subprocess.run(
            [str(python), "-I", "-c", _child_script()],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except PermissionError:
        raise UsageError(f"--python {python}: not executable") from None
    except OSError as error:
        raise UsageError(
            f"--python: cannot run it: {error.strerror}", origin=Origin(str(python))
        ) from None
    except subprocess.TimeoutExpired:
        raise UsageError(
            f"--python: no answer within {timeout:g}s", origin=Origin(str(python))
        ) from None
    try:
        answer = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None
    except (json.JSONDecodeError, IndexError):
        answer = None
    if not isinstance(answer, dict):
        detail = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise UsageError(
            f"--python: not a working Python interpreter ({detail})", origin=Origin(str(python))
        )
    markers = {str(k): str(v) for k, v in answer["markers"].items()}
    env = _read(
        [str(p) for p in answer["paths"]],
        source=f"python {answer.get('executable') or python}",
        python=Version(markers["python_full_version"]),
        markers=markers,
    )
    prefix = answer.get("prefix")
    return replace(env, prefix=prefix) if isinstance(prefix, str) else env


# ---------------------------------------------------------------------------------------------


def _read(
    paths: Sequence[str], *, source: str, python: Version | None, markers: dict[str, str]
) -> Environment:
    packages: dict[NormalizedName, Package] = {}
    problems: list[EnvironmentProblem] = []
    seen_dirs: set[str] = set()
    for directory in paths:
        real = os.path.realpath(directory)
        if real in seen_dirs:  # sys.path can name one directory twice
            continue
        seen_dirs.add(real)
        for meta_dir, metadata_file in _metadata_dirs(directory):
            package, problem = read_distribution(meta_dir, metadata_file)
            if problem is not None:
                problems.append(problem)
                continue
            assert package is not None
            first = packages.get(package.name)
            if first is None:
                packages[package.name] = package
                continue
            # The first on the path is the one `import` loads; the other is a leftover.
            problems.append(
                EnvironmentProblem(
                    "duplicate",
                    f"{package.label} is installed twice: {first.version} ({first.origin}) and "
                    f"{package.version} ({package.origin}); {first.version} is the one imported "
                    "— remove the other (a half-finished pip uninstall leaves this)",
                    package.origin,
                    package.name,
                )
            )
    return Environment(
        source=source,
        packages=packages,
        python_version=python,
        markers=markers,
        problems=tuple(problems),
        paths=tuple(paths),
    )


def _metadata_dirs(directory: str) -> Iterable[tuple[str, str]]:
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in names:
        if name.endswith(".dist-info"):
            yield os.path.join(directory, name), "METADATA"
        elif name.endswith(".egg-info"):
            path = os.path.join(directory, name)
            # Either a directory holding PKG-INFO, or (old distutils) the PKG-INFO file itself.
            yield (path, "PKG-INFO") if os.path.isdir(path) else (path, "")


def read_distribution(
    meta_dir: str, metadata_file: str
) -> tuple[Package | None, EnvironmentProblem | None]:
    """One distribution, or the problem that stops it from being read."""
    path = os.path.join(meta_dir, metadata_file) if metadata_file else meta_dir
    origin = Origin(meta_dir)
    try:
        raw = _read_head(path)
    except OSError as error:
        reason = (
            "no METADATA file"
            if isinstance(error, FileNotFoundError)
            else f"unreadable METADATA ({error.strerror})"
        )
        return None, EnvironmentProblem(
            "broken-metadata", f"{os.path.basename(meta_dir)}: {reason}", origin
        )
    headers = parse_headers(raw.decode("utf-8", errors="replace"))
    name = (headers.get("name") or [""])[0].strip()
    version_text = (headers.get("version") or [""])[0].strip()
    if not name or not version_text:
        missing = "Name" if not name else "Version"
        return None, EnvironmentProblem(
            "broken-metadata", f"{os.path.basename(meta_dir)}: METADATA has no {missing}", origin
        )
    try:
        version = Version(version_text)
    except InvalidVersion:
        return None, EnvironmentProblem(
            "invalid-version",
            f"{name} has an invalid version {version_text!r} (not PEP 440); rules cannot be checked for it",
            origin,
            canonicalize_name(name),
        )
    return (
        Package(
            name=canonicalize_name(name),
            version=version,
            display_name=name,
            origin=origin,
            commit=_vcs_commit(meta_dir) if metadata_file == "METADATA" else None,
            requires=tuple(headers.get("requires-dist", ())),
        ),
        None,
    )


def _read_head(path: str) -> bytes:
    """The first _HEADER_LIMIT bytes of a regular file; a FIFO or device raises OSError (opened
    non-blocking, so a FIFO named METADATA cannot hang the scan)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        os.set_blocking(fd, True)
        return os.read(fd, _HEADER_LIMIT)
    finally:
        os.close(fd)


def parse_headers(text: str) -> dict[str, list[str]]:
    """RFC 822-style header block -> lowercase field name -> values (continuations joined)."""
    fields: dict[str, list[str]] = {}
    last: str | None = None
    for line in text.splitlines():
        if not line.strip():
            break  # the body (long description) starts here
        if line[0] in " \t":
            if last is not None and fields[last]:
                fields[last][-1] += " " + line.strip()
            continue
        key, sep, value = line.partition(":")
        if not sep:
            continue
        last = key.strip().lower()
        fields.setdefault(last, []).append(value.strip())
    return fields


def _vcs_commit(meta_dir: str) -> str | None:
    """The commit of a `pip install git+...` install, from PEP 610 direct_url.json."""
    try:
        data = json.loads(_read_head(os.path.join(meta_dir, "direct_url.json")))
    except (OSError, ValueError, RecursionError):
        return None
    vcs = data.get("vcs_info") if isinstance(data, dict) else None
    commit = vcs.get("commit_id") if isinstance(vcs, dict) else None
    return commit.lower() if isinstance(commit, str) else None
