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
