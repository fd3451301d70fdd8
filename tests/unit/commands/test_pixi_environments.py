"""Every pixi environment judged on its own (issue 26 item 5), on a real multi-environment
workspace: intMinsu/pixi-sample's pixi.toml and pixi.lock (tests/data/conda/PROVENANCE.md), 13
environments from `py38cu101` (pytorch 1.7.1, CUDA 10.1) to `py310cu121` (pytorch 2.3.0 with
pytorch-cuda 12.1), all from the pytorch channel. Judging `default` alone (pandas, jupyterlab)
passed the lock on an R470 driver and on an H100."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.lib import paths
from tests.profiles import R535

DATA = paths.DATA / "pixi"
LOCK = DATA / "pixi-sample-pixi.lock"
TOML = DATA / "pixi-sample-pixi.toml"
R470: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "470.182.03",
    "cuda_driver_version": "11.4",
    "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}
H100: dict[str, Any] = {
    **R535,
    "gpus": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}],
}


def check(tmp_path: Path, path: Path, hardware: dict[str, Any], *args: str) -> Any:
    profile = tmp_path / "hardware.json"
    profile.write_text(json.dumps(hardware), encoding="utf-8")
    result = run_cli(
        ["check", str(path), "--offline", "--platform", "linux", "--hardware", str(profile),
         "-f", "json", *args]
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    return result


def by_rule(result: Any, rule: str) -> dict[str, dict[str, Any]]:
    """install label -> finding, for one rule."""
    return {f["install"]: f for f in result.json()["findings"] if f["rule"] == rule}


def test_the_cuda12_environments_of_a_lock_on_an_r470_driver(tmp_path: Path) -> None:
    result = check(tmp_path, LOCK, R470)
    assert result.exit_code == 1
    found = by_rule(result, "cuda12-build-below-driver-floor")
    assert sorted(found) == [
        "pixi environment py310cu121",
        "pixi environment py38cu121",
        "pixi environment py39cu121",
    ]
    torch = found["pixi environment py310cu121"]["packages"][0]
    assert (torch["name"], torch["version"]) == ("torch", "2.3.0")
    # the line of pytorch-2.3.0-py3.10_cuda12.1_cudnn8.9.2_0 in the packages section
    line = int(torch["source"].rsplit(":", 1)[1])
    assert "pytorch-2.3.0-py3.10_cuda12.1" in LOCK.read_text().splitlines()[line - 1]
    notes = " ".join(result.json()["notes"])
    assert "pixi environments judged one at a time: default, py310cu115" in notes


def test_one_environment_when_it_is_named(tmp_path: Path) -> None:
    result = check(tmp_path, LOCK, R470, "--pixi-environment", "py38cu117")
    assert result.exit_code == 0
    assert result.json()["findings"] == []
    assert "'py38cu117' judged" in " ".join(result.json()["notes"])


def test_a_torch_1_11_conda_build_on_an_h100(tmp_path: Path) -> None:
    # pytorch 1.11.0 py3.X_cuda11.5_cudnn8.3.2_0: the CUDA 11.5 build of 1.11 (sm_37..sm_86)
    found = by_rule(check(tmp_path, LOCK, H100), "torch-no-kernel-image-for-gpu")
    assert {"pixi environment py38cu115", "pixi environment py310cu115"} <= set(found)
    finding = found["pixi environment py38cu115"]
    assert finding["status"] == "affected"
    assert (finding["packages"][0]["name"], finding["packages"][0]["version"]) == (
        "torch",
        "1.11.0",
    )
    assert "the CUDA 11.5 build" in " ".join(finding["matched"])


def test_the_manifest_environments_too(tmp_path: Path) -> None:
    result = check(tmp_path, TOML, R470)
    (finding,) = by_rule(result, "cuda12-build-below-driver-floor").values()
    assert finding["install"] == "pixi environments py38cu121, py39cu121, py310cu121"
    # the `pytorch = ... "2.3.0"` line of [feature.cu121.dependencies], not cu101's; shown from
    # the repository root with forward slashes (docs/contract.md, "Locations", issue 42 item 4)
    assert finding["packages"][0]["source"] == f"{TOML.relative_to(paths.REPO).as_posix()}:63"
