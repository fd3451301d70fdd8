"""`compat mcp`: the MCP server, driven by the official SDK's own client over a real stdio pipe.

The server is started as an agent host starts it (`python -m compat mcp`, stdin/stdout); the
client lists the tools, then calls each once against real inputs (a dist-info environment, a
hardware profile, a real log, a requirements file, a loopback package index for pin's proof).
Every tool must return a text summary and compat's JSON document, the same document the CLI
prints; bad arguments must come back as MCP errors carrying the CLI's one-line message.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from tests.conftest import run_cli
from tests.dists import make_env
from tests.indexserver import Dist, IndexServer
from tests.lib import paths

TOOLS = {"doctor", "check", "explain", "pin", "probe", "matrix_show", "matrix_search"}
STACK = {"torch": "2.6.0+cu124", "vllm": "0.7.2", "trl": "0.14.0", "transformers": "4.45.0"}
LOG = paths.LOGS / "deepspeed-5538-zero3-cpu-offload.log"


def _text(result: Any) -> list[str]:
    return [item.text for item in result.content]


async def _session_calls(
    calls: list[tuple[str, dict[str, Any]]], env: dict[str, str]
) -> dict[str, Any]:
    """One server process, one session: the tool list, then each call's result or error."""
    server = StdioServerParameters(command=sys.executable, args=["-m", "compat", "mcp"], env=env)
    out: dict[str, Any] = {}
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        out["tools"] = {tool.name: tool for tool in listed.tools}
        for key, (name, arguments) in enumerate(calls):
            try:
                out[f"{key}:{name}"] = await session.call_tool(name, arguments)
            except MCPError as error:
                out[f"{key}:{name}"] = error
    return out


def test_an_agent_lists_the_tools_and_calls_each(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", STACK)
    profile = tmp_path / "hw.json"
    profile.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": "535.104.05",
                "cuda_driver_version": "12.2",
                "gpus": [
                    {"index": 0, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
                ],
            }
        ),
        encoding="utf-8",
    )
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("transformers==4.46.0\ntrl>=0.15\n", encoding="utf-8")
    projects = {
        "transformers": [Dist("transformers", "4.46.0")],
        "trl": [Dist("trl", "0.15.2", requires=["transformers>=4.46.0"])],
    }
    log_text = LOG.read_text(encoding="utf-8")
    with IndexServer(projects) as index:
        calls: list[tuple[str, dict[str, Any]]] = [
            ("doctor", {"paths": [str(site)], "hardware": str(profile)}),
            ("check", {"files": [str(requirements)], "index_url": index.url}),
            ("explain", {"log_text": log_text}),
            ("explain", {"log_path": str(LOG)}),
            ("pin", {"requirements": [str(requirements)], "index_url": index.url}),
            ("pin", {"paths": [str(site)], "proof": False, "offline": True}),
            ("probe", {}),
            ("matrix_show", {"rule_id": "deepspeed-zero3-offload-clip-device-mismatch"}),
            ("matrix_search", {"package": "deepspeed"}),
            ("matrix_search", {"symptom": "Expected all tensors to be on the same device, but "
                                          "found at least two devices, cuda:0 and cpu!"}),
            ("matrix_search", {"rule_id": "vllm-torch-pin"}),
            # Bad arguments: the CLI's contract, as MCP errors.
            ("doctor", {"hardware": str(tmp_path / "missing.json")}),
            ("explain", {}),
            ("matrix_show", {"rule_id": "no-such-rule"}),
            ("check", {"files": ["--offline"]}),
        ]  # fmt: skip
        # Read-only: an output file named in the server's environment is not written.
        written = tmp_path / "written"
        env = {
            **os.environ,
            "COMPAT_OUTPUT": str(written / "out.json"),
            "COMPAT_PIN_BUILD_CONSTRAINTS_OUTPUT": str(written / "build.txt"),
        }
        written.mkdir()
        results = anyio.run(_session_calls, calls, env)
    assert list(written.iterdir()) == []

    tools = results["tools"]
    assert set(tools) == TOOLS
    assert all(tool.annotations and tool.annotations.read_only_hint for tool in tools.values())
    assert all(tool.description for tool in tools.values())

    # doctor: the same compat.report/1 the CLI prints, and a summary naming its findings.
    summary, document_text = _text(results["0:doctor"])
    document = json.loads(document_text)
    cli = run_cli(["doctor", "--path", str(site), "--hardware", str(profile), "-f", "json"])
    assert document == cli.json()
    assert document["schema"] == "compat.report/1" and document["findings"]
    assert all(f["rule"] in summary for f in document["findings"])
    assert results["0:doctor"].structured_content["exit_code"] == 1

    check = json.loads(_text(results["1:check"])[1])
    assert check["schema"] == "compat.report/1"

    # explain: from the text and from the path, the same matches.
    by_text = json.loads(_text(results["2:explain"])[1])
    by_path = json.loads(_text(results["3:explain"])[1])
    assert by_text["schema"] == "compat.explain/1"
    rules = [m["rule"] for m in by_text["matches"]]
    assert "deepspeed-zero3-offload-clip-device-mismatch" in rules
    assert rules == [m["rule"] for m in by_path["matches"]]
    assert "deepspeed-zero3-offload-clip-device-mismatch" in _text(results["2:explain"])[0]

    # pin, with the resolver's proof against the loopback index, and without it.
    proved = json.loads(_text(results["4:pin"])[1])
    assert proved["schema"] == "compat.pin/1" and proved["proof"]["status"] == "proven"
    assert "proof: proven" in _text(results["4:pin"])[0]
    unproved = json.loads(_text(results["5:pin"])[1])
    assert unproved["schema"] == "compat.pin/1" and unproved["pins"]

    probe = json.loads(_text(results["6:probe"])[1])
    assert probe["schema"] == "compat.hardware/1"

    shown = json.loads(_text(results["7:matrix_show"])[1])
    assert shown["id"] == "deepspeed-zero3-offload-clip-device-mismatch" and shown["references"]
    by_package = json.loads(_text(results["8:matrix_search"])[1])
    assert by_package["count"] >= 1
    assert all("deepspeed" in r["id"] or r["source"] for r in by_package["rules"])
    by_symptom = json.loads(_text(results["9:matrix_search"])[1])
    assert "deepspeed-zero3-offload-clip-device-mismatch" in [r["id"] for r in by_symptom["rules"]]
    by_id = json.loads(_text(results["10:matrix_search"])[1])
    assert [r["id"] for r in by_id["rules"]] == ["vllm-torch-pin-mismatch"]

    # Errors: one line each, the exit code the CLI gives, never a traceback.
    for key, words in (
        ("11:doctor", "missing.json"),
        ("12:explain", "give log_text or log_path"),
        ("13:matrix_show", "no rule 'no-such-rule'"),
        ("14:check", "looks like an option"),
    ):
        error = results[key]
        assert isinstance(error, MCPError), (key, error)
        assert error.code == -32602 and error.data["exit_code"] == 2
        assert words in error.message and "Traceback" not in error.message
        assert error.message.startswith("compat: error:")


def test_without_the_sdk_it_says_how_to_get_it() -> None:
    import subprocess

    script = (
        "import sys; sys.modules['mcp'] = None; sys.argv = ['compat', 'mcp']\n"
        "from compat.cli import main; main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.startswith("compat: error: compat mcp needs the MCP SDK")
    assert "pip install 'compat[mcp]'" in done.stderr and "Traceback" not in done.stderr
