"""`compat mcp`: compat's commands as Model Context Protocol tools, over stdio.

Built on the official Python SDK (`pip install 'compat[mcp]'`). Each tool runs the compat CLI
itself in a child process (`python -m compat COMMAND ... --format json`), so an agent gets
exactly the documents and the contract the command line gives (`compat.report/1`,
`compat.explain/1`, the hardware profile, pin's JSON, `matrix show`'s rule), plus a short text
summary first. Read-only: no tool passes `-o` or installs anything (pin's proof resolves with
`--dry-run`); the only files written are compat's own index cache, as on the command line.
Bad arguments are the CLI's one-line error, as an MCP error (`-32602` invalid params, with the
exit code in `data`); a check that could not be made (exit 3) is `-32603`. Tool arguments are
turned into one argv list (never a shell), each value attached to its option (`--python=VALUE`),
and a file argument that looks like an option is refused: no value can become a flag.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent, ToolAnnotations

INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
_TIMEOUT = 600.0  # seconds: pin's proof and check's resolves talk to an index
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)

server = MCPServer(
    "compat",
    instructions=(
        "compat checks ML training environments (torch, vLLM, DeepSpeed, TRL, transformers, "
        "driver, GPU, configs) against a sourced knowledge base of known-bad combinations. "
        "Start with doctor on the training environment; explain maps an error log to its known "
        "cause and fix; matrix_search finds rules by package, error text or id; pin writes "
        "constraints that avoid every finding. Every tool is read-only."
    ),
)


def _usage(message: str) -> MCPError:
    return MCPError(INVALID_PARAMS, f"compat: error: {message}", {"exit_code": 2})


def _file(value: str, what: str) -> str:
    if value.startswith("-") and value != "-":
        raise _usage(f"{what} {value!r} looks like an option: give it as ./{value}")
    if "\x00" in value:
        raise _usage(f"{what}: a NUL byte is not a path")
    return value


def _opt(name: str, value: object) -> list[str]:
    if value is None or value is False:
        return []
    if value is True:
        return [name]
    text = str(value)
    if "\x00" in text:
        raise _usage(f"{name}: a NUL byte is not a value")
    return [f"{name}={text}"]


def _many(name: str, values: Sequence[str] | None) -> list[str]:
    return [arg for value in values or () for arg in _opt(name, value)]


def _run(args: list[str], stdin: str | None = None, ok: Sequence[int] = (0, 1)) -> tuple[int, str]:
    """The CLI in a child process: (exit code, stdout); any other exit is an MCP error with the
    CLI's one line."""
    env = {**os.environ, "NO_COLOR": "1"}
    # Nothing written where the caller did not say: no output file or step summary from the
    # server's environment (COMPAT_OUTPUT, COMPAT_PIN_BUILD_CONSTRAINTS_OUTPUT, ...).
    for name in list(env):
        if name.startswith("COMPAT_") and name.endswith(("OUTPUT", "STEP_SUMMARY")):
            del env[name]
    env.pop("GITHUB_STEP_SUMMARY", None)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "compat", *args],
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=_TIMEOUT,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise MCPError(
            INTERNAL_ERROR, f"compat {args[0]}: no answer within {_TIMEOUT:g}s"
        ) from None
    if done.returncode in ok:
        return done.returncode, done.stdout
    message = done.stderr.strip() or f"compat {args[0]} exited with {done.returncode}"
    code = INVALID_PARAMS if done.returncode == 2 else INTERNAL_ERROR
    raise MCPError(code, message, {"exit_code": done.returncode, "command": args[0]})


def _result(summary: str, document: Any, exit_code: int) -> CallToolResult:
    text = json.dumps(document, indent=2, ensure_ascii=False)
    structured = document if isinstance(document, dict) else {"result": document}
    return CallToolResult(
        content=[TextContent(type="text", text=summary), TextContent(type="text", text=text)],
        structured_content={**structured, "exit_code": exit_code},
    )


def _json(args: list[str], stdin: str | None = None, ok: Sequence[int] = (0, 1)) -> tuple[int, Any]:
    code, out = _run([*args, "--format=json"], stdin, ok)
    try:
        return code, json.loads(out)
    except ValueError:
        raise MCPError(INTERNAL_ERROR, f"compat {args[0]} wrote no JSON document") from None


def _findings_summary(command: str, document: dict[str, Any]) -> str:
    findings = document.get("findings") or []
    if not findings:
        return f"compat {command}: no known problem found."
    lines = [f"compat {command}: {len(findings)} finding(s)"]
    for finding in findings[:20]:
        fix = (finding.get("fix") or {}).get("summary") or ""
        lines.append(
            f"- {str(finding.get('status')).upper()} {finding.get('rule')} "
            f"[{finding.get('severity')}]: {finding.get('title')}"
            + (f" — fix: {fix}" if fix else "")
        )
    if len(findings) > 20:
        lines.append(f"... and {len(findings) - 20} more in the JSON document")
    return "\n".join(lines)


@server.tool(annotations=READ_ONLY)
def doctor(
    python: str | None = None,
    paths: list[str] | None = None,
    conda_prefix: str | None = None,
    hardware: str | None = None,
    no_probe: bool = False,
    deepspeed_config: str | None = None,
    accelerate_config: str | None = None,
    settings: list[str] | None = None,
) -> CallToolResult:
    """Check an installed training environment, its GPU/driver and usage facts against the
    knowledge base. Environment: `python` (an interpreter path), `paths` (site-packages dirs)
    or `conda_prefix`; default the server's own. Hardware: probed, or `hardware` (a profile from
    the probe tool), or `no_probe`. Usage facts: `deepspeed_config`, `accelerate_config` and
    `settings` (KEY=VALUE, e.g. trainer=grpo, use_vllm=true). Returns compat.report/1."""
    args = ["doctor", *_opt("--python", python), *_many("--path", paths)]
    args += [*_opt("--conda-prefix", conda_prefix), *_opt("--hardware", hardware)]
    args += [*_opt("--no-probe", no_probe), *_opt("--deepspeed-config", deepspeed_config)]
    args += [*_opt("--accelerate-config", accelerate_config), *_many("--set", settings)]
    code, document = _json(args)
    return _result(_findings_summary("doctor", document), document, code)


@server.tool(annotations=READ_ONLY)
def check(
    files: list[str],
    python_version: str | None = None,
    hardware: str | None = None,
    offline: bool = False,
    index_url: str | None = None,
) -> CallToolResult:
    """Check requirement and lock files (requirements.txt, pyproject.toml, uv.lock,
    pylock.toml, ...) for known-bad combinations before anything is installed. `offline`
    judges without the package index; `index_url` names one. Returns compat.report/1."""
    if not files:
        raise _usage("check needs at least one file")
    args = ["check", *_opt("--python-version", python_version), *_opt("--hardware", hardware)]
    args += [*_opt("--offline", offline), *_opt("--index-url", index_url)]
    args += [_file(f, "file") for f in files]
    code, document = _json(args)
    return _result(_findings_summary("check", document), document, code)


@server.tool(annotations=READ_ONLY)
def explain(
    log_text: str | None = None,
    log_path: str | None = None,
    python: str | None = None,
    deepspeed_config: str | None = None,
    settings: list[str] | None = None,
) -> CallToolResult:
    """Find the known cause of an error in a training log and its fix. Give the log's text
    (`log_text`) or a path to it (`log_path`). Versions and configs the log prints are read
    from it. Returns compat.explain/1."""
    if (log_text is None) == (log_path is None):
        raise _usage("give log_text or log_path: one of them")
    args = ["explain", *_opt("--python", python), *_opt("--deepspeed-config", deepspeed_config)]
    args += [*_many("--set", settings), "-" if log_path is None else _file(log_path, "log_path")]
    code, document = _json(args, stdin=log_text)
    matches = document.get("matches") or []
    if matches:
        lines = [f"compat explain: {len(matches)} match(es)"]
        for match in matches[:10]:
            fix = (match.get("fix") or {}).get("summary") or ""
            lines.append(
                f"- {str(match.get('verdict')).upper()} {match.get('rule')} (log line "
                f"{match.get('line')}): {match.get('title')}" + (f" — fix: {fix}" if fix else "")
            )
        summary = "\n".join(lines)
    else:
        summary = "compat explain: no known cause found in this log."
    return _result(summary, document, code)


@server.tool(annotations=READ_ONLY)
def pin(
    proof: bool = True,
    python: str | None = None,
    paths: list[str] | None = None,
    requirements: list[str] | None = None,
    hardware: str | None = None,
    settings: list[str] | None = None,
    offline: bool = False,
    index_url: str | None = None,
) -> CallToolResult:
    """Pip constraints that keep the environment (or the `requirements` files) out of every
    known-bad combination. With `proof` (default) the real resolver (uv, else pip) resolves
    the requirements under the constraints (`--dry-run`: nothing is installed); without it the
    constraints are not proved. `index_url`: the package index (default: pip/uv's
    configuration). Returns pin's JSON document; nothing is written."""
    args = ["pin", *_opt("--python", python), *_many("--path", paths)]
    args += [*_many("--requirement", [_file(r, "requirement") for r in requirements or ()])]
    args += [*_opt("--hardware", hardware), *_many("--set", settings), *_opt("--offline", offline)]
    args += [*_opt("--no-verify", not proof), *_opt("--index-url", index_url)]
    code, document = _json(args)
    pins = [p for p in document.get("pins") or [] if isinstance(p, dict)]
    changed = [f"{p.get('name')}=={p.get('version')}" for p in pins if p.get("changed")]
    proof_status = (document.get("proof") or {}).get("status", "not made")
    summary = (
        f"compat pin: {len(pins)} pin(s), {len(changed)} changed"
        + (f" ({', '.join(changed[:10])})" if changed else "")
        + f"; proof: {proof_status}"
    )
    return _result(summary, document, code)


@server.tool(annotations=READ_ONLY)
def probe() -> CallToolResult:
    """The GPUs, driver and CUDA facts of this machine (NVML; no CUDA context): the hardware
    profile that doctor's and check's `hardware` argument reads."""
    code, document = _json(["probe"], ok=(0,))
    gpus = document.get("gpus") or []
    summary = (
        f"compat probe: {len(gpus)} GPU(s), driver {document.get('driver_version')}, "
        f"CUDA {document.get('cuda_driver_version')}"
    )
    return _result(summary, document, code)


@server.tool(annotations=READ_ONLY)
def matrix_show(rule_id: str) -> CallToolResult:
    """One knowledge-base rule in full: description, symptoms, fix, references, examples."""
    code, document = _json(["matrix", "show", _file(rule_id, "rule_id")], ok=(0,))
    summary = (
        f"{document.get('id')} [{document.get('severity')}, {document.get('evidence')}]: "
        + str(document.get("title"))
    )
    return _result(summary, document, code)


@server.tool(annotations=READ_ONLY)
def matrix_search(
    package: str | None = None,
    symptom: str | None = None,
    rule_id: str | None = None,
    limit: int = 20,
) -> CallToolResult:
    """Find knowledge-base rules: by `package` (a rule about it), by `symptom` (error text:
    the rules whose symptom patterns match it, or whose symptoms or title contain it), or by
    `rule_id` (exact, else ids containing it). Returns the matching rules in full."""
    if package is None and symptom is None and rule_id is None:
        raise _usage("give package, symptom or rule_id")
    if limit < 1:
        raise _usage("limit must be at least 1")
    from compat.cli.rulesearch import search_rules

    try:
        rules = search_rules(package=package, symptom=symptom, rule_id=rule_id)
    except ValueError as error:
        raise _usage(str(error)) from None
    shown = rules[:limit]
    document = {"count": len(rules), "rules": shown}
    lines = [f"compat matrix search: {len(rules)} rule(s)"]
    lines += [f"- {r['id']} [{r['severity']}]: {r['title']}" for r in shown]
    return _result("\n".join(lines), document, 0)


def serve() -> None:
    server.run("stdio")
