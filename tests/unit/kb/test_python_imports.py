"""doctor reads the installed Python sources (issue 41): a top-level import of a name another
installed distribution does not define is a finding, with the file and line; what runs is the
truth, recorded beside each fixture (tests/data/pyimports/MANIFEST.json: the real `import` in a
venv of the same releases, scripts/pyimport_fixtures.py)."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_subprocess
from tests.lib import paths
from tests.lib.doctor import doctor_argv, doctor_report
from tests.lib.pyimports import copy_case

MANIFEST = json.loads((paths.PYIMPORTS / "MANIFEST.json").read_text(encoding="utf-8"))
CASES = {case["name"]: case for case in MANIFEST["cases"]}
_CANNOT_IMPORT = re.compile(r"ImportError: cannot import name '(\w+)' from '([\w.]+)'")


def site_of(name: str, tmp_path: Path) -> Path:
    site = tmp_path / "site"
    return copy_case(name, site)


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
    (package / "folder.py").mkdir()  # a directory under a module's name
    (package / "loop.py").symlink_to("loop.py")  # unreadable, even by root (ELOOP)
    (package / "locked.py").write_bytes(claim)
    (package / "locked.py").chmod(0)  # unreadable unless the tests run as root
    for file in ("fifo.py", "folder.py", "loop.py", "locked.py"):
        rows += f"sentence_transformers/{file},,\n"
    record.write_text(rows)
    unreadable = {"fifo.py", "folder.py", "loop.py"} | (
        set() if os.geteuid() == 0 else {"locked.py"}
    )
    code, report = doctor_report(site)
    assert code == 1
    (finding,) = python_findings(report)  # the real files' finding stands
    assert all(file not in " ".join(finding["matched"]) for file in hostile)
    for file in [*hostile, *unreadable]:
        assert any(
            note.startswith(str(package / file)) and "not read as Python source" in note
            for note in report["notes"]
        ) or any(
            u["path"] == str(package / file)
            for u in report["environment"]["python_imports"]["unreadable"]
        ), (file, report["notes"])
    time.sleep(2.1)  # then the answer is kept, the files that could not be read watched
    _, kept = doctor_report(site)
    _, warm = doctor_report(site)
    assert warm["environment"]["python_imports"]["read"] == 0
    assert _same_answer(warm) == _same_answer(kept)
    # the answer itself kept (not only each file's entries), though a link loop cannot be stat'ed
    assert list(Path(os.environ["COMPAT_CACHE_DIR"]).glob("python-summary-*.json"))


def _same_answer(report: dict[str, Any]) -> dict[str, Any]:
    """The report less what a cache may change: how many files this run read, and when."""
    document: dict[str, Any] = json.loads(json.dumps(report))
    for key in ("read", "parsed"):
        document["environment"]["python_imports"].pop(key)
    document.pop("generated_at", None)
    return document


def test_a_warm_run_reads_no_source_and_answers_the_same(tmp_path: Path) -> None:
    site = site_of("trl-0.7.11-transformers-4.39.0", tmp_path)
    time.sleep(2.1)  # files younger than 2 s are never trusted by their stat signature
    _, cold = doctor_report(site)
    _, warm = doctor_report(site)
    assert python_findings(cold) == python_findings(warm) != []
    assert _same_answer(cold) == _same_answer(warm)  # the whole document, notes included
    assert cold["environment"]["python_imports"]["read"] > 0
    assert warm["environment"]["python_imports"]["read"] == 0
    assert warm["environment"]["python_imports"]["parsed"] == 0


def test_a_run_after_another_distribution_changed_answers_as_a_cold_run(tmp_path: Path) -> None:
    # one RECORD rewritten (as pip does when it installs): the kept answer is not used, every
    # other distribution's files are answered from the per-file cache, and the document is the
    # cold run's
    site = site_of("trl-0.7.11-transformers-4.39.0", tmp_path)
    time.sleep(2.1)
    _, cold = doctor_report(site)
    record = next(site.glob("trl-*.dist-info/RECORD"))
    record.write_text(record.read_text())
    time.sleep(2.1)
    _, partial = doctor_report(site)
    assert _same_answer(partial) == _same_answer(cold)
    read = partial["environment"]["python_imports"]["read"]
    assert 0 < read < cold["environment"]["python_imports"]["read"]


def test_a_source_edited_by_hand_changes_the_answer(tmp_path: Path) -> None:
    # the failing line fixed in place (no reinstall, the RECORD untouched): the warm run sees it
    site = site_of("trl-0.7.11-transformers-4.39.0", tmp_path)
    time.sleep(2.1)
    _, cold = doctor_report(site)
    (finding,) = python_findings(cold)
    path, _, line = finding["source"].rpartition(":")
    lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
    assert "top_k_top_p_filtering" in lines[int(line) - 1]
    lines[int(line) - 1] = lines[int(line) - 1].replace("top_k_top_p_filtering", "GenerationMixin")
    Path(path).write_text("".join(lines), encoding="utf-8")
    _, edited = doctor_report(site)
    assert python_findings(edited) == []
    time.sleep(2.1)
    _, warm = doctor_report(site)  # and the answer kept for it is the edited one
    assert python_findings(warm) == []
    assert warm["environment"]["python_imports"]["read"] == 0


def test_a_reinstalled_distribution_is_read_again(tmp_path: Path) -> None:
    # a file the last answer did not rest on changes with its RECORD (as pip rewrites it):
    # the new import in it is read
    site = site_of("st-2.2.2-hub-0.25.2", tmp_path)
    time.sleep(2.1)
    _, before = doctor_report(site)
    assert python_findings(before) == []
    util = site / "sentence_transformers" / "util.py"
    util.write_text("from huggingface_hub import no_such_name\n" + util.read_text())
    record = next(site.glob("sentence_transformers-*.dist-info")) / "RECORD"
    record.write_text(record.read_text() + "sentence_transformers/__reinstalled__.py,,\n")
    _, after = doctor_report(site)
    assert [f["rule"] for f in python_findings(after)] == [
        "python-import:sentence-transformers:huggingface_hub:no_such_name"
    ]


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


def test_globals_handed_on_in_a_decorator_above_its_def_is_still_seen(tmp_path: Path) -> None:
    # the walk for globals() visits only the nodes whose lines spell such a name: a decorator
    # lies above its def's own line, and a call split over lines spells it on a line of its own
    site = tmp_path / "site"
    _package(
        site,
        "lib",
        "1.0",
        {
            "lib/__init__.py": (
                "def register(namespace):\n"
                "    return lambda f: f\n"
                "\n"
                "@register(\n"
                "    globals()\n"
                ")\n"
                "def make():\n"
                "    pass\n"
            ),
        },
    )
    _package(site, "user", "1.0", {"user/__init__.py": "from lib import Generated\n"})
    _, report = doctor_report(site)
    assert python_findings(report) == []
    assert any("lib (globals() handed to a call" in n for n in report["notes"]), report["notes"]


def test_a_star_import_brings_what_its_all_lists_and_nothing_else(tmp_path: Path) -> None:
    # `from ._impl import *` brings `__all__`'s names, or without one the public names: the
    # cheap read of the star-imported module's bytes and its `ast` agree on both sides
    site = tmp_path / "site"
    _package(
        site,
        "lib",
        "1.0",
        {
            "lib/__init__.py": "from ._impl import *\nfrom ._plain import *\n",
            "lib/_impl.py": (
                "x__all__ = ['Unlisted']\n__all__ = ['Listed']\n\n"
                "def Listed(): ...\n\ndef Unlisted(): ...\n"
            ),
            "lib/_plain.py": "def public(): ...\n\ndef _private(): ...\n",
        },
    )
    _package(
        site,
        "user",
        "1.0",
        {
            "user/__init__.py": "from lib import Listed, public\n",
            "user/a.py": "from lib import Unlisted\n",
            "user/b.py": "from lib import _private\n",
        },
    )
    _, report = doctor_report(site)
    assert sorted(f["rule"] for f in python_findings(report)) == [
        "python-import:user:lib:Unlisted",
        "python-import:user:lib:_private",
    ]


def test_a_first_run_scanned_by_worker_processes_answers_as_one_process(tmp_path: Path) -> None:
    # over 2,000 sources per worker, a cold run scans them in worker processes
    # ($COMPAT_SCAN_WORKERS sets how many at most: 1, none): the same document either way
    site = site_of("st-2.2.2-hub-0.26.0", tmp_path)
    modules = {
        f"filler/m{i:04d}.py": "from sentence_transformers import util\n" for i in range(4100)
    }
    modules["filler/__init__.py"] = "from huggingface_hub import no_such_name\n"
    _package(site, "filler", "1.0", modules)
    time.sleep(2.1)
    documents = {}
    for workers in ("1", "2"):
        result = run_subprocess(
            [*doctor_argv(site), "--format", "json"],
            env={"COMPAT_SCAN_WORKERS": workers, "COMPAT_CACHE_DIR": str(tmp_path / workers)},
        )
        assert result.exit_code == 1, result.stderr
        documents[workers] = json.loads(result.stdout)
    assert documents["1"]["environment"]["python_imports"]["read"] > 4100
    assert _same_answer(documents["1"]) == _same_answer(documents["2"])
    assert {f["rule"] for f in python_findings(documents["2"])} == {
        "python-import:filler:huggingface_hub:no_such_name",
        "python-import:sentence-transformers:huggingface_hub:cached_download",
    }


@pytest.mark.parametrize("collecting", [True, False])
def test_a_first_run_leaves_the_garbage_collector_as_it_found_it(
    collecting: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the import check turns the collector off while it reads (a first run builds millions of
    # objects that live to its end); the caller's setting is back afterwards, answer or not
    import gc

    from compat.commands.pythoncheck import read_python
    from compat.facts.installed import read_paths

    monkeypatch.setenv("COMPAT_CACHE_DIR", str(tmp_path / "cache"))
    site = site_of("st-2.2.2-hub-0.26.0", tmp_path)
    was = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        judgement = read_python(read_paths([site]))
        assert gc.isenabled() is collecting
    finally:
        gc.enable() if was else gc.disable()
    assert [f.rule.id for f in judgement.findings] == [
        "python-import:sentence-transformers:huggingface_hub:cached_download"
    ]
