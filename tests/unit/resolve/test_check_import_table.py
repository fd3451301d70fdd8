"""check judges a resolved install's pairs of releases with the generated import table (issue 41,
item 2: compat/data/python-imports.json, scripts/gen_import_table.py): the importer's release
imports at import time a name the defining release lacks. The truth beside the table's example
rows is the real `import` recorded with the real-wheel fixtures (tests/data/pyimports)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from compat.kb import importtable
from tests.checkcli import TOOLS, check, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.doctor import doctor_report
from tests.lib.pyimports import copy_case
from tests.lib.resolvers import pip_resolve
from tests.lib.scripts import load_script

MANIFEST = json.loads((paths.PYIMPORTS / "MANIFEST.json").read_text(encoding="utf-8"))
_CANNOT_IMPORT = re.compile(r"ImportError: cannot import name '(\w+)' from '([\w.]+)'")
TABLE = json.loads(
    (Path(importtable.__file__).parent.parent / "data" / "python-imports.json").read_text("utf-8")
)
# (fixture case, importer, defining): one example row per family, its truth the real import
EXAMPLES = (
    ("st-2.2.2-hub-0.25.2", "sentence-transformers", "huggingface-hub"),
    ("st-2.2.2-hub-0.26.0", "sentence-transformers", "huggingface-hub"),
    ("trl-0.7.11-transformers-4.38.2", "trl", "transformers"),
    ("trl-0.7.11-transformers-4.39.0", "trl", "transformers"),
)
INDEX = {
    "sentence-transformers": [
        Dist("sentence-transformers", "2.2.2", requires=["huggingface-hub>=0.4.0"])
    ],
    "huggingface-hub": [Dist("huggingface-hub", "0.25.2"), Dist("huggingface-hub", "0.26.0")],
}


def _releases(case: dict[str, Any], name: str) -> str:
    """The release of `name` among the case's wheels (sentence_transformers-2.2.2-py3-...)."""
    stem = name.replace("-", "_")
    (version,) = [
        w["file"].split("-")[1] for w in case["wheels"] if w["file"].split("-")[0].lower() == stem
    ]
    return str(version)


def _broken(table: Any, name: str) -> list[tuple[str, str]]:
    case = next(c for c in MANIFEST["cases"] if c["name"] == name)
    _, importer, defining = next(e for e in EXAMPLES if e[0] == name)
    found = importtable.broken(
        importer,
        _releases(case, importer),
        defining,
        _releases(case, defining),
        importtable._families(table),
    )
    return [(b.module, b.name) for b in found]


@pytest.mark.parametrize("name", [e[0] for e in EXAMPLES])
def test_the_table_agrees_with_the_real_import(name: str) -> None:
    case = next(c for c in MANIFEST["cases"] if c["name"] == name)
    result = case["import"]["result"]
    missing = _CANNOT_IMPORT.search(result)
    expected = [(missing[2], missing[1])] if missing else []
    assert _broken(TABLE, name) == expected


@pytest.mark.parametrize("name", ["st-2.2.2-hub-0.26.0", "trl-0.7.11-transformers-4.39.0"])
def test_a_flipped_row_changes_the_answer(name: str) -> None:
    (module, missing), *_ = _broken(TABLE, name)
    case = next(c for c in MANIFEST["cases"] if c["name"] == name)
    _, _importer, defining = next(e for e in EXAMPLES if e[0] == name)
    wrong = copy.deepcopy(TABLE)
    (family,) = [f for f in wrong["families"] if f["defining"] == defining]
    family["pairs"][f"{module}:{missing}"]["lacking"].remove(_releases(case, defining))
    assert _broken(wrong, name) == []


def test_a_finding_names_the_releases_that_define_the_name() -> None:
    (b,) = importtable.broken("sentence-transformers", "2.2.2", "huggingface-hub", "0.26.0")
    assert (b.module, b.name, b.reached) == ("huggingface_hub", "cached_download", True)
    assert "0.25.2" in b.defined_in and "0.26.0" not in b.defined_in
    assert b.where.startswith("sentence_transformers/")


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_check_reports_the_broken_pair_the_resolver_installs(tmp_path: Path, tool: str) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "sentence-transformers==2.2.2\nhuggingface_hub\n"
    )
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    (install,) = report["environment"]["installs"]
    assert install["packages"]["huggingface-hub"] == "0.26.0"
    found = [f for f in report["findings"] if f["kind"] == "python"]
    assert [f["rule"] for f in found] == [
        "python-import:sentence-transformers:huggingface_hub:cached_download"
    ]
    assert found[0]["status"] == "affected" and code == 1
    # the same break as a generated rule (pin's view of it) is not said twice
    assert not [f for f in report["findings"] if f["rule"].startswith("import-table-")]
    assert "0.25.2" in found[0]["title"] and "cached_download" in found[0]["title"]
    # pinned to a release that still defines it, the same file is clean
    write(requirements, "sentence-transformers==2.2.2\nhuggingface_hub==0.25.2\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    assert [f for f in report["findings"] if f["kind"] == "python"] == []


@pytest.mark.usefixtures("resolver_env")
def test_pin_avoids_the_broken_pair_and_real_pip_accepts_it(tmp_path: Path) -> None:
    # the table's broken pairs are rules too (compat/matrix/python-imports-table.yaml): pin
    # escapes sentence-transformers 2.2.2 + huggingface_hub 0.26 as it escapes any rule
    requirements = write(
        tmp_path / "requirements.txt", "sentence-transformers==2.2.2\nhuggingface_hub\n"
    )
    with IndexServer(INDEX) as index:
        result = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url])
        assert result.exit_code == 0, result.stderr
        constraints = write(tmp_path / "constraints.txt", result.stdout)
        resolved = pip_resolve(
            index.url, constraints, ["sentence-transformers==2.2.2", "huggingface_hub"], tmp_path
        )
    lines = {
        line.split("==")[0].replace("_", "-"): line
        for line in result.stdout.splitlines()
        if "==" in line
    }
    hub = lines["huggingface-hub"]
    assert hub.split()[0].endswith("==0.25.2"), result.stdout
    assert "import-table-sentence-transformers-huggingface-hub-cached-download" in hub
    assert resolved == {"sentence-transformers": "2.2.2", "huggingface-hub": "0.25.2"}


def test_doctor_says_the_break_once_from_the_installed_files(tmp_path: Path) -> None:
    # the generated rule asks what doctor reads in the files: doctor's own finding stands alone
    site = tmp_path / "site"
    copy_case("st-2.2.2-hub-0.26.0", site)
    _, report = doctor_report(site)
    rules = [f["rule"] for f in report["findings"] if not f["rule"].startswith("pip-check:")]
    assert rules == ["python-import:sentence-transformers:huggingface_hub:cached_download"]


def test_the_generated_rules_regenerate_from_the_table(tmp_path: Path) -> None:
    script = paths.REPO / "scripts" / "gen_import_table.py"
    done = subprocess.run(
        [sys.executable, str(script), "--rules-only", "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    rules = (paths.REPO / "compat" / "matrix" / "python-imports-table.yaml").read_text("utf-8")
    # every rule is one of the table's broken pairs whose importing module `import` runs
    for family in TABLE["families"]:
        for importer, releases in family["importers"].items():
            for rows in releases.values():
                for module, name, _where, reached in rows:
                    pair = family["pairs"][f"{module}:{name}"]
                    lacking, unknown = set(pair["lacking"]), set(pair["unknown"])
                    defined = set(family["releases"]) - lacking - unknown
                    rule = importtable.rule_id(importer, module, name)
                    if reached and lacking and defined:
                        assert f"- id: {rule}\n" in rules


def _script() -> Any:

    return load_script("gen_import_table")


@pytest.mark.parametrize("name", ["st-2.2.2-hub-0.25.2", "st-2.2.2-hub-0.26.0"])
def test_the_sample_re_read_route_agrees_with_the_table(name: str, tmp_path: Path) -> None:
    # the generation-time re-read reads a module straight from the wheel's zip: here a zip of
    # the real huggingface_hub release's files (tests/data/pyimports), against the table's row
    site = copy_case(name, tmp_path / "site")
    wheel = tmp_path / "hub.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path in (site / "huggingface_hub").rglob("*.py"):
            archive.write(path, str(path.relative_to(site)))
    case = next(c for c in MANIFEST["cases"] if c["name"] == name)
    release = _releases(case, "huggingface-hub")
    (family,) = [f for f in TABLE["families"] if f["defining"] == "huggingface-hub"]
    table_says = release not in family["pairs"]["huggingface_hub:cached_download"]["lacking"]
    again = _script().reread_defines(wheel, "huggingface_hub", "cached_download")
    assert again is table_says
    assert again is (case["import"]["result"] == "ok")  # and the real import agrees
