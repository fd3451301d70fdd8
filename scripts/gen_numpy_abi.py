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


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import run

    return run(__doc__, OUTPUT, generate, lambda _: refresh())


if __name__ == "__main__":
    sys.exit(main())
