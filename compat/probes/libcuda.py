"""The CUDA driver a process started here will load: forward compatibility (issue 33 item 3).

NVML reports the kernel driver. A process loads the user-mode driver, `libcuda.so.1`, the way the
dynamic loader finds it: the directories of `LD_LIBRARY_PATH` first, then the loader cache
(`/etc/ld.so.cache`). NVIDIA's `cuda-compat-X-Y` package puts a newer libcuda in
`/usr/local/cuda-X.Y/compat/` and leaves it to the user to put that directory on the loader path;
on a data-center GPU whose kernel branch that package supports, the process then gets the newer
CUDA version (NVIDIA's forward-compatibility guide; every fact, with its source, in
docs/forward-compat.md; the tables in compat/data/forward-compat.json).

The libcuda's version is read from its file name: `libcuda.so.1` is a symbolic link to
`libcuda.so.580.65.06` (the package's own layout, and what NGC containers' entrypoints read with
`readlink`). The loader cache is read as hostile input: bounded in size, every count and offset
checked against the file, glibc's format (sysdeps/generic/dl-cache.h): the old `ld.so-1.7.0`
table, the new `glibc-ld.so.cache1.1` table, or the old followed by the new. Nothing here raises:
what cannot be read is one note naming the file.

`COMPAT_LD_SO_CACHE` names another loader cache to read (a test and expert knob: a container's
cache from outside it); empty, none is read.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import platform
import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from packaging.version import InvalidVersion, Version

from compat.model import Gpu, Hardware, UserModeDriver
from compat.versions import parse_version

CACHE_VARIABLE = "COMPAT_LD_SO_CACHE"
DEFAULT_CACHE = "/etc/ld.so.cache"
SONAME = "libcuda.so.1"
_MAX_CACHE_BYTES = 64 * 2**20  # real caches are tens to hundreds of KiB
_MAX_STRING = 4096  # PATH_MAX: a longer cache string is not a path the loader would open
_MAX_LINKS = 40  # the kernel's own bound on symbolic links in one lookup
_OLD_MAGIC = b"ld.so-1.7.0"
_NEW_MAGIC = b"glibc-ld.so.cache1.1"
_NEW_HEADER = 48  # sizeof(struct cache_file_new)
_NEW_ENTRY = 24  # sizeof(struct file_entry_new)
_OLD_ENTRY = 12  # sizeof(struct file_entry)
# ldconfig's flags (sysdeps/generic/ldconfig.h): FLAG_ELF 0x1, FLAG_ELF_LIBC6 0x3; the loader
# takes an entry whose flags are FLAG_ELF or its own _DL_CACHE_DEFAULT_ID (FLAG_ELF_LIBC6 | the
# machine's FLAG_*_LIB64).
_MACHINE_FLAGS = {"x86_64": 0x0303, "aarch64": 0x0A03}
# A driver's own libcuda: libcuda.so.<branch>.<minor>[.<patch>] (a three-digit branch, so
# Jetson's libcuda.so.1.1 is not read as version 1.1).
_VERSIONED = re.compile(r"libcuda\.so\.(\d{3,}(?:\.\d+){1,2})")
# What a process gets on each outcome (NVIDIA's error names, verified in its guide).
_ERROR_804 = "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)"
_ERROR_803 = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH (803)"


@dataclass(frozen=True)
class Located:
    """The libcuda.so.1 the loader would open, and what its file name says."""

    path: str  # the libcuda.so.1 entry the loader opens
    target: str  # the file its symbolic links end at
    version_text: str | None  # "580.65.06" from the target's name; None: a name without one
    found_by: str  # "LD_LIBRARY_PATH" or "ld.so.cache FILE"


# ---------------------------------------------------------------------------------------------
# The tables


@cache
def _table() -> Mapping[str, Any]:
    text = resources.files("compat").joinpath("data/forward-compat.json").read_text("utf-8")
    data: Mapping[str, Any] = json.loads(text)
    return data


def cuda_for_driver(version: Version) -> Version | None:
    """The CUDA version a driver branch carries ("580" -> 13.0), where NVIDIA's forward
    compatibility table names the branch; None for another branch."""
    cuda = _table()["driver_branches"].get(str(version.major))
    return Version(cuda) if cuda is not None else None


def supported_branches(cuda: Version) -> tuple[int, ...] | None:
    """The kernel driver branches a cuda-compat package for `cuda` supports (None: no such
    package in NVIDIA's table)."""
    key = f"{cuda.major}.{cuda.minor}"
    branches = _table()["packages"].get(key)
    return tuple(int(b) for b in branches) if branches is not None else None


def gpu_class(gpu: Gpu) -> str:
    """ "datacenter", "consumer" (GeForce, TITAN: never forward compatible) or "unknown" (a
    workstation RTX board, which NVIDIA supports only as select NGC Server Ready SKUs)."""
    classes = _table()["gpus"]
    if any(re.search(p, gpu.name, re.IGNORECASE) for p in classes["consumer"]):
        return "consumer"
    if any(re.search(p, gpu.name) for p in classes["datacenter"]):
        return "datacenter"
    return "unknown"


# ---------------------------------------------------------------------------------------------
# Where the loader finds libcuda.so.1


def locate(environ: Mapping[str, str], notes: list[str]) -> Located | None:
    """The libcuda.so.1 a process started with `environ` loads: LD_LIBRARY_PATH's directories
    in order, then the loader cache. None when neither names one (the system's default
    directories hold the kernel driver's own libcuda, which is not read here)."""
    for directory in re.split(r"[:;]", environ.get("LD_LIBRARY_PATH", "")):
        if not directory:
            continue
        path = os.path.join(directory, SONAME)
        error = _open_error(path)
        if error in (errno.ENOENT, errno.EACCES):
            continue  # glibc's open_path goes on to the next directory only for these two
        if error is not None:
            # glibc elf/dl-load.c open_path: "if (here_any && (err = errno) != ENOENT && err !=
            # EACCES) return -1": any other error (a symbolic-link loop: ELOOP) ends the
            # LD_LIBRARY_PATH walk, and the loader goes on to its cache (observed with ld.so).
            notes.append(
                f"{path}: {os.strerror(error)}: the loader stops searching LD_LIBRARY_PATH "
                "there and loads libcuda.so.1 from its cache"
            )
            break
        found = _resolve(path, "LD_LIBRARY_PATH", notes)
        if found is not None:
            return found
    cache_path = environ.get(CACHE_VARIABLE, DEFAULT_CACHE)
    if not cache_path:
        return None
    cached = cache_lookup(cache_path, SONAME, notes)
    if cached is None:
        return None
    return _resolve(cached, f"ld.so.cache {cache_path}", notes)


def _open_error(path: str) -> int | None:
    """The errno opening `path` for reading gives (what the loader's open() sees), None when it
    opens."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as error:
        return error.errno
    os.close(fd)
    return None


def _resolve(path: str, found_by: str, notes: list[str]) -> Located | None:
    """Follow `path`'s symbolic links (at most 40, as the kernel does) to the file they end at."""
    current = path
    for _ in range(_MAX_LINKS):
        try:
            if not os.path.islink(current):
                if not os.path.isfile(current):
                    return None
                match = _VERSIONED.fullmatch(os.path.basename(current))
                return Located(path, current, match.group(1) if match else None, found_by)
            target = os.readlink(current)
        except (OSError, ValueError):
            return None
        current = os.path.join(os.path.dirname(current), target)
    notes.append(f"{path}: more than {_MAX_LINKS} symbolic links (a loop?): not read")
    return None


def cache_lookup(path: str, soname: str, notes: list[str]) -> str | None:
    """The path the loader cache at `path` gives for `soname` (the first entry for this
    machine), None when it has none or cannot be read (then one note names the file)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_CACHE_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        notes.append(f"{path}: cannot read the loader cache ({error.strerror or error})")
        return None
    if len(data) > _MAX_CACHE_BYTES:
        notes.append(
            f"{path}: larger than {_MAX_CACHE_BYTES // 2**20} MiB: not read as a loader cache"
        )
        return None
    try:
        return _lookup(data, soname.encode())
    except _BadCache as error:
        notes.append(f"{path}: not a readable loader cache ({error})")
        return None


class _BadCache(Exception):
    pass


def _lookup(data: bytes, soname: bytes) -> str | None:
    wanted = _MACHINE_FLAGS.get(platform.machine())
    if data.startswith(_OLD_MAGIC):
        if len(data) < 16:
            raise _BadCache("truncated header")
        (count,) = struct.unpack_from("<I", data, 12)
        if count > (len(data) - 16) // _OLD_ENTRY:
            raise _BadCache(f"{count} entries do not fit in {len(data)} bytes")
        end = 16 + count * _OLD_ENTRY
        new_at = (end + 7) & ~7  # the new table follows, aligned as struct cache_file_new
        if data[new_at : new_at + len(_NEW_MAGIC)] == _NEW_MAGIC:
            return _lookup_new(data, new_at, soname, wanted)
        entries = (struct.unpack_from("<iII", data, 16 + i * _OLD_ENTRY) for i in range(count))
        return _first(data, end, entries, soname, wanted)
    if data.startswith(_NEW_MAGIC):
        return _lookup_new(data, 0, soname, wanted)
    raise _BadCache("unknown magic")


def _lookup_new(data: bytes, at: int, soname: bytes, wanted: int | None) -> str | None:
    if len(data) < at + _NEW_HEADER:
        raise _BadCache("truncated header")
    endian = data[at + 28] & 3
    if endian == 1:
        raise _BadCache("marked invalid by ldconfig")
    order = ">" if endian == 3 else "<"
    (count,) = struct.unpack_from(order + "I", data, at + 20)
    first = at + _NEW_HEADER
    if count > (len(data) - first) // _NEW_ENTRY:
        raise _BadCache(f"{count} entries do not fit in {len(data)} bytes")
    entries = (
        struct.unpack_from(order + "iII", data, first + i * _NEW_ENTRY) for i in range(count)
    )
    return _first(data, at, entries, soname, wanted)


def _first(
    data: bytes,
    strings: int,
    entries: Any,
    soname: bytes,
    wanted: int | None,
) -> str | None:
    for flags, key, value in entries:
        if wanted is not None and flags not in (1, wanted):
            continue  # another machine's library (i386 beside x86_64)
        if _string(data, strings + key) != soname:
            continue
        found = _string(data, strings + value)
        if found:
            return found.decode("utf-8", errors="surrogateescape")
    return None


def _string(data: bytes, offset: int) -> bytes | None:
    if offset < 0 or offset >= len(data):
        return None
    end = data.find(b"\0", offset, offset + _MAX_STRING)
    return data[offset:end] if end != -1 else None


def installed_compat_dirs(environ: Mapping[str, str]) -> list[str]:
    """The CUDA installs' compat directories that hold a libcuda.so.1: $CUDA_HOME/compat,
    $CUDA_PATH/compat, /usr/local/cuda/compat."""
    roots = [environ.get("CUDA_HOME"), environ.get("CUDA_PATH"), "/usr/local/cuda"]
    found: list[str] = []
    for root in roots:
        if not root:
            continue
        directory = os.path.join(root, "compat")
        if directory not in found and os.path.lexists(os.path.join(directory, SONAME)):
            found.append(directory)
    return found


# ---------------------------------------------------------------------------------------------
# What the process gets


def _parse(text: str | None) -> Version | None:
    if text is None:
        return None
    try:
        return parse_version(text)
    except InvalidVersion:
        return None


def judge(
    hardware: Hardware,
    version_text: str | None,
    *,
    path: str | None,
    found_by: str,
) -> UserModeDriver | None:
    """What a process gets from the user-mode driver `version_text` beside this hardware's
    kernel driver: None when it is the kernel driver's own (nothing to say)."""
    version = _parse(version_text)
    where = path or found_by
    kernel = hardware.driver_version
    cuda = cuda_for_driver(version) if version is not None else None

    def made(status: str, note: str | None) -> UserModeDriver:
        return UserModeDriver(version, version_text, path, found_by, cuda, status, note)

    if version is None:
        return made(
            "unknown-version",
            f"{where}: a libcuda whose file name gives no driver version: the CUDA version a "
            "process gets is unknown",
        )
    if kernel is None:
        return made(
            "unknown-kernel",
            f"{where} is libcuda {version_text}; the kernel driver is unknown, so whether a "
            "process can use it is too",
        )
    if version == kernel:
        return None
    kernel_label = hardware.driver_label or str(kernel)
    if version.major <= kernel.major:
        return made(
            "mismatch",
            f"{where} is libcuda {version_text} but the kernel driver is {kernel_label}: a "
            f"user-mode driver that is not newer than the kernel's is no forward compatibility; "
            f"expect {_ERROR_803} at CUDA initialisation (remove it from the loader path)",
        )
    if cuda is None:
        return made(
            "unknown-version",
            f"{where} is libcuda {version_text} (a cuda-compat libcuda newer than kernel driver "
            f"{kernel_label}), a branch NVIDIA's forward-compatibility table does not list: the "
            "CUDA version a process gets is unknown",
        )
    classes = {gpu.name: gpu_class(gpu) for gpu in hardware.gpus}
    consumer = sorted(name for name, kind in classes.items() if kind == "consumer")
    if consumer:
        return made(
            "unsupported-gpu",
            f"{where} is a cuda-compat libcuda {version_text} (CUDA {cuda}), but forward "
            f"compatibility is for data-center GPUs only, not {', '.join(consumer)}: a process "
            f"fails with {_ERROR_804}; it gets the kernel driver {kernel_label}'s CUDA "
            f"{hardware.cuda_driver_version or 'version'} at best",
        )
    branches = supported_branches(cuda)
    if branches is None or kernel.major not in branches:
        supported = ", ".join(f"R{b}" for b in branches) if branches else "none listed"
        return made(
            "unsupported-branch",
            f"{where} is a cuda-compat libcuda {version_text} (CUDA {cuda}), but NVIDIA supports "
            f"that package on kernel branches {supported} only: R{kernel.major} ({kernel_label}) "
            "is not a supported target for forward compatibility. A process still loads this "
            f"libcuda, and CUDA {cuda} is not assured: expect CUDA initialisation to fail "
            f"({_ERROR_803} or {_ERROR_804}); judged by the kernel driver's CUDA "
            f"{hardware.cuda_driver_version or 'version'}, not {cuda}",
        )
    unknown = sorted(name for name, kind in classes.items() if kind == "unknown")
    if unknown or not classes:
        what = ", ".join(unknown) if unknown else "no GPU listed"
        return made(
            "unknown-gpu",
            f"{where} is a cuda-compat libcuda {version_text} (CUDA {cuda}) on kernel driver "
            f"{kernel_label}; forward compatibility needs a data-center GPU (or a select NGC "
            f"Server Ready RTX SKU), and compat cannot tell for {what}: judged by the kernel "
            "driver",
        )
    return made(
        "active",
        f"forward compatibility: {where} is a cuda-compat libcuda {version_text} on kernel driver "
        f"{kernel_label}: a process gets CUDA {cuda} (the kernel driver alone: "
        f"{hardware.cuda_driver_version or 'unknown'})",
    )


def with_user_driver(hardware: Hardware, environ: Mapping[str, str]) -> Hardware:
    """`hardware` with the user-mode driver a process started with `environ` loads, where it is
    not the kernel driver's own, and one note where a compat directory is installed but unused."""
    notes: list[str] = []
    located = locate(environ, notes)
    user: UserModeDriver | None = None
    if located is not None:
        user = judge(hardware, located.version_text, path=located.path, found_by=located.found_by)
    elif hardware.gpus:
        unused = installed_compat_dirs(environ)
        if unused:
            notes.append(
                f"a cuda-compat libcuda is installed in {', '.join(unused)} but is not on the "
                "loader path (LD_LIBRARY_PATH, ld.so.cache): a process loads the kernel driver's"
            )
    if user is None and not notes:
        return hardware
    return dataclasses.replace(hardware, user_driver=user, problems=(*hardware.problems, *notes))


def user_driver_document(user: UserModeDriver) -> dict[str, Any]:
    """The `user_mode_driver` object of the `compat.hardware/1` document."""
    return {
        "version": user.text,
        "path": user.path,
        "found_by": user.found_by,
        "cuda_version": str(user.cuda) if user.cuda is not None else None,
        "forward_compat": user.status,
        "note": user.note,
    }


def describe(user: UserModeDriver, hardware: Hardware) -> str:
    """One line for a person: what the process loads and what it gets."""
    cuda = f" (CUDA {user.cuda})" if user.cuda is not None else ""
    gets = hardware.process_cuda_version
    effect = (
        f"forward compatibility in effect: a process gets CUDA {gets}"
        if hardware.forward_compatible
        else f"no forward compatibility ({user.status})"
    )
    return f"user-mode driver {user.text or 'unknown'}{cuda} from {user.found_by}: {effect}"
