"""The import table's families beyond the first two (issue 41 item 2: compat/data/python-imports.json,
scripts/gen_import_table.py): one example row per family, stated here from the releases' own
files and upstream reports, that fails on a wrong table; and check and pin through the CLI with a
real index on 127.0.0.1 for a break the table found (PEFT 0.15 on accelerate before 0.32).

The truth beside the breaks: tests/data/pyimports/TABLE-TRUTH.json (the real ImportError of the
defining release, where its wheels import without torch, and the upstream reports of the same
line failing)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from compat.kb import importtable
from tests.checkcli import TOOLS, check, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.resolvers import pip_resolve

TABLE = json.loads(
    (Path(importtable.__file__).parent.parent / "data" / "python-imports.json").read_text("utf-8")
)
TRUTH = json.loads((paths.PYIMPORTS / "TABLE-TRUTH.json").read_text(encoding="utf-8"))

# (defining, importer, importer release, defining release, what breaks or None). Each break is
# an upstream-reported ImportError at the same file and line (TABLE-TRUTH.json); each clear row
# is the neighbouring release that defines the name (the release the reports' fix installs).
ROWS: tuple[tuple[str, str, str, str, tuple[str, str] | None], ...] = (
    (
        "huggingface-hub",
        "accelerate",
        "0.32.0",
        "0.20.3",
        ("huggingface_hub", "split_torch_state_dict_into_shards"),
    ),
    ("huggingface-hub", "accelerate", "0.32.0", "0.21.0", None),
    (
        "huggingface-hub",
        "accelerate",
        "0.33.0",
        "0.18.0",
        ("huggingface_hub", "split_torch_state_dict_into_shards"),
    ),
    # huggingface_hub 0.21.0 has no huggingface_hub.errors at all: PEFT 0.13.2's
    # `from huggingface_hub.errors import HFValidationError` fails on the module
    # (ModuleNotFoundError), as huggingface/peft#2097 reports for 0.19.4
    ("huggingface-hub", "peft", "0.13.2", "0.21.0", ("huggingface_hub.errors", "")),
    (
        "huggingface-hub",
        "peft",
        "0.13.2",
        "0.22.0",
        ("huggingface_hub.errors", "HFValidationError"),
    ),
    ("huggingface-hub", "peft", "0.13.2", "0.23.0", None),
    (
        "accelerate",
        "peft",
        "0.15.2",
        "0.30.1",
        ("accelerate.utils.memory", "clear_device_cache"),
    ),
    ("accelerate", "peft", "0.15.2", "0.33.0", None),
    ("accelerate", "peft", "0.13.2", "0.30.1", None),  # before PEFT imported it
)


def _broken(table: Any, row: tuple[str, str, str, str, Any]) -> list[tuple[str, str]]:
    defining, importer, importer_release, defining_release, _ = row
    found = importtable.broken(
        importer, importer_release, defining, defining_release, importtable._families(table)
    )
    return [(b.module, b.name) for b in found if b.reached]


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r[1]}-{r[2]}+{r[0]}-{r[3]}")
def test_the_table_says_what_the_releases_do(row: tuple[str, str, str, str, Any]) -> None:
    assert _broken(TABLE, row) == ([row[4]] if row[4] else [])


@pytest.mark.parametrize("row", [r for r in ROWS if r[4]], ids=lambda r: f"{r[1]}-{r[2]}+{r[3]}")
def test_a_wrong_table_fails_the_example_row(row: tuple[str, str, str, str, Any]) -> None:
    # the defining release said to define the name: the break is no longer seen
    defining, importer, importer_release, defining_release, (module, name) = row
    wrong = copy.deepcopy(TABLE)
    (family,) = [f for f in wrong["families"] if f["defining"] == defining]
    family["pairs"][f"{module}:{name}"]["lacking"].remove(defining_release)
    assert (module, name) not in _broken(wrong, row)
    # the importer's row pointed at a module `import` does not run: no longer `affected`
    wrong = copy.deepcopy(TABLE)
    (family,) = [f for f in wrong["families"] if f["defining"] == defining]
    for r in family["importers"][importer][importer_release]:
        r[3] = False
    assert _broken(wrong, row) == []


def _truth(row: tuple[str, str, str, str, Any]) -> dict[str, Any] | None:
    """The recorded truth of the row's two releases (TABLE-TRUTH.json), if any."""
    _defining, importer, importer_release, defining_release, _ = row
    return next(
        (
            t
            for t in TRUTH["breaks"]
            if t["importer"] == f"{importer}=={importer_release}"
            and t["defining"].partition("==")[2] == defining_release
        ),
        None,
    )


@pytest.mark.parametrize(
    "row", [r for r in ROWS if r[4] and _truth(r)], ids=lambda r: f"{r[1]}-{r[2]}+{r[3]}"
)
def test_the_row_is_the_line_upstream_reports_failing(row: tuple[str, str, str, str, Any]) -> None:
    defining, importer, importer_release, defining_release, (module, name) = row
    (b,) = importtable.broken(importer, importer_release, defining, defining_release)
    truth = _truth(row)
    assert truth is not None and b.where == truth["line"]
    error = (
        f"ImportError: cannot import name '{name}' from '{module}'"
        if name
        else f"ModuleNotFoundError: No module named '{module}'"
    )
    assert truth["error"].startswith(error)
    if "defining import" in truth:  # the real import of the name from the real release
        assert truth["defining import"]["result"].startswith(error)


def test_a_row_explain_and_doctor_cannot_see_from_import_stays_possible() -> None:
    # trl 1.0.0's trl/models/utils.py imports FSDPModule (torch 2.6+); `import trl` does not run
    # it (its trainers do): the pair is in the table, never `affected`, never a check finding
    (b,) = importtable.broken("trl", "1.0.0", "torch", "2.5.1")
    truth = next(t for t in TRUTH["breaks"] if t["importer"] == "trl==1.0.0")
    assert (b.module, b.name, b.where, b.reached) == (
        "torch.distributed.fsdp",
        "FSDPModule",
        truth["line"],
        False,
    )
    assert "2.6.0" in b.defined_in and "2.5.1" not in b.defined_in
    assert importtable.broken("trl", "1.0.0", "torch", "2.6.0") == []


@pytest.mark.usefixtures("resolver_env")
def test_check_is_silent_on_a_module_import_does_not_run(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "trl==1.0.0\ntorch==2.5.1\n")
    index = {"trl": [Dist("trl", "1.0.0")], "torch": [Dist("torch", "2.5.1")]}
    with IndexServer(index) as server:
        _code, report = check(str(requirements), "--index-url", server.url, "--resolver", "pip")
    assert report["environment"]["installs"][0]["packages"]["torch"] == "2.5.1"
    assert [f for f in report["findings"] if f["kind"] == "python"] == []
    assert not [f for f in report["findings"] if f["rule"].startswith("import-table-trl")]


# (family, "module:name" an importer imports, a read release that defines it): the families
# whose read releases all define what their importers use. A wrong row (the release said to
# lack it) must change the releases explain names.
DEFINED = (
    ("datasets", "datasets:Dataset", "2.14.7"),  # trl's `from datasets import Dataset`
    ("tokenizers", "tokenizers:Tokenizer", "0.13.3"),  # transformers' tokenization_utils_fast
    ("peft", "peft:LoraConfig", "0.6.2"),  # openrlhf/models/actor.py
    ("deepspeed", "deepspeed.ops.adam:DeepSpeedCPUAdam", "0.12.6"),  # openrlhf's strategy
    ("vllm", "vllm:SamplingParams", "0.6.6.post1"),  # openrlhf's vllm engine
    ("torch", "torch.distributed.fsdp:FSDPModule", "2.6.0"),
)


@pytest.mark.parametrize("row", DEFINED, ids=lambda r: r[0])
def test_each_family_names_the_releases_that_define_a_name(row: tuple[str, str, str]) -> None:
    defining, key, release = row
    (family,) = [f for f in importtable._families(TABLE) if f.defining == defining]
    assert release in importtable.defined_in(family, key)
    wrong = copy.deepcopy(TABLE)
    (raw,) = [f for f in wrong["families"] if f["defining"] == defining]
    raw["pairs"][key]["lacking"].append(release)
    (family,) = [f for f in importtable._families(wrong) if f.defining == defining]
    assert release not in importtable.defined_in(family, key)


INDEX = {
    "peft": [
        Dist("peft", "0.13.2", requires=["accelerate>=0.21.0"]),
        Dist("peft", "0.15.2", requires=["accelerate>=0.21.0"]),
    ],
    "accelerate": [Dist("accelerate", "0.30.1"), Dist("accelerate", "1.6.0")],
}


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_check_reports_peft_on_an_old_pinned_accelerate(tmp_path: Path, tool: str) -> None:
    # an old lock's accelerate pin with PEFT left open: the resolver takes PEFT 0.15.2, whose
    # peft/utils/loftq_utils.py imports clear_device_cache at `import peft`
    requirements = write(tmp_path / "requirements.txt", "accelerate==0.30.1\npeft\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    (install,) = report["environment"]["installs"]
    assert install["packages"]["peft"] == "0.15.2"
    found = [f for f in report["findings"] if f["kind"] == "python"]
    assert [f["rule"] for f in found] == [
        "python-import:peft:accelerate.utils.memory:clear_device_cache"
    ]
    assert found[0]["status"] == "affected" and code == 1
    assert "peft/utils/loftq_utils.py" in found[0]["title"]
    assert not [f for f in report["findings"] if f["rule"].startswith("import-table-")]
    # the newer accelerate defines it: the same file with accelerate open is clean
    write(requirements, "accelerate\npeft\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    assert [f for f in report["findings"] if f["kind"] == "python"] == []


@pytest.mark.usefixtures("resolver_env")
def test_pin_keeps_peft_below_the_break_and_real_pip_accepts_it(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "accelerate==0.30.1\npeft\n")
    with IndexServer(INDEX) as index:
        result = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url])
        assert result.exit_code == 0, result.stderr
        constraints = write(tmp_path / "constraints.txt", result.stdout)
        resolved = pip_resolve(index.url, constraints, ["accelerate==0.30.1", "peft"], tmp_path)
    assert resolved == {"accelerate": "0.30.1", "peft": "0.13.2"}, result.stdout
    assert "import-table-peft-accelerate-utils-memory-clear-device-cache" in result.stdout


@pytest.mark.usefixtures("resolver_env")
def test_check_names_the_missing_module_once(tmp_path: Path) -> None:
    # huggingface_hub 0.21.0 has no huggingface_hub.errors: PEFT 0.13.2 fails on the module,
    # and the generated rules of the names it imports from there are not said again
    requirements = write(tmp_path / "requirements.txt", "peft==0.13.2\nhuggingface_hub==0.21.0\n")
    index = {
        "peft": [Dist("peft", "0.13.2", requires=["huggingface-hub>=0.17.0"])],
        "huggingface-hub": [Dist("huggingface-hub", "0.21.0")],
    }
    with IndexServer(index) as server:
        code, report = check(str(requirements), "--index-url", server.url, "--resolver", "pip")
    found = [f for f in report["findings"] if f["kind"] == "python"]
    assert [f["rule"] for f in found] == ["python-import:peft:huggingface_hub.errors"]
    assert "No module named 'huggingface_hub.errors'" in found[0]["title"]
    assert found[0]["status"] == "affected" and code == 1
    assert not [f for f in report["findings"] if f["rule"].startswith("import-table-peft-")]
