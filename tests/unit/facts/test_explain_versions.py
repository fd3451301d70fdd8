"""`compat explain` reads the versions a log states in its own words (compat.facts.logversions): free
`NAME: VERSION` lines, `pip show` blocks, pip's output, `__version__` prints, xFormers' and
Unsloth's banners, and the facts a rule's own signature carries. The composed logs under
tests/data/logs are modelled on the cases of issue #20 (see PROVENANCE.md)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
FLASH = LOGS / "composed-flash-attn-setdevice.log"
DS_MAJOR = LOGS / "composed-deepspeed-cuda-major-mismatch.log"


def explain(log: Path, *args: str) -> tuple[int, dict[str, object]]:
    result = run_cli(["explain", str(log), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert document["schema"] == "compat.explain/1"
    return result.exit_code, document


def read(document: dict[str, object]) -> dict[tuple[str, str], tuple[str, int]]:
    facts = document["facts"]
    assert isinstance(facts, list)
    return {(f["kind"], f["key"]): (f["value"], f["line"]) for f in facts}


def line_of(log: Path, number: int) -> str:
    return log.read_text(encoding="utf-8").split("\n")[number - 1]


def test_name_version_lines_above_an_undefined_symbol_are_facts() -> None:
    code, document = explain(FLASH)
    facts = read(document)
    assert facts[("package", "torch")] == ("2.3.0", 2)
    assert facts[("package", "flash-attn")] == ("2.5.7", 3)
    assert facts[("package", "transformers")] == ("4.40.1", 4)
    # the extension's cpython-310 tag does not replace the more precise line
    assert facts[("python", "python")] == ("3.10.14", 5)
    assert facts[("build", "flash_attn_link_error")] == ("1", 15)
    # the loader's line names the file and the symbol: a fact the installed files can check
    # (issue 33, compat.diagnose.binaryconfirm)
    site = "/home/user/miniconda3/envs/lf/lib/python3.10/site-packages"
    so = f"{site}/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so"
    assert facts[("undefined_symbol", so)] == ("_ZN3c104cuda9SetDeviceEi", 15)
    assert document["note"] == "6 fact(s) read from the log"
    prerelease, match = document["matches"]  # type: ignore[misc]
    # 2.5.7's torch 2.3 wheel, the one setup.py fetches for Python 3.10, was compiled against
    # torch 2.3.0.dev20240207 (tests/unit/diagnose/test_explain_flash_attn_wheel.py)
    assert (prerelease["rule"], prerelease["verdict"]) == (
        "flash-attn-wheel-built-against-torch-prerelease",
        "confirmed",
    )
    assert match["rule"] == "flash-attn-built-for-another-torch" and code == 0
    # flash-attn 2.5.7 with no wheel label does not say which torch series it was built for
    assert match["verdict"] == "symptom-only"
    assert any(u.startswith("build.flash_attn_torch") for u in match["unknown"])
    assert {"fact": "packages.torch", "value": "2.3.0", "line": 2, "text": "torch: 2.3.0"} in match[
        "facts"
    ]


@pytest.mark.parametrize(
    ("torch_line", "verdict", "prerelease"),
    [
        ("torch: 2.4.0", "confirmed", "outside-range"),
        # the torch 2.3 wheel itself, compiled against 2.3.0.dev20240207: the other rule
        ("torch: 2.3.0", "outside-range", "confirmed"),
    ],
)
def test_a_flash_attn_wheel_name_in_pip_output_settles_the_rule(
    tmp_path: Path, torch_line: str, verdict: str, prerelease: str
) -> None:
    pip = (
        "Collecting flash-attn==2.5.7\n"
        "  Downloading https://github.com/Dao-AILab/flash-attention/releases/download/v2.5.7/"
        "flash_attn-2.5.7+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl (190.2 MB)\n"
        "Successfully installed flash-attn-2.5.7\n"
    )
    log = tmp_path / "train.log"
    log.write_text(pip + FLASH.read_text().replace("torch: 2.3.0", torch_line))
    code, document = explain(log)
    facts = read(document)
    # the later `flash-attn-2.5.7` does not erase what the wheel's label said
    assert facts[("package", "flash-attn")] == ("2.5.7+cu122torch2.3cxx11abiFALSE", 2)
    verdicts = {m["rule"]: m["verdict"] for m in document["matches"]}  # type: ignore[attr-defined]
    assert verdicts == {
        "flash-attn-built-for-another-torch": verdict,
        "flash-attn-wheel-built-against-torch-prerelease": prerelease,
    }
    assert code == 0
    (match,) = [
        m
        for m in document["matches"]  # type: ignore[attr-defined]
        if m["rule"] == "flash-attn-built-for-another-torch"
    ]
    assert {f["fact"] for f in match["facts"]} >= {"packages.torch", "build.flash_attn_torch"}


def test_deepspeed_cuda_mismatch_message_settles_its_rule_by_itself() -> None:
    code, document = explain(DS_MAJOR)
    match = document["matches"][0]  # type: ignore[index]
    assert (match["rule"], match["verdict"], match["line"], code) == (
        "deepspeed-nvcc-torch-cuda-major-mismatch",
        "confirmed",
        14,
        0,
    )
    assert match["unknown"] == []
    used = {f["fact"]: (f["value"], f["line"]) for f in match["facts"]}
    assert used == {
        "packages.deepspeed": ("present (version not shown)", 14),
        "build.nvcc": ("12.0", 14),
        "build.torch_cuda": ("11.8", 14),
    }
    facts = read(document)
    assert facts[("installed", "deepspeed")] == ("", 14)
    assert facts[("build", "nvcc")] == ("12.0", 14)
    text = run_cli(["explain", str(DS_MAJOR)]).stdout
    assert "CONFIRMED     deepspeed-nvcc-torch-cuda-major-mismatch" in text
    assert text.count("build.nvcc = 12.0") == 1  # one line per fact, whatever the branches


def test_deepspeeds_accepted_minor_mismatch_is_not_a_symptom(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(
        "Installed CUDA version 12.6 does not match the version torch was compiled with 12.4 "
        "but since the APIs are compatible, accepting this combination\n"
    )
    code, document = explain(log)
    assert document["matches"] == [] and code == 1
    # The same pair refused (DeepSpeed before 0.15.3): the rule's symptom, its builds read.
    log.write_text(
        "Exception: >- DeepSpeed Op Builder: Installed CUDA version 12.6 does not match the "
        "version torch was compiled with 12.4, unable to compile cuda/cpp extensions\n"
    )
    _, document = explain(log)
    match = document["matches"][0]  # type: ignore[index]
    assert match["rule"] == "deepspeed-nvcc-12.6-torch-cuda-mismatch"
    assert match["verdict"] == "symptom-only"  # its version range is not shown
    assert [u.split(" ")[0] for u in match["unknown"]] == ["packages.deepspeed"]


def test_pip_show_blocks() -> None:
    _, document = explain(LOGS / "composed-pip-show-openrlhf.log")
    facts = read(document)
    assert facts[("package", "openrlhf")] == ("0.5.6.post1", 3)
    assert facts[("package", "deepspeed")] == ("0.15.0", 13)
    assert facts[("package", "transformers")] == ("4.46.3", 18)
    assert facts[("package", "torch")] == ("2.5.1+cu124", 22)
    # The "Requires:" line names packages, never versions.
    assert ("package", "vllm") not in facts and ("package", "ray") not in facts


def test_xformers_warning_and_unsloth_banner() -> None:
    log = LOGS / "composed-xformers-unsloth.log"
    _, document = explain(log)
    facts = read(document)
    assert facts[("build", "xformers_torch")] == ("2.6.0+cu124", 2)
    assert facts[("build", "xformers_cuda")] == ("12.4", 2)
    assert facts[("python", "python")] == ("3.10.12", 3)  # what is installed, not built for
    assert facts[("package", "unsloth")] == ("2025.3.19", 8)
    assert facts[("package", "transformers")] == ("4.50.3", 8)
    assert facts[("package", "vllm")] == ("0.8.3.dev162+gc0ecb8f5", 8)
    assert facts[("gpu", "0")] == ("NVIDIA GeForce RTX 5090", 9)
    # Unsloth's "CUDA: 12.0" is the GPU's compute capability; "CUDA Toolkit" is torch's build
    assert facts[("compute_capability", "0")] == ("12.0", 10)
    assert facts[("build", "torch_cuda")] == ("12.8", 10)
    assert facts[("package", "torch")] == ("2.8.0.dev20250331+cu128", 10)
    assert facts[("package", "triton")] == ("3.3.0", 10)
    for (_, key), (value, line) in facts.items():
        if key != "xformers_cuda":  # printed as 1204
            assert value.split("+")[0] in line_of(log, line)


def test_prints_repl_and_pip_lines(tmp_path: Path) -> None:
    log = tmp_path / "env.log"
    log.write_text(
        '$ python -c "import torch; print(torch.__version__, torch.version.cuda)"\n'
        "2.5.1+cu124 12.4\n"
        ">>> import deepspeed; deepspeed.__version__\n"
        "'0.16.2'\n"
        "vllm.__version__: 0.6.3.post1\n"
        "Requirement already satisfied: trl in ./venv/lib/python3.10/site-packages (0.12.1)\n"
        "Successfully installed accelerate-1.1.1 nvidia-nccl-cu12-2.21.5\n"
        "[rank0]: 2024-06-03 10:00:00 INFO peft: 0.13.2\n"
    )
    facts = read(explain(log)[1])
    assert facts[("package", "torch")] == ("2.5.1+cu124", 2)
    assert facts[("build", "torch_cuda")] == ("12.4", 2)
    assert facts[("package", "deepspeed")] == ("0.16.2", 4)
    assert facts[("package", "vllm")] == ("0.6.3.post1", 5)
    assert facts[("package", "trl")] == ("0.12.1", 6)
    assert facts[("package", "accelerate")] == ("1.1.1", 7)
    assert facts[("package", "nvidia-nccl-cu12")] == ("2.21.5", 7)
    assert facts[("package", "peft")] == ("0.13.2", 8)


@pytest.mark.parametrize(
    "text",
    [
        "I upgraded torch 2.4.0 and it still fails",
        "if torch.__version__ == '2.3.0':",
        "Guessing wheel URL:  https://example.org/flash_attn-2.5.7+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl",
        "mylib: 1.2.3",  # a name no rule knows
        "torch: 2.3.0 2.4.0",
    ],
)
def test_prose_and_code_are_not_versions(tmp_path: Path, text: str) -> None:
    log = tmp_path / "notes.log"
    log.write_text(text + "\n")
    _, document = explain(log)
    assert document["facts"] == []
    assert document["note"] == "the log shows no versions or configuration"


@pytest.mark.parametrize(
    "body",
    [
        # a 10 MB single-line banner: each reader sees at most its first MAX_LINE bytes
        b"==((====))==  Unsloth 2025.3.19: Fast Qwen2 patching. Transformers: " + b"4" * 10**7,
        b"Successfully installed " + b"torch-2.3.0 " * 900_000,
        b"xFormers was built for: PyTorch " + b"(" * 10**7,
        # a 5,000-digit version in a pip show block, in a version line and in a wheel name
        b"Name: torch\nVersion: 2." + b"1" * 5000,
        b"torch: 2." + b"1" * 5000,
        b"torch==2." + b"1" * 5000,
        b"flash_attn-2." + b"1" * 5000 + b"-cp310-cp310-linux_x86_64.whl",
        # escape sequences and invalid UTF-8 around a version line
        b"\x1b[31mtorch: \x1b[0m2.3.0\x1b]0;title\x07 \xff\xfe",
    ],
)
def test_hostile_lines_are_bounded_and_never_a_traceback(tmp_path: Path, body: bytes) -> None:
    log = tmp_path / "hostile.log"
    log.write_bytes(body + b"\nImportError: flash_attn_2_cuda.so: undefined symbol: _ZN3c10\n")
    start = time.perf_counter()
    result = run_cli(["explain", str(log), "--format", "json"])
    assert time.perf_counter() - start < 60
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    assert "flash-attn-built-for-another-torch" in {m["rule"] for m in document["matches"]}
    for fact in document["facts"]:
        assert len(fact["value"]) <= 64


def test_a_signature_naming_an_unknown_fact_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text(
        """\
schema: compat.matrix/1
rules:
  - id: my-loader-crash
    title: our loader crashes on torch 2.4
    severity: warning
    evidence: reported
    when:
      packages: {torch: ">=2.4"}
    symptoms:
      - match: 'loader (?P<torch_version>[0-9.]+) died'
    fix: {summary: stay on 2.3, constraints: ["torch<2.4"]}
    references: ["https://wiki.example.org/loader"]
    examples:
      affected: [{packages: {torch: "2.4.1"}}]
      clear: [{packages: {torch: "2.3.1"}}]
"""
    )
    lint = run_cli(["matrix", "lint", str(rules)])
    assert lint.exit_code == 2 and "named group 'torch_version' is not a fact" in lint.stderr
    log = tmp_path / "train.log"
    log.write_text("loader 2.4.1 died\n")
    result = run_cli(["explain", str(log), "--matrix", str(rules)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    rules.write_text(rules.read_text().replace("torch_version", "package_torch"))
    assert run_cli(["matrix", "lint", str(rules)]).exit_code == 0
    _, document = explain(log, "--matrix", str(rules))
    match = document["matches"][0]  # type: ignore[index]
    assert (match["rule"], match["verdict"]) == ("my-loader-crash", "confirmed")
    assert read(document)[("package", "torch")] == ("2.4.1", 1)


def test_real_issue_version_lines() -> None:
    code, document = explain(LOGS / "flash-attention-931-setdevice.log")
    facts = read(document)
    assert facts == {
        ("package", "torch"): ("2.3.0", 3),
        ("package", "flash-attn"): ("2.5.7", 4),
        # the error line's own extension name: loading it failed, under CPython 3.10
        ("build", "flash_attn_link_error"): ("1", 9),
        ("python", "python"): ("3.10", 9),
        # the loader's file and symbol (issue 33: the installed files confirm or rule it out)
        ("undefined_symbol", "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so"): (
            "_ZN3c104cuda9SetDeviceEi",
            9,
        ),
    }
    assert [(m["rule"], m["line"]) for m in document["matches"]] == [  # type: ignore[attr-defined]
        ("flash-attn-wheel-built-against-torch-prerelease", 9),
        ("flash-attn-built-for-another-torch", 9),
    ]
    assert code == 0 and document["note"] == "5 fact(s) read from the log"
    _, document = explain(LOGS / "flash-attention-620-versions.log")
    assert read(document) == {
        ("python", "python"): ("3.8", 3),
        ("package", "transformers"): ("4.34.0", 4),
        ("package", "flash-attn"): ("2.3.2", 5),
        ("package", "torch"): ("2.1.0a0+fe05266", 6),
        ("package", "accelerate"): ("0.23.0", 7),
    }


def test_name_version_lines_are_read_where_a_run_starts(tmp_path: Path) -> None:
    steps = b"step 1 loss 0.5\n" * (9 * 2**20 // 16)  # past the head window (4 MiB and a block)
    log = tmp_path / "long.log"
    log.write_bytes(steps + b"torch: 2.3.0\n")
    assert ("package", "torch") not in read(explain(log)[1])  # a stated limit, not a guess
    marker = b"[2024-06-03 10:00:00,000] [INFO] Setting ds_accelerator to cuda (auto detect)\n"
    log.write_bytes(steps + marker + b"torch: 2.3.0\n")
    lines = steps.count(b"\n") + 2
    assert read(explain(log)[1])[("package", "torch")] == ("2.3.0", lines)
