"""The Python modules of an environment and whose they are, read from each distribution's RECORD
(issue 41), and a reader of their sources through a per-file cache.

A RECORD line `pkg/sub/mod.py` is the module `pkg.sub.mod` of that distribution,
`pkg/sub/__init__.py` the package `pkg.sub`, `pkg/_C.cpython-311-x86_64-linux-gnu.so` the extension
module `pkg._C`; a directory holding modules but no `__init__.py` is a namespace package. Paths
that leave site-packages (`../../bin/x`) or are not module names are not modules. Distributions
without a RECORD (conda, system packagers: optional since PEP 627) have no modules here: what
imports them or what they import is not judged.

Cache: what a RECORD lists, what each of its source files imports (its column-0 import
statements) and defines (its `ast`), all keyed by the stat signature of the RECORD that lists the
file (compat.files.jsoncache.signature), as the native files' facts are (compat.facts.native):
pip rewrites a distribution's RECORD whenever it installs, upgrades or removes its files, so a
RECORD unchanged vouches for the files it lists, and a warm run stats one RECORD per
distribution, not each of its (up to thousands of) source files. What pip does not see, a file
edited by hand in site-packages, is caught where it matters most: the files the last answer's
findings rest on (the importing lines and the module that lacks the name) are stat'ed on every
run (`Summary`), and a change re-reads them. One cache file per environment, read once, written
only when this run changed what it holds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from compat.files.pysource import Defines, Imported, SourceError
from compat.model import Environment

_FORMAT = 10  # 8: entries keyed by their RECORD's signature; 9: imports as text; 10: a finding
# leads with the site the real import runs first
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
        owner = cache.record_sigs.get(record)
        for relpath in listed:
            found = _module_of(relpath)
            if found is None:
                continue
            name, kind = found
            if name in modules and modules[name].kind != "ext":
                continue  # two owners: the first (sorted) keeps it
            path = site + "/" + relpath
            cache.owners[path] = owner  # the file's cache entries are keyed by its RECORD
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

    def __init__(self, path: Path | None, dirty: frozenset[str] = frozenset()) -> None:
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
        self.record_sigs: dict[str, list[int] | None] = {}  # RECORD -> its signature this run
        self.owners: dict[str, list[int] | None] = {}  # source -> the signature of its RECORD
        self.dirty = dirty  # files changed since the last answer (Summary): read again
        self.parsed = 0  # files whose ast this run built
        self.read = 0  # files this run read (cache misses)
        # imports scanned this run (prefetch_imports), as `imports` answers them: parsing them
        # back from the cache's text cost a cold run ~0.8 s on a 300-distribution environment
        self.fresh: dict[str, list[Imported] | str] = {}
        self.sources: dict[str, bytes | str] = {}  # _source: bytes, or why they are unreadable
        self.sources_size = 0

    def _source(self, path: str) -> bytes:
        """The file's bytes (compat.files.pysource.read_source), read once per run: a module
        many importers ask about is asked once per name it lacks cheaply (`binds`), then for
        its `__all__`, its definitions... (~5,000 reads again on a cold run of a
        300-distribution environment). Kept up to _SOURCES_KEPT bytes in all."""
        kept = self.sources.get(path)
        if kept is None:
            from compat.files.pysource import read_source

            try:
                kept = read_source(path)
            except SourceError as error:
                kept = str(error)
            if self.sources_size + len(kept) <= _SOURCES_KEPT:
                self.sources[path] = kept
                self.sources_size += len(kept)
        if isinstance(kept, str):
            raise SourceError(kept)
        return kept

    def _signature(self, path: str) -> list[int] | None:
        """The signature a file's entries are kept under: its RECORD's (see the module's
        docstring), or, for a file no RECORD listed (a RECORD itself), its own."""
        if path in self.owners:
            return self.owners[path]
        from compat.files.jsoncache import signature

        try:
            return signature(os.stat(path), self.now)
        except (OSError, ValueError):
            return None

    def _cached(self, part: str, path: str, sig: list[int] | None) -> Any:
        if path.partition("\0")[0] in self.dirty and path not in self.new[part]:
            return None  # changed by hand since the last answer: read again
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
        self.record_sigs[record] = sig
        cached = self._cached("records", record, sig)
        if isinstance(cached, list) and len(cached) == 2 and isinstance(cached[0], list):
            return [p for p in cached[0] if isinstance(p, str)], str(cached[1])
        listed, problem = _read_record(record)
        self._keep("records", record, sig, [listed, problem])
        return listed, problem

    def imports(self, path: str) -> list[Imported] | str:
        """The file's column-0 imports, or why it could not be read."""
        fresh = self.fresh.get(path)
        if fresh is not None:
            return fresh
        sig = self._signature(path)
        cached = self._cached("imports", path, sig)
        if isinstance(cached, list) and len(cached) == 1 and isinstance(cached[0], str):
            return cached[0]  # why it could not be read
        if isinstance(cached, str):
            try:
                return _imports_from(cached)
            except (TypeError, ValueError, IndexError):
                pass
        from compat.files.pysource import read_source, scan_imports

        self.read += 1
        try:
            found: list[Imported] | str = scan_imports(read_source(path))
        except SourceError as error:
            found = str(error)
        self._keep("imports", path, sig, _imports_to(found))
        return found

    def prefetch_imports(self, paths: list[str]) -> None:
        """The imports of the files not in the cache, read at once (a first run on a large
        environment: reading and scanning ~35,000 sources is most of its time, and each file
        is independent of the others): where they are many, shares of them by worker
        processes while this one scans its own share; `imports` then answers them. A worker
        that fails leaves its share to be read one by one, as with few."""
        from compat.files.pysource import scan_files

        todo = [p for p in paths if self._cached("imports", p, self._signature(p)) is None]
        processes = _workers(len(todo))
        workers = _start_workers(todo, processes) if processes >= 2 else []
        # this process's share: the files no worker was handed
        mine = todo[::processes] if workers else todo
        found: list[tuple[str, list[Imported] | str]] = scan_files(mine)
        asked = set(todo)
        found.extend(item for item in _collect(workers) if item[0] in asked)
        for path, kept in found:
            if path not in self.fresh:
                self.read += 1
                self.fresh[path] = kept
                self._keep("imports", path, self._signature(path), _imports_to(kept))

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
        from compat.files.pysource import parse, read_defines

        self.parsed += 1
        try:
            data = self._source(path)
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
            from compat.files.pysource import binds_at_top

            try:
                data = self._source(path)
            except SourceError:
                data = b""
            for name in asked:
                known[name] = bool(data) and binds_at_top(data, name)
            self._keep("binds", path, sig, known)
        return {n for n in names if known.get(n) is True}

    def exports_cheaply(self, path: str, name: str) -> bool:
        """Whether `from <the file's module> import *` surely binds `name`, read without the
        `ast`: its `__all__` literal lists it (compat.files.pysource.scan_all), or it has no
        `__all__` and binds the public name at its top (binds_at_top). Only a yes is an
        answer. Kept per file with `binds`' answers."""
        sig = self._signature(path)
        cached = self._cached("binds", path, sig)
        known: dict[str, bool] = dict(cached) if isinstance(cached, dict) else {}
        key = f"*{name}"  # a star export, beside the names the file binds
        if key not in known:
            from compat.files.pysource import binds_at_top, scan_all

            try:
                data = self._source(path)
            except SourceError:
                data = b""
            listed = scan_all(data) if data else None
            if listed is not None:
                known[key] = name in listed
            else:
                known[key] = (
                    bool(data)
                    and b"__all__" not in data
                    and b"__getattr__" not in data  # a lazy module's names are no star's
                    and b"sys.modules[__name__]" not in data
                    and not name.startswith("_")
                    and binds_at_top(data, name)
                )
            self._keep("binds", path, sig, known)
        return known[key] is True

    def all_names(self, path: str) -> tuple[str, ...] | None:
        """The module's `__all__` literal read cheaply (compat.files.pysource.scan_all)."""
        sig = self._signature(path)
        cached = self._cached("all", path, sig)
        if isinstance(cached, list) and len(cached) == 1:
            value = cached[0]
            return tuple(str(n) for n in value) if isinstance(value, list) else None
        from compat.files.pysource import scan_all

        self.read += 1
        try:
            found = scan_all(self._source(path))
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
        from compat.files.pysource import parse, top_level_imports

        self.parsed += 1
        try:
            found: set[tuple[int, int, str]] | str = top_level_imports(
                parse(self._source(path), path)
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
        from compat.files.pysource import find_definition, parse, static_getattr

        self.parsed += 1
        answer: bool | tuple[int, str]
        try:
            found = find_definition(parse(self._source(path), path), name)
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


_SOURCES_KEPT = 64 * 1024 * 1024  # bytes of sources SourceCache._source keeps for the run
_PER_WORKER = 2000  # files: below this a worker's start-up (~0.1 s) outweighs its share
_MAX_WORKERS = 8
_WORKER_SECONDS = 60.0  # all workers together; past it, the files are read in this process


def _workers(files: int) -> int:
    """How many processes scan `files` sources, this one included: the CPUs this process may
    use, at most _MAX_WORKERS, one per _PER_WORKER files; $COMPAT_SCAN_WORKERS (a test and
    expert knob, not an option) sets the most (1: no worker started)."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count() or 1
    most = _MAX_WORKERS
    knob = os.environ.get("COMPAT_SCAN_WORKERS", "")
    if knob.isdigit():
        most, usable = int(knob), max(int(knob), 1)
    return min(usable, most, files // _PER_WORKER)


def _start_workers(paths: list[str], processes: int) -> list[Any]:
    """Worker processes (plain `python -c`, not multiprocessing, which would import the
    caller's __main__ again in each) scanning `paths[i::processes]` for i from 1; share 0 is
    the caller's. [] where none could be started (the caller reads the files)."""
    import subprocess
    import sys

    if not sys.executable:
        return []
    # the worker imports what this process imports: its sys.path (not the working directory's
    # or $PYTHONPATH's), without site (its directories are in the list already)
    code = (
        f"import sys; sys.path[:] = {sys.path!r}; "
        "from compat.files.pysource import scan_worker; scan_worker()"
    )
    command = [sys.executable, "-E", "-S", "-c", code]
    started: list[Any] = []  # subprocess.Popen[bytes]
    try:
        for i in range(1, processes):
            share = paths[i::processes]
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
            started.append(process)
            assert process.stdin is not None
            # the worker reads its whole share before it scans: the write ends as it reads
            process.stdin.write(b"\0".join(os.fsencode(p) for p in share))
            process.stdin.close()
            process.stdin = None  # communicate() would flush it again
    except (OSError, subprocess.SubprocessError, ValueError):
        for process in started:
            _stop(process)
        return []
    return started


def _collect(workers: list[Any]) -> list[tuple[str, list[Imported] | str]]:
    """(path, imports or why unreadable) from each worker that answered in time; a worker
    that did not leaves its share to the caller."""
    import marshal
    import subprocess

    found: list[tuple[str, list[Imported] | str]] = []
    deadline = time.monotonic() + _WORKER_SECONDS
    for worker in workers:
        try:
            out, _ = worker.communicate(timeout=max(deadline - time.monotonic(), 0.1))
            if worker.returncode == 0:
                # marshal's plain tuples, made Imported again (tuple.__new__: Imported(*i)
                # runs the named tuple's Python-level __new__ for each of ~100k imports)
                made = tuple.__new__
                found.extend(
                    (
                        str(path),
                        imports
                        if isinstance(imports, str)
                        else [made(Imported, i) for i in imports],
                    )
                    for path, imports in marshal.loads(out)
                )
        except (OSError, subprocess.SubprocessError, ValueError, EOFError, TypeError):
            pass  # the caller reads the files itself
        finally:
            _stop(worker)
    return found


def _stop(process: Any) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


def _imports_to(found: list[Imported] | str) -> str | list[str]:
    """A file's imports as the cache keeps them: one line per statement, `LINE LEVEL MODULE
    [NAME...]` (no names: `import MODULE`), a string JSON reads and writes many times faster
    than a list of lists (35,000 files' imports: ~20 MB); [why] for a file not read."""
    if isinstance(found, str):
        return [found]
    return "\n".join(
        f"{i[0]} {i[1]} {i[2]}" + (" " + " ".join(i[3]) if i[3] is not None else "") for i in found
    )


def _imports_from(text: str) -> list[Imported]:
    found = []
    for row in text.split("\n") if text else ():
        parts = row.split(" ")
        names = tuple(parts[3:]) if len(parts) > 3 else None
        found.append(Imported(int(parts[0]), int(parts[1]), parts[2], names))
    return found


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


def cache_for(env: Environment, dirty: frozenset[str] = frozenset()) -> SourceCache:
    from compat.files.jsoncache import cache_file

    return SourceCache(cache_file("python-imports", "\0".join(env.paths)), dirty)


def unreadable(problems: Iterable[tuple[str, str]]) -> list[str]:
    """One note per file that could not be read as Python source."""
    return [f"{path}: not read as Python source: {why}" for path, why in problems]


class Summary:
    """The last answer for an environment, kept with the signature of every RECORD it rested on,
    the distributions' versions (read from their METADATA, named in the answer) and the
    signature of each file its findings rest on: a warm run stats those, one per distribution
    and a few more, and reads nothing else. A RECORD changed, added or removed, a version
    changed, or a RECORD too young to vouch for itself: no answer. A watched file changed: no
    answer, and that file is read again (`dirty`)."""

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
        self.versions = sorted([str(p.name), str(p.version)] for p in env.packages.values())
        self.dirty: frozenset[str] = frozenset()

    def answer(self) -> Any:
        """The stored answer, or None (then `dirty` names the watched files that changed)."""
        from compat.files.jsoncache import read_cache, signature

        stored = read_cache(self.path)
        if not (isinstance(stored, dict) and stored.get("format") == _FORMAT):
            return None
        records, watched = stored.get("records"), stored.get("watched")
        if not isinstance(records, list) or not isinstance(watched, dict):
            return None
        now = time.time_ns()
        changed = []
        for path, sig in watched.items():
            try:
                if signature(os.stat(path), now) != sig:
                    changed.append(path)
            except (OSError, ValueError):
                if sig is not None:  # None: it could not be stat'ed then either
                    changed.append(path)
        self.dirty = frozenset(changed)
        if changed or stored.get("versions") != self.versions or len(records) != len(self.records):
            return None
        try:
            for path, (name, sig) in zip(self.records, records, strict=True):
                if path != name or sig is None or signature(os.stat(path), now) != sig:
                    return None
        except (OSError, ValueError, TypeError):
            return None
        return stored.get("answer")

    def save(self, cache: SourceCache, watched: Iterable[str], answer: Any) -> None:
        """Keep the answer, unless a RECORD or a watched file is too young to vouch for itself
        (or gone: the answer was read from what is no longer there)."""
        from compat.files.jsoncache import signature, write_cache

        records = [[path, cache.record_sigs.get(path)] for path in self.records]
        if any(sig is None for _path, sig in records):
            return
        files: dict[str, list[int] | None] = {}
        for path in sorted(set(watched)):
            try:
                sig = signature(os.stat(path), cache.now)
            except (OSError, ValueError):
                files[path] = None  # a file that cannot be stat'ed (a link loop) stays watched
                continue
            if sig is None:
                return
            files[path] = sig
        write_cache(
            self.path,
            {
                "format": _FORMAT,
                "records": records,
                "versions": self.versions,
                "watched": files,
                "answer": answer,
            },
        )
