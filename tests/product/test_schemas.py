"""schema/: the published JSON Schemas of compat's documents (issue 35 item 5).

Every command that writes JSON writes a document that validates against the schema it names
(tests/conftest.py checks every document the suite's CLI runs produce; this test makes sure each
kind is produced at least once, from the suite's fixtures). The schemas are real checks — a
document that breaks the contract fails — and accept what the contract calls additive.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths
from tests.lib.schemas import SCHEMA_DIR, SCHEMAS, problems

# One worker runs this file: its `documents` are seven compat runs (a pin of a 4-package stack
# among them, ~6 s of CPU together), which every xdist worker that ran one of its tests built
# again (85 s summed in a loaded --fast run; issue 45).
pytestmark = pytest.mark.xdist_group("schemas")
STACK = {"torch": "2.6.0+cu124", "vllm": "0.7.2", "deepspeed": "0.14.2", "trl": "0.14.0"}
NATIVE = {"files": 3, "read": 2, "unreadable": [], "torch_arch_list": ["sm_80"]}
PROFILE = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [
        {
            "index": i,
            "name": "NVIDIA A100-SXM4-80GB",
            "uuid": f"GPU-0000000{i}-0000-0000-0000-000000000000",
            "pci_bus_id": f"00000000:{0x07 + 0x10 * i:02X}:00.0",
            "compute_capability": "8.0",
        }
        for i in range(2)
    ],
}


@pytest.mark.parametrize("name", sorted(SCHEMAS.values()))
def test_each_schema_is_a_draft_2020_12_schema_named_by_its_id(name: str) -> None:
    schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"].endswith(f"/schema/{name}")


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One document of each kind, written by the CLI from the suite's fixtures."""
    tmp = tmp_path_factory.mktemp("documents")
    site = make_env(tmp / "site", STACK)
    profile = tmp / "hw.json"
    profile.write_text(json.dumps(PROFILE), encoding="utf-8")
    reports = tmp / "reports"
    reports.mkdir()
    found: dict[str, Any] = {}
    doctor = ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json"]
    for node in ("gpu01", "gpu02"):
        result = run_cli([*doctor, "-o", str(reports / f"{node}.json")])
        assert result.exit_code == 1, result.stderr
        report = json.loads((reports / f"{node}.json").read_text(encoding="utf-8"))
        report["host"] = {"hostname": node, "ip": None, "slurm_node": node}
        (reports / f"{node}.json").write_text(json.dumps(report), encoding="utf-8")
    found["compat.report/1 doctor"] = report
    requirements = tmp / "requirements.txt"
    requirements.write_text("torch==2.6.0\nvllm==0.7.2\n", encoding="utf-8")
    check = ["check", str(requirements), "--offline", "--hardware", str(profile)]
    found["compat.report/1 check"] = run_cli([*check, "--format", "json"]).json()
    found["compat.fleet/2"] = run_cli(["fleet", "--reports", str(reports), "-f", "json"]).json()
    log = paths.LOGS / "composed-deepspeed-cuda-major-mismatch.log"
    explain = ["explain", str(log), "--path", str(site), "--no-probe", "--format", "json"]
    found["compat.explain/1"] = run_cli(explain).json()
    found["compat.hardware/1"] = run_cli(["probe", "--format", "json"]).json()
    pin = ["pin", "--path", str(site), "--no-probe", "--offline", "--format", "json"]
    found["compat.pin/1"] = run_cli([*pin, "--index-url", "http://127.0.0.1:9/simple"]).json()
    return found


def test_every_command_writes_documents_its_schema_accepts(documents: dict[str, Any]) -> None:
    for what, document in documents.items():
        assert document["schema"] == what.split()[0]
        assert problems(document) == [], what
    assert {d["schema"] for d in documents.values()} == set(SCHEMAS)
    # The fleet's group report is a compat.report/1 without identity, and validates as one.
    group = documents["compat.fleet/2"]["groups"][0]
    assert group["count"] == 2 and problems(group["report"]) == []


def _broken(document: dict[str, Any], change: str) -> dict[str, Any]:
    broken = copy.deepcopy(document)
    exec(change, {"d": broken})  # one edit, written as Python for the table below
    return broken


@pytest.mark.parametrize(
    ("kind", "change", "where"),
    [
        ("compat.report/1 doctor", "del d['findings']", "(top)"),
        ("compat.report/1 doctor", "d['findings'][0]['status'] = 'maybe'", "findings/0/status"),
        ("compat.report/1 doctor", "d['findings'][0]['severity'] = 'fatal'", "findings/0/severity"),
        ("compat.report/1 doctor", "d['hardware']['gpus'][0]['name'] = 3", "hardware/gpus/0/name"),
        ("compat.report/1 check", "d['summary']['affected'] = -1", "summary/affected"),
        ("compat.fleet/2", "d['groups'][0]['count'] = 0", "groups/0/count"),
        ("compat.fleet/2", "d['groups'][0]['status'] = 'gone'", "groups/0/status"),
        ("compat.fleet/2", "del d['groups'][0]['report']['findings']", "groups/0/report"),
        ("compat.explain/1", "d['matches'] = {}", "matches"),
        ("compat.hardware/1", "d['platform'] = 'plan9'", "platform"),
        ("compat.pin/1", "d['offline'] = 'yes'", "offline"),
    ],
)
def test_a_document_that_breaks_the_contract_fails(
    documents: dict[str, Any], kind: str, change: str, where: str
) -> None:
    found = problems(_broken(documents[kind], change))
    assert found and found[0].startswith(f"{where}:"), found


@pytest.mark.parametrize(
    ("kind", "change"),
    [
        # Extension points the contract names: other work adds these (issue 33), and a reader of
        # /1 must accept them.
        ("compat.report/1 doctor", f"d['environment']['native'] = {NATIVE!r}"),
        ("compat.report/1 doctor", "d['findings'][0]['kind'] = 'binary'"),
        ("compat.report/1 doctor", "d['findings'][0]['evidence'] = 'observed'"),
        ("compat.report/1 doctor", "d['hardware']['nvlink'] = {'links': 12}"),
        ("compat.report/1 doctor", "d['a_key_added_later'] = 1"),
        ("compat.explain/1", "d['binary'] = [{'file': 'libtorch_cuda.so', 'arch': ['sm_80']}]"),
        ("compat.hardware/1", "d['gpus'] = [{'name': 'NVIDIA H100', 'numa_node': 1}]"),
    ],
)
def test_what_the_contract_calls_additive_validates(
    documents: dict[str, Any], kind: str, change: str
) -> None:
    assert problems(_broken(documents[kind], change)) == []


def test_documents_in_output_files_are_checked_too(tmp_path: Path) -> None:
    """The conftest hook reads `-o FILE`: a test that writes a broken document fails."""
    from tests.lib.schemas import check_output

    bad = tmp_path / "out.json"
    bad.write_text(json.dumps({"schema": "compat.fleet/2", "groups": "none"}), encoding="utf-8")
    with pytest.raises(AssertionError, match=r"compat-fleet-2\.schema\.json"):
        check_output(["fleet", "-o", str(bad)], "")


def test_every_document_validates_with_a_plain_validate_and_no_registry(
    documents: dict[str, Any],
) -> None:
    """What a user of the published schemas does: `jsonschema.validate(document, schema)` on one
    file, no registry, no network. A `$ref` to another file (resolved against the `$id`'s host)
    would make this fetch, and fail."""
    for what, document in documents.items():
        name = SCHEMAS[what.split()[0]]
        schema = json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))
        jsonschema.validate(document, schema)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**document, "schema": "not-ours"}, schema)
    fleet = json.loads((SCHEMA_DIR / "compat-fleet-2.schema.json").read_text(encoding="utf-8"))
    broken = copy.deepcopy(documents["compat.fleet/2"])
    broken["groups"][0]["report"]["hardware"] = {"schema": "compat.hardware/1", "gpus": "x"}
    with pytest.raises(jsonschema.ValidationError):  # the embedded hardware schema judges too
        jsonschema.validate(broken, fleet)


@pytest.mark.parametrize("name", sorted(SCHEMAS.values()))
def test_no_schema_refers_outside_itself(name: str) -> None:
    text = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    refs = set(_all_refs(json.loads(text)))
    assert all(ref.startswith("#/") for ref in refs), refs


def _all_refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [ref for value in node.values() for ref in _all_refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in _all_refs(value)]
    return []


def test_the_embedded_copies_equal_the_schemas_they_copy() -> None:
    import subprocess
    import sys

    script = paths.REPO / "scripts" / "bundle_schemas.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
