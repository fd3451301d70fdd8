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
import stat
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.version import InvalidVersion, Version

from compat.errors import InputError, UsageError, shorten
from compat.lazyre import Lazy
from compat.model import Environment, EnvironmentProblem, Origin, Package
from compat.names import canonicalize_name
from compat.versions import parse_version, too_long_number

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

_HEADER_LIMIT = 256 * 1024  # a header block bigger than this is not metadata
_PYTHON_DIR = Lazy(r"python(\d+)\.(\d+)")

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
            [str(python), "-I", "-B", "-c", _child_script()],  # -B: nothing written into it
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
    except (ValueError, IndexError, RecursionError):  # not JSON; a 5,000-digit int; deep nesting
        answer = None
    if not isinstance(answer, dict):
        detail = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        raise UsageError(
            f"--python: not a working Python interpreter ({detail})", origin=Origin(str(python))
        )
    markers, paths, version = _answer_fields(answer, python)
    executable = answer.get("executable")
    env = _read(
        paths,
        source=f"python {executable if isinstance(executable, str) and executable else python}",
        python=version,
        markers=markers,
    )
    prefix = answer.get("prefix")
    return replace(env, prefix=prefix) if isinstance(prefix, str) else env


def _answer_fields(
    answer: dict[str, Any], python: Path
) -> tuple[dict[str, str], list[str], Version]:
    """The marker environment, sys.path and Python version an interpreter printed, checked: an
    answer with a field missing or of the wrong type (not what compat's script prints) is a
    usage error naming the interpreter, never a crash."""

    def refuse(why: str) -> UsageError:
        return UsageError(
            f"--python: not a working Python interpreter (its answer {why})",
            origin=Origin(str(python)),
        )

    markers, paths = answer.get("markers"), answer.get("paths")
    if not isinstance(markers, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in markers.items()
    ):
        raise refuse("has no 'markers' mapping of strings")
    if any(too_long_number(value) for value in markers.values()):
        raise refuse("has a marker value no version comparison could read")
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise refuse("has no 'paths' list of strings")
    try:
        version = parse_version(markers.get("python_full_version", ""))
    except InvalidVersion:
        raise refuse("has no valid 'python_full_version'") from None
    return markers, paths, version


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


def _header_line(raw: bytes, header: bytes) -> int | None:
    """The 1-based line of the first `Header:` line in a METADATA head, for an error to name."""
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if line.lower().startswith(header + b":"):
            return number
        if not line.strip():
            return None  # the headers end at the first blank line
    return None


def read_distribution(
    meta_dir: str, metadata_file: str
) -> tuple[Package | None, EnvironmentProblem | None]:
    """One distribution, or the problem that stops it from being read."""
    path = os.path.join(meta_dir, metadata_file) if metadata_file else meta_dir
    origin = Origin(meta_dir)
    entry = os.path.basename(meta_dir)
    if _shown(entry) != entry:  # pip never writes such a name: a broken entry, reported, not read
        return None, EnvironmentProblem(
            "broken-metadata",
            f"{_shown(entry)}: the directory name is not valid UTF-8; not read",
            Origin(_shown(meta_dir)),
        )
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
    if "\ufffd" in name:  # bytes that are not UTF-8 (replaced above): no package is named so
        return None, EnvironmentProblem(
            "broken-metadata",
            f"{os.path.basename(meta_dir)}: METADATA Name is not valid UTF-8; not read",
            origin,
        )
    huge = too_long_number(version_text)
    if huge:
        # Not a broken install but a hostile file: no build tool writes such a version, and no
        # comparison with it can be made. The contract for hostile input: one line, exit 2.
        raise InputError(
            f"Version: {shorten(repr(version_text), 80)}: {huge}",
            origin=Origin(_shown(path), _header_line(raw, b"version")),
        )
    try:
        version = parse_version(version_text)
    except InvalidVersion:
        why = "not PEP 440"
        return None, EnvironmentProblem(
            "invalid-version",
            f"{name} has an invalid version {shorten(repr(version_text), 80)} ({why}); "
            "rules cannot be checked for it",
            origin,
            canonicalize_name(name),
        )
    return (
        Package(
            name=canonicalize_name(name),
            version=version,
            display_name=name,
            origin=origin,
            requires=tuple(headers.get("requires-dist", ())),
            # PEP 610: a git checkout's commit, and whether it was built from a checkout or a
            # directory (a source build: rules about prebuilt wheels' pins skip it)
            **(_direct_url(meta_dir) if metadata_file == "METADATA" else {}),
        ),
        None,
    )


def _shown(path: str) -> str:
    """`path` as text any output can carry: undecodable bytes (which os.listdir hands over as
    lone surrogates) written as `\\xff`."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", errors="backslashreplace")
    return path


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


def _direct_url(meta_dir: str) -> dict[str, str]:
    """What PEP 610 direct_url.json says about how a distribution was installed: the commit of a
    `pip install git+...` install, and `source` for a build from a checkout or a directory."""
    try:
        data = json.loads(_read_head(os.path.join(meta_dir, "direct_url.json")))
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, str] = {}
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id")
        if isinstance(commit, str):
            out["commit"] = commit.lower()
        out["source"] = f"installed from {vcs.get('vcs', 'a VCS')} (direct_url.json)"
    elif isinstance(data.get("dir_info"), dict):
        editable = data["dir_info"].get("editable") is True
        out["source"] = (
            f"installed from a local {'editable ' if editable else ''}directory (direct_url.json)"
        )
    return out
