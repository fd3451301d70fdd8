"""read_elf and Exports on small, valid ELF files written by tests/lib/elfbuild.py: every fact
the reader promises, in 64 and 32 bits, through GNU and SysV hash tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat.binary.demangle import demangle
from compat.binary.elf import Exports, read_elf
from compat.binary.fatbin import Fatbin
from tests.lib.elfbuild import EM_AARCH64, FatEntry, Symbol, build, fatbin_container

SYMBOLS = (
    Symbol("_ZN3c1013MessageLoggerD1Ev"),
    Symbol("torch_defined"),
    Symbol("_ZN2at4_ops3add4callEv", defined=False),
    Symbol("cudaLaunchKernel", defined=False),
    Symbol("__cxa_finalize", defined=False, weak=True),
    Symbol("also_defined"),
    Symbol("third_defined"),
)
FATBIN = fatbin_container(
    [FatEntry(2, 80), FatEntry(2, 90, 0x10_0011), FatEntry(1, 75), FatEntry(2, 120)]
) + fatbin_container([FatEntry(2, 100, 0x20_0011, header_size=112), FatEntry(2, 80)])


def write(tmp_path: Path, data: bytes, name: str = "lib.so") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("bits", [64, 32])
@pytest.mark.parametrize("hash_style", ["gnu", "sysv", "both"])
def test_facts_and_exports(tmp_path: Path, bits: int, hash_style: str) -> None:
    built = build(
        bits=bits,
        soname="libext.so.1",
        needed=("libc10.so", "libcudart.so.12", "libc.so.6"),
        runpath="$ORIGIN/../lib:$ORIGIN",
        symbols=SYMBOLS,
        hash_style=hash_style,
        sections={".nv_fatbin": FATBIN},
    )
    path = write(tmp_path, built.data)
    facts = read_elf(path)
    assert facts.machine == "x86_64"
    assert facts.soname == "libext.so.1"
    assert facts.needed == ("libc10.so", "libcudart.so.12", "libc.so.6")
    assert facts.runpath == ("$ORIGIN/../lib", "$ORIGIN")
    assert facts.undefined == ("_ZN2at4_ops3add4callEv", "cudaLaunchKernel")
    assert facts.weak_undefined == ("__cxa_finalize",)
    assert facts.fatbin == Fatbin(
        sass=("sm_80", "sm_90a", "sm_100f", "sm_120"), ptx=("compute_75",), entries=6
    )
    assert facts.relfatbin is None
    with Exports(path) as exports:
        for symbol in (
            "_ZN3c1013MessageLoggerD1Ev",
            "torch_defined",
            "also_defined",
            "third_defined",
        ):
            assert symbol in exports
        for symbol in (
            "_ZN2at4_ops3add4callEv",
            "cudaLaunchKernel",
            "__cxa_finalize",
            "absent",
            "",
        ):
            assert symbol not in exports


def test_without_hash_table_nothing_is_exported(tmp_path: Path) -> None:
    path = write(tmp_path, build(symbols=SYMBOLS, hash_style="none").data)
    assert read_elf(path).undefined == ("_ZN2at4_ops3add4callEv", "cudaLaunchKernel")
    with Exports(path) as exports:
        assert "torch_defined" not in exports


def test_without_section_headers_the_dynamic_tables_are_read(tmp_path: Path) -> None:
    """The loader needs no section headers; the symbol count then comes from the hash table."""
    for style in ("gnu", "sysv"):
        built = build(
            symbols=SYMBOLS, hash_style=style, needed=("libc10.so",), section_headers=False
        )
        path = write(tmp_path, built.data, f"{style}.so")
        facts = read_elf(path)
        assert facts.needed == ("libc10.so",)
        assert facts.undefined == ("_ZN2at4_ops3add4callEv", "cudaLaunchKernel")
        assert facts.fatbin is None
        with Exports(path) as exports:
            assert "also_defined" in exports


def test_rpath_when_no_runpath_and_machine_names(tmp_path: Path) -> None:
    path = write(tmp_path, build(rpath="/opt/cuda/lib64", machine=EM_AARCH64).data)
    facts = read_elf(path)
    assert facts.runpath == ("/opt/cuda/lib64",)
    assert facts.machine == "aarch64"
    assert facts.soname is None
    assert facts.fatbin is None
    assert read_elf(write(tmp_path, build(machine=999).data, "odd.so")).machine == "EM_999"


def test_fatbin_sections(tmp_path: Path) -> None:
    """`.nv_fatbin` is what the runtime loads; `__nv_relfatbin` (relocatable device code) is
    reported apart; an empty `.nv_fatbin` is a fat binary with no device code at all."""
    rel = fatbin_container([FatEntry(2, 60, 0x2011), FatEntry(1, 90, 0x2011, header_size=96)])
    padded = FATBIN + b"\0" * 8 + fatbin_container([FatEntry(1, 90, 0x10_0011)])
    built = build(sections={".nv_fatbin": padded, "__nv_relfatbin": rel})
    facts = read_elf(write(tmp_path, built.data))
    assert facts.fatbin is not None
    assert facts.fatbin.ptx == ("compute_75", "compute_90a")
    assert facts.fatbin.entries == 7
    assert facts.relfatbin == Fatbin(sass=("sm_60",), ptx=("compute_90",), entries=2)
    empty = read_elf(write(tmp_path, build(sections={".nv_fatbin": b""}).data, "empty.so"))
    assert empty.fatbin == Fatbin(sass=(), ptx=(), entries=0)


FLAGS = b"-gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_90a,code=sm_90a;" + (
    b"-gencode;arch=compute_120,code=compute_120"
)


@pytest.mark.parametrize(
    ("rodata", "expected"),
    [
        (b"x\0" + FLAGS + b"\0tail\0", FLAGS.decode()),
        (FLAGS, FLAGS.decode()),  # the section ends with the string: bounded by the section
        # a first string that is not the flags, then the flags
        (b"-gencode;arch=compute_ is not\0" + FLAGS + b"\0", FLAGS.decode()),
        (b"-gencode;arch=compute_80,code=sm_80;junk\0", None),
        (b"-gencode;arch=compute_80,code=sm_80" + b";x" * 4000, None),  # past the bound
        (b"no flags here\0", None),
    ],
)
def test_arch_flags_from_rodata(tmp_path: Path, rodata: bytes, expected: str | None) -> None:
    sections = {".rodata": rodata, ".nv_fatbin": FATBIN}
    facts = read_elf(write(tmp_path, build(sections=sections).data))
    assert facts.arch_flags == expected


def test_arch_flags_only_of_files_with_device_code(tmp_path: Path) -> None:
    facts = read_elf(write(tmp_path, build(sections={".rodata": FLAGS + b"\0"}).data))
    assert facts.fatbin is None and facts.arch_flags is None


def test_demangle() -> None:
    assert (
        demangle("_ZN3c1013MessageLoggerC1ENS_14SourceLocationEib")
        == "c10::MessageLogger::MessageLogger(c10::SourceLocation, int, bool)"
    )
    for unchanged in ("cudaLaunchKernel", "_Znot-a-name", "", "_Z" + "N" * 10_000, "_Z\0"):
        assert demangle(unchanged) == unchanged
