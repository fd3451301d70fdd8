"""Real native files of real wheels, as skeletons (tests/data/native/, issue 33).

scripts/native_fixtures.py keeps, of each ELF file of a pinned wheel, only the bytes a header
reader needs (the ELF and program headers, the section header table and its names, the dynamic
section and symbol tables with their hash and version tables, each fat-binary container and entry
header); every other byte is zero. `restore` writes one back at its original length and offsets
as a sparse file, so a 0.9 GB libtorch_cuda.so costs a few MB of disk.

A skeleton file (`*.skel.xz`) is the xz stream of: b"COMPATSKEL1\\n", u64 length, u32 extent
count, then per extent u64 offset, u64 size and its bytes (little-endian).
"""

from __future__ import annotations

import json
import lzma
import struct
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tests.lib.paths import DATA

NATIVE = DATA / "native"
"""The skeletons, the wheels' dist-info files, MANIFEST.json and EXPECTED.md."""
MAGIC = b"COMPATSKEL1\n"


@dataclass(frozen=True)
class Member:
    """One native file of a wheel: its path in the wheel and what the original was."""

    path: str
    size: int
    sha256: str
    skeleton: Path


@dataclass(frozen=True)
class WheelFixture:
    """One pinned real wheel: its file name and sha256, its dist-info files, its native files."""

    wheel: str
    project: str
    version: str
    sha256: str
    dist_info: tuple[str, ...]
    members: tuple[Member, ...]

    def member(self, path: str) -> Member:
        for member in self.members:
            if member.path == path:
                return member
        raise KeyError(f"{self.wheel} has no native file {path}")

    def dist_info_text(self, name: str) -> bytes:
        """The dist-info file `name` (its path in the wheel) as the wheel holds it."""
        return lzma.decompress((NATIVE / _stem(self.wheel) / f"{name}.xz").read_bytes())


def _stem(wheel: str) -> str:
    return wheel.removesuffix(".whl")


@cache
def manifest() -> dict[str, WheelFixture]:
    """Every fixture wheel of MANIFEST.json, by project-version (`torch-2.5.1`)."""
    document: dict[str, Any] = json.loads((NATIVE / "MANIFEST.json").read_text())
    wheels: dict[str, WheelFixture] = {}
    for entry in document["wheels"]:
        members = tuple(
            Member(m["path"], m["size"], m["sha256"], NATIVE / m["skeleton"])
            for m in entry["members"]
        )
        fixture = WheelFixture(
            entry["wheel"],
            entry["project"],
            entry["version"],
            entry["sha256"],
            tuple(entry["dist_info"]),
            members,
        )
        wheels[f"{entry['project']}-{entry['version']}"] = fixture
    return wheels


def wheel(key: str) -> WheelFixture:
    """The fixture wheel `project-version` (`torchaudio-2.5.1`)."""
    return manifest()[key]


def restore(skeleton: Path, target: Path) -> Path:
    """Write the skeleton back at `target`: the original length, the kept bytes at their
    offsets, holes everywhere else (a sparse file where the file system allows)."""
    blob = lzma.decompress(skeleton.read_bytes())
    if not blob.startswith(MAGIC):
        raise ValueError(f"{skeleton}: not a skeleton")
    length, count = struct.unpack_from("<QI", blob, len(MAGIC))
    pos = len(MAGIC) + 12
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("wb") as out:
        out.truncate(length)
        for _ in range(count):
            start, size = struct.unpack_from("<QQ", blob, pos)
            pos += 16
            out.seek(start)
            out.write(blob[pos : pos + size])
            pos += size
    return target


def restore_member(key: str, path: str, target: Path) -> Path:
    """The native file `path` of wheel `key`, restored at `target`."""
    return restore(wheel(key).member(path).skeleton, target)
