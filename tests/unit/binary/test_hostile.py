"""Hostile binaries are input (issue 33 item 6): every corruption of a valid ELF file gives
ElfFacts or one BinaryError line, never another exception, never a hang."""

from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compat.binary.elf import BinaryError, ElfFacts, Exports, read_elf
from tests.lib.elfbuild import Built, FatEntry, Symbol, build, fatbin_container

SYMBOLS = (
    Symbol("_ZN3c1013MessageLoggerD1Ev"),
    Symbol("defined_one"),
    Symbol("defined_two"),
    Symbol("_ZN2at4_ops3add4callEv", defined=False),
    Symbol("weak_one", defined=False, weak=True),
)
FATBIN = fatbin_container([FatEntry(2, 80), FatEntry(1, 75), FatEntry(2, 90, 0x10_0011)])


def valid(bits: int = 64, **extra: object) -> Built:
    return build(
        bits=bits,
        soname="libx.so",
        needed=("libc10.so",),
        runpath="$ORIGIN",
        symbols=SYMBOLS,
        sections={".nv_fatbin": FATBIN},
        **extra,  # type: ignore[arg-type]
    )


def refused(path: Path | str) -> str:
    with pytest.raises(BinaryError) as caught:
        read_elf(str(path))
    message = str(caught.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message


def u16(value: int) -> bytes:
    return struct.pack("<H", value)


def u64(value: int) -> bytes:
    return struct.pack("<Q", value)


def test_the_valid_file_reads(tmp_path: Path) -> None:
    path = tmp_path / "ok.so"
    path.write_bytes(valid().data)
    assert read_elf(str(path)).needed == ("libc10.so",)


def corruptions() -> list[tuple[str, bytes]]:
    good = valid()
    at = good.at
    data = good.data
    return [
        ("empty", b""),
        ("wrong magic", b"MZ" + data[2:]),
        ("text", b"#!/bin/sh\necho not a library\n"),
        ("truncated ident", data[:8]),
        ("truncated header", data[:40]),
        ("truncated tables", data[: len(data) // 2]),
        ("big-endian", good.patched(5, b"\x02")),
        ("bad class", good.patched(4, b"\x07")),
        ("relocatable object", good.patched(16, u16(1))),
        ("absurd section count", good.patched(at["e_shnum"], u16(0xFFFF))),
        ("section headers past the end", good.patched(at["e_shoff"], u64(1 << 40))),
        ("program headers past the end", good.patched(at["e_phoff"], u64(1 << 40))),
        ("absurd program header count", good.patched(at["e_phnum"], u16(0xFFFF))),
        ("needed name past the string table", good.patched(at["dynamic"] + 8, u64(1 << 30))),
        ("dynamic table past the end", good.patched(at["phdr"] + 56 + 8, u64(1 << 40))),
        (
            "fatbin with a bad length",
            _with_fatbin(fatbin_container([FatEntry(2, 80)], claimed=1 << 20)),
        ),
        (
            "fatbin entry of size zero",
            _with_fatbin(fatbin_container([FatEntry(2, 80, header_size=0)])),
        ),
        ("fatbin entry past its container", _with_fatbin(fatbin_container([FatEntry(2, 80)])[:-8])),
        ("junk between containers", _with_fatbin(FATBIN + b"junkjunk" + FATBIN)),
        ("fatbin of another version", _with_fatbin(FATBIN[:4] + u16(9) + FATBIN[6:])),
    ]


def _with_fatbin(blob: bytes) -> bytes:
    return build(symbols=SYMBOLS, sections={".nv_fatbin": blob}).data


@pytest.mark.parametrize(("case", "data"), corruptions(), ids=[c for c, _ in corruptions()])
def test_corrupt_file_is_one_line(tmp_path: Path, case: str, data: bytes) -> None:
    path = tmp_path / "bad.so"
    path.write_bytes(data)
    refused(path)
    with pytest.raises(BinaryError):
        Exports(str(path)).close()
        read_elf(str(path))  # Exports may read what it needs; read_elf must still refuse


def test_paths_that_are_not_files(tmp_path: Path) -> None:
    loop = tmp_path / "loop.so"
    loop.symlink_to(tmp_path / "loop2.so")
    (tmp_path / "loop2.so").symlink_to(loop)
    refused(loop)
    refused(tmp_path / "missing.so")
    refused(tmp_path)
    fifo = tmp_path / "fifo.so"
    os.mkfifo(fifo)
    refused(fifo)  # refused without waiting for a writer
    refused("/dev/zero")
    refused("bad\0name.so")


def test_a_chain_without_end_is_refused_at_look_up(tmp_path: Path) -> None:
    """A GNU hash chain whose every hash is even walks to the end of the file, then refuses."""
    good = valid()
    chains_at = good.at["gnu.hash"] + 16 + 8 + 4  # header, one Bloom word, one bucket
    data = bytearray(good.data)
    for index in range(3):
        data[chains_at + index * 4] &= 0xFE
    path = tmp_path / "chain.so"
    path.write_bytes(bytes(data))
    with Exports(str(path)) as exports:
        for name in ("defined_one", "defined_two", "_ZN3c1013MessageLoggerD1Ev"):
            try:
                assert isinstance(name in exports, bool)
            except BinaryError as error:
                assert "\n" not in str(error)


SEEDS = {
    "gnu64": valid(),
    "sysv32": valid(32, hash_style="sysv"),
    "bare": valid(section_headers=False),
}


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    seed=st.sampled_from(sorted(SEEDS)),
    edits=st.lists(st.tuples(st.integers(0, 1 << 16), st.integers(0, 255)), min_size=1, max_size=8),
    cut=st.one_of(st.none(), st.integers(0, 1 << 16)),
)
def test_any_mutation_gives_facts_or_one_binary_error(
    tmp_path_factory: pytest.TempPathFactory,
    seed: str,
    edits: list[tuple[int, int]],
    cut: int | None,
) -> None:
    data = bytearray(SEEDS[seed].data)
    for position, value in edits:
        data[position % len(data)] = value
    blob = bytes(data if cut is None else data[: cut % (len(data) + 1)])
    path = tmp_path_factory.mktemp("fuzz") / "mutant.so"
    path.write_bytes(blob)
    try:
        assert isinstance(read_elf(str(path)), ElfFacts)
    except BinaryError as error:
        assert str(error) and "\n" not in str(error)
    try:
        with Exports(str(path)) as exports:
            for name in ("defined_one", "_ZN3c1013MessageLoggerD1Ev", "absent"):
                assert isinstance(name in exports, bool)
    except BinaryError as error:
        assert str(error) and "\n" not in str(error)
