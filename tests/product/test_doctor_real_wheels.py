"""doctor on environments built from real wheels' files (issue 33 item 8): the wheels' own
dist-info and skeletons of their ELF files (tests/data/native, MANIFEST.json names each wheel and
its sha256; EXPECTED.md what cuobjdump and nm read from the originals). compat's answers are
held to those readings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.lib.doctor import doctor_report
from tests.lib.hardware import profile
from tests.lib.native_envs import write_recipe


def binary(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["rule"]: f for f in report["findings"] if f["kind"] == "binary"}


def native_file(report: dict[str, Any], path: str) -> dict[str, Any]:
    return next(f for f in report["environment"]["native"]["files"] if f["path"] == path)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("recipes")
    names = ("clean", "other_torch", "nccl_twice", "xformers", "bitsandbytes")
    return {name: write_recipe(root / name, name) for name in names}


def gpu(tmp_path: Path, name: str, cc: str) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    return profile(tmp_path, name, cc, "570.133.20", "12.8", count=1)


def test_torchaudio_beside_the_torch_it_was_built_for(sites: dict[str, Path]) -> None:
    _, report = doctor_report(sites["clean"])
    assert binary(report) == {}  # no false alarm on a consistent environment
    audio = native_file(report, "torchaudio/lib/libtorchaudio.so")
    # EXPECTED.md: cuobjdump lists sm_50 ... sm_90 and compute_50
    assert audio["sass"] == ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
    assert audio["ptx"] == ["compute_50"]
    # torch 2.5.1's own list: the nvcc flags its libtorch_cuda.so records (what
    # torch.cuda.get_arch_list() reports), not the union of its 2381 fat-binary entries, which
    # also holds a few sm_90a kernels
    assert report["environment"]["native"]["torch_arch_list"] == [
        "sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90",
    ]  # fmt: skip
    torch_cuda = native_file(report, "torch/lib/libtorch_cuda.so")
    assert "sm_90a" in torch_cuda["sass"]


def test_torchaudio_beside_another_torch(sites: dict[str, Path]) -> None:
    code, report = doctor_report(sites["other_torch"])
    assert code == 1
    found = binary(report)["binary-symbols:torchaudio"]
    assert found["status"] == "affected" and found["evidence"] == "observed"
    # EXPECTED.md: against torch 2.4.1 exactly one symbol is missing
    assert "at::SavedTensorDefaultHooks::set_tracing(bool)" in found["title"]
    assert "libtorchaudio.so" in found["title"]


def test_two_nccl_wheels_own_one_library(sites: dict[str, Path]) -> None:
    code, report = doctor_report(sites["nccl_twice"])
    assert code == 1
    found = binary(report)["binary-shared-file:nvidia-nccl-cu12+nvidia-nccl-cu13"]
    assert "nvidia/nccl/lib/libnccl.so.2" in found["title"]


def test_xformers_gpu_code_on_three_gpus(sites: dict[str, Path], tmp_path: Path) -> None:
    site = sites["xformers"]
    _, report = doctor_report(site, hardware=gpu(tmp_path / "p100", "Tesla P100-PCIE-16GB", "6.0"))
    assert "binary-no-kernel-image:xformers" not in binary(report)  # sm_60
    assert "binary-symbols:xformers" not in binary(report)  # built for torch 2.5.1
    _, report = doctor_report(
        site, hardware=gpu(tmp_path / "5090", "NVIDIA GeForce RTX 5090", "12.0")
    )
    assert "binary-no-kernel-image:xformers" not in binary(report)  # compute_80 PTX: JIT
    assert any(n.startswith("xformers 0.0.28.post3") and "JIT" in n for n in report["notes"])
    _, report = doctor_report(site, hardware=gpu(tmp_path / "k80", "Tesla K80", "3.7"))
    assert binary(report)["binary-no-kernel-image:xformers"]["status"] == "affected"


def test_bitsandbytes_is_judged_by_the_library_torch_loads(
    sites: dict[str, Path], tmp_path: Path
) -> None:
    site = sites["bitsandbytes"]
    _, report = doctor_report(site, hardware=gpu(tmp_path / "a100", "NVIDIA A100-SXM4-80GB", "8.0"))
    assert "binary-no-kernel-image:bitsandbytes" not in binary(report)
    # its cuda117/118 libraries need libcudart.so.11, never loaded beside a CUDA 12.4 torch
    assert "binary-library-major:bitsandbytes" not in binary(report)
    # EXPECTED.md: cuda120-126 carry sm_50 ... sm_90 and no PTX: nothing runs on sm_120
    _, report = doctor_report(
        site, hardware=gpu(tmp_path / "5090", "NVIDIA GeForce RTX 5090", "12.0")
    )
    found = binary(report)["binary-no-kernel-image:bitsandbytes"]
    assert "libbitsandbytes_cuda124.so" in found["title"]
