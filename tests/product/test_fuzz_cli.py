"""Property-based tests of the CLI as a whole: for generated input files and flag values, every
command ends with a verdict (0/1) or a usage/input error (2, one `compat: error:` line) — never
exit 70, never output with terminal control sequences, never a changed -o target on failure."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import Result, run_cli
from tests.dists import make_dist
from tests.fuzzing import (  # also loads the Hypothesis profile
    clean,
    json_text,
    req_text,
    toml_text,
    yaml_text,
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="compat-fuzz-cli-") as name:
        root = Path(name)
        make_dist(root / "site", "deepspeed", "0.14.2")
        make_dist(root / "site", "trl", "0.17.0")
        yield root


def holds_contract(result: Result) -> None:
    assert result.exit_code in (0, 1, 2, 3), (result.exit_code, result.stderr[-1000:])
    assert "\x1b" not in result.stdout
    if result.exit_code == 2:
        errors = result.stderr.splitlines()
        assert len(errors) == 1 and errors[0].startswith("compat: error: "), result.stderr
        assert clean(errors[0]), repr(errors[0])


@given(text=st.one_of(req_text, toml_text, json_text), name=st.sampled_from(
    ["requirements.txt", "pyproject.toml", "pylock.toml", "uv.lock", "report.json", "deps",
     "environment.yml", "pixi.toml", "pixi.lock", "conda-lock.yml"]))  # fmt: skip
def test_check_any_file(workdir: Path, text: str, name: str) -> None:
    path = workdir / name
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    output = workdir / "out.txt"
    output.write_text("previous\n", encoding="utf-8")
    result = run_cli(["check", str(path), "--offline", "--format", "json", "-o", str(output)])
    holds_contract(result)
    if result.exit_code == 2:
        assert output.read_text(encoding="utf-8") == "previous\n"


@given(text=st.one_of(json_text, yaml_text), option=st.sampled_from(
    ["--deepspeed-config", "--accelerate-config", "--hardware"]))  # fmt: skip
def test_doctor_configs(workdir: Path, text: str, option: str) -> None:
    suffix = ".json" if option == "--deepspeed-config" or text[:1] in "[{" else ".yaml"
    path = workdir / f"config{suffix}"
    path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
    probe = [] if option == "--hardware" else ["--no-probe"]
    args = ["doctor", "--path", str(workdir / "site"), *probe, option, str(path)]
    holds_contract(run_cli([*args, "--format", "text"]))


@given(
    key=st.sampled_from(["beta", "zero_stage", "gradient_clipping", "trainer", "use_vllm", "x"]),
    value=st.one_of(
        st.text(max_size=20),
        st.sampled_from(["nan", "inf", "-inf", "1e999", "9" * 5000, "\x1b[2J", "a\nb"]),
    ),
)
def test_set_values(workdir: Path, key: str, value: str) -> None:
    result = run_cli(
        ["doctor", "--path", str(workdir / "site"), "--no-probe", "--set", f"{key}={value}"]
    )
    holds_contract(result)
    assert "NaN" not in result.stdout and "Infinity" not in result.stdout


@given(timeout=st.sampled_from(["nan", "inf", "-1", "0", "1e999", "abc"]))
def test_timeout_values(workdir: Path, timeout: str) -> None:
    requirements = workdir / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    result = run_cli(["check", str(requirements), "--offline", "--timeout", timeout])
    assert result.exit_code == 2  # click's own usage errors are several lines; never 70
