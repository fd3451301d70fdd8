"""Quiet output, exact errors (issue 42 item 11): each small error a CI engineer met, through the
CLI as they met it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compat.kb.knowledge import KnowledgeChoice, load_knowledge_base
from compat.symptoms import readable_symptom
from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

PINS = "torch==2.5.1\nvllm==0.6.3\ndeepspeed==0.14.2\n"


@pytest.fixture
def requirements(tmp_path: Path) -> Path:
    path = tmp_path / "requirements.txt"
    path.write_text(PINS, encoding="utf-8")
    return path


def test_a_bad_option_value_names_the_option_not_a_python_list(requirements: Path) -> None:
    result = run_cli(["check", str(requirements), "--format", "bogus"])
    assert result.exit_code == 2
    assert "env var" not in result.stderr and "[" not in result.stderr.split("Error:")[1][:40]
    assert "'--format' / '-f':" in result.stderr
    from_variable = run_cli(["check", str(requirements)], env={"COMPAT_FORMAT": "bogus"})
    assert from_variable.exit_code == 2 and "(from $COMPAT_FORMAT)" in from_variable.stderr


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [
        ("--frob", None),
        ("--prob", "--probe"),
        ("--ofline", "--offline"),
        ("--fial-on", "--fail-on"),
    ],
)
def test_a_typo_suggests_only_close_options(
    requirements: Path, typed: str, suggested: str | None
) -> None:
    result = run_cli(["check", str(requirements), typed])
    assert result.exit_code == 2
    last = result.stderr.strip().splitlines()[-1]
    assert "--no-probe" not in last
    if suggested is None:
        assert "Possible" not in last and "Did you mean" not in last, last
    else:
        assert suggested in last, last


def test_a_shared_format_variable_does_not_break_doctor_or_probe(tmp_path: Path) -> None:
    env = {"COMPAT_FORMAT": "sarif"}
    site = make_env(tmp_path / "site", {"torch": "2.5.1"})
    doctor = run_cli(["doctor", "--path", str(site), "--no-probe"], env=env)
    assert doctor.exit_code in (0, 1, 3), doctor.stderr
    assert doctor.stdout.startswith("compat ")  # doctor's text, its default
    assert "$COMPAT_FORMAT=sarif ignored" in doctor.stderr
    assert "$COMPAT_DOCTOR_FORMAT" in doctor.stderr
    probe = run_cli(["probe"], env=env)
    assert probe.exit_code == 0 and "$COMPAT_FORMAT=sarif ignored" in probe.stderr
    # The command's own variable is never ignored, nor a value no command takes.
    own = run_cli(["doctor", "--no-probe"], env={"COMPAT_DOCTOR_FORMAT": "sarif"})
    assert own.exit_code == 2
    typo = run_cli(["probe"], env={"COMPAT_FORMAT": "sarfi"})
    assert typo.exit_code == 2


def test_an_unknown_resolver_is_refused_offline_too(requirements: Path) -> None:
    result = run_cli(["check", str(requirements), "--resolver", "conda", "--offline"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "--resolver 'conda'" in result.stderr
    assert result.stdout == ""


def test_step_summary_outside_actions_fails_before_the_check(
    requirements: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    result = run_cli(["check", str(requirements), "--offline", "--step-summary"])
    assert result.exit_code == 2 and result.stdout == ""  # nothing judged, nothing printed
    assert "$GITHUB_STEP_SUMMARY is not set" in result.stderr


def test_explain_hints_name_only_what_explain_has() -> None:
    log = paths.LOGS
    hinted = set()
    # In-process (typer's runner): the same CLI boundary as a process per log, without 61
    # interpreter starts (13 s of CPU in a run of the suite, issue 45).
    for file in sorted(log.glob("*.log"))[:80]:
        result = run_cli(["explain", str(file), "--no-probe"])
        hinted.update(re.findall(r"settle with (.*)", result.stdout))
    assert hinted, "no log asked a question"
    text = " ".join(hinted)
    assert "--no-probe" not in text and "--python-version" not in text
    assert "--platform" not in text


def _shipped_symptoms() -> list[str]:
    kb = load_knowledge_base(KnowledgeChoice(matrices=()))
    return sorted({s.match for rule in kb.rules() for s in rule.symptoms})


def test_every_shipped_symptom_reads_as_text_not_a_regex() -> None:
    symptoms = _shipped_symptoms()
    assert len(symptoms) > 50
    # `[…]` is text: a bracketed list the log prints, shown elided (flash-attn's `GPU archs of
    # ['gfx908']`); any other bracket pair would be a character class left in
    regex_syntax = re.compile(
        r"\(\?|\\[dswbDSWB.()\[\]]|\[(?!…\])[^\]]*\]|\{\d+,?\d*\}|[^\s]\|[^\s]|\.\*"
    )
    for pattern in symptoms:
        shown = readable_symptom(pattern)
        assert not regex_syntax.search(shown), (pattern, shown)


@pytest.mark.parametrize(
    ("pattern", "shown"),
    [
        (
            r"(?:^|[\s/'\"])vllm/[\w./-]{1,300}.so: undefined symbol: _Z",
            "vllm/….so: undefined symbol: _Z",
        ),
        (
            r"found at least two devices, (cuda:\d+ and cpu|cpu and cuda:\d+)",
            "found at least two devices, cuda:N and cpu",
        ),
        (
            r"The NVIDIA driver on your system is too old \(found version \d+\)",
            "The NVIDIA driver on your system is too old (found version N)",
        ),
        (r"Using the `?Trainer`? with", "Using the Trainer with"),
        # a set of characters is its first: the spelling the log prints, not `…nvalid`
        (r"HIP error: [iI]nvalid device function", "HIP error: invalid device function"),
        (r"KeyError: ['\"]gfx[0-9a-f]{3,4}['\"]", "KeyError: 'gfx…'"),
        (r"Unknown GPU arch(?:itecture)?:? ['\"]?gfx[0-9a-f]{3,4}", "Unknown GPU arch gfx…"),
        (r"CUDA version (?P<v>12\.[0-5]) does", "CUDA version 12.N does"),
    ],
)
def test_a_symptom_is_shown_as_the_words_a_person_searches_for(pattern: str, shown: str) -> None:
    assert readable_symptom(pattern) == shown
