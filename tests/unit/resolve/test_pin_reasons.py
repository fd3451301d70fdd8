"""pin's UNRESOLVED reasons hold in the plan printed above them (issue 23, item 6).

A reason that names "your pin vllm==0.7.1" under a plan that moved vllm to 0.7.3 blames a pin the
plan already gave up; the pins that really block the escape are the ones the plan keeps.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer

GRPO_VLLM = ["--set", "trainer=grpo", "--set", "use_vllm=true"]


def a100(tmp_path: Path) -> Path:
    hardware = tmp_path / "a100.json"
    gpu = {"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
    hardware.write_text(json.dumps({"schema": "compat.hardware/1", "gpus": [gpu]}))
    return hardware


def plan_and_reasons(text: str) -> tuple[dict[str, str], list[str]]:
    """The plan's `name==version` lines, and every UNRESOLVED line."""
    plan = {}
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line)
        if match:
            plan[match.group(1).lower()] = match.group(2)
    return plan, [line for line in text.splitlines() if line.startswith("# UNRESOLVED")]


def assert_reasons_hold(text: str) -> None:
    """Every pin an UNRESOLVED line names as the user's is the version the plan writes."""
    plan, unresolved = plan_and_reasons(text)
    for line in unresolved:
        for name, version in re.findall(r"your pin ([A-Za-z0-9_.-]+)==([^\s,;:]+)", line):
            assert plan.get(name.lower()) == version, (line, plan)


# What the issue's user had: vllm 0.7.1, 0.7.2, 0.7.3 pin torch 2.5.1 (their real metadata);
# 0.4.0.post1 is the release that pins torch 2.1.2.
INDEX = {
    "torch": [Dist("torch", v) for v in ("2.1.2", "2.5.1", "2.6.0")],
    "trl": [Dist("trl", "0.14.0")],
    "vllm": [
        Dist("vllm", "0.4.0.post1", requires=["torch==2.1.2"]),
        *(Dist("vllm", v, requires=["torch==2.5.1"]) for v in ("0.7.1", "0.7.2", "0.7.3")),
        Dist("vllm", "0.8.0", requires=["torch==2.6.0"]),
    ],
}


def test_unresolved_reasons_name_only_pins_the_plan_keeps(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.1.2\ntrl==0.14.0\nvllm==0.7.1\n")
    hardware = a100(tmp_path)
    with IndexServer(INDEX) as index:
        online = run_cli(
            ["pin", "-r", str(requirements), "--hardware", str(hardware), "--no-verify",
             "--index-url", index.url, *GRPO_VLLM]
        )  # fmt: skip
        assert online.exit_code in (0, 1), online.stderr
        # Offline from the same cache: the same plan and the same reasons.
        offline = run_cli(
            ["pin", "-r", str(requirements), "--hardware", str(hardware), "--offline",
             "--index-url", index.url, *GRPO_VLLM]
        )  # fmt: skip
    for result in (online, offline):
        assert_reasons_hold(result.stdout)
    plan, unresolved = plan_and_reasons(offline.stdout)
    assert plan["torch"] == "2.5.1"  # moved off the user's pin 2.1.2 for vllm 0.7.1's torch pin
    # The possible finding about torch's build no longer blames torch==2.1.2, which the plan moved.
    (build,) = [u for u in unresolved if "cuda12-build-below-driver-floor" in u]
    assert "torch==2.1.2" not in build


def test_reasons_hold_when_no_release_escapes(tmp_path: Path) -> None:
    """No torch but 2.1.2 and no vllm release that pins it: vllm-torch-pin-mismatch stays, and
    its reason names no pin the plan moved."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.1.2\ntrl==0.14.0\nvllm==0.7.1\n")
    index = {"torch": [Dist("torch", "2.1.2")], "trl": INDEX["trl"], "vllm": INDEX["vllm"][1:]}
    with IndexServer(index) as server:
        result = run_cli(
            ["pin", "-r", str(requirements), "--hardware", str(a100(tmp_path)), "--no-verify",
             "--index-url", server.url, *GRPO_VLLM]
        )  # fmt: skip
    assert result.exit_code == 1, result.stderr
    assert_reasons_hold(result.stdout)
    _, unresolved = plan_and_reasons(result.stdout)
    assert any("vllm-torch-pin-mismatch (affected)" in line for line in unresolved)


def test_the_issues_case_offline_from_the_snapshot(tmp_path: Path) -> None:
    """Issue 23 item 6 as a new user tries it: offline, no index, two A100s on R535 (the
    in-process rule needs a second GPU). Releases and their torch pins come from the shipped
    dependency snapshot: vllm 0.7.2 (the in-process rule's floor) pins torch 2.5.1, so the plan
    moves both pins, the torch line says what really blocked torch==2.1.2, and no UNRESOLVED
    line blames a pin the plan moved.

    Since pin proves the file as the user will edit it (issue 44 item 6, docs/contract.md "pin
    is never worse"), what that install pulls in is judged too: with vllm 0.7.2 and torch 2.5.1
    trl brings in transformers 5 (transformers-5-disables-old-torch,
    vllm-before-0.19.1-with-transformers-5, transformers-torch-load-needs-torch-2.6), so the
    plan goes on to vllm 0.8.3, which pins torch 2.6.0, beside transformers 4; this was
    `# PROOF FAILED` with vllm 0.7.2 and torch 2.5.1 and nothing pulled in judged."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.1.2\ntrl==0.14.0\nvllm==0.7.1\n")
    gpu = {"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
    hardware = tmp_path / "a100x2.json"
    hardware.write_text(json.dumps({"schema": "compat.hardware/1", "driver_version": "535.104.05",
                                    "cuda_driver_version": "12.2", "gpus": [gpu, gpu]}))  # fmt: skip
    result = run_cli(
        ["pin", "-r", str(requirements), "--hardware", str(hardware), "--offline", *GRPO_VLLM]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert_reasons_hold(result.stdout)
    plan, unresolved = plan_and_reasons(result.stdout)
    assert plan["vllm"] == "0.8.3" and plan["torch"] == "2.6.0" and plan["trl"] == "0.14.0"
    assert plan["transformers"].startswith("4."), plan
    proof = next(line for line in result.stdout.splitlines() if line.startswith("# proof: "))
    assert "your requirements alone do not resolve" in proof
    assert "with the pins this plan moves, moved (torch, vllm)" in proof
    torch_line = next(line for line in result.stdout.splitlines() if line.startswith("torch=="))
    # Which moved release it names is _required_by's first by name (torchaudio 2.6.0 today, which
    # vllm 0.8.3 brings along), so only the requirement is held here.
    assert "requires torch==2.6.0" in torch_line
    assert "moves your pin torch==2.1.2" in torch_line
    assert not [u for u in unresolved if "vllm" in u.split(":")[0]], unresolved


def test_the_issues_case_on_a_driver_below_cuda_12(tmp_path: Path) -> None:
    """The same file on a driver of CUDA 11.4: torch 2.1.2's PyPI build (CUDA 12.1) is affected
    too, so CUDA builds are candidates and torch has more releases than the solver considers.
    The release vllm 0.7.2 requires stays a candidate, with its builds: the plan moves both pins
    and takes a CUDA 11.8 build. The edited file's install is judged as above (transformers 5
    beside torch 2.5.1), so the plan is vllm 0.8.3 and 2.6.0's CUDA 11.8 build (it was vllm 0.7.2
    and 2.5.1+cu118 under `# PROOF FAILED`)."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.1.2\ntrl==0.14.0\nvllm==0.7.1\n")
    gpu = {"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
    hardware = tmp_path / "a100x2-r470.json"
    hardware.write_text(json.dumps({"schema": "compat.hardware/1", "driver_version": "470.82.01",
                                    "cuda_driver_version": "11.4", "gpus": [gpu, gpu]}))  # fmt: skip
    result = run_cli(
        ["pin", "-r", str(requirements), "--hardware", str(hardware), "--offline", *GRPO_VLLM]
    )
    assert result.exit_code in (0, 1), result.stderr
    assert_reasons_hold(result.stdout)
    plan, unresolved = plan_and_reasons(result.stdout)
    assert plan["vllm"] == "0.8.3" and plan["torch"] == "2.6.0+cu118", plan
    assert plan["transformers"].startswith("4."), plan
    assert not [u for u in unresolved if "cuda12-build-below-driver-floor" in u], unresolved
