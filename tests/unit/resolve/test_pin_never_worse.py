"""pin is never worse (issue 44 item 6): where the user's requirements alone do not resolve
(DeepSpeed-Chat's `torch==1.12.1`, which has no wheel for CPython 3.11), the proof resolves the
file as the user will edit it, the pins pin moves moved; every package that install pulls in is
judged and guarded where a rule needs it (NumPy 2 beside torch 1.13). Real pip and uv on an
index on 127.0.0.1; real pip consumes the constraints pin writes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.checkcli import write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib.resolvers import pip_resolve

pytestmark = pytest.mark.usefixtures("resolver_env")

PYTHON = f"{sys.version_info.major}.{sys.version_info.minor}"
# DeepSpeed-Chat's applications/DeepSpeed-Chat/requirements.txt as the issue quotes it, its
# direct references left out (no index serves them).
DEEPSPEED_CHAT = "datasets==2.11.0\nsentencepiece==0.1.97\naccelerate==0.18.0\ntorch==1.12.1\n"


def projects() -> dict[str, list[Dist]]:
    # torch 1.12.1 has no build for this Python (PyPI's stop at cp310; here a Requires-Python
    # bound, the index's wheels being py3-none-any); datasets needs numpy>=1.17, so a plain
    # resolve picks NumPy 2, which torch before 2.3 was not built against.
    return {
        "torch": [
            Dist("torch", "1.12.1", requires_python=f"<{PYTHON}"),
            Dist("torch", "1.13.0"),
        ],
        "datasets": [Dist("datasets", "2.11.0", requires=["numpy>=1.17"])],
        "sentencepiece": [Dist("sentencepiece", "0.1.97")],
        "accelerate": [Dist("accelerate", "0.18.0", requires=["numpy>=1.17"])],
        "numpy": [Dist("numpy", v) for v in ("1.26.4", "2.1.0")],
    }


@pytest.mark.parametrize("tool", ["pip", "uv"])
def test_the_proof_resolves_the_file_with_the_moved_pins_and_guards_what_it_pulls_in(
    tmp_path: Path, tool: str
) -> None:
    requirements = write(tmp_path / "requirements.txt", DEEPSPEED_CHAT)
    constraints = tmp_path / "constraints.txt"
    with IndexServer(projects()) as index:
        result = run_cli(
            ["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
             "--resolver", tool, "-o", str(constraints)]
        )  # fmt: skip
        assert result.exit_code in (0, 1), result.stderr
        text = constraints.read_text()
        assert "# PROOF FAILED" not in text
        assert "torch==1.13.0" in text and "numpy==1.26.4" in text
        # The file as the user will edit it: torch's pin relaxed, as its line says.
        edited = DEEPSPEED_CHAT.replace("torch==1.12.1", "torch")
        installed = pip_resolve(index.url, constraints, edited.split(), tmp_path)
    assert installed["torch"] == "1.13.0" and installed["numpy"].startswith("1.")
    (proof,) = [line for line in text.splitlines() if line.startswith("# proof: ")]
    if tool == "pip":
        # pip refuses the file as written (uv reads Requires-Python as a floor only, and
        # resolves it): the proof says so, and what the file with torch moved resolved to.
        assert "your requirements alone do not resolve" in proof
        assert "with the pins this plan moves, moved (torch): pip " in proof
