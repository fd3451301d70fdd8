#!/usr/bin/env python3
"""Regenerate compat/data/requires-snapshot.json.gz: what each release of a stack package requires.

Offline, compat infers what a requirement file pulls in (torch through accelerate, triton through
torch) and solves the install from this dated snapshot, never from its index cache: a cache may
make a check faster, never give it another answer. The snapshot covers what real training stacks
install: the names in scripts/inputs/snapshot-names.json (the closure real resolves of every real
file under tests/data pull in, recomputed online by scripts/snapshot_closure.py) and every
package a knowledge-base rule speaks of, plus the frameworks that pin them (CARRIERS).

For each package it keeps every version the index ever served (`published`: "this exact version
was never published" is then answerable offline), and for each final release uploaded since SINCE
(the newest MAX_RELEASES of them): the Requires-Dist lines that name a package of the snapshot,
Requires-Python, whether every file is yanked (PEP 592), and which Linux x86-64 wheels (and
whether an sdist) it publishes.

The recorded input, scripts/inputs/requires-snapshot.json, holds for each package the sha256 of
its simple-API page (PEP 691 JSON) and what it lists, and for each release the Linux x86-64 wheel
read (the wheel pip takes there), the sha256 of its core metadata (PEP 658, as the index serves
it) and every Requires-Dist line it declares (filtered here, so that a wider name list needs no
re-read). `--refresh` re-reads PyPI's simple API and each new release's `.metadata` file; without
it the script is offline and deterministic, and `--check` exits 1 when the committed snapshot is
stale or the knowledge base names a package the input does not cover (refresh then).
`--only NAME...` re-reads just those packages (a rule's new names), keeping every other one as
recorded; each package read so carries its own `fetched` day.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gzip
import hashlib
import io
import json
import re
import sys
import threading
import time
import urllib.error
import zipfile
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INPUT = ROOT / "scripts" / "inputs" / "requires-snapshot.json"
NAMES = ROOT / "scripts" / "inputs" / "snapshot-names.json"
OUTPUT = ROOT / "compat" / "data" / "requires-snapshot.json.gz"

# Frameworks that pin the packages rules speak of (a training repo names them, not torch).
CARRIERS = ("verl", "sglang", "liger-kernel", "ms-swift", "llamafactory", "axolotl")
# Final releases uploaded since this day (torch 1.8's era) have their requirements read; older
# ones are only listed in `published` (a pin below them falls back to
# compat/data/recorded-requires.json).
SINCE = "2021-01-01"
# A package that never published a final release gets its newest MIN_RELEASES pre-releases
# instead (pip installs a pre-release when nothing else matches).
# At most this many final releases per package, the newest (botocore ships one every weekday):
# older ones are listed in `published`. The packages rules speak of (and CARRIERS) are not capped.
MAX_RELEASES = 120
MIN_RELEASES = 3
WORKERS = 24  # metadata files read at once
PACKAGE_WORKERS = 8  # simple-API pages read at once
SDIST = (".tar.gz", ".zip", ".tar.bz2", ".tgz", ".tar.xz", ".tar")


def covered() -> list[str]:
    """Every package a knowledge-base rule names (its conditions and fixes), and CARRIERS."""
    sys.path.insert(0, str(ROOT))
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    from compat.kb.knowledge import load_knowledge_base

    names: set[str] = set(CARRIERS)

    def walk(when: dict[str, Any]) -> None:
        packages = when.get("packages", {})
        if isinstance(packages, dict):
            names.update(canonicalize_name(n) for n in packages)
        for branch in when.get("any", []) or []:
            walk(branch)

    for rule in load_knowledge_base(()).plain:
        walk(rule["when"])
        names.update(canonicalize_name(Requirement(c).name) for c in rule["fix"]["constraints"])
    return sorted(names)


def _fields(text: str) -> list[tuple[str, str]]:
    """The header fields of a METADATA file, as (field, value) pairs."""
    fields: list[tuple[str, str]] = []
    for line in text.split("\n\n", 1)[0].splitlines():
        if ":" in line and not line.startswith((" ", "\t")):
            key, _, value = line.partition(":")
            fields.append((key.strip(), value.strip()))
    return fields


BLOCK = 4 << 20  # bytes per range request: a wheel's whole central directory, usually


def _wheel_metadata(url: str, size: int) -> tuple[str, bytes] | None:
    """(member name, text) of the wheel's .dist-info/METADATA."""
    if size <= BLOCK:
        archive = zipfile.ZipFile(io.BytesIO(_get(url)))
    else:  # scripts/remote_zip.py's Range reader: the server's size must be PyPI's
        from remote_zip import RangeFile

        remote = RangeFile(_answer, url, size, tail=BLOCK)
        archive = zipfile.ZipFile(io.BufferedReader(remote, BLOCK))
    with archive:
        names = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return (names[0], archive.read(names[0])) if names else None


def _merge_extras(lines: list[str]) -> list[str]:
    """One line per requirement that only extras ask for (`x>=1; extra == "a" or extra == "b"`
    for the two lines that differ in their extra alone): the same requirements, smaller."""
    import re

    extras: dict[str, list[str]] = {}
    out: list[str] = []
    for line in lines:
        head, _, marker = line.partition("; ")
        match = re.fullmatch(r'extra == "([^"]+)"', marker)
        if match:
            extras.setdefault(head, []).append(match.group(1))
        else:
            out.append(line)
    for head, names in extras.items():
        out.append(head + "; " + " or ".join(f'extra == "{n}"' for n in sorted(set(names))))
    return sorted(out)


def snapshot_names() -> list[str]:
    """The names the snapshot covers: the recorded closure and every package rules name."""
    recorded: list[str] = json.loads(NAMES.read_text())["names"] if NAMES.exists() else []
    return sorted(set(recorded) | set(covered()))


def _get(url: str, headers: Mapping[str, str] | None = None) -> bytes:
    return _answer(url, headers).content


def _answer(url: str, headers: Mapping[str, str] | None = None) -> Any:
    """pypi_inputs._answer, tried again on a transient failure (a 5xx, a reset, a time-out)."""
    import pypi_inputs

    for attempt in range(4):
        try:
            return pypi_inputs._answer(url, headers)
        except urllib.error.HTTPError as error:
            if error.code < 500 or attempt == 3:
                raise
        except (urllib.error.URLError, TimeoutError, ConnectionError):
            if attempt == 3:
                raise
        time.sleep(2**attempt)
    raise AssertionError("unreachable")


def _simple(name: str) -> tuple[str, list[dict[str, Any]]]:
    body = _get(
        f"https://pypi.org/simple/{name}/", {"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    files: list[dict[str, Any]] = json.loads(body)["files"]
    return hashlib.sha256(body).hexdigest(), files


def file_version(filename: str) -> Any:
    """The version a distribution file carries (wheel or sdist), or None."""
    from packaging.utils import parse_sdist_filename, parse_wheel_filename
    from packaging.version import InvalidVersion, Version

    try:
        if filename.endswith(".whl"):
            return parse_wheel_filename(filename)[1]
        for suffix in SDIST:
            if filename.endswith(suffix):
                stem = filename[: -len(suffix)]
                if filename.endswith(".tar.gz"):
                    return parse_sdist_filename(filename)[1]
                return Version(stem.rpartition("-")[2])
    except (ValueError, InvalidVersion):
        return None
    return None


def wheel_kinds(filename: str) -> set[str]:
    """What a wheel offers a Linux x86-64 CPython: "any" (pure, or one build for every Python),
    "cp311" (that CPython only), "abi3-cp38" (CPython 3.8 on); nothing for another platform."""
    from packaging.utils import parse_wheel_filename

    kinds: set[str] = set()
    try:
        tags = parse_wheel_filename(filename)[3]
    except ValueError:
        return kinds
    for tag in tags:
        platform, interpreter, abi = tag.platform, tag.interpreter, tag.abi
        if platform != "any" and not (
            platform.startswith(("manylinux", "linux_")) and platform.endswith("_x86_64")
        ):
            continue
        if interpreter.startswith("cp") and abi == "abi3":
            kinds.add(f"abi3-{interpreter}")
        elif interpreter.startswith("cp") and abi in ("none", interpreter, f"{interpreter}m"):
            kinds.add(interpreter)
        elif interpreter == "py3":
            kinds.add("any")
        elif re.fullmatch(r"py3\d+", interpreter):
            kinds.add(f"abi3-cp{interpreter[2:]}")  # pip takes pyXY from Python X.Y on
    return kinds


def _read_requires(item: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    """The Requires-Dist lines of one release's wheel, with what was read and its sha256."""
    from packaging.requirements import InvalidRequirement, Requirement

    _, version, wheel = item
    entry: dict[str, Any] = {"version": version, "wheel": wheel["filename"],
                             "wheel_sha256": wheel["hashes"].get("sha256"),
                             "metadata_sha256": None, "requires_dist": None}  # fmt: skip
    try:  # the index may not list `core-metadata`, yet serve the file
        text = _get(wheel["url"] + ".metadata")
        entry["metadata_from"] = "PEP 658 .metadata"
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        # No PEP 658 file: the wheel's own METADATA, read with a few large range requests.
        found = _wheel_metadata(wheel["url"], int(wheel.get("size") or 0))
        if found is None:
            return entry  # requirements unknown (said as such offline)
        entry["metadata_from"], text = found
    keep: list[str] = []
    for key, value in _fields(text.decode("utf-8", "replace")):
        if key != "Requires-Dist":
            continue
        try:
            line = str(Requirement(value))
        except InvalidRequirement:
            continue
        if line not in keep:
            keep.append(line)
    entry["metadata_sha256"] = hashlib.sha256(text).hexdigest()
    entry["requires_dist"] = keep
    return entry


def _files_summary(files: list[dict[str, Any]]) -> dict[str, Any]:
    """One release's files as pip sees them on Linux x86-64: Requires-Python (of the wheel pip
    takes there, else of the sdist), yanked (every file is), the wheels and whether an sdist."""
    import pypi_inputs

    live = [f for f in files if not f.get("yanked")] or files
    wheels = [f for f in live if f["filename"].endswith(".whl")]
    sdists = [f for f in live if f["filename"].endswith(SDIST)]
    kinds: set[str] = set()
    for f in wheels:
        kinds |= wheel_kinds(f["filename"])
    chosen = pypi_inputs.pick_wheel(wheels) if wheels else (sdists[0] if sdists else None)
    summary: dict[str, Any] = {"wheels": sorted(kinds), "sdist": bool(sdists)}
    if chosen is not None and chosen.get("requires-python"):
        summary["python"] = chosen["requires-python"]
    if all(f.get("yanked") for f in files):
        summary["yanked"] = True
    return summary


def _package(name: str, before: dict[str, Any], pool: ThreadPoolExecutor) -> dict[str, Any]:
    """One package's record: its simple-API page's sha256, every version it lists, and each
    release since SINCE (the newest MAX_RELEASES) with its files and requirements."""
    import pypi_inputs

    digest, files = _simple(name)
    by_version: dict[Any, list[dict[str, Any]]] = {}
    for f in files:
        version = file_version(f["filename"])
        if version is not None:
            by_version.setdefault(version, []).append(f)
    finals = sorted(v for v in by_version if not (v.is_prerelease or v.is_devrelease or v.local))
    recent = [v for v in finals if min(_day(f) for f in by_version[v]) >= SINCE]
    # The newest MIN_RELEASES finals even when older (a package finished before SINCE, six,
    # still installs); at most MAX_RELEASES, the newest.
    chosen = sorted(set(recent) | set(finals[-MIN_RELEASES:]))
    if name not in _rule_names():  # a package rules speak of keeps every release since SINCE
        chosen = chosen[-MAX_RELEASES:]
    if not finals:  # pre-releases only (opentelemetry's semantic conventions): pip takes them
        chosen = sorted(by_version)[-MIN_RELEASES:]
    known = {(e["version"], e.get("wheel_sha256")): e for e in before.get("releases", [])}
    entries: dict[str, dict[str, Any]] = {}
    todo: list[tuple[str, str, dict[str, Any]]] = []
    for version in chosen:
        summary = _files_summary(by_version[version])
        wheels = [f for f in by_version[version] if f["filename"].endswith(".whl")]
        live = [f for f in wheels if not f.get("yanked")] or wheels
        if not live:
            entries[str(version)] = {"version": str(version), "wheel": None,
                                     "requires_dist": None, **summary}  # fmt: skip
            continue  # sdists only (DeepSpeed, flash-attn): requirements unknown
        wheel = pypi_inputs.pick_wheel(live)
        old = known.get((str(version), wheel["hashes"].get("sha256")))
        if old is not None and old.get("metadata_sha256") and old.get("complete_lines"):
            entries[str(version)] = {**old, **summary}
        else:
            entries[str(version)] = summary
            todo.append((name, str(version), wheel))
    for read in pool.map(_read_requires, todo):
        entries[read["version"]] = {**entries[read["version"]], **read, "complete_lines": True}
    return {
        "simple_sha256": digest,
        "published": [str(v) for v in sorted(by_version)],
        "releases": [entries[str(v)] for v in chosen],
    }


@functools.cache
def _rule_names() -> frozenset[str]:
    return frozenset(covered())


def _day(entry: dict[str, Any]) -> str:
    return str(entry.get("upload-time", ""))[:10]


def _packed(entry: dict[str, Any]) -> dict[str, Any]:
    """A package's record as the input file holds it: every distinct Requires-Dist line once
    (`lines`), each release's as indices into it (transformers' 230 lines a release, mostly the
    same from one to the next)."""
    lines: list[str] = sorted({x for r in entry["releases"] for x in r["requires_dist"] or ()})
    where = {line: i for i, line in enumerate(lines)}
    releases = [
        r
        if r["requires_dist"] is None
        else {**r, "requires_dist": [where[x] for x in r["requires_dist"]]}
        for r in entry["releases"]
    ]
    return {**entry, "lines": lines, "releases": releases}


def unpacked(entry: dict[str, Any]) -> dict[str, Any]:
    """The input file's record of a package with each release's Requires-Dist lines as text."""
    lines: list[str] = entry["lines"]
    releases = [
        r
        if r["requires_dist"] is None
        else {**r, "requires_dist": [lines[i] for i in r["requires_dist"]]}
        for r in entry["releases"]
    ]
    return {k: v for k, v in entry.items() if k != "lines"} | {"releases": releases}


def _dump_input(document: dict[str, Any]) -> str:
    """The input file: the head indented, one line per release (a weekly diff shows each)."""
    head = {k: v for k, v in document.items() if k != "packages"}
    text = json.dumps(head, indent=1, sort_keys=True)[:-2] + ',\n "packages": {'
    blocks = []
    for name in sorted(document["packages"]):
        entry = _packed(document["packages"][name])
        rest = {k: v for k, v in entry.items() if k != "releases"}
        lines = [f"  {json.dumps(name)}: {{"]
        lines += [f"   {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}," for k, v in
                  sorted(rest.items())]  # fmt: skip
        releases = ",\n".join(
            "    " + json.dumps(r, sort_keys=True, separators=(",", ":")) for r in entry["releases"]
        )
        lines.append('   "releases": [\n' + releases + "\n   ]\n  }")
        blocks.append("\n".join(lines))
    return text + "\n" + ",\n".join(blocks) + "\n }\n}\n"


def refresh() -> None:
    """Re-read PyPI. A release already recorded from the same wheel (same sha256) is kept as
    recorded: a weekly refresh reads only new releases' metadata (every simple page again)."""
    names = snapshot_names()
    old = json.loads(INPUT.read_text()) if INPUT.exists() else {}
    document: dict[str, Any] = {
        "fetched": datetime.date.today().isoformat(),
        "source": "https://pypi.org/simple/<name>/ (PEP 691 JSON: every file, its "
        "Requires-Python, upload time and yanked flag) and each release's Linux x86-64 wheel's "
        "core metadata (PEP 658 <wheel url>.metadata)",
        "since": SINCE,
        "max_releases": MAX_RELEASES,
        "carriers": list(CARRIERS),
        "names": names,
        "packages": {},
    }
    for name, entry in old.get("packages", {}).items():
        if name in names and isinstance(entry, dict):
            document["packages"][name] = unpacked(entry)  # its releases are reused
    lock = threading.Lock()
    started = time.monotonic()
    done: list[str] = []
    saved = [started]
    with ThreadPoolExecutor(max_workers=WORKERS) as reads:

        def one(name: str) -> None:
            record = _package(name, document["packages"].get(name, {}), reads)
            with lock:
                document["packages"][name] = record
                done.append(name)
                print(f"{name}: {len(record['releases'])} releases, {len(record['published'])} "
                      f"versions ({len(done)}/{len(names)}, {time.monotonic() - started:.0f} s)",
                      file=sys.stderr)  # fmt: skip
                if time.monotonic() - saved[0] > 20:  # progress kept, every 20 s
                    INPUT.write_text(_dump_input(document))
                    saved[0] = time.monotonic()

        with ThreadPoolExecutor(max_workers=PACKAGE_WORKERS) as packages:
            list(packages.map(one, names))
    INPUT.write_text(_dump_input(document))


def refresh_only(only: list[str]) -> None:
    """Read the named packages from PyPI and keep every other package as recorded: a rule that
    names a package the input lacks adds its history without moving the rest to a newer index
    (a full --refresh would). Each package read this way records its own `fetched` day."""
    from packaging.utils import canonicalize_name

    document = json.loads(INPUT.read_text())
    wanted = sorted({canonicalize_name(n) for n in only})
    unknown = sorted(set(wanted) - set(snapshot_names()))
    if unknown:
        raise SystemExit(f"--only: {', '.join(unknown)} is not a name the snapshot covers")
    packages = {name: unpacked(entry) for name, entry in document["packages"].items()}
    with ThreadPoolExecutor(max_workers=WORKERS) as reads:
        for name in wanted:
            before = {k: v for k, v in packages.get(name, {}).items() if k != "fetched"}
            record = _package(name, before, reads)
            packages[name] = record | {"fetched": datetime.date.today().isoformat()}
            print(f"{name}: {len(record['releases'])} releases, {len(record['published'])} "
                  "versions", file=sys.stderr)  # fmt: skip
    document["packages"] = packages
    document["names"] = sorted(set(document["names"]) | set(wanted))
    INPUT.write_text(_dump_input(document))


def generate() -> str:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    document = json.loads(INPUT.read_text())
    missing = sorted(set(snapshot_names()) - set(document["names"]))
    if missing:
        raise SystemExit(
            f"{INPUT.name} does not cover {', '.join(missing[:10])}"
            f"{' and more' if len(missing) > 10 else ''} (the knowledge base's rules and "
            f"{NAMES.name}): run with --only NAME... (or --refresh)"
        )
    names = set(document["names"])
    # Releases repeat the same Requires-Dist lines (and whole lists of them): each line is
    # parsed once, each distinct list filtered once, not once per release (14 s a --check).
    line_names: dict[str, str] = {}
    kept_of: dict[tuple[str, ...], list[str]] = {}

    def named(line: str) -> str:
        found = line_names.get(line)
        if found is None:
            found = line_names[line] = canonicalize_name(Requirement(line).name)
        return found

    out: dict[str, Any] = {}
    for name, packed in sorted(document["packages"].items()):
        package = unpacked(packed)
        sets: list[list[str]] = []
        set_index: dict[tuple[str, ...], int] = {}
        versions: list[list[Any]] = []
        recorded: set[str] = set()
        for entry in package["releases"]:
            recorded.add(entry["version"])
            extra: dict[str, Any] = {}
            if entry.get("python"):
                extra["python"] = entry["python"]
            if entry.get("yanked"):
                extra["yanked"] = True
            extra["wheels"] = entry["wheels"]
            if entry["sdist"]:
                extra["sdist"] = True
            lines = entry["requires_dist"]
            if lines is None:
                versions.append([entry["version"], None, extra])
                continue
            kept = kept_of.get(tuple(lines))
            if kept is None:
                kept = _merge_extras([line for line in lines if named(line) in names])
                kept_of[tuple(lines)] = kept
            index = set_index.get(tuple(kept))
            if index is None:
                index = set_index[tuple(kept)] = len(sets)
                sets.append(kept)
            versions.append([entry["version"], index, extra])
        others = [v for v in package["published"] if str(Version(v)) not in recorded]
        out[name] = {"requires": sets, "releases": versions, "published": others,
                     "complete": True}  # fmt: skip
    body = ",\n".join(
        f" {json.dumps(name)}: {json.dumps(entry, separators=(',', ':'))}"
        for name, entry in out.items()
    )
    head = {
        "schema": "compat.requires-snapshot/2",
        "generated_by": "scripts/gen_requires_snapshot.py",
        "about": "For each package: `requires`, the distinct sets of Requires-Dist lines that "
        "name a package of this snapshot; `releases`, each final release since `since` (the "
        "newest `max_releases`) as [version, set index or null where the release ships no "
        "wheel and its requirements are unknown, {python: Requires-Python, yanked: every file "
        "is, wheels: its Linux x86-64 wheels, sdist}]; `published`, every other version the "
        "index lists; `complete`, the two together are every version it ever served. Offline "
        "inference and the offline solve read this, never compat's index cache.",
        "since": document["since"],
        "max_releases": document["max_releases"],
        "inputs": {
            "file": "scripts/inputs/requires-snapshot.json",
            "fetched": document["fetched"],
            "sha256": hashlib.sha256(INPUT.read_bytes()).hexdigest(),
            "names": "scripts/inputs/snapshot-names.json",
            "names_sha256": hashlib.sha256(NAMES.read_bytes()).hexdigest(),
        },
    }
    text = json.dumps(head, indent=1, sort_keys=True)
    return text[:-2] + ',\n "packages": {\n' + body + "\n }\n}\n"


def _gzip(text: str) -> bytes:
    """The output compressed the same way on every machine (no file name, no time stamp)."""
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


VERIFY_ROWS = 8  # (package, release) rows re-read


def verify(path: Path = INPUT, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the recorded releases by a second route: the wheel's sha256
    from the package's simple page, and its Requires-Dist and Requires-Python from the METADATA
    inside the wheel (the input was read from the index's PEP 658 copy). Only releases whose
    every Requires-Dist line is recorded (complete_lines) and whose wheel was read are sampled.
    Raises tablegen.SampleDisagrees on the first row that differs."""
    import pypi_inputs as pypi
    from tablegen import resample

    record = json.loads(path.read_text(encoding="utf-8"))
    rows = [
        (name, release)
        for name, package in sorted(record["packages"].items())
        for release in package.get("releases", [])
        if release.get("complete_lines") and release.get("wheel")
    ]

    from packaging.requirements import Requirement
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    def same(lines: Any) -> list[str]:  # compared by meaning: the input keeps packaging's spelling
        return sorted(str(Requirement(line)) for line in lines)

    def python(text: str | None) -> str | None:  # the simple page's copy, the wheel's own field
        try:
            return str(SpecifierSet(text)) if text else None
        except InvalidSpecifier:
            return text

    def reread(row: tuple[str, dict[str, Any]]) -> tuple[str, Any, Any]:
        name, release = row
        lines = record["packages"][name]["lines"]
        recorded = (
            release.get("wheel_sha256"),
            python(release.get("python")),
            same(lines[i] for i in release.get("requires_dist", [])),
        )
        listed = {f["filename"]: f for f in pypi.simple_files(name)}
        found = listed.get(release["wheel"])
        label = f"{name} {release['version']} ({release['wheel']})"
        if found is None:
            return label, recorded, ("not on the index", None, [])
        fields = pypi.wheel_metadata(found["url"])
        read = (
            found.get("hashes", {}).get("sha256"),
            python(next((v for k, v in fields if k == "Requires-Python"), None)),
            same(v for k, v in fields if k == "Requires-Dist"),
        )
        return label, recorded, read

    return resample(str(path), rows, reread, count=count, seed=str(record.get("fetched")))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="re-read PyPI first")
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="re-read only these packages from PyPI (the others stay as recorded)",
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when the output is stale")
    parser.add_argument(
        "--verify",
        nargs="?",
        const=INPUT,
        type=Path,
        metavar="INPUT",
        help="re-read a sample of the recorded releases from PyPI and exit (1: one disagrees)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    if args.refresh:
        refresh()
    elif args.only:
        refresh_only(args.only)
    if args.refresh or args.only or args.verify is not None:
        from tablegen import SampleDisagrees

        try:
            print(verify(args.verify or INPUT))
        except SampleDisagrees as error:
            print(f"scripts/gen_requires_snapshot.py: refused: {error}", file=sys.stderr)
            return 1
        except OSError as error:  # the index cannot be read: the machine, not the table
            print(f"scripts/gen_requires_snapshot.py: could not re-read: {error}", file=sys.stderr)
            return 3
        if args.verify is not None:
            return 0
    text = generate()
    if args.check:
        # The JSON it holds is compared, not the compressed bytes (zlib builds may differ).
        if not OUTPUT.exists() or gzip.decompress(OUTPUT.read_bytes()).decode("utf-8") != text:
            print(
                f"{OUTPUT.relative_to(ROOT)} is stale: run {Path(__file__).name}", file=sys.stderr
            )
            return 1
        return 0
    OUTPUT.write_bytes(_gzip(text))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
