"""What compat hands uv as dependency metadata, from the user cache on a warm run (issue 32: a
fully pinned file checked online within 3 s).

The snapshot's part of uv's `[[dependency-metadata]]` (compat.resolve.resolvers.staticmeta) costs
a read of the whole dependency snapshot; it is kept in the user cache, keyed by the snapshot
file's stat signature, and believed only for the file as it is now. Real `python -m compat`
processes (each one starts cold in memory), real uv, an index on 127.0.0.1 whose source
distribution fails if uv ever builds it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.checkcli import write
from tests.conftest import run_subprocess
from tests.indexserver import Dist, IndexServer
from tests.unit.resolve.test_build_failures import NEVER_BUILD

pytestmark = pytest.mark.usefixtures("resolver_env")

HERE = "{}.{}".format(*sys.version_info[:2])
# flash-attn 2.8.2 is not in compat/data/sdist-requires.json: uv builds it, and the build fails
# (exit 3), unless the cache hands uv its requirements.
PROJECTS = {
    "flash-attn": [
        Dist("flash-attn", "2.8.2", wheel=False, metadata_file=False, backend=NEVER_BUILD)
    ],
    "torch": [Dist("torch", "2.8.0")],
    "einops": [Dist("einops", "0.8.1")],
}
FLASH_ATTN = ["flash-attn", "2.8.2", ["torch", "einops"], None]


def check(requirements: Path, index: IndexServer) -> tuple[int, Any]:
    result = run_subprocess(
        ["check", str(requirements), "--index-url", index.url, "--resolver", "uv",
         "--python-version", HERE, "--platform", "linux", "--no-probe", "--format", "json"]
    )  # fmt: skip
    assert result.exit_code in (0, 1, 3), result.stderr
    return result.exit_code, json.loads(result.stdout)


def cache_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("uv-dependency-metadata-*.json"))


def payload(path: Path) -> Any:
    digest, _, body = path.read_bytes().partition(b"\n")
    assert hashlib.sha256(body).hexdigest().encode() == digest
    return json.loads(body)


def forge(path: Path, content: Any) -> None:
    body = json.dumps(content).encode()
    path.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def signed(cache: Path, signature: Any, entries: Any) -> dict[str, Any]:
    """An entry as this user's compat writes it: tagged with the user's cache key."""
    message = json.dumps([signature, entries], separators=(",", ":")).encode()
    tag = hmac.new((cache / "kb.key").read_bytes(), message, hashlib.sha256).hexdigest()
    return {"signature": signature, "entries": entries, "tag": tag}


@pytest.fixture
def first_run(tmp_path: Path, isolated_cache: Path) -> tuple[Path, Path, Path]:
    """A cold run: uv builds flash-attn 2.8.2 (no verdict, exit 3) and the cache is written."""
    requirements = write(tmp_path / "requirements.txt", "flash-attn==2.8.2\n")
    with IndexServer(PROJECTS) as index:
        code, report = check(requirements, index)
    assert code == 3 and "this source distribution was built" in report["summary"]["resolve_failed"]
    (written,) = cache_files(isolated_cache)
    assert isinstance(payload(written)["signature"], list)
    return requirements, isolated_cache, written


def test_a_warm_run_takes_the_snapshot_part_from_the_cache(
    first_run: tuple[Path, Path, Path],
) -> None:
    requirements, cache, written = first_run
    # An entry only the cache holds, under the snapshot file's own signature: the warm run
    # hands it to uv, which then never builds the release (the cache was read, the snapshot not).
    forge(written, signed(cache, payload(written)["signature"], [FLASH_ATTN]))
    with IndexServer(PROJECTS) as index:
        code, report = check(requirements, index)
    assert code in (0, 1) and report["summary"]["resolve_failed"] is None


@pytest.mark.parametrize(
    "stale",
    [
        pytest.param(lambda sig, sign: sign([sig[0] + 1, *sig[1:]], [FLASH_ATTN]),
                     id="another-snapshot-file"),
        pytest.param(lambda sig, sign: sign(sig, [["flash-attn", "2.8.2"]]),
                     id="an-entry-of-another-shape"),
        pytest.param(lambda sig, sign: {**sign(sig, []), "entries": [FLASH_ATTN]},
                     id="planted-by-someone-without-the-key"),
        pytest.param(lambda sig, sign: {"signature": sig, "entries": [FLASH_ATTN]},
                     id="unsigned"),
        pytest.param(None, id="a-torn-file"),
    ],
)  # fmt: skip
def test_a_cache_that_does_not_match_the_snapshot_never_changes_the_answer(
    first_run: tuple[Path, Path, Path], stale: Any
) -> None:
    requirements, cache, written = first_run
    original = payload(written)
    signature = original["signature"]
    if stale is None:
        written.write_bytes(written.read_bytes()[:-5])
    else:
        forge(written, stale(signature, lambda sig, rows: signed(cache, sig, rows)))
    with IndexServer(PROJECTS) as index:
        code, report = check(requirements, index)
    assert code == 3 and "this source distribution was built" in report["summary"]["resolve_failed"]
    # ... and the cache is written again from the snapshot itself.
    assert [payload(path) for path in cache_files(cache)] == [original]
