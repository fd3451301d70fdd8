#!/usr/bin/env python3
"""Regenerate compat/data/numpy-abi.json: the first NumPy-2 build of each compiled package.

A compiled extension built against the NumPy 1 ABI fails to import under NumPy 2; wheels built
against NumPy 2 run under both. The recorded input, scripts/inputs/numpy-abi.json, names for each
package of a training stack the first release whose PyPI wheels are built against NumPy 2 and the
release note or maintainer statement that says so. `--refresh` reads the PyPI JSON API to record
that the release exists (its upload date) and which release came right before it (the last NumPy 1
build); without it the script is offline and deterministic
(tests/unit/kb/test_numpy_abi.py fails when the committed table differs from what it writes).
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "numpy-abi.json"
OUTPUT = ROOT / "compat" / "data" / "numpy-abi.json"


def refresh() -> None:
    import httpx
    from packaging.version import InvalidVersion, Version

    document = json.loads(INPUT.read_text())
    with httpx.Client(timeout=60) as client:
        for name, entry in document["packages"].items():
            project = client.get(f"https://pypi.org/pypi/{name}/json").json()["releases"]
            first = Version(entry["first"])
            files = project.get(entry["first"])
            if not files:
                raise SystemExit(f"{name} {first} is not on PyPI")
            released: list[Version] = []
            for text, uploads in project.items():
                try:
                    version = Version(text)
                except InvalidVersion:
                    continue
                if uploads and not version.is_prerelease and not version.is_devrelease:
                    released.append(version)
            before = [v for v in released if v < first]
            entry["pypi"] = {
                "uploaded": min(f["upload_time"][:10] for f in files),
                "previous": str(max(before)) if before else None,
            }
    document["fetched"] = datetime.date.today().isoformat()
    INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def generate() -> str:
    document = json.loads(INPUT.read_text())
    packages: dict[str, Any] = {
        name: {
            "first": entry["first"],
            "last_numpy1": entry.get("pypi", {}).get("previous"),
            "source": entry["source"],
        }
        for name, entry in sorted(document["packages"].items())
    }
    output = {
        "schema": "compat.numpy-abi/1",
        "generated_by": "scripts/gen_numpy_abi.py",
        "inputs": {"file": "scripts/inputs/numpy-abi.json", "fetched": document.get("fetched")},
        "packages": packages,
    }
    return json.dumps(output, indent=1, sort_keys=True) + "\n"


VERIFY_ROWS = 16  # packages re-read (two wheels each): all of them, the table is small
MEMBER_BOUND = 16 << 20  # an extension larger than this (compressed) is not read
# NumPy 2's headers (__multiarray_api.h, _import_array) import numpy._core._multiarray_umath
# first; NumPy 1's name only numpy.core._multiarray_umath. An extension that calls import_array
# carries the module name as a string, so its bytes say which headers it was compiled with.
_NUMPY2 = b"numpy._core._multiarray_umath"
_ANY = b"_multiarray_umath"


def _built_against(project: str, version: str) -> Any:
    """'NumPy 2' or 'NumPy 1': the headers the smallest numpy-importing extension in the
    release's Linux x86-64 CPython wheel was compiled with; tablegen.Unread where none is
    within MEMBER_BOUND."""
    import io
    import zipfile

    import pypi_inputs as pypi
    from tablegen import Unread

    wheels = [
        f
        for f in pypi.simple_files(project)
        if f["filename"].endswith("x86_64.whl")
        and f"-{version}-" in f["filename"]
        and "manylinux" in f["filename"]
    ]
    if not wheels:
        return Unread(f"no Linux x86-64 wheel of {version}")
    wheel = sorted(wheels, key=lambda f: ("cp311" not in f["filename"], f["filename"]))[0]
    raw = io.BufferedReader(pypi._RangeFile(wheel["url"]), 1 << 16)
    with zipfile.ZipFile(raw) as archive:
        members = sorted(
            (i for i in archive.infolist() if i.filename.endswith(".so")),
            key=lambda i: i.compress_size,
        )
        for info in members[:8]:
            if info.compress_size > MEMBER_BOUND:
                break
            data = archive.read(info)
            if _ANY in data:
                return "NumPy 2" if _NUMPY2 in data else "NumPy 1"
    return Unread(f"no numpy-importing extension under {MEMBER_BOUND >> 20} MB in {version}")


def verify(path: Path | None = None, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the recorded packages from their wheels: the first release
    recorded as a NumPy-2 build must carry an extension compiled with NumPy 2's headers, and the
    release before it one compiled with NumPy 1's (the input rests on release notes; this reads
    the binaries). Raises tablegen.SampleDisagrees on the first package that differs."""
    from tablegen import Unread, resample

    path = path or INPUT
    record = json.loads(path.read_text())
    rows = sorted(record["packages"].items())

    def reread(row: tuple[str, dict[str, Any]]) -> tuple[str, Any, Any]:
        name, entry = row
        previous = entry.get("pypi", {}).get("previous")
        first = _built_against(name, entry["first"])
        before = _built_against(name, previous) if previous else "none"
        if isinstance(first, Unread) or isinstance(before, Unread):
            return name, None, first if isinstance(first, Unread) else before
        label = f"{name} {entry['first']} (before it: {previous})"
        return label, ("NumPy 2", "NumPy 1" if previous else "none"), (first, before)

    return resample(str(path), rows, reread, count=count, seed=str(record.get("fetched")))


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import run

    return run(__doc__, OUTPUT, generate, lambda _: refresh(), verify=verify)


if __name__ == "__main__":
    sys.exit(main())
