#!/usr/bin/env python3
"""Regenerate tests/data/pyimports/: the Python sources of pinned real wheels, cut to what doctor's
import check reads (issue 41, item 5).

Each case is an environment of real releases whose real `import` either works or fails with an
ImportError. The wheels are fetched from PyPI with `pip download --no-deps` (a release published
only as an sdist is built with `pip wheel --no-deps`), installed with
`pip install --no-deps --target`, and cut down:

* the importing distributions (IMPORTERS) keep every `.py` file: their imports are what is judged;
* the others keep only the modules the check reads: the modules the importers import from, the
  modules whose definitions it resolves (star imports, lazy tables, the lazy class), and their
  packages' `__init__.py`;
* every kept distribution keeps METADATA, WHEEL and a RECORD cut to the kept files (their hashes
  and sizes as the wheel states them);
* each release's cut tree is written once, under releases/NAME-VERSION/ (a release two cases hold
  gains the files either keeps); a case lists its releases, and its site-packages is their trees
  copied together (tests/lib/pyimports.copy_case).

The cut is verified before it is written: the check's findings on the case composed from the
release trees equal those on the full install. The truth beside each case is not compat's: `--truth VENV` names a virtual
environment per wheel set family, built with real pip from the same releases and their
dependencies; the script runs the case's import there (after `pip install --no-deps` of the case's
wheels) and records the last line of its error, or `ok`, in MANIFEST.json.

Usage: python scripts/pyimport_fixtures.py [--wheels DIR] [--truth FAMILY=VENV ...]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "pyimports"
sys.path.insert(0, str(ROOT))

# (name, family, importer, import statement, releases): the family names the truth venv.
CASES: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    (
        "st-2.2.2-hub-0.25.2",
        "st",
        "sentence-transformers",
        "import sentence_transformers",
        ("sentence-transformers==2.2.2", "huggingface_hub==0.25.2"),
    ),
    (
        "st-2.2.2-hub-0.26.0",
        "st",
        "sentence-transformers",
        "import sentence_transformers",
        ("sentence-transformers==2.2.2", "huggingface_hub==0.26.0"),
    ),
    (
        "trl-0.7.11-transformers-4.38.2",
        "trl",
        "trl",
        "import trl",
        ("trl==0.7.11", "transformers==4.38.2"),
    ),
    (
        "trl-0.7.11-transformers-4.39.0",
        "trl",
        "trl",
        "import trl",
        ("trl==0.7.11", "transformers==4.39.0"),
    ),
    (
        # datasets imports `insecure_hashlib` (huggingface_hub 0.19+) in several modules; the
        # real import stops at the one it runs first (datasets/utils/info_utils.py), not the
        # first by path: the finding must lead with that one.
        "datasets-2.18.0-hub-0.18.0",
        "datasets",
        "datasets",
        "import datasets",
        ("datasets==2.18.0", "huggingface_hub==0.18.0"),
    ),
    (
        # tqdm's pandas support imports pandas' `Panel` (removed in pandas 1.0) under
        # try/except ImportError: a guarded import that must stay silent.
        "tqdm-4.67.1-pandas-2.2.3",
        "tqdm",
        "tqdm",
        "import tqdm.std, tqdm; tqdm.tqdm.pandas()",
        ("tqdm==4.67.1", "pandas==2.2.3"),
    ),
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(spec: str, wheels: Path) -> Path:
    """The wheel of one release (built from its sdist where PyPI has no wheel)."""
    name, _, version = spec.partition("==")
    stem = name.replace("-", "_").lower()
    found = [p for p in wheels.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if found:
        return found[0]
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "download", "--no-deps", "-d", str(wheels), spec], check=True)
    found = [p for p in wheels.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if found:
        return found[0]
    sdists = [
        p
        for p in wheels.glob("*.tar.gz")
        if p.name.lower().replace("-", "_").startswith(f"{stem}_{version}.tar")
    ]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(sdists[0])], check=True)
    return fetch(spec, wheels)


def install(wheel_files: list[Path], target: Path) -> None:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--disable-pip-version-check",
            "-q",
            "install",
            "--no-deps",
            "--no-compile",
            "--target",
            str(target),
            *map(str, wheel_files),
        ],
        check=True,
    )
    shutil.rmtree(target / "bin", ignore_errors=True)


class Recorder:
    """A SourceCache that remembers which files the check read."""

    def __init__(self) -> None:
        from compat.facts.pymodules import SourceCache

        self.cache = SourceCache(None)
        self.paths: set[str] = set()

    def __getattr__(self, name: str) -> object:
        method = getattr(self.cache, name)
        if name in ("defines", "top_level", "lazy_is_static"):

            def recorded(path: str, *args: object) -> object:
                self.paths.add(path)
                return method(path, *args)

            return recorded
        return method


def judge(site: Path) -> tuple[list[tuple[str, str, str, list[str]]], object, Recorder]:
    from compat.facts.installed import read_paths
    from compat.facts.pymodules import python_modules
    from compat.kb.pythoncheck import judge_imports

    env = read_paths([site])
    recorder = Recorder()
    mods = python_modules(env, recorder.cache)
    judgement = judge_imports(mods, recorder, env)  # type: ignore[arg-type]
    shown = [
        (
            f.rule.id,
            f.status.value,
            str(f.rule.origin).replace(str(site) + "/", ""),
            [m.replace(str(site) + "/", "") for m in f.matched],
        )
        for f in judgement.findings
    ]
    return shown, mods, recorder


def cut(site: Path, importer: str, dest: Path) -> list[str]:
    """Copy the kept part of the install at `site` to `dest` (module docstring)."""
    from compat.facts.installed import read_paths

    _shown, mods, recorder = judge(site)
    keep: set[str] = set(recorder.paths)
    for module, path in mods.scanned:  # type: ignore[attr-defined]
        if mods.modules[module].dist == importer:  # type: ignore[attr-defined]
            keep.add(path)
            for imp in recorder.cache.imports(path):
                if isinstance(imp, str) or imp.level:
                    continue
                for name in (imp.module, *(f"{imp.module}.{n}" for n in imp.names or ())):
                    parts = name.split(".")
                    for end in range(1, len(parts) + 1):
                        file = mods.modules.get(".".join(parts[:end]))  # type: ignore[attr-defined]
                        if file is not None and file.kind != "ext":
                            keep.add(file.path)
    for path in list(keep):  # every package above a kept module
        parent = Path(path).parent
        while parent != site and parent.parent != parent:
            init = parent / "__init__.py"
            if init.exists():
                keep.add(str(init))
            parent = parent.parent
    env = read_paths([site])
    kept: list[str] = []
    for package in env.packages.values():
        assert package.origin is not None
        info = Path(package.origin.path)
        lines = (info / "RECORD").read_text(encoding="utf-8").splitlines()
        rows = [line for line in lines if str(site / line.split(",")[0]) in keep]
        (dest / info.name).mkdir(parents=True)
        for meta in ("METADATA", "WHEEL"):
            shutil.copy2(info / meta, dest / info.name / meta)
        rows += [f"{info.name}/{meta},," for meta in ("METADATA", "WHEEL", "RECORD")]
        (dest / info.name / "RECORD").write_text("\n".join(rows) + "\n", encoding="utf-8")
        for row in rows:
            rel = row.split(",")[0]
            if rel.startswith(info.name):
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(site / rel, target)
            kept.append(rel)
    return sorted(kept)


def split(cut_site: Path, root: Path) -> list[str]:
    """The cut install as one tree per release under `root` (`huggingface_hub-0.25.2/`: its
    dist-info and the files its RECORD lists), shared by every case holding that release; a
    release already there from another case gains the files this case keeps."""
    releases = []
    for info in sorted(cut_site.glob("*.dist-info")):
        release = info.name.removesuffix(".dist-info")
        record = root / release / info.name / "RECORD"
        existed = record.exists()
        for row in (info / "RECORD").read_text(encoding="utf-8").splitlines():
            rel = row.split(",")[0]
            if rel and (cut_site / rel).is_file():
                target = root / release / rel
                if rel.endswith(".dist-info/RECORD") and target.exists():
                    continue  # merged below
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(cut_site / rel, target)
        if existed:  # written by an earlier case: its rows and this case's together
            rows = {*record.read_text(encoding="utf-8").splitlines()}
            rows |= {*(info / "RECORD").read_text(encoding="utf-8").splitlines()}
            record.write_text("".join(f"{r}\n" for r in sorted(rows)), encoding="utf-8")
        releases.append(release)
    return releases


def compose(releases: list[str], dest: Path, root: Path = OUT / "releases") -> Path:
    """A case's site-packages: its releases' trees copied into one directory."""
    for release in releases:
        shutil.copytree(root / release, dest, dirs_exist_ok=True)
    return dest


def truth(venv: Path, wheel_files: list[Path], statement: str, log: Path) -> dict[str, str]:
    python = venv / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "--disable-pip-version-check",
            "-q",
            "install",
            "--no-deps",
            "--force-reinstall",
            *map(str, wheel_files),
        ],
        check=True,
    )
    done = subprocess.run(
        [str(python), "-c", statement], capture_output=True, text=True, timeout=600
    )
    if done.returncode == 0:
        return {"result": "ok"}
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    site = str(next((venv / "lib").glob("python3*/site-packages"))) + "/"
    # the real traceback, beside the fixture: what explain reads (its venv's path shortened)
    log.write_text(done.stderr.replace(str(venv), "/venv"), encoding="utf-8")
    frames = [line.strip().replace(site, "") for line in lines if line.strip().startswith("File ")]
    return {
        "result": (lines[-1] if lines else f"exit {done.returncode}").replace(site, ""),
        "failing frame": frames[-1] if frames else "",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheels", type=Path, default=Path("/tmp/compat-pyimport-wheels"))
    parser.add_argument("--truth", action="append", default=[], metavar="FAMILY=VENV")
    args = parser.parse_args()
    venvs = dict(item.split("=", 1) for item in args.truth)
    args.wheels.mkdir(parents=True, exist_ok=True)
    previous = {}
    if (OUT / "MANIFEST.json").exists():
        previous = {c["name"]: c for c in json.loads((OUT / "MANIFEST.json").read_text())["cases"]}
    # the logs and the other files beside the cases (TABLE-TRUTH.json) are kept as they are
    logs = (
        {p.name: p.read_bytes() for p in OUT.iterdir() if p.is_file() and p.name != "MANIFEST.json"}
        if OUT.exists()
        else {}
    )
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    for log_name, data in logs.items():  # kept where this run does not import again
        (OUT / log_name).write_bytes(data)
    cases = []
    for name, family, importer, statement, releases in CASES:
        wheel_files = [fetch(spec, args.wheels) for spec in releases]
        with tempfile.TemporaryDirectory() as tmp:
            site = Path(tmp) / "site"
            install(wheel_files, site)
            full, _mods, _rec = judge(site)
            kept = cut(site, importer, Path(tmp) / "cut")
            releases = split(Path(tmp) / "cut", OUT / "releases")
            composed = compose(releases, Path(tmp) / "composed")
            again, _mods, _rec = judge(composed)
        if [(i, s) for i, s, _o, _m in again] != [(i, s) for i, s, _o, _m in full]:
            raise SystemExit(f"{name}: the cut tree judges otherwise: {again} != {full}")
        if family in venvs:
            result = truth(Path(venvs[family]), wheel_files, statement, OUT / f"{name}.log")
        else:
            result = previous.get(name, {}).get("import", {"result": "not run"})
            result.pop("statement", None)
        cases.append(
            {
                "name": name,
                "importer": importer,
                "releases": releases,
                "wheels": [{"file": w.name, "sha256": sha256(w)} for w in wheel_files],
                "import": {"statement": statement, **result},
                "findings": [{"id": i, "status": s, "source": o} for i, s, o, _m in full],
                "files": kept,
            }
        )
        print(f"{name}: {len(kept)} files kept; import: {result['result']}; findings: {full}")
    manifest = {
        "about": "Real wheels behind tests/data/pyimports/ (scripts/pyimport_fixtures.py): each "
        "case's files cut to what the import check reads, kept once per release under releases/ "
        "(a case's site-packages is its `releases` copied together), the findings on the full "
        "install, and the real import's result in a venv built from the same releases.",
        "cases": cases,
    }
    (OUT / "MANIFEST.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
