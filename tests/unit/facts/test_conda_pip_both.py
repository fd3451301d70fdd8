"""A package installed by both conda and pip, whatever metadata each left (issue 26 item 5):
the pytorch channel's conda `pytorch` was built with `setup.py install`, so its record lists a
`torch-X-pyY.egg-info` directory, while pip writes `torch-X.dist-info` beside it. The scan sees
a name installed twice; the conda records say which one is conda's, so the finding is
`conda-pip`, naming both, and pip's torch (whose files are the ones imported) is judged.

The prefix is minimal and says so: conda-meta records with the fields compat reads (name,
version, build, channel, files) in the pytorch channel's naming (`py3.9_cuda11.3_cudnn8.2.0_0`),
an egg-info PKG-INFO and a pip dist-info (tests/dists.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.dists import make_dist
from tests.lib.doctor import doctor_json

SITE = "lib/python3.9/site-packages"
CONDA_BUILD = "py3.9_cuda11.3_cudnn8.2.0_0"
H100: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}],
}


def conda_prefix(prefix: Path, torch: str = "1.11.0") -> Path:
    """pytorch (pytorch channel, an egg-info) and cudatoolkit 11.3 linked into `prefix`."""
    meta = prefix / "conda-meta"
    meta.mkdir(parents=True)
    egg = f"torch-{torch}-py3.9.egg-info"
    records = [
        ("pytorch", torch, CONDA_BUILD, [f"{SITE}/{egg}/PKG-INFO", f"{SITE}/torch/__init__.py"]),
        ("cudatoolkit", "11.3.1", "h2bc3f7f_2", ["lib/libcudart.so.11.0"]),
        ("python", "3.9.12", "h12debd9_0", ["bin/python3.9"]),
    ]
    for name, version, build, files in records:
        record = {
            "name": name, "version": version, "build": build,
            "channel": "https://conda.anaconda.org/pytorch/linux-64", "files": files,
        }  # fmt: skip
        (meta / f"{name}-{version}-{build}.json").write_text(json.dumps(record), "utf-8")
    site = prefix / SITE
    (site / egg).mkdir(parents=True)
    (site / egg / "PKG-INFO").write_text(
        f"Metadata-Version: 2.1\nName: torch\nVersion: {torch}\nSummary: Tensors\n", "utf-8"
    )
    return site


def kinds(report: dict[str, Any]) -> list[str]:
    return [p["kind"] for p in report["environment"]["problems"]]


def test_conda_egg_info_and_pip_dist_info_is_conda_pip(tmp_path: Path) -> None:
    site = conda_prefix(tmp_path)
    make_dist(site, "torch", "2.1.0", requires=["nvidia-cuda-runtime-cu12==12.1.105"])
    report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))[1]
    assert kinds(report) == ["conda-pip"]  # not also "installed twice"
    (problem,) = report["environment"]["problems"]
    assert "torch is installed by both conda and pip" in problem["message"]
    assert f"pytorch 1.11.0 ({CONDA_BUILD}" in problem["message"]
    assert "torch-1.11.0-py3.9.egg-info" in problem["message"]
    assert problem["source"].endswith("torch-2.1.0.dist-info")
    # pip's torch is the one judged, with its own CUDA build, not conda's cudatoolkit
    assert report["stack"]["packages"]["torch"] == "2.1.0"
    assert report["stack"]["builds"] == {"torch_cuda": "12.1"}


def test_whichever_sorts_first_it_is_still_conda_pip(tmp_path: Path) -> None:
    # pip's torch-1.10.0.dist-info sorts before conda's torch-1.11.0-py3.9.egg-info
    site = conda_prefix(tmp_path)
    make_dist(site, "torch", "1.10.0")
    report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))[1]
    assert kinds(report) == ["conda-pip"]
    assert report["stack"]["packages"]["torch"] == "1.10.0"


def test_two_pip_copies_stay_installed_twice(tmp_path: Path) -> None:
    """No conda record owns either directory: a half-finished pip uninstall, as before."""
    site = conda_prefix(tmp_path)
    make_dist(site, "numpy", "1.26.4")
    make_dist(site, "numpy", "2.0.0")
    report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))[1]
    assert kinds(report) == ["duplicate"]


def test_conda_torch_alone_is_conda_s_build(tmp_path: Path) -> None:
    conda_prefix(tmp_path)
    report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))[1]
    assert kinds(report) == []
    assert report["stack"]["packages"]["torch"] == "1.11.0"
    assert report["stack"]["builds"]["torch_cuda"] == "11.3"


def test_in_two_directories_the_first_on_the_path_is_imported(tmp_path: Path) -> None:
    """pip's torch in a directory before the prefix's site-packages (PYTHONPATH, a --user
    install): still conda-pip, and the first on the path is the one judged."""
    site = conda_prefix(tmp_path / "env")
    user = tmp_path / "user-site"
    make_dist(user, "torch", "2.1.0")
    report = doctor_json(
        "--no-probe",
        "--conda-prefix",
        str(tmp_path / "env"),
        "--path",
        str(user),
        "--path",
        str(site),
    )[1]
    assert kinds(report) == ["conda-pip"]
    (problem,) = report["environment"]["problems"]
    assert "2.1.0 is the one imported (first on the path)" in problem["message"]
    assert report["stack"]["packages"]["torch"] == "2.1.0"
