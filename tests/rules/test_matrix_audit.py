"""The boundaries the knowledge-base audit found, through `compat doctor` on real dist-info trees.

Each case is an installed environment written to disk as pip leaves it (METADATA, direct_url.json,
DeepSpeed's git_version_info_installed.py) and read by the real CLI; the expected verdicts come from
the upstream facts cited in the rules (release-tag source, declared metadata), restated here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.dists import make_dist, make_env
from tests.lib.doctor import doctor_findings

FSDP2 = "accelerate-fsdp2-needs-torch-2.6"
TF_TORCH = "transformers-5-disables-old-torch"
TF_PEFT = "transformers-5-peft-floor"
VLLM_TF5 = "vllm-before-0.19.1-with-transformers-5"
VLLM_TF_RANGE = "vllm-transformers-outside-declared-range"
TORCHVISION = "torchvision-torch-pair-mismatch"
FLASH = "flash-attn-built-for-another-torch"
DS_OPS = "deepspeed-prebuilt-ops-torch-mismatch"
DS_OPS_CUDA = "deepspeed-prebuilt-ops-cuda-mismatch"


def only(found: Mapping[str, str], rules: Sequence[str]) -> dict[str, str]:
    return {rule: status for rule, status in found.items() if rule in rules}


@pytest.mark.parametrize(
    ("accelerate", "torch", "expected"),
    [
        ("1.5.2", "2.4.1", {}),  # no fsdp_version before 1.6
        ("1.6.0", "2.5.0", {FSDP2: "affected"}),
        ("1.6.0", "2.5.1", {}),  # 1.6.0's floor is 2.5.1
        ("1.7.0", "2.5.1", {FSDP2: "affected"}),  # 2.6.0 from 1.7.0
        ("1.7.0", "2.6.0", {}),
        ("1.15.0", "2.5.1", {FSDP2: "affected"}),
    ],
)
def test_accelerate_fsdp2_floor(tmp_path: Path, accelerate: str, torch: str, expected: Any) -> None:
    site = make_env(tmp_path, {"accelerate": accelerate, "torch": torch})
    assert (
        only(doctor_findings(site, settings=("distributed=fsdp", "fsdp_version=2")), [FSDP2])
        == expected
    )
    assert (
        only(doctor_findings(site, settings=("distributed=fsdp", "fsdp_version=1")), [FSDP2]) == {}
    )


@pytest.mark.parametrize(
    ("transformers", "torch", "affected"),
    [
        ("5.0.0", "2.1.2", True), ("5.0.0", "2.2.0", False),
        ("5.1.0", "2.3.1", True), ("5.14.1", "2.4.0", False),
        ("5.15.0", "2.4.1", True), ("5.19.0", "2.5.1", False),
        ("5.20.0", "2.5.1", True), ("5.23.0", "2.6.0", False),
    ],
)  # fmt: skip
def test_transformers_5_torch_floor(
    tmp_path: Path, transformers: str, torch: str, affected: bool
) -> None:
    site = make_env(tmp_path, {"transformers": transformers, "torch": torch})
    assert only(doctor_findings(site), [TF_TORCH]) == ({TF_TORCH: "affected"} if affected else {})


@pytest.mark.parametrize(
    ("transformers", "peft", "affected"),
    [
        ("5.5.4", "0.18.0", False), ("5.6.0", "0.18.1", True),
        ("5.12.0", "0.18.2", False), ("5.13.0", "0.19.0", True),
        ("5.17.0", "0.19.1", False), ("5.18.0", "0.19.1", True), ("5.18.0", "0.20.0", False),
    ],
)  # fmt: skip
def test_transformers_5_peft_floor(
    tmp_path: Path, transformers: str, peft: str, affected: bool
) -> None:
    site = make_env(tmp_path, {"transformers": transformers, "peft": peft, "torch": "2.6.0"})
    assert only(doctor_findings(site, settings=("peft=true",)), [TF_PEFT]) == (
        {TF_PEFT: "affected"} if affected else {}
    )


@pytest.mark.parametrize(
    ("vllm", "transformers", "expected"),
    [
        ("0.10.2", "5.0.0", {VLLM_TF5: "affected"}),  # reads all_special_tokens_extended
        ("0.10.2", "4.57.1", {}),
        ("0.11.1", "5.0.0", {VLLM_TF_RANGE: "affected"}),  # declares transformers<5
        ("0.19.1", "5.5.1", {}),
        ("0.19.1", "5.5.0", {}),  # single excluded releases: pip's to enforce, projects override
        ("0.31.0", "5.18.0", {VLLM_TF_RANGE: "affected"}),  # 0.31.0 caps transformers <5.18
    ],
)
def test_vllm_with_transformers_5(
    tmp_path: Path, vllm: str, transformers: str, expected: Any
) -> None:
    site = make_env(tmp_path, {"vllm": vllm, "transformers": transformers})
    assert only(doctor_findings(site), [VLLM_TF5, VLLM_TF_RANGE]) == expected


@pytest.mark.parametrize(
    ("numba", "numpy", "expected"),
    [
        ("0.63.1", "2.4.0", {"numba-0.63-numpy-2.4": "affected"}),
        ("0.63.1", "2.3.5", {}),
        ("0.64.0", "2.4.0", {}),
    ],
)
def test_numba_caps_numpy(tmp_path: Path, numba: str, numpy: str, expected: Any) -> None:
    site = make_env(tmp_path, {"numba": numba, "numpy": numpy})
    assert {r: s for r, s in doctor_findings(site).items() if r.startswith("numba-")} == expected


@pytest.mark.parametrize(
    ("torchvision", "torch", "affected"),
    [
        ("0.27.1", "2.12.1", False), ("0.27.0", "2.13.0", True), ("0.28.0", "2.13.0", False),
        ("0.28.0", "2.12.0", True), ("0.29.0", "2.14.0", False), ("0.29.0", "2.15.0", True),
        ("0.29.1", "2.15.0", False),  # 0.29.1 declares torch>=2.14.0
        ("0.29.1", "2.13.0", True),
    ],
)  # fmt: skip
def test_torchvision_pairs(tmp_path: Path, torchvision: str, torch: str, affected: bool) -> None:
    site = make_env(tmp_path, {"torchvision": torchvision, "torch": torch})
    assert only(doctor_findings(site), [TORCHVISION]) == (
        {TORCHVISION: "affected"} if affected else {}
    )


FLASH_WHEEL = (
    "https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/"
    "flash_attn-2.8.3%2Bcu12torch2.8cxx11abiTRUE-cp312-cp312-linux_x86_64.whl"
)


@pytest.mark.parametrize(("torch", "expected"), [("2.9.0", {FLASH: "affected"}), ("2.8.0", {})])
def test_flash_attn_release_wheel_read_from_direct_url(
    tmp_path: Path, torch: str, expected: Any
) -> None:
    site = make_env(tmp_path, {"torch": torch})
    make_dist(site, "flash_attn", "2.8.3", direct_url={"url": FLASH_WHEEL, "archive_info": {}})
    assert only(doctor_findings(site), [FLASH]) == expected


def test_flash_attn_label_in_the_installed_version(tmp_path: Path) -> None:
    site = make_env(tmp_path, {"torch": "2.7.1", "flash_attn": "2.8.3+cu12torch2.8cxx11abiFALSE"})
    assert only(doctor_findings(site), [FLASH]) == {FLASH: "affected"}


def test_flash_attn_built_from_source_is_not_judged(tmp_path: Path) -> None:
    site = make_env(tmp_path, {"torch": "2.9.0", "flash_attn": "2.8.3"})
    assert only(doctor_findings(site), [FLASH]) == {}


def deepspeed_with_ops(site: Path, ops: Mapping[str, bool], torch_info: Mapping[str, str]) -> None:
    """DeepSpeed as setup.py leaves it: git_version_info_installed.py beside its dist-info."""
    make_dist(site, "deepspeed", "0.16.4")
    package = site / "deepspeed"
    package.mkdir()
    (package / "git_version_info_installed.py").write_text(
        "version='0.16.4'\ngit_hash='unknown'\ngit_branch='unknown'\n"
        f"installed_ops={dict(ops)!r}\ncompatible_ops={dict(ops)!r}\n"
        f"torch_info={dict(torch_info)!r}\n"
    )


@pytest.mark.parametrize(
    ("ops", "torch", "expected"),
    [
        ({"cpu_adam": True, "fused_adam": False}, "2.2.0+cu121", {DS_OPS: "affected"}),
        ({"cpu_adam": True}, "2.1.2+cu121", {}),
        ({"cpu_adam": True}, "2.1.2+cu118", {DS_OPS_CUDA: "affected"}),
        ({"cpu_adam": False, "fused_adam": False}, "2.2.0+cu118", {}),  # JIT-only: not judged
    ],
)
def test_deepspeed_prebuilt_ops(tmp_path: Path, ops: Any, torch: str, expected: Any) -> None:
    site = make_env(tmp_path, {"torch": torch})
    info = {
        "version": "2.1",
        "bf16_support": "False",
        "cuda_version": "12.1",
        "nccl_version": "2.18",
    }
    deepspeed_with_ops(site, ops, info)
    assert only(doctor_findings(site), [DS_OPS, DS_OPS_CUDA]) == expected


def test_a_broken_version_info_file_says_nothing(tmp_path: Path) -> None:
    site = make_env(tmp_path, {"torch": "2.2.0"})
    make_dist(site, "deepspeed", "0.16.4")
    (site / "deepspeed").mkdir()
    (site / "deepspeed" / "git_version_info_installed.py").write_text("installed_ops={oops\n")
    assert only(doctor_findings(site), [DS_OPS, DS_OPS_CUDA]) == {}
    assert json.dumps(doctor_findings(site))  # and doctor still reports
