"""The real resolver as a judge: what pip (or uv) would install for a set of requirements.

compat proposes, the resolver proves: `check` judges the versions a fresh resolve picks for a
ranged requirement, and `pin` has its constraints resolved before it prints them. Both tools are
run as subprocesses, never imported, and only report what they would install:

* pip: `pip install --dry-run --ignore-installed --report FILE -r REQS -c CONSTRAINTS`;
* uv: `uv pip compile REQS -c CONSTRAINTS`.

For a target other than this interpreter (another Python version or platform), pip is given
`--python-version`/`--platform` and therefore only wheels (pip's own rule); uv resolves for the
target with `--python-version`/`--python-platform` and can still read source distributions.
uv is a runtime dependency of compat, so `auto` means uv (docs/resolver.md says why).

Three outcomes are kept apart: a resolution; `ResolutionFailed`, the resolver's verdict that the
requirements cannot be installed together (or for the target); and `ResolveNotMade`, no verdict
at all: the tool refused its own arguments (pip before 23.3 with target options, pypa/pip#12215),
crashed, could not build a source distribution's metadata, or ran out of time.
"""

from __future__ import annotations

import json
import os
import platform as _platform
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.errors import IndexAccessError, UncheckedError, UsageError
from compat.versions import parse_version

if TYPE_CHECKING:
    from compat.resolve.sources.indexconfig import IndexOptions

TOOLS = ("auto", "pip", "uv")

# A line of pip's or uv's output that says an index could not be reached (check, pin and
# doctor --install's dry run all read their resolver's output with it): never a verdict on the
# requirements. The machine's network, not bad input: check judges without the resolve (exit 3
# unless a finding fails), pin and doctor say so. uv reports an index that refuses its
# credentials (401, 403) in a hint under a "No solution found" that is therefore no verdict.
UNREACHABLE_INDEX = re.compile(
    r"NewConnectionError|Connection refused|Max retries exceeded|Could not fetch URL"
    r"|Failed to fetch|error sending request|dns error|tcp connect error|timed out"
    r"|Network is unreachable|Failed to establish a new connection|Name or service not known"
    r"|NameResolutionError|Temporary failure in name resolution"
    r"|could not be queried due to a lack of valid authentication|returned a 403 Forbidden"
    r"|certificate verify failed|invalid peer certificate|SSLError|UnknownIssuer",
    re.IGNORECASE,
)
_UV_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;#]+)")

# pip matches platform tags exactly, so a Linux target lists the manylinux tags wheels use.
_MANYLINUX_GLIBC = range(17, 40)
_MACOS = range(11, 16)


@dataclass(frozen=True)
class Target:
    """Where the requirements will be installed. None: the same as this interpreter."""

    python_version: str | None = None  # "3.11" or "3.11.7"
    platform: str | None = None  # "linux", "linux/aarch64", "darwin", "win32" (check's --platform)


@dataclass(frozen=True)
class Resolution:
    packages: dict[NormalizedName, Version]
    tool: str  # "pip 25.1.1" / "uv 0.9.2"
    command: tuple[str, ...] = field(default=())
    # An index the tool could not reach and went on without (pip skips one after its retries):
    # "URL: cause", else "". The install it found is not the one a machine reaching it makes.
    unreached: str = ""


class ResolutionFailed(Exception):
    """The resolver says the requirements cannot be installed together (or for the target)."""

    def __init__(self, message: str, tool: str) -> None:
        super().__init__(message)
        self.message = message
        self.tool = tool


class BuildFailed(ResolutionFailed):
    """A source distribution's build failed on the target's own Python, in the package's own code,
    the way an install on the target fails: the resolver's verdict that the requirements cannot
    be installed there (check: an `affected` finding, `build-fails:NAME`)."""

    def __init__(
        self, message: str, tool: str, name: str, version: str, raised: str, python: str
    ) -> None:
        super().__init__(message, tool)
        self.name = canonicalize_name(name)
        self.version = version
        self.raised = raised  # the exception line the build ended with
        self.python = python  # "3.11": the target's Python, which the build ran on


class ResolveNotMade(UncheckedError):
    """The resolver gave no verdict: it failed as a tool, not on the requirements (exit 3 where
    the answer rests on the resolve). `reason` says why in one line, quoting the tool's errors."""

    def __init__(self, tool: str, reason: str, hint: str | None = None) -> None:
        super().__init__(f"{tool} did not resolve: {reason}", hint=hint)
        self.tool = tool
        self.reason = reason
        # The source build it failed on, where its output names one: (name, version).
        self.build: tuple[str, str] | None = None
        # pip resolving another target from wheels only: the requirement it found no wheel
        # for, (name, specifier) as its "No matching distribution found for" line names it.
        self.wanted: tuple[str, str] | None = None


class ResolverTimedOut(ResolveNotMade):
    """The resolver did not finish within the time limit (exit 3 unless the caller falls back)."""

    def __init__(self, tool: str, limit: float) -> None:
        super().__init__(
            tool,
            f"it did not finish within {limit:g} s",
            hint="raise --timeout, or use --offline (the resolver proof is skipped)",
        )
        self.message = f"{tool} did not finish resolving within {limit:g} s"
        self.limit = limit


def resolve(
    requirements: Sequence[str],
    constraints: Sequence[str] = (),
    *,
    target: Target = Target(),
    index: IndexOptions | None = None,
    tool: str = "auto",
    timeout: float = 120.0,
    launched: Callable[[], None] = lambda: None,
    exclude_newer: str | None = None,
) -> Resolution:
    """Resolve `requirements` under `constraints` with the real tool and return what it installs.
    `exclude_newer` ("2025-06-30"): uv takes only releases published by then; pip has no such
    option (the caller says so).

    Lines may be requirement strings or pip option lines (`--extra-index-url URL`), exactly as in
    a requirements file. Raises UsageError for an unusable tool choice or offline index,
    IndexAccessError when the index cannot be reached, UncheckedError on a time-out, and
    ResolutionFailed when the set is not installable. `launched` is called once the resolver's
    process runs (work the caller does beside it then no longer delays its start).
    """
    if tool not in TOOLS:
        raise UsageError(f"--resolver {tool!r}: expected one of {', '.join(TOOLS)}")
    if index is not None and index.offline:
        raise UsageError("the resolver needs the package index, but --offline was given")
    uv = find_uv()
    if tool == "uv" and uv is None:
        raise UsageError("--resolver uv: uv is not installed (pip install uv)")
    with tempfile.TemporaryDirectory(prefix="compat-resolve-") as scratch:
        work = Path(scratch)
        reqs = work / "requirements.in"
        reqs.write_text("".join(f"{line}\n" for line in requirements), "utf-8")
        cons = work / "constraints.txt"
        cons.write_text("".join(f"{line}\n" for line in constraints), "utf-8")
        if tool == "uv" or (tool == "auto" and uv is not None):
            assert uv is not None
            return _resolve_uv(uv, reqs, cons, target, index, timeout, launched, exclude_newer)
        return _resolve_pip(work, reqs, cons, target, index, timeout, launched)


def find_uv() -> str | None:
    """The uv that compat's own install brought (its runtime dependency: the `uv` package knows
    where its binary went, `--user` and venv installs included), else uv beside this interpreter
    or on PATH."""
    try:
        from uv import find_uv_bin

        found = find_uv_bin()
        if found and os.access(found, os.X_OK):
            return str(found)
    except (ImportError, OSError):  # FileNotFoundError: the package without its binary
        pass
    beside = Path(sys.executable).parent / ("uv.exe" if os.name == "nt" else "uv")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("uv")


def _index_args(index: IndexOptions | None) -> list[str]:
    if index is None:
        return []
    args: list[str] = []
    if index.index_url:
        args += ["--index-url", index.index_url]
    for url in index.extra_index_urls:
        args += ["--extra-index-url", url]
    return args


def _same_python(target: Target) -> bool:
    if target.python_version is None:
        return True
    try:
        wanted = Version(target.python_version).release[:2]
    except InvalidVersion:
        raise UsageError(f"--python-version {target.python_version!r}: expected X.Y") from None
    return wanted == sys.version_info[:2]


def _split_platform(platform: str | None) -> tuple[str, str] | None:
    """("linux", "x86_64") for "linux"; None for this machine."""
    if platform is None:
        return None
    system, _, machine = platform.lower().partition("/")
    default_machine = {"linux": "x86_64", "darwin": "arm64", "win32": "amd64"}
    if system not in default_machine:
        raise UsageError(f"--platform {platform!r}: expected linux, darwin or win32")
    machine = (
        {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)
        if system == "linux"
        else machine
    )
    return system, machine or default_machine[system]


def _same_platform(platform: tuple[str, str] | None) -> bool:
    if platform is None:
        return True
    here_system = sys.platform if sys.platform in ("win32", "darwin") else "linux"
    here_machine = _platform.machine().lower()
    here_machine = {"amd64": "x86_64" if here_system == "linux" else "amd64"}.get(
        here_machine, here_machine
    )
    return platform == (here_system, here_machine)


def _pip_platform_args(platform: tuple[str, str]) -> list[str]:
    system, machine = platform
    tags: list[str]
    if system == "linux":
        tags = [f"manylinux_2_{minor}_{machine}" for minor in _MANYLINUX_GLIBC]
        tags += [f"manylinux2014_{machine}", f"linux_{machine}"]
        if machine == "x86_64":
            tags += ["manylinux2010_x86_64", "manylinux1_x86_64"]
    elif system == "darwin":
        arch = "arm64" if machine in ("arm64", "aarch64") else "x86_64"
        tags = [f"macosx_{major}_0_{arch}" for major in _MACOS]
        tags += [f"macosx_{major}_0_universal2" for major in _MACOS]
    else:
        tags = ["win_amd64"]
    return [arg for tag in tags for arg in ("--platform", tag)]


def _uv_platform(platform: tuple[str, str]) -> str:
    system, machine = platform
    if system == "linux":
        return f"{machine}-manylinux_2_28"
    if system == "darwin":
        return "aarch64-apple-darwin" if machine in ("arm64", "aarch64") else "x86_64-apple-darwin"
    return "x86_64-pc-windows-msvc"


def tool_environ(**extra: str) -> dict[str, str]:
    """This process's environment with pip and uv quiet and non-interactive (no prompt, no
    progress bar, no colour, no version check), plus `extra`."""
    return {
        **os.environ,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
        "PIP_PROGRESS_BAR": "off",
        "UV_NO_PROGRESS": "1",
        "NO_COLOR": "1",
        **extra,
    }


def run_captured(
    command: list[str],
    timeout: float,
    env: Mapping[str, str],
    launched: Callable[[], None] = lambda: None,
) -> subprocess.CompletedProcess[str]:
    """`command` with its output captured as text (undecodable bytes replaced) and no stdin,
    `launched` called once it runs. A time-out or an unrunnable tool raises to the caller,
    which names it in its own terms (subprocess.run's own steps, with the call between)."""
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        env=env,
        stdin=subprocess.DEVNULL,
    ) as process:
        try:
            launched()
            stdout, stderr = process.communicate(timeout=timeout)
        except BaseException:
            process.kill()  # a time-out, or an interrupt: the tool never outlives the call
            raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _run(
    command: list[str],
    timeout: float,
    tool: str,
    index: IndexOptions | None,
    launched: Callable[[], None] = lambda: None,
) -> subprocess.CompletedProcess[str]:
    env = tool_environ()
    if index is not None and index.timeout:
        # Each tool's per-request network time-out, as compat's own --timeout means it.
        env["PIP_TIMEOUT"] = env["UV_HTTP_TIMEOUT"] = f"{max(1, round(index.timeout))}"
    try:
        return run_captured(command, timeout, env, launched)
    except subprocess.TimeoutExpired:
        raise ResolverTimedOut(tool, timeout) from None
    except OSError as error:
        raise UsageError(f"cannot run {tool}: {error.strerror or error}") from None


_URL = re.compile(r"https?://[^\s'\"()<>,`]+")
_CAUSES = (
    ("401 unauthorized", "401 Unauthorized (the index wants credentials this machine lacks)"),
    ("403 forbidden", "403 Forbidden (the index refuses this machine's credentials)"),
    ("connection refused", "connection refused"),
    ("timed out", "timed out"),
    ("name or service not known", "the host name does not resolve"),
    ("dns error", "the host name does not resolve"),
    ("failed to resolve", "the host name does not resolve"),
    ("network is unreachable", "the network is unreachable"),
    ("certificate", "a TLS certificate error"),
    ("unknownissuer", "a TLS certificate error"),
    ("sslerror", "a TLS error"),
)


_PIP_CONNECTION = re.compile(
    r"(HTTPS?)Connection\(host='([^']+)', port=(\d+)\).*\)': (/\S*?)/[^/\s]+/?$"
)


def _unreachable_summary(raw: str) -> str:
    """'https://download.pytorch.org/whl/cu126: connection refused': the index a resolver could
    not reach and why, in one line, instead of the tail of its retry messages."""
    lowered = raw.lower()
    cause = next((said for key, said in _CAUSES if key in lowered), "the connection failed")
    failing = [line for line in raw.splitlines() if UNREACHABLE_INDEX.search(line)]
    where = "the package index"
    for line in failing:
        for match in _URL.finditer(line):
            if line[match.end() : match.end() + 1] == ")" and "index" in line.lower():
                return f"{match.group(0).rstrip('/.')}: {cause}"  # uv's hint names the index
            # The project page (…/cu126/torch/) lives under the index: name the index.
            where = re.sub(r"/[^/]+/?$", "", match.group(0).rstrip("/."))
            return f"{where}: {cause}"
    for line in failing:  # pip's retry warning: host, port and the project page's path
        pip = _PIP_CONNECTION.search(line)
        if pip is not None:
            scheme, host, port, path = pip.groups()
            default = {"http": "80", "https": "443"}[scheme.lower()] == port
            return f"{scheme.lower()}://{host}{'' if default else f':{port}'}{path}: {cause}"
    paths = {
        m.group(1).rstrip("/")
        for line in failing
        for m in re.finditer(r"(/\S+?)/[^/\s]+/?'?$", line)
    }
    for match in _URL.finditer(raw):
        url = match.group(0).rstrip("/.,")
        if any(url.endswith(path) for path in paths) or where == "the package index":
            where = url
            if any(url.endswith(path) for path in paths):
                break
    return f"{where}: {cause}"


# What a resolver prints when it has judged the requirements: they cannot be installed together,
# or some requirement has no distribution for the target. Any other failure is the tool's own
# (a refused option, a source distribution whose metadata it could not build, a crash): no
# verdict on the requirements at all (ResolveNotMade).
_VERDICT = re.compile(
    r"ResolutionImpossible|conflicting dependencies|The conflict is caused by"
    r"|Could not find a version that satisfies|No matching distribution found"
    r"|requires a different Python|No solution found when resolving"
    r"|requirements are unsatisfiable|is unsatisfiable",
    re.IGNORECASE,
)
# pip before 23.3 refuses --platform/--python-version/--implementation without --target, even
# with --dry-run (pypa/pip#12215, fixed by pypa/pip#12217 in pip 23.3).
_PIP_TARGET_REFUSAL = "Can not use any platform or abi specific options"
_NO_MATCH = re.compile(r"No matching distribution found for ([A-Za-z0-9._-]+)==([^\s;]+)")
# pip's line for any requirement it found nothing for: `av==10.*`, `av<11,>=10`, `av`.
_NO_WHEEL_FOR = re.compile(
    r"No matching distribution found for ([A-Za-z0-9._-]+)(?:\[[^\]]*\])?([<>=!~][^\s;]*)?"
)
_WARNING = re.compile(r"^(WARNING|warning)(:|\s)|^DEPRECATION:")
_ERROR = re.compile(r"^(ERROR:|error:|×|├─▶|╰─▶|Caused by:)")
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit)\b.*")
# What a build backend prints that differs from run to run, never the reason it failed: Python's
# warnings (`/path/file.py:377: UserWarning: ...`, then the source line, indented), glog-style
# log lines (`W1127 06:29:40.398000 3942 file.py:183] ...`: a time stamp and a process id) and
# temporary directories (uv's `builds-v0/.tmp7w5oSa`, pip's `pip-build-env-x1y2z3`).
_PY_WARNING = re.compile(r"^\S+:\d+: \w*Warning: ")
_GLOG = re.compile(r"^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+\s+\S+:\d+\]\s*")
_TEMPORARY = re.compile(r"\S*?/(?:\.tmp|tmp|pip-[a-z]+(?:-[a-z]+)*-)[A-Za-z0-9_]{6,}(?=[/\s'\"]|$)")


# A source build that failed, read from the resolver's output, and whose failure it is. The
# TARGET's only on positive evidence (the user's install on the target fails the same way): the
# build ran on the target's Python, and the package's own code (setup.py or a module it
# imports, never the build tools) raised what only that Python decides: a standard-library name
# that is gone (`inspect.getargspec` on 3.11), Python 2 syntax or builtins. Else the checking
# MACHINE's, no verdict (exit 3): a compiler, the CUDA toolkit, a file or module the build
# environment lacks (torch, which flash-attn's setup.py imports), memory, the network, time.
# Unsure is the machine's.
_BUILD_OF = re.compile(r"Failed to build `(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^`\s]+)`")
_PIP_SDIST = re.compile(
    r"^(?:Downloading|Using cached|File was already downloaded) (?:\S*/)?"
    r"(?P<name>[A-Za-z0-9._]+?)-(?P<version>[0-9][^-/\s]*?)\.(?:tar\.gz|zip)\b"
)
_PIP_FAILED = re.compile(r"Failed to build '([A-Za-z0-9._-]+)'")
_PIP_BUILD_ERROR = re.compile(r"did not run successfully|metadata-generation-failed")
_BUILD_TARGET = re.compile(
    r"^(?:AttributeError: module '(?P<attribute>[\w.]+)' has no attribute '\w+'"
    r"|ImportError: cannot import name '\w+' from '(?P<imported>[\w.]+)'"
    r"|(?:SyntaxError|IndentationError|TabError): .+"
    r"|NameError: name '(?:execfile|unicode|basestring|long|xrange|raw_input|unichr|file|reduce"
    r"|cmp)' is not defined)"
)
_BUILD_MACHINE = re.compile(
    r"command '[^']*' failed|error: command|compiler|\bgcc\b|g\+\+|nvcc|CUDA_HOME|\bninja\b"
    r"|No such file|ModuleNotFoundError|No module named|Permission denied|MemoryError|Killed"
    r"|OSError|Could not find|Could not fetch|timed out|timeout|network|connection",
    re.IGNORECASE,
)
_BUILD_PYTHON = re.compile(r"/lib/python(\d+\.\d+)/")
_FRAME = re.compile(r'^File "(?P<path>[^"]+)", line \d+')


@dataclass(frozen=True)
class _Build:
    """A failed source build as the resolver's output shows it."""

    name: str
    version: str
    raised: str  # the exception line it ended with ("" when none)
    own_code: bool  # raised in the package's own code (its last frame is not the build tools')
    machine: str  # a line that names the checking machine ("" when none)
    pythons: frozenset[str]  # the Python versions the build environment's paths name


_UV_UNBUILT = re.compile(
    r"Failed to (?:download and )?build `(?P<name>[A-Za-z0-9._-]+)==(?P<version>[^`\s]+)`"
)


def _unbuilt(raw: str, tool: str) -> tuple[str, str] | None:
    """(name, version) of the source distribution the tool could not build or read, where its
    output names one."""
    found = _UV_UNBUILT.search(raw)
    if found is not None:
        return found.group("name"), found.group("version")
    build = _failed_build(raw, tool)
    if build is not None and build.version:
        return build.name, build.version
    # pip names no package when it cannot read an sdist at all (`tarfile.ReadError`): the sdist
    # it was preparing last is the one (its output lists them in order).
    sdists = [m for line in raw.splitlines() if (m := _PIP_SDIST.match(line.strip())) is not None]
    return (
        (sdists[-1].group("name"), sdists[-1].group("version"))
        if tool == "pip" and sdists
        else None
    )


def _failed_build(raw: str, tool: str) -> _Build | None:
    lines = [line.strip() for line in raw.splitlines()]
    start, name, version = -1, "", ""
    for number, text in enumerate(lines):
        found = _BUILD_OF.search(text)
        if found is not None:
            start, name, version = number, found.group("name"), found.group("version")
            break
    if start < 0 and tool == "pip" and any(_PIP_BUILD_ERROR.search(text) for text in lines):
        # pip's error (stderr, read first) names the package in 25.x and later; the source
        # distribution it was preparing (stdout, in order) gives the version.
        named = next((m.group(1) for t in lines if (m := _PIP_FAILED.search(t))), None)
        sdists = [m for text in lines if (m := _PIP_SDIST.match(text)) is not None]
        if named is not None:
            sdists = [
                m for m in sdists if canonicalize_name(m.group("name")) == canonicalize_name(named)
            ]
        if sdists:
            start, name, version = 0, sdists[-1].group("name"), sdists[-1].group("version")
    if start < 0:
        return None
    block = lines[start:]
    raised, last_frame = "", ""
    for text in block:
        frame = _FRAME.match(text)
        if frame is not None:
            last_frame = frame.group("path")
        elif _EXCEPTION.match(text):
            raised = text
    machine = next((text for text in block if _BUILD_MACHINE.search(text)), "")
    own = bool(raised) and not re.search(r"[/\\](site|dist)-packages[/\\]", last_frame)
    own = own and not (_BUILD_PYTHON.search(last_frame) and "packages" not in last_frame)
    pythons = frozenset(m.group(1) for text in block for m in _BUILD_PYTHON.finditer(text))
    return _Build(name, version, raised, own, machine, pythons)


def _target_raise(raised: str) -> bool:
    """Whether the exception is one only the Python it ran on decides (a standard-library name
    that is gone, Python 2 code)."""
    found = _BUILD_TARGET.match(raised)
    if found is None:
        return False
    module = found.group("attribute") or found.group("imported")
    return module is None or module.split(".")[0] in sys.stdlib_module_names


def _build_failure(
    raw: str, tool: str, named: str, target: Target, build_python: Callable[[], str | None]
) -> Exception | None:
    """BuildFailed where a source build failed because of the target; ResolveNotMade naming
    why not where it looks like the target's but the build ran on another Python; else None."""
    build = _failed_build(raw, tool)
    if build is None or build.machine or not build.own_code or not _target_raise(build.raised):
        return None
    wanted = (
        ".".join(str(p) for p in Version(target.python_version).release[:2])
        if target.python_version is not None
        else "{}.{}".format(*sys.version_info[:2])
    )
    found = None if build.pythons else build_python()
    ran = build.pythons or (frozenset((found,)) if found else frozenset())
    if ran != {wanted}:
        where = f"Python {', '.join(sorted(ran))}" if ran else "a Python its output does not name"
        return ResolveNotMade(
            named,
            f"building {build.name} {build.version} raised `{build.raised}` on {where}, not on "
            f"the target's Python {wanted} (the resolver builds with an interpreter of the "
            "checking machine): on the target's Python it may build, or fail otherwise",
            hint=f"run the check where a Python {wanted} interpreter is installed",
        )
    message = (
        f"{build.name} {build.version} does not build on Python {wanted}: its source "
        f"distribution's own code raised `{build.raised}`"
    )
    return BuildFailed(message, named, build.name, build.version, build.raised, wanted)


def _scratch_names(line: str) -> str:
    line = re.sub(r"\S*compat-resolve-[^/\s]+/(requirements\.in|constraints\.txt)", r"\1", line)
    return _TEMPORARY.sub("<temporary directory>", line)


def _quoted(raw: str, tool: str, returncode: int) -> str:
    """The resolver's own explanation in one line: its error lines and the conflict lines
    around them, never its warnings (pip's notes about the machine's configuration), its
    generic advice, nor a build's traceback (only the exception it ended with), with compat's
    scratch files named for what they are."""
    advice = ("To fix this", "1. ", "2. ", "You can try", "for help visit")
    chatter = (
        "Collecting", "Downloading", "Using cached", "Obtaining", "Would install", "INFO:",
        "Processing ",  # a local file pip reads (find-links, a mirror): progress, not a reason
    )  # fmt: skip
    lines: list[str] = []
    skipping = ""  # "warning" or "hint" (up to a blank line), "traceback" (up to its exception)
    code_line = False  # the source line a traceback prints under each `File "..."` line
    warned_at = -1  # the indentation of a Python warning line just skipped
    for line in raw.splitlines():
        text = line.strip()
        if skipping == "traceback":
            if _EXCEPTION.match(text):
                skipping = ""
                lines.append(_scratch_names(text))
            continue
        if not text:
            skipping = "" if skipping in ("warning", "hint") else skipping
            continue
        logged = _GLOG.match(text)
        if logged is not None:
            if logged.group(1) in "IW":
                continue
            text = text[logged.end() :]  # an error's text, without when and which process
        indent = len(line) - len(line.lstrip())
        if warned_at >= 0:  # the source line Python prints under a warning, indented further
            warned_at, below_warning = -1, indent > warned_at
            if below_warning:
                continue
        if _PY_WARNING.match(text):
            warned_at = indent
            continue
        if _WARNING.match(text):
            skipping = "warning"  # its indented continuation lines go with it
            continue
        if text.startswith(("hint:", "help:")):
            skipping = "hint"
            continue
        if skipping and line[:1].isspace() and not _ERROR.match(text):
            continue
        skipping = ""
        if text.startswith("Traceback (most recent call last)"):
            skipping = "traceback"
            continue
        if text.startswith('File "'):
            code_line = True
            continue
        if code_line or set(text) <= {"^", "~"} or text in ("[stderr]", "[stdout]"):
            code_line = False
            continue
        if text.startswith(("Looking in", *advice, *chatter)):
            continue
        if "dealing-with-dependency-conflicts" in text:
            continue
        lines.append(_scratch_names(text))
    errors = [i for i, line in enumerate(lines) if _ERROR.match(line)]
    if errors:
        lines = lines[errors[0] :]  # what precedes the first error is progress, not the reason
    return "; ".join(lines[-12:])[:2000] if lines else f"{tool} exited with status {returncode}"


def _failure(
    result: subprocess.CompletedProcess[str],
    tool: str,
    version: str,
    target: Target,
    wheels_only: bool = False,
    build_python: Callable[[], str | None] = lambda: None,
) -> Exception:
    raw = result.stderr + "\n" + result.stdout
    unreachable = next((line for line in raw.splitlines() if UNREACHABLE_INDEX.search(line)), None)
    if unreachable is not None:
        return IndexAccessError(f"{tool} could not reach {_unreachable_summary(raw)}")
    message = _quoted(raw, tool, result.returncode)
    named = version or tool
    if _PIP_TARGET_REFUSAL in raw:
        return ResolveNotMade(
            named,
            "it refused its own target options (pip before 23.3 resolves for another Python "
            "or platform only with --target, pypa/pip#12215): " + message,
            hint="reinstall compat with its dependencies (uv resolves for any target), or "
            "pip install 'pip>=23.3' beside it",
        )
    built = _build_failure(raw, tool, named, target, build_python)
    if built is not None:
        return built
    if not _VERDICT.search(raw):
        error = ResolveNotMade(
            named,
            f"it failed without a verdict on the requirements (exit status {result.returncode}): "
            + message,
        )
        error.build = _unbuilt(raw, tool)  # which sdist it could not build (issue 44 item 3)
        return error
    if wheels_only and re.search(r"Could not find a version|No matching distribution", raw):
        # pip resolves another target from wheels only: a package published as a source
        # distribution (deepspeed, flash-attn) has "no version" there, which says nothing about
        # whether a real install, which builds it, works.
        error = ResolveNotMade(
            named,
            "it resolves another Python or platform from wheels only, and a requirement has no "
            "wheel for the target among the releases allowed (a real install may build it from "
            "its source distribution): " + message,
            hint="--resolver uv reads source distributions for any target",
        )
        wanted = _NO_WHEEL_FOR.search(raw)
        if wanted is not None:
            error.wanted = (wanted.group(1), wanted.group(2) or "")
        return error
    missing = _NO_MATCH.search(raw)
    if missing is not None and "from versions: none" not in raw:
        listed = re.search(r"\(from versions: ([^)]*)\)", raw)
        if listed is not None and missing.group(2) not in {
            v.strip() for v in listed.group(1).split(",")
        }:
            where = ", ".join(
                part
                for part in (
                    f"Python {target.python_version}" if target.python_version else "",
                    target.platform or "",
                )
                if part
            )
            message = (
                f"{missing.group(1)} {missing.group(2)} has no wheel or source distribution "
                f"{tool} can install for the target{f' ({where})' if where else ''}: " + message
            )
    return ResolutionFailed(message, tool)


def _resolve_pip(
    work: Path,
    reqs: Path,
    cons: Path,
    target: Target,
    index: IndexOptions | None,
    timeout: float,
    launched: Callable[[], None],
) -> Resolution:
    report = work / "report.json"
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--dry-run",
        "--ignore-installed",
        "--progress-bar",
        "off",
        "--report",
        str(report),
        "--retries",
        "1",
        "-r",
        str(reqs),
        "-c",
        str(cons),
        *_index_args(index),
    ]
    platform = _split_platform(target.platform)
    wheels_only = not (_same_python(target) and _same_platform(platform))
    if wheels_only:
        # pip resolves for another interpreter or platform from wheels only.
        command += ["--only-binary=:all:", "--implementation", "cp"]
        if target.python_version is not None:
            command += ["--python-version", target.python_version]
        if platform is not None:
            command += _pip_platform_args(platform)
    with _ToolVersion([sys.executable, "-m", "pip", "--version"], "pip") as asked:
        result = _run(command, timeout, "pip", index, launched)
        version = asked.result()
    if result.returncode != 0 or not report.is_file():
        raise _failure(
            result,
            "pip",
            version,
            target,
            wheels_only,
            lambda: "{}.{}".format(*sys.version_info[:2]),
        )
    try:
        document: Any = json.loads(report.read_text("utf-8"))
        packages = {
            canonicalize_name(item["metadata"]["name"]): parse_version(item["metadata"]["version"])
            for item in document["install"]
        }
    except (ValueError, KeyError, TypeError) as error:
        raise ResolutionFailed(f"pip wrote a report compat cannot read: {error}", "pip") from None
    unreached = any(UNREACHABLE_INDEX.search(line) for line in result.stderr.splitlines())
    summary = _unreachable_summary(result.stderr) if unreached else ""
    return Resolution(packages, version, tuple(command), unreached=summary)


def _resolve_uv(
    uv: str,
    reqs: Path,
    cons: Path,
    target: Target,
    index: IndexOptions | None,
    timeout: float,
    launched: Callable[[], None],
    exclude_newer: str | None = None,
) -> Resolution:
    command = [
        uv,
        "pip",
        "compile",
        str(reqs),
        "--constraint",
        str(cons),
        "--no-header",
        "--no-annotate",
        "--quiet",
        "--no-python-downloads",  # a managed Python is never fetched for a resolve
        *_index_args(index),
    ]
    if index is not None and (index.index_url or index.extra_index_urls):
        command.append("--no-config")  # the indexes compat resolved are the whole story
    if target.python_version is not None:
        command += ["--python-version", target.python_version]
    platform = _split_platform(target.platform)
    if platform is not None:
        command += ["--python-platform", _uv_platform(platform)]
    if exclude_newer is not None:
        command += ["--exclude-newer", exclude_newer]
    from compat.resolve.resolvers.staticmeta import entries, uv_toml

    try:
        python = Version(target.python_version or "{}.{}".format(*sys.version_info[:2]))
    except InvalidVersion:
        raise UsageError(f"--python-version {target.python_version!r}: expected X.Y") from None
    known = entries(Version(".".join(str(p) for p in python.release[:2])))
    if known:
        # What compat records of source-only releases, so that uv never builds them
        # (compat.resolve.resolvers.staticmeta; docs/resolver.md).
        config = reqs.parent / "uv.toml"
        config.write_text(uv_toml(known), "utf-8")
        command += ["--config-file", str(config)]
    with _ToolVersion([uv, "--version"], "uv") as asked:
        result = _run(command, timeout, "uv", index, launched)
        version = asked.result()
    if result.returncode != 0:
        raise _failure(
            result, "uv", version, target, build_python=lambda: _uv_build_python(uv, target)
        )
    packages: dict[NormalizedName, Version] = {}
    for line in result.stdout.splitlines():
        match = _UV_PIN.match(line.strip())
        if match is None:
            continue  # blank lines, comments and option lines (--index-url ...)
        try:
            packages[canonicalize_name(match.group(1))] = parse_version(match.group(2))
        except InvalidVersion:
            continue
    return Resolution(packages, version, tuple(command))


def _uv_build_python(uv: str, target: Target) -> str | None:
    """The Python version uv builds source distributions with for `target`: the interpreter it
    finds for `--python-version` (uv falls back to another one, with a warning, where none of
    that version is installed), never downloaded here; None where it cannot tell."""
    request = [target.python_version] if target.python_version is not None else []
    try:
        found = run_captured(
            [uv, "python", "find", "--no-python-downloads", *request], 30, tool_environ()
        )
        if found.returncode != 0 or not found.stdout.strip():
            return None
        asked = run_captured(
            [found.stdout.strip(), "-c", "import sys; print(*sys.version_info[:2], sep='.')"],
            30,
            tool_environ(),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return asked.stdout.strip() or None if asked.returncode == 0 else None


class _ToolVersion:
    """`TOOL --version`, started when made and read when the resolve is done: it runs beside the
    resolve instead of before it (a Python start-up for pip). Leaving the `with` block ends it
    where the resolve failed first."""

    def __init__(self, command: list[str], tool: str) -> None:
        self.tool = tool
        try:
            self.process = subprocess.Popen(
                command,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
            )
        except OSError:
            raise UsageError(f"cannot run {tool}") from None

    def __enter__(self) -> _ToolVersion:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()

    def result(self) -> str:
        """ "uv 0.9.2" / "pip 25.1.1"; UsageError where the tool does not say its version."""
        try:
            stdout, stderr = self.process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            raise UsageError(f"cannot run {self.tool}") from None
        words = stdout.split()
        if self.process.returncode != 0 or len(words) < 2:
            detail = stderr.strip().splitlines()[-1:] or ["no output"]
            raise UsageError(
                f"cannot run {self.tool}: {detail[0]}", hint=f"install {self.tool} for the resolver"
            )
        return f"{self.tool} {words[1]}"
