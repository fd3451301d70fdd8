"""Source builds are builds of their own: prebuilt-wheel pin rules skip them and say why (CLI).

unsloth's Blackwell stack builds vLLM and xformers from source against the installed torch; the
pins vLLM's release wheels carry (xformers, torch) do not describe those builds.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run_cli
from tests.dists import git_install, make_dist, make_env
from tests.lib.doctor import doctor_report

XFORMERS_PIN = "vllm-xformers-differs-from-pin"
TORCH_PIN = "vllm-torch-pin-mismatch"


def doctor(site: Path) -> tuple[set[str], list[str]]:
    _, report = doctor_report(site)
    return {f["rule"] for f in report["findings"]}, report["notes"]


def test_unsloth_blackwell_stack_is_clean_of_the_wheel_pins(tmp_path: Path) -> None:
    site = make_env(
        tmp_path / "site",
        {
            "vllm": "0.9.2.dev280+g04e1642e3",
            "xformers": "0.0.32+ff490c3.d20250626",
            "torch": "2.7.1+cu128",
        },
    )
    rules, notes = doctor(site)
    assert XFORMERS_PIN not in rules and TORCH_PIN not in rules
    [note] = [n for n in notes if n.startswith("vllm 0.9.2.dev280+g04e1642e3 is a source build")]
    assert "+g04e1642e3" in note and XFORMERS_PIN in note and TORCH_PIN in note
    [xformers] = [n for n in notes if n.startswith("xformers 0.0.32+ff490c3.d20250626")]
    assert XFORMERS_PIN in xformers


def test_the_same_releases_from_wheels_are_judged(tmp_path: Path) -> None:
    # The near miss: vLLM 0.9.2's wheel pins xformers 0.0.30 and torch 2.7.0.
    site = make_env(
        tmp_path / "site", {"vllm": "0.9.2", "xformers": "0.0.32.post1", "torch": "2.7.1"}
    )
    rules, notes = doctor(site)
    assert {XFORMERS_PIN, TORCH_PIN} <= rules
    assert not [n for n in notes if "source build" in n]


def test_direct_url_json_marks_a_checkout_or_directory_build(tmp_path: Path) -> None:
    # A plain release number, but pip recorded a git checkout (vLLM) or a local directory
    # (xformers, `pip install -e .`): both are builds of their own.
    site = make_env(tmp_path / "site", {"torch": "2.7.1"})
    make_dist(
        site,
        "vllm",
        "0.9.2",
        direct_url=git_install("https://github.com/vllm-project/vllm", "04e1642e3" + "0" * 31),
    )
    make_dist(site, "xformers", "0.0.32", direct_url={"url": "file:///src/xformers", "dir_info": {"editable": True}})  # fmt: skip
    rules, notes = doctor(site)
    assert XFORMERS_PIN not in rules and TORCH_PIN not in rules
    assert any(n.startswith("vllm 0.9.2 is a source build (installed from git") for n in notes)
    assert any("local editable directory" in n for n in notes if n.startswith("xformers"))


def test_a_cuda_label_is_a_prebuilt_wheel(tmp_path: Path) -> None:
    # +cu126 names the wheel's CUDA build, not a commit: torch's own pins still apply.
    site = make_env(tmp_path / "site", {"vllm": "0.9.2+cu126", "torch": "2.7.1+cu126"})
    rules, notes = doctor(site)
    assert TORCH_PIN in rules
    assert not [n for n in notes if "source build" in n]


def test_a_git_requirement_is_a_source_build_in_check(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    sha = "04e1642e3a1b2c3d4e5f60718293a4b5c6d7e8f9"
    requirements.write_text(
        f"vllm @ git+https://github.com/vllm-project/vllm@{sha}\nxformers==0.0.32.post1\ntorch==2.7.1\n",
        encoding="utf-8",
    )
    result = run_cli(["check", "--offline", "--format", "json", str(requirements)])
    assert result.exit_code in (0, 1), result.stderr
    report = result.json()
    assert XFORMERS_PIN not in {f["rule"] for f in report["findings"]}
    assert not [n for n in report["notes"] if XFORMERS_PIN in n and "range note" in n]
    [note] = [n for n in report["notes"] if "is a source build (a git requirement" in n]
    assert note.startswith(f"`vllm @ git+https://github.com/vllm-project/vllm@{sha}`")
