"""Reading every ELF file of a real torch + torchaudio + xformers + bitsandbytes set with
compat.binary (issue 33 item 5: the whole set in at most 2 s cold). Each file is read for
everything doctor needs: read_elf (DT_NEEDED, SONAME, RUNPATH, undefined symbols, fat-binary
headers) and, for every extension, its undefined c10/at/torch symbols looked up in the torch
libraries' exports (Exports, hash-table look-ups).

Cold: every file's pages are dropped from the page cache first (posix_fadvise DONTNEED, the
files only, not the machine's cache); warm: the same read again.

The wheels are downloaded once (pip download --no-deps) into WORK/elf-wheels and their native
files extracted; `--site DIR` reads an existing environment's site-packages instead.

Run: .venv/bin/python benchmarks/bench_elf.py [--site DIR] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import WORK
from compat.binary import elf
from compat.binary.elf import BinaryError, Exports, read_elf

WHEELS = ("torch", "torchaudio", "xformers", "bitsandbytes")
TORCH_LIBS = ("libc10.so", "libtorch_cpu.so", "libtorch_cuda.so", "libc10_cuda.so")


def fetch(cache: Path) -> Path:
    """The four wheels' native files, extracted under cache/site."""
    site = cache / "site"
    done = cache / "done"
    if done.exists():
        return site
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
         "--disable-pip-version-check", "-q", "-d", str(cache), *WHEELS],
        check=True,
    )  # fmt: skip
    for wheel in cache.glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if ".so" in Path(name).name:
                    archive.extract(name, site)
    done.touch()
    return site


def elf_files(site: Path) -> list[Path]:
    found = []
    for path in sorted(site.rglob("*.so*")):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    found.append(path)
    return found


def evict(paths: list[Path]) -> None:
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def read_all(paths: list[Path]) -> tuple[float, int, int, int]:
    """Seconds, files read, symbols looked up, files refused (a fresh process's state: the
    look-up's hash cache emptied)."""
    elf._gnu_hash.cache_clear()
    started = time.perf_counter()
    facts = {}
    refused = 0
    for path in paths:
        try:
            facts[path] = read_elf(str(path))
        except BinaryError:
            refused += 1
    libraries = [p for p in paths if p.name in TORCH_LIBS]
    exports = [Exports(str(p)) for p in libraries]
    lookups = 0
    try:
        for path, fact in facts.items():
            if path in libraries:
                continue
            for symbol in fact.undefined:
                if symbol.startswith(("_ZN3c10", "_ZN2at", "_ZN5torch")):
                    lookups += 1
                    any(symbol in table for table in exports)
    finally:
        for table in exports:
            table.close()
    return time.perf_counter() - started, len(facts), lookups, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="an existing site-packages to read instead")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    site = args.site or fetch(WORK / "elf-wheels")
    paths = elf_files(site)
    size = sum(p.stat().st_size for p in paths)
    cold, warm = [], []
    for _ in range(args.runs):
        evict(paths)
        seconds, count, lookups, refused = read_all(paths)
        cold.append(seconds)
        warm.append(read_all(paths)[0])
    print(
        f"{count} ELF files ({size / 2**20:.0f} MiB), {refused} refused, {lookups} symbol look-ups"
    )
    print(
        f"cold: median {statistics.median(cold):.3f} s  (runs {', '.join(f'{s:.3f}' for s in cold)})"
    )
    print(
        f"warm: median {statistics.median(warm):.3f} s  (runs {', '.join(f'{s:.3f}' for s in warm)})"
    )
    print(
        f"target (issue 33): cold <= 2 s -> {'met' if statistics.median(cold) <= 2 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
