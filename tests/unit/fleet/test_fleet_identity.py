"""`compat fleet` groups nodes by judged state, never by identity (issue 35 item 1).

Real doctor reports in two states (driver 535 and 550 on 8x A100), written for each node the way
a real cluster's nodes write them: their own host block, their own GPU UUIDs and PCI bus ids,
and an environment under a path that embeds the node's name. Identity never splits a group;
any judged fact (a package, the GPU model or count, the driver, a path that is not the node's
own name, a nested key that merely looks like identity) always does.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from compat.fleet.report import expand_hostlist
from tests.conftest import run_cli
from tests.dists import make_env

STACK = {"torch": "2.6.0+cu124", "vllm": "0.7.2", "xformers": "0.0.28.post3", "trl": "0.14.0"}
SITE = "state-site"


def _profile(path: Path, driver: str, cuda: str) -> Path:
    gpus = [
        {
            "index": i,
            "name": "NVIDIA A100-SXM4-80GB",
            "uuid": f"GPU-{uuid.UUID(int=i)}",
            "pci_bus_id": f"00000000:{0x07 + 0x10 * i:02X}:00.0",
            "compute_capability": "8.0",
        }
        for i in range(8)
    ]
    document = {"schema": "compat.hardware/1", "driver_version": driver, "gpus": gpus}
    path.write_text(json.dumps({**document, "cuda_driver_version": cuda}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("identity")


@pytest.fixture(scope="module")
def states(work: Path) -> list[str]:
    """Two doctor reports (as text), from a site under WORK/state-site/venv."""
    site = make_env(work / SITE / "venv" / "site-packages", STACK)
    texts = []
    for driver, cuda in (("535.104.05", "12.2"), ("550.54.15", "12.4")):
        profile = _profile(work / f"hw-{driver}.json", driver, cuda)
        result = run_cli(
            ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json"]
        )
        assert result.exit_code == 1, result.stderr
        assert str(site) in result.stdout  # the report names its environment's path
        texts.append(result.stdout)
    return texts


def _node(work: Path, state: str, name: str, index: int, *, home: str | None = None) -> Any:
    """The state as node `name` writes it: own host, GPU ids, and /scratch/<name>/venv."""
    report = json.loads(state.replace(str(work / SITE), f"/scratch/{home or name}"))
    report["host"] = {
        "hostname": f"{name}.cluster.example",
        "ip": f"10.0.{index // 256}.{index % 256}",
        "slurm_node": name,
    }
    for gpu in report["hardware"]["gpus"]:
        gpu["uuid"] = f"GPU-{uuid.uuid4()}"
        gpu["pci_bus_id"] = f"00000000:{(index + 0x10 * gpu['index']) % 256:02X}:00.0"
    return report


def _write(directory: Path, name: str, report: Any, indent: int | None = 2) -> None:
    directory.mkdir(exist_ok=True)
    text = json.dumps(report, indent=indent, ensure_ascii=indent is None)
    (directory / f"{name}.json").write_text(text + "\n", encoding="utf-8")


def _fleet(directory: Path) -> dict[str, Any]:
    result = run_cli(["fleet", "--reports", str(directory), "--format", "json"])
    assert result.exit_code == 1, result.stderr
    document: dict[str, Any] = result.json()
    return document


def test_real_nodes_in_two_states_are_two_groups(
    work: Path, states: list[str], tmp_path: Path
) -> None:
    directory = tmp_path / "r"
    for index in range(1, 201):
        name = f"node{index:03d}"
        _write(directory, name, _node(work, states[index % 10 == 7], name, index))
    document = _fleet(directory)
    groups = document["groups"]
    assert [(g["group"], g["count"], g["status"]) for g in groups] == [
        (1, 180, "ok"),
        (2, 20, "ok"),
    ]
    assert sorted(expand_hostlist(groups[1]["nodes"])) == [
        f"node{i:03d}" for i in range(7, 201, 10)
    ]
    for group in groups:
        report = group["report"]
        assert "host" not in report
        # GPU ids are identity: the group's GPUs keep their judged facts only.
        assert all("uuid" not in g and "pci_bus_id" not in g for g in report["hardware"]["gpus"])
        assert [g["name"] for g in report["hardware"]["gpus"]] == ["NVIDIA A100-SXM4-80GB"] * 8
        # A path that embedded the node's name names no node.
        assert report["environment"]["source"].startswith("path /scratch/{host}/venv/")
    driver = document["heterogeneity"][0]
    assert driver["fact"] == "hardware.driver_version"
    assert [(v["value"], v["count"], v["groups"]) for v in driver["values"]] == [
        ("535.104.05", 180, [1]),
        ("550.54.15", 20, [2]),
    ]
    assert not any("GPU-" in note for note in document["notes"])
    # The output grows with the states, not the nodes (nor their 1,600 GPU UUIDs).
    text = json.dumps(document)
    assert "GPU-" not in text and len(text) < 2 * len(states[0]) + 20_000


def test_judged_facts_always_split(work: Path, states: list[str], tmp_path: Path) -> None:
    directory = tmp_path / "r"
    for index in range(1, 5):
        _write(directory, f"a{index}", _node(work, states[0], f"a{index}", index))
    _write(directory, "a5", _node(work, states[0], "a5", 5), indent=None)  # compact, \u escapes
    seven = _node(work, states[0], "b1", 6)
    seven["hardware"]["gpus"].pop()
    _write(directory, "b1", seven)
    h100 = _node(work, states[0], "c1", 7)
    h100["hardware"]["gpus"][3]["name"] = "NVIDIA H100 80GB HBM3"
    _write(directory, "c1", h100)
    # A path with another node's name is a fact about this node, not its identity.
    _write(directory, "d1", _node(work, states[0], "d1", 8, home="a1"))
    # A nested key named like identity is judged like any other key.
    for name, value in (("e1", "x"), ("e2", "y")):
        report = _node(work, states[0], name, 9)
        report["usage"] = {"uuid": value}
        _write(directory, name, report)
    document = _fleet(directory)
    groups = {g["nodes"]: g["count"] for g in document["groups"]}
    assert groups == {"a[1-5]": 5, "b1": 1, "c1": 1, "d1": 1, "e1": 1, "e2": 1}
    numbers = {g["nodes"]: g["group"] for g in document["groups"]}
    facts = {h["fact"]: h for h in document["heterogeneity"]}
    count = {v["value"]: v["groups"] for v in facts["hardware.gpu_count"]["values"]}
    assert count == {"8": sorted(n for k, n in numbers.items() if k != "b1"), "7": [numbers["b1"]]}
    models = [v["value"] for v in facts["hardware.gpu_models"]["values"]]
    assert models == ["NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB, NVIDIA H100 80GB HBM3"]


def test_one_gpu_on_two_nodes_is_said(work: Path, states: list[str], tmp_path: Path) -> None:
    directory = tmp_path / "r"
    first = _node(work, states[0], "n1", 1)
    second = _node(work, states[0], "n2", 2)
    second["hardware"]["gpus"][0]["uuid"] = first["hardware"]["gpus"][0]["uuid"]
    _write(directory, "n1", first)
    _write(directory, "n2", second)
    document = _fleet(directory)
    assert [(g["nodes"], g["count"]) for g in document["groups"]] == [("n[1-2]", 2)]
    shared = first["hardware"]["gpus"][0]["uuid"]
    assert [n for n in document["notes"] if shared in n and "n[1-2]" in n]
