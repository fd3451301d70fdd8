"""The loader's `FILE.so: undefined symbol: _ZN...` wrapped over two lines by a terminal or a
paste is one message (issue 40): the symbol is read whole, the rule about an extension built
against another torch matches on the message's first line, and every later line keeps its
number. Real wordings (vllm-project/vllm#20361, #5501), wrapped where a terminal wraps them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

VLLM = "vllm-torch-pin-mismatch"
TRACEBACK = (
    "INFO 07-02 15:53:59 [__init__.py:244] Automatically detected platform cuda.\n"
    "Traceback (most recent call last):\n"
    '  File "/home/pc/data/envs/vllmNext/bin/vllm", line 5, in <module>\n'
    "    from vllm.entrypoints.cli.main import main\n"
    '  File "/home/pc/data/vllm/vllm/vllm/_custom_ops.py", line 8, in <module>\n'
    "    import vllm._C\n"
)
FILE_20361 = "/home/pc/data/vllm/vllm/vllm/_C.abi3.so"
SYMBOL_20361 = "_ZN5torch3jit17parseSchemaOrNameERKSsb"
FILE_5501 = "/usr/local/lib/python3.8/dist-packages/vllm/_C.abi3.so"
SYMBOL_5501 = "_ZN5torch7LibraryC1ENS0_4KindESsSt8optionalIN3c1011DispatchKeyEEPKcj"


def explain(tmp_path: Path, text: str) -> dict[str, Any]:
    log = tmp_path / "run.log"
    log.write_text(text)
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def symbols(document: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [
        (f["key"], f["value"], f["line"])
        for f in document["facts"]
        if f["kind"] == "undefined_symbol"
    ]


@pytest.mark.parametrize(
    ("body", "file", "symbol"),
    [
        # cut after "symbol:", the mangled name alone on the next line (vllm#20361)
        (
            TRACEBACK + f"ImportError: {FILE_20361}: undefined symbol:\n{SYMBOL_20361}\n",
            FILE_20361,
            SYMBOL_20361,
        ),
        # the same through torchrun: the continuation carries the rank prefix too
        (
            "".join(f"[rank0]: {line}\n" for line in TRACEBACK.splitlines())
            + f"[rank0]: ImportError: {FILE_20361}: undefined symbol: \n[rank0]: {SYMBOL_20361}\n",
            FILE_20361,
            SYMBOL_20361,
        ),
        # cut inside the name at a terminal's width, the repr's `')` after it (vllm#5501)
        (
            TRACEBACK + "WARNING 06-13 11:42:20 _custom_ops.py:11] Failed to import from vllm._C "
            f"with ImportError('{FILE_5501}: undefined symbol: {SYMBOL_5501[:40]}\n"
            f"{SYMBOL_5501[40:]}')\n",
            FILE_5501,
            SYMBOL_5501,
        ),
    ],
)
def test_a_wrapped_loader_message_is_read_as_one(
    tmp_path: Path, body: str, file: str, symbol: str
) -> None:
    document = explain(tmp_path, body + "torch==2.3.0\n")
    assert symbols(document) == [(file, symbol, 7)]
    top = document["matches"][0]
    assert (top["rule"], top["line"]) == (VLLM, 7)
    # the line after the continuation keeps its number
    torch = next(f for f in document["facts"] if f["kind"] == "package" and f["key"] == "torch")
    assert (torch["value"], torch["line"]) == ("2.3.0", 9)


def test_a_word_on_the_next_line_is_not_the_symbols_tail(tmp_path: Path) -> None:
    body = TRACEBACK + f"ImportError: {FILE_20361}: undefined symbol: {SYMBOL_20361}\nKilled\n"
    assert symbols(explain(tmp_path, body)) == [(FILE_20361, SYMBOL_20361, 7)]
