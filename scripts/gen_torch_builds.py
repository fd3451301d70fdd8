#!/usr/bin/env python3
"""Regenerate compat/data/torch-builds.json: which CUDA build each torch release has.

Two recorded inputs, both under scripts/inputs/:

* torch-pypi-builds.json — for every torch release on PyPI and each platform, the wheel a plain
  `pip install torch==V` picks there and the `cuda = '...'` line of the `torch/version.py` inside
  it (None: a CPU build). Machine-read: `--refresh` fetches the PyPI JSON API and reads that one
  member of each wheel through HTTP range requests (a few hundred KB per 2 GB wheel).
* torch-cuda-variants.json — the CUDA versions PyTorch publishes a build of each release for on
  its own per-CUDA indexes (download.pytorch.org/whl/cuXYZ), transcribed from the official
  "previous versions" page with the source named per entry (that host is not reachable from the
  machines this project is built on, so these are recorded, not fetched).

Without --refresh the script is offline and deterministic:
tests/unit/kb/test_torch_builds.py fails when the committed JSON differs from what this script
writes from the recorded inputs.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from remote_zip import RangeFile

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ROOT / "scripts" / "inputs"
PYPI_INPUT = INPUTS / "torch-pypi-builds.json"
VARIANTS_INPUT = INPUTS / "torch-cuda-variants.json"
OUTPUT = ROOT / "compat" / "data" / "torch-builds.json"

# platform key -> wheel platform tag pattern (the platforms pip users train on)
PLATFORMS = {
    "linux/x86_64": re.compile(r"manylinux.*_x86_64\.whl$"),
    "linux/aarch64": re.compile(r"manylinux.*_aarch64\.whl$"),
    "win32/AMD64": re.compile(r"win_amd64\.whl$"),
    "darwin/arm64": re.compile(r"macosx_.*_arm64\.whl$"),
}
OLDEST = (1, 0)  # 1.0.0 onward: a bare `torch` range can still reach them (Python <= 3.9)
CUDA_LINE = re.compile(rb"^cuda(?:: Optional\[str\])? = (?:'([0-9.]+)'|\"([0-9.]+)\"|None)", re.M)


def _release_key(version: str) -> tuple[int, ...] | None:
    if not re.fullmatch(r"\d+\.\d+\.\d+", version):
        return None  # pre-releases and odd spellings are never what `pip install torch` gets
    return tuple(int(part) for part in version.split("."))


def _python_tag_rank(filename: str) -> int:
    match = re.search(r"-cp(\d)(\d+)-", filename)
    return int(match.group(1)) * 100 + int(match.group(2)) if match else 0


class _RangeFile(RangeFile):
    """scripts/remote_zip.py's Range reader over the httpx client given, its first read 64 kB
    from the end (gen_arch_table.py and gen_native_libs.py import it by this name): a server
    that ignores Range is refused."""

    def __init__(self, client: Any, url: str) -> None:
        super().__init__(client, url, tail=1 << 16)


def _wheel_cuda(client: Any, url: str) -> str | None:
    with zipfile.ZipFile(io.BufferedReader(_RangeFile(client, url), 1 << 16)) as wheel:
        text = wheel.read("torch/version.py")
    match = CUDA_LINE.search(text)
    if match is None:
        raise RuntimeError(f"{url}: no cuda line in torch/version.py")
    value = match.group(1) or match.group(2)
    return value.decode() if value else None


def refresh(only: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> None:
    """Re-read PyPI. With `only` (lowest, highest release), read just those releases and keep
    every other recorded row and the recorded `fetched` date as they are; the date of the
    partial read is recorded under `added`."""
    import httpx

    with httpx.Client(timeout=60) as client:
        project_url = "https://pypi.org/pypi/torch/json"
        project = client.get(project_url).json()
        previous = json.loads(PYPI_INPUT.read_text()) if PYPI_INPUT.exists() else {"releases": {}}
        releases: dict[str, Any] = {}
        for version, files in sorted(
            project["releases"].items(), key=lambda item: _release_key(item[0]) or ()
        ):
            key = _release_key(version)
            if key is None or key[:2] < OLDEST or not files:
                continue
            if only is not None and not only[0] <= key <= only[1]:
                continue
            entry: dict[str, Any] = {}
            for platform, pattern in PLATFORMS.items():
                wheels = [f for f in files if pattern.search(f["filename"]) and not f["yanked"]]
                if not wheels:
                    continue
                wheel = max(wheels, key=lambda f: (_python_tag_rank(f["filename"]), f["filename"]))
                known = previous["releases"].get(version, {}).get(platform)
                if known and known["sha256"] == wheel["digests"]["sha256"]:
                    entry[platform] = known  # wheels are immutable: never read one twice
                    continue
                print(f"reading {wheel['filename']}", file=sys.stderr)
                entry[platform] = {
                    "wheel": wheel["filename"],
                    "sha256": wheel["digests"]["sha256"],
                    "cuda": _wheel_cuda(client, urljoin(project_url, wheel["url"])),
                }
            releases[version] = entry
    today = datetime.date.today().isoformat()
    document: dict[str, Any] = {
        "source": "https://pypi.org/pypi/torch/json + torch/version.py of each wheel",
        "fetched": today,
        "releases": releases,
    }
    if only is not None:
        span = "-".join(".".join(str(part) for part in bound) for bound in only)
        kept = {
            version: entry
            for version, entry in previous["releases"].items()
            if not only[0] <= (_release_key(version) or ()) <= only[1]
        }
        document = {
            **previous,
            "releases": {**kept, **releases},
            "added": {**previous.get("added", {}), span: today},
        }
    PYPI_INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def _cuda_minor(cuda: str | None) -> str | None:
    """torch 1.0-1.3 record the toolkit's full version (`cuda = '10.1.243'`); the table, like
    PyTorch's index names (cu101), holds major.minor. The input keeps what the wheel says."""
    return ".".join(cuda.split(".")[:2]) if cuda else None


def generate() -> str:
    pypi = json.loads(PYPI_INPUT.read_text())
    variants = json.loads(VARIANTS_INPUT.read_text())
    releases: dict[str, Any] = {}
    for version in sorted(pypi["releases"], key=lambda v: _release_key(v) or ()):
        minor = ".".join(version.split(".")[:2])
        listed = variants["releases"].get(version, variants["releases"].get(minor))
        releases[version] = {
            "default": {
                platform: _cuda_minor(build["cuda"])
                for platform, build in sorted(pypi["releases"][version].items())
            },
            "variants": listed["cuda"] if listed else None,
        }
    document = {
        "schema": "compat.torch-builds/1",
        "generated_by": "scripts/gen_torch_builds.py",
        "inputs": {
            "pypi": {"file": "scripts/inputs/torch-pypi-builds.json", "fetched": pypi["fetched"]},
            "variants": {
                "file": "scripts/inputs/torch-cuda-variants.json",
                "source": variants["source"],
            },
        },
        "releases": releases,
    }
    return json.dumps(document, indent=1, sort_keys=True) + "\n"


VERIFY_ROWS = 6  # (release, platform) rows re-read


def verify(path: Path = PYPI_INPUT, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the recorded (release, platform) rows by a second route: the
    wheel's sha256 from the simple page (PEP 691) and `torch/version.py` through
    scripts/pypi_inputs.py's range reader (the input came from the JSON API and this script's
    own reader). Raises tablegen.SampleDisagrees on the first row that differs."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import pypi_inputs as pypi
    from tablegen import resample

    record = json.loads(path.read_text())
    listed = {f["filename"]: f for f in pypi.simple_files("torch")}
    rows = [
        (version, platform, entry)
        for version, platforms in sorted(record["releases"].items())
        for platform, entry in sorted(platforms.items())
    ]

    def reread(row: tuple[str, str, dict[str, Any]]) -> tuple[str, Any, Any]:
        version, platform, entry = row
        name = f"torch {version} {platform} ({entry['wheel']})"
        found = listed.get(entry["wheel"])
        if found is None:
            return name, (entry["sha256"], entry["cuda"]), ("not on the index", None)
        text = pypi.wheel_members(found["url"], ["torch/version.py"])["torch/version.py"] or ""
        match = CUDA_LINE.search(text.encode())
        cuda = (match.group(1) or match.group(2) or b"").decode() or None if match else "no line"
        sha = found.get("hashes", {}).get("sha256")
        return name, (entry["sha256"], entry["cuda"]), (sha, cuda)

    return resample(str(path), rows, reread, count=count, seed=str(record.get("fetched")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="re-read PyPI (network)")
    parser.add_argument(
        "--only",
        nargs=2,
        metavar=("LOWEST", "HIGHEST"),
        help="with --refresh: re-read only releases LOWEST..HIGHEST, keeping the other rows",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the output is stale")
    parser.add_argument(
        "--verify",
        nargs="?",
        const=PYPI_INPUT,
        type=Path,
        metavar="INPUT",
        help="re-read a sample of the recorded rows from PyPI and exit (1: one disagrees)",
    )
    args = parser.parse_args()
    if args.only and not args.refresh:
        parser.error("--only needs --refresh")
    if args.refresh:
        only = None
        if args.only:
            lowest, highest = (_release_key(bound) for bound in args.only)
            if lowest is None or highest is None:
                parser.error("--only takes two releases such as 1.0.0 1.7.1")
            only = (lowest, highest)
        refresh(only)
    if args.refresh or args.verify is not None:
        sys.path.insert(0, str(ROOT / "scripts"))
        from tablegen import SampleDisagrees

        try:
            print(verify(args.verify or PYPI_INPUT))
        except SampleDisagrees as error:
            print(f"scripts/gen_torch_builds.py: refused: {error}", file=sys.stderr)
            return 1
        except OSError as error:  # the index cannot be read: the machine, not the table
            print(f"scripts/gen_torch_builds.py: could not re-read: {error}", file=sys.stderr)
            return 3
        if args.verify is not None:
            return 0
    text = generate()
    if args.check:
        return 0 if OUTPUT.exists() and OUTPUT.read_text() == text else 1
    OUTPUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
