#!/usr/bin/env python3
"""Regenerate compat/data/wheels.json: which platforms and Pythons each release has wheels for.

`pip install triton==3.0.0` on a GB200 node (linux/aarch64) fails: triton ships no aarch64 wheel
before 3.5.0 and no sdist. `pip install torch==2.4.1` there succeeds, but the wheel it gets
declares its nvidia-* and triton requirements for x86_64 only: a CPU build on a GPU host. Both
are facts of the package index's file lists and of the wheels' core metadata, and this script
records them for the packages the knowledge base's rules speak of.

The recorded input is scripts/inputs/wheels-files.json: per package, the date it was read, the
sha256 of its file listing (every included file's name and sha256, one line each, sorted) and,
per final release first uploaded from 2020 on, the tags of its wheels (the file name without
`name-version-`), whether it has an sdist, its Requires-Python, its first upload date and,
when every one of its files is yanked (PEP 592), `yanked` (PyPI's reason, or true). For
the packages in CUDA_BY_METADATA it also records, per release with a Linux aarch64 wheel, that
wheel's name and sha256 and the Requires-Dist lines naming a CUDA package that apply on
linux/aarch64 (PEP 658 `.metadata`, or the wheel's own METADATA through HTTP range requests when
PyPI has none): none means a CPU build.

`--refresh` re-reads PyPI's simple API (PEP 691 JSON); without it the script is offline and
deterministic (tests/unit/kb/test_wheels.py fails when the committed table differs from what it
writes).

The table (compat/data/wheels.json) is compact: per package, runs of consecutive releases that
agree on everything recorded, each run once.
Its `yanked` map names the yanked releases per package: pip installs
one only when pinned with `==`.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.tags import parse_tag
from packaging.utils import parse_sdist_filename, parse_wheel_filename
from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "wheels-files.json"
OUTPUT = ROOT / "compat" / "data" / "wheels.json"
SIMPLE = "https://pypi.org/simple/{name}/"
SINCE = "2020-01-01"  # releases first uploaded before this are not recorded

# The packages the knowledge base's rules name (compat/matrix/*.yaml `packages:`), and those that
# pin them. Pure-Python ones cost one run each.
PACKAGES = (
    "accelerate", "bitsandbytes", "datasets", "deepspeed", "flash-attn", "flash-attn-3",
    "flashinfer-python", "fsspec", "huggingface-hub", "numba", "numpy", "nvidia-cudnn-cu12",
    "nvidia-nccl-cu12", "nvidia-nccl-cu13", "openrlhf", "pandas", "peft", "pyarrow", "ray",
    "safetensors", "tokenizers", "torch", "torchao", "torchaudio", "torchvision",
    "transformer-engine", "transformer-engine-torch", "transformers", "triton", "trl", "vllm",
    "xformers",
)  # fmt: skip
# Packages whose Linux aarch64 wheel says in its metadata whether it carries CUDA (torch declares
# nvidia-* runtime wheels; a CPU build declares them for x86_64 only).
CUDA_BY_METADATA = ("torch",)
_CUDA_REQUIREMENT = re.compile(r"^(nvidia-|triton$)")
AARCH64_ENV = {
    "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
    "platform_machine": "aarch64", "implementation_name": "cpython",
    "platform_python_implementation": "CPython", "extra": "",
}  # fmt: skip


def _final(version: Version) -> bool:
    return not (version.is_prerelease or version.is_devrelease or version.local)


def _listing(name: str, files: list[dict[str, Any]]) -> dict[str, Any]:
    """One package's recorded input from its PEP 691 file list."""
    releases: dict[str, dict[str, Any]] = {}
    lines = []
    for entry in files:
        filename = entry["filename"]
        try:
            if filename.endswith(".whl"):
                version = parse_wheel_filename(filename)[1]
                kind = "wheel"
            elif filename.endswith((".tar.gz", ".zip")):
                version = parse_sdist_filename(filename)[1]
                kind = "sdist"
            else:
                continue
        except (ValueError, InvalidVersion):
            continue
        if not _final(version):
            continue
        release = releases.setdefault(
            str(version),
            {"wheels": [], "sdist": False, "requires_python": None, "uploaded": None, "files": 0},
        )
        # PEP 592: a file is yanked; a release is yanked when every one of its files is
        release["files"] += 1
        if entry.get("yanked"):
            release.setdefault("yanked_files", 0)
            release["yanked_files"] += 1
            if isinstance(entry["yanked"], str) and entry["yanked"]:
                release["yanked_reason"] = entry["yanked"]
        uploaded = (entry.get("upload-time") or "")[:10] or None
        if uploaded and (release["uploaded"] is None or uploaded < release["uploaded"]):
            release["uploaded"] = uploaded
        if kind == "sdist":
            release["sdist"] = True
        else:
            # the tag triple: the name without `name-version-` and `.whl` (a build tag stays out)
            release["wheels"].append("-".join(filename[: -len(".whl")].split("-")[-3:]))
        if entry.get("requires-python"):
            release["requires_python"] = entry["requires-python"]
        lines.append(f"{filename} {entry['hashes'].get('sha256', '')}")
    kept: dict[str, dict[str, Any]] = {}
    for key, release in releases.items():
        if release["uploaded"] is None or release["uploaded"] < SINCE:
            continue
        files, yanked = release.pop("files"), release.pop("yanked_files", 0)
        reason = release.pop("yanked_reason", None)
        kept[key] = {**release, "wheels": sorted(set(release["wheels"]))}
        if yanked == files:
            kept[key]["yanked"] = reason or True
    digest = hashlib.sha256("\n".join(sorted(lines)).encode()).hexdigest()
    return {
        "url": SIMPLE.format(name=name),
        "fetched": datetime.date.today().isoformat(),
        "listing_sha256": digest,
        "releases": dict(sorted(kept.items(), key=lambda item: Version(item[0]))),
    }


def _aarch64_wheel(files: list[dict[str, Any]], version: str) -> dict[str, Any] | None:
    """The release's Linux aarch64 wheel for the newest CPython it has one for."""
    found = []
    for entry in files:
        filename = entry["filename"]
        if not filename.endswith(".whl") or "aarch64" not in filename or "linux" not in filename:
            continue
        _, parsed, _, tags = parse_wheel_filename(filename)
        if str(parsed) != version:
            continue
        found.append((max(_python_key(t.interpreter) for t in tags), filename, entry))
    return max(found, key=lambda f: (f[0], f[1]))[2] if found else None


def _python_key(interpreter: str) -> tuple[int, int]:
    match = re.fullmatch(r"cp(\d)(\d+)", interpreter)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def _cuda_lines(fields: list[tuple[str, str]]) -> list[str]:
    """Requires-Dist lines naming a CUDA package (nvidia-*, triton) that apply on linux/aarch64."""
    out = []
    for key, value in fields:
        if key.lower() != "requires-dist":
            continue
        try:
            requirement = Requirement(value)
        except InvalidRequirement:
            continue
        if not _CUDA_REQUIREMENT.match(requirement.name.lower()):
            continue
        marker: Marker | None = requirement.marker
        if marker is not None and not marker.evaluate({**AARCH64_ENV, "python_version": "3.12"}):
            continue
        out.append(value)
    return sorted(out)


def refresh() -> None:
    from pypi_inputs import core_metadata, simple_files

    previous = json.loads(INPUT.read_text()) if INPUT.exists() else {}
    known = {
        (name, entry["sha256"]): entry
        for name, by_version in previous.get("cuda_metadata", {}).items()
        for entry in by_version.values()
    }
    packages: dict[str, Any] = {}
    cuda: dict[str, dict[str, Any]] = {}
    for name in PACKAGES:
        print(f"reading {SIMPLE.format(name=name)}", file=sys.stderr)
        files = simple_files(name)
        packages[name] = _listing(name, files)
        if name not in CUDA_BY_METADATA:
            continue
        cuda[name] = {}
        for version in packages[name]["releases"]:
            wheel = _aarch64_wheel(files, version)
            if wheel is None:
                continue
            sha = wheel["hashes"]["sha256"]
            if (name, sha) in known:  # wheels are immutable: never read one twice
                cuda[name][version] = known[(name, sha)]
                continue
            print(f"reading the metadata of {wheel['filename']}", file=sys.stderr)
            lines = _cuda_lines(core_metadata(wheel["url"]))
            cuda[name][version] = {
                "wheel": wheel["filename"],
                "sha256": sha,
                "metadata": "PEP 658" if wheel.get("core-metadata") else "the wheel's METADATA",
                "cuda_requires": lines,
            }
    document = {
        "source": "PyPI simple API (PEP 691 JSON) file lists; PEP 658 core metadata of the "
        "Linux aarch64 wheels of " + ", ".join(CUDA_BY_METADATA),
        "since": SINCE,
        "fetched": datetime.date.today().isoformat(),
        "packages": packages,
        "cuda_metadata": cuda,
    }
    INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


# flash-attn ships only an sdist on PyPI; its setup.py downloads a prebuilt wheel from the GitHub
# release of its version, named for the CUDA of torch's build, torch's major.minor, the C++ ABI,
# the CPython and `linux_{machine}`, and builds with nvcc when that asset does not exist
# (FLASH_ATTENTION_FORCE_BUILD aside). Which assets a release has is the build matrix of
# .github/workflows/publish.yml at its tag (ubuntu x86_64 runners).
FLASH_ATTN_INPUT = ROOT / "scripts" / "inputs" / "flash-attn-assets.json"
FLASH_ATTN_REPO = "https://github.com/Dao-AILab/flash-attention"
# The download itself, not the function holding it: 2.0.6-2.1.1 format BASE_WHEEL_URL and call
# urllib.request.urlretrieve inline in CachedWheelsCommand.run; 2.1.2 on move the URL into
# get_wheel_url. 0.2.1-2.0.5 have neither and always compile.
_WHEEL_URL = re.compile(r"^BASE_WHEEL_URL\s*=", re.MULTILINE)
_DOWNLOAD = re.compile(r"\burlretrieve\(")


def setup_downloads_prebuilt(setup: str) -> bool:
    """Whether a flash-attn setup.py fetches a prebuilt wheel from the GitHub release: it
    defines the release-asset URL (BASE_WHEEL_URL) and downloads from it (urlretrieve), wherever
    in the file that happens."""
    return bool(_WHEEL_URL.search(setup) and _DOWNLOAD.search(setup))


def refresh_flash_attn(git_dir: str) -> None:
    """Record each release tag's publish matrix from a local clone (`git --git-dir`)."""
    import subprocess

    import yaml

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", git_dir, *args], capture_output=True, text=True, check=True
        ).stdout

    releases = json.loads(INPUT.read_text())["packages"]["flash-attn"]["releases"]
    tags = {}
    for version in releases:
        tag = f"v{version}"
        try:
            commit = git("rev-list", "-n", "1", tag).strip()
            blob = git("rev-parse", f"{tag}:.github/workflows/publish.yml").strip()
            workflow = yaml.safe_load(git("show", f"{tag}:.github/workflows/publish.yml"))
        except subprocess.CalledProcessError:
            continue
        matrices = [
            job["strategy"]["matrix"]
            for job in workflow.get("jobs", {}).values()
            if isinstance(job.get("strategy"), dict)
            and "torch-version" in job["strategy"].get("matrix", {})
        ]
        if not matrices:
            print(f"{tag}: no build matrix in publish.yml (a reusable workflow?)", file=sys.stderr)
            continue
        matrix = matrices[0]
        setup = git("show", f"{tag}:setup.py")
        tags[version] = {
            "tag": tag,
            "commit": commit,
            "publish_yml_blob": blob,
            "os": matrix["os"],
            "setup_downloads_prebuilt": setup_downloads_prebuilt(setup),
            "python": [str(v) for v in matrix["python-version"]],
            "torch": [str(v) for v in matrix["torch-version"]],
            "cuda": [str(v) for v in matrix["cuda-version"]],
            "exclude": [
                {str(k): str(v) for k, v in item.items()} for item in matrix.get("exclude") or []
            ],
        }
    document = {
        "source": f"{FLASH_ATTN_REPO} .github/workflows/publish.yml at each release tag",
        # not "fetched": kb-inputs.json dates the PyPI data, and this is the project's repository
        "read": datetime.date.today().isoformat(),
        "releases": dict(sorted(tags.items(), key=lambda item: Version(item[0]))),
    }
    FLASH_ATTN_INPUT.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


def _series(version: str) -> str:
    parsed = Version(version)
    return f"{parsed.major}.{parsed.minor}"


def flash_attn_assets() -> dict[str, Any]:
    """Per release: the (python, torch series, CUDA major) combinations with a prebuilt
    linux/x86_64 wheel, as the publish matrix at its tag builds them."""
    document = json.loads(FLASH_ATTN_INPUT.read_text())
    out: dict[str, Any] = {}
    for version, entry in document["releases"].items():
        combos = set()
        for python in entry["python"]:
            for torch in entry["torch"]:
                for cuda in entry["cuda"]:
                    row = {"python-version": python, "torch-version": torch, "cuda-version": cuda}
                    if any(all(row.get(k) == v for k, v in ex.items()) for ex in entry["exclude"]):
                        continue
                    combos.add(f"{python}|{_series(torch)}|{Version(cuda).major}")
        # The exact torch each series' wheels were compiled against: setup.py names the asset
        # by torch's major.minor only, so a series built against a nightly (2.5.7's
        # 2.3.0.dev20240207) is what a final release of that series fetches.
        # Two builds of one series (0.2-2.0.5's 1.12.0 and 1.12.1) upload one asset name twice:
        # which one won is not recorded, so both are kept.
        built: dict[str, list[str]] = {}
        for torch in entry["torch"]:
            built.setdefault(_series(torch), []).append(torch)
        if not entry["setup_downloads_prebuilt"]:
            combos = set()  # setup.py always compiles: no release asset is ever fetched
            built = {}
        out[version] = {
            "platform": "linux/x86_64",
            "combos": sorted(combos, key=lambda c: [Version(p) for p in c.split("|")]),
            "built_against": dict(sorted(built.items(), key=lambda item: Version(item[0]))),
            "tag": entry["tag"],
            "commit": entry["commit"],
        }
    return out


# ---------------------------------------------------------------------------------------------
# The table


def platform_key(platform: str) -> str | None:
    """A wheel platform tag -> the target it installs on (`linux/aarch64`, `darwin/arm64`, ...);
    None for a platform no target here names (musllinux, plain `linux_*`, 32-bit, ...)."""
    if platform == "any":
        return "any"
    if platform == "win_amd64":
        return "win32/AMD64"
    if platform == "win_arm64":
        return "win32/ARM64"
    if platform.startswith("manylinux"):
        for machine in ("x86_64", "aarch64", "ppc64le", "s390x"):
            if platform.endswith("_" + machine):
                return f"linux/{machine}"
    if platform.startswith("macosx"):
        if platform.endswith("_arm64"):
            return "darwin/arm64"
        if platform.endswith("_universal2"):
            return "darwin/universal2"
        if platform.endswith(("_x86_64", "_intel")):
            return "darwin/x86_64"
    return None


def python_tag(interpreter: str, abi: str) -> str | None:
    """`cp311`+`cp311` -> `cp311`; `cp39`+`abi3` -> `abi3:cp39`; `py3`+`none` -> `py3`;
    free-threaded (`cp313t`) and other implementations -> None (not recorded)."""
    if abi == "abi3" and interpreter.startswith("cp"):
        return f"abi3:{interpreter}"
    if interpreter.startswith("cp") and abi in (interpreter, interpreter + "m", "none"):
        return interpreter
    if interpreter.startswith("py") and abi == "none":
        return interpreter
    return None


def _summary(release: dict[str, Any]) -> dict[str, list[str]]:
    """{target: [python tags]} of a release's wheels."""
    wheels: dict[str, set[str]] = {}
    for tags in release["wheels"]:
        for tag in parse_tag(tags):
            key = platform_key(tag.platform)
            python = python_tag(tag.interpreter, tag.abi)
            if key is None or python is None:
                continue
            if key == "darwin/universal2":
                wheels.setdefault("darwin/arm64", set()).add(python)
                key = "darwin/x86_64"
            wheels.setdefault(key, set()).add(python)
    return {key: sorted(values, key=_tag_order) for key, values in sorted(wheels.items())}


def _tag_order(tag: str) -> tuple[str, int, int]:
    match = re.search(r"(\d)(\d*)$", tag)
    major, minor = (int(match.group(1)), int(match.group(2) or 0)) if match else (0, 0)
    return (tag.split(":")[0] if ":" in tag else tag.rstrip("0123456789"), major, minor)


def generate() -> str:
    document = json.loads(INPUT.read_text())
    packages: dict[str, Any] = {}
    for name, listing in sorted(document["packages"].items()):
        cuda = document["cuda_metadata"].get(name, {})
        runs: list[dict[str, Any]] = []
        for version, release in sorted(listing["releases"].items(), key=lambda i: Version(i[0])):
            row: dict[str, Any] = {
                "wheels": _summary(release),
                "sdist": release["sdist"],
                "requires_python": release["requires_python"],
            }
            if version in cuda:
                row["aarch64_cuda"] = bool(cuda[version]["cuda_requires"])
            if runs and {k: v for k, v in runs[-1].items() if k != "releases"} == row:
                runs[-1]["releases"].append(version)
            else:
                runs.append({"releases": [version], **row})
        packages[name] = runs
    output: dict[str, Any] = {
        "schema": "compat.wheels/1",
        "generated_by": "scripts/gen_wheels.py",
        "inputs": {
            "file": "scripts/inputs/wheels-files.json",
            "source": document["source"],
            "since": document["since"],
            "fetched": {
                name: {"date": listing["fetched"], "listing_sha256": listing["listing_sha256"]}
                for name, listing in sorted(document["packages"].items())
            },
        },
        "packages": packages,
        "flash_attn_assets": flash_attn_assets(),
        # PEP 592 yanked releases (every file yanked; the reason where PyPI gives one): pip
        # still installs one pinned with ==, never one a range would pick
        "yanked": {
            name: {
                version: release["yanked"]
                for version, release in sorted(
                    listing["releases"].items(), key=lambda i: Version(i[0])
                )
                if release.get("yanked")
            }
            for name, listing in sorted(document["packages"].items())
            if any(release.get("yanked") for release in listing["releases"].values())
        },
    }
    output["inputs"]["flash_attn_assets"] = {
        "file": "scripts/inputs/flash-attn-assets.json",
        "source": f"{FLASH_ATTN_REPO} .github/workflows/publish.yml at each release tag",
        "read": json.loads(FLASH_ATTN_INPUT.read_text())["read"],
    }
    # one run per line: a refresh's diff shows the releases that changed
    lines = [json.dumps({k: v for k, v in output.items() if k != "packages"}, sort_keys=True)]
    # flash_attn_assets sorts before packages, yanked after it: both go in the header line
    lines[0] = lines[0][:-1] + ', "packages": {'
    for position, (name, runs) in enumerate(packages.items()):
        lines.append(f" {json.dumps(name)}: [")
        lines += [
            "  " + json.dumps(run, sort_keys=True) + ("," if i < len(runs) - 1 else "")
            for i, run in enumerate(runs)
        ]
        lines.append(" ]" + ("," if position < len(packages) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


VERIFY_ROWS = 6  # release rows, and as many aarch64 metadata rows, re-read


def verify(path: Path | None = None, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the recorded rows: a release's wheel tags, sdist and
    Requires-Python from its package's simple page now, and a Linux aarch64 wheel's CUDA
    requirements from the METADATA inside the wheel (the input read the index's PEP 658 copy
    where there was one). Raises tablegen.SampleDisagrees on the first row that differs."""
    from pypi_inputs import simple_files, wheel_metadata
    from tablegen import resample

    path = path or INPUT
    record = json.loads(path.read_text())
    pages: dict[str, list[dict[str, Any]]] = {}

    def page(name: str) -> list[dict[str, Any]]:
        if name not in pages:
            pages[name] = simple_files(name)
        return pages[name]

    keys = ("wheels", "sdist", "requires_python")
    rows = [
        (name, version, release)
        for name, package in sorted(record["packages"].items())
        for version, release in sorted(package["releases"].items())
    ]

    def listing(row: tuple[str, str, dict[str, Any]]) -> tuple[str, Any, Any]:
        name, version, release = row
        now = _listing(name, page(name))["releases"].get(version, {})
        return (
            f"{name} {version}",
            {k: release.get(k) for k in keys},
            {k: now.get(k) for k in keys},
        )

    cuda_rows = [
        (name, version, entry)
        for name, by_version in sorted(record.get("cuda_metadata", {}).items())
        for version, entry in sorted(by_version.items())
    ]

    def metadata(row: tuple[str, str, dict[str, Any]]) -> tuple[str, Any, Any]:
        name, version, entry = row
        found = {f["filename"]: f for f in page(name)}.get(entry["wheel"])
        label = f"{name} {version} ({entry['wheel']})"
        recorded = (entry["sha256"], entry["cuda_requires"])
        if found is None:
            return label, recorded, ("not on the index", None)
        read = (found["hashes"]["sha256"], _cuda_lines(wheel_metadata(found["url"])))
        return label, recorded, read

    seed = str(record.get("fetched"))
    return "\n".join(
        (
            resample(f"{path} (releases)", rows, listing, count=count, seed=seed),
            resample(f"{path} (aarch64 metadata)", cuda_rows, metadata, count=count, seed=seed),
        )
    )


def main() -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from tablegen import run

    def refresh_all(args: Any) -> bool:
        """False where only flash-attn's matrices were re-read (from the clone itself):
        verify() samples the index rows of wheels-files.json, which that leaves as it was."""
        if args.flash_attn_git:
            refresh_flash_attn(args.flash_attn_git)
            return False
        refresh()
        return True

    def add_arguments(parser: Any) -> None:
        parser.add_argument(
            "--flash-attn-git",
            metavar="GIT_DIR",
            help="with --refresh: re-read flash-attn's publish matrices from a local clone "
            "(github.com is not the package index) instead of PyPI",
        )

    return run(__doc__, OUTPUT, generate, refresh_all, add_arguments, verify)


if __name__ == "__main__":
    sys.exit(main())
