"""A sixth held-out set of real logs from public threads (tests/data/logs, PROVENANCE.md "Held-out
set 6"), each case a mechanism the first run of compat on it got wrong: the right first cause, no
firmness the log does not settle, no question the log answers. Judged through the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
XFORMERS = "xformers-torch-pin-mismatch"


def explain(path: Path) -> dict[str, Any]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def by_rule(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["rule"]: m for m in document["matches"]}


def asked(match: dict[str, Any]) -> list[str]:
    return [str(u).split(" — ")[0] for u in match["unknown"]]


def test_a_prerelease_torch_ranks_the_prerelease_wheel_rule_first() -> None:
    # NGC's torch 2.2.0a0 and flash-attn's torch 2.2 wheel (built against another 2.2 nightly):
    # "built for another series" holds only by exclusions (torch is not 2.0.*, not 2.1.*, ...),
    # which say nothing; the pre-release rule's one condition (the link error) is the evidence.
    document = explain(LOGS / "flash-attention-784-ngc-torch-2.2.0a0.log")
    top = document["matches"][0]
    assert (top["rule"], top["verdict"], top["line"]) == (
        "flash-attn-wheel-built-against-torch-prerelease",
        "symptom-only",
        17,
    )
    other = by_rule(document)["flash-attn-built-for-another-torch"]
    assert len(other["held"]) <= 1  # one route's condition, not every series listed


def test_the_running_process_wins_over_a_listing_of_another_environment() -> None:
    # xFormers' "(you have 2.0.1+cu118)" is the torch that ran; the pasted pip list (torch
    # 2.3.0+cu121) is another environment's: the fact used is the process's, the list disagrees.
    document = explain(LOGS / "invokeai-6590-xformers-pip-list-other-env.log")
    match = by_rule(document)[XFORMERS]
    assert match["verdict"] == "confirmed"
    used = {f["fact"]: (f["value"], f["line"]) for f in match["facts"]}
    assert used["packages.torch"] == ("2.0.1+cu118", 3)
    (disagreement,) = document["disagreements"]
    assert disagreement["fact"] == "packages.torch" and disagreement["used"] == "log"
    assert disagreement["log"] == {"value": "2.0.1+cu118", "line": 3}
    assert disagreement["given"]["value"] == "2.3.0+cu121"
    assert "line 7" in disagreement["given"]["from"]


def test_xformers_own_build_settles_the_pin_rule_without_its_version() -> None:
    # Built for 2.0.1+cu118, torch 2.0.1 installed: the same release, so no pin mismatch, and
    # the xformers version (only a route to the torch it pins) is not asked: the log says it.
    document = explain(LOGS / "rein-27-xformers-cu118-torch-no-label.log")
    match = by_rule(document)[XFORMERS]
    assert match["verdict"] == "outside-range"
    assert "packages.xformers" not in asked(match)
    # the cause is the build: torch 2.0.1 without a label is PyPI's (CUDA 11.7 on Linux, a CPU
    # build elsewhere) beside an extension built for +cu118; the platform is the open question
    top = document["matches"][0]
    assert (top["rule"], top["verdict"]) == (
        "xformers-built-for-another-torch-build",
        "symptom-only",
    )
    assert asked(top) == ["build.torch_cuda"]
    # and a release the pin table never covered (xformers 0.0.20's 2.0.1) still decides
    invokeai = by_rule(explain(LOGS / "invokeai-6590-xformers-pip-list-other-env.log"))[XFORMERS]
    assert "packages.xformers" not in asked(invokeai)


def test_a_numpy1_build_named_by_the_traceback_is_the_question() -> None:
    # numexpr/__init__.py importing numexpr.interpreter fails under NumPy 2.0.0: the question is
    # numexpr's version, not "every compiled package installed".
    document = explain(LOGS / "pyfda-253-numexpr-numpy2.log")
    top = document["matches"][0]
    assert (top["rule"], top["verdict"], top["line"]) == (
        "numpy1-build-beside-numpy2",
        "symptom-only",
        2,
    )
    assert asked(top) == ["packages.numexpr"]
    assert "line 14" in top["unknown"][0]


def python_facts(document: dict[str, Any]) -> list[tuple[str, int, str]]:
    return [
        (f["value"], f["line"], f["source"]) for f in document["facts"] if f["kind"] == "python"
    ]


def test_the_python_a_package_path_names_is_a_fact(tmp_path: Path) -> None:
    # vLLM's abi3 extension names no CPython tag; its path, lib/python3.8/dist-packages, does.
    real = LOGS / "vllm-5501-abi3-python3.8-path.log"
    assert python_facts(explain(real)) == [("3.8", 2, "a package path")]
    # a stated Python wins over the one a path implies, wherever it stands
    stated = tmp_path / "stated.log"
    stated.write_text(real.read_text() + "Python version: 3.8.10 (default, Nov 22 2023)\n")
    assert [v for v, _, _ in python_facts(explain(stated))] == ["3.8.10"]
    # two interpreters in the paths: the log does not say which one ran
    two = tmp_path / "two.log"
    two.write_text(
        real.read_text()
        + '  File "/home/u/.venv/lib/python3.11/site-packages/torch/__init__.py", line 1\n'
    )
    assert python_facts(explain(two)) == []
