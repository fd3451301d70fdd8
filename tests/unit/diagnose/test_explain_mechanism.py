"""`compat explain` keyed on the mechanism, not one wording of it (issue 34): an undefined C++
symbol in any extension file of a package, triton's compiler API removals by torch series, NumPy
ABI messages ranked by the package whose frames raised, and no question asked that the log
answers. Real logs from public threads (tests/data/logs, PROVENANCE.md), judged through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
VLLM_TORCH = "vllm-torch-pin-mismatch"


def explain(path: Path) -> tuple[int, dict[str, object]]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert document["schema"] == "compat.explain/1"
    return result.exit_code, document


def first(document: dict[str, object]) -> dict[str, object]:
    matches = document["matches"]
    assert isinstance(matches, list) and matches
    match: dict[str, object] = matches[0]
    return match


def unknown_facts(match: dict[str, object]) -> list[str]:
    unknown = match["unknown"]
    assert isinstance(unknown, list)
    return [str(u).split(" — ")[0] for u in unknown]


def used_facts(match: dict[str, object]) -> dict[str, tuple[str, int | None]]:
    facts = match["facts"]
    assert isinstance(facts, list)
    return {f["fact"]: (f["value"], f["line"]) for f in facts}


@pytest.mark.parametrize(
    ("log", "verdict", "line", "used", "unknown"),
    [
        # vLLM 0.3.2 (Requires-Dist torch==2.1.2) beside torch 2.2.1; before 0.4 the extension is
        # _C.cpython-310-x86_64-linux-gnu.so
        (
            "vllm-3147-cpython-so-torch-2.2.1.log",
            "confirmed",
            1,
            {"packages.vllm": ("0.3.2", 6), "packages.torch": ("2.2.1", 4)},
            [],
        ),
        # Another extension of the same package (quantization_ops, vLLM 0.2), no versions shown
        (
            "vllm-1807-quantization-ops-torch-2.0.1.log",
            "symptom-only",
            2,
            {},
            ["packages.vllm", "packages.torch"],
        ),
    ],
)
def test_an_undefined_symbol_in_any_extension_of_vllm(
    log: str, verdict: str, line: int, used: dict[str, tuple[str, int]], unknown: list[str]
) -> None:
    code, document = explain(LOGS / log)
    match = first(document)
    assert (match["rule"], match["verdict"], match["line"]) == (VLLM_TORCH, verdict, line)
    assert used.items() <= used_facts(match).items()
    assert unknown_facts(match) == unknown
    assert code == 0


TRITON = "torch-triton-series-mismatch"
ATTRS = "wan2gp-1263-attrsdescriptor.log"


@pytest.mark.parametrize(
    ("shown", "verdict", "unknown"),
    [
        ("", "symptom-only", ["packages.torch", "packages.triton"]),
        # torch 2.6 pins triton 3.2; 3.3 removed AttrsDescriptor
        ("torch==2.6.0\ntriton==3.3.0\n", "confirmed", []),
        ("torch==2.6.0\ntriton==3.2.0\n", "outside-range", []),
    ],
)
def test_attrs_descriptor_is_the_triton_series_rule(
    tmp_path: Path, shown: str, verdict: str, unknown: list[str]
) -> None:
    log = tmp_path / "attrs.log"
    log.write_bytes(shown.encode() + (LOGS / ATTRS).read_bytes())
    _, document = explain(log)
    match = first(document)
    assert (match["rule"], match["verdict"]) == (TRITON, verdict)
    assert match["line"] == 1 + shown.count("\n")
    assert unknown_facts(match) == unknown


@pytest.mark.parametrize(
    "line",
    [
        # torch 2.9 imports triton_key from triton.runtime.cache (Triton 3.5 moved it there)
        "ImportError: cannot import name 'triton_key' from 'triton.runtime.cache'",
        # torch 2.6's fallback import when triton.backends.compiler has no AttrsDescriptor either
        "ImportError: cannot import name 'AttrsDescriptor' from 'triton.backends.compiler'",
    ],
)
def test_the_next_triton_api_moves_are_the_same_rule(tmp_path: Path, line: str) -> None:
    log = tmp_path / "moved.log"
    log.write_text(line + "\n")
    _, document = explain(log)
    assert first(document)["rule"] == TRITON


def test_numpy2_ranks_the_package_whose_error_the_log_shows() -> None:
    """torch's own "Could not infer dtype of numpy.float32" after NumPy's warning: the torch
    rule, which names both messages, ranks above the generic NumPy-1-build rule; the NumPy
    release the warning prints is a fact, never asked for."""
    code, document = explain(LOGS / "ace-378-numpy2-torch-tensor.log")
    matches = document["matches"]
    assert isinstance(matches, list)
    assert [m["rule"] for m in matches] == [
        "numpy2-with-torch-before-2.3",
        "numpy1-build-beside-numpy2",
    ]
    match = first(document)
    assert match["verdict"] == "symptom-only" and match["line"] == 1
    assert used_facts(match)["packages.numpy"] == ("2.0.0", 1)
    assert unknown_facts(match) == ["packages.torch"]
    assert code == 0
