"""The HIP container gaps of issue 43, on bundles the real tools wrote (tests/data/hip-bundles,
make.py there; test_hip_tools.py rebuilds them where the tools are installed): a v1 compressed
bundle, which states no size, ends where its compressed stream ends, even where the stream holds
the bytes `CCOB`; entry IDs whose triple has an environment (`-unknown-`); the generic targets
LLVM lists."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from compat.binary.elf import BinaryError, read_elf
from compat.binary.gfxtarget import bundle_target, runs
from tests.lib.elfbuild import build
from tests.lib.hipbuild import aligned, bundle

DATA = Path(__file__).resolve().parents[2] / "data" / "hip-bundles"
HAS_ZSTD = importlib.util.find_spec("zstandard") is not None or (
    importlib.util.find_spec("compression") is not None
    and importlib.util.find_spec("compression.zstd") is not None
)


def fixture(name: str, folder: Path = DATA) -> bytes:
    return (folder / name).read_bytes()


def _elf(tmp_path: Path, section: bytes, name: str = "lib.so") -> str:
    path = tmp_path / name
    path.write_bytes(build(soname=name, sections={".hip_fatbin": section}).data)
    return str(path)


def check_v1_streams(tmp_path: Path, folder: Path = DATA) -> None:
    zstd_v1, zlib_v1 = fixture("ccob-v1-zstd.bin", folder), fixture("ccob-v1-zlib.bin", folder)
    for blob in (zstd_v1, zlib_v1):  # the premise: a search for the magic stops inside
        assert blob.find(b"CCOB", 4) > 20
    layouts = {
        "aligned": aligned(zstd_v1, zlib_v1, fixture("env-triple.hipfb", folder)),
        "back-to-back": zlib_v1 + zstd_v1 + fixture("env-triple.hipfb", folder),
    }
    for name, section in layouts.items():
        hip = read_elf(_elf(tmp_path, section, f"{name}.so")).hip
        assert hip is not None
        assert (hip.bundles, hip.compressed) == (3, 2), name
        expected = {"gfx90a", "gfx942:sramecc+:xnack-", "gfx1201"}
        if HAS_ZSTD:
            assert set(hip.targets) == expected | {"gfx1100"} and hip.unread == 0
        else:  # counted unread, and the bundle after it still found
            assert set(hip.targets) == expected and hip.unread == 1


def test_v1_bundles_end_where_their_stream_ends_not_at_a_stray_magic(tmp_path: Path) -> None:
    check_v1_streams(tmp_path)


def test_v1_stream_cut_short_or_corrupt_is_one_line(tmp_path: Path) -> None:
    zstd_v1, zlib_v1 = fixture("ccob-v1-zstd.bin"), fixture("ccob-v1-zlib.bin")
    reserved_block = bytearray(zstd_v1)
    reserved_block[20 + 6] |= 0x06  # the first block header's type: 3, reserved
    for section in (
        zstd_v1[: len(zstd_v1) - 40],
        zlib_v1[: len(zlib_v1) - 40],
        bytes(reserved_block),
        zstd_v1[:20] + b"\0" * 64,  # no zstd frame where one must be
    ):
        with pytest.raises(BinaryError) as caught:
            read_elf(_elf(tmp_path, section))
        assert "\n" not in str(caught.value)


def check_environment_ids(tmp_path: Path, folder: Path = DATA) -> None:
    hip = read_elf(_elf(tmp_path, fixture("env-triple.hipfb", folder), "env.so")).hip
    assert hip is not None and hip.targets == ("gfx90a", "gfx942:sramecc+:xnack-")
    hip = read_elf(_elf(tmp_path, fixture("generic.hipfb", folder), "generic.so")).hip
    assert hip is not None and hip.targets == ("gfx9-4-generic:xnack-", "gfx11-generic")


def test_entry_ids_with_an_environment_in_the_triple(tmp_path: Path) -> None:
    check_environment_ids(tmp_path)


@pytest.mark.parametrize(
    ("entry_id", "target"),
    [
        ("hipv4-amdgcn-amd-amdhsa--gfx942:xnack-", "gfx942:xnack-"),
        ("hip-amdgcn-amd-amdhsa-unknown-gfx90a", "gfx90a"),
        ("hipv4-amdgcn-amd-amdhsa-unknown-gfx942:sramecc+:xnack-", "gfx942:sramecc+:xnack-"),
        ("hip-amdgcn-amd-amdhsa-gfx1100", "gfx1100"),  # a three-component triple
        ("hipv4-amdgcn-amd-amdhsa-unknown-gfx11-7-generic", "gfx11-7-generic"),
        ("openmp-amdgcn-amd-amdhsa-gnu-gfx1151", "gfx1151"),
        ("hip-spirv64-amd-amdhsa-unknown-amdgcnspirv", "amdgcnspirv"),
        ("host-x86_64-unknown-linux-gnu", None),
        ("hip-amdgcn-amd-amdhsa-unknown-sm_90", None),
        ("hip-amdgcn-amd-amdhsa-unknown-x-gfx90a", None),  # two components between: not a triple
        ("hip-nvptx64-nvidia-cuda--sm_90", None),
    ],
)
def test_bundle_target_reads_three_and_four_component_triples(
    entry_id: str, target: str | None
) -> None:
    assert bundle_target(entry_id) == target


def test_a_bundle_with_the_environment_is_judged_like_one_without(tmp_path: Path) -> None:
    plain = read_elf(_elf(tmp_path, aligned(bundle(["gfx90a"])), "plain.so")).hip
    with_env = read_elf(_elf(tmp_path, fixture("env-triple.hipfb"), "env.so")).hip
    assert plain is not None and with_env is not None
    assert "gfx90a" in plain.targets and "gfx90a" in with_env.targets


@pytest.mark.parametrize(
    ("code", "gpu", "answer"),
    [
        ("gfx11-generic", "gfx1154", True),
        ("gfx11-generic", "gfx1170", False),  # gfx11.7 has its own generic target
        ("gfx11-7-generic", "gfx1170", True),
        ("gfx11-7-generic", "gfx1172", True),
        ("gfx11-7-generic", "gfx1151", False),
        ("gfx13-generic", "gfx1310", True),
        ("gfx12-generic", "gfx1250", False),
        ("gfx9-4-generic", "gfx950", True),
    ],
)
def test_generic_targets_cover_what_llvm_lists(code: str, gpu: str, answer: bool) -> None:
    assert runs(code, gpu, None) is answer


@pytest.mark.parametrize("level", [0, 1, 6, 9])
def test_zlib_streams_end_where_zlib_says(level: int) -> None:
    import random
    import zlib

    from compat.binary.hipfatbin import _stream_length

    noise = random.Random(43).randbytes(200_000)
    for data in (b"", noise, b"\0" * 3_000_000, noise[:1000] + b"CCOB" + noise[1000:5000]):
        stream = zlib.compress(data, level)
        blob = stream + b"CCOB" * 8
        assert _stream_length(blob, 0, len(blob), 0) == len(stream)


def test_a_v1_zlib_stream_inflating_past_its_stated_size_is_one_line(tmp_path: Path) -> None:
    """A hostile v1 bundle: a small stream of zeros that inflates far past the size its
    header states is cut there (one line), not inflated to its end."""
    import struct
    import zlib

    inner = bundle(["gfx942"])
    bomb = zlib.compress(inner + b"\0" * (8 << 20), 9)
    section = b"CCOB" + struct.pack("<HHIQ", 1, 0, 4096, 0) + bomb
    with pytest.raises(BinaryError) as caught:
        read_elf(_elf(tmp_path, section))
    assert "inflates past its 4096 bytes" in str(caught.value)
