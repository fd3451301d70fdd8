"""A conda environment on disk, built from REAL conda package records.

What is real: every record's repodata fields (name, version, build, sha256, md5, depends,
constrains, license, size, timestamp) are the conda-forge linux-64 entries of the shipped
pixi.lock (tests/data/pixi/pytorch-gpu-pixi-example-pixi.lock, matthewfeickert/
pytorch-gpu-pixi-example@c53e084); `cuda-version` and `pytorch-gpu` are shipped verbatim
`conda-meta` PrefixRecords (tests/data/conda/conda-meta-*.json, PROVENANCE.md).

What is minimal: the PrefixRecord fields conda adds when it links a package into a prefix —
`fn`, `url`, `channel`, `subdir` (derived from the lock's URL), `requested_spec`, and a `files`
list holding only the dist-info entries of Python packages (real records list every file) —
and the dist-info directories themselves (METADATA headers, INSTALLER).
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import yaml

from tests.dists import make_dist
from tests.lib import paths

DATA = paths.DATA
LOCK = DATA / "pixi" / "pytorch-gpu-pixi-example-pixi.lock"
VERBATIM = {
    "cuda-version": DATA / "conda" / "conda-meta-cuda-version-12.9-h4f385c5_3.json",
    "pytorch-gpu": DATA / "conda" / "conda-meta-pytorch-gpu-2.7.1-cuda129_mkl_h43a4b0b_304.json",
}
PYTHON = "3.13"
# conda package -> the distribution its files install (from conda-forge's recipes: pytorch
# installs torch, numpy and filelock their own names)
PYTHON_PACKAGES = {"pytorch": "torch", "numpy": "numpy", "filelock": "filelock"}
# The records the tests link: torch and its CUDA stack, a Python package compat has no rule
# for, and conda-only packages (C libraries, the interpreter) that must never become facts.
DEFAULT = (
    "pytorch", "libtorch", "cuda-cudart", "cudnn", "libcudnn", "nccl", "python", "numpy",
    "filelock", "mkl", "libgcc", "triton",
)  # fmt: skip


def lock_records() -> dict[str, dict[str, Any]]:
    """conda name -> its linux-64 record in the shipped pixi.lock, with name/version/build (a
    copy of each: the caller may change it)."""
    return {name: dict(record) for name, record in _lock_records().items()}


@functools.cache
def _lock_records() -> dict[str, dict[str, Any]]:
    # Parsed once per process: the 110 kB lock took ~0.5 s of pure-Python YAML per environment
    # built, most of each conda test's time (issue 45). The file is read-only test data.
    document = yaml.safe_load(LOCK.read_text(encoding="utf-8"))
    wanted = {e["conda"] for e in document["environments"]["default"]["packages"]["linux-64"]}
    out = {}
    for entry in document["packages"]:
        url = entry.get("conda")
        if url not in wanted:
            continue
        base = os.path.basename(url).removesuffix(".conda").removesuffix(".tar.bz2")
        name, version, build = base.rsplit("-", 2)
        out[name] = {"name": name, "version": version, "build": build, **entry, "url": url}
    return out


def prefix_record(record: dict[str, Any], files: list[str]) -> dict[str, Any]:
    url = record.pop("conda")
    subdir = url.rsplit("/", 2)[-2]
    return {
        **record,
        "subdir": subdir,
        "fn": os.path.basename(url),
        "url": url,
        "channel": "https://conda.anaconda.org/conda-forge/",
        "requested_spec": "",
        "files": files,
        "paths_data": {"paths_version": 1, "paths": []},
    }


def build(
    prefix: Path,
    names: tuple[str, ...] = DEFAULT,
    *,
    verbatim: tuple[str, ...] = ("cuda-version",),
    conda_dist_infos: bool = True,
    python: str = PYTHON,
) -> dict[str, dict[str, Any]]:
    """Link `names` into `prefix`: conda-meta records plus, for the Python packages, the
    dist-info directories conda's files would have put in site-packages (`conda_dist_infos`)."""
    records = lock_records()
    meta = prefix / "conda-meta"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / "history").write_text("==> 2025-11-19 <==\n", encoding="utf-8")
    site = site_packages(prefix, python)
    site.mkdir(parents=True, exist_ok=True)
    linked = {}
    for name in names:
        record = dict(records[name])
        files = []
        dist = PYTHON_PACKAGES.get(name)
        if dist is not None:
            dist_info = f"{dist}-{record['version']}.dist-info"
            files = [
                f"lib/python{python}/site-packages/{dist_info}/{leaf}"
                for leaf in ("INSTALLER", "METADATA", "RECORD")
            ]
            if conda_dist_infos:
                path = make_dist(site, dist, record["version"], dir_name=dist_info)
                (path / "INSTALLER").write_text("conda\n", encoding="utf-8")
        linked[name] = prefix_record(record, files)
        file_name = f"{name}-{record['version']}-{record['build']}.json"
        (meta / file_name).write_text(json.dumps(linked[name], indent=2), encoding="utf-8")
    for name in verbatim:
        source = VERBATIM[name]
        (meta / source.name.removeprefix("conda-meta-")).write_bytes(source.read_bytes())
    return linked


def site_packages(prefix: Path, python: str = PYTHON) -> Path:
    return prefix / "lib" / f"python{python}" / "site-packages"
