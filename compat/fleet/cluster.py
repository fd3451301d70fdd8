"""`compat fleet --ray ADDRESS`: doctor on every node of a Ray cluster, one pinned task each.

The only module that imports Ray, and only when this command runs. Per alive node: one task
with no CPU and no GPU (it schedules on a busy cluster and takes nothing from training), pinned
to the node by NodeAffinitySchedulingStrategy(soft=False) — node ids, not IP resources, because
several nodes can share an IP. The tasks run compat/fleet/node.py, shipped to the nodes with the
job's runtime_env, so compat need not be installed there. All waits are bounded; a dead node,
a node that cannot run the task, and one that does not answer in time are results, not silence.

Each task has two return objects: a small head (the digest of the node's report apart from its
identity, and that identity: host, GPU ids) and the report without identity. The driver reads
every head but fetches one report per distinct state, so nodes in one state send their report once. (Ray inlines return objects
under 100 KiB into the task's reply, so the saving is in the reports larger than that, which Ray
keeps in the node's object store until fetched.)

Ray lets a driver connect only when its Ray and Python versions match the cluster's; a mismatch
is one line and exit 2 (the user ran compat from the wrong environment: run it with the
cluster's interpreter, e.g. `ray job submit -- compat fleet --ray auto`).
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from compat.errors import UsageError
from compat.fleet.report import OK, NodeResult

# What doctor imports besides the standard library; shipped when the driver has them.
_SHIPPED = ("compat", "packaging", "yaml", "pynvml", "tomli")


# Older Ray releases set CUDA_VISIBLE_DEVICES="" in tasks that ask for no GPU (2.60 no longer
# does by default); the probe honours that variable, so it would see no GPU. The node's own
# value is the fact to report: tell Ray to leave it alone for this job's workers.
_KEEP_VISIBLE_DEVICES = {
    "RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES": "1",
    "RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO": "0",
}


def _shipped_modules() -> list[ModuleType]:
    modules = []
    for name in _SHIPPED:
        try:
            modules.append(importlib.import_module(name))
        except ImportError:
            continue  # tomli below 3.11 only; pynvml: nodes degrade to "NVML library not found"
    return modules


def _one_line(error: BaseException, limit: int = 500) -> str:
    """Ray's errors carry remote tracebacks: one line, and not a page of it."""
    text = " ".join(str(error).split()) or error.__class__.__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise UsageError(
            "--ray needs Ray in the environment compat runs in",
            hint="pip install 'compat[ray]' into the cluster's Python environment "
            "(its Ray and Python versions must match the cluster's)",
        ) from None
    return ray


def _connect(ray: Any, address: str) -> None:
    try:
        ray.init(
            address=address,
            runtime_env={"py_modules": _shipped_modules(), "env_vars": _KEEP_VISIBLE_DEVICES},
            log_to_driver=False,
            logging_level="ERROR",
            configure_logging=True,
        )
    except Exception as error:
        with contextlib.suppress(Exception):  # a half-made connection would outlive the command
            ray.shutdown()
        text = _one_line(error)
        python = ".".join(str(part) for part in sys.version_info[:3])
        if "version mismatch" in text.lower():
            raise UsageError(
                f"--ray {address}: Ray/Python version mismatch between this compat "
                f"(Ray {ray.__version__}, Python {python}) and the cluster: {text}",
                hint="run compat fleet with the cluster's Python environment, e.g. "
                "`ray job submit -- compat fleet --ray auto`",
            ) from None
        raise UsageError(f"--ray {address}: cannot connect to the Ray cluster: {text}") from None


def collect(address: str, inputs: Mapping[str, Any], timeout: float) -> list[NodeResult]:
    """One NodeResult per node Ray knows (alive or dead), in ray.nodes() order."""
    ray = _import_ray()
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    from compat.fleet.node import node_state

    _connect(ray, address)
    try:
        nodes = ray.nodes()
        task = ray.remote(num_cpus=0, num_gpus=0, max_retries=0, num_returns=2)(node_state)
        pending: dict[str, Any] = {}  # node id -> (head ref, report ref)
        for node in nodes:
            if node.get("Alive"):
                strategy = NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False)
                pending[node["NodeID"]] = task.options(scheduling_strategy=strategy).remote(
                    dict(inputs)
                )
        ready: set[Any] = set()
        if pending:
            heads = [head for head, _ in pending.values()]
            done, _ = ray.wait(heads, num_returns=len(heads), timeout=timeout)
            ready = set(done)
        reports: dict[str, Any] = {}  # state -> the report, fetched from its first node
        results = [
            _result(ray, node, pending.get(node["NodeID"]), ready, reports, timeout)
            for node in nodes
        ]
        for head, _ in pending.values():
            if head not in ready:  # leave nothing running on the cluster
                with contextlib.suppress(Exception):
                    ray.cancel(head, force=True)
        return results
    finally:
        ray.shutdown()


def _result(
    ray: Any,
    node: Mapping[str, Any],
    refs: Any,
    ready: set[Any],
    reports: dict[str, Any],
    timeout: float,
) -> NodeResult:
    base: dict[str, Any] = {
        "id": str(node["NodeID"]),
        "hostname": node.get("NodeManagerHostname"),
        "ip": node.get("NodeManagerAddress"),
        "source": "ray",
    }
    if refs is None:
        why = node.get("DeathReasonMessage") or "Ray lists it as dead"
        return NodeResult(status="dead", error=f"node is dead: {why}", **base)
    head_ref, report_ref = refs
    if head_ref not in ready:
        return NodeResult(status="timeout", error=f"no answer within {timeout:g}s", **base)
    try:
        head = ray.get(head_ref, timeout=timeout)
        if "state" in head and head["state"] not in reports:
            reports[head["state"]] = ray.get(report_ref, timeout=timeout)
    except Exception as error:  # unschedulable, node died mid-task, runtime env failed, ...
        return NodeResult(
            status="unreachable", error=f"{error.__class__.__name__}: {_one_line(error)}", **base
        )
    if "state" in head:
        host = head.get("host") or {}
        base["hostname"] = host.get("hostname") or base["hostname"]
        gpus = tuple((uuid, bus) for uuid, bus in head.get("gpus") or ())
        return NodeResult(
            status=OK, report=reports[head["state"]], state=head["state"], gpus=gpus, **base
        )
    return NodeResult(status="error", error=str(head.get("error")), **base)
