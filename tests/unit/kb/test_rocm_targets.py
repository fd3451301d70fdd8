"""compat/data/rocm-targets.json is what scripts/gen_rocm_targets.py writes from its recorded
input (ROCm/TheRock's target list and SUPPORTED_GPUS.md at a named commit), and what doctor
says of a TheRock multi-arch torch on a target that is only "build passing"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from compat.kb.rocmtargets import linux_note, table
from tests.lib.paths import REPO

SCRIPT = REPO / "scripts" / "gen_rocm_targets.py"
TABLEGEN = SCRIPT.with_name("tablegen.py")  # the sibling script it imports
INPUT = REPO / "scripts" / "inputs" / "therock-targets.json"


def test_the_table_is_what_the_script_writes() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], check=False)
    assert done.returncode == 0, "compat/data/rocm-targets.json is stale: run gen_rocm_targets.py"


def test_the_input_names_its_source() -> None:
    recorded = json.loads(INPUT.read_text())
    assert recorded["source"]["repository"] == "ROCm/TheRock"
    assert len(recorded["source"]["commit"]) == 40
    assert set(recorded["source"]["files"]) == {
        "cmake/therock_amdgpu_targets.cmake",
        "SUPPORTED_GPUS.md",
    }


def test_rows_as_therock_states_them() -> None:
    rows = table()
    assert rows["gfx942"]["tiers"]["linux"]["release_ready"] is True
    assert rows["gfx90a"]["tiers"]["linux"] == {
        "build_passing": True,
        "sanity_tested": False,
        "release_ready": False,
    }
    assert "rccl" in rows["gfx1150"]["excluded_projects"]
    assert linux_note("gfx942") is None
    note = linux_note("gfx90a")
    assert note is not None and "not sanity-tested" in note
    assert "builds nothing" in (linux_note("gfx1013") or "")


def test_a_hand_edit_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    (copy / "scripts" / "inputs").mkdir(parents=True)
    (copy / "compat" / "data").mkdir(parents=True)
    (copy / "scripts" / "gen_rocm_targets.py").write_text(SCRIPT.read_text())
    (copy / "scripts" / "tablegen.py").write_text(TABLEGEN.read_text())
    (copy / "scripts" / "inputs" / "therock-targets.json").write_text(INPUT.read_text())
    data = json.loads((REPO / "compat" / "data" / "rocm-targets.json").read_text())
    data["targets"]["gfx90a"]["tiers"]["linux"]["sanity_tested"] = True
    (copy / "compat" / "data" / "rocm-targets.json").write_text(json.dumps(data))
    done = subprocess.run(
        [sys.executable, str(copy / "scripts" / "gen_rocm_targets.py"), "--check"], check=False
    )
    assert done.returncode == 1
