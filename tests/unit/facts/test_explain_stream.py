"""Logs as they come: compressed, piped, coloured, with progress bars, ranks, bad bytes and no
size cap; one line numbering (on b"\\n", as `grep -n`) for numbers and quoted text alike."""

from __future__ import annotations

import gzip
import importlib.util
import lzma
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_subprocess
from tests.lib import paths

LOGS = paths.LOGS
COMPOSITE = LOGS / "composite-minicpm-deepspeed-0.14.2.log"
DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
ERROR = b"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"


def first_match(args: list[str]) -> dict[str, object]:
    result = run_cli(["explain", *args, "--format", "json"])
    assert result.exit_code == 0, result.stderr
    match: dict[str, object] = result.json()["matches"][0]
    return match


def python_explain(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "compat", "explain", *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("suffix", "compress"),
    [(".log.gz", gzip.compress), (".log.xz", lzma.compress), (".txt", lambda data: data)],
)
def test_compressed_logs_read_like_plain_ones(
    tmp_path: Path, suffix: str, compress: object
) -> None:
    log = tmp_path / f"train{suffix}"
    assert callable(compress)
    log.write_bytes(compress(COMPOSITE.read_bytes()))  # recognised by content, not by name
    match = first_match([str(log)])
    assert (match["rule"], match["verdict"], match["line"]) == (DS_RULE, "confirmed", 23)


def test_stdin_plain_and_gzip() -> None:
    for data in (COMPOSITE.read_bytes(), gzip.compress(COMPOSITE.read_bytes())):
        proc = python_explain(["-", "--format", "json"], data)
        assert proc.returncode == 0, proc.stderr
        assert b'"verdict": "confirmed"' in proc.stdout and b'"line": 23' in proc.stdout


def test_truncated_gzip_is_one_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "cut.log.gz"
    log.write_bytes(gzip.compress(COMPOSITE.read_bytes() * 50)[:400])
    result = run_subprocess(["explain", str(log)])
    assert result.exit_code == 2
    assert result.stderr.startswith("compat: error: ") and "cannot read log" in result.stderr
    assert "Traceback" not in result.stderr


def _zstd_library() -> bool:
    return any(importlib.util.find_spec(name) is not None for name in ("compression", "zstandard"))


@pytest.mark.skipif(shutil.which("zstd") is None, reason="the zstd tool makes the test file")
def test_zstd_log(tmp_path: Path) -> None:
    log = tmp_path / "train.log.zst"
    subprocess.run(["zstd", "-q", "-o", str(log), str(COMPOSITE)], check=True)
    result = run_cli(["explain", str(log), "--format", "json"])
    if _zstd_library():
        assert result.exit_code == 0 and result.json()["matches"][0]["line"] == 23
    else:  # no decoder in this Python: say how to get one, or to pipe it through zstd -dc
        assert result.exit_code == 2
        assert "zstd needs Python 3.14+ or `pip install zstandard`" in result.stderr
        assert "zstd -dc LOG | compat explain -" in result.stderr


def test_line_numbers_count_newlines_only(tmp_path: Path) -> None:
    """Carriage returns, vertical tabs, form feeds, \\x1c-\\x1e, NEL, U+2028, invalid UTF-8 and
    escape codes are all inside lines: numbers and quotes agree with `grep -n`."""
    tricky = [
        b"  0%|          | 0/9\r 11%|#         | 1/9\r 22%|##        | 2/9",
        b"page\x0cbreak\x0bvertical\x1cfile\x1dgroup\x1erecord",
        "next\u0085line\u2028separator\u2029paragraph".encode(),
        b"bad bytes \xff\xfe\xc3( here",
        b"\x1b[1;31mred\x1b[0m \x1b]0;title\x07 done",
        b'[rank3]:   File "/x/deepspeed/runtime/zero/stage3.py", line 2047, in step',
        b'[rank3]:   File "/x/deepspeed/runtime/zero/stage3.py", line 2117, in unscale_and_clip_grads',
        b"  3%|3         | 3/100 [00:01<00:30]\r\x1b[31m[rank3]: " + ERROR + b"\x1b[0m\r",
        b"after",
    ]
    data = b"\n".join(tricky) + b"\n"
    log = tmp_path / "tricky.log"
    log.write_bytes(data)
    match = first_match([str(log)])
    expected = data[: data.index(ERROR)].count(b"\n") + 1
    assert match["line"] == expected == 8
    assert match["text"] == ERROR.decode()  # the segment after the carriage return, no codes
    assert match["rank"] == 3
    assert match["frames"] == ["stage3.py:unscale_and_clip_grads", "stage3.py:step"]
    if shutil.which("grep"):
        grep = subprocess.run(
            ["grep", "-a", "-n", "Expected all tensors", str(log)], capture_output=True, check=False
        )
        assert grep.stdout.split(b":", 1)[0] == str(expected).encode()


def test_interleaved_ranks_frames_after_the_error(tmp_path: Path) -> None:
    lines = [
        b"[rank0]: Traceback (most recent call last):",
        b"[rank1]: Traceback (most recent call last):",
        b'[rank0]:   File "/x/deepspeed/runtime/zero/stage3.py", line 2047, in step',
        b"[rank0]: " + ERROR,
        b'[rank1]:   File "/x/deepspeed/runtime/zero/stage3.py", line 2047, in step',
        b'[rank1]:   File "/x/deepspeed/runtime/zero/stage3.py", line 2117, in unscale_and_clip_grads',
        b"[rank1]: " + ERROR.replace(b"cuda:0", b"cuda:1"),
    ]
    log = tmp_path / "ranks.log"
    log.write_bytes(b"\n".join(lines) + b"\n")
    match = first_match([str(log), "--set", "zero_stage=3"])
    assert match["line"] == 4 and match["rank"] == 0
    assert set(match["frames"]) == {"stage3.py:step", "stage3.py:unscale_and_clip_grads"}  # type: ignore[arg-type]


def test_crash_after_256_mib_of_progress_is_found(tmp_path: Path) -> None:
    """The old reader stopped at 256 MiB; a crash at the end of a long run was missed. Piped
    through stdin, generated as it is read, nothing written to disk."""
    lines = COMPOSITE.read_bytes().split(b"\n")
    head, tail = b"\n".join(lines[:12]) + b"\n", b"\n".join(lines[12:])
    step = b"[2024-06-03 10:12:44,101] [INFO] [logging.py:96:log_dist] step=1 loss=0.1 lr=1e-5\n"
    per_block, count = 2**20 // len(step), 260
    script = "\n".join(
        [
            "import sys",
            "out = sys.stdout.buffer",
            f"out.write({head!r})",
            f"block = {step!r} * {per_block}",
            f"for _ in range({count}): out.write(block)",
            f"out.write({tail!r})",
        ]
    )
    writer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    proc = subprocess.run(
        [sys.executable, "-m", "compat", "explain", "-", "--format", "json"],
        stdin=writer.stdout,
        capture_output=True,
        timeout=300,
        check=False,
    )
    writer.wait()
    assert writer.stdout is not None
    writer.stdout.close()
    assert proc.returncode == 0, proc.stderr
    expected = 12 + per_block * count + 11
    assert f'"line": {expected},'.encode() in proc.stdout
    assert b'"verdict": "confirmed"' in proc.stdout  # start-up facts kept across 260 MiB
