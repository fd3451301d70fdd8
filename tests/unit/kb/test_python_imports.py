"""doctor reads the installed Python sources (issue 41): a top-level import of a name another
installed distribution does not define is a finding, with the file and line; what runs is the
truth, recorded beside each fixture (tests/data/pyimports/MANIFEST.json: the real `import` in a
venv of the same releases, scripts/pyimport_fixtures.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from tests.lib import paths
from tests.lib.doctor import doctor_report

MANIFEST = json.loads((paths.PYIMPORTS / "MANIFEST.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in MANIFEST["cases"]}
_CANNOT_IMPORT = re.compile(r"ImportError: cannot import name '(\w+)' from '([\w.]+)'")


def site_of(name: str, tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(paths.PYIMPORTS / name, site)
    return site


def python_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["kind"] == "python"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_doctor_agrees_with_the_real_import(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    site = site_of(name, tmp_path)
    _, report = doctor_report(site)
    found = python_findings(report)
    result = case["import"]["result"]
    if result == "ok":
        assert found == [], found  # the real import works: nothing to say
        return
    missing = _CANNOT_IMPORT.search(result)
    assert missing is not None, result
    name_, module = missing.groups()
    assert len(found) == 1, found
    finding = found[0]
    assert finding["status"] == "affected"
    assert finding["evidence"] == "observed"
    assert f"`{name_}`" in finding["title"] and f"from {module} import {name_}" in finding["title"]
    # the file and line hold the import, and the real traceback failed at one of the sites named
    path, _, line = finding["source"].rpartition(":")
    text = Path(path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert text.startswith(f"from {module} import") and name_ in text
    frame = re.search(r'File "([^"]+)", line (\d+)', case["import"]["failing frame"])
    assert frame is not None
    assert any(f"{frame[1]}:{frame[2]}:" in m for m in finding["matched"]), finding["matched"]
    # and leads with it: the statement the real import runs first, where it stops
    assert finding["source"] == f"{site}/{frame[1]}:{frame[2]}", finding["source"]
    importer = case["importer"]
    versions = {p["name"]: p["version"] for p in finding["packages"]}
    assert importer in versions and versions[importer] in {
        w["file"].split("-")[1] for w in case["wheels"]
    }


def test_a_module_the_package_does_not_import_is_possible_and_named(tmp_path: Path) -> None:
    site = site_of("st-2.2.2-hub-0.26.0", tmp_path)
    (site / "sentence_transformers" / "__init__.py").write_text('__version__ = "2.2.2"\n')
    _, report = doctor_report(site)
    (finding,) = python_findings(report)
    assert finding["status"] == "possible"
    assert "importing sentence_transformers.SentenceTransformer fails" in finding["title"]
    assert (
        finding["unknown"][0]["fact"] == "python.imports.sentence_transformers.SentenceTransformer"
    )


def test_a_module_getattr_is_a_note_never_a_finding(tmp_path: Path) -> None:
    site = site_of("st-2.2.2-hub-0.26.0", tmp_path)
    init = site / "huggingface_hub" / "__init__.py"
    init.write_text(init.read_text() + "\n\ndef __getattr__(name):\n    return name\n")
    _, report = doctor_report(site)
    assert python_findings(report) == []
    assert any(
        "cannot be known without running them: huggingface_hub (a module __getattr__" in note
        for note in report["notes"]
    ), report["notes"]


def test_hostile_sources_are_one_note_each_and_the_rest_is_read(tmp_path: Path) -> None:
    site = site_of("st-2.2.2-hub-0.26.0", tmp_path)
    package = site / "sentence_transformers"
    claim = b"from huggingface_hub import cached_download\n"
    hostile = {
        "latin.py": claim + b"x = '\xe9'\n",
        "broken.py": claim + b"def f(:\n",
        "deep.py": claim + b"x = " + b"(" * 5000 + b")" * 5000 + b"\n",
        "huge.py": claim + b"#" * (9 * 1024 * 1024) + b"\n",
    }
    record = next(site.glob("sentence_transformers-*.dist-info")) / "RECORD"
    rows = record.read_text()
    for file, data in hostile.items():
        (package / file).write_bytes(data)
        rows += f"sentence_transformers/{file},,\n"
    os.mkfifo(package / "fifo.py")  # a read would block forever
    rows += "sentence_transformers/fifo.py,,\n"
    record.write_text(rows)
    code, report = doctor_report(site)
    assert code == 1
    (finding,) = python_findings(report)  # the real files' finding stands
    assert all(file not in " ".join(finding["matched"]) for file in hostile)
    for file in hostile:
        assert any(
            note.startswith(str(package / file)) and "not read as Python source" in note
            for note in report["notes"]
        ) or any(
            u["path"] == str(package / file)
            for u in report["environment"]["python_imports"]["unreadable"]
        ), (file, report["notes"])


def test_a_warm_run_reads_no_source_and_answers_the_same(tmp_path: Path) -> None:
    site = site_of("trl-0.7.11-transformers-4.39.0", tmp_path)
    time.sleep(2.1)  # files younger than 2 s are never trusted by their stat signature
    _, cold = doctor_report(site)
    _, warm = doctor_report(site)
    assert python_findings(cold) == python_findings(warm) != []
    assert cold["environment"]["python_imports"]["read"] > 0
    assert warm["environment"]["python_imports"]["read"] == 0
    assert warm["environment"]["python_imports"]["parsed"] == 0


def _package(site: Path, name: str, version: str, files: dict[str, str]) -> None:
    """A distribution whose RECORD lists `files` (written as given)."""
    from tests.dists import make_dist

    info = make_dist(site, name, version)
    rows = (info / "RECORD").read_text()
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
        rows += f"{rel},,\n"
    (info / "RECORD").write_text(rows)


def test_names_a_generated_module_binds_through_globals_are_not_claimed(tmp_path: Path) -> None:
    # protobuf's generated *_pb2 modules bind their messages through `_globals = globals()`
    # handed to the builder (protobuf 4+): ray imports `Struct` from struct_pb2, and it works.
    site = tmp_path / "site"
    _package(
        site,
        "protobuf",
        "5.29.0",
        {
            "google/protobuf/__init__.py": "__version__ = '5.29.0'\n",
            "google/protobuf/struct_pb2.py": (
                "from google.protobuf.internal import builder as _builder\n"
                "_globals = globals()\n"
                "_builder.BuildTopDescriptorsAndMessages(DESCRIPTOR, 'struct_pb2', _globals)\n"
            ),
        },
    )
    _package(
        site,
        "user",
        "1.0",
        {"user/__init__.py": "from google.protobuf.struct_pb2 import Struct\n"},
    )
    _, report = doctor_report(site)
    assert python_findings(report) == []
    assert any("google.protobuf.struct_pb2 (globals() bound" in n for n in report["notes"])
