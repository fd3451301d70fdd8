"""Audit 6's corrections (shared/research/kb-audit-6.md, issue 44 item 1), each through the CLI
that reads the row or the generator that writes it. Every case here failed on the data audit 6
read (dcac521); the comment beside it names the artifact the fact was read from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
TRITON = "torch-triton-series-mismatch"


def explain(path: Path) -> dict[str, object]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert isinstance(document, dict)
    return document


def first(document: dict[str, object]) -> tuple[str, str]:
    matches = document["matches"]
    assert isinstance(matches, list) and matches, document
    return matches[0]["rule"], matches[0]["verdict"]


def test_torch_2_2_with_triton_2_3_fails_on_get_cuda_stream() -> None:
    """Row 2.7: torch 2.2.1's Inductor imports get_cuda_stream from triton.runtime.jit
    (triton_heuristics.py:54 in the torch 2.2.1 wheel); triton 2.3.0's runtime/jit.py has none
    (pytorch#120199). At dcac521 no rule matched this line."""
    assert first(explain(LOGS / "composed-get-cuda-stream-torch-2.2.log")) == (TRITON, "confirmed")


def test_get_cuda_stream_beside_the_pinned_triton_is_outside_the_rule(tmp_path: Path) -> None:
    text = (LOGS / "composed-get-cuda-stream-torch-2.2.log").read_text()
    log = tmp_path / "pinned.log"
    log.write_text(text.replace("triton                   2.3.0", "triton                   2.2.0"))
    assert first(explain(log)) == (TRITON, "outside-range")


def test_the_rule_says_attrsdescriptor_breaks_only_torch_2_6_and_earlier() -> None:
    """Row 2.6: torch 2.7.0-2.9.0 check hasattr(..., "AttrsDescriptor") before the import
    (torch/_inductor/runtime/hints.py:43 in the 2.7.0 wheel); 2.6.0 falls back unguarded."""
    text = (paths.REPO / "compat" / "matrix" / "generated-torch-pins.yaml").read_text()
    assert "torch 2.4-2.9 import AttrsDescriptor" not in text
    assert "only torch 2.6 and earlier raise that error" in text


@pytest.mark.parametrize(
    ("numba", "numpy", "message", "rule"),
    [
        # numba/__init__.py of the 0.57.0-0.59.1 wheels: raise ImportError("Numba needs NumPy
        # 1.2N or less"), no tail; the tail (". Got NumPy X.Y") appears in 0.60.0
        ("0.57.1", "1.26.4", "Numba needs NumPy 1.24 or less", "numba-0.57-numpy-1.25"),
        ("0.58.1", "2.0.2", "Numba needs NumPy 1.26 or less", "numba-0.58.1-numpy-1.27"),
        ("0.59.1", "2.0.2", "Numba needs NumPy 1.26 or less", "numba-0.59-numpy-1.27"),
        (
            "0.61.2",
            "2.3.0",
            "Numba needs NumPy 2.2 or less. Got NumPy 2.3.",
            "numba-0.61.2-numpy-2.3",
        ),
    ],
)
def test_numba_refuses_numpy_in_each_releases_own_words(
    tmp_path: Path, numba: str, numpy: str, message: str, rule: str
) -> None:
    """Row 8.7: the real 0.58.1 message gave no match at dcac521."""
    log = tmp_path / "numba.log"
    log.write_text(
        f"numba=={numba}\nnumpy=={numpy}\nTraceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/numba/__init__.py", line 55, in <module>\n'
        f"    _ensure_critical_deps()\nImportError: {message}\n"
    )
    assert first(explain(log)) == (rule, "confirmed")


def test_cuda_compat_12_9_on_r535_is_forward_compatibility_to_12_9(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Row 1.10: NVIDIA's table marks cuda-compat-12-9 supported on R535 and R570; its libcuda is
    the 575 branch (cuda-compat-12-9 575.57.08; release notes Table 3: 12.9 GA >=575.51.03). At
    dcac521 the 575 branch was missing from driver_branches: `unknown-version`, judged as 12.2."""
    from tests.dists import make_env
    from tests.unit.probes.test_forward_compat import compat_dir, doctor, user_driver

    site = make_env(tmp_path / "site", {"torch": "2.8.0+cu129"})
    compat = compat_dir(tmp_path, "575.57.08")
    _, document = doctor(monkeypatch, site, "h100-r535", LD_LIBRARY_PATH=str(compat))
    found = user_driver(document)
    assert (found["forward_compat"], found["effective_cuda_version"]) == ("active", "12.9")
    assert found["version"] == "575.57.08" and found["cuda_version"] == "12.9"


def test_an_unsupported_branch_says_what_nvidia_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Row 1.9: NVIDIA calls an unlisted branch 'not a supported target'; it does not say the
    process falls back to the kernel's libcuda (it loads the compat one on its path)."""
    from tests.dists import make_env
    from tests.unit.probes.test_forward_compat import compat_dir, doctor, user_driver

    site = make_env(tmp_path / "site", {"torch": "2.11.0+cu130"})
    compat = compat_dir(tmp_path, "580.65.06")
    _, document = doctor(
        monkeypatch, site, "a100-mig", LD_LIBRARY_PATH=str(compat)
    )  # R550: end of life
    assert user_driver(document)["forward_compat"] == "unsupported-branch"
    notes = [n for n in document["notes"] if str(compat) in n]  # type: ignore[attr-defined]
    assert notes and "not a supported target" in notes[0] and "still loads" in notes[0], notes
    assert "a process gets the kernel driver's CUDA" not in notes[0]


def test_vllm_abi3_boundary_is_the_first_abi3_wheel_recorded() -> None:
    """Row 3.4: the first cp38-abi3 vLLM wheel is 0.5.2 (0.5.1 is cp38-cp311 per Python), read
    from the recorded wheel names; the rule said "before 0.4"."""
    import json

    recorded = json.loads((paths.REPO / "scripts" / "inputs" / "vllm.json").read_text())
    from packaging.version import Version

    abi3 = [Version(r["version"]) for r in recorded["releases"] if "-abi3-" in r["wheel"]]
    first_abi3 = str(min(abi3))
    text = (paths.REPO / "compat" / "matrix" / "generated-vllm.yaml").read_text()
    assert first_abi3 == "0.5.2"
    assert f"vllm/_C.abi3.so from {first_abi3}" in text
    assert "before 0.4" not in text


@pytest.mark.parametrize(
    ("pins", "rule"),
    [
        # trl 0.12.0-0.13.0 METADATA: datasets>=2.21.0, accelerate>=0.34.0 (as 0.14.0); the
        # recorded input began at 0.14.0, so these releases were silent (rows 8.10, 8.11)
        ("trl==0.13.0\ndatasets==2.20.0\n", "trl-below-declared-datasets-floor"),
        ("trl==0.12.0\naccelerate==0.33.0\n", "trl-below-declared-accelerate-floor"),
    ],
)
def test_trl_floors_hold_from_0_12(tmp_path: Path, pins: str, rule: str) -> None:
    from tests.checkcli import by_rule, check, write

    requirements = write(tmp_path / "requirements.txt", pins)
    _, report = check(str(requirements), "--offline")
    found = by_rule(report).get(rule)
    assert found is not None and found["status"] == "affected", report["findings"]


@pytest.mark.parametrize("release", ["2.9.0", "2.9.1", "2.10.0", "2.11.0"])
def test_torch_from_the_cu129_index_is_its_cuda_12_9_build(tmp_path: Path, release: str) -> None:
    """Row 4.8: 2.9.0-2.11.0 had +cu129 builds (pinned cu129 wheel URLs with sha256, secondary);
    the previous-versions page omits them. A file routing torch to the cu129 index gets that
    build, not another index's default."""
    from tests.checkcli import check, write

    requirements = write(
        tmp_path / "requirements.txt",
        f"--extra-index-url https://download.pytorch.org/whl/cu129\ntorch=={release}\n",
    )
    _, report = check(str(requirements), "--offline")
    builds = [n for n in report["notes"] if n.startswith("torch's CUDA build")]
    assert len(builds) == 1 and "12.9" in builds[0] and "/whl/cu129" in builds[0], builds
