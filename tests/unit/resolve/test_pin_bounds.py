"""A ranged requirement bounds pin's plan as it bounds the resolver that installs it: a line whose
platform marker holds for the target (litgpt's `bitsandbytes>=0.45.2,<0.50; sys_platform=='linux'
or sys_platform=='win32'`) keeps every candidate inside its range, a line for another platform
bounds nothing. Real uv proves the plan on a package index on 127.0.0.1."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer

ZERO3 = {
    "gradient_clipping": 1.0,
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
}


@pytest.mark.skipif(sys.platform == "darwin", reason="the markers below are written for Linux")
def test_a_marker_qualified_upper_bound_keeps_the_escape_inside_the_range(tmp_path: Path) -> None:
    # The resolver installs deepspeed 0.14.2 (the newest below 0.14.3), which the ZeRO-3 CPU
    # offload rule matches. The nearest escape, 0.14.3, is outside the Linux line's range; the
    # macOS line (which would rule 0.14.0 out) is not for this target. pin must go down to
    # 0.14.0 and the resolver must accept it.
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "trainer"\nversion = "0.1"\ndependencies = [\n'
        "  \"deepspeed>=0.14.2; sys_platform=='darwin'\",\n"
        "  \"deepspeed>=0.13,<0.14.3; sys_platform=='linux' or sys_platform=='win32'\",\n"
        "]\n"
    )
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {"deepspeed": [Dist("deepspeed", v) for v in ("0.14.0", "0.14.2", "0.14.3")]}
    with IndexServer(projects) as index:
        result = run_cli(["pin", "-r", str(pyproject), "--no-probe", "--index-url", index.url,
                          "--deepspeed-config", str(config), "--resolver", "uv",
                          "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.stdout + result.stderr
    document = result.json()
    pins = {p["name"]: p for p in document["pins"]}
    assert pins["deepspeed"]["version"] == "0.14.0", pins
    assert pins["deepspeed"]["action"] == "downgrade"
    assert document["proof"]["status"] == "proven", document["proof"]
    assert document["proof"]["resolved"] == {"deepspeed": "0.14.0"}
    assert not document["unresolved"]
