"""Property-based tests over every parser compat runs on files it did not write: whatever the
bytes, a parser returns or raises a CompatError (exit 2) — never another exception (exit 70).

Inputs are real files on disk, built from token soups that hit each format's hard cases (deep
nesting, aliases, huge integers, NaN, escapes, bad bytes) plus arbitrary text. See tests/fuzzing.py
for the profiles (COMPAT_FUZZ_PROFILE=release for a long run).
"""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from compat.errors import CompatError
from tests.fuzzing import (  # also loads the Hypothesis profile
    json_text,
    req_text,
    soup,
    toml_text,
    yaml_text,
)


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="compat-fuzz-") as name:
        yield Path(name)


def holds_contract(parse: Callable[[], Any]) -> None:
    try:
        parse()
    except CompatError as error:
        text = str(error)
        assert "\n" not in text and "\x1b" not in text, repr(text)


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8", errors="surrogatepass")
    path.write_bytes(text)
    return path


@given(text=json_text)
def test_json_readers(workdir: Path, text: str) -> None:
    from compat.commands.waivers import load_baseline
    from compat.facts.declared.pipreport import read_pip_report
    from compat.facts.gather import read_deepspeed_config
    from compat.probes.profile import load_profile

    path = write(workdir / "input.json", text)
    holds_contract(lambda: read_deepspeed_config(path))
    holds_contract(lambda: load_profile(path))
    holds_contract(lambda: read_pip_report(path, text))
    holds_contract(lambda: load_baseline(path))


@given(data=st.binary(max_size=200))
def test_bytes_that_are_not_utf8(workdir: Path, data: bytes) -> None:
    from compat.facts.declared.detect import read_declared
    from compat.facts.gather import read_accelerate_config, read_deepspeed_config

    for name in ("report.json", "requirements.txt", "pyproject.toml", "unknown"):
        path = write(workdir / name, data)
        holds_contract(lambda: read_declared([path], environ={}))  # noqa: B023
    holds_contract(lambda: read_deepspeed_config(write(workdir / "ds.json", data)))
    holds_contract(lambda: read_accelerate_config(write(workdir / "acc.yaml", data)))


@given(text=yaml_text)
def test_yaml_readers(workdir: Path, text: str) -> None:
    from compat.facts.gather import read_accelerate_config
    from compat.kb.knowledge import validate_file
    from compat.probes.profile import load_profile

    path = write(workdir / "input.yaml", text)
    holds_contract(lambda: read_accelerate_config(path))
    holds_contract(lambda: load_profile(path))
    holds_contract(lambda: validate_file(path))


@given(text=toml_text)
def test_toml_readers(workdir: Path, text: str) -> None:
    from compat.commands.waivers import load_waivers
    from compat.facts.declared.tomlfiles import read_pylock, read_pyproject, read_uv_lock

    holds_contract(lambda: read_pyproject(write(workdir / "pyproject.toml", text)))
    holds_contract(lambda: read_pylock(write(workdir / "pylock.toml", text)))
    holds_contract(lambda: read_uv_lock(write(workdir / "uv.lock", text)))
    write(workdir / ".compat.toml", text)
    holds_contract(lambda: load_waivers(workdir))


@given(text=req_text)
def test_requirements_and_their_markers(workdir: Path, text: str) -> None:
    from packaging.markers import default_environment

    from compat.facts.declared.requirements import RequirementsResult, read_requirements

    path = write(workdir / "requirements.txt", text)
    result = RequirementsResult()
    holds_contract(lambda: read_requirements(path, environ={"HOME": "/h"}, result=result))
    environment = {**default_environment(), "extra": ""}
    for declared in result.requirements:
        if declared.marker is not None:
            holds_contract(lambda: declared.marker.evaluate(environment))  # type: ignore[union-attr]  # noqa: B023


def _value() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(),
        st.text(max_size=8),
        st.dates(),
        st.datetimes(),
        st.just({}),
    )
    return st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8
    )  # fmt: skip


@given(severity=_value(), until=_value(), packages=_value(), findings=_value())
def test_wrongly_typed_documents(
    workdir: Path, severity: Any, until: Any, packages: Any, findings: Any
) -> None:
    """Right structure, wrong types in the values: rule files, waivers, baselines, pyproject."""
    import json

    import yaml

    from compat.commands.waivers import load_baseline, load_waivers
    from compat.facts.declared.tomlfiles import read_pyproject
    from compat.kb.knowledge import validate_file

    rule = {
        "schema": "compat.matrix/1",
        "rules": [
            {
                "id": "x-y",
                "title": "t",
                "severity": severity,
                "evidence": "verified",
                "when": {"packages": packages},
                "fix": {"summary": "s", "constraints": ["trl>=1"]},
                "references": ["https://example.org"],
                "examples": {"affected": [{"packages": {"trl": "0.1"}}], "clear": [{}]},
            }
        ],
    }
    holds_contract(lambda: validate_file(write(workdir / "r.yaml", yaml.safe_dump(rule))))
    baseline = {"schema": "compat.report/1", "findings": findings}
    holds_contract(
        lambda: load_baseline(write(workdir / "b.json", json.dumps(baseline, default=str)))
    )
    toml_until = until.isoformat() if isinstance(until, dt.date) else json.dumps(until, default=str)
    write(workdir / ".compat.toml", f'[[ignore]]\nid = "x"\nreason = "r"\nuntil = {toml_until}\n')
    holds_contract(lambda: load_waivers(workdir))
    deps = json.dumps(packages, default=str)
    holds_contract(
        lambda: read_pyproject(
            write(workdir / "pyproject.toml", f'[project]\nname = "x"\ndependencies = {deps}\n')
        )
    )


@given(
    pattern=soup(["(", ")", "a", "+", "*", "?", "{2,3}", "|", "\\d", "[a-z]", "$", "^", "[["], 20)
)
def test_symptom_patterns(workdir: Path, pattern: str) -> None:
    """Whatever pattern a rule file carries, loading it returns or is an input error (regex
    warnings never reach stderr, deep groups never crash); a pattern that can backtrack
    catastrophically or match an empty line is refused at load."""
    import yaml

    from compat.kb.knowledge import compile_rule, validate_file
    from compat.kb.signatures import backtracking_problem, matches_empty

    rule = {
        "schema": "compat.matrix/1",
        "rules": [
            {
                "id": "x-y",
                "title": "t",
                "severity": "error",
                "evidence": "verified",
                "when": {"packages": {"trl": ">=1"}},
                "symptoms": [{"match": pattern}],
                "fix": {"summary": "s", "constraints": ["trl>=9"]},
                "references": ["https://example.org"],
                "examples": {"affected": [{"packages": {"trl": "1"}}], "clear": [{}]},
            }
        ],
    }
    path = write(workdir / "r.yaml", yaml.safe_dump(rule))
    try:
        plain = validate_file(path)
    except CompatError:
        return
    assert backtracking_problem(pattern) is None and not matches_empty(pattern)
    assert compile_rule(plain[0]).symptoms[0].match == pattern


CONDA_TOKENS = ["dependencies:\n", "  - ", "pip:\n", "    - ", "pytorch", "=2.1.*", "=*cuda*",
                "pytorch::", "[version='>=2', build=cuda*]", "numpy<2", " ", "|", ",", "-r x\n",
                "\n", "pytorch-cuda=12.1", "'", "python=3.11", "cuda-version=", "==", "{", "}"]  # fmt: skip
PIXI_LOCK_TOKENS = ["version: 6\n", "environments:\n", "  default:\n", "    packages:\n",
                    "      linux-64:\n", "      - conda: ", "      - pypi: ", "packages:\n",
                    "https://x/linux-64/pytorch-2.8.0-cuda129_x_1.conda\n", "- conda: ", "- pypi: ",
                    "  name: torch\n", "  version: 2.8.0\n", "x.whl\n", "- ", ": ", "[", "]", "\n"]  # fmt: skip
PIXI_TOML_TOKENS = ["[workspace]\n", "[dependencies]\n", "[pypi-dependencies]\n",
                    "[feature.gpu.dependencies]\n", "[environments]\n", 'gpu = ["gpu"]\n',
                    "pytorch = ", '"2.1.*"\n', '{ version = "2", build = "cuda*" }\n', "torch = ",
                    "[system-requirements]\n", 'cuda = "12"\n', "[target.linux-64.dependencies]\n",
                    "[feature.gpu]\n", "target = 1\n", '{ index = "https://x" }\n', "\n", "="]  # fmt: skip


@given(
    env_yml=st.one_of(soup(CONDA_TOKENS), yaml_text),
    lock=st.one_of(soup(PIXI_LOCK_TOKENS), yaml_text),
    manifest=st.one_of(soup(PIXI_TOML_TOKENS), toml_text),
    record=json_text,
)
def test_conda_and_pixi_readers(
    workdir: Path, env_yml: str, lock: str, manifest: str, record: str
) -> None:
    """environment.yml, pixi.lock, pixi.toml: a result or a CompatError; a conda-meta record: a
    result or a problem, never an exception (doctor reads the rest of the prefix)."""
    from compat.facts.conda import read_record
    from compat.facts.declared.detect import read_declared

    for name, text in (
        ("environment.yml", env_yml),
        ("pixi.lock", lock),
        ("pixi.toml", manifest),
        ("conda-lock.yml", lock),
    ):
        path = write(workdir / name, text)
        holds_contract(lambda: read_declared([path], environ={}, platform="linux"))  # noqa: B023
    read_record(write(workdir / "pytorch-2.8.0-cuda129_0.json", record))
