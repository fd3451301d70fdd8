"""Every native file of an environment, read: which distribution installed it, where it lies and
what its ELF headers say (or why they could not be read). The inventory of which files are native
comes from the distributions' RECORDs (compat.facts.native); this reads them, one bounded header
read per file (compat.binary.elf), and never lets a hostile file stop the others."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from compat.binary.elf import BinaryError, ElfFacts, read_elf


@dataclass(frozen=True)
class NativeFile:
    package: str  # the normalized name of the distribution whose RECORD lists the file
    relpath: str  # the path as RECORD writes it, relative to site-packages
    path: str  # where it lies on disk
    facts: ElfFacts | None  # None: unreadable (see `problem`)
    problem: str | None = None  # one line: why its headers could not be read

    @property
    def name(self) -> str:
        return self.relpath.rpartition("/")[2]


def read_native_files(files: Iterable[tuple[str, str, str]]) -> tuple[NativeFile, ...]:
    """(package, relpath, path) for each native file -> what each one's headers say."""
    read = []
    for package, relpath, path in files:
        try:
            read.append(NativeFile(package, relpath, path, read_elf(path)))
        except BinaryError as error:
            read.append(NativeFile(package, relpath, path, None, str(error)))
    return tuple(read)
