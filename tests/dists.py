"""Build realistic installed environments on disk: dist-info directories as pip writes them."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

LONG_DESCRIPTION = (
    "# A package\n\n" + "Some README text that compat must never need to read.\n" * 200
)


def dist_info_name(name: str, version: str) -> str:
    # pip/installer write the escaped name: runs of -_. become _, case kept.
    return f"{re.sub(r'[-_.]+', '_', name)}-{version}.dist-info"


def make_dist(
    site: Path,
    name: str,
    version: str,
    *,
    requires: Sequence[str] = (),
    requires_python: str | None = None,
    direct_url: Mapping[str, object] | None = None,
    metadata_text: str | None = None,
    dir_name: str | None = None,
) -> Path:
    """One distribution; `metadata_text` replaces the METADATA file wholesale (for broken ones)."""
    site.mkdir(parents=True, exist_ok=True)
    dist = site / (dir_name or dist_info_name(name, version))
    dist.mkdir()
    if metadata_text is None:
        lines = [
            "Metadata-Version: 2.1",
            f"Name: {name}",
            f"Version: {version}",
            "Summary: test distribution",
        ]
        if requires_python:
            lines.append(f"Requires-Python: {requires_python}")
        lines += [f"Requires-Dist: {r}" for r in requires]
        lines += ["Description-Content-Type: text/markdown", "", LONG_DESCRIPTION]
        metadata_text = "\n".join(lines)
    (dist / "METADATA").write_text(metadata_text, encoding="utf-8")
    (dist / "INSTALLER").write_text("pip\n", encoding="utf-8")
    (dist / "RECORD").write_text(f"{dist.name}/METADATA,,\n", encoding="utf-8")
    if direct_url is not None:
        (dist / "direct_url.json").write_text(json.dumps(direct_url), encoding="utf-8")
    return dist


def make_env(site: Path, packages: Mapping[str, str]) -> Path:
    for name, version in packages.items():
        make_dist(site, name, version)
    return site


def git_install(
    commit: str, url: str = "https://github.com/OpenRLHF/OpenRLHF"
) -> dict[str, object]:
    """direct_url.json of `pip install git+URL@COMMIT` (PEP 610)."""
    return {
        "url": url,
        "vcs_info": {"vcs": "git", "commit_id": commit, "requested_revision": "main"},
    }


def torch_dist(
    site: Path, version: str, cuda: str | None, requires: list[str] | None = None
) -> None:
    """torch as pip installs it: dist-info plus torch/version.py saying its CUDA build."""
    make_dist(site, "torch", version, requires=requires or [])
    package = site / "torch"
    package.mkdir(parents=True, exist_ok=True)
    value = f"'{cuda}'" if cuda else "None"
    (package / "version.py").write_text(f"__version__ = '{version}'\ncuda = {value}\n")
