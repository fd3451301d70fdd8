"""`compat explain` reads a log by its structure (issue 40): the line it cites is the exception,
the loader's or the driver's message, never a line that only echoes source code (a notebook's
numbered context, a CPython frame's source line, pytest's `>` line). The messages are the real
wordings of the releases named beside each; the tracebacks are laid out as each tool prints
them. Judged through the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compat.facts.traceback import exception_line, frame, is_source_echo
from tests.conftest import run_cli

ACCELERATE = "transformers-trainer-needs-accelerate"
# transformers 4.51-4.57's check (utils/import_utils.py ACCELERATE_MIN_VERSION = "0.26.0")
MESSAGE_4 = (
    "Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`: Please run "
    "`pip install transformers[torch]` or `pip install 'accelerate>=0.26.0'`"
)
SITE = "/usr/local/lib/python3.11/dist-packages"

# IPython 8 (Colab, Kaggle): `File PATH:LINE, in f` then numbered context, `-> N` marks the line.
NOTEBOOK = f"""transformers==4.51.3
accelerate==0.25.0
---------------------------------------------------------------------------
ImportError                               Traceback (most recent call last)
Cell In[7], line 3
      1 from transformers import TrainingArguments
----> 3 args = TrainingArguments(output_dir="out")

File {SITE}/transformers/training_args.py:2240, in TrainingArguments._setup_devices(self)
   2238 if not is_sagemaker_mp_enabled():
   2239     if not is_accelerate_available(min_version=ACCELERATE_MIN_VERSION):
-> 2240         raise ImportError(
   2241             f"{MESSAGE_4}"
   2242         )

ImportError: {MESSAGE_4}
"""

# CPython 3.11's own traceback: the source line under the frame holds the message too.
CPYTHON = f"""transformers==4.51.3
accelerate==0.25.0
Traceback (most recent call last):
  File "/work/train.py", line 12, in <module>
    args = TrainingArguments(output_dir="out")
  File "{SITE}/transformers/training_args.py", line 2240, in _setup_devices
    raise ImportError(f"{MESSAGE_4}")
ImportError: {MESSAGE_4}
"""

# pytest: the failing source line marked `>`, the exception prefixed `E`.
PYTEST = f"""transformers==4.51.3
accelerate==0.25.0
    def _setup_devices(self):
>       raise ImportError("{MESSAGE_4}")
E       ImportError: {MESSAGE_4}

{SITE}/transformers/training_args.py:2240: ImportError
"""


def explain(path: Path) -> dict[str, Any]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def exception_line_number(text: str) -> int:
    lines = text.splitlines()
    return next(i for i, line in enumerate(lines, 1) if "ImportError: Using" in line)


@pytest.mark.parametrize("text", [NOTEBOOK, CPYTHON, PYTEST], ids=["ipython", "cpython", "pytest"])
def test_the_cited_line_is_the_exception_never_its_source_echo(tmp_path: Path, text: str) -> None:
    log = tmp_path / "run.log"
    log.write_text(text)
    top = explain(log)["matches"][0]
    assert top["rule"] == ACCELERATE
    assert top["verdict"] == "confirmed"
    assert top["line"] == exception_line_number(text)
    assert top["text"].startswith(("ImportError: Using", "E       ImportError"))


def test_an_echo_alone_is_still_cited(tmp_path: Path) -> None:
    # A log cut before the exception line: the echo is all there is, and it is still the symptom.
    log = tmp_path / "cut.log"
    log.write_text(NOTEBOOK.split("\n\nImportError:")[0] + "\n")
    top = explain(log)["matches"][0]
    assert (top["rule"], top["line"]) == (ACCELERATE, 13)


@pytest.mark.parametrize(
    ("text", "previous", "echo"),
    [
        ("----> 12     raise ImportError(", "", True),
        ("-> 2240         raise ImportError(", "", True),
        ('   2241             f"requires accelerate>=0.26.0"', "", True),
        ('>       raise ImportError("x")', "", True),
        ('    raise ImportError("x")', "", True),
        ("    args = f(x)", '  File "/x/train.py", line 3, in <module>', True),
        ("ImportError: Using the `Trainer` requires `accelerate>=0.26.0`", "", False),
        ("E       ImportError: x", ">       raise ImportError('x')", False),
        ("OSError: libcudart.so.12: cannot open shared object file", "", False),
        ("RuntimeError: CUDA error: no kernel image is available", "    raise x", False),
    ],
)
def test_source_echo_lines(text: str, previous: str, echo: bool) -> None:
    assert is_source_echo(text, previous) is echo


def test_frames_and_exception_lines_in_every_shape() -> None:
    cpython = frame(f'  File "{SITE}/trl/trainer/grpo_trainer.py", line 51, in <module>')
    assert cpython is not None and (cpython.package, cpython.line, cpython.func) == (
        "trl",
        51,
        "<module>",
    )
    ipython = frame(f"File {SITE}/peft/peft_model.py:37, in <module>")
    assert ipython is not None and (ipython.package, ipython.line) == ("peft", 37)
    assert frame('  File "/work/train.py", line 3, in <module>').package is None  # type: ignore[union-attr]
    found = exception_line("E   torch.OutOfMemoryError: CUDA out of memory.")
    assert found is not None and (found.type, found.message) == (
        "torch.OutOfMemoryError",
        "CUDA out of memory.",
    )
    assert exception_line("  warnings.warn(") is None
