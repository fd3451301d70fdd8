#!/usr/bin/env python3
"""Regenerate compat/data/native-libs.json: which CUDA libraries each bitsandbytes wheel ships.

bitsandbytes loads a native library named for a CUDA version (libbitsandbytes_cuda124.so for
CUDA 12.4). Which ones a release ships is its wheel's file list; how it picks one is its loader,
read in the wheel itself where it still has bitsandbytes/cuda_setup/main.py (0.31.8-0.43.0) and at
the release tag after that:

* `system-runtime` (0.31.8-0.40.0.post4): not torch's CUDA version but the version
  cudaRuntimeGetVersion reports for the first libcudart.so found on the machine (CONDA_PREFIX/lib,
  LD_LIBRARY_PATH, other path-like environment variables, then /usr/local/cuda/lib64); no runtime
  found: the CPU library (cuda_setup/main.py determine_cuda_runtime_lib_path, get_cuda_version and
  evaluate_cuda_setup, read in each wheel and at the 0.35.0 and 0.40.0 tags);
* `exact` (0.40.1-0.49.x): the library of exactly torch.version.cuda (CUDA_VERSION, from
  0.40.1.post1 BNB_CUDA_VERSION, overrides it), else the CPU library and "compiled without GPU
  support" (cuda_setup/main.py get_cuda_version in 0.40.1-0.43.0, "CUDA SETUP now no longer looks
  for libcuda and libcudart and relies PyTorch CUDA libraries" in the 0.40.1 release notes;
  cextension.py get_cuda_bnb_library_path from 0.43.1);
* `same-major` (0.50.0 on): the exact library, else the nearest one of the same CUDA major,
  never one of another major (cextension.py get_cuda_bnb_library_path at 0.50.0).

The recorded input is scripts/inputs/bitsandbytes-libs.json: for every release that publishes a
Linux wheel (post-releases included, pre-releases not) the wheel's name, URL, sha256 and upload
date, the CUDA libraries in its file list, and the loader. `--refresh` re-reads PyPI's JSON API
and each new wheel's zip directory (and its cuda_setup/main.py) through HTTP range requests (a
few KB of a 100 MB wheel); without it the script is offline and deterministic
(tests/unit/kb/test_native_libs.py fails when the committed table differs from what it writes).
"""

from __future__ import annotations

import datetime
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "bitsandbytes-libs.json"
OUTPUT = ROOT / "compat" / "data" / "native-libs.json"
PROJECT = "https://pypi.org/pypi/bitsandbytes/json"
SAME_MAJOR_FROM = (0, 50, 0)  # cextension.py at 0.50.0: same-major fallback
_TAG = "https://github.com/bitsandbytes-foundation/bitsandbytes/blob"
LOADER_SOURCES = {
    "system-runtime": [
        f"{_TAG}/0.35.0/bitsandbytes/cuda_setup/main.py",
        f"{_TAG}/0.40.0/bitsandbytes/cuda_setup/main.py",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/issues/551",
    ],
    "exact": [
        f"{_TAG}/0.41.0/CHANGELOG.md",
        f"{_TAG}/0.41.0/bitsandbytes/cuda_setup/main.py",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/0.42.0/bitsandbytes/cuda_setup/main.py",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/0.43.1/bitsandbytes/cextension.py",
        "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/0.49.2/bitsandbytes/cextension.py",
    ],
    "same-major": [
        "https://github.com/bitsandbytes-foundation/bitsandbytes/blob/0.50.0/bitsandbytes/cextension.py",
    ],
}
_LIBRARY = re.compile(r"libbitsandbytes_cuda(\d+)\w*\.so$")
_SETUP = "bitsandbytes/cuda_setup/main.py"


def _key(version: str) -> tuple[int, ...] | None:
    """`0.40.0.post4` -> (0, 40, 0, 4), `0.40.0` -> (0, 40, 0, -1): post-releases are releases pip
    installs; pre-releases never are what `pip install bitsandbytes` gets."""
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:\.post(\d+))?", version)
    if match is None:
        return None
    major, minor, micro, post = match.groups()
    return int(major), int(minor), int(micro), -1 if post is None else int(post)


def _loader(key: tuple[int, ...], setup: str | None) -> str:
    """How the release picks its library: from its own cuda_setup/main.py where the wheel has one
    (0.31.8-0.43.0), else by release (cextension.py at the tags: exact, same-major from 0.50)."""
    if setup is not None:
        if re.search(r"def get_cuda_version\(\):\s+major, minor = .*torch\.version\.cuda", setup):
            return "exact"
        if "cudaRuntimeGetVersion" in setup:
            return "system-runtime"
        raise RuntimeError(f"{_SETUP}: neither torch.version.cuda nor cudaRuntimeGetVersion")
    return "same-major" if key[:3] >= SAME_MAJOR_FROM else "exact"


def _cuda(tag: str) -> str:
    """`124` -> `12.4`, `110` -> `11.0`."""
    return f"{tag[:-1]}.{tag[-1]}"


def _wheel(files: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The wheel pip installs on Linux x86_64: the manylinux one, else the universal one (0.42)."""
    wheels = [f for f in files if f["filename"].endswith(".whl") and not f["yanked"]]
    for pattern in (r"manylinux.*x86_64\.whl$", r"-none-any\.whl$"):
        matching = sorted((f for f in wheels if re.search(pattern, f["filename"])), key=str)
        if matching:
            return matching[0]
    return None


def refresh() -> None:
    import httpx
    from gen_torch_builds import _RangeFile

    previous = json.loads(INPUT.read_text()) if INPUT.exists() else {"releases": []}
    known = {entry["sha256"]: entry for entry in previous["releases"]}
    releases = []
    with httpx.Client(timeout=60) as client:
        project = client.get(PROJECT).json()
        for version, files in sorted(project["releases"].items(), key=lambda i: _key(i[0]) or ()):
            key = _key(version)
            wheel = _wheel(files) if key is not None else None
            if key is None or wheel is None:
                continue
            sha = wheel["digests"]["sha256"]
            if sha in known:  # wheels are immutable: never read one twice
                releases.append(known[sha])
                continue
            url = urljoin(PROJECT, wheel["url"])
            print(f"reading {wheel['filename']}", file=sys.stderr)
            with zipfile.ZipFile(io.BufferedReader(_RangeFile(client, url), 1 << 16)) as archive:
                names = archive.namelist()
                tags = {m.group(1) for n in names if (m := _LIBRARY.search(n))}
                setup = archive.read(_SETUP).decode() if _SETUP in names else None
            releases.append(
                {
                    "version": version,
                    "wheel": wheel["filename"],
                    "url": url,
                    "sha256": sha,
                    "uploaded": wheel["upload_time"][:10],
                    "cuda_libraries": sorted(tags, key=int),
                    "loader": _loader(key, setup),
                }
            )
    document = {
        "package": "bitsandbytes",
        "source": f"{PROJECT} + the zip directory (and bitsandbytes/cuda_setup/main.py where it has"
        " one) of each release's Linux x86_64 wheel",
        "fetched": datetime.date.today().isoformat(),
        "loaders": LOADER_SOURCES,
        "releases": releases,
    }
    INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def generate() -> str:
    document = json.loads(INPUT.read_text())
    releases = {
        entry["version"]: {
            "cuda": [_cuda(tag) for tag in entry["cuda_libraries"]],
            "loader": entry["loader"],
        }
        for entry in document["releases"]
    }
    output = {
        "schema": "compat.native-libs/1",
        "generated_by": "scripts/gen_native_libs.py",
        "inputs": {
            "file": "scripts/inputs/bitsandbytes-libs.json",
            "fetched": document["fetched"],
            "loaders": document["loaders"],
        },
        "bitsandbytes": releases,
    }
    return json.dumps(output, indent=1, sort_keys=True) + "\n"


VERIFY_ROWS = 6  # releases re-read


def verify(path: Path | None = None, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the recorded releases by a second route: the wheel's sha256
    from the simple page (PEP 691; the input read the JSON API) and the CUDA libraries in its
    zip directory through scripts/pypi_inputs.py's range reader (the input used this script's
    own). Raises tablegen.SampleDisagrees on the first release that differs."""
    from pypi_inputs import simple_files, wheel_names
    from tablegen import resample

    path = path or INPUT
    record = json.loads(path.read_text())
    listed = {f["filename"]: f for f in simple_files(record.get("package", "bitsandbytes"))}

    def reread(entry: dict[str, Any]) -> tuple[str, Any, Any]:
        label = f"bitsandbytes {entry['version']} ({entry['wheel']})"
        recorded = (entry["sha256"], entry["cuda_libraries"])
        found = listed.get(entry["wheel"])
        if found is None:
            return label, recorded, ("not on the index", None)
        names = wheel_names(found["url"])
        tags = sorted({m.group(1) for n in names if (m := _LIBRARY.search(n))}, key=int)
        return label, recorded, (found["hashes"]["sha256"], tags)

    seed = str(record.get("fetched"))
    return resample(str(path), record["releases"], reread, count=count, seed=seed)


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import run

    return run(__doc__, OUTPUT, generate, lambda _: refresh(), verify=verify)


if __name__ == "__main__":
    sys.exit(main())
