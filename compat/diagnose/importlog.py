"""The import failures a log shows, read from the traceback's structure (issue 41, item 3).

One streaming pass finds each `ImportError: cannot import name 'X' from 'M'`, `AttributeError:
module 'M' has no attribute 'X'` and `ModuleNotFoundError: No module named 'M.sub'` line (the
first 16), the frames printed above it, and what the log shows of where modules lie. Frames are
read in the forms Python and its common printers write them: CPython's `File "path", line N`,
IPython's `File path:N` and `[path](url) in <module>` / `path in <module>()`, and rich's boxed
`│ path:N in <module> │` (its path wrapped onto a line of its own, `│ :N in` below it). Python
before 3.7 prints `cannot import name 'X'` without the module: the `from M import X` the
traceback echoes above it names M (and where none does, nothing is guessed).

The importing frame is the last one outside M's own package and outside importlib: the code
that asked M for the name (numpy's `__getattr__` raising for `np.warnings` is numpy's frame, not
the importer's). Where modules lie is evidence about M itself: a top-level package seen under
site-packages/dist-packages is an installed distribution; one seen in a frame outside them is
the project's own code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

_LIMIT = 16
_MAX_LINES = 5_000_000
_KINDS = (
    # Python's own words, whoever prints them: `ImportError: cannot import name ...`, loaders
    # that catch it and print its message (ComfyUI's "Error loading module M: cannot import
    # ...", hydra's `ImportError("cannot import ...")`). Python 3.12 may add `. Did you mean`.
    (
        "cannot-import-name",
        re.compile(
            r"\bcannot import name '(?P<name>\w+)' from (?P<partial>partially initialized module )?"
            r"'(?P<module>[\w.]+)'(?:[^(]*\((?P<where>[^)]*)\))?"
        ),
    ),
    (
        "no-attribute",
        re.compile(
            r"AttributeError: (?P<partial>partially initialized )?module '(?P<module>[\w.]+)' "
            r"has no attribute '(?P<name>\w+)'"
        ),
    ),
    (
        "no-module",
        re.compile(
            r"ModuleNotFoundError(?::\s*|\(['\"])No module named '(?P<module>[\w.]+)\.(?P<name>\w+)'"
            r"(?P<not_package>; '[\w.]+' is not a package)?"
        ),
    ),
)
_FRAMES = (
    re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+)'),  # CPython
    re.compile(r"^\s*File (?P<path>\S.*?\.py):(?P<line>\d+)\b"),  # IPython 8
    # IPython 7 and Colab: `[/p/m.py](https://localhost:8080/#) in <module>`, `/p/m.py in f()`
    re.compile(r"^\s*\[?(?P<path>(?:[A-Za-z]:)?[/\\~][^\s\]\[]*\.py)\]?(?:\([^)\s]*\))? in \S"),
    # rich: `│ /p/m.py:163 in <module> │`, or the path alone when it is too long for the box
    re.compile(
        r"^\s*│\s*(?P<path>(?:[A-Za-z]:)?[/\\~]\S*?\.py)(?::(?P<line>\d+))?(?:\s+in\s|\s*│)"
    ),
)
# Python before 3.7 (and 2) name no module: `ImportError: cannot import name 'X'`; the source
# line the traceback echoes above it (`from M import X`, in any printer's dress) names it
_NAME_ONLY = re.compile(r"ImportError: cannot import name '?(?P<name>\w+)'?\s*$")
_SOURCE = re.compile(
    r"^\s*(?:-*>\s*)?(?:❱\s*)?(?:\[?\d+\]?\s+)?from\s+(?P<module>\w[\w.]*)\s+import\s+(?P<names>.*)"
)
_RICH_LINE = re.compile(r"^\s*│\s*:(\d+) in ")  # the line of a rich frame whose path wrapped
_BOX = "│".encode()
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)")
_SITE = re.compile(r"[/\\](?:site|dist)-packages[/\\]([\w.-]+)")
_PATH_PARTS = re.compile(r"[/\\]")


@dataclass(frozen=True)
class ImportLine:
    """One import failure as the log prints it."""

    line: int
    text: str
    kind: str  # cannot-import-name | no-attribute | no-module
    module: str
    name: str
    frame: str  # the importing frame, 'file:line' ('file' where the printer shows no line)
    frames: tuple[str, ...]  # every frame of its traceback, oldest first
    partial: bool  # "partially initialized module": a circular import
    where: str  # the module's location the message prints ('' none): a path, 'unknown location'
    not_package: bool = False  # "; 'M' is not a package": a module file stands in M's place


@dataclass
class ImportLog:
    """The failures, and where the log shows modules to lie."""

    errors: list[ImportLine] = field(default_factory=list)
    installed: set[str] = field(default_factory=set)  # tops seen under site-/dist-packages
    local: set[str] = field(default_factory=set)  # path parts of frames outside them

    def is_local(self, module: str) -> bool:
        """M's top-level package is a directory of the project's own frames (and never seen
        installed): the project's code, not a distribution's."""
        top = module.split(".")[0]
        return top in self.local and top not in self.installed


_EGG = re.compile(
    r"[/\\](?:site|dist)-packages[/\\](?P<dist>[A-Za-z0-9][\w.]*?)-(?P<version>\d[\w.!+]*?)"
    r"(?:-py\d[\d.]*)?(?:-[\w.-]+?)?\.egg[/\\](?P<top>[\w.-]+)"
)


def site_top(path: str) -> str:
    """The top-level module a site-packages path lies in ('' where it lies outside), through an
    egg directory (`site-packages/trl-0.7.4-py3.10.egg/trl/...`) too."""
    egg = _EGG.search(path)
    if egg:
        return egg.group("top").removesuffix(".py")
    hit = _SITE.search(path)
    return hit.group(1).removesuffix(".py") if hit else ""


def path_release(path: str) -> tuple[str, str] | None:
    """(distribution, version) where the path itself names them: an egg directory of
    site-packages (`flash_attn-2.5.8-py3.10-linux-x86_64.egg`); None elsewhere."""
    egg = _EGG.search(path)
    return (egg.group("dist"), egg.group("version")) if egg else None


def _frame(line: str) -> tuple[str, str] | None:
    for pattern in _FRAMES:
        hit = pattern.match(line)
        if hit:
            return hit.group("path"), hit.groupdict().get("line") or ""
    return None


def _importer(frames: list[tuple[str, str]], module: str) -> str:
    """The last frame outside importlib and outside M's own package: the code that asked."""
    top = module.split(".")[0]
    for path, number in reversed(frames):
        if path.startswith("<") or "importlib" in _PATH_PARTS.split(path):
            continue
        if site_top(path) == top:
            continue  # M's own frames (its __getattr__, its __init__ importing a submodule)
        return f"{path}:{number}" if number else path
    return ""


def read_import_log(log: Path) -> ImportLog:
    out = ImportLog()
    frames: list[tuple[str, str]] = []
    source: tuple[str, str] | None = None  # the last `from M import ...` a frame echoed
    try:
        handle = open(log, "rb")  # noqa: SIM115 (closed below)
    except OSError:
        return out
    with handle:
        for number, raw in enumerate(handle, start=1):
            if number > _MAX_LINES or len(out.errors) >= _LIMIT:
                break
            if (
                b".py" not in raw
                and b"Error" not in raw
                and b"cannot import" not in raw
                and not (frames and (_BOX in raw or b"import" in raw))  # a source echo, rich
            ):
                continue
            line = raw[:4096].decode("utf-8", "replace").rstrip("\r\n")
            if _TRACEBACK.search(line):
                frames = []
            if frames and not frames[-1][1] and (wrapped := _RICH_LINE.match(line)):
                frames[-1] = (frames[-1][0], wrapped.group(1))
                continue
            if (frame := _frame(line)) is not None:
                frames.append(frame)
                _note_path(out, frame[0])
                source = None
                continue
            if frames and (echo := _SOURCE.match(line)):
                source = (echo.group("module"), echo.group("names"))
                continue
            for top in _SITE.findall(line):
                out.installed.add(
                    site_top(line) if top.endswith(".egg") else top.removesuffix(".py")
                )
            if _error(out, number, line, frames, source):
                frames, source = [], None
    return out


def _note_path(out: ImportLog, path: str) -> None:
    top = site_top(path)
    if top:
        out.installed.add(top)
    elif not path.startswith("<"):
        out.local.update(p for p in _PATH_PARTS.split(path)[:-1] if p.isidentifier())


def _error(
    out: ImportLog,
    number: int,
    line: str,
    frames: list[tuple[str, str]],
    source: tuple[str, str] | None,
) -> bool:
    for kind, pattern in _KINDS:
        hit = pattern.search(line)
        if hit is None:
            continue
        module, name = hit.group("module"), hit.group("name")
        return _add(out, number, line, frames, kind, module, name, hit.groupdict())
    old = _NAME_ONLY.search(line)
    if old is None or source is None:
        return False
    name = old.group("name")
    if name not in re.split(r"[\s,()]+", source[1].split("#")[0]):
        return False  # the echoed import is not the one that failed
    return _add(out, number, line, frames, "cannot-import-name", source[0], name, {})


def _add(
    out: ImportLog,
    number: int,
    line: str,
    frames: list[tuple[str, str]],
    kind: str,
    module: str,
    name: str,
    groups: dict[str, str | None],
) -> bool:
    if any((e.kind, e.module, e.name) == (kind, module, name) for e in out.errors):
        return True  # the same failure printed again (a loader repeating its message)
    out.errors.append(
        ImportLine(
            number,
            line.strip(),
            kind,
            module,
            name,
            _importer(frames, module),
            tuple(f"{p}:{n}" if n else p for p, n in frames),
            bool(groups.get("partial")),
            (groups.get("where") or "").strip(),
            bool(groups.get("not_package")),
        )
    )
    return True
