#!/usr/bin/env python3
"""Regenerate tests/data/native/: skeletons of the native files of pinned real wheels (issue 33).

The tests of compat's binary reader and of doctor's binary findings need real ELF files from real
wheels (torch, torchaudio, xformers, bitsandbytes, the NCCL and CUDA runtime wheels), and a torch
wheel is 0.9 GB. A *skeleton* keeps only the bytes a header reader reads and zeroes every other
byte, at the original offsets and length:

* the ELF header, the program headers, the section header table and the section-name table;
* `.dynamic` (and the PT_DYNAMIC segment), `.dynsym`, `.dynstr` (the string table `.dynsym`
  links to), `.gnu.hash`, `.hash`, `.gnu.version`, `.gnu.version_r`, `.gnu.version_d`;
* in `.nv_fatbin`, each fat-binary container header and each entry header, not the payloads.

A skeleton is stored as `<name>.skel.xz`: the xz (LZMA) stream of a small binary file, `SKEL`
below, which lists the original length and its non-zero extents. tests/lib/skeleton.py writes
it back as a sparse file (a 0.9 GB library costs the extents' bytes on disk).

The fat-binary layout this script relies on (little-endian; public readers:
github.com/n-eiling/cuda-fatbin-decompression fatbin-decompress.h, the `fatbinary` Rust crate,
GrigoryEvko/nvopen-tools fatbin/FORMAT_SPECIFICATION.md; the section names `.nv_fatbin` and
`.nvFatBinSegment` are in CUDA's own include/fatbinary_section.h), checked here against cuobjdump:
the section is a sequence of containers, each a 16-byte header (u32 magic 0xBA55ED50, u16
version 1, u16 header size 16, u64 size of the entries that follow), then entries back to back,
each an entry header (u16 kind: 1 PTX, 2 ELF/SASS; u16 version; u32 header size; u64 payload
size; ...; u32 arch at offset 28) followed by its payload; the next entry starts at entry +
header size + payload size. Containers may be separated by zero padding.

Every skeleton is verified before it is written: `readelf --dyn-syms -d -W` of the restored
skeleton equals the original's (binutils, a dev-only tool), and for a file with `.nv_fatbin` the
entries read from the skeleton's container headers equal the count cuobjdump lists.

Inputs: the wheels, by exact file name and sha256 (WHEELS). `--download` fetches the missing
ones with `pip download --no-deps --only-binary=:all:` into `--wheels DIR` (default
/tmp/compat-native-wheels); the script fails when a wheel's sha256 differs from its pin. Outputs:
tests/data/native/MANIFEST.json (each wheel's name, sha256, its dist-info files, its native
members with their size and sha256 and their skeleton), tests/data/native/<wheel>/... and
tests/data/native/EXPECTED.md's measured part (cuobjdump's SASS/PTX lists, nm's counts).

Usage: python scripts/native_fixtures.py [--download] [--wheels DIR] [--cuobjdump PATH]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import mmap
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "native"
DEFAULT_WHEELS = Path("/tmp/compat-native-wheels")
LOCAL_WHEELS = Path("/opt/pypi-more/files")
BUDGET = 10 * 1024 * 1024  # all committed fixtures, bytes


@dataclass(frozen=True)
class Wheel:
    project: str
    version: str
    filename: str
    sha256: str
    members: tuple[str, ...] | None  # None: every ELF member; () : dist-info only


WHEELS: tuple[Wheel, ...] = (
    Wheel(
        "torch",
        "2.5.1",
        "torch-2.5.1-cp311-cp311-manylinux1_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "torch",
        "2.4.1",
        "torch-2.4.1-cp311-cp311-manylinux1_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "torchaudio",
        "2.5.1",
        "torchaudio-2.5.1-cp311-cp311-manylinux1_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "xformers",
        "0.0.28.post3",
        "xformers-0.0.28.post3-cp311-cp311-manylinux_2_28_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "bitsandbytes",
        "0.45.0",
        "bitsandbytes-0.45.0-py3-none-manylinux_2_24_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "nvidia-nccl-cu12",
        "2.21.5",
        "nvidia_nccl_cu12-2.21.5-py3-none-manylinux2014_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "nvidia-nccl-cu13",
        "2.30.7",
        "nvidia_nccl_cu13-2.30.7-py3-none-manylinux_2_18_x86_64.whl",
        "",
        None,
    ),
    Wheel(
        "nvidia-cuda-runtime-cu12",
        "12.4.127",
        "nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl",
        "",
        None,
    ),
)
PINS_FILE = OUT / "MANIFEST.json"

# --- the skeleton format -------------------------------------------------------------------
# SKEL: b"COMPATSKEL1\n", u64 length, u32 extent count, then per extent u64 offset, u64 size and
# the extent's bytes; all little-endian; extents sorted, disjoint, non-adjacent.
MAGIC = b"COMPATSKEL1\n"

ELF_MAGIC = b"\x7fELF"
SHT_DYNAMIC, SHT_HASH, SHT_DYNSYM, SHT_NOBITS = 6, 5, 11, 8
SHT_GNU_HASH, SHT_GNU_VERDEF, SHT_GNU_VERNEED, SHT_GNU_VERSYM = (
    0x6FFFFFF6,
    0x6FFFFFFD,
    0x6FFFFFFE,
    0x6FFFFFFF,
)
KEEP_TYPES = {SHT_DYNAMIC, SHT_HASH, SHT_DYNSYM, SHT_GNU_HASH, SHT_GNU_VERDEF}
KEEP_TYPES |= {SHT_GNU_VERNEED, SHT_GNU_VERSYM}
PT_DYNAMIC = 2
FATBIN_MAGIC = 0xBA55ED50


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass
class Sections:
    extents: list[tuple[int, int]]
    fatbin: bool  # the file has a .nv_fatbin section
    sass: list[str]  # per entry, file order
    ptx: list[str]


ARCH_SPECIFIC = 0x100000  # entry flags bit of an `sm_90a` cubin (checked against cuobjdump)


def _fatbin_extents(
    data: mmap.mmap, start: int, end: int
) -> tuple[list[tuple[int, int]], list[str], list[str]]:
    """The container and entry headers of one `.nv_fatbin` section, and the SASS and PTX
    architecture of every entry in file order."""
    extents: list[tuple[int, int]] = []
    sass: list[str] = []
    ptx: list[str] = []
    pos = start
    while pos + 16 <= end:
        magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", data, pos)
        if magic != FATBIN_MAGIC:
            if magic == 0:  # padding between containers
                pos += 4
                continue
            raise SystemExit(f"fatbin: bad magic {magic:#x} at {pos:#x}")
        extents.append((pos, header_size))
        entry = pos + header_size
        stop = entry + fat_size
        if stop > end:
            raise SystemExit(f"fatbin: container at {pos:#x} runs past its section")
        while entry < stop:
            kind, _ver, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            arch, flags = struct.unpack_from("<I8xQ", data, entry + 28)
            extents.append((entry, entry_header))
            if kind == 2:
                sass.append(f"sm_{arch}" + ("a" if flags & ARCH_SPECIFIC else ""))
            elif kind == 1:
                ptx.append(f"compute_{arch}")
            else:
                raise SystemExit(f"fatbin: entry kind {kind} at {entry:#x}")
            entry += entry_header + payload
        pos = stop
    return extents, sass, ptx


def _arch_flags_extents(data: mmap.mmap, start: int, end: int) -> list[tuple[int, int]]:
    """Each `-gencode;arch=compute_...` string in `.rodata` with its NUL: torch's CUDA library
    records its build's arch flags there (compat.binary.elf.ElfFacts.arch_flags)."""
    found = []
    at = data.find(b"-gencode;arch=compute_", start, end)
    while at >= 0:
        limit = min(at + 4096, end)
        stop = data.find(b"\0", at, limit)
        found.append((at, (stop if stop >= 0 else limit) - at + 1))
        at = data.find(b"-gencode;arch=compute_", at + 1, end)
    return found


def elf_extents(data: mmap.mmap) -> Sections:
    if data[:4] != ELF_MAGIC or data[4] != 2 or data[5] != 1:
        raise SystemExit("not a 64-bit little-endian ELF file")
    (phoff, shoff) = struct.unpack_from("<QQ", data, 0x20)
    phentsize, phnum, shentsize, shnum, shstrndx = struct.unpack_from("<HHHHH", data, 0x36)
    extents = [(0, 64), (phoff, phentsize * phnum)]
    if shnum == 0 and shoff:
        shnum = struct.unpack_from("<Q", data, shoff + 0x20)[0]
    extents.append((shoff, shentsize * shnum))
    headers = []
    for index in range(shnum):
        name, kind, _flags, _addr, offset, size, link = struct.unpack_from(
            "<IIQQQQI", data, shoff + index * shentsize
        )
        headers.append((name, kind, offset, size, link))
    names_offset = headers[shstrndx][2]
    extents.append((names_offset, headers[shstrndx][3]))
    fatbin = False
    sass: list[str] = []
    ptx: list[str] = []
    for name, kind, offset, size, link in headers:
        label = data[names_offset + name : data.find(b"\0", names_offset + name)].decode()
        if kind == SHT_NOBITS:
            continue
        if kind in KEEP_TYPES:
            extents.append((offset, size))
            if kind in (SHT_DYNSYM, SHT_DYNAMIC):
                extents.append((headers[link][2], headers[link][3]))
        if label == ".rodata":
            extents += _arch_flags_extents(data, offset, offset + size)
        if label == ".nv_fatbin":
            found, sass, ptx = _fatbin_extents(data, offset, offset + size)
            extents += found
            fatbin = True
    for index in range(phnum):
        kind, _flags, offset, _vaddr, _paddr, filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + index * phentsize
        )
        if kind == PT_DYNAMIC:
            extents.append((offset, filesz))
    return Sections(merge(extents), fatbin, sass, ptx)


def merge(extents: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for start, size in sorted(e for e in extents if e[1] > 0):
        if merged and start <= merged[-1][0] + merged[-1][1]:
            last_start, last_size = merged[-1]
            merged[-1] = (last_start, max(last_size, start + size - last_start))
        else:
            merged.append((start, size))
    return merged


def write_skeleton(source: Path, target: Path) -> Sections:
    with (
        source.open("rb") as handle,
        mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data,
    ):
        sections = elf_extents(data)
        length = len(data)
        parts = [MAGIC, struct.pack("<QI", length, len(sections.extents))]
        for start, size in sections.extents:
            if start + size > length:
                raise SystemExit(f"{source}: extent {start:#x}+{size:#x} past the end")
            parts.append(struct.pack("<QQ", start, size))
            parts.append(data[start : start + size])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(lzma.compress(b"".join(parts), preset=9 | lzma.PRESET_EXTREME))
    return sections


def restore(skeleton: Path, target: Path) -> None:
    """The same as tests/lib/skeleton.py (kept apart: a script never imports the suite)."""
    blob = lzma.decompress(skeleton.read_bytes())
    if not blob.startswith(MAGIC):
        raise SystemExit(f"{skeleton}: not a skeleton")
    length, count = struct.unpack_from("<QI", blob, len(MAGIC))
    pos = len(MAGIC) + 12
    with target.open("wb") as out:
        out.truncate(length)
        for _ in range(count):
            start, size = struct.unpack_from("<QQ", blob, pos)
            pos += 16
            out.seek(start)
            out.write(blob[pos : pos + size])
            pos += size


def readelf(path: Path) -> str:
    done = subprocess.run(
        ["readelf", "--dyn-syms", "-d", "-W", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def cuobjdump_lists(tool: str, path: Path) -> tuple[list[str], list[str], str]:
    """The SASS and PTX architecture of every entry cuobjdump lists, in its order, and its
    error line ("" when it read the file)."""
    sass: list[str] = []
    ptx: list[str] = []
    error = ""
    for flag, bucket in (("--list-elf", sass), ("--list-ptx", ptx)):
        done = subprocess.run([tool, flag, str(path)], capture_output=True, text=True)
        fatal = [line for line in done.stderr.splitlines() if "fatal" in line]
        if fatal or done.returncode not in (0, 255) or (done.returncode and not done.stderr):
            error = (fatal or [f"exit {done.returncode}"])[0]
        for line in done.stdout.splitlines():
            # "ELF file    1: libtorchaudio.1.sm_50.cubin" / "PTX file    1: x.1.sm_50.ptx"
            if not line.startswith(("ELF file", "PTX file")):
                continue
            arch = line.rsplit(".", 2)[-2]
            bucket.append(arch.replace("sm_", "compute_") if bucket is ptx else arch)
    return sass, ptx, error


def unique(archs: list[str]) -> list[str]:
    return sorted(set(archs), key=_arch_key)


def _arch_key(arch: str) -> tuple[int, str]:
    digits = "".join(c for c in arch.split("_", 1)[-1] if c.isdigit())
    return (int(digits or 0), arch)


def nm_symbols(path: Path, which: str) -> frozenset[str]:
    done = subprocess.run(
        ["nm", "-D", which, "--without-symbol-versions", "--format=posix", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    return frozenset(line.split(" ", 1)[0] for line in done.stdout.splitlines() if line)


@dataclass(frozen=True)
class Symbols:
    """What nm -D says of one original native file, and what readelf -d says it needs."""

    undefined: frozenset[str]
    defined: frozenset[str]
    needed: tuple[str, ...]


def needed(path: Path) -> tuple[str, ...]:
    done = subprocess.run(["readelf", "-d", "-W", str(path)], capture_output=True, text=True)
    return tuple(
        line.rsplit("[", 1)[1].rstrip("]")
        for line in done.stdout.splitlines()
        if "(NEEDED)" in line
    )


def iter_elf_members(archive: zipfile.ZipFile, wheel: Wheel) -> Iterator[zipfile.ZipInfo]:
    for info in archive.infolist():
        if info.is_dir() or ".dist-info/" in info.filename:
            continue
        if wheel.members is not None:
            if info.filename in wheel.members:
                yield info
            continue
        with archive.open(info) as member:
            if member.read(4) == ELF_MAGIC:
                yield info


def find_wheel(wheel: Wheel, wheels: Path, download: bool) -> Path:
    for folder in (wheels, LOCAL_WHEELS):
        if (folder / wheel.filename).is_file():
            return folder / wheel.filename
    if not download:
        raise SystemExit(f"{wheel.filename}: not in {wheels} (run with --download)")
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--disable-pip-version-check",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            "3.11",
            "--platform",
            wheel.filename.rsplit("-", 1)[1].removesuffix(".whl").split(".")[0],
            "--index-url",
            "https://pypi.org/simple",
            "-d",
            str(wheels),
            f"{wheel.project}=={wheel.version}",
        ],
        check=True,
    )
    return wheels / wheel.filename


def pinned() -> dict[str, str]:
    if not PINS_FILE.is_file():
        return {}
    manifest = json.loads(PINS_FILE.read_text())
    return {entry["wheel"]: entry["sha256"] for entry in manifest["wheels"]}


def stem(filename: str) -> str:
    return filename.removesuffix(".whl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheels", type=Path, default=DEFAULT_WHEELS)
    parser.add_argument("--download", action="store_true")
    parser.add_argument("--cuobjdump", default=shutil.which("cuobjdump") or "")
    parser.add_argument("--only", default="", help="regenerate only wheels whose name has this")
    args = parser.parse_args()
    pins = pinned()
    old = json.loads(PINS_FILE.read_text()) if PINS_FILE.is_file() else {"wheels": []}
    old_by_wheel = {entry["wheel"]: entry for entry in old["wheels"]}
    manifest: list[dict[str, object]] = []
    measured: dict[tuple[str, str], Symbols] = {}
    scratch = Path(tempfile.mkdtemp(prefix="native-fixtures-"))
    try:
        for wheel in WHEELS:
            if args.only and args.only not in wheel.filename:
                if wheel.filename in old_by_wheel:
                    manifest.append(old_by_wheel[wheel.filename])
                continue
            path = find_wheel(wheel, args.wheels, args.download)
            digest = sha256_file(path)
            expected = pins.get(wheel.filename) or wheel.sha256
            if expected and expected != digest:
                raise SystemExit(f"{wheel.filename}: sha256 {digest}, pinned {expected}")
            entry = build_wheel(wheel, path, digest, scratch, args.cuobjdump, measured)
            manifest.append(entry)
            print(f"{wheel.filename}: {len(entry['members'])} native files", flush=True)  # type: ignore[arg-type]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    document = {
        "about": "Real wheels behind tests/data/native/ (scripts/native_fixtures.py).",
        "skeleton_format": "xz of: b'COMPATSKEL1\\n', u64 length, u32 n, n x (u64 offset, "
        "u64 size, bytes); little-endian",
        "wheels": manifest,
    }
    PINS_FILE.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    if not args.only:
        write_expected(manifest, measured)
    total = sum(f.stat().st_size for f in OUT.rglob("*") if f.is_file())
    print(f"tests/data/native: {total} bytes ({total / 1048576:.2f} MiB)")
    if total > BUDGET:
        print(f"over the budget of {BUDGET} bytes", file=sys.stderr)
        return 1
    return 0


def demangled(symbols: list[str]) -> list[str]:
    done = subprocess.run(
        ["c++filt"], input="\n".join(symbols), capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def tool_version(argv: list[str]) -> str:
    if not argv[0]:
        return "(none)"
    done = subprocess.run(argv, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return lines[-1] if "cuobjdump" in argv[0] else lines[0]


# Recipe (extension wheel, torch wheel it is judged beside), as tests/lib/native_envs.py builds
# them: the symbol counts the lead's tests assert compat's answers against.
PAIRS = (
    ("a", "torchaudio-2.5.1", "torch-2.5.1"),
    ("b", "torchaudio-2.5.1", "torch-2.4.1"),
    ("d", "xformers-0.0.28.post3", "torch-2.5.1"),
    ("d'", "xformers-0.0.28.post3", "torch-2.4.1"),
)
TORCH_NAMESPACES = ("c10::", "at::", "torch::", "caffe2::")


def write_expected(
    manifest: list[dict[str, object]], measured: dict[tuple[str, str], Symbols]
) -> None:
    lines = [
        "# What the native fixtures hold (measured; regenerate with scripts/native_fixtures.py)",
        "",
        "Measured on the **original** files of the wheels in MANIFEST.json (not the skeletons),",
        f"with cuobjdump `{tool_version([shutil.which('cuobjdump') or '', '--version'])}` and",
        f"`{tool_version(['nm', '--version'])}`. The lead's tests assert compat's answers",
        "against these numbers; do not edit by hand.",
        "",
        "## GPU code: `cuobjdump --list-elf` / `--list-ptx`",
        "",
        "SASS and PTX are the sorted unique architectures (a PTX file cuobjdump names",
        "`x.sm_50.ptx` is written `compute_50`); entries is how many SASS + PTX entries the",
        "file holds. *cuobjdump agrees*: cuobjdump lists exactly these entries, in the same",
        "order, as the script reads from the fat-binary entry headers the skeleton keeps. Where",
        "cuobjdump fails on the original file, the lists are the entry headers' alone.",
        "",
        "| wheel | file | SASS | PTX | entries | cuobjdump |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    no_fatbin: list[str] = []
    for entry in manifest:
        for member in entry["members"]:  # type: ignore[attr-defined]
            fatbin = member.get("fatbin")
            if fatbin is None:
                no_fatbin.append(f"`{member['path']}`")
                continue
            sass = ", ".join(fatbin["sass"]) or "(none)"
            ptx = ", ".join(fatbin["ptx"]) or "(none)"
            lines.append(
                f"| {entry['wheel']} | `{member['path']}` | {sass} | {ptx} | "
                f"{fatbin['entries']} | {fatbin.get('cuobjdump', 'not run')} |"
            )
    lines += ["", "Files without a `.nv_fatbin` section: " + ", ".join(no_fatbin) + ".", ""]
    lines += [
        "## Symbols: `nm -D --undefined-only` against `nm -D --defined-only`",
        "",
        "For an extension file X beside a torch T: *undefined* is X's undefined dynamic symbols",
        "(`U` and `w`, without symbol versions); *from torch* is those that torch's own",
        "libraries (`torch/lib/libc10*.so`, `torch/lib/libtorch*.so`) of either torch wheel",
        "define (the symbols torch must provide); *missing* is the *from torch*",
        "symbols that no library of T that X names in DT_NEEDED defines: the symbols",
        "the dynamic loader cannot bind, the `undefined symbol` of the crash.",
        "",
        "| recipe | extension file | torch | undefined | from torch | missing |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    torch_defined: dict[str, dict[str, frozenset[str]]] = {}
    for (wheel, path), symbols in measured.items():
        name = path.rsplit("/", 1)[-1]
        if wheel.startswith("torch-") and name.startswith(("libc10", "libtorch")):
            torch_defined.setdefault(wheel, {})[path.rsplit("/", 1)[-1]] = symbols.defined
    every_torch = frozenset().union(*(d for t in torch_defined.values() for d in t.values()))
    details: list[str] = []
    for recipe, extension, torch in PAIRS:
        torch_wheel = next(w for w in torch_defined if w.startswith(torch + "-"))
        for (wheel, path), symbols in sorted(measured.items()):
            if not wheel.startswith(extension + "-"):
                continue
            provided = frozenset().union(
                *(torch_defined[torch_wheel].get(name, frozenset()) for name in symbols.needed)
            )
            from_torch = symbols.undefined & every_torch
            missing = sorted(from_torch - provided)
            if not from_torch:
                continue
            lines.append(
                f"| {recipe} | `{path}` | {torch} | {len(symbols.undefined)} | "
                f"{len(from_torch)} | {len(missing)} |"
            )
            if missing:
                names = demangled(missing)
                details += ["", f"### Recipe {recipe}: `{path}` beside {torch}: {len(missing)}", ""]
                details += [f"- `{name}`" for name in names]
    lines += details
    (OUT / "EXPECTED.md").write_text("\n".join(lines) + "\n")


# Small text files the readers need, kept verbatim under files/ (tests/lib/native_envs.py installs
# them): torch/version.py says the CUDA build doctor judges torch's libraries by.
VERBATIM = frozenset({"torch/version.py"})


def build_wheel(
    wheel: Wheel,
    path: Path,
    digest: str,
    scratch: Path,
    cuobjdump: str,
    measured: dict[tuple[str, str], Symbols],
) -> dict[str, object]:
    folder = OUT / stem(wheel.filename)
    shutil.rmtree(folder, ignore_errors=True)
    members: list[dict[str, object]] = []
    dist_info: list[str] = []
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            parts = info.filename.split("/")
            kept = ("METADATA", "RECORD", "WHEEL", "top_level.txt")
            if len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] in kept:
                data = archive.read(info)
                target = folder / (info.filename + ".xz")
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
                dist_info.append(info.filename)
            if info.filename in VERBATIM:
                target = folder / "files" / info.filename
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(info))
        for info in iter_elf_members(archive, wheel):
            original = scratch / "original"
            with archive.open(info) as member, original.open("wb") as out:
                shutil.copyfileobj(member, out, 1 << 22)
            skeleton = folder / (info.filename + ".skel.xz")
            sections = write_skeleton(original, skeleton)
            restored = scratch / "restored"
            restore(skeleton, restored)
            if readelf(original) != readelf(restored):
                raise SystemExit(f"{wheel.filename}:{info.filename}: readelf differs")
            record: dict[str, object] = {
                "path": info.filename,
                "size": info.file_size,
                "sha256": sha256_file(original),
                "skeleton": str(skeleton.relative_to(OUT)),
                "skeleton_bytes": skeleton.stat().st_size,
            }
            if sections.fatbin:
                fatbin: dict[str, object] = {
                    "sass": unique(sections.sass),
                    "ptx": unique(sections.ptx),
                    "entries": len(sections.sass) + len(sections.ptx),
                }
                if cuobjdump:
                    sass, ptx, error = cuobjdump_lists(cuobjdump, original)
                    if error:
                        fatbin["cuobjdump"] = f"fails: {error.replace(str(original), 'FILE')}"
                    elif (sass, ptx) != (sections.sass, sections.ptx):
                        raise SystemExit(
                            f"{info.filename}: fatbin headers read {len(sections.sass)} SASS "
                            f"and {len(sections.ptx)} PTX entries, cuobjdump lists "
                            f"{len(sass)} and {len(ptx)} (or other architectures)"
                        )
                    else:
                        fatbin["cuobjdump"] = "agrees"
                record["fatbin"] = fatbin
            measured[(wheel.filename, info.filename)] = Symbols(
                nm_symbols(original, "--undefined-only"),
                nm_symbols(original, "--defined-only"),
                needed(original),
            )
            members.append(record)
            restored.unlink()
            original.unlink()
    return {
        "wheel": wheel.filename,
        "project": wheel.project,
        "version": wheel.version,
        "sha256": digest,
        "url": f"https://pypi.org/project/{wheel.project}/{wheel.version}/#files",
        "dist_info": sorted(dist_info),
        "members": members,
    }


if __name__ == "__main__":
    sys.exit(main())
