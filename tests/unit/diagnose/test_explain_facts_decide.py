"""Facts decide between rules that share a symptom (issue 40): the C++ ABI an undefined symbol
mangles is a fact about the extension, and a rule about a package the log never names is not a
cause of a message that is not that package's. Real symbols and messages from public threads,
laid out as the loader and torch print them; judged through the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

ABI = "flash-attn-pre-cxx11-abi-wheel-on-torch-2.7"
SITE = "/opt/venv/lib/python3.11/site-packages"
FRAMES = f"""Traceback (most recent call last):
  File "{SITE}/flash_attn/flash_attn_interface.py", line 15, in <module>
    import flash_attn_2_cuda as flash_attn_gpu
"""
LOADER = (
    f"ImportError: {SITE}/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: "
)
# c10::Error::Error(c10::SourceLocation, std::string) in the two ABIs (flash-attention#1696,
# #1691: the same constructor, its string mangled old-style `Ss` or as std::__cxx11)
OLD = "_ZN3c105ErrorC2ENS_14SourceLocationESs"
NEW = "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"


def explain(tmp_path: Path, text: str) -> dict[str, Any]:
    log = tmp_path / "run.log"
    log.write_text(text)
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def by_rule(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["rule"]: m for m in document["matches"]}


@pytest.mark.parametrize("torch", ["2.7.1", "2.8.0+cu128"])
def test_an_old_abi_symbol_under_a_new_abi_torch_is_the_abi_rule(
    tmp_path: Path, torch: str
) -> None:
    document = explain(tmp_path, f"torch=={torch}\n{FRAMES}{LOADER}{OLD}\n")
    top = document["matches"][0]
    assert (top["rule"], top["verdict"], top["line"]) == (ABI, "confirmed", 5)
    used = {f["fact"]: f["value"] for f in top["facts"]}
    assert used["build.flash_attn_cxx11abi"] == "0"


def test_a_new_abi_symbol_is_not_the_old_abi_rule(tmp_path: Path) -> None:
    # flash-attention#1691: a cxx11abiTRUE wheel under torch 2.4 (old ABI): the symbol says the
    # extension is new-ABI, a fact kept for the rules that read it
    document = explain(tmp_path, f"torch==2.4.0\n{FRAMES}{LOADER}{NEW}\n")
    assert ABI not in by_rule(document)
    facts = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}
    assert facts[("build", "flash_attn_cxx11abi")] == "1"


def test_the_abi_rule_ranks_with_the_package_whose_frames_raised(tmp_path: Path) -> None:
    # no torch version shown: the ABI rule (its build fact read from the symbol) is not ranked
    # below the rules that name flash-attn's version
    document = explain(tmp_path, f"{FRAMES}{LOADER}{OLD}\n")
    assert document["matches"][0]["rule"] == ABI


NO_KERNEL = f"""Traceback (most recent call last):
  File "/work/train.py", line 40, in <module>
    out = model(x)
  File "{SITE}/torch/nn/modules/module.py", line 1553, in _wrapped_call_impl
    return self._call_impl(*args, **kwargs)
RuntimeError: CUDA error: no kernel image is available for execution on the device
"""


def test_a_rule_about_a_package_the_log_never_names_is_not_a_cause(tmp_path: Path) -> None:
    document = explain(tmp_path, NO_KERNEL)
    assert "flash-attention-3-before-ampere" not in by_rule(document)
    unrelated = {u["rule"]: u["reason"] for u in document["unrelated"]}
    assert "never mentions flash-attn-3" in unrelated["flash-attention-3-before-ampere"]
    assert document["matches"][0]["rule"] == "torch-no-kernel-image-for-gpu"


def test_the_same_rule_stays_where_the_log_names_the_package(tmp_path: Path) -> None:
    frame = f'  File "{SITE}/flash_attn_3/flash_attn_interface.py", line 80, in forward\n'
    text = NO_KERNEL.replace("RuntimeError:", frame + "RuntimeError:")
    assert "flash-attention-3-before-ampere" in by_rule(explain(tmp_path, text))


NCCL_TWO = "two-nccl-wheels-one-library"


@pytest.mark.parametrize(
    ("listing", "symbol"),
    [
        # collect_env's [pip3] lines (rwth-i6/returnn#1802)
        ("[pip3] nvidia-nccl-cu11==2.14.3\n[pip3] nvidia-nccl-cu12==2.27.3\n", "ncclMemFree"),
        # its [conda] lines, columns of spaces, cu12 beside cu13 (pytorch#186591's pair)
        (
            "[conda] nvidia-nccl-cu12           2.29.3                   pypi_0    pypi\n"
            "[conda] nvidia-nccl-cu13           2.29.7                   pypi_0    pypi\n",
            "ncclCommResume",
        ),
    ],
)
def test_two_nccl_wheels_in_collect_env(tmp_path: Path, listing: str, symbol: str) -> None:
    text = (
        "Versions of relevant libraries:\n" + listing + "Traceback (most recent call last):\n"
        f'  File "{SITE}/torch/__init__.py", line 416, in <module>\n'
        "    from torch._C import *  # noqa: F403\n"
        f"ImportError: {SITE}/torch/lib/libtorch_cuda.so: undefined symbol: {symbol}\n"
    )
    top = explain(tmp_path, text)["matches"][0]
    assert (top["rule"], top["verdict"], top["line"]) == (NCCL_TWO, "confirmed", 7)


def test_one_nccl_wheel_is_not_that_cause(tmp_path: Path) -> None:
    text = (
        "[pip3] nvidia-nccl-cu12==2.27.3\n"
        f"ImportError: {SITE}/torch/lib/libtorch_cuda.so: undefined symbol: ncclMemFree\n"
    )
    assert by_rule(explain(tmp_path, text))[NCCL_TWO]["verdict"] == "outside-range"
