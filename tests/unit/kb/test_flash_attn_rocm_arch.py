"""compat/data/flash-attn-rocm-arch.json is what scripts/gen_flash_attn_rocm_arch.py writes from
its recorded input (Dao-AILab/flash-attention's v2 tags at named commits, PyPI's untagged sdist by
its sha256), and the setup.py reader takes the tags' shapes, refusing the ones it does not know
(main's second validate_and_update_archs call, which checks the detected target, included)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.lib.paths import REPO
from tests.lib.scripts import load_script

SCRIPT = REPO / "scripts" / "gen_flash_attn_rocm_arch.py"
INPUT = REPO / "scripts" / "inputs" / "flash-attn-rocm-arch.json"
OUTPUT = REPO / "compat" / "data" / "flash-attn-rocm-arch.json"


def _generator() -> ModuleType:
    return load_script("gen_flash_attn_rocm_arch")


def test_the_table_is_what_the_script_writes() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], check=False)
    assert done.returncode == 0, "compat/data/flash-attn-rocm-arch.json is stale: run the script"


def test_every_release_names_its_tag_commit_or_sdist() -> None:
    recorded = json.loads(INPUT.read_text())
    assert recorded["repo"] == "Dao-AILab/flash-attention"
    rocm = {name: row for name, row in recorded["releases"].items() if row["rocm"]}
    assert min(rocm, key=lambda n: [int(p) for p in n.split(".")[:3]]) == "2.6.2"  # #1010
    for name, row in recorded["releases"].items():
        if "tag" in row:
            assert row["tag"] == f"v{name}" and len(row["commit"]) == 40
            assert set(row["files"]) == {"setup.py", ".github/workflows/publish.yml"}
        else:
            assert row["sdist"] == f"flash_attn-{name}.tar.gz" and len(row["sdist_sha256"]) == 64
        assert row["publish_rocm"] is False, name  # CUDA release wheels only
    for name, row in rocm.items():
        assert row["allowed"] and row["native_checked"] is False, name


def test_a_hand_edit_is_caught(tmp_path: Path) -> None:
    (tmp_path / "scripts" / "inputs").mkdir(parents=True)
    (tmp_path / "compat" / "data").mkdir(parents=True)
    for name in ("gen_flash_attn_rocm_arch.py", "gen_xformers_rocm_arch.py"):
        (tmp_path / "scripts" / name).write_text((REPO / "scripts" / name).read_text())
    (tmp_path / "scripts" / "inputs" / "flash-attn-rocm-arch.json").write_text(INPUT.read_text())
    data = json.loads(OUTPUT.read_text())
    data["releases"]["2.8.3"]["allowed"].append("gfx1100")
    (tmp_path / "compat" / "data" / "flash-attn-rocm-arch.json").write_text(json.dumps(data))
    script = tmp_path / "scripts" / "gen_flash_attn_rocm_arch.py"
    assert subprocess.run([sys.executable, str(script), "--check"], check=False).returncode == 1


# setup.py's ROCm lines in the shapes of v2.6.2 (CK only) and v2.8.0 (the Triton switch)
_V262 = """from torch.utils.cpp_extension import ROCM_HOME, IS_HIP_EXTENSION
def validate_and_update_archs(archs):
    allowed_archs = ["native", "gfx90a", "gfx940", "gfx941", "gfx942"]
    assert all(
        arch in allowed_archs for arch in archs
    ), f"One of GPU archs of {archs} is invalid or not supported by Flash-Attention"
elif not SKIP_CUDA_BUILD and IS_ROCM:
    archs = os.getenv("GPU_ARCHS", "native").split(";")
    validate_and_update_archs(archs)
"""
_V280 = _V262.replace(
    "from torch",
    'USE_TRITON_ROCM = os.getenv("FLASH_ATTENTION_TRITON_AMD_ENABLE", "FALSE") == "TRUE"\n'
    'SKIP_CK_BUILD = os.getenv("FLASH_ATTENTION_SKIP_CK_BUILD", "TRUE") == "TRUE" '
    "if USE_TRITON_ROCM else False\nif not SKIP_CK_BUILD:\n    pass\nfrom torch",
).replace('"gfx940", "gfx941", "gfx942"', '"gfx950", "gfx942"')


def test_the_setup_reader_takes_the_tags_shapes() -> None:
    gen = _generator()
    assert gen.read_setup(_V262) == {
        "rocm": True,
        "allowed": ["gfx90a", "gfx940", "gfx941", "gfx942"],
        "native_checked": False,
        "triton_env": False,
    }
    assert gen.read_setup(_V280)["allowed"] == ["gfx90a", "gfx950", "gfx942"]
    assert gen.read_setup(_V280)["triton_env"] is True
    assert gen.read_setup("from torch.utils.cpp_extension import CUDA_HOME\n") == {"rocm": False}


@pytest.mark.parametrize(
    "setup",
    [
        # main after #2400: the detected target is validated too (a second call)
        _V262 + "    validate_and_update_archs(kernel_targets)\n",
        _V262.replace('"native").split(";")', '"gfx942").split(";")'),  # another default
        _V262.replace('"gfx942"]', "*EXTRA]"),  # a list not written out
        _V280.replace("if not SKIP_CK_BUILD:", "if SKIP_CK_BUILD:"),  # the switch not skipping
    ],
)
def test_the_setup_reader_refuses_other_shapes(setup: str) -> None:
    gen = _generator()
    with pytest.raises(gen.ScriptError):
        gen.read_setup(setup)


def test_an_sdist_is_read_by_its_setup_py(tmp_path: Path) -> None:
    sdist = tmp_path / "flash_attn-2.8.3.post2.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        data = _V280.encode()
        info = tarfile.TarInfo("flash_attn-2.8.3.post2/setup.py")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    row = _generator().read_sdist(sdist, "2.8.3.post2")
    assert row["allowed"] == ["gfx90a", "gfx950", "gfx942"] and row["publish_rocm"] is False
    assert (
        row["sdist_sha256"]
        != json.loads(INPUT.read_text())["releases"]["2.8.3.post2"]["sdist_sha256"]
    )  # another file: the recorded row's re-read would refuse it
