"""The fixtures of tests/data/hip-bundles rebuilt by the real tools (make.py there), where they
are installed: clang-offload-bundler-14 writes the same bundle bytes as committed, and the
fresh v1 streams and environment-triple IDs read as the committed ones do
(test_hip_formats.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.binary.test_hip_formats import DATA, check_environment_ids, check_v1_streams

TOOLS = ("clang-offload-bundler-14", "zstd")
missing = [tool for tool in TOOLS if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(
    bool(missing), reason=f"needs {' and '.join(missing)} to rebuild the bundles"
)


def test_the_tools_rebuild_the_committed_bundles(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    subprocess.run([sys.executable, str(DATA / "make.py"), str(fresh)], check=True, timeout=60)
    for name in ("env-triple.hipfb", "generic.hipfb"):
        assert (fresh / name).read_bytes() == (DATA / name).read_bytes(), name
    check_environment_ids(tmp_path, fresh)
    check_v1_streams(tmp_path, fresh)


@pytest.mark.parametrize(
    "flags", [["-3"], ["-19"], ["-3", "--no-check"], ["-3", "--no-content-size"]]
)
def test_zstd_frames_the_command_writes_are_walked_to_their_end(
    tmp_path: Path, flags: list[str]
) -> None:
    """Frames of several blocks (raw, RLE, compressed), with and without the checksum and the
    content size, each followed by `CCOB` bytes: the walk stops where the frame does."""
    import random

    from compat.binary.hipfatbin import _stream_length

    noise = random.Random(43).randbytes(300_000)
    for data in (b"", b"x", noise, b"\0" * 400_000, (noise[:5000] + b"\0" * 70_000) * 4):
        raw = tmp_path / "in"
        raw.write_bytes(data)
        subprocess.run(
            ["zstd", "-q", "-f", *flags, str(raw), "-o", str(tmp_path / "out")], check=True
        )
        frame = (tmp_path / "out").read_bytes()
        blob = frame + b"CCOB" * 8
        assert _stream_length(blob, 0, len(blob), 1) == len(frame)
