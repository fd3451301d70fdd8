"""`compat fleet --ray`: a real Ray cluster on 127.0.0.1 (head + 2 workers + 1 removed node).

The nodes differ the way a real fleet does: each raylet gets its own COMPAT_PATH (a site dir with
other versions) and COMPAT_HARDWARE (another hardware profile), and the Ray tasks inherit them.
Ray's loopback settings are test settings, not product ones (see research/fleet-ray.md), and
Ray reads them at import: they are set here, before anything imports ray. The tests never run
`ray stop` nor kill anything by name: the cluster's processes are the fixture's children.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Before `import ray` (ray_constants reads these at import).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # node IP 127.0.0.1, not eth0
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no phoning home
os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # no ~/.ray/auth_token
os.environ.setdefault("RAY_NUM_REDIS_GET_RETRIES", "3")  # a misconfiguration fails in minutes
_RAY_TMP = tempfile.mkdtemp(prefix="cr", dir="/tmp")  # AF_UNIX paths: keep it short
os.environ["RAY_TMPDIR"] = _RAY_TMP
# Made at import, so a run that only collects this module (or deselects its tests) made one too
# and left it in /tmp: gone when the process ends, whether the cluster started or not.
atexit.register(shutil.rmtree, _RAY_TMP, ignore_errors=True)

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from compat.fleet.report import expand_hostlist  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.dists import make_env  # noqa: E402

# One Ray cluster for the module: under pytest-xdist (scripts/test) every test here runs on the
# same worker (--dist loadgroup), so the machine never carries two clusters at once.
pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.xdist_group("ray-cluster"),
]

_NODE = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "object_store_memory": 80 * 2**20}
# The head without the processes `compat fleet` never uses: the dashboard (a web UI), the
# autoscaler's monitor and the log monitor (compat connects with log_to_driver=False). Each is a
# Python process importing much of Ray: ~2 s of CPU at the cluster's start on a 2-core machine
# (4.0 s -> 2.0 s of the head's start, measured in a cgroup; issue 45). The nodes keep every
# process `compat fleet` talks to (GCS, raylets, their runtime-env and dashboard agents).
_HEAD = {**_NODE, "include_dashboard": False, "no_monitor": True, "include_log_monitor": False}
_DRIVER_OK = "535.104.05"
_DRIVER_OLD = "520.61.05"  # below the CUDA 12 family floor (525.60.13)
USAGE = [
    "--set",
    "zero_stage=3",
    "--set",
    "offload_optimizer=cpu",
    "--set",
    "gradient_clipping=1.0",
]


def _profile(path: Path, driver: str, gpus: int, name: str) -> Path:
    path.write_text(
        json.dumps(
            {
                "schema": "compat.hardware/1",
                "driver_version": driver,
                "cuda_driver_version": "12.2" if driver == _DRIVER_OK else "11.8",
                "gpus": [
                    {"index": i, "name": name, "compute_capability": "8.0"} for i in range(gpus)
                ],
            }
        ),
        encoding="utf-8",
    )
    return path


def _site(path: Path, deepspeed: str, nccl: str) -> Path:
    return make_env(
        path,
        {
            "torch": "2.3.0+cu121",
            "deepspeed": deepspeed,
            "nvidia-nccl-cu12": nccl,
            "transformers": "4.40.0",
        },
    )


def _no_toolkit() -> dict[str, str]:
    """The machine's CUDA toolkit (nvcc) is a node fact; the nodes here must not see it."""
    path = [
        d
        for d in os.environ.get("PATH", "").split(os.pathsep)
        if d and not os.path.exists(os.path.join(d, "nvcc"))
    ]
    return {"PATH": os.pathsep.join(path), "CUDA_HOME": "", "CUDA_PATH": ""}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("fleet")
    same = {
        **_no_toolkit(),
        "COMPAT_PATH": str(_site(root / "site-a", "0.14.2", "2.20.5")),
        "COMPAT_HARDWARE": str(_profile(root / "a.json", _DRIVER_OK, 8, "NVIDIA A100-SXM4-80GB")),
    }
    other = {
        **_no_toolkit(),
        "COMPAT_PATH": str(_site(root / "site-b", "0.14.3", "2.21.5")),
        "COMPAT_HARDWARE": str(_profile(root / "b.json", _DRIVER_OLD, 4, "NVIDIA H100 80GB HBM3")),
    }
    started = time.monotonic()
    cluster = cluster_utils.Cluster(
        initialize_head=True, head_node_args={**_HEAD, "env_vars": same}
    )
    # The nodes start together (each waits on its own raylet otherwise), then are waited for.
    worker_a = cluster.add_node(wait=False, **_NODE, env_vars=same)
    worker_b = cluster.add_node(wait=False, **_NODE, env_vars=other)
    doomed = cluster.add_node(wait=False, **_NODE, env_vars=same)
    cluster.wait_for_nodes()
    doomed_id = doomed.node_id
    cluster.remove_node(doomed)  # killed before the fan-out: must be reported, not dropped
    info = {
        "cluster": cluster,
        "root": root,
        "address": cluster.address,
        "head": cluster.head_node.node_id,
        "a": worker_a.node_id,
        "b": worker_b.node_id,
        "dead": doomed_id,
        "start_s": time.monotonic() - started,
    }
    try:
        yield info
    finally:
        cluster.shutdown()
        shutil.rmtree(_RAY_TMP, ignore_errors=True)


def _members(group: dict[str, Any]) -> frozenset[str]:
    """The short Ray node ids of a group (its labels are hostname/first 8 hex digits)."""
    return frozenset(name.rsplit("/", 1)[1] for name in expand_hostlist(group["nodes"]))


def _short(cluster: dict[str, Any], *keys: str) -> frozenset[str]:
    return frozenset(cluster[key][:8] for key in keys)


def _fleet(cluster: dict[str, Any], *extra: str) -> Any:
    result = run_cli(["fleet", "--ray", cluster["address"], *USAGE, *extra])
    assert result.stderr == "" or "error" not in result.stderr, result.stderr
    return result


def test_merged_report_names_every_node_its_findings_and_what_differs(
    cluster: dict[str, Any],
) -> None:
    started = time.monotonic()
    result = _fleet(cluster, "--format", "json")
    fan_out_s = time.monotonic() - started
    assert result.exit_code == 3, result.stderr  # the removed node could not be checked
    document = result.json()
    assert document["schema"] == "compat.fleet/2"
    # head and a run in one state (the same stack and profile): one group, its report once.
    groups = {_members(g): g for g in document["groups"]}
    pair, alone, dead = (_short(cluster, *keys) for keys in (("head", "a"), ("b",), ("dead",)))
    assert set(groups) == {pair, alone, dead}
    assert groups[dead]["status"] == "dead" and groups[dead]["report"] is None
    assert [groups[pair]["count"], groups[alone]["count"], groups[dead]["count"]] == [2, 1, 1]
    for key in (pair, alone):
        assert groups[key]["status"] == "ok", groups[key]["error"]
        assert groups[key]["report"]["schema"] == "compat.report/1"
        assert "host" not in groups[key]["report"]
    # Per-group findings: ZeRO-3 clipping bug where deepspeed is 0.14.2, the driver floor on b.
    by_rule = {f["rule"]: f for f in document["findings"]}
    clip = by_rule["deepspeed-zero3-offload-clip-device-mismatch"]
    assert [g["group"] for g in clip["groups"]] == [groups[pair]["group"]]
    assert clip["count"] == 2 and clip["groups"][0]["status"] == "affected"
    floor = by_rule["cuda12-build-below-driver-floor"]
    assert [g["group"] for g in floor["groups"]] == [groups[alone]["group"]]
    # The facts that differ, with the value on each group of nodes.
    differing = {h["fact"]: h for h in document["heterogeneity"]}
    assert set(differing) == {
        "hardware.driver_version",
        "hardware.cuda_driver_version",
        "hardware.gpu_models",
        "hardware.gpu_count",
        "builds.nccl",
        "packages.deepspeed",
    }

    def values(fact: str) -> list[tuple[str, int, list[int]]]:
        return [(v["value"], v["count"], v["groups"]) for v in differing[fact]["values"]]

    assert values("hardware.driver_version") == [
        (_DRIVER_OK, 2, [groups[pair]["group"]]),
        (_DRIVER_OLD, 1, [groups[alone]["group"]]),
    ]
    assert values("packages.deepspeed") == [
        ("0.14.2", 2, [groups[pair]["group"]]),
        ("0.14.3", 1, [groups[alone]["group"]]),
    ]
    assert all(h["why"] for h in document["heterogeneity"])
    assert document["summary"] == {
        "nodes": 4,
        "groups": 3,
        "checked": 3,
        "unchecked": 1,
        "affected": 2,
        "possible": 0,
        "heterogeneous": 6,
    }
    print(f"\ncluster start {cluster['start_s']:.1f}s, fan-out on 3 nodes {fan_out_s:.1f}s")


def test_allow_missing_and_text_output(cluster: dict[str, Any]) -> None:
    result = _fleet(cluster, "--allow-missing")
    assert result.exit_code == 1  # findings and differing facts remain
    assert "DEAD: node is dead" in result.stdout
    assert f"/{cluster['dead'][:8]}" in result.stdout
    assert "NVIDIA driver [error]" in result.stdout
    assert f"{_DRIVER_OLD}: " in result.stdout and f"/{cluster['b'][:8]}" in result.stdout
    clean = run_cli(["fleet", "--ray", cluster["address"], "--allow-missing", "--fail-on", "never"])
    assert clean.exit_code == 0


def test_bad_config_is_one_error_before_any_node_runs(
    cluster: dict[str, Any], tmp_path: Path
) -> None:
    broken = tmp_path / "ds.json"
    broken.write_text("{", encoding="utf-8")
    result = run_cli(["fleet", "--ray", cluster["address"], "--deepspeed-config", str(broken)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and str(broken) in result.stderr


def test_a_node_that_does_not_answer_in_time_is_reported(cluster: dict[str, Any]) -> None:
    hang = Path(cluster["root"]) / "hang.sh"
    # Two clocks run here. The node's own: compat gives a --python interpreter 20 s to answer
    # (compat.facts.installed.read_python) and then reports an error. The fleet's deadline must
    # sit below it, or the node answers "error" before the deadline can say "timeout" (a deadline
    # of 20 s raced it; 45 s always lost). 18 s leaves the healthy nodes room on a loaded 2-core
    # machine (3 s when idle), and the hung one can answer only after 20 s of its own clock, which
    # starts after the fleet's.
    hang.write_text("#!/bin/sh\nexec sleep 600\n", encoding="utf-8")
    hang.chmod(0o755)
    slow = cluster["cluster"].add_node(
        **_NODE, env_vars={**_no_toolkit(), "COMPAT_PYTHON": str(hang)}
    )
    cluster["cluster"].wait_for_nodes()
    try:
        started = time.monotonic()
        result = _fleet(cluster, "--timeout", "18", "--format", "json")
        waited = time.monotonic() - started
    finally:
        cluster["cluster"].remove_node(slow)
    assert result.exit_code == 3
    groups = {_members(g): g for g in result.json()["groups"]}
    slow_group = groups[frozenset({slow.node_id[:8]})]
    assert slow_group["status"] == "timeout"
    assert slow_group["error"] == "no answer within 18s"
    ok = {node for members, g in groups.items() if g["status"] == "ok" for node in members}
    assert ok == _short(cluster, "head", "a", "b")
    assert waited < 40


def test_a_ray_or_python_version_mismatch_is_one_line(cluster: dict[str, Any]) -> None:
    # Ray keeps the versions the cluster was started with in GCS; a driver of other versions
    # is refused. Make this cluster claim another Python, then put the truth back.
    from ray._common.usage.usage_constants import CLUSTER_METADATA_KEY
    from ray._private import ray_constants
    from ray._raylet import GcsClient

    gcs = GcsClient(address=cluster["address"])
    namespace = ray_constants.KV_NAMESPACE_CLUSTER
    original = gcs.internal_kv_get(CLUSTER_METADATA_KEY, namespace=namespace)
    claimed = {**json.loads(original), "python_version": "3.99.0"}
    gcs.internal_kv_put(CLUSTER_METADATA_KEY, json.dumps(claimed).encode(), True, namespace)
    try:
        result = run_cli(["fleet", "--ray", cluster["address"]])
    finally:
        gcs.internal_kv_put(CLUSTER_METADATA_KEY, original, True, namespace)
    assert result.exit_code == 2
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        f"compat: error: --ray {cluster['address']}: Ray/Python version mismatch between this "
        f"compat (Ray {ray.__version__}, Python {sys.version_info[0]}.{sys.version_info[1]}."
    )
    assert "Python: 3.99.0" in first
    assert "(hint: run compat fleet with the cluster's" in first
    assert len(result.stderr.splitlines()) == 1


def _subprocess(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compat", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


def test_an_address_ray_cannot_use_is_one_line() -> None:
    # Not "no cluster at auto": Ray finds any cluster running on this machine (ps), so that
    # case depends on what else runs here.
    done = _subprocess(["fleet", "--ray", "nonsense:xyz"], {})
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        "compat: error: --ray nonsense:xyz: cannot connect to the Ray cluster: "
    )
    assert done.stderr.count("\n") == 1


def test_without_ray_installed_it_says_how_to_get_it(tmp_path: Path) -> None:
    shadow = tmp_path / "noray" / "ray"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('no ray here')\n", encoding="utf-8")
    done = _subprocess(["fleet", "--ray", "auto"], {"PYTHONPATH": str(shadow.parent)})
    assert done.returncode == 2
    [line] = done.stderr.splitlines()  # one line: the hint rides on it
    assert line.startswith("compat: error: --ray needs Ray in the environment compat runs in")
    assert "compat[ray]" in line
