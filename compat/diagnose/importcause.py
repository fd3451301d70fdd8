"""explain's reading of an import failure (issue 41, item 3), from the same knowledge doctor's
import check uses: `ImportError: cannot import name 'X' from 'M'`, `AttributeError: module 'M'
has no attribute 'X'` and `ModuleNotFoundError: No module named 'M.sub'`.

For each such line (the first 16), the traceback frame above it names the importing file, hence
the importing package; the module's distribution and version come from the environment given
(`--python`/`--path`) or the versions the log prints, and where neither shows it the cause asks
for it. Given an environment, the installed module is read as doctor reads it: it defines the
name (the log came from another environment, or it was repaired since), it does not (confirmed
by the files), or its names cannot be known without running it. No rule per name: the mechanism
is the same for every module and name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compat.model import Environment, Facts

_LIMIT = 16
_MAX_LINES = 5_000_000
_PATTERNS = (
    # Python's own words, whoever prints them: `ImportError: cannot import name ...`, and loaders
    # that catch it and print its message (ComfyUI's "Error loading module M: cannot import ...")
    ("cannot-import-name", re.compile(r"\bcannot import name '(\w+)' from '([\w.]+)'")),
    (
        "no-attribute",
        re.compile(
            r"AttributeError: (?:partially initialized )?module '([\w.]+)' has no attribute '(\w+)'"
        ),
    ),
    ("no-module", re.compile(r"ModuleNotFoundError: No module named '([\w.]+)\.(\w+)'")),
)
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in ')
_SITE = re.compile(r"[/\\](?:site|dist)-packages[/\\]([\w.-]+)")


@dataclass(frozen=True)
class ImportCause:
    line: int  # of the error in the log
    text: str
    kind: str  # cannot-import-name | no-attribute | no-module
    module: str
    name: str
    importer: str  # the frame's file:line, '' where the log prints no traceback above it
    importer_package: str  # the top-level package the frame's file lies in ('' unknown)
    importer_release: str  # '' where neither the environment nor the log shows it
    distribution: str  # of the module
    version: str  # of the module's distribution: '' where not shown
    version_from: str  # "environment", "log" or ""
    installed: str  # defines | lacks | unknown | not-read
    detail: str  # the cause, in words

    @property
    def cause(self) -> str:
        """`confirmed` (the installed files lack the name), `possible` (the message itself says
        the module as it ran does not define the name: a release without it, whichever the log
        does not show) or `ruled-out` (the installed files define it). Only `cannot import name`
        states that: an attribute missing at run time or a missing submodule has other causes
        too (a circular import, a name shadowed by a local file), so those are not listed."""
        if self.installed == "lacks":
            return "confirmed"
        if self.installed == "defines":
            return "ruled-out"
        return "possible" if self.kind == "cannot-import-name" else ""

    def document(self) -> dict[str, object]:
        return {
            "line": self.line,
            "text": self.text,
            "kind": self.kind,
            "module": self.module,
            "name": self.name,
            "importer": self.importer,
            "importer_package": self.importer_package,
            "importer_release": self.importer_release,
            "distribution": self.distribution,
            "version": self.version,
            "version_from": self.version_from,
            "installed": self.installed,
            "detail": self.detail,
        }


def import_errors(log: Path) -> list[tuple[int, str, str, str, str, str]]:
    """(line, text, kind, module, name, last frame 'file:line') of each import failure line."""
    found: list[tuple[int, str, str, str, str, str]] = []
    frame = ""
    try:
        handle = open(log, "rb")  # noqa: SIM115 (closed below)
    except OSError:
        return found
    with handle:
        for number, raw in enumerate(handle, start=1):
            if number > _MAX_LINES or len(found) >= _LIMIT:
                break
            if b'File "' not in raw and b"Error: " not in raw and b"cannot import" not in raw:
                continue
            line = raw[:4096].decode("utf-8", "replace").rstrip("\r\n")
            match = _FRAME.match(line)
            if match:
                if not match.group(1).startswith("<frozen"):
                    frame = f"{match.group(1)}:{match.group(2)}"
                continue
            for kind, pattern in _PATTERNS:
                hit = pattern.search(line)
                if hit is None:
                    continue
                if kind == "cannot-import-name":
                    name, module = hit.group(1), hit.group(2)
                else:
                    module, name = hit.group(1), hit.group(2)
                if any(f[2:5] == (kind, module, name) for f in found):
                    break  # the same failure printed again (a loader repeating its message)
                found.append((number, line.strip(), kind, module, name, frame))
                frame = ""
                break
    return found


def explain_imports(log: Path, env: Environment | None, facts: Facts) -> tuple[ImportCause, ...]:
    errors = import_errors(log)
    if not errors:
        return ()
    mods = sources = None
    owners: dict[str, str] = {}
    if env is not None:
        from compat.facts.pymodules import cache_for, python_modules

        sources = cache_for(env)
        mods = python_modules(env, sources)
        owners = {m: f.dist for m, f in mods.modules.items()}
    causes = []
    for number, text, kind, module, name, frame in errors:
        causes.append(
            _cause(number, text, kind, module, name, frame, env, facts, mods, sources, owners)
        )
    if sources is not None:
        sources.save()
    return tuple(causes)


def _distribution(module: str, owners: dict[str, str]) -> tuple[str, bool]:
    """(distribution of the module, whether that is read from a RECORD rather than assumed from
    the module's name)."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        owner = owners.get(".".join(parts[:end]))
        if owner:
            return owner, True
    from packaging.utils import canonicalize_name

    return str(canonicalize_name(parts[0])), False


def _version(dist: str, env: Environment | None, facts: Facts) -> tuple[str, str]:
    from packaging.utils import canonicalize_name

    key = canonicalize_name(dist)
    if env is not None and key in env.packages:
        return str(env.packages[key].version), "environment"
    fact = facts.packages.get(key)
    if fact is not None and len(fact.versions) == 1:
        return str(fact.versions[0]), "log"
    return "", ""


def _cause(
    number: int,
    text: str,
    kind: str,
    module: str,
    name: str,
    frame: str,
    env: Environment | None,
    facts: Facts,
    mods: object,
    sources: object,
    owners: dict[str, str],
) -> ImportCause:
    from compat.kb.importtable import defining_releases
    from compat.kb.pythoncheck import defines_name

    site = _SITE.search(frame)
    importer_top = site.group(1).removesuffix(".py") if site else ""
    importer_dist = _distribution(importer_top, owners)[0] if importer_top else ""
    importer_release = _version(importer_dist, env, facts)[0] if importer_dist else ""
    dist, read = _distribution(module, owners)
    version, version_from = _version(dist, env, facts)
    what = f"`{name}`" if kind != "no-module" else f"the module {module}.{name}"
    who = (
        f"{importer_dist} {importer_release or '(release not shown)'} ({frame})"
        if importer_dist
        else (frame or "the code (no traceback frame above the error)")
    )
    installed, detail = "not-read", ""
    if mods is not None and sources is not None:
        if kind == "no-module":
            answer, why = defines_name(mods, sources, f"{module}.{name}", "")  # type: ignore[arg-type]
        else:
            answer, why = defines_name(mods, sources, module, name)  # type: ignore[arg-type]
        if answer is True:
            installed = "defines"
            detail = (
                f"the installed {dist} {version} provides {what}: this environment does not "
                "fail so; the log came from another one, or it was repaired since"
            )
        elif answer is False:
            installed = "lacks"
            detail = f"confirmed by the installed files: {dist} {version} does not provide {what}"
        else:
            installed = "unknown"
            detail = f"{module}'s names cannot be known without running it ({why})"
    if not detail:
        if version:
            detail = f"{dist} {version} (from the {version_from}) does not provide {what}"
        else:
            detail = (
                f"which {dist} release is installed? the log does not show it: give --python or "
                f"--path (or `pip show {dist}`) to read it"
            )
            if kind == "cannot-import-name":  # the message says what the module lacks
                detail = (
                    f"the {dist} that ran does not provide {what} (the message says so); " + detail
                )
    detail = f"{who} imports {what} from {module}; {detail}"
    if installed != "defines":
        known = defining_releases(module, name) if kind != "no-module" else None
        if known is not None:
            detail += (
                f". The releases of {known[0]} that define it (of those compat read, "
                f"compat/data/python-imports.json): {known[1]}; one of them, or a release of "
                f"{importer_dist or 'the importer'} that no longer imports it, fixes it"
            )
        else:
            detail += (
                f". The releases of {dist} that provide it are not known to compat yet (no table "
                f"of its releases): a release of {importer_dist or 'the importer'} that no longer "
                f"imports it, or the {dist} release it was written against, fixes it"
            )
    if not read and mods is not None:
        detail += f" ({dist} is assumed from the module's name: no installed RECORD lists {module})"
    return ImportCause(
        number,
        text,
        kind,
        module,
        name,
        frame,
        importer_top,
        importer_release,
        dist,
        version,
        version_from,
        installed,
        detail,
    )
