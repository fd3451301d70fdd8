"""A prefix a collector puts on every line (journald, docker compose, logging timestamps,
torchrun's ranks, vLLM's headers) is read past: the facts a message states are the same as in
the bare log, and the lines cited are the real ones (issue 40). Real logs from public threads
(tests/data/logs), each line given the prefix that tool writes; judged through the CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.lib import paths

XFORMERS_LOG = paths.LOGS / "invokeai-6590-xformers-pip-list-other-env.log"
XFORMERS = "xformers-torch-pin-mismatch"

PREFIXES: dict[str, Callable[[int], str]] = {
    # journald / syslog (`journalctl -u trainer`)
    "journald": lambda i: f"Nov 12 10:00:{i % 60:02d} gpu-node-3 python3[48213]: ",
    # docker compose, the service's name padded and coloured
    "compose": lambda i: "\x1b[36mtrainer-1  | \x1b[0m",
    # Python logging's default `%(asctime)s - %(name)s - %(levelname)s - %(message)s`
    "logging": lambda i: f"2024-05-01 12:00:{i % 60:02d},123 - invokeai - INFO - ",
    # a collector's ISO timestamp in brackets (GitHub Actions, Kubernetes `--timestamps`)
    "iso": lambda i: f"[2024-05-01T12:00:{i % 60:02d}Z] ",
    # vLLM's own header
    "vllm": lambda i: f"INFO 05-01 12:00:{i % 60:02d} [__init__.py:239] ",
    # torchrun's `--tee`/`--log-dir` rank prefixes
    "rank": lambda i: "[rank0]: ",
    "default": lambda i: "[default0]:",
}


def explain(path: Path) -> dict[str, Any]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def used(document: dict[str, Any], rule: str) -> tuple[str, set[tuple[str, str, int]]]:
    match = next(m for m in document["matches"] if m["rule"] == rule)
    return match["verdict"], {(f["fact"], f["value"], f["line"]) for f in match["facts"]}


@pytest.mark.parametrize("kind", sorted(PREFIXES))
def test_xformers_build_lines_read_through_a_prefix(tmp_path: Path, kind: str) -> None:
    lines = XFORMERS_LOG.read_text().splitlines()
    prefixed = tmp_path / f"{kind}.log"
    prefixed.write_text("".join(PREFIXES[kind](i) + line + "\n" for i, line in enumerate(lines)))
    bare = used(explain(XFORMERS_LOG), XFORMERS)
    assert bare[0] == "confirmed"
    assert ("build.xformers_torch", "2.1.2+cu121", 3) in bare[1]
    assert used(explain(prefixed), XFORMERS) == bare  # same facts, same real lines


def test_a_timestamp_on_a_few_lines_is_the_messages_text(tmp_path: Path) -> None:
    # One quoted log line in a bare log: nothing is stripped elsewhere, the log reads as before.
    lines = XFORMERS_LOG.read_text().splitlines()
    log = tmp_path / "one.log"
    log.write_text("\n".join([lines[0], "2024-05-01 12:00:00,123 - INFO - started", *lines[1:]]))
    verdict, facts = used(explain(log), XFORMERS)
    assert verdict == "confirmed"
    assert ("build.xformers_torch", "2.1.2+cu121", 4) in facts
