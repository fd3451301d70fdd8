"""Every native file of an environment, read: which distribution installed it, where it lies and
what its ELF headers say (or why they could not be read). The inventory of which files are native
comes from the distributions' RECORDs (compat.facts.native); this reads them, one bounded header
read per file (compat.binary.elf), and never lets a hostile file stop the others.

What is kept of a file is what the judgement asks (compat.kb.binarycheck): its machine, soname,
needed libraries, fat-binary architectures, and of its undefined symbols only torch's C++ ones and
the CUDA runtime's kernel registration. Kept so, the facts of a whole environment are small enough
to cache: a warm doctor stats each file and reads none (`read_native_files(..., cache=...)`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compat.binary.elf import BinaryError, ElfFacts, read_elf
from compat.binary.fatbin import Fatbin
from compat.binary.hipfatbin import HipCode

# Mangled prefixes of torch's C++ namespaces (Itanium ABI): functions and data (`_ZN`, const
# methods `_ZNK`) and the vtables, typeinfo and typeinfo names (`_ZTV`, `_ZTI`, `_ZTS`) of their
# classes. An extension's other undefined symbols (std::, libc, Python, CUDA) come from outside
# the environment and are not judged.
TORCH_PREFIXES = tuple(
    f"{head}{ns}"
    for head in ("_ZN", "_ZNK", "_ZTVN", "_ZTIN", "_ZTSN")
    for ns in ("3c10", "2at", "5torch", "6caffe2")
)
# The symbols nvcc's host stubs call to register a file's kernels with the CUDA runtime: a file
# that imports them was compiled from CUDA sources and must carry device code.
REGISTERS_KERNELS = ("__cudaRegisterFatBinary", "__cudaRegisterFunction")
# The HIP runtime's equivalents (hipcc's host stubs): the file was compiled from HIP sources.
REGISTERS_HIP_KERNELS = ("__hipRegisterFatBinary", "__hipRegisterFunction")

CACHE_FORMAT = 3  # 2: the arch flags (ElfFacts.arch_flags) are kept; 3: the HIP targets


def is_torch_symbol(symbol: str) -> bool:
    return symbol.startswith(TORCH_PREFIXES)


def _kept(symbol: str) -> bool:
    return (
        symbol.startswith(TORCH_PREFIXES)
        or symbol in REGISTERS_KERNELS
        or symbol in REGISTERS_HIP_KERNELS
    )


@dataclass(frozen=True)
class NativeFile:
    package: str  # the normalized name of the distribution whose RECORD lists the file
    relpath: str  # the path as RECORD writes it, relative to site-packages
    path: str  # where it lies on disk
    facts: ElfFacts | None  # None: unreadable (see `problem`)
    problem: str | None = None  # one line: why its headers could not be read
    signature: tuple[int, ...] | None = None  # (size, mtime, ctime, inode, device); None: racy

    @property
    def name(self) -> str:
        return self.relpath.rpartition("/")[2]


def read_native_files(
    files: Iterable[tuple[str, str, str]], *, cache: Path | None = None
) -> tuple[NativeFile, ...]:
    """(package, relpath, path) for each native file -> what each one's headers say. With a
    cache file, a file whose stat signature matches its entry is not read again."""
    from compat.files.jsoncache import read_cache, signature, write_cache

    stored = read_cache(cache) if cache is not None else None
    entries: dict[str, Any] = stored.get("files", {}) if isinstance(stored, dict) else {}
    if not isinstance(entries, dict) or (
        isinstance(stored, dict) and stored.get("format") != CACHE_FORMAT
    ):
        entries = {}
    fresh: dict[str, Any] = {}
    now = time.time_ns()
    read = []
    for package, relpath, path in files:
        try:
            info = os.stat(path)
            sig = signature(info, now)
        except (OSError, ValueError):
            sig = None
        entry = entries.get(path)
        known = _from_entry(entry, sig) if sig is not None else None
        if known is not None:
            facts, problem = known
        else:
            facts, problem = _read(path)
        if sig is not None:
            fresh[path] = [sig, _to_entry(facts), problem]
        read.append(NativeFile(package, relpath, path, facts, problem, tuple(sig) if sig else None))
    if cache is not None and fresh != entries:
        write_cache(cache, {"format": CACHE_FORMAT, "files": fresh})
    return tuple(read)


def _read(path: str) -> tuple[ElfFacts | None, str | None]:
    try:
        facts = read_elf(path)
    except BinaryError as error:
        return None, str(error)
    return _reduced(facts), None


def _reduced(facts: ElfFacts) -> ElfFacts:
    import dataclasses

    return dataclasses.replace(
        facts,
        undefined=tuple(s for s in facts.undefined if _kept(s)),
        weak_undefined=(),
    )


def _to_entry(facts: ElfFacts | None) -> list[Any] | None:
    if facts is None:
        return None
    return [
        facts.machine,
        facts.soname,
        list(facts.needed),
        list(facts.runpath),
        list(facts.undefined),
        _fatbin_entry(facts.fatbin),
        _fatbin_entry(facts.relfatbin),
        facts.arch_flags,
        _hip_entry(facts.hip),
    ]


def _hip_entry(hip: HipCode | None) -> list[Any] | None:
    if hip is None:
        return None
    return [list(hip.targets), hip.bundles, hip.compressed, hip.unread, hip.kpack, hip.note]


def _hip(value: Any) -> tuple[bool, HipCode | None]:
    """(valid, HIP code) of a cached entry."""
    if value is None:
        return True, None
    if not (isinstance(value, list) and len(value) == 6):
        return False, None
    targets = _strings(value[0])
    counts = value[1:4]
    if (
        targets is None
        or not all(type(n) is int for n in counts)
        or type(value[4]) is not bool
        or not (value[5] is None or isinstance(value[5], str))
    ):
        return False, None
    return True, HipCode(targets, counts[0], counts[1], counts[2], value[4], value[5])


def _fatbin_entry(fatbin: Fatbin | None) -> list[Any] | None:
    return None if fatbin is None else [list(fatbin.sass), list(fatbin.ptx), fatbin.entries]


def _strings(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _fatbin(value: Any) -> tuple[bool, Fatbin | None]:
    """(valid, fat binary) of a cached entry."""
    if value is None:
        return True, None
    if not (isinstance(value, list) and len(value) == 3 and type(value[2]) is int):
        return False, None
    sass, ptx = _strings(value[0]), _strings(value[1])
    if sass is None or ptx is None:
        return False, None
    return True, Fatbin(sass, ptx, value[2])


def _from_entry(entry: Any, sig: Sequence[int]) -> tuple[ElfFacts | None, str | None] | None:
    """The cached facts when the entry has this module's shape and the file's signature, else
    None (read the file)."""
    if not (isinstance(entry, list) and len(entry) == 3 and entry[0] == list(sig)):
        return None
    facts, problem = entry[1], entry[2]
    if facts is None:
        return (None, problem) if isinstance(problem, str) else None
    if not (isinstance(facts, list) and len(facts) == 9 and problem is None):
        return None
    machine, soname, arch_flags = facts[0], facts[1], facts[7]
    needed, runpath, undefined = _strings(facts[2]), _strings(facts[3]), _strings(facts[4])
    ok_fat, fatbin = _fatbin(facts[5])
    ok_rel, relfatbin = _fatbin(facts[6])
    ok_hip, hip = _hip(facts[8])
    if (
        not isinstance(machine, str)
        or not (soname is None or isinstance(soname, str))
        or needed is None
        or runpath is None
        or undefined is None
        or not (ok_fat and ok_rel and ok_hip)
        or not (arch_flags is None or isinstance(arch_flags, str))
    ):
        return None
    return (
        ElfFacts(
            machine=machine,
            soname=soname,
            needed=needed,
            runpath=runpath,
            undefined=undefined,
            weak_undefined=(),
            fatbin=fatbin,
            relfatbin=relfatbin,
            arch_flags=arch_flags,
            hip=hip,
        ),
        None,
    )
