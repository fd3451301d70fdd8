"""explain's reading of an import failure (issue 41, item 3), from the same knowledge doctor's
import check uses: `ImportError: cannot import name 'X' from 'M'`, `AttributeError: module 'M'
has no attribute 'X'` and `ModuleNotFoundError: No module named 'M.sub'`.

For each such line (the first 16; compat.diagnose.importlog reads them and their frames), the
importing frame names the importing package; the module's distribution and version come from the
environment given (`--python`/`--path`) or the versions the log prints, and where neither shows
it the cause asks for it. Given an environment, the installed module is read as doctor reads it:
it defines the name (the log came from another environment, or it was repaired since), it does
not (confirmed by the files), or its names cannot be known without running it. Without one, the
generated import table judges the release the log shows where it read it: it defines the name
(ruled out: not a release that lacks it) or it does not (confirmed).

Nothing firmer than the log settles. The message states the module as it ran lacks the name; it
is no release's where the log shows otherwise: a partially initialized module (a circular
import), `(unknown location)` (a namespace package), the module's file outside site-packages
named like it (a shadow), or the project's own package. A missing attribute or submodule is a
possible cause only where the log shows the module to be a distribution's. No rule per name:
the mechanism is the same for every module and name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compat.diagnose.importlog import (
    ImportLine,
    ImportLog,
    path_release,
    read_import_log,
    site_top,
)

if TYPE_CHECKING:
    from compat.model import Environment, Facts


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
    version_from: str  # "environment", "log", "path" (an egg directory's name) or ""
    installed: str  # defines | lacks | unknown | not-read
    detail: str  # the cause, in words
    # confirmed | possible | ruled-out | '' (not a release cause: see `detail`)
    cause: str = ""
    defined_in: str = ""  # the releases read that define the name, as runs ('' not known)
    defined_from: str = ""  # where `defined_in` was read: the table's path
    asks: tuple[str, ...] = ()  # the facts the cause needs and the log does not show

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
            "cause": self.cause,
            "defined_in": self.defined_in,
            "defined_from": self.defined_from,
            "asks": list(self.asks),
            "detail": self.detail,
        }


def explain_imports(
    log: Path, env: Environment | None, facts: Facts, known: frozenset[str] = frozenset()
) -> tuple[ImportCause, ...]:
    """Each import failure of the log, judged. `known`: the distributions compat's knowledge
    names (the rules' packages): a module of one is a distribution's, not the project's."""
    read = read_import_log(log)
    if not read.errors:
        return ()
    mods = sources = None
    owners: dict[str, str] = {}
    if env is not None:
        from compat.facts.pymodules import cache_for, python_modules

        sources = cache_for(env)
        mods = python_modules(env, sources)
        owners = {m: f.dist for m, f in mods.modules.items()}
    causes = [
        _cause(error, read, known, env, facts, mods, sources, owners) for error in read.errors
    ]
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


def _from_path(dist: str, paths: tuple[str, ...]) -> str:
    """The release of `dist` a path names (an egg directory of site-packages), '' none."""
    from compat.names import canonicalize_name

    for path in paths:
        named = path_release(path)
        if named is not None and canonicalize_name(named[0]) == canonicalize_name(dist):
            return named[1]
    return ""


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
    error: ImportLine,
    read: ImportLog,
    known: frozenset[str],
    env: Environment | None,
    facts: Facts,
    mods: object,
    sources: object,
    owners: dict[str, str],
) -> ImportCause:
    kind, module, name = error.kind, error.module, error.name
    importer_top = site_top(error.frame)
    importer_dist = _distribution(importer_top, owners)[0] if importer_top else ""
    importer_release = _version(importer_dist, env, facts)[0] if importer_dist else ""
    if importer_dist and not importer_release:
        importer_release = _from_path(importer_dist, (error.frame,))
    dist, from_record = _distribution(module, owners)
    version, version_from = _version(dist, env, facts)
    if not version:
        # the module's own files, where an egg directory names its release
        own = [f for f in error.frames if site_top(f) == module.split(".")[0]]
        version = _from_path(dist, (error.where, *own))
        version_from = "path" if version else ""
    what = f"`{name}`" if kind != "no-module" else f"the module {module}.{name}"
    who = (
        f"{importer_dist} {importer_release or '(release not shown)'} ({error.frame})"
        if importer_dist
        else (error.frame or "the code (no traceback frame above the error)")
    )
    installed, detail = _installed(kind, module, name, dist, version, mods, sources)
    cause, detail = _verdict(
        error, read, known, installed, detail, (dist, version, version_from, from_record)
    )
    asks: list[str] = []
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
            else:
                detail = f"the {module} that ran does not provide {what}; " + detail
    if cause in ("possible", "confirmed"):
        if not version:
            asks.append(f"packages.{dist}")
        if importer_dist and not importer_release:
            asks.append(f"packages.{importer_dist}")
    detail = f"{who} imports {what} from {module}; {detail}"
    from compat.kb.importtable import TABLE, defining_releases

    known_in = (
        defining_releases(f"{module}.{name}", "")
        if kind == "no-module"
        else defining_releases(module, name)
    )
    defined, defined_from = (known_in[1], TABLE) if known_in is not None else ("", "")
    if cause in ("possible", "confirmed") or installed in ("lacks", "unknown"):
        if known_in is not None:
            detail += (
                f". The releases of {known_in[0]} that define it (of those compat read, "
                f"{TABLE}): {known_in[1]}; one of them, or a release of "
                f"{importer_dist or 'the importer'} that no longer imports it, fixes it"
            )
        else:
            detail += (
                f". The releases of {dist} that provide it are not known to compat yet (no table "
                f"of its releases): a release of {importer_dist or 'the importer'} that no longer "
                f"imports it, or the {dist} release it was written against, fixes it"
            )
    if not from_record and mods is not None:
        detail += f" ({dist} is assumed from the module's name: no installed RECORD lists {module})"
    return ImportCause(
        error.line,
        error.text,
        kind,
        module,
        name,
        error.frame,
        importer_top,
        importer_release,
        dist,
        version,
        version_from,
        installed,
        detail,
        cause,
        defined,
        defined_from,
        tuple(asks),
    )


def _verdict(
    error: ImportLine,
    read: ImportLog,
    known: frozenset[str],
    installed: str,
    detail: str,
    shown: tuple[str, str, str, bool],
) -> tuple[str, str]:
    """(cause, detail): the installed files' word first, then what shows the failure is no
    release's, then the table on the release the log shows, then what the message states.
    `shown`: the module's distribution, its version and where that was read, and whether a
    RECORD names the distribution."""
    kind, module, name = error.kind, error.module, error.name
    dist, version, version_from, from_record = shown
    what = f"`{name}`" if kind != "no-module" else f"the module {module}.{name}"
    key = f"{module}.{name}:" if kind == "no-module" else f"{module}:{name}"
    table = _table(key, version) if version and installed in ("not-read", "unknown") else None
    not_release = _not_a_release(error, read)
    key = f"{module}.{name}:" if kind == "no-module" else f"{module}:{name}"
    table = _table(key, version) if version and installed in ("not-read", "unknown") else None
    not_release = _not_a_release(error, read)
    if installed == "lacks":
        cause = "confirmed"
    elif installed == "defines":
        cause = "ruled-out"
    elif not_release:
        cause, detail = "", not_release
    elif table is not None and table[0] == "defines":
        cause = "ruled-out"
        detail = (
            f"{dist} {version} (from the {version_from}) defines {what}: compat/data/"
            f"python-imports.json read it in {table[1]}'s files. Not a release that lacks it: "
            "the log's version is not the one that ran, or importing the name failed inside "
            f"{module} (an error of its own above, a dependency of {module} missing)"
        )
    elif table is not None:
        cause = "confirmed"
        detail = (
            f"{dist} {version} (from the {version_from}) does not define {what}: compat/data/"
            f"python-imports.json read {table[1]}'s files"
        )
    elif _states(error, read, known, dist, version, from_record):
        cause = "possible"
    else:
        cause = ""
        detail = (
            f"not listed as a cause: the log does not show {module.split('.')[0]} to be an "
            f"installed distribution (no site-packages path, no version, not a package compat "
            f"knows), and {what} missing from the project's own module is the project's matter"
        )
    return cause, detail


def _installed(
    kind: str,
    module: str,
    name: str,
    dist: str,
    version: str,
    mods: object,
    sources: object,
) -> tuple[str, str]:
    """The installed files' word (`--python`/`--path`): defines | lacks | unknown | not-read."""
    if mods is None or sources is None:
        return "not-read", ""
    from compat.kb.pythoncheck import defines_name

    what = f"`{name}`" if kind != "no-module" else f"the module {module}.{name}"
    if kind == "no-module":
        answer, why = defines_name(mods, sources, f"{module}.{name}", "")  # type: ignore[arg-type]
    else:
        answer, why = defines_name(mods, sources, module, name)  # type: ignore[arg-type]
    if answer is True:
        return "defines", (
            f"the installed {dist} {version} provides {what}: this environment does not "
            "fail so; the log came from another one, or it was repaired since"
        )
    if answer is False:
        return (
            "lacks",
            f"confirmed by the installed files: {dist} {version} does not provide {what}",
        )
    return "unknown", f"{module}'s names cannot be known without running it ({why})"


def _table(key: str, release: str) -> tuple[str, str] | None:
    """('defines' or 'lacks', the table's spelling of the release) where compat/data/
    python-imports.json read `release` of the module's distribution and can tell; else None."""
    from compat.kb.importtable import families
    from compat.versions import parse_version

    for family in families():
        if key not in family.lacking:
            continue
        try:
            spelled = family.spellings[""].get(parse_version(release))
        except ValueError:
            return None
        if spelled is None or spelled in family.unknown.get(key, frozenset()):
            return None
        return ("lacks" if spelled in family.lacking[key] else "defines"), spelled
    return None


def _not_a_release(error: ImportLine, read: ImportLog) -> str:
    """Why the failure is no release's, where the message or the traceback shows it ('' none)."""
    top = error.module.split(".")[0]
    if error.partial:
        return (
            f"not listed as a cause: {error.module} is partially initialized, a circular import "
            f"(often a file of the project named like a module {top} imports), not a release "
            "that lacks the name"
        )
    if error.not_package:
        return (
            f"not listed as a cause: Python says {top} is not a package: a module file named "
            f"{top} (the project's, or a leftover) stands where the {top} distribution should"
        )
    if error.where == "unknown location":
        return (
            f"not listed as a cause: `(unknown location)`: the {error.module} Python found has "
            "no file, a namespace package (a directory without __init__.py: a broken install, or "
            f"a directory named {top} on the path), not a release that lacks the name"
        )
    where = error.where.replace("\\", "/")
    leaf = error.module.split(".")[-1]
    if where and not site_top(error.where) and where.endswith(f"/{leaf}.py"):
        return (
            f"not listed as a cause: the {error.module} that ran is {error.where}, a file outside "
            f"site-packages named like the package: it shadows the installed {top}"
        )
    if read.is_local(error.module):
        return (
            f"not listed as a cause: {top} is the project's own package (its frames lie outside "
            "site-packages), not a distribution's release"
        )
    return ""


def _states(
    error: ImportLine,
    read: ImportLog,
    known: frozenset[str],
    dist: str,
    version: str,
    from_record: bool,
) -> bool:
    """Whether the message states that the installed module, as it ran, lacks the name.
    `cannot import name` does. A missing submodule does where the module is a distribution's
    (the log shows it installed, its version, a RECORD lists it, or compat knows the
    distribution): a file shadowing it has Python add "is not a package", read apart. A missing
    attribute has more causes (a submodule never imported, a stand-in object): it does only
    where the log shows the module installed (a site-packages path of it, its version, a RECORD)
    or an installed distribution's frame asks a distribution compat knows for it."""
    if error.kind == "cannot-import-name":
        return True
    top = error.module.split(".")[0]
    shown = top in read.installed or bool(version) or from_record
    from compat.kb.importtable import families

    distribution = dist in known or any(f.module == top for f in families())
    if error.kind == "no-attribute":
        # an installed library asking a distribution compat knows (diffusers for
        # torch.float8_e4m3fn); a resolver (hydra's getattr) asking the project's own package
        # is not one
        return shown or (bool(site_top(error.frame)) and distribution)
    return shown or distribution
