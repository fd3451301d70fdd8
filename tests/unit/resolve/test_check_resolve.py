"""`compat check` judges what will be installed: ranges at what the real resolver (pip and uv,
against the loopback index) picks, offline verdicts equal to online ones for a pinned file, and
torch's CUDA build from release, index lines and ranges — the CUDA 13 default on an R535 driver."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.resolve.sources import snapshot
from tests.checkcli import TOOLS, by_rule, check, write
from tests.conftest import run_cli
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.profiles import R535, R580

SARIF_SCHEMA = json.loads(paths.SARIF_SCHEMA.read_text())
CUDA13_RULE = "cuda13-build-on-pre-580-driver"
PEFT_RULE = "peft-0.14-needs-transformers-4.43"
INDEX = {
    "peft": [Dist("peft", "0.13.2"), Dist("peft", "0.14.0", requires=["transformers"])],
    "transformers": [Dist("transformers", "4.40.0"), Dist("transformers", "4.44.0")],
    "torch": [Dist("torch", "2.10.0"), Dist("torch", "2.11.0")],
    "deepspeed": [Dist("deepspeed", v) for v in ("0.14.1", "0.14.2", "0.14.4")],
}


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_an_unpinned_package_is_judged_at_what_the_resolver_installs(
    tmp_path: Path, tool: str
) -> None:
    requirements = write(tmp_path / "requirements.txt", "peft\ntransformers==4.40.0\n")
    with IndexServer(INDEX) as index:
        code, online = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    found = by_rule(online)[PEFT_RULE]
    assert found["status"] == "affected" and code == 1
    assert {"name": "peft", "version": "0.14.0", "source": f"{requirements}:1"} in found["packages"]
    # The report names the resolver and what it installed.
    assert any(n.startswith(f"judged the install {tool}") for n in online["notes"]), online["notes"]
    (install,) = online["environment"]["installs"]
    assert install["by"].startswith(tool) and install["packages"]["peft"] == "0.14.0"
    # Offline, the same question is solved over the shipped snapshot: a fresh install takes the
    # newest peft, which needs transformers 4.43 (issue 32 item 2) — affected as of the snapshot.
    code, offline = check(str(requirements), "--offline")
    found = by_rule(offline)[PEFT_RULE]
    assert found["status"] == "affected" and code == 1
    (peft,) = [p for p in found["packages"] if p["name"] == "peft"]
    newest = max(snapshot.releases(canonicalize_name("peft")))
    assert peft == {"name": "peft", "version": str(newest), "source": f"{requirements}:1"}
    (install,) = offline["environment"]["installs"]
    assert install["by"].startswith("compat's offline solve") and install["packages"]["peft"]


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_a_range_that_merely_admits_a_bad_release_is_a_note(tmp_path: Path, tool: str) -> None:
    requirements = write(tmp_path / "requirements.txt", "deepspeed>=0.14.1,<0.15\n")
    usage = ["--set", "zero_stage=3", "--set", "offload_optimizer=cpu", "--set", "gradient_clipping=1.0"]  # fmt: skip
    with IndexServer(INDEX) as index:
        code, report = check(
            str(requirements), *usage, "--index-url", index.url, "--resolver", tool
        )
    assert code == 0 and report["findings"] == []
    (note,) = [n for n in report["notes"] if "range note" in n]
    assert note.startswith(f"{requirements}:1:") and "picks 0.14.4" in note


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_a_pinned_file_gets_the_same_verdict_offline_and_online(tmp_path: Path, tool: str) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "peft==0.14.0\ntransformers==4.40.0\ntorch==2.11.0\n"
    )
    hardware = str(write(tmp_path / "r535.json", json.dumps(R535)))
    with IndexServer(INDEX) as index:
        _, online = check(str(requirements), "--hardware", hardware, "--index-url", index.url,
                          "--resolver", tool)  # fmt: skip
    _, offline = check(str(requirements), "--hardware", hardware, "--offline")
    assert online["findings"] == offline["findings"]
    assert {PEFT_RULE, CUDA13_RULE} <= set(by_rule(offline))


@pytest.mark.usefixtures("resolver_env")
def test_unpinned_torch_resolves_to_the_cuda13_default(tmp_path: Path, r535: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "numpy>=1\ntorch\n")
    index = dict(INDEX, numpy=[Dist("numpy", "2.1.0")])
    with IndexServer(index) as server:
        code, report = check(str(requirements), "--hardware", str(r535), "--index-url", server.url)
    found = by_rule(report)[CUDA13_RULE]
    assert code == 1 and found["status"] == "affected"
    assert found["packages"] == [
        {"name": "torch", "version": "2.11.0", "source": f"{requirements}:2"}
    ]


@pytest.mark.parametrize(
    ("text", "affected"),
    [
        ("torch==2.11.0\n", True),  # the PyPI default build of 2.11 is CUDA 13.0
        ("torch==2.10.0\n", False),  # 12.8: minor-version compatible with R535
        ("--extra-index-url https://download.pytorch.org/whl/cu130\ntorch==2.10.0\n", True),
        ("--index-url https://download.pytorch.org/whl/cu126\ntorch==2.11.0\n", False),
        ("--index-url https://download.pytorch.org/whl/cpu\ntorch==2.11.0\n", False),
        ("torch==2.11.0+cu128\n", False),
    ],
)
def test_torch_cuda_build_from_release_index_lines_and_labels(
    tmp_path: Path, r535: Path, text: str, affected: bool
) -> None:
    requirements = write(tmp_path / "requirements.txt", text)
    _, report = check(str(requirements), "--offline", "--hardware", str(r535))
    found = by_rule(report).get(CUDA13_RULE)
    assert (found is not None) is affected, report["notes"]  # CUDA 12.x builds get other rules
    if found is not None:
        line = text.count("\n")  # the torch line is the last one
        assert found["status"] == "affected"
        assert found["packages"][0]["name"] == "torch"
        assert found["packages"][0]["source"] == f"{requirements}:{line}"


def test_an_unpinned_torch_offline_is_judged_at_the_release_a_fresh_install_takes(
    tmp_path: Path, r535: Path
) -> None:
    requirements = write(tmp_path / "requirements.txt", "torch\n")
    _, report = check(str(requirements), "--offline", "--hardware", str(r535))
    found = by_rule(report)[CUDA13_RULE]  # the snapshot's newest torch: a CUDA 13 build
    assert found["status"] == "affected"
    (torch,) = found["packages"]
    assert torch["name"] == "torch" and torch["source"] == f"{requirements}:1"
    assert Version(torch["version"]) >= Version("2.11")  # a release, not "*" or "torch"


def test_a_torch_range_of_cuda13_releases_in_a_pyproject(tmp_path: Path, r535: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\nversion = "0"\ndependencies = [\n  "torch>=2.11,<=2.12.1",\n]\n',
    )
    _, report = check(str(pyproject), "--offline", "--hardware", str(r535))
    found = by_rule(report)[CUDA13_RULE]
    assert found["status"] == "affected"
    # the newest release the range allows, as pip takes it (the whole range is bad anyway)
    assert found["packages"] == [{"name": "torch", "version": "2.12.1", "source": f"{pyproject}:5"}]


def test_uv_sources_route_torch_to_a_pytorch_index(tmp_path: Path, r535: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==2.11.0"]\n\n'
        '[tool.uv.sources]\ntorch = { index = "pytorch-cu128" }\n\n'
        '[[tool.uv.index]]\nname = "pytorch-cu128"\nurl = "https://download.pytorch.org/whl/cu128"\n'
        "explicit = true\n",
    )
    _, report = check(str(pyproject), "--offline", "--hardware", str(r535))
    assert CUDA13_RULE not in by_rule(report)
    assert any("torch's CUDA build 12.8" in n for n in report["notes"])


# --- SARIF -----------------------------------------------------------------------------------


def sarif(*args: str) -> Any:
    result = run_cli(["check", "--offline", *args, "--format", "sarif"])
    assert result.exit_code in (0, 1), result.stderr
    document = json.loads(result.stdout)
    jsonschema.validate(document, SARIF_SCHEMA)
    return document


def test_sarif_results_always_carry_a_location(tmp_path: Path, r535: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "numpy\ntorch==2.11.0\n")
    document = sarif(str(requirements), "--hardware", str(r535))
    results = document["runs"][0]["results"]
    assert results and all(r.get("locations") for r in results)
    (cuda,) = [r for r in results if r["ruleId"] == CUDA13_RULE]
    region = cuda["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 2}


def test_a_clean_pinned_file_has_no_sarif_result(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "torch==2.11.0\ntransformers==4.57.3\npeft==0.17.1\n"
    )
    document = sarif(
        str(requirements), "--hardware", str(write(tmp_path / "h.json", json.dumps(R580)))
    )
    assert document["runs"][0]["results"] == []


def test_without_a_profile_hardware_only_questions_are_not_code_scanning_alerts(
    tmp_path: Path,
) -> None:
    requirements = write(tmp_path / "requirements.txt", "torch==2.11.0\n")
    document = sarif(str(requirements))
    assert document["runs"][0]["results"] == []  # only the driver could settle the CUDA 13 rule
    assert document["runs"][0]["properties"]["hardwareOnlyPossibleNotReported"] >= 1
    github = run_cli(["check", "--offline", str(requirements), "--format", "github"])
    assert "::" not in github.stdout and "depend only on the hardware" in github.stdout
    text = run_cli(["check", "--offline", str(requirements), "--format", "json"]).json()
    # JSON keeps everything: the check waits for a hardware profile, apart from the findings.
    assert CUDA13_RULE not in by_rule(text)
    assert CUDA13_RULE in {f["rule"] for f in text["needs_hardware"]}


def test_a_pyproject_with_its_lock_is_judged_by_the_lock_without_a_resolve(tmp_path: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "t"\nversion = "0.1"\ndependencies = ["deepspeed>=0.14"]\n',
    )
    lock = write(
        tmp_path / "uv.lock",
        'version = 1\nrevision = 3\nrequires-python = ">=3.10"\n\n'
        '[[package]]\nname = "deepspeed"\nversion = "0.14.2"\n'
        'source = { registry = "https://pypi.org/simple" }\n\n'
        '[[package]]\nname = "t"\nversion = "0.1"\nsource = { editable = "." }\n'
        'dependencies = [{ name = "deepspeed" }]\n',
    )
    usage = ["--set", "zero_stage=3", "--set", "offload_optimizer=cpu", "--set", "gradient_clipping=1.0"]  # fmt: skip
    # An index nobody listens on: a resolve would fail with exit 2.
    code, report = check(
        str(pyproject), str(lock), *usage, "--index-url", "http://127.0.0.1:9/simple"
    )
    assert code == 1
    found = by_rule(report)["deepspeed-zero3-offload-clip-device-mismatch"]
    assert found["status"] == "affected" and found["packages"][0]["source"] == f"{lock}:6"
