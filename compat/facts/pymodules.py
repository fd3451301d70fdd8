"""The Python modules of an environment and whose they are, read from each distribution's RECORD
(issue 41), and a reader of their sources through a per-file cache.

A RECORD line `pkg/sub/mod.py` is the module `pkg.sub.mod` of that distribution,
`pkg/sub/__init__.py` the package `pkg.sub`, `pkg/_C.cpython-311-x86_64-linux-gnu.so` the extension
module `pkg._C`; a directory holding modules but no `__init__.py` is a namespace package. Paths
that leave site-packages (`../../bin/x`) or are not module names are not modules. Distributions
without a RECORD (conda, system packagers: optional since PEP 627) have no modules here: what
imports them or what they import is not judged.

Cache: what a RECORD lists is kept keyed by the RECORD's stat signature; what a source file
imports (its column-0 import statements) and defines (its `ast`), keyed by the file's stat
signature (compat.files.jsoncache.signature), in one cache file per environment. A warm run
stats every RECORD and source file and reads none.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from compat.files.pysource import Defines, Imported, SourceError
from compat.model import Environment

_FORMAT = 8  # 8: a finding leads with the site the real import runs first
_EXTENSION_SUFFIXES = (".so", ".pyd")
_SKIPPED_DIRS = frozenset({"tests", "test", "_vendor", "vendored", "__pycache__"})


class ModuleFile(NamedTuple):
    dist: str  # the normalized name of the distribution whose RECORD lists it
    path: str  # absolute
    kind: str  # "py" (a module), "pkg" (a package's __init__.py), "ext" (an extension module)


class PyModules(NamedTuple):
    modules: dict[str, ModuleFile]  # dotted name -> its file
    namespaces: frozenset[str]  # directories of modules without an __init__.py
    tops: dict[str, tuple[str, ...]]  # distribution -> its top-level modules and packages
    scanned: tuple[tuple[str, str], ...]  # (module, path) of the sources whose imports count


def _module_of(relpath: str) -> tuple[str, str] | None:
    """(dotted module, kind) of a RECORD path, or None when it is not a module."""
    if relpath.startswith(("/", "../")) or "/../" in relpath or "\\" in relpath:
        return None
    head, _, name = relpath.rpartition("/")
    parts = head.split("/") if head else []
    if name.endswith(".py"):
        stem, kind = name[:-3], "py"
        if stem == "__init__":
            if not parts:
                return None
            stem, kind = "", "pkg"
    elif name.endswith(_EXTENSION_SUFFIXES) and ".so." not in name:
        stem, kind = name.partition(".")[0], "ext"
    else:
        return None
    if stem:
        parts.append(stem)
    if not parts or not all(p.isidentifier() for p in parts):
        return None
    return ".".join(parts), kind


def python_modules(env: Environment, cache: SourceCache) -> PyModules:
    """Every module of every distribution of `env` installed with a RECORD."""
    modules: dict[str, ModuleFile] = {}
    dirs: set[str] = set()
    tops: dict[str, set[str]] = {}
    scanned: list[tuple[str, str]] = []
    for package in sorted(env.packages.values(), key=lambda p: p.name):
        origin = package.origin
        if origin is None or origin.line is not None or not origin.path.endswith(".dist-info"):
            continue
        site = os.path.dirname(os.path.abspath(origin.path))
        record = os.path.join(os.path.abspath(origin.path), "RECORD")
        # a RECORD missing or unreadable is one of compat.facts.native's notes already
        listed, _problem = cache.record(record)
        for relpath in listed:
            found = _module_of(relpath)
            if found is None:
                continue
            name, kind = found
            if name in modules and modules[name].kind != "ext":
                continue  # two owners: the first (sorted) keeps it
            path = site + "/" + relpath
            modules[name] = ModuleFile(package.name, path, kind)
            tops.setdefault(package.name, set()).add(name.partition(".")[0])
            parts = name.split(".")
            depth = len(parts) + 1 if kind == "pkg" else len(parts)  # the directories above it
            dirs.update(".".join(parts[:i]) for i in range(1, depth))
            if kind != "ext" and not _SKIPPED_DIRS.intersection(parts[:-1]):
                scanned.append((name, path))
    namespaces = frozenset(d for d in dirs if d not in modules)
    return PyModules(
        modules,
        namespaces,
        {name: tuple(sorted(t)) for name, t in tops.items()},
        tuple(scanned),
    )


class SourceCache:
    """RECORD listings, scanned imports and read definitions, keyed by stat signatures (see
    the module's docstring). `save()` writes what this run used."""

    def __init__(self, path: Path | None) -> None:
        from compat.files.jsoncache import read_cache

        self.path = path
        stored = read_cache(path) if path is not None else None
        if not (isinstance(stored, dict) and stored.get("format") == _FORMAT):
            stored = {}
        self.old: dict[str, dict[str, Any]] = {
            part: stored[part] if isinstance(stored.get(part), dict) else {}
            for part in ("records", "imports", "defines", "top", "lazy", "all", "binds")
        }
        self.new: dict[str, dict[str, Any]] = {part: {} for part in self.old}
        self.now = time.time_ns()
        self.signed: dict[str, list[int] | None] = {}  # every file this run's answer rests on
        self.parsed = 0  # files whose ast this run built
        self.read = 0  # files this run read (cache misses)

    def _signature(self, path: str) -> list[int] | None:
        from compat.files.jsoncache import signature

        try:
            sig = signature(os.stat(path), self.now)
        except (OSError, ValueError):
            sig = None
        self.signed[path] = sig
        return sig

    def _cached(self, part: str, path: str, sig: list[int] | None) -> Any:
        entry = self.new[part].get(path) or self.old[part].get(path)
        if sig is not None and type(entry) is list and len(entry) == 2 and entry[0] == sig:
            self.new[part][path] = entry
            return entry[1]
        return None

    def _keep(self, part: str, path: str, sig: list[int] | None, value: Any) -> None:
        if sig is not None:
            self.new[part][path] = [sig, value]

    def record(self, record: str) -> tuple[list[str], str]:
        """The paths a RECORD lists that could be modules, and a problem line ('' if none)."""
        sig = self._signature(record)
        cached = self._cached("records", record, sig)
        if isinstance(cached, list) and len(cached) == 2 and isinstance(cached[0], list):
            return [p for p in cached[0] if isinstance(p, str)], str(cached[1])
        listed, problem = _read_record(record)
        self._keep("records", record, sig, [listed, problem])
        return listed, problem

    def imports(self, path: str) -> list[Imported] | str:
        """The file's column-0 imports, or why it could not be read."""
        sig = self._signature(path)
        cached = self._cached("imports", path, sig)
        if isinstance(cached, str):
            return cached
        if isinstance(cached, list):
            try:
                return [
                    Imported(a, b, c, tuple(d) if d is not None else None) for a, b, c, d in cached
                ]
            except (TypeError, ValueError):
                pass
        from compat.files.pysource import read_source, scan_imports

        self.read += 1
        try:
            found: list[Imported] | str = scan_imports(read_source(path))
        except SourceError as error:
            found = str(error)
        self._keep(
            "imports",
            path,
            sig,
            found
            if isinstance(found, str)
            else [[i.line, i.level, i.module, i.names] for i in found],
        )
        return found

    def defines(self, path: str) -> Defines | str:
        """What the file defines (compat.files.pysource.read_defines), or why it could not be
        read."""
        sig = self._signature(path)
        cached = self._cached("defines", path, sig)
        if isinstance(cached, str):
            return cached
        if isinstance(cached, list) and len(cached) == 9:
            try:
                return _defines_from(cached)
            except (TypeError, ValueError):
                pass
        from compat.files.pysource import parse, read_defines, read_source

        self.parsed += 1
        try:
            data = read_source(path)
            found: Defines | str = read_defines(parse(data, path), data)
        except SourceError as error:
            found = str(error)
        except RecursionError:
            found = "nested too deeply to read"
        self._keep("defines", path, sig, found if isinstance(found, str) else _defines_to(found))
        return found

    def binds(self, path: str, names: set[str]) -> set[str]:
        """The names of `names` the file surely binds, read cheaply (compat.files.pysource
        .binds_at_top); the answers are kept per file."""
        sig = self._signature(path)
        cached = self._cached("binds", path, sig)
        known: dict[str, bool] = dict(cached) if isinstance(cached, dict) else {}
        asked = [n for n in names if n not in known]
        if asked:
            from compat.files.pysource import binds_at_top, read_source

            try:
                data = read_source(path)
            except SourceError:
                data = b""
            for name in asked:
                known[name] = bool(data) and binds_at_top(data, name)
            self._keep("binds", path, sig, known)
        return {n for n in names if known.get(n) is True}

    def all_names(self, path: str) -> tuple[str, ...] | None:
        """The module's `__all__` literal read cheaply (compat.files.pysource.scan_all)."""
        sig = self._signature(path)
        cached = self._cached("all", path, sig)
        if isinstance(cached, list) and len(cached) == 1:
            value = cached[0]
            return tuple(str(n) for n in value) if isinstance(value, list) else None
        from compat.files.pysource import read_source, scan_all

        self.read += 1
        try:
            found = scan_all(read_source(path))
        except SourceError:
            found = None
        self._keep("all", path, sig, [list(found) if found is not None else None])
        return found

    def top_level(self, path: str) -> set[tuple[int, int, str]] | str:
        """The import statements of the module's own body, by its `ast` (asked only of a file
        with a claim to confirm)."""
        sig = self._signature(path)
        cached = self._cached("top", path, sig)
        if isinstance(cached, str):
            return cached
        if isinstance(cached, list):
            try:
                return {(int(a), int(b), str(c)) for a, b, c in cached}
            except (TypeError, ValueError):
                pass
        from compat.files.pysource import parse, read_source, top_level_imports

        self.parsed += 1
        try:
            found: set[tuple[int, int, str]] | str = top_level_imports(
                parse(read_source(path), path)
            )
        except SourceError as error:
            found = str(error)
        except RecursionError:
            found = "nested too deeply to read"
        self._keep("top", path, sig, found if isinstance(found, str) else sorted(found))
        return found

    def lazy_is_static(self, path: str, name: str) -> bool | tuple[int, str]:
        """Whether the class or function `name` defined in the file makes a lazy module whose
        `__getattr__` answers only its tables; (level, dotted path) where the file imports it
        from elsewhere (asked only of a module with a claim to confirm)."""
        sig = self._signature(path)
        key = f"{path}\0{name}"
        cached = self._cached("lazy", key, sig)
        if isinstance(cached, bool):
            return cached
        if isinstance(cached, list) and len(cached) == 2:
            return int(cached[0]), str(cached[1])
        from compat.files.pysource import find_definition, parse, read_source, static_getattr

        self.parsed += 1
        answer: bool | tuple[int, str]
        try:
            found = find_definition(parse(read_source(path), path), name)
            answer = (
                False
                if found is None
                else found
                if isinstance(found, tuple)
                else static_getattr(found)
            )
        except (SourceError, RecursionError):
            answer = False
        self._keep("lazy", key, sig, list(answer) if isinstance(answer, tuple) else answer)
        return answer

    def save(self) -> None:
        from compat.files.jsoncache import write_cache

        if self.path is not None and self.new != self.old:
            write_cache(self.path, {"format": _FORMAT, **self.new})


def _defines_to(d: Defines) -> list[Any]:
    return [
        sorted(d.names),
        d.dynamic,
        [list(s) for s in d.stars],
        [list(s) for s in d.dir_of],
        list(d.structure),
        list(d.all_names) if d.all_names is not None else None,
        d.all_dynamic,
        d.aliases,
        list(d.lazy_from) if d.lazy_from is not None else None,
    ]


def _pairs(value: Any) -> tuple[tuple[int, str], ...]:
    return tuple((int(level), str(module)) for level, module in value)


def _defines_from(entry: list[Any]) -> Defines:
    names, dynamic, stars, dir_of, structure, all_names, all_dynamic, aliases, lazy = entry
    if not isinstance(names, list) or not isinstance(dynamic, str):
        raise ValueError("not a defines entry")
    return Defines(
        names=frozenset(str(n) for n in names),
        dynamic=dynamic,
        stars=_pairs(stars),
        dir_of=_pairs(dir_of),
        structure=tuple(str(s) for s in structure),
        all_names=tuple(str(n) for n in all_names) if isinstance(all_names, list) else None,
        all_dynamic=bool(all_dynamic),
        aliases=bool(aliases),
        lazy_from=(int(lazy[0]), str(lazy[1])) if isinstance(lazy, list) else None,
    )


def _read_record(record: str) -> tuple[list[str], str]:
    from compat.errors import CompatError
    from compat.files.readers import decode, read_bytes

    try:
        text = decode(read_bytes(Path(record), "metadata"), record)
    except CompatError as error:
        return [], str(error)
    listed = []
    for line in text.splitlines():
        path = line.split(",", 1)[0].strip('"')
        if path.endswith((".py", *_EXTENSION_SUFFIXES)):
            listed.append(path)
    return listed, ""


def cache_for(env: Environment) -> SourceCache:
    from compat.files.jsoncache import cache_file

    return SourceCache(cache_file("python-imports", "\0".join(env.paths)))


def unreadable(problems: Iterable[tuple[str, str]]) -> list[str]:
    """One note per file that could not be read as Python source."""
    return [f"{path}: not read as Python source: {why}" for path, why in problems]


class Summary:
    """The last answer for an environment and the signature of every file it rested on (each
    RECORD, every source scanned, every module read): a warm run stats them and reads nothing
    else. Any file changed, added to a RECORD or too young to vouch for itself: no answer."""

    def __init__(self, env: Environment) -> None:
        from compat.files.jsoncache import cache_file

        self.path = cache_file("python-summary", "\0".join(env.paths))
        self.records = sorted(
            os.path.join(os.path.abspath(p.origin.path), "RECORD")
            for p in env.packages.values()
            if p.origin is not None
            and p.origin.line is None
            and p.origin.path.endswith(".dist-info")
        )

    def answer(self) -> Any:
        from compat.files.jsoncache import read_cache, signature

        stored = read_cache(self.path)
        if not (isinstance(stored, dict) and stored.get("format") == _FORMAT):
            return None
        files, records = stored.get("files"), stored.get("records")
        if not isinstance(files, dict) or records != self.records:
            return None
        now = time.time_ns()
        for path, sig in files.items():
            try:
                if signature(os.stat(path), now) != sig:
                    return None
            except (OSError, ValueError):
                if sig is not None:
                    return None
        return stored.get("answer")

    def save(self, signed: dict[str, list[int] | None], answer: Any) -> None:
        from compat.files.jsoncache import write_cache

        if any(sig is None for path, sig in signed.items() if path.endswith("RECORD")):
            return
        if any(sig is None and os.path.exists(path) for path, sig in signed.items()):
            return  # a file too young to vouch for itself
        write_cache(
            self.path,
            {"format": _FORMAT, "records": self.records, "files": signed, "answer": answer},
        )
