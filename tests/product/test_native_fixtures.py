"""The real-wheel fixtures of issue 33 (tests/data/native/, scripts/native_fixtures.py): each
recipe of tests/lib/native_envs.py writes an environment that importlib.metadata reads, with
every native file of its wheels at its RECORD path, its original length, sparse."""

from __future__ import annotations

import importlib.metadata as md
import json
import re
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from tests.lib.native_envs import RECIPES, write_recipe
from tests.lib.skeleton import NATIVE, manifest, restore_member, wheel

BUDGET = 10 * 1024 * 1024


def _distributions(site: Path) -> dict[str, md.Distribution]:
    return {canonicalize_name(d.metadata["Name"]): d for d in md.distributions(path=[str(site)])}


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_recipe_writes_an_environment_importlib_reads(recipe: str, tmp_path: Path) -> None:
    site = write_recipe(tmp_path / "site", recipe)
    found = _distributions(site)
    for key in RECIPES[recipe]:
        fixture = wheel(key)
        dist = found[canonicalize_name(fixture.project)]
        assert dist.version == fixture.version
        owned = {str(f) for f in dist.files or ()}
        for member in fixture.members:
            assert member.path in owned, (key, member.path)
            on_disk = site / member.path
            assert on_disk.stat().st_size > 0
            with on_disk.open("rb") as native:  # its head only: libtorch_cuda.so is 800 MB
                assert native.read(4) == b"\x7fELF"
    # every requirement the wheels declare for their machine is installed (stand-ins)
    for dist in found.values():
        for line in dist.requires or ():
            if ";" in line:
                continue
            name = re.split(r"[ <>=!~(\[]", line, maxsplit=1)[0]
            assert canonicalize_name(name) in found, (dist.metadata["Name"], line)


def test_native_files_keep_their_length(tmp_path: Path) -> None:
    site = write_recipe(tmp_path / "site", "clean", stand_ins=False)
    for key in RECIPES["clean"]:
        for member in wheel(key).members:
            if member.path != "nvidia/nccl/lib/libnccl.so.2" or key.startswith("nvidia-nccl"):
                assert (site / member.path).stat().st_size == member.size, member.path


def test_a_large_library_is_sparse(tmp_path: Path) -> None:
    member = wheel("torch-2.5.1").member("torch/lib/libtorch_cuda.so")
    restored = restore_member("torch-2.5.1", member.path, tmp_path / "libtorch_cuda.so")
    stat = restored.stat()
    assert stat.st_size == member.size > 800_000_000
    assert stat.st_blocks * 512 < member.size // 20


def test_two_nccl_wheels_own_one_file(tmp_path: Path) -> None:
    site = write_recipe(tmp_path / "site", "nccl_twice")
    found = _distributions(site)
    path = "nvidia/nccl/lib/libnccl.so.2"
    for project in ("nvidia-nccl-cu12", "nvidia-nccl-cu13"):
        assert path in {str(f) for f in found[project].files or ()}
    cu13 = wheel("nvidia-nccl-cu13-2.30.7").member(path)
    assert (site / path).stat().st_size == cu13.size  # installed last: its file is on disk


def test_torchaudio_is_judged_beside_another_torch(tmp_path: Path) -> None:
    site = write_recipe(tmp_path / "site", "other_torch")
    found = _distributions(site)
    assert found["torch"].version == "2.4.1"
    assert "torch==2.5.1" in {
        r.replace(" ", "").replace("(", "").replace(")", "")
        for r in found["torchaudio"].requires or ()
    }


def test_manifest_pins_every_wheel_and_the_budget_holds() -> None:
    document = json.loads((NATIVE / "MANIFEST.json").read_text())
    assert {e["wheel"] for e in document["wheels"]} == {f.wheel for f in manifest().values()}
    for fixture in manifest().values():
        assert re.fullmatch(r"[0-9a-f]{64}", fixture.sha256), fixture.wheel
        assert fixture.wheel.startswith(
            f"{fixture.project.replace('-', '_')}-{fixture.version}-"
        ), fixture.wheel
        for member in fixture.members:
            assert member.skeleton.is_file(), member.skeleton
    total = sum(f.stat().st_size for f in NATIVE.rglob("*") if f.is_file())
    assert total <= BUDGET, total
