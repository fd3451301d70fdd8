"""HIP code objects read from ELF files built on disk: plain and compressed clang offload
bundles in `.hip_fatbin`, LLVM OffloadBinary in `.llvm.offloading`, TheRock's kpack marker, the
target-ID match, and hostile bundles (one line each, never a traceback)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compat.binary.elf import BinaryError, ElfFacts, read_elf
from compat.binary.gfxtarget import bundle_target, runs
from tests.lib.elfbuild import build
from tests.lib.hipbuild import aligned, bundle, ccob, offload_binary


def _elf(tmp_path: Path, sections: dict[str, bytes], name: str = "lib.so") -> str:
    path = tmp_path / name
    path.write_bytes(build(soname=name, sections=sections).data)
    return str(path)


def test_plain_bundles_back_to_back(tmp_path: Path) -> None:
    section = aligned(bundle(["gfx90a:xnack-", "gfx90a:xnack+"]), bundle(["gfx942", "gfx1100"]))
    hip = read_elf(_elf(tmp_path, {".hip_fatbin": section})).hip
    assert hip is not None
    assert hip.targets == ("gfx90a:xnack+", "gfx90a:xnack-", "gfx942", "gfx1100")
    assert hip.bundles == 2 and hip.compressed == 0 and hip.unread == 0


@pytest.mark.parametrize("version", [1, 2, 3])
def test_compressed_zlib_bundles(tmp_path: Path, version: int) -> None:
    inner = bundle(["gfx942", "gfx1151"], code=bytes(range(256)) * 64)
    section = aligned(ccob(inner, version=version), ccob(bundle(["gfx1201"]), version=version))
    hip = read_elf(_elf(tmp_path, {".hip_fatbin": section})).hip
    assert hip is not None
    assert hip.targets == ("gfx942", "gfx1151", "gfx1201")
    assert hip.compressed == 2 and hip.unread == 0


def test_zstd_bundle_without_a_zstd_module_is_counted_unread(tmp_path: Path) -> None:
    pytest.importorskip("zstandard", reason="needs zstandard to write the fixture")
    section = aligned(ccob(bundle(["gfx942"]), method=1))
    hip = read_elf(_elf(tmp_path, {".hip_fatbin": section})).hip
    assert hip is not None and hip.targets == ("gfx942",)


def test_offload_binary_and_kpack_marker(tmp_path: Path) -> None:
    # each image aligned to 8 bytes in the section, as the linker wrapper places them
    images = [
        offload_binary("gfx90a:sramecc+:xnack-"),
        offload_binary("gfx942"),
        offload_binary("sm_90", triple="nvptx64-nvidia-cuda"),
    ]
    section = b"".join(i + b"\0" * (-len(i) % 8) for i in images)
    hip = read_elf(_elf(tmp_path, {".llvm.offloading": section})).hip
    assert hip is not None and hip.targets == ("gfx90a:sramecc+:xnack-", "gfx942")
    marker = read_elf(_elf(tmp_path, {".rocm_kpack_ref": b"kpack\0"}, "k.so")).hip
    assert marker is not None and marker.kpack and marker.targets == ()


def test_spirv_entries_are_listed_as_amdgcnspirv(tmp_path: Path) -> None:
    # --offload-arch=amdgcnspirv: one TU's bundle holds SPIR-V, another's gfx942 code objects;
    # SYCL's SPIR-V (sycl-spir64-unknown-unknown) is no HIP target
    spirv = bundle(["amdgcnspirv"])
    section = aligned(spirv, bundle(["gfx942"]))
    hip = read_elf(_elf(tmp_path, {".hip_fatbin": section})).hip
    assert hip is not None and hip.targets == ("gfx942", "amdgcnspirv")
    images = [
        offload_binary("amdgcnspirv", triple="spirv64-amd-amdhsa"),
        offload_binary("gfx1100"),
    ]
    offloading = b"".join(i + b"\0" * (-len(i) % 8) for i in images)
    hip = read_elf(_elf(tmp_path, {".llvm.offloading": offloading}, "o.so")).hip
    assert hip is not None and hip.targets == ("gfx1100", "amdgcnspirv")
    assert bundle_target("hip-spirv64-amd-amdhsa-unknown-amdgcnspirv") == "amdgcnspirv"
    assert bundle_target("sycl-spir64-unknown-unknown") is None


def test_no_device_code_is_none(tmp_path: Path) -> None:
    assert read_elf(_elf(tmp_path, {".rodata": b"x"})).hip is None


@pytest.mark.parametrize(
    ("code", "gpu", "features", "answer"),
    [
        ("gfx942", "gfx942", "sramecc+", True),
        ("gfx942:sramecc+", "gfx942", "sramecc+", True),
        ("gfx942:sramecc-", "gfx942", "sramecc+", False),
        ("gfx90a:xnack+", "gfx90a", "sramecc+", None),  # xnack mode not known
        ("gfx90a:xnack-", "gfx90a", "sramecc+:xnack-", True),
        ("gfx1100", "gfx1151", None, False),
        ("gfx11-generic", "gfx1151", None, True),
        ("gfx90a", "gfx942", None, False),
        ("amdgcnspirv", "gfx1151", None, None),
        ("gfx12-5-generic", "gfx1250", None, True),  # llvm-project#183381
        ("gfx12-5-generic", "gfx1201", None, False),  # compiled at load time, if the runtime can
    ],
)
def test_target_id_match(code: str, gpu: str, features: str | None, answer: bool | None) -> None:
    assert runs(code, gpu, features) is answer


def _hostile_sections() -> dict[str, bytes]:
    good = bundle(["gfx942"])
    count_at = 24
    return {
        "garbage": b"not a bundle at all" + b"\1" * 100,
        "absurd-count": good[:count_at] + struct.pack("<Q", 1 << 40) + good[count_at + 8 :],
        "zero-entries": good[:count_at] + struct.pack("<Q", 0) + good[count_at + 8 :],
        "cut-short": good[:40],
        "long-id": good[:48] + struct.pack("<Q", 1 << 30) + good[56:],
        "past-the-end": good[:32] + struct.pack("<QQ", 1 << 40, 8) + good[48:],
        "ccob-bad-version": b"CCOB" + struct.pack("<HH", 9, 0) + b"\0" * 40,
        "ccob-bad-method": ccob(good)[:6] + struct.pack("<H", 7) + ccob(good)[8:],
        "ccob-corrupt-zlib": ccob(good)[:24] + b"\xff" * 64,
        "ccob-overrun": b"CCOB" + struct.pack("<HHIIQ", 2, 0, 1 << 30, 10, 0) + b"\0" * 8,
        "ccob-not-a-bundle": ccob(b"hello world" * 10),
        # the first bytes of a bundle's magic and no whole magic: once read as zero padding of no
        # length, the reader stood still on them for ever (a CI run's hang)
        "magic-prefix-only": b"__CL" + b"\1" * 60,
        "padding-then-magic-prefix": b"\0" * 16 + b"CCOB"[:4] + b"\xff" * 8,
    }


@pytest.mark.parametrize("kind", sorted(_hostile_sections()))
def test_hostile_bundles_are_one_line(tmp_path: Path, kind: str) -> None:
    path = _elf(tmp_path, {".hip_fatbin": _hostile_sections()[kind]})
    with pytest.raises(BinaryError) as caught:
        read_elf(path)
    message = str(caught.value)
    assert "\n" not in message and message


def test_hostile_offload_binaries_are_one_line(tmp_path: Path) -> None:
    good = offload_binary("gfx942")
    for blob in (
        good[:8] + struct.pack("<Q", 1 << 40) + good[16:],
        good[:24] + struct.pack("<Q", 1 << 20) + good[32:],
        b"\1" * 80,
    ):
        with pytest.raises(BinaryError):
            read_elf(_elf(tmp_path, {".llvm.offloading": blob}))


# --- corruption: any mutation of the device-code sections is facts or one line --------------


_SEEDS = {
    "plain": build(
        soname="p.so", sections={".hip_fatbin": aligned(bundle(["gfx90a:xnack-", "gfx942"]))}
    ),
    "zlib": build(
        soname="z.so", sections={".hip_fatbin": aligned(ccob(bundle(["gfx1100"]), version=3))}
    ),
    "zstd": build(
        soname="s.so", sections={".hip_fatbin": aligned(ccob(bundle(["gfx1151"]), method=1))}
    ),
    "offload": build(soname="o.so", sections={".llvm.offloading": offload_binary("gfx942")}),
}
_SECTION = {
    "plain": ".hip_fatbin",
    "zlib": ".hip_fatbin",
    "zstd": ".hip_fatbin",
    "offload": ".llvm.offloading",
}


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    seed=st.sampled_from(sorted(_SEEDS)),
    edits=st.lists(st.tuples(st.integers(0, 4200), st.integers(0, 255)), min_size=1, max_size=8),
)
def test_any_mutation_of_device_code_gives_facts_or_one_line(
    tmp_path_factory: pytest.TempPathFactory, seed: str, edits: list[tuple[int, int]]
) -> None:
    built = _SEEDS[seed]
    data = bytearray(built.data)
    start = built.at[_SECTION[seed]]
    for position, value in edits:
        data[(start + position) % len(data)] = value
    path = tmp_path_factory.mktemp("hipfuzz") / "mutant.so"
    path.write_bytes(bytes(data))
    try:
        assert isinstance(read_elf(str(path)), ElfFacts)
    except BinaryError as error:
        assert str(error) and "\n" not in str(error)
