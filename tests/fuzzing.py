"""Shared pieces of the fuzz suite (tests/product/test_fuzz_*.py): Hypothesis profiles and the
hostile-input contract every case is held to.

Profiles (pick one with COMPAT_FUZZ_PROFILE):
  ci       (default) few examples per property: the whole fuzz suite runs in well under a minute
  release  thousands of examples per property; run before a release:
           COMPAT_FUZZ_PROFILE=release .venv/bin/python -m pytest tests/product/test_fuzz_*.py -q
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "ci",
    max_examples=15,
    deadline=None,
    derandomize=True,  # the same examples on every CI run: a red build is reproducible
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    database=None,
)
settings.register_profile(
    "release",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile(os.environ.get("COMPAT_FUZZ_PROFILE", "ci"))

LIMIT_S = 10.0  # every hostile case must finish within this much CPU time
# A hang that burns CPU (a backtracking regex, a loop) is caught by the CPU-time limit, which the
# machine's load does not move; a hang that blocks (a FIFO, a socket) by this wall-clock backstop,
# generous so that a loaded 2-core CI machine never fails a case that only waited for a core.
WALL_BACKSTOP_S = 6 * LIMIT_S


def _limit_cpu() -> None:  # runs in the child between fork and exec
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (int(LIMIT_S), int(LIMIT_S) + 1))


@dataclass
class Outcome:
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def error_lines(self) -> list[str]:
        return self.stderr.splitlines()  # hints ride on the error line: one line, always


def run_hostile(
    args: Sequence[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdin: str | None = None,
) -> Outcome:
    """`python -m compat ARGS` as a real process, killed past LIMIT_S of CPU time (or the
    wall-clock backstop, for a process that blocks)."""
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "compat", *args],
            capture_output=True,
            text=True,
            errors="backslashreplace",
            cwd=cwd,
            env={**os.environ, "NO_COLOR": "1", **(env or {})},
            input=stdin if stdin is not None else "",
            timeout=WALL_BACKSTOP_S,
            preexec_fn=_limit_cpu if os.name == "posix" else None,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(
            f"compat {' '.join(args)[:200]} blocked past {WALL_BACKSTOP_S:g}s"
        ) from None
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise AssertionError(f"compat {' '.join(args)[:200]} burned past {LIMIT_S:g}s of CPU")
    return Outcome(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)


def clean(text: str) -> bool:
    """No control characters, line separators or lone surrogates (what error text must escape)."""
    return all(unicodedata.category(char) not in ("Cc", "Zl", "Zp", "Cs") for char in text)


def assert_input_error(outcome: Outcome, *fragments: str) -> None:
    """The contract for hostile input: exit 2, one `compat: error:` line, no crash."""
    assert outcome.returncode != -signal.SIGSEGV, "SIGSEGV"
    assert outcome.returncode == 2, (outcome.returncode, outcome.stderr[-2000:])
    lines = outcome.error_lines
    assert len(lines) == 1, outcome.stderr[-2000:]
    assert lines[0].startswith("compat: error: "), lines
    assert "internal error" not in lines[0]
    assert clean(lines[0]), repr(lines[0])
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# A rule file as a pull request could bring it: valid, with a hole for the hostile part.
RULE = """schema: compat.matrix/1
rules:
  - id: hostile-rule
    title: a rule from a pull request
    severity: error
    evidence: verified
    when: {{packages: {{trl: ">=0.1"}}{extra_when}}}
    {extra}
    fix: {{summary: upgrade, constraints: ["trl>=9"]}}
    references: ["https://example.org/x"]
    examples:
      affected: [{{packages: {{trl: "{affected}"}}}}]
      clear: [{{packages: {{trl: "9.0"}}}}]
"""


def rule_file(path: Path, *, extra: str = "", extra_when: str = "", affected: str = "0.1") -> Path:
    """RULE with `extra` keys, `extra_when` conditions and the affected example's trl version."""
    text = RULE.format(extra=extra, extra_when=extra_when, affected=affected)
    path.write_text(text, encoding="utf-8")
    return path


# Token soups: text that hits each format's hard cases (deep nesting, aliases, huge numbers,
# surrogates), for the parser properties and the CLI properties alike.
BIG = "9" * 4400


def soup(tokens: list[str], max_size: int = 60) -> st.SearchStrategy[str]:
    """Text built from format-specific tokens, mixed with arbitrary characters."""
    token = st.one_of(st.sampled_from(tokens), st.text(max_size=4))
    return st.lists(token, max_size=max_size).map("".join)


def repeated(opener: str, closer: str = "") -> st.SearchStrategy[str]:
    """Deep nesting, at sizes around and far past every limit."""
    return st.sampled_from([10, 63, 65, 900, 3000, 20_000]).map(lambda n: opener * n + closer * n)


JSON_TOKENS = ['{"a": ', "[", "]", "{", "}", ", ", '"x"', "1", BIG, "NaN", "-Infinity", "1e999",
               '"\\ud800"', "true", "null", ":", '"zero_optimization": ', '"stage": ', '"install": ',
               '"metadata": {"name": "trl", "version": "1"}', '"findings": ', '"schema": "compat.report/1"']  # fmt: skip
YAML_TOKENS = ["[", "]", "{", "}", ": ", "- ", "\n", "  ", "&a ", "*a", "&b ", "*b", "a", "1", BIG,
               ".nan", ".inf", "!!int ", "!!binary ", "!!python/object ", "? ", "'", '"', "2020-13-45",
               "<<: *a", "---\n", "%YAML 1.1\n", "\t", "\x00", "\ufeff"]  # fmt: skip
TOML_TOKENS = ["[", "]", "[[packages]]\n", "[project]\n", "[dependency-groups]\n", "a = ", "\n",
               '"x"', "'y'", '"\\u0070"', BIG, "nan", "inf", "1979-05-27T07:32:00Z", "{", "}", ", ",
               "dependencies = ", '{include-group = "a"}', 'name = "trl"\n', 'version = "1.0"\n',
               'lock-version = "1.0"\n', "version = 1\n", "[[package]]\n", "=", "#", "\\"]  # fmt: skip
REQ_TOKENS = ["trl", "==", ">=", "0.17.0", "; ", "os_name", " ~= ", '"posix"', "(", ")", " and ",
              "-r ", "-c ", "-e ", "--hash=sha256:0", "\\\n", "#", " ", "\t", "${HOME}", "[x]",
              " @ ", "file:///", "http://[::1", "\n", "-i ", "--index-url=", "git+https://x#egg=trl",
              "\x00", "'"]  # fmt: skip


json_text = st.one_of(soup(JSON_TOKENS), repeated("[", "]"), repeated('{"a":', "}"), st.text())
yaml_text = st.one_of(soup(YAML_TOKENS), repeated("["), repeated("- "), st.text())
toml_text = st.one_of(soup(TOML_TOKENS), repeated("a = [", "]").map(lambda s: s.split("]")[0]))
req_text = st.one_of(soup(REQ_TOKENS), st.text(), st.binary().map(lambda b: b.decode("latin-1")))
