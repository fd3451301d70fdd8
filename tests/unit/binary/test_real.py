"""The reader on real libraries from a real torch wheel: exports known from the wheel's own
libc10.so / libc10_cuda.so (checked once with `nm -D --defined-only`, asserted here by name,
never through binutils' output). The wheel is looked for where this machine's package mirror
keeps it (COMPAT_TORCH_WHEEL names another); the test says so and skips where it is absent.
The real-wheel fixtures of tests/data/native/ cover fat binaries, NCCL and the other wheels."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from compat.binary.demangle import demangle
from compat.binary.elf import Exports, read_elf

WHEEL = Path(
    os.environ.get(
        "COMPAT_TORCH_WHEEL",
        "/opt/pypi-more/files/torch-2.14.1-cp311-cp311-manylinux_2_28_x86_64.whl",
    )
)


@pytest.fixture(scope="module")
def torch_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not WHEEL.is_file():
        pytest.skip(f"no torch wheel at {WHEEL} (set COMPAT_TORCH_WHEEL)")
    out = tmp_path_factory.mktemp("torch")
    with zipfile.ZipFile(WHEEL) as wheel:
        for name in ("torch/lib/libc10.so", "torch/lib/libc10_cuda.so"):
            wheel.extract(name, out)
    return out / "torch" / "lib"


def test_libc10_exports_and_needs(torch_lib: Path) -> None:
    path = str(torch_lib / "libc10.so")
    facts = read_elf(path)
    assert facts.machine == "x86_64"
    assert facts.soname == "libc10.so"
    assert "libstdc++.so.6" in facts.needed
    assert "$ORIGIN" in facts.runpath
    assert facts.fatbin is None
    assert len(facts.undefined) > 100  # libstdc++ and libc: measured 230
    with Exports(path) as exports:
        for symbol in (
            "_ZN3c1019UndefinedTensorImpl10_singletonE",
            "_ZN3c1013MessageLoggerC1ENS_14SourceLocationEib",
            "_ZN3c1013MessageLoggerD1Ev",
        ):
            assert symbol in exports, symbol
        for symbol in facts.undefined[:50]:
            assert symbol not in exports, symbol
        assert "_ZN3c1013MessageLoggerC1ENS_14SourceLocationEibX" not in exports


def test_libc10_cuda_needs_libc10_and_cudart(torch_lib: Path) -> None:
    path = str(torch_lib / "libc10_cuda.so")
    facts = read_elf(path)
    assert facts.needed[0] == "libc10.so"
    assert "libcudart.so.13" in facts.needed
    logger = "_ZN3c1013MessageLoggerC1ENS_14SourceLocationEib"
    assert logger in facts.undefined  # what libc10.so must export
    assert demangle(logger) == "c10::MessageLogger::MessageLogger(c10::SourceLocation, int, bool)"
    with Exports(str(torch_lib / "libc10.so")) as c10:
        assert logger in c10
    with Exports(path) as exports:
        assert (
            "_ZN3c104cuda29c10_cuda_check_implementationEiPKcS2_jbPNS0_19CUDAErrorLogCaptureE"
            in exports
        )
        assert logger not in exports
