#!/usr/bin/env python3
"""Generate compat/data/python-imports.json: which names each release of a defining package
defines, and which names each release of its importers imports from it at import time (issue 41,
item 2). check and pin judge a resolved install's pairs of releases with it; explain names the
releases that define a name.

Inputs (scripts/inputs/python-imports.json, written by `--refresh`): for each family, the
releases read, each with its file's name, address and sha256 as PyPI states them. The defining
package: every final release since FLOOR; the importers: the releases listed in FAMILIES. The
files are downloaded (checked against the recorded sha256), unpacked, and read with compat's own
readers, the ones doctor uses (compat.facts.pymodules, compat.kb.pythoncheck):

* an importer release: its modules' column-0 import statements from the defining package that
  the `ast` confirms in the module's own body (not under `try`, `if`, `def`); each row also says
  whether `import <package>` runs the importing module (doctor's `affected`);
* a defining release: for each (module, name) some importer release imports, whether the module
  defines it (top-level bindings, `__all__`, lazy tables, submodules): yes, no, or unknown.

Compact: only the pairs some importer release imports; per pair, the releases that lack it and
those whose names cannot be known (the rest define it).

Sample re-read: before writing, a sample of rows is read again by another route (the module's
source straight from the wheel's zip, `compat.files.pysource.read_defines`, the zip's file list
for submodules; the importer's line from the zip with `scan_imports`); a disagreement refuses
the table (exit 1, nothing written).

The broken pairs also become rules (compat/matrix/python-imports-table.yaml), so pin avoids
them as it avoids any rule; `--rules-only` rewrites them from the table without reading wheels.

Usage: python scripts/gen_import_table.py [--refresh] [--wheels DIR] | --rules-only [--check]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Iterable
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
        "floor": "0.20.0",
        "every": "release",
        "importers": {
            "sentence-transformers": ["2.2.2", "2.3.1", "2.7.0", "3.0.1", "3.4.1", "5.0.0"],
            "diffusers": ["0.21.4", "0.25.1", "0.26.3", "0.27.2", "0.31.0"],
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
)
SAMPLE_DEFINING = 4  # releases of each defining package re-read, every pair
SAMPLE_IMPORTERS = 3  # importer releases re-read, every row


def _pypi(name: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"https://pypi.org/pypi/{name}/json", timeout=60) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def _file_of(name: str, files: list[dict[str, Any]]) -> dict[str, str] | None:
    """The release's pure-Python wheel, else its sdist (built with `pip wheel` when read)."""
    live = [f for f in files if not f.get("yanked")]
    for wanted in ("bdist_wheel", "sdist"):
        for f in live:
            if f["packagetype"] == wanted and (
                wanted == "sdist" or f["filename"].endswith("-none-any.whl")
            ):
                url = urllib.parse.urljoin(f"https://pypi.org/pypi/{name}/json", f["url"])
                return {"file": f["filename"], "url": url, "sha256": f["digests"]["sha256"]}
    return None


def refresh() -> dict[str, Any]:
    from packaging.version import Version

    recorded: dict[str, Any] = {"families": []}
    for family in FAMILIES:
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
                "releases": defining,
                "importers": importers,
            }
        )
    return recorded


def download(entry: dict[str, str], wheels: Path) -> Path:
    path = wheels / entry["file"]
    if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
        with urllib.request.urlopen(entry["url"], timeout=300) as answer:
            data = answer.read()
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise SystemExit(f"{entry['file']}: sha256 differs from the recorded one")
        tmp = path.with_suffix(".part")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    if path.name.endswith(".whl"):
        return path
    built = wheels / "built" / path.name
    built.mkdir(parents=True, exist_ok=True)
    if not list(built.glob("*.whl")):
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
        subprocess.run([*pip, "wheel", "--no-deps", "-w", str(built), str(path)], check=True)
    return next(built.glob("*.whl"))


def unpack(wheel: Path, dest: Path) -> Path:
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(dest)
    return dest


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


def reread_defines(wheel: Path, module: str, name: str) -> bool | None:
    """Whether the wheel's `module` defines `name`, from its zip (None: cannot be said so)."""
    from compat.files.pysource import SourceError, parse, read_defines

    with zipfile.ZipFile(wheel) as archive:
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


def reread_import(wheel: Path, where: str, module: str, name: str) -> bool:
    from compat.files.pysource import scan_imports

    path, _, line = where.rpartition(":")
    with zipfile.ZipFile(wheel) as archive:
        data = archive.read(path)
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


def main() -> int:
    from packaging.version import Version

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--refresh", action="store_true", help="re-read the release lists")
    parser.add_argument("--wheels", type=Path, default=Path("/tmp/compat-import-table-wheels"))
    parser.add_argument(
        "--rules-only", action="store_true", help="rewrite the rules from the table, read nothing"
    )
    parser.add_argument(
        "--check", action="store_true", help="with --rules-only: exit 1 when the rules differ"
    )
    args = parser.parse_args()
    if args.rules_only:
        table = json.loads(OUT.read_text(encoding="utf-8"))
        recorded = json.loads(INPUTS.read_text(encoding="utf-8"))
        if not write_rules(table, recorded, check=args.check):
            print(f"{RULES.relative_to(ROOT)} differs from its table: regenerate", file=sys.stderr)
            return 1
        return 0
    if args.refresh or not INPUTS.exists():
        recorded = refresh()
        INPUTS.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    recorded = json.loads(INPUTS.read_text(encoding="utf-8"))
    args.wheels.mkdir(parents=True, exist_ok=True)
    table: dict[str, Any] = {
        "format": 1,
        "source": "scripts/gen_import_table.py from scripts/inputs/python-imports.json",
        "families": [],
    }
    rng = random.Random(41)
    with tempfile.TemporaryDirectory() as tmp:
        for family in recorded["families"]:
            entries = [
                *(("", v, e) for v, e in family["releases"].items()),
                *(
                    (name, v, e)
                    for name, releases in family["importers"].items()
                    for v, e in releases.items()
                ),
            ]
            with ThreadPoolExecutor(max_workers=4) as pool:
                wheels = list(pool.map(lambda t: download(t[2], args.wheels), entries))
            wheel_of = {(n, v): w for (n, v, _e), w in zip(entries, wheels, strict=True)}
            importers: dict[str, dict[str, list[list[Any]]]] = {}
            for name, releases in family["importers"].items():
                importers[name] = {}
                for v in releases:
                    site = unpack(wheel_of[(name, v)], Path(tmp) / f"{name}-{v}")
                    rows = read_importer(site, name, family["module"])
                    importers[name][v] = rows
                    shutil.rmtree(site)
            pairs = sorted(
                {(r[0], r[1]) for rel in importers.values() for rs in rel.values() for r in rs}
            )
            lacking: dict[str, list[str]] = {f"{m}:{n}": [] for m, n in pairs}
            unknown: dict[str, list[str]] = {f"{m}:{n}": [] for m, n in pairs}
            answers: dict[str, dict[str, bool | None]] = {}
            for v in family["releases"]:
                site = unpack(wheel_of[("", v)], Path(tmp) / f"def-{v}")
                answers[v] = read_defining(site, pairs)
                shutil.rmtree(site)
                for key, answer in answers[v].items():
                    if answer is False:
                        lacking[key].append(v)
                    elif answer is None:
                        unknown[key].append(v)
            # the sample re-read
            checked = 0
            for v in rng.sample(sorted(family["releases"]), min(SAMPLE_DEFINING, len(answers))):
                for key, answer in answers[v].items():
                    module, _, name = key.partition(":")
                    again = reread_defines(wheel_of[("", v)], module, name)
                    if again is None or answer is None:
                        continue
                    if again != answer:
                        raise SystemExit(
                            f"refused: {family['defining']} {v} {key}: table says {answer}, "
                            f"the wheel re-read says {again}"
                        )
                    checked += 1
            sampled = rng.sample(
                [(n, v) for n, rel in importers.items() for v in rel], SAMPLE_IMPORTERS
            )
            for n, v in sampled:
                for module, name, where, _reached in importers[n][v]:
                    if not reread_import(wheel_of[(n, v)], where, module, name):
                        raise SystemExit(f"refused: {n} {v} {where}: no import of {module} {name}")
                    checked += 1
            print(
                f"{family['defining']}: {len(answers)} releases, {len(pairs)} pairs, "
                f"{checked} rows re-read and agreeing",
                file=sys.stderr,
            )
            table["families"].append(
                {
                    "defining": family["defining"],
                    "module": family["module"],
                    "releases": sorted(family["releases"], key=Version),
                    "pairs": {
                        key: {"lacking": lacking[key], "unknown": unknown[key]}
                        for key in sorted(lacking)
                    },
                    "importers": importers,
                }
            )
    tmp_out = OUT.with_suffix(".part")
    tmp_out.write_text(json.dumps(table, separators=(",", ":"), sort_keys=True) + "\n", "utf-8")
    os.replace(tmp_out, OUT)
    write_rules(table, recorded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
