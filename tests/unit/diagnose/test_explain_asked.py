"""`compat explain` asks no question the log answers (issue 34 item 2): a fact the log prints
(the GPU's compute capability, the driver, the driver's CUDA, a version, a build) is never listed
as unknown, on any of the real logs; a portable-PTX case (torch's list ends in PTX an older
architecture's, the GPU newer) asks whether the driver JIT-compiled it and whether the driver's
CUDA reaches the build's, never for the GPU. Real logs (tests/data/logs, PROVENANCE.md), judged
through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
NO_KERNEL = "torch-no-kernel-image-for-gpu"
NUMPY1_BUILD = "numpy1-build-beside-numpy2"
PTX_LOG = LOGS / "sd-k8s-10-h100-compute37-ptx.log"


def explain(path: Path) -> tuple[int, dict[str, object]]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert document["schema"] == "compat.explain/1"
    return result.exit_code, document


def matches_of(document: dict[str, object]) -> list[dict[str, object]]:
    matches = document["matches"]
    assert isinstance(matches, list)
    return matches


def asked(match: dict[str, object]) -> list[str]:
    unknown = match["unknown"]
    assert isinstance(unknown, list)
    return [str(u).split(" — ")[0] for u in unknown]


def printed(document: dict[str, object]) -> set[str]:
    """The fact names (as `unknown` spells them) whose value the log prints."""
    facts = document["facts"]
    assert isinstance(facts, list)
    names: set[str] = set()
    for f in facts:
        kind, key = f["kind"], f["key"]
        if kind in ("compute_capability", "driver", "cuda_driver"):
            names.add(f"hardware.{kind}")
        elif kind == "package" and f["value"]:
            names.add(f"packages.{key}")
        elif kind in ("build", "usage"):
            names.add(f"{kind}.{key}")
        elif kind == "python":
            names.add("python")
    return names


@pytest.mark.parametrize("log", sorted(p.name for p in LOGS.glob("*.log")))
def test_no_question_the_log_answers(log: str) -> None:
    _, document = explain(LOGS / log)
    shown = printed(document)
    for match in matches_of(document):
        assert not shown & set(asked(match)), (match["rule"], match["unknown"])


def test_portable_ptx_asks_about_the_jit_not_the_gpu() -> None:
    """An H100 (sm_90) beside a build whose list ends in compute_37: torch warns, the driver may
    JIT the PTX. The GPU is stated; the driver's CUDA and the build's are what is open."""
    code, document = explain(PTX_LOG)
    match = matches_of(document)[0]
    assert (match["rule"], match["verdict"], match["line"]) == (NO_KERNEL, "symptom-only", 2)
    assert asked(match) == ["hardware.cuda_driver", "build.torch_cuda"]
    unknown = match["unknown"]
    assert isinstance(unknown, list) and all("JIT" in str(u) for u in unknown)
    assert code == 0


@pytest.mark.parametrize(
    ("driver", "cuda", "verdict"),
    [
        # R535 (CUDA 12.2) JIT-compiles CUDA 11.7's PTX: the warning, not this cause
        ("535.104.05", "12.2", "outside-range"),
        # R470 (CUDA 11.4) cannot JIT CUDA 11.7's PTX: nothing runs on the H100
        ("470.57.02", "11.4", "confirmed"),
    ],
)
def test_portable_ptx_settled_by_the_drivers_cuda_against_the_builds(
    tmp_path: Path, driver: str, cuda: str, verdict: str
) -> None:
    log = tmp_path / "ptx.log"
    header = f"| NVIDIA-SMI {driver}   Driver Version: {driver}   CUDA Version: {cuda}     |\n"
    log.write_text(header + "torch==1.13.1+cu117\n" + PTX_LOG.read_text())
    _, document = explain(log)
    match = next(m for m in matches_of(document) if m["rule"] == NO_KERNEL)
    assert match["verdict"] == verdict
    assert asked(match) == []
    facts = match["facts"]
    assert isinstance(facts, list)
    used = {f["fact"]: f["line"] for f in facts}
    assert used["hardware.cuda_driver"] == 1 and used["build.torch_cuda"] is None


def test_portable_ptx_with_the_build_shown_asks_only_the_driver(tmp_path: Path) -> None:
    log = tmp_path / "ptx.log"
    log.write_text("torch==1.13.1+cu117\n" + PTX_LOG.read_text())
    _, document = explain(log)
    match = next(m for m in matches_of(document) if m["rule"] == NO_KERNEL)
    assert match["verdict"] == "symptom-only"
    assert asked(match) == ["hardware.cuda_driver"]
    assert "11.7" in str(match["unknown"])


def test_a_gpu_the_log_names_is_not_asked_for_again(tmp_path: Path) -> None:
    """The RTX 5090 (sm_120) torch names settles FlashAttention-3's "below Ampere" for that GPU;
    what stays open is whether the machine has others. (The log itself never names flash-attn-3,
    so the rule is listed only where a line does: issue 40.)"""
    log = tmp_path / "fa3.log"
    text = (LOGS / "sdwebui-nix-9-rtx5090-sm120.log").read_text()
    log.write_text("flash_attn_3==3.0.0b1\n" + text)
    _, document = explain(log)
    fa3 = next(m for m in matches_of(document) if m["rule"] == "flash-attention-3-before-ampere")
    assert "hardware.compute_capability" not in asked(fa3)
    assert "hardware.gpus" in asked(fa3)


@pytest.mark.parametrize(
    ("log", "order"),
    [
        # NumPy's warning, then the import's stack through site-packages/torch/: torch raised
        ("lipwise-20-numpy2-import-torch.log", ["numpy2-with-torch-before-2.3", NUMPY1_BUILD]),
        # the same warning, the stack ends in site-packages/matplotlib/: a NumPy-1 build of it
        ("spyder-23561-numpy2-matplotlib.log", [NUMPY1_BUILD, "numpy2-with-torch-before-2.3"]),
    ],
)
def test_numpy_abi_messages_rank_by_the_package_whose_frames_raised(
    log: str, order: list[str]
) -> None:
    code, document = explain(LOGS / log)
    matches = matches_of(document)
    assert [m["rule"] for m in matches] == order
    assert all(m["verdict"] == "symptom-only" and m["line"] == 1 for m in matches)
    assert "packages.numpy" not in asked(matches[0])  # the warning names the NumPy that runs
    assert code == 0


def test_frames_of_numpy_itself_do_not_decide(tmp_path: Path) -> None:
    """numpy's own frames under its warning are the messenger, not the package built against
    NumPy 1: the innermost other package (torch) still decides."""
    text = (LOGS / "lipwise-20-numpy2-import-torch.log").read_text()
    extra = (
        '  File "D:\\AI\\x\\lib\\site-packages\\numpy\\core\\_multiarray_umath.py", line 44, '
        "in __getattr__\n    raise ImportError(msg)\n"
    )
    log = tmp_path / "numpy-frame.log"
    log.write_text(text + extra)
    _, document = explain(log)
    assert matches_of(document)[0]["rule"] == "numpy2-with-torch-before-2.3"
