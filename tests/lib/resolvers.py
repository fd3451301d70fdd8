"""What the real pip and the real uv resolve under a constraints file compat wrote (the proof a
test asks of `compat pin`), with no user configuration."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from compat.resolve.resolvers.resolver import find_uv


def pip_resolve(
    index_url: str, constraints: Path, requirements: list[str], tmp: Path
) -> dict[str, str]:
    """What real pip installs for `requirements` under `constraints` (dry run, isolated config)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    report = tmp / "pip-report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-cache-dir", "--quiet",
         "--disable-pip-version-check", "--index-url", index_url, "-c", str(constraints), "--report", str(report),
         *requirements],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return {
        item["metadata"]["name"].lower(): item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }


def uv_resolve(index: str, constraints: Path, requirements: list[str], tmp: Path) -> dict[str, str]:
    """What real uv resolves (`uv pip compile -c`), with no user configuration."""
    uv = find_uv()
    assert uv is not None, "uv is a dev dependency"
    reqs = tmp / "uv-requirements.in"
    reqs.write_text("".join(f"{r}\n" for r in requirements))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UV_", "PIP_"))}
    # A cache of this test's own: the environment's UV_CACHE_DIR is dropped with the rest of
    # uv's configuration, and uv's default cache keys index pages and metadata by URL, so an
    # earlier test's index on the same 127.0.0.1 port (other wheels, other hashes) answered for
    # this one ("Hash mismatch for package metadata", a fresh-clone run of issue 45).
    proc = subprocess.run(
        [uv, "pip", "compile", str(reqs), "-c", str(constraints), "--index-url", index,
         "--no-config", "--no-header", "--no-annotate", "--quiet",
         "--cache-dir", str(tmp / "uv-cache")],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    pins = [line.split("==") for line in proc.stdout.splitlines() if "==" in line]
    return {name.strip().lower(): version.strip() for name, version in pins}
