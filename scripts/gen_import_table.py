#!/usr/bin/env python3
"""Generate compat/data/python-imports.json: which names each release of a defining package
defines, and which names each release of its importers imports from it at import time (issue 41,
item 2). check and pin judge a resolved install's pairs of releases with it; explain names the
releases that define a name.

Inputs (scripts/inputs/python-imports.json, written by `--refresh`): for each family, the
releases read, each with its file's name, address, size and sha256 as PyPI states them, and how
the defining releases are read. The defining package: every final release since FLOOR, or the
newest patch of each minor; the importers: the releases listed in FAMILIES. The files are
downloaded (checked against the recorded sha256) and unpacked as pip installs them; a `range`
family's 400-900 MB wheels (vLLM, torch) are not: only their zip's central directory and `.py`
members are fetched by HTTP Range requests (scripts/remote_zip.py: the server's size must be
PyPI's, each member is checked against its CRC-32); a `tree` family's sdists (DeepSpeed, whose
setup.py needs torch) are read as their package tree. All are read with compat's own readers,
the ones doctor uses (compat.facts.pymodules, compat.kb.pythoncheck):

* an importer release: its modules' column-0 import statements from the defining package that
  the `ast` confirms in the module's own body (not under `try`, `if`, `def`); each row also says
  whether `import <package>` runs the importing module (doctor's `affected`);
* a defining release: for each (module, name) some importer release imports, whether the module
  defines it (top-level bindings, `__all__`, lazy tables, submodules): yes, no, or unknown.

Compact: only the pairs some importer release imports (and the modules they import from); per
pair, the releases that lack it and those whose names cannot be known (the rest define it); the
importer rows only of pairs some read release lacks, one per pair and release. `--only A,B`
reads those families again and keeps the others as they are.

Sample re-read: before writing, a sample of rows is read again by another route (the module's
source straight from the wheel's zip, `compat.files.pysource.read_defines`, the zip's file list
for submodules; the importer's line from the zip with `scan_imports`); a disagreement refuses
the table (exit 1, nothing written).

The broken pairs also become rules (compat/matrix/python-imports-table.yaml), so pin avoids
them as it avoids any rule; `--rules-only` rewrites them from the table without reading wheels.

Usage: python scripts/gen_import_table.py [--refresh] [--only FAMILIES] [--wheels DIR]
       python scripts/gen_import_table.py --rules-only [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
INPUTS = ROOT / "scripts" / "inputs" / "python-imports.json"
OUT = ROOT / "compat" / "data" / "python-imports.json"
RULES = ROOT / "compat" / "matrix" / "python-imports-table.yaml"

# defining distribution, its top-level module, the floor (every final release since it is read,
# or with `minors`, the newest patch of each minor line), importers and their releases read.
FAMILIES: tuple[dict[str, Any], ...] = (
    {
        "defining": "huggingface-hub",
        "module": "huggingface_hub",
        # 0.17: the releases held-out reports name (transformers 4.34 pulls 0.17.3; peft#2116)
        "floor": "0.17.0",
        "every": "release",
        "importers": {
            "sentence-transformers": ["2.2.2", "2.3.1", "2.7.0", "3.0.1", "3.4.1", "5.0.0"],
            "diffusers": ["0.21.4", "0.25.1", "0.26.3", "0.27.2", "0.31.0"],
            "accelerate": [
                *("0.26.1", "0.30.1", "0.31.0", "0.32.0", "0.32.1", "0.33.0", "0.34.2"),
                *("1.0.1", "1.6.0"),
            ],
            "datasets": ["2.14.7", "2.18.0", "2.21.0", "3.0.2", "3.6.0", "4.0.0"],
            "peft": ["0.10.0", "0.11.1", "0.12.0", "0.13.0", "0.13.2", "0.14.0", "0.15.2"],
        },
    },
    {
        "defining": "transformers",
        "module": "transformers",
        "floor": "4.36.0",
        "every": "minor",
        "extra": ["4.38.2", "4.39.0"],
        "importers": {
            "trl": ["0.7.10", "0.7.11", "0.8.6", "0.9.6", "0.12.2"],
            "peft": ["0.10.0", "0.13.2", "0.14.0", "0.15.2"],
        },
    },
    {
        "defining": "accelerate",
        "module": "accelerate",
        "floor": "0.20.0",
        "every": "minor",
        "importers": {
            # every PEFT release from 0.14.0 to 0.17.1: reports name 0.14.0 clear and 0.15.0 on
            # broken (nullquant/ComfyUI-BrushNet#183)
            "peft": [
                "0.5.0",
                "0.10.0",
                "0.13.2",
                "0.14.0",
                "0.15.0",
                "0.15.1",
                "0.15.2",
                "0.16.0",
                "0.17.0",
                "0.17.1",
                "0.21.2",
            ],
            "trl": ["0.7.11", "0.9.6", "0.12.2", "0.19.1"],
        },
    },
    {
        "defining": "datasets",
        "module": "datasets",
        "floor": "2.14.0",
        "every": "minor",
        "importers": {
            "trl": ["0.7.11", "0.9.6", "0.12.2", "0.19.1"],
            "sentence-transformers": ["3.0.1", "3.4.1", "5.0.0"],
        },
    },
    {
        "defining": "tokenizers",
        "module": "tokenizers",
        "floor": "0.13.0",
        "every": "minor",
        "platform": True,
        "importers": {"transformers": ["4.36.2", "4.40.2", "4.45.2", "4.51.3"]},
    },
    {
        "defining": "peft",
        "module": "peft",
        "floor": "0.6.0",
        "every": "minor",
        "importers": {"openrlhf": ["0.6.4", "0.7.5", "0.8.11", "0.9.10", "0.11.2"]},
    },
    {
        "defining": "deepspeed",
        "module": "deepspeed",
        "floor": "0.12.0",
        "every": "minor",
        "sdist": "tree",  # sdists only; setup.py needs torch, so the tree is read, not built
        "importers": {"openrlhf": ["0.6.4", "0.7.5", "0.8.11", "0.9.10", "0.11.2"]},
    },
    {
        # torch writes globals() in __init__: what it defines there is unknown to the reader (a
        # note, no claim); the submodules importers use (torch.distributed.fsdp, ...) are read
        "defining": "torch",
        "module": "torch",
        "floor": "2.0.0",
        "every": "minor",
        "platform": True,
        "range": True,  # 700-900 MB wheels: only their .py members are read
        "importers": {
            "accelerate": ["0.26.1", "0.30.0", "0.30.1", "0.31.0", "1.6.0"],
            "trl": ["0.19.1", "0.23.1", "1.0.0"],
            "peft": ["0.15.2", "0.17.1"],
        },
    },
    {
        "defining": "vllm",
        "module": "vllm",
        "floor": "0.6.0",
        "every": "minor",
        "platform": True,
        "range": True,  # 300-400 MB wheels: only their .py members are read (scripts/remote_zip)
        "importers": {"openrlhf": ["0.6.4", "0.7.5", "0.8.11", "0.9.10", "0.11.2"]},
    },
)
# upstream reports of a broken pair's ImportError at the table's own line (the generated rule
# cites them beside the releases' pages; tests/data/pyimports/TABLE-TRUTH.json keeps the truth)
REPORTS: dict[tuple[str, str, str], tuple[str, ...]] = {
    ("accelerate", "huggingface_hub", "split_torch_state_dict_into_shards"): (
        "https://github.com/ZhangXInFD/SpeechTokenizer/issues/12",
        "https://github.com/mlflow/mlflow/pull/12582",
    ),
    ("peft", "accelerate.utils.memory", "clear_device_cache"): (
        "https://github.com/hiyouga/LlamaFactory/issues/8142",
        "https://github.com/OpenBMB/MiniCPM-V/issues/926",
    ),
}
SAMPLE_DEFINING = 4  # releases of each defining package re-read, every pair
SAMPLE_IMPORTERS = 3  # importer releases re-read, every row


def _pypi(name: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


_PLATFORM = ("-cp311-cp311-manylinux", "-cp38-abi3-manylinux", "-abi3-manylinux")


def _platform_wheel(filename: str) -> bool:
    """A Linux x86_64 wheel for CPython 3.11 (the one a training box installs)."""
    return (
        filename.endswith("x86_64.whl")
        and "musllinux" not in filename
        and any(tag in filename for tag in _PLATFORM)
    )


def _file_of(name: str, files: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The release's pure-Python wheel, else its Linux x86_64 CPython 3.11 wheel, else its sdist
    (built with `pip wheel` when read, or read as a tree: FAMILIES' `sdist`)."""
    live = [f for f in files if not f.get("yanked")]
    for test in (
        lambda f: f["filename"].endswith("-none-any.whl"),
        lambda f: _platform_wheel(f["filename"]),
        lambda f: f["packagetype"] == "sdist",
    ):
        for f in live:
            if test(f):
                url = urllib.parse.urljoin(f"https://pypi.org/pypi/{name}/json", f["url"])
                return {
                    "file": f["filename"],
                    "url": url,
                    "sha256": f["digests"]["sha256"],
                    "size": f["size"],
                }
    return None


def refresh(previous: dict[str, Any] | None, only: set[str]) -> dict[str, Any]:
    """Read the release lists of the families (of `only` where given; the others as recorded)."""
    from packaging.version import Version

    recorded: dict[str, Any] = {"families": []}
    kept = {f["defining"]: f for f in (previous or {}).get("families", [])}
    for family in FAMILIES:
        if only and family["defining"] not in only and family["defining"] in kept:
            recorded["families"].append(kept[family["defining"]])
            continue
        data = _pypi(family["defining"])
        floor = Version(family["floor"])
        finals = sorted(
            (Version(v), v)
            for v, files in data["releases"].items()
            if files and not Version(v).is_prerelease and Version(v) >= floor
        )
        if family["every"] == "minor":
            newest: dict[tuple[int, int], str] = {}
            for version, text in finals:
                newest[(version.major, version.minor)] = text
            chosen = sorted({*newest.values(), *family.get("extra", ())}, key=Version)
        else:
            chosen = [text for _v, text in finals]
        defining = {}
        for v in chosen:
            found = _file_of(family["defining"], data["releases"][v])
            if found is not None:
                defining[v] = found
        importers: dict[str, dict[str, Any]] = {}
        for name, versions in family["importers"].items():
            releases = _pypi(name)["releases"]
            importers[name] = {v: _file_of(name, releases[v]) for v in versions}
        recorded["families"].append(
            {
                "defining": family["defining"],
                "module": family["module"],
                "floor": family["floor"],
                "every": family["every"],
                "how": _how(family),
                "releases": defining,
                "importers": importers,
            }
        )
    return recorded


def _how(family: dict[str, Any]) -> str:
    """How a defining release is read: `wheel` (downloaded whole, sha256 checked), `range` (only
    the wheel's .py members, scripts/remote_zip), `tree` (the sdist's package tree)."""
    return "range" if family.get("range") else "tree" if family.get("sdist") == "tree" else "wheel"


def _wanted_member(name: str) -> bool:
    """The members a range read brings: every Python source and the distribution's metadata."""
    if name.startswith("/") or ".." in name.split("/"):
        return False
    return name.endswith(".py") or (
        ".dist-info/" in name and name.rpartition("/")[2] in ("RECORD", "METADATA", "WHEEL")
    )


def tree_zip(tarball: Path, top: str) -> zipfile.ZipFile:
    """The sdist's `top` package as an in-memory zip laid out as a wheel would be (its `.py`
    files under `top/`), with a dist-info naming the release and listing them."""
    import tarfile

    name, _, rest = tarball.name.rpartition("-")
    version = rest.removesuffix(".tar.gz")
    buffer = io.BytesIO()
    listed: list[str] = []
    with tarfile.open(tarball) as tar, zipfile.ZipFile(buffer, "w") as out:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if member.isfile() and len(parts) > 2 and parts[1] == top and parts[-1].endswith(".py"):
                if ".." in parts:
                    continue
                data = tar.extractfile(member)
                assert data is not None
                out.writestr("/".join(parts[1:]), data.read())
                listed.append("/".join(parts[1:]))
        info = f"{name.replace('-', '_')}-{version}.dist-info"
        out.writestr(
            f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        )
        record = [*listed, f"{info}/METADATA", f"{info}/RECORD"]
        out.writestr(f"{info}/RECORD", "".join(f"{r},,\n" for r in record))
    return zipfile.ZipFile(io.BytesIO(buffer.getvalue()))


def download(entry: dict[str, Any], wheels: Path, *, build: bool = True) -> Path:
    path: Path = wheels / str(entry["file"])
    if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
        with urllib.request.urlopen(entry["url"], timeout=300) as answer:
            data = answer.read()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise SystemExit(f"{entry['file']}: sha256 differs from the recorded one")
        tmp = path.with_suffix(".part")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    if path.name.endswith(".whl") or not build:
        return path
    built = wheels / "built" / path.name
    built.mkdir(parents=True, exist_ok=True)
    if not list(built.glob("*.whl")):
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "wheel", "--no-deps", "-w", str(built), str(path)], check=True)
    return next(built.glob("*.whl"))


_DATA = re.compile(r"^[^/]+\.data/(?:purelib|platlib)/")


def unpack(wheel: Path, dest: Path) -> Path:
    """The wheel as pip installs it: its `NAME.data/purelib|platlib/` members at the root (as
    openrlhf's wheels hold their package), and its RECORD saying so."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(dest)
        moved = [n for n in archive.namelist() if _DATA.match(n)]
    for name in moved:
        target = dest / _DATA.sub("", name)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(dest / name, target)
    if moved:
        for record in dest.glob("*.dist-info/RECORD"):
            lines = record.read_text(encoding="utf-8").splitlines()
            record.write_text("".join(_DATA.sub("", x) + "\n" for x in lines), encoding="utf-8")
    return dest


class Release:
    """One defining release and the route its files are read by (`_how`)."""

    def __init__(self, entry: dict[str, Any], how: str, top: str, wheels: Path) -> None:
        self.entry, self.how, self.top, self.wheels = entry, how, top, wheels
        self.path: Path | None = None
        self.requests = 0

    def fetch(self) -> None:
        if self.how != "range":
            self.path = download(self.entry, self.wheels, build=self.how == "wheel")

    def site(self, dest: Path) -> Path:
        """The release's files at `dest`, as installed."""
        if self.how == "range":
            from scripts.remote_zip import read_members

            _read, self.requests = read_members(
                self.entry["url"], _wanted_member, dest, self.entry.get("size")
            )
            return dest
        assert self.path is not None
        if self.how == "tree":
            with tree_zip(self.path, self.top) as archive:
                archive.extractall(dest)
            return dest
        return unpack(self.path, dest)

    def archive(self) -> contextlib.AbstractContextManager[zipfile.ZipFile]:
        """The release's files by another route than `site`: its zip read in place (over HTTP
        Range requests for a range release), or for a tree the tarball read again."""
        if self.how == "range":
            return _remote_archive(self.entry)
        assert self.path is not None
        if self.how == "tree":
            return tree_zip(self.path, self.top)
        return zipfile.ZipFile(self.path)


@contextlib.contextmanager
def _remote_archive(entry: dict[str, Any]) -> Iterator[zipfile.ZipFile]:
    import httpx

    from scripts.remote_zip import RangeFile

    with httpx.Client(follow_redirects=True, timeout=120) as client:
        remote = RangeFile(client, entry["url"], entry.get("size"))
        with zipfile.ZipFile(remote) as archive:
            yield archive


def read_importer(site: Path, dist: str, top: str) -> list[list[Any]]:
    """[module, name, 'file:line', reached] of each import-time import from `top`."""
    from compat.facts.installed import read_paths
    from compat.facts.pymodules import SourceCache, python_modules
    from compat.kb.pythoncheck import _reached

    env = read_paths([site])
    cache = SourceCache(None)
    mods = python_modules(env, cache)
    reached = _reached(mods, cache, dist)
    rows: set[tuple[str, str, str, bool]] = set()
    for module, path in mods.scanned:
        if mods.modules[module].dist != dist:
            continue
        imports = cache.imports(path)
        if isinstance(imports, str):
            raise SystemExit(f"{path}: {imports}")
        wanted = [
            i for i in imports if i.level == 0 and i.module.partition(".")[0] == top and i.module
        ]
        if not wanted:
            continue
        body = cache.top_level(path)
        if isinstance(body, str):
            raise SystemExit(f"{path}: {body}")
        where = os.path.relpath(path, site)
        for imp in wanted:
            if imp.names is None:
                if any(line == imp.line and level == 0 for line, level, _ in body):
                    rows.add((imp.module, "", f"{where}:{imp.line}", module in reached))
                continue
            if (imp.line, 0, imp.module) not in body:
                continue  # the ast does not show it in the module's own body
            for name in imp.names:
                if name != "*":
                    rows.add((imp.module, name, f"{where}:{imp.line}", module in reached))
    return [list(r) for r in sorted(rows)]


def read_defining(site: Path, pairs: Iterable[tuple[str, str]]) -> dict[str, bool | None]:
    from compat.facts.installed import read_paths
    from compat.facts.pymodules import SourceCache, python_modules
    from compat.kb.pythoncheck import defines_name

    env = read_paths([site])
    cache = SourceCache(None)
    mods = python_modules(env, cache)
    memo: dict[str, Any] = {}  # one resolve of the lazy tables for every pair
    return {f"{m}:{n}": defines_name(mods, cache, m, n, memo)[0] for m, n in pairs}


# --- the sample re-read, by another route ----------------------------------------------------


def reread_defines(wheel: Path | zipfile.ZipFile, module: str, name: str) -> bool | None:
    """Whether the wheel's `module` defines `name`, from its zip (None: cannot be said so)."""
    from compat.files.pysource import SourceError, parse, read_defines

    with _opened(wheel) as archive:
        files = set(archive.namelist())
        base = module.replace(".", "/")
        full = f"{base}/{name}" if name else base
        if f"{full}.py" in files or f"{full}/__init__.py" in files:
            return True
        if not name:
            return None if any(f.startswith(base + "/") for f in files) else False
        source = f"{base}/__init__.py" if f"{base}/__init__.py" in files else f"{base}.py"
        if source not in files:
            return False if not any(f.startswith(base + "/") for f in files) else None
        data = archive.read(source)
    try:
        defines = read_defines(parse(data, source), data)
    except SourceError:
        return None
    if name in defines.names:
        return True
    if defines.dynamic or defines.stars or defines.dir_of or defines.structure:
        return None  # names from elsewhere: the resolver's job, not this route's
    return False


@contextlib.contextmanager
def _opened(wheel: Path | zipfile.ZipFile) -> Iterator[zipfile.ZipFile]:
    if isinstance(wheel, zipfile.ZipFile):
        yield wheel  # the caller's, left open
    else:
        with zipfile.ZipFile(wheel) as archive:
            yield archive


def reread_import(wheel: Path, where: str, module: str, name: str) -> bool:
    from compat.files.pysource import scan_imports

    path, _, line = where.rpartition(":")
    with zipfile.ZipFile(wheel) as archive:
        # the member as the wheel holds it (`NAME.data/purelib/` where unpack moved it)
        (member,) = [n for n in archive.namelist() if _DATA.sub("", n) == path]
        data = archive.read(member)
    return any(
        i.line == int(line) and i.module == module and (not name or name in (i.names or ()))
        for i in scan_imports(data)
    )


def _runs(releases: list[str], chosen: set[str]) -> list[list[str]]:
    runs: list[list[str]] = []
    previous = False
    for release in releases:
        if release in chosen:
            if previous:
                runs[-1].append(release)
            else:
                runs.append([release])
        previous = release in chosen
    return runs


def rules(table: dict[str, Any], recorded: dict[str, Any]) -> list[dict[str, Any]]:
    """One rule per (importer, module, name) that some read importer release imports where
    `import <importer>` runs it and some read defining release lacks it: pin avoids the pair as
    it avoids any rule. The defining side states only read releases: every release since the
    floor is read for `every: release` families, so a run of lacking releases is a range between
    two read ones; otherwise each lacking release is named exactly."""
    from packaging.version import Version

    from compat.kb.importtable import rule_id

    made: list[dict[str, Any]] = []
    for family, inputs in zip(table["families"], recorded["families"], strict=True):
        defining, releases = family["defining"], family["releases"]
        every = inputs["every"] == "release"
        for importer, by_release in sorted(family["importers"].items()):
            wanted: dict[tuple[str, str], list[str]] = {}
            for release, rows in by_release.items():
                for module, name, _where, reached in rows:
                    if reached and family["pairs"][f"{module}:{name}"]["lacking"]:
                        releases_of = wanted.setdefault((module, name), [])
                        if release not in releases_of:
                            releases_of.append(release)
            for (module, name), importing in sorted(wanted.items()):
                pair = family["pairs"][f"{module}:{name}"]
                lacking = set(pair["lacking"])
                defined = [
                    r for r in releases if r not in lacking and r not in set(pair["unknown"])
                ]
                runs = _runs(releases, lacking)
                specs = (
                    [(f">={run[0]},<={run[-1]}" if len(run) > 1 else f"=={run[0]}") for run in runs]
                    if every
                    else [f"=={r}" for r in sorted(lacking, key=Version)]
                )
                importing.sort(key=Version)
                branches = [
                    {"packages": {importer: f"=={i}", defining: spec}}
                    for i in importing
                    for spec in specs
                ]
                constraints: list[str] = []
                first_lacking = min(lacking, key=Version)
                if defined and all(Version(r) > Version(d) for r in lacking for d in defined):
                    constraints = [f"{defining}<{first_lacking}"]
                elif defined and all(Version(r) < Version(d) for r in lacking for d in defined):
                    constraints = [f"{defining}>={min(defined, key=Version)}"]
                what = f"`{name}` from {module}" if name else f"the module {module}"
                statement = f"from {module} import {name}" if name else f"import {module}"
                clear = (
                    [{"packages": {importer: importing[0], defining: defined[-1]}}]
                    if defined
                    else []
                )
                if not clear:
                    continue  # no read release defines it: nothing to escape to, doctor's job
                # the releases' own pages on PyPI (the files read: scripts/inputs/)
                references = [
                    f"https://pypi.org/project/{importer}/{importing[0]}/",
                    f"https://pypi.org/project/{defining}/{first_lacking}/",
                    *REPORTS.get((importer, module, name), ()),
                ]
                made.append(
                    {
                        "id": rule_id(importer, module, name),
                        "title": f"{importer} imports {what}, which {defining} "
                        f"{spans_text(releases, lacking)} lacks",
                        "severity": "error",
                        "evidence": "verified",
                        "description": (
                            f"GENERATED by scripts/gen_import_table.py from the wheels in "
                            f"scripts/inputs/python-imports.json (compat/data/python-imports.json)."
                            f" {importer} {', '.join(importing)} runs `{statement}` when it is "
                            f"imported (column 0, not under try/if), and {defining} "
                            f"{spans_text(releases, lacking)} does not define it (read with "
                            f"doctor's readers); `import {importer.replace('-', '_')}` fails with "
                            f"an ImportError. {defining} releases read that define it: "
                            f"{spans_text(releases, set(defined))}."
                        ),
                        "when": {"any": branches} if len(branches) > 1 else branches[0],
                        "fix": {
                            "summary": f"a release of {defining} that defines it "
                            f"({spans_text(releases, set(defined))}), or a release of "
                            f"{importer} that no longer imports it",
                            "constraints": constraints,
                        },
                        "references": references,
                        "examples": {
                            "affected": [
                                {"packages": {importer: importing[0], defining: first_lacking}}
                            ],
                            "clear": clear,
                        },
                    }
                )
    return made


def spans_text(releases: list[str], chosen: set[str]) -> str:
    return ", ".join(
        run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in _runs(releases, chosen)
    )


def write_rules(table: dict[str, Any], recorded: dict[str, Any], *, check: bool = False) -> bool:
    """Write the rules (atomically); with `check`, only say whether the file is up to date."""
    import yaml

    header = (
        "# GENERATED by scripts/gen_import_table.py from compat/data/python-imports.json and\n"
        "# scripts/inputs/python-imports.json (issue 41 item 2): the import table's broken pairs\n"
        "# of releases as rules, so pin avoids them as it avoids any rule. Do not edit by hand:\n"
        "#   python scripts/gen_import_table.py --rules-only\n"
    )
    document = {"schema": "compat.matrix/1", "rules": rules(table, recorded)}
    text = header + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    if check:
        return RULES.exists() and RULES.read_text(encoding="utf-8") == text
    tmp = RULES.with_suffix(".part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, RULES)
    return True


def compact(rows: list[list[Any]], broken: set[str]) -> list[list[Any]]:
    """One row per (module, name) the release imports that some read defining release lacks:
    the one `import <importer>` runs where there is one, else the first by file and line."""
    best: dict[str, list[Any]] = {}
    for row in sorted(rows, key=lambda r: (not r[3], r[2])):
        key = f"{row[0]}:{row[1]}"
        if key in broken and key not in best:
            best[key] = row
    return sorted(best.values())


def generate(family: dict[str, Any], wheels: Path, tmp: Path) -> dict[str, Any]:
    """One family's part of the table, its sample re-read agreeing (else SystemExit)."""
    from packaging.version import Version

    rng = random.Random(f"41:{family['defining']}")
    how = family.get("how", "wheel")
    releases = {v: Release(e, how, family["module"], wheels) for v, e in family["releases"].items()}
    entries = [(name, v, e) for name, rel in family["importers"].items() for v, e in rel.items()]
    with ThreadPoolExecutor(max_workers=4) as pool:
        importer_wheels = list(pool.map(lambda t: download(t[2], wheels), entries))
        list(pool.map(Release.fetch, releases.values()))
    wheel_of = {(n, v): w for (n, v, _e), w in zip(entries, importer_wheels, strict=True)}
    importers: dict[str, dict[str, list[list[Any]]]] = {}
    for name, rel in family["importers"].items():
        importers[name] = {}
        for v in rel:
            site = unpack(wheel_of[(name, v)], tmp / f"{name}-{v}")
            importers[name][v] = read_importer(site, name, family["module"])
            shutil.rmtree(site)
    imported = {(r[0], r[1]) for rel in importers.values() for rs in rel.values() for r in rs}
    # each module a name is imported from, too: where the release lacks the module itself,
    # `from M import X` fails with ModuleNotFoundError for M (importtable.broken says so)
    pairs = sorted(imported | {(m, "") for m, _n in imported})
    lacking: dict[str, list[str]] = {f"{m}:{n}": [] for m, n in pairs}
    unknown: dict[str, list[str]] = {f"{m}:{n}": [] for m, n in pairs}
    answers: dict[str, dict[str, bool | None]] = {}

    def read_one(v: str) -> dict[str, bool | None]:
        site = releases[v].site(tmp / f"def-{family['defining']}-{v}")
        try:
            return read_defining(site, pairs)
        finally:
            shutil.rmtree(site)

    for v in sorted(releases, key=Version):
        answers[v] = read_one(v)
        for key, answer in answers[v].items():
            if answer is False:
                lacking[key].append(v)
            elif answer is None:
                unknown[key].append(v)
    # the sample re-read, by another route: the release's zip read in place
    checked = disagreeing = 0
    for v in rng.sample(sorted(releases, key=Version), min(SAMPLE_DEFINING, len(answers))):
        with releases[v].archive() as archive:
            for key, answer in answers[v].items():
                module, _, name = key.partition(":")
                again = reread_defines(archive, module, name)
                if again is None or answer is None:
                    continue
                if again != answer:
                    raise SystemExit(
                        f"refused: {family['defining']} {v} {key}: table says {answer}, "
                        f"the wheel re-read says {again}"
                    )
                checked += 1
    sampled = rng.sample(
        [(n, v) for n, rel in importers.items() for v in rel],
        min(SAMPLE_IMPORTERS, len(entries)),
    )
    for n, v in sampled:
        for module, name, where, _reached in importers[n][v]:
            if not reread_import(wheel_of[(n, v)], where, module, name):
                raise SystemExit(f"refused: {n} {v} {where}: no import of {module} {name}")
            checked += 1
    broken = {key for key, releases_of in lacking.items() if releases_of}
    print(
        f"{family['defining']}: {len(answers)} releases read ({how}), {len(pairs)} pairs, "
        f"{len(broken)} lacking in some release, {checked} rows re-read and agreeing "
        f"({disagreeing} disagreeing)",
        file=sys.stderr,
    )
    return {
        "defining": family["defining"],
        "module": family["module"],
        "releases": sorted(family["releases"], key=Version),
        "pairs": {
            key: {"lacking": lacking[key], "unknown": unknown[key]} for key in sorted(lacking)
        },
        "importers": {
            name: {v: compact(rows, broken) for v, rows in rel.items()}
            for name, rel in importers.items()
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="re-read the release lists")
    parser.add_argument("--wheels", type=Path, default=Path("/tmp/compat-import-table-wheels"))
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated defining packages to read again; the others stay as they are",
    )
    parser.add_argument(
        "--rules-only", action="store_true", help="rewrite the rules from the table, read nothing"
    )
    parser.add_argument(
        "--check", action="store_true", help="with --rules-only: exit 1 when the rules differ"
    )
    args = parser.parse_args()
    if args.rules_only:
        current = json.loads(OUT.read_text(encoding="utf-8"))
        recorded = json.loads(INPUTS.read_text(encoding="utf-8"))
        if not write_rules(current, recorded, check=args.check):
            print(f"{RULES.relative_to(ROOT)} differs from its table: regenerate", file=sys.stderr)
            return 1
        return 0
    only = {o for o in args.only.split(",") if o}
    previous = json.loads(INPUTS.read_text(encoding="utf-8")) if INPUTS.exists() else None
    if (
        args.refresh
        or previous is None
        or not {f["defining"] for f in FAMILIES} <= {f["defining"] for f in previous["families"]}
    ):
        fresh = refresh(previous, only)
        INPUTS.write_text(json.dumps(fresh, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(INPUTS.read_text(encoding="utf-8"))
    kept = {}
    if only and OUT.exists():
        kept = {f["defining"]: f for f in json.loads(OUT.read_text("utf-8"))["families"]}
    args.wheels.mkdir(parents=True, exist_ok=True)
    table: dict[str, Any] = {
        "format": 1,
        "source": "scripts/gen_import_table.py from scripts/inputs/python-imports.json",
        "families": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        for family in recorded["families"]:
            if only and family["defining"] not in only and family["defining"] in kept:
                table["families"].append(kept[family["defining"]])
            else:
                table["families"].append(generate(family, args.wheels, Path(tmp)))
    tmp_out = OUT.with_suffix(".part")
    tmp_out.write_text(json.dumps(table, separators=(",", ":"), sort_keys=True) + "\n", "utf-8")
    os.replace(tmp_out, OUT)
    write_rules(table, recorded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
