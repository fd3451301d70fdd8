"""check as a CI gate (issue 42 items 1 and 2): an install the real resolver proves impossible
is the first verdict (`install:unsatisfiable`, exit 1, in every format), and an index the
machine cannot reach leaves the verdict to what can be judged without it (exit 3 unless a
finding fails), never exit 2. Real pip and uv against a real index on 127.0.0.1; unreachable
indexes are addresses that fail at once (a closed loopback port, a `.invalid` host)."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from compat.resolve.sources import snapshot
from tests.checkcli import TOOLS, by_rule, write
from tests.conftest import run_cli
from tests.indexserver import Dist, Faults, IndexServer

UNSAT = "install:unsatisfiable"
HF = {
    "transformers": [
        Dist("transformers", "4.30.0", requires=["tokenizers>=0.11.1,!=0.11.3,<0.14"])
    ],
    "tokenizers": [Dist("tokenizers", "0.13.3"), Dist("tokenizers", "0.20.0")],
    "six": [Dist("six", "1.17.0")],
}
VLLM = {
    "vllm": [Dist("vllm", "0.6.3", requires=["torch==2.4.0", "xformers==0.0.27.post2"])],
    "torch": [Dist("torch", "2.4.0"), Dist("torch", "2.5.1")],
    "xformers": [Dist("xformers", "0.0.27.post2", requires=["torch==2.4.0"])],
}


def closed_port_url() -> str:
    """An index on a loopback port nothing listens on: the connection is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/simple"


def gate(*args: str, env: dict[str, str] | None = None) -> tuple[int, Any]:
    result = run_cli(["check", *args, "--format", "json"], env=env)
    assert result.exit_code in (0, 1, 3), result.stderr
    return result.exit_code, result.json()


@pytest.fixture(autouse=True)
def no_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UV_HTTP_RETRIES", "0")  # a refused connection fails at once


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_an_install_the_resolver_proves_impossible_is_the_first_verdict(
    tmp_path: Path, tool: str
) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "transformers==4.30.0\ntokenizers==0.20.0\n"
    )
    with IndexServer(HF) as index:
        code, report = gate(str(requirements), "--index-url", index.url, "--resolver", tool)
        formats = {
            name: run_cli(
                ["check", str(requirements), "--index-url", index.url, "--resolver", tool,
                 "--format", name]
            )
            for name in ("text", "sarif", "junit", "gitlab", "github")
        }  # fmt: skip
    assert code == 1
    found = by_rule(report)[UNSAT]
    assert (found["kind"], found["status"], found["severity"]) == ("install", "affected", "error")
    # At the lines the resolver's explanation names, with the explanation in one paragraph.
    assert [p["source"] for p in found["packages"]] == [f"{requirements}:1", f"{requirements}:2"]
    assert found["title"].startswith(
        f"these requirements cannot be installed together for the target ({tool}"
    )
    assert "tokenizers" in found["title"] and "\n" not in found["title"]
    assert "<0.14" in found["title"]  # the requirement that excludes the pin, as the tool said it
    assert report["summary"]["resolve_failed"].startswith(tool)
    for name, result in formats.items():
        assert result.exit_code == 1, (name, result.stderr)
        assert "unsatisfiable" in result.stdout and "0.14" in result.stdout, name
    sarif = json.loads(formats["sarif"].stdout)
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == UNSAT]
    lines = {loc["physicalLocation"]["region"]["startLine"] for loc in result["locations"]}
    assert 1 in lines


@pytest.mark.usefixtures("resolver_env")
def test_findings_about_a_conflicting_package_say_the_install_cannot_happen(
    tmp_path: Path,
) -> None:
    requirements = write(tmp_path / "requirements.txt", "torch==2.5.1\nvllm==0.6.3\n")
    with IndexServer(VLLM) as index:
        code, report = gate(str(requirements), "--index-url", index.url)
    assert code == 1
    rules = by_rule(report)
    assert {p["source"] for p in rules[UNSAT]["packages"]} == {
        f"{requirements}:1",
        f"{requirements}:2",
    }
    others = [f for f in report["findings"] if f["rule"] != UNSAT]
    assert others, "the pins still get the knowledge base's verdicts"
    for finding in others:
        if {p["name"] for p in finding["packages"]} & {"torch", "vllm"}:
            assert any("cannot happen as written" in m for m in finding["matched"]), finding


def test_offline_the_snapshot_solve_proves_the_same(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "transformers==4.30.0\ntokenizers==0.20.0\n"
    )
    code, report = gate(str(requirements), "--offline")
    assert code == 1
    found = by_rule(report)[UNSAT]
    assert f"snapshot of {snapshot.fetched()}" in found["title"]
    assert "transformers 4.30.0 requires tokenizers" in found["title"]
    assert [p["source"] for p in found["packages"]] == [f"{requirements}:1", f"{requirements}:2"]


def test_an_installable_file_has_no_such_finding(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "transformers==4.30.0\ntokenizers==0.13.3\n"
    )
    _, report = gate(str(requirements), "--offline")
    assert UNSAT not in by_rule(report)
    assert report["summary"]["resolve_failed"] is None


UNREACHABLE = [
    pytest.param(lambda: closed_port_url(), "connection refused", id="refused"),
    pytest.param(lambda: "https://compat-test.invalid/simple", "does not resolve", id="dns"),
]


@TOOLS
@pytest.mark.parametrize(("url", "cause"), UNREACHABLE)
@pytest.mark.usefixtures("resolver_env")
def test_an_unreachable_index_in_the_file_leaves_the_verdict_to_what_can_be_judged(
    tmp_path: Path, tool: str, url: Any, cause: str
) -> None:
    dead = url()
    clean = write(tmp_path / "clean.txt", f"--extra-index-url {dead}\nsix==1.17.0\n")
    bad = write(tmp_path / "bad.txt", f"--extra-index-url {dead}\ntorch==2.5.1\nvllm==0.6.3\n")
    with IndexServer({**HF, **VLLM}) as index:
        code, report = gate(str(clean), "--index-url", index.url, "--resolver", tool)
        assert code == 3, report["notes"]
        said = [n for n in report["notes"] if dead in n]
        assert len(said) == 1 and cause in said[0], report["notes"]
        assert dead in report["summary"]["resolve_failed"]
        # The verdict still comes: the pins are judged, the rest by the offline solve.
        code, report = gate(str(bad), "--index-url", index.url, "--resolver", tool)
    assert code == 1
    rules = by_rule(report)
    assert "vllm-torch-pin-mismatch" in rules and UNSAT in rules
    assert dead in report["summary"]["resolve_failed"]


@pytest.mark.usefixtures("resolver_env")
def test_an_unreachable_index_on_the_command_line_or_in_the_environment(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "six==1.17.0\n")
    dead = closed_port_url()
    with IndexServer(HF) as index:
        code, report = gate(str(requirements), "--index-url", index.url, "--extra-index-url", dead)
        assert code == 3 and dead in report["summary"]["resolve_failed"]
        code, report = gate(
            str(requirements), "--index-url", index.url, env={"UV_EXTRA_INDEX_URL": dead}
        )
        assert code == 3 and dead in report["summary"]["resolve_failed"]
        code, report = gate(
            str(requirements), "--index-url", index.url, "--resolver", "pip",
            env={"PIP_EXTRA_INDEX_URL": dead},
        )  # fmt: skip
        assert code == 3 and dead in report["summary"]["resolve_failed"]


@pytest.mark.parametrize("status", [401, 403])
@pytest.mark.usefixtures("resolver_env")
def test_an_index_that_refuses_credentials_is_not_an_unsatisfiable_install(
    tmp_path: Path, status: int
) -> None:
    # uv answers "No solution found" with a hint that the index refused it: no verdict.
    requirements = write(tmp_path / "requirements.txt", "six==1.17.0\n")
    with (
        IndexServer(HF) as index,
        IndexServer(HF, faults=Faults(status={"six": status})) as private,
    ):
        code, report = gate(
            str(requirements), "--index-url", index.url, "--extra-index-url", private.url,
            "--resolver", "uv",
        )  # fmt: skip
    assert code == 3 and UNSAT not in by_rule(report)
    assert private.url in report["summary"]["resolve_failed"]
    assert str(status) in report["summary"]["resolve_failed"]


def test_an_index_url_that_does_not_parse_is_bad_input(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "--extra-index-url http://[::1/simple\nsix\n"
    )
    result = run_cli(["check", str(requirements)])
    assert result.exit_code == 2
    assert f"{requirements}:1: index URL 'http://[::1/simple' does not parse" in result.stderr
    result = run_cli(["check", str(requirements), "--extra-index-url", "http://[x"])
    assert result.exit_code == 2 and "does not parse" in result.stderr
