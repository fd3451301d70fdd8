"""Shared fixtures: an isolated cache, the CLI through typer's runner, and as a real subprocess."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from compat.cli import app
from tests.lib import paths
from tests.lib.schemas import check_output
from tests.lib.sessioncache import built_once


def pytest_configure(config: pytest.Config) -> None:
    """The collector tuned as compat's own process tunes it (compat.cli._tune_gc): most tests
    run compat in-process (typer's runner), where CPython's default threshold (700 allocations)
    had the collector walk every module, rule table and snapshot the worker had loaded again and
    again; measured on test_pin_reasons + test_check_fix, 47-64 s CPU untuned, 29-49 s tuned
    (issue 45). Only when collections run changes, never what a test sees."""
    gc.set_threshold(100_000, 10, 10)


def pytest_collection_finish(session: pytest.Session) -> None:
    # the test modules, fixtures and what they imported live to the end of the worker
    gc.freeze()


# Shared fixtures of tests/lib (the R535/R580 hardware profile files), for every test module, the
# suite's time budget (a test over 60 s fails unless marked slow; tests/lib/timing.py), the
# tiers (`integration`, left out of `scripts/test --fast`; tests/lib/tiers.py) and xdist_group
# kept under pytest 9.2 (tests/lib/xdistgroups.py).
pytest_plugins = [
    "tests.lib.hardware",
    "tests.lib.timing",
    "tests.lib.tiers",
    "tests.lib.xdistgroups",
]


def _compile_rules(directory: Path) -> None:
    """What the first compat run on a machine writes into its cache: the knowledge base's rules
    compiled (kb-*.bin, signed with kb.key) and the shipped capabilities (capabilities-*)."""
    script = (
        "from compat.kb.knowledge import load_knowledge_base\n"
        "from compat.kb.capabilities import load_capabilities\n"
        "load_knowledge_base()\n"
        "load_capabilities()\n"
    )
    env = {**os.environ, "COMPAT_CACHE_DIR": str(directory)}
    subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=300)


@pytest.fixture(scope="session")
def compiled_rules() -> dict[Path, tuple[int, int]]:
    """The shipped knowledge base compiled once for the whole run (and kept for later runs
    under the content hash of compat/, tests/lib/sessioncache.py), with each file's size and
    modification time, which no test may change."""
    seed = built_once("compat-cache-seed", [sys.version, paths.COMPAT], _compile_rules)
    files = sorted(p for p in seed.iterdir() if p.is_file())
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in files}


@pytest.fixture(autouse=True)
def isolated_cache(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    compiled_rules: dict[Path, tuple[int, int]],
) -> Iterator[Path]:
    """Every test gets its own compat cache; no test reads the developer's ~/.cache.

    It starts as a cache that compat has used once: with the shipped rules compiled, as on any
    machine after the first run. Compiling them costs 1-2 s, which every test paid again in its
    empty cache (issue 45); the tests about a cold or a hostile cache name their own directory.
    The files are hard links to one copy: compat replaces cache files (a temporary file renamed
    over), never writes into them, and the check below fails a test that did."""
    cache = tmp_path_factory.mktemp("cache")
    for seed in compiled_rules:
        os.link(seed, cache / seed.name)
    monkeypatch.setenv("COMPAT_CACHE_DIR", str(cache))
    # pip and uv cache index pages by URL, and a test's index server is a fresh 127.0.0.1 port
    # that an earlier test may have used with other releases: no test shares their caches.
    monkeypatch.setenv("UV_CACHE_DIR", str(cache / "uv"))
    # A test's index is on 127.0.0.1 and never fails for a while: uv counts an archive it cannot
    # read (the "sdist that is not one" the failed-resolve tests serve) as a transient network
    # failure and retries it 3 times with backoff, ~10 s of sleep per run, for the same error
    # (uv 0.13: "Invalid gzip header" either way). Retries of compat's own index client are
    # tested in tests/unit/resolve/test_index.py and do not read this.
    monkeypatch.setenv("UV_HTTP_RETRIES", "0")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    # The machine's CUDA toolkit (nvcc) is a fact compat reads; tests must not depend on it.
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.delenv("CUDA_PATH", raising=False)
    path = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not os.path.exists(os.path.join(d, "nvcc"))
    ]
    monkeypatch.setenv("PATH", os.pathsep.join(path))
    # Nor on the developer's accelerate default config, which doctor reads as `accelerate launch` does.
    monkeypatch.setenv("HF_HOME", str(tmp_path_factory.mktemp("hf_home")))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    yield cache
    changed = [
        seed.name
        for seed, stamp in compiled_rules.items()
        if (seed.stat().st_size, seed.stat().st_mtime_ns) != stamp
    ]
    assert not changed, (
        f"the test wrote into the shared compiled rules {changed}: replace, never write"
    )


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def run_cli(
    args: Sequence[str], *, input: str | None = None, env: dict[str, str] | None = None
) -> Result:
    """The CLI in-process through typer's runner (stdout and stderr kept apart)."""
    result = CliRunner().invoke(app, list(args), input=input, env=env, catch_exceptions=False)
    check_output(args, result.stdout)  # every JSON document validates against schema/
    return Result(result.exit_code, result.stdout, result.stderr)


def run_subprocess(
    args: Sequence[str], *, cwd: Path | None = None, env: dict[str, str] | None = None
) -> Result:
    """`python -m compat ...` as a real process, as a user or CI runs it."""
    full_env = {**os.environ, **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-m", "compat", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=120,
    )
    check_output(args, proc.stdout, cwd)  # every JSON document validates against schema/
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def resolver_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip and uv see only the indexes a test names: no machine config, find-links or caches
    shared with the developer (pip's PIP_CONFIG_FILE=os.devnull loads no config file at all)."""
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    for name in ("PIP_FIND_LINKS", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_NO_INDEX"):
        monkeypatch.delenv(name, raising=False)
    for name in (
        "UV_INDEX_URL",
        "UV_EXTRA_INDEX_URL",
        "UV_INDEX",
        "UV_DEFAULT_INDEX",
        "UV_FIND_LINKS",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("UV_NO_CONFIG", "1")
    monkeypatch.setenv("UV_PYTHON_DOWNLOADS", "never")  # caches: isolated_cache, for every test
