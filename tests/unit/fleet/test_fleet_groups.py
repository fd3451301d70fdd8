"""`compat fleet` groups nodes whose reports are identical apart from the host (compat.fleet/2).

Real doctor reports of one stack on 8x A100 in two states (driver 535 and 550), copied to many
nodes with their own host the way `srun compat doctor -o reports/%N.json` leaves them; the merge
must keep one report per state, name the nodes in compressed hostlist form, and never group two
reports that differ anywhere but in `host`, whatever their formatting.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from compat.fleet.report import compress_hostlist, expand_hostlist
from tests.conftest import run_cli
from tests.dists import make_env

STACK = {"torch": "2.6.0+cu124", "vllm": "0.7.2", "xformers": "0.0.28.post3", "trl": "0.14.0"}


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("states")
    site = make_env(tmp / "site", STACK)
    documents = []
    for driver, cuda in (("535.104.05", "12.2"), ("550.54.15", "12.4")):
        profile = tmp / f"hw-{driver}.json"
        gpus = [
            {"index": i, "name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}
            for i in range(8)
        ]
        profile.write_text(
            json.dumps(
                {
                    "schema": "compat.hardware/1",
                    "driver_version": driver,
                    "cuda_driver_version": cuda,
                    "gpus": gpus,
                }
            ),
            encoding="utf-8",
        )
        result = run_cli(
            ["doctor", "--path", str(site), "--hardware", str(profile), "--format", "json"]
        )
        assert result.exit_code == 1, result.stderr  # the stack has findings
        documents.append(result.json())
    return documents


def _write(directory: Path, name: str, report: dict[str, Any], indent: int | None = 2) -> None:
    directory.mkdir(exist_ok=True)
    text = json.dumps(report, indent=indent, ensure_ascii=False)
    (directory / f"{name}.json").write_text(text + "\n", encoding="utf-8")


def _node(state: dict[str, Any], name: str, index: int) -> dict[str, Any]:
    host = {"hostname": f"{name}.example", "ip": f"10.0.{index // 256}.{index % 256}"}
    return {**state, "host": {**host, "slurm_node": name}}


def _fleet(directory: Path, *more: str) -> dict[str, Any]:
    result = run_cli(["fleet", "--reports", str(directory), "--format", "json", *more])
    assert result.exit_code == 1, result.stderr
    document: dict[str, Any] = result.json()
    return document


def test_identical_nodes_form_groups_named_as_a_hostlist(
    tmp_path: Path, states: list[dict[str, Any]]
) -> None:
    for index in range(1, 301):
        state = states[1] if index % 10 == 7 else states[0]
        _write(tmp_path / "r", f"node{index:03d}", _node(state, f"node{index:03d}", index))
    document = _fleet(tmp_path / "r")
    groups = document["groups"]
    assert [(g["group"], g["count"], g["status"]) for g in groups] == [
        (1, 270, "ok"),
        (2, 30, "ok"),
    ]
    assert groups[1]["nodes"] == "node[" + ",".join(f"{i:03d}" for i in range(7, 301, 10)) + "]"
    assert sorted(expand_hostlist(groups[0]["nodes"])) == [
        f"node{i:03d}" for i in range(1, 301) if i % 10 != 7
    ]
    assert groups[0]["report"]["hardware"]["driver_version"] == "535.104.05"
    assert groups[1]["report"]["hardware"]["driver_version"] == "550.54.15"
    # Each finding says on how many nodes, in which groups.
    pin = {f["rule"]: f for f in document["findings"]}["vllm-torch-pin-mismatch"]
    assert pin["count"] == 300 and [g["count"] for g in pin["groups"]] == [270, 30]
    driver = document["heterogeneity"][0]
    assert driver["fact"] == "hardware.driver_version"
    assert [(v["value"], v["count"], v["groups"]) for v in driver["values"]] == [
        ("535.104.05", 270, [1]),
        ("550.54.15", 30, [2]),
    ]
    assert document["summary"] == {
        "nodes": 300,
        "groups": 2,
        "checked": 300,
        "unchecked": 0,
        "affected": document["summary"]["affected"],
        "possible": document["summary"]["possible"],
        "heterogeneous": 2,
    }
    # The output grows with the states, not with the nodes: ten times the nodes, a few bytes
    # more of hostlist.
    small = run_cli(["fleet", "--reports", str(tmp_path / "r"), "--format", "json"]).stdout
    for index in range(301, 3001):
        state = states[1] if index % 10 == 7 else states[0]
        _write(tmp_path / "r", f"node{index:04d}", _node(state, f"node{index:04d}", index))
    large = run_cli(["fleet", "--reports", str(tmp_path / "r"), "--format", "json"]).stdout
    assert large.count('"schema": "compat.report/1"') == 2
    assert len(large) < len(small) + 40_000


def test_every_format_shows_groups(tmp_path: Path, states: list[dict[str, Any]]) -> None:
    for index in range(1, 9):
        _write(
            tmp_path / "r", f"gpu{index:02d}", _node(states[index > 6], f"gpu{index:02d}", index)
        )
    text = run_cli(["fleet", "--reports", str(tmp_path / "r"), "--nodes", "gpu[01-10]"]).stdout
    assert "10 nodes in 3 groups, 8 checked" in text
    assert "  [1] gpu[01-06]\n      6 nodes, ok: " in text
    assert "  [3] gpu[09-10]\n      2 nodes, MISSING: no report" in text
    assert "    535.104.05: 6 nodes (group 1)\n    550.54.15: 2 nodes (group 2)\n" in text
    assert "affected on all 8 nodes checked (groups 1, 2)" in text
    markdown = run_cli(["fleet", "--reports", str(tmp_path / "r"), "-f", "markdown"]).stdout
    assert "| 1 | gpu[01-06] | 6 | ok: " in markdown and "| 2 | gpu[07-08] | 2 | ok: " in markdown


def test_formatting_does_not_split_a_group_and_content_always_does(
    tmp_path: Path, states: list[dict[str, Any]]
) -> None:
    directory = tmp_path / "r"
    _write(directory, "a1", _node(states[0], "a1", 1))
    _write(directory, "a2", _node(states[0], "a2", 2), indent=None)  # compact: same state
    _write(directory, "a3", {**_node(states[0], "a3", 3), "host": None})
    # Equal bytes around a span that is not the top-level host must not pass for one state:
    # a nested "host" at the indentation doctor gives top-level keys, in reports that differ.
    # (Both from one host: the top-level host is equal too, and the file names tell them apart.)
    base = json.dumps(_node(states[0], "b", 4), indent=2)
    for name, value in (("b1", "x"), ("b2", "y")):
        nested = f'"usage": {{"k": 1,\n  "host": {{\n "v": "{value}"\n  }}}},\n  '
        text = base.replace('"usage": ', nested + '"was_usage": ', 1)
        (directory / f"{name}.json").write_text(text, encoding="utf-8")
    groups = {g["nodes"]: g for g in _fleet(directory)["groups"]}
    assert set(groups) == {"a[1-3]", "b1", "b2"}
    assert groups["b1"]["report"]["usage"]["host"] == {"v": "x"}
    assert groups["b2"]["report"]["usage"]["host"] == {"v": "y"}


@pytest.mark.parametrize(
    ("names", "hostlist"),
    [
        (["gpu01", "gpu02", "gpu03", "gpu07", "login1"], "gpu[01-03,07],login1"),
        (["n9", "n10", "n11"], "n9,n[10-11]"),
        (["rack1-node001", "rack1-node002", "rack2-node001"], "rack1-node[001-002],rack2-node001"),
        (["a1b", "a2b", "a3c"], "a[1-2]b,a3c"),
        (["head", "<script>x", "gpu[1]"], "<script>x,gpu[1],head"),
        ([], ""),
    ],
)
def test_compress_hostlist(names: list[str], hostlist: str) -> None:
    assert compress_hostlist(names) == hostlist
    if "[" not in "".join(names) and names:
        assert sorted(expand_hostlist(hostlist)) == sorted(names)


def test_reports_without_a_host_are_named_by_their_files_and_grouped(
    tmp_path: Path, states: list[dict[str, Any]]
) -> None:
    """Reports from before 0.2 (no `host`): byte-equal files are one state, named by file."""
    directory = tmp_path / "r"
    old = {key: value for key, value in states[0].items() if key not in ("host", "stack")}
    for index in range(1, 6):
        _write(directory, f"n{index}", old)
    _write(directory, "n6", {**old, "usage": {"zero_stage": 3}})
    groups = [(g["nodes"], g["count"]) for g in _fleet(directory)["groups"]]
    assert groups == [("n[1-5]", 5), ("n6", 1)]
