"""Which installed files are native shared objects, and whose: read from each distribution's
RECORD (issue 33, "Owners").

For every distribution of an `Environment` installed with a `*.dist-info` directory, the lines of
its RECORD that name a shared object (`*.so`, `*.so.N[.M...]`) are resolved against the directory
holding the dist-info (its site-packages) and kept when they stay inside it and name an existing
regular file. Nothing here reads a native file's bytes (`compat.binary` reads them, the command
joins the two), but for hashing a file two distributions own (below).

RECORD is optional (PEP 627): conda writes none, nor do system packagers. For a dist-info without
one in a conda prefix, the prefix's `conda-meta` records of that project (by name, through
compat.facts.condanames) list its files instead, relative to the prefix; so does the record of a
package known only from conda-meta. torch's own libraries live in conda-forge's `libtorch` output
(PREFIX/lib), read as torch's. Distributions left with no list are one note naming them.

Every RECORD is input from whoever built the wheel or edited the environment: an absolute path
or a `..` escape (`../../bin/x`: a script or data file installed outside site-packages) is not
followed, a symbolic link that leaves the directory or loops is a problem naming the file, a
RECORD that is missing, not UTF-8, over its size limit or holds malformed CSV lines is one problem
line naming it. Nothing here raises.

A file that two distributions' RECORDs both name (`nvidia/nccl/lib/libnccl.so.2` of
`nvidia-nccl-cu12` and `nvidia-nccl-cu13`, WMD-group/SMACT#656) is a `SharedFile` listing every
owner, and whose copy is on disk: the owners whose RECORD states the sha256 of the bytes there
(issue 44 item 7). Only such files are hashed, only where an owner's recorded size matches (a size
that differs already says the copy is not that owner's), and at most _HASH_BUDGET bytes a run;
past it, or where no RECORD states a hash, the sizes alone answer, and the finding says so.

Cache: what a RECORD says (its native lines, its problems) is kept in the user cache keyed by the
RECORD's stat signature (size, modification and change times in ns, inode, device), as the rule
cache keys rule files (compat/kb/knowledge.py): a warm run stats each RECORD once and reads none.
A RECORD changed less than 2 s ago is not trusted by its signature (its times could still move
within the file system's granularity). A shared file's sha256 is kept the same way, by the file's
own stat signature: a warm run hashes none of the ~300 MB two NCCL wheels share, and spends the
hashing budget as if it had (the answer is the same warm or cold). The cache file carries the
sha256 of its own payload: a torn or corrupted file is ignored, never believed.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from compat.errors import CompatError, one_line
from compat.lazyre import Lazy
from compat.model import Environment

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

# A shared object by its name: libx.so, libnccl.so.2, libcudart.so.12.4.127, x.cpython-311-...so
_NATIVE_NAME = Lazy(r"\.so(?:\.[0-9]+)*\Z")
_RECORD_HASH = Lazy(r"sha256=[A-Za-z0-9_-]{43}")  # 32 bytes, urlsafe base64, unpadded
_RACY_NS = 2_000_000_000  # as compat/kb/knowledge.py: younger RECORDs are read every time
_CACHE_FORMAT = 2  # 2: each native line keeps its recorded sha256 too
# Bytes of shared files hashed in one run at most (two NCCL builds are ~770 MB together).
_HASH_BUDGET = 2 * 1024 * 1024 * 1024
_RECORD_LIMIT = 16 * 1024 * 1024  # compat/files/readers' "metadata" cap: torch's RECORD is ~2 MiB

# What one RECORD says, as cached: (relative path, recorded size or None, recorded
# "sha256=<urlsafe base64>" or None) per native line, and the problems of reading it.
_Line = tuple[str, int | None, str | None]
_Lines = tuple[tuple[_Line, ...], tuple[str, ...]]
_Signature = tuple[int, int, int, int, int]


class NativeFile(NamedTuple):
    """One native file one distribution owns. A file two distributions own is listed once per
    owner (and once in `NativeInventory.shared`)."""

    package: NormalizedName
    path: str  # absolute: the site-packages directory joined with `relpath` (links not resolved)
    relpath: str  # as the RECORD names it, normalized, '/'-separated
    signature: (
        _Signature  # the file's (size, mtime_ns, ctime_ns, inode, device): a reader's cache key
    )
    recorded_size: int | None = None  # the size its RECORD states (None: not stated)
    recorded_hash: str | None = None  # its RECORD's "sha256=..." (None: not stated)


class SharedFile(NamedTuple):
    """One file on disk that several installed distributions own per their RECORDs."""

    relpath: str
    path: str
    owners: tuple[NormalizedName, ...]  # sorted
    # The owners whose RECORD states the file now on disk: whose copy it is (the last one
    # installed). Empty when no RECORD matches it.
    on_disk: tuple[NormalizedName, ...]
    # How on_disk was decided: "sha256" (the file's bytes hashed), "size" (recorded sizes only:
    # no RECORD states a hash, the run's hash budget was spent, or no size matched at all).
    by: str = "size"


class MissingFile(NamedTuple):
    """A native file a RECORD names that is not on disk (another distribution's uninstall
    removed a file both owned, or a partial install)."""

    package: NormalizedName
    path: str
    relpath: str


class NativeInventory(NamedTuple):
    files: tuple[NativeFile, ...] = ()  # sorted by path, then package
    shared: tuple[SharedFile, ...] = ()  # sorted by path
    missing: tuple[MissingFile, ...] = ()
    problems: tuple[str, ...] = ()  # one line each, naming the file

    @property
    def paths(self) -> tuple[str, ...]:
        """Each native file once, sorted: what a reader reads."""
        return tuple(sorted({f.path for f in self.files}))


def native_inventory(env: Environment, *, use_cache: bool = True) -> NativeInventory:
    """The native files of every distribution of `env` (see the module's docstring)."""
    records: list[tuple[NormalizedName, str, str]] = []  # (package, dist-info dir, site dir)
    from_conda: list[tuple[NormalizedName, str]] = []  # (package, conda-meta record file)
    sites: dict[str, str] = {}
    for package in env.packages.values():
        origin = package.origin
        if origin is None or origin.line is not None:
            continue  # pins: nothing installed
        if _is_conda_record(origin.path):
            from_conda.append((package.name, os.path.abspath(origin.path)))
            continue
        if not origin.path.endswith(".dist-info"):
            continue  # egg-info: no RECORD to read
        parent, entry_name = os.path.split(origin.path)
        site = sites.get(parent)
        if site is None:
            site = sites[parent] = os.path.abspath(parent)
        records.append((package.name, site + os.sep + entry_name, site))
    if not records and not from_conda:
        return NativeInventory()
    cache = _Cache(_cache_path(env) if use_cache else None)
    problems: list[str] = []
    found: list[_Found] = []  # package, site, rel, size, hash
    conda = _CondaLists()
    unlisted: list[str] = []  # dist-infos with no RECORD that no conda-meta record lists
    for name, meta_dir, site in records:
        record = meta_dir + os.sep + "RECORD"
        try:
            info = os.stat(record)
        except FileNotFoundError:
            # RECORD is optional (PEP 627): conda (numpy#18656), rpm and dpkg write none. A
            # conda package's record in PREFIX/conda-meta lists its files instead; its INSTALLER
            # is no guide (pip#9949: many conda packages leave `pip` there).
            lists = conda.lists_of(site, name)
            if lists:
                from_conda.extend((name, path) for path in lists)
            else:
                unlisted.append(os.path.basename(meta_dir))
            continue
        except (OSError, ValueError) as error:
            problems.append(f"{_shown(record)}: cannot read ({_reason(error)})")
            continue
        if not stat.S_ISREG(info.st_mode):
            problems.append(f"{_shown(record)}: not a regular file; its native files were not read")
            continue
        lines = cache.lines(record, info, _read_record)
        problems.extend(lines[1])
        found.extend((name, site, rel, size, digest) for rel, size, digest in lines[0])
    # Each record once per package, its companions included (two records of torch, pytorch and
    # pytorch-cpu, both bring libtorch's).
    sources = {pair for name, path in from_conda for pair in conda.with_companions(name, path)}
    for name, path in sorted(sources):
        prefix = os.path.dirname(os.path.dirname(path))
        lines = cache.conda_lines(path)
        problems.extend(lines[1])
        found.extend((name, prefix, rel, None, None) for rel, _size, _digest in lines[0])
    if unlisted:
        shown = ", ".join(_shown(n) for n in sorted(unlisted)[:5])
        problems.append(
            f"{len(unlisted)} distribution(s) have no RECORD file (optional since PEP 627: "
            f"conda and system packagers write none) and no conda record lists their files: "
            f"{shown}{', ...' if len(unlisted) > 5 else ''}; their native files were not read"
        )
    inventory = _resolve(found, problems, cache)
    cache.save()
    return inventory


class _Cache:
    """RECORD and conda record path -> [signature, lines, problems], as the user cache keeps
    them (module docstring); what this run used is what it writes back."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        content = _read_cache(path) if path is not None else {}
        self.cached: dict[str, Any] = content.get("records", {})
        # A shared file's sha256 by its real path: [its stat signature, "sha256=..."] (the
        # hash of ~300 MB of NCCL a run, issue 45), trusted only as a RECORD's lines are.
        self.hashes: dict[str, Any] = content.get("hashes", {})
        self.fresh: dict[str, list[Any]] = {}
        self.fresh_hashes: dict[str, list[Any]] = {}
        self.changed = False
        self.now = time.time_ns()

    def lines(self, path: str, info: os.stat_result, read: Callable[[str], _Lines]) -> _Lines:
        signature = [info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev]
        entry = self.cached.get(path)
        # A signature equal to this list of ints vouches for the entry; its lines are checked
        # for shape only then (a plain distribution's are two empty lists).
        if type(entry) is list and entry[:1] == [signature]:
            lines = _checked(entry)
            if lines is not None:
                self.fresh[path] = entry
                return lines
        lines = read(path)
        if self.now - max(info.st_mtime_ns, info.st_ctime_ns) >= _RACY_NS:
            self.fresh[path] = [signature, [list(item) for item in lines[0]], list(lines[1])]
            self.changed = True
        return lines

    def sha256(self, real: str, signature: tuple[int, ...]) -> str | None:
        """The file's hash as RECORD writes it: from the cache where its stat signature vouches
        for it, else read (and kept where the file is old enough to trust its signature)."""
        wanted = list(signature)
        entry = self.hashes.get(real)
        if (
            type(entry) is list
            and len(entry) == 2
            and entry[0] == wanted
            and isinstance(entry[1], str)
            and _RECORD_HASH.fullmatch(entry[1])
        ):
            self.fresh_hashes[real] = entry
            return entry[1]
        digest = _sha256(real)
        if digest is not None and self.now - max(signature[1], signature[2]) >= _RACY_NS:
            self.fresh_hashes[real] = [wanted, digest]
            self.changed = True
        return digest

    def conda_lines(self, path: str) -> _Lines:
        try:
            info = os.stat(path)
        except (OSError, ValueError) as error:
            return (), (f"{_shown(path)}: cannot read ({_reason(error)})",)
        if not stat.S_ISREG(info.st_mode):
            return (), (f"{_shown(path)}: not a regular file; its native files were not read",)
        return self.lines(path, info, _read_conda_record)

    def save(self) -> None:
        if self.path is not None and (
            self.changed
            or len(self.fresh) != len(self.cached)
            or len(self.fresh_hashes) != len(self.hashes)
        ):
            _write_cache(self.path, self.fresh, self.fresh_hashes)


def _is_conda_record(path: str) -> bool:
    return path.endswith(".json") and os.path.basename(os.path.dirname(path)) == "conda-meta"


# conda-forge's `libtorch` output holds torch's own libraries: its build script moves the wheel's
# torch/lib/* (libtorch_cuda.so, libc10.so, ...) to $PREFIX/lib and keeps libtorch_python in
# `pytorch` (conda-forge/pytorch-cpu-feedstock, recipe/build_libtorch.sh). Its files are torch's.
_COMPANIONS = {"torch": ("libtorch",)}


class _CondaLists:
    """The conda-meta records of each conda prefix, by the PyPI project they install."""

    def __init__(self) -> None:
        self.prefixes: dict[str, Mapping[str, tuple[str, ...]]] = {}
        self.sites: dict[str, str | None] = {}  # site-packages -> its conda prefix, resolved once

    def _index(self, prefix: str) -> Mapping[str, tuple[str, ...]]:
        """PyPI name (or conda name) -> record files, of one prefix's conda-meta."""
        known = self.prefixes.get(prefix)
        if known is not None:
            return known
        from compat.facts import condanames
        from compat.facts.conda import CONDA_META, RECORD_FILE
        from compat.names import canonicalize_name

        index: dict[str, list[str]] = {}
        meta = os.path.join(prefix, CONDA_META)
        try:
            names = sorted(os.listdir(meta))
        except OSError:
            names = []
        for file_name in names:
            match = RECORD_FILE.match(file_name)
            if match is None:
                continue
            conda_name = match.group("name")
            pypi = condanames.pypi_name(conda_name) or conda_name
            for key in {str(canonicalize_name(pypi)), conda_name}:
                index.setdefault(key, []).append(os.path.join(meta, file_name))
        self.prefixes[prefix] = frozen = {k: tuple(v) for k, v in index.items()}
        return frozen

    def lists_of(self, site: str, name: str) -> tuple[str, ...]:
        """The records of `site`'s conda prefix that install the distribution `name`."""
        if site not in self.sites:
            from compat.facts.conda import prefix_of

            found = prefix_of(Path(site))
            self.sites[site] = None if found is None else str(found)
        prefix = self.sites[site]
        return () if prefix is None else self._index(prefix).get(name, ())

    def with_companions(
        self, name: NormalizedName, record: str
    ) -> list[tuple[NormalizedName, str]]:
        """(name, record) and (name, each companion record of its prefix)."""
        index = self._index(os.path.dirname(os.path.dirname(record)))
        extra = [p for c in _COMPANIONS.get(name, ()) for p in index.get(c, ())]
        return [(name, p) for p in (record, *extra)]


def _read_conda_record(path: str) -> _Lines:
    """The native files a conda record's `files` list names (relative to its prefix), and the
    problems of reading it: the same checks as a RECORD line (no absolute path, no `..`)."""
    from compat.files.readers import decode, parse_json, read_bytes

    try:
        data: Any = parse_json(decode(read_bytes(Path(path), "metadata"), path), Path(path))
    except CompatError as error:
        return (), (f"{_shown(path)}: {error}",)
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list):
        return (), ()  # a minimal record: nothing listed, nothing to read
    native: dict[str, _Line] = {}
    for entry in files:
        if isinstance(entry, str) and ".so" in entry:
            rel, _size, _digest = _native([entry, "", ""])
            if rel is not None:
                native[rel] = (rel, None, None)
    return tuple(native[k] for k in sorted(native)), ()


_Found = tuple["NormalizedName", str, str, int | None, str | None]


def _resolve(found: Iterable[_Found], problems: list[str], cache: _Cache) -> NativeInventory:
    """The RECORD lines checked against the disk: existing regular files inside their site."""
    files: list[NativeFile] = []
    missing: list[MissingFile] = []
    real_sites: dict[str, str] = {}
    owners: dict[str, list[NativeFile]] = {}  # real path -> owners' entries
    signatures: dict[str, tuple[int, ...]] = {}
    reported: set[str] = set()
    for name, site, rel, size, digest in found:
        path = os.path.join(site, rel)
        real_site = real_sites.get(site)
        if real_site is None:
            real_site = real_sites[site] = os.path.realpath(site)
        real = os.path.realpath(path)
        if not real.startswith(real_site + os.sep):
            if path not in reported:
                reported.add(path)
                problems.append(f"{_shown(path)}: a symbolic link out of {_shown(site)}; not read")
            continue
        try:
            info = os.stat(real)
        except (FileNotFoundError, NotADirectoryError):
            missing.append(MissingFile(name, path, rel))
            continue
        except OSError as error:
            if path not in reported:
                reported.add(path)
                why = "a symbolic link loop" if error.errno == errno.ELOOP else _reason(error)
                problems.append(f"{_shown(path)}: {why}; not read")
            continue
        if not stat.S_ISREG(info.st_mode):
            continue  # a directory named like a library, a FIFO, a device: nothing to read
        native = NativeFile(
            name,
            path,
            rel,
            (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev),
            size,
            digest,
        )
        files.append(native)
        owners.setdefault(real, []).append(native)
        signatures[real] = native.signature
    shared = []
    budget = [_HASH_BUDGET]
    for real, entries in sorted(owners.items()):
        names = sorted({entry.package for entry in entries})
        if len(names) < 2:
            continue
        first = min(entries, key=lambda entry: (entry.path, entry.package))
        on_disk, by = _whose(real, signatures[real], entries, budget, cache)
        shared.append(SharedFile(first.relpath, first.path, tuple(names), on_disk, by))
    files.sort(key=lambda f: (f.path, f.package))
    shared.sort(key=lambda s: s.path)
    missing.sort(key=lambda m: (m.path, m.package))
    return NativeInventory(tuple(files), tuple(shared), tuple(missing), tuple(problems))


def _whose(
    real: str,
    signature: tuple[int, ...],
    entries: Sequence[NativeFile],
    budget: list[int],
    cache: _Cache,
) -> tuple[tuple[NormalizedName, ...], str]:
    """The owners whose RECORD states the file on disk, and how that was decided: by its
    sha256 where an owner of its size states one and the budget allows, else by size. A hash
    the cache answers spends the budget as reading it would: the answer never depends on it."""
    size = signature[0]
    by_size = tuple(sorted({e.package for e in entries if e.recorded_size == size}))
    hashed = [e for e in entries if e.recorded_size == size and e.recorded_hash]
    if not hashed or size > budget[0]:
        return by_size, "size"
    budget[0] -= size
    digest = cache.sha256(real, signature)
    if digest is None:
        return by_size, "size"
    return tuple(sorted({e.package for e in entries if e.recorded_hash == digest})), "sha256"


def _sha256(path: str) -> str | None:
    """The file's hash as RECORD writes it (PEP 376/627: "sha256=" and the urlsafe base64 of
    the digest, unpadded); None where it cannot be read."""
    import base64
    import hashlib

    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return "sha256=" + base64.urlsafe_b64encode(digest.digest()).rstrip(b"=").decode()


def _read_record(record: str) -> _Lines:
    """The native lines of one RECORD and the problems of reading it (one line at most)."""
    from compat.files.readers import decode, read_bytes

    try:
        text = decode(read_bytes(Path(record), "metadata"), record)
    except CompatError as error:  # over the cap, not UTF-8, unreadable, not a regular file
        return (), (str(error),)
    native: dict[str, _Line] = {}
    bad: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if ".so" not in line:  # the fast path: most lines name no shared object
            if line.strip() and line.count(",") < 2 and '"' not in line:
                bad.append(number)
            continue
        fields = _fields(line)
        if fields is None:
            bad.append(number)
            continue
        name, size, digest = _native(fields)
        if name is not None and name not in native:
            native[name] = (name, size, digest)
    problems: tuple[str, ...] = ()
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        problems = (
            f"{_shown(record)}:{bad[0]}: not a RECORD line (path,hash,size){more}; "
            "the other lines were read",
        )
    return tuple(native[k] for k in sorted(native)), problems


def _fields(line: str) -> list[str] | None:
    """One RECORD line's three CSV fields, or None when it is not one."""
    if "\x00" in line:
        return None
    if '"' in line:
        import csv

        try:
            rows = list(csv.reader([line]))
        except csv.Error:
            return None
        fields = rows[0] if len(rows) == 1 else []
    else:
        fields = line.rsplit(",", 2)
    return fields if len(fields) == 3 else None


def _native(fields: list[str]) -> tuple[str | None, int | None, str | None]:
    """The normalized relative path of a line naming a shared object inside its site-packages,
    its recorded size and its recorded sha256 ("sha256=..."); Nones for any other line."""
    path, digest, size_text = fields
    if "\x00" in path or "\\" in path or not _NATIVE_NAME.search(path):
        return None, None, None
    if path.startswith("/"):
        return None, None, None  # absolute: outside site-packages by construction
    normal = posixpath.normpath(path)
    if normal == ".." or normal.startswith("../") or normal in (".", ""):
        return None, None, None  # a script or data file installed beside the environment
    ok = size_text.isascii() and size_text.isdigit() and len(size_text) <= 18
    size = int(size_text) if ok else None
    hashed = _RECORD_HASH.fullmatch(digest)
    return normal, size, hashed.group(0) if hashed else None


# ---------------------------------------------------------------------------------------------
# The cache


def _cache_path(env: Environment) -> Path:
    from compat.files.jsoncache import cache_file

    return cache_file(f"native-{_CACHE_FORMAT}", "\0".join(os.path.abspath(p) for p in env.paths))


def _read_cache(path: Path) -> dict[str, Any]:
    """{"records": RECORD path -> [signature, lines, problems], "hashes": real path ->
    [signature, sha256]} as written (each entry is checked when it is used); a part that is
    absent or in any doubt is {}."""
    from compat.files.jsoncache import read_cache

    content = read_cache(path)
    if not isinstance(content, dict):
        return {}
    return {k: v for k in ("records", "hashes") if isinstance(v := content.get(k), dict)}


def _checked(entry: list[Any]) -> _Lines | None:
    """A cache entry's lines when it has the shape this module writes, else None."""
    if len(entry) != 3:
        return None
    _signature, native, problems = entry
    if native == [] and problems == []:  # empty lists, not any falsy value
        return (), ()
    if not (
        isinstance(native, list)
        and isinstance(problems, list)
        and all(isinstance(p, str) for p in problems)
    ):
        return None
    lines: list[_Line] = []
    for item in native:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and (item[1] is None or type(item[1]) is int)
            and (item[2] is None or isinstance(item[2], str))
        ):
            return None
        lines.append((item[0], item[1], item[2]))
    return tuple(lines), tuple(problems)


def _write_cache(
    path: Path, entries: Mapping[str, list[Any]], hashes: Mapping[str, list[Any]]
) -> None:
    """Best effort: a read-only home or a full disk never fails the check."""
    from compat.files.jsoncache import write_cache

    write_cache(
        path, {"records": dict(sorted(entries.items())), "hashes": dict(sorted(hashes.items()))}
    )


# ---------------------------------------------------------------------------------------------


def _shown(path: str) -> str:
    return one_line(path)


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return "a NUL byte in the name" if isinstance(error, ValueError) else str(error)
