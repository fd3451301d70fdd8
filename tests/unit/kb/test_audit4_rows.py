"""Audit 4's corrections (shared/research/kb-audit-4.md), each tested at its source: the
DeepSpeed message forms of op_builder/builder.py at v0.16.4 (l.101-113), bitsandbytes 0.43.0's
import-time error (cextension.py at the 0.43.0 tag), and the kernel rule's description against
the generated arch table it describes. Through `compat explain` on log files."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from compat.kb import archtable
from compat.kb.knowledge import load_knowledge_base
from tests.conftest import run_cli

# The three lines DeepSpeed v0.16.4 prints for a system nvcc that differs from torch's CUDA:
REJECTED = (
    "deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed "
    "CUDA version 12.8 does not match the version torch was compiled with 12.4, unable to compile "
    "cuda/cpp extensions without a matching cuda version."
)
ACCEPTED = (
    "Installed CUDA version 12.8 does not match the version torch was compiled with 12.4 but "
    "since the APIs are compatible, accepting this combination"
)
SKIPPED = (
    " [WARNING]  DeepSpeed Op Builder: Installed CUDA version 12.8 does not match the version "
    "torch was compiled with 12.4.Detected `DS_SKIP_CUDA_CHECK=1`: Allowing this combination of "
    "CUDA, but it may result in unexpected behavior."
)


def matched(tmp_path: Path, line: str) -> set[str]:
    log = tmp_path / "train.log"
    log.write_text(line + "\n", encoding="utf-8")
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return {m["rule"] for m in result.json()["matches"]}


@pytest.mark.parametrize(
    ("line", "expected"),
    [(REJECTED, True), (ACCEPTED, False), (SKIPPED, False)],
    ids=["rejected", "accepted", "ds-skip-cuda-check"],
)
def test_deepspeed_minor_mismatch_symptom_forms(tmp_path: Path, line: str, expected: bool) -> None:
    assert ("deepspeed-nvcc-12.8-torch-cuda-mismatch" in matched(tmp_path, line)) is expected


def test_deepspeed_skip_check_stays_a_sign_across_a_major(tmp_path: Path) -> None:
    """Across a major, DS_SKIP_CUDA_CHECK=1 builds ops against the wrong CUDA: still a sign."""
    line = SKIPPED.replace("version 12.8", "version 13.0").replace("with 12.4.", "with 12.8.")
    assert "deepspeed-nvcc-torch-cuda-major-mismatch" in matched(tmp_path, line)


def test_bitsandbytes_0_43_0_fails_at_import_with_a_gpu(tmp_path: Path) -> None:
    line = (
        "RuntimeError: \n        CUDA Setup failed despite GPU being available. Please run the "
        "following command to get more information:"
    )
    assert "bitsandbytes-no-library-for-torch-cuda" in matched(tmp_path, line)
    rule = next(
        r
        for r in load_knowledge_base(()).rules()
        if r.id == "bitsandbytes-no-library-for-torch-cuda"
    )
    assert "0.40.1-0.43.0 fail at import" in " ".join(rule.description.split())


def test_the_kernel_rule_says_what_the_table_says() -> None:
    """Audit 4 row 3: the CUDA 12.8 build never had Maxwell or Pascal; 2.7's starts at Turing,
    2.8-2.10 add Volta back, 2.11 drops it again."""

    def first(release: str) -> str:
        arches = archtable.arch_list(Version(release), Version("12.8"))
        assert arches is not None
        return arches.sass[0]

    assert [first(r) for r in ("2.7.0", "2.8.0", "2.9.0", "2.10.0", "2.11.0")] == [
        "7.5", "7.0", "7.0", "7.0", "7.5",
    ]  # fmt: skip
    rule = next(
        r for r in load_knowledge_base(()).rules() if r.id == "torch-no-kernel-image-for-gpu"
    )
    text = " ".join(rule.description.split())
    assert "2.7's cu128 build starts at Turing" in text
    assert "2.8-2.10 add Volta back, and 2.11 drops it again" in text
