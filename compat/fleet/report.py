"""`compat fleet`: one `compat.fleet/1` report for every node of a job, from per-node reports.

Each node's `compat.report/1` (made by doctor on that node: through a Ray task, or by
`srun ... compat doctor -o reports/%N.json`) is kept whole. On top of them: the union of their
findings with the nodes each applies to, and the *heterogeneity* findings — facts that differ
across nodes where one training job needs them equal. A node that could not be checked (dead,
timed out, no report) is listed with why; it is never dropped, and it makes the exit code 3
unless `--allow-missing`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compat.errors import EXIT_OK, EXIT_UNCHECKED, InputError, UsageError
from compat.model import Origin
from compat.report import FailOn

FLEET_SCHEMA = "compat.fleet/1"
REPORT_SCHEMA = "compat.report/1"
_REPORT_LIMIT = 64 * 1024 * 1024  # a per-node report is a few hundred KiB at most

# Node statuses: only "ok" nodes carry a report.
OK = "ok"
UNCHECKED = ("dead", "timeout", "unreachable", "error", "missing")


@dataclass(frozen=True)
class NodeResult:
    id: str
    hostname: str | None
    ip: str | None
    status: str  # "ok" or one of UNCHECKED
    report: Mapping[str, Any] | None = None
    error: str | None = None  # why the node could not be checked
    source: str | None = None  # the report file, or "ray"

    @property
    def label(self) -> str:
        """Short and unique enough to read: Ray node ids are 56 hex digits, and simulated or
        containerised nodes can share a hostname."""
        if self.source == "ray":
            return f"{self.hostname or self.ip or 'node'}/{self.id[:8]}"
        return self.id


@dataclass(frozen=True)
class Heterogeneity:
    fact: str  # "driver_version", "packages.torch", ...
    title: str
    severity: str
    values: dict[str, str]  # node id -> value as shown ("not installed", "none", "unknown")
    why: str


@dataclass(frozen=True)
class Fleet:
    source: str  # "ray auto", "reports reports/"
    nodes: tuple[NodeResult, ...]
    findings: tuple[dict[str, Any], ...]
    heterogeneity: tuple[Heterogeneity, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def unchecked(self) -> list[NodeResult]:
        return [n for n in self.nodes if n.status != OK]

    def failing(self, fail_on: FailOn) -> list[str]:
        """Rule ids and heterogeneity facts at or above the threshold (info never fails)."""
        if fail_on is FailOn.NEVER:
            return []
        statuses = {"affected"} if fail_on is FailOn.AFFECTED else {"affected", "possible"}
        failing = [
            f["rule"]
            for f in self.findings
            if f["severity"] != "info" and any(n["status"] in statuses for n in f["nodes"])
        ]
        # A differing fact is a fact, not a guess: it is "affected" wherever it is found.
        failing += [h.fact for h in self.heterogeneity if h.severity != "info"]
        return failing

    def exit_code(self, fail_on: FailOn, allow_missing: bool) -> int:
        checked = [n for n in self.nodes if n.status == OK]
        if not checked or (self.unchecked and not allow_missing):
            return EXIT_UNCHECKED
        return 1 if self.failing(fail_on) else EXIT_OK


# ---------------------------------------------------------------------------------------------
# Heterogeneity: which facts, read how, and why they must agree


_UNKNOWN = object()  # the fact cannot be read from this report: leave the node out of the compare

Reader = Callable[[Mapping[str, Any]], Any]


def _hardware(report: Mapping[str, Any]) -> Mapping[str, Any] | None:
    hardware = report.get("hardware")
    return hardware if isinstance(hardware, Mapping) else None


def _hardware_fact(key: str) -> Reader:
    def read(report: Mapping[str, Any]) -> Any:
        hardware = _hardware(report)
        if hardware is None:
            return _UNKNOWN
        value = hardware.get(key)
        return "none" if value is None else str(value)

    return read


def _gpus(report: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    hardware = _hardware(report)
    gpus = hardware.get("gpus") if hardware is not None else None
    return [g for g in gpus if isinstance(g, Mapping)] if isinstance(gpus, list) else None


def _gpu_models(report: Mapping[str, Any]) -> Any:
    gpus = _gpus(report)
    if gpus is None:
        return _UNKNOWN
    return ", ".join(sorted({str(g.get("name")) for g in gpus})) or "no GPU"


def _gpu_count(report: Mapping[str, Any]) -> Any:
    gpus = _gpus(report)
    return _UNKNOWN if gpus is None else str(len(gpus))


def _stack(report: Mapping[str, Any]) -> Mapping[str, Any] | None:
    stack = report.get("stack")
    return stack if isinstance(stack, Mapping) else None


def _python(report: Mapping[str, Any]) -> Any:
    stack = _stack(report)
    environment = report.get("environment")
    value = stack.get("python") if stack is not None else None
    if value is None and isinstance(environment, Mapping):
        value = environment.get("python")
    return _UNKNOWN if value is None else str(value)


def _package(name: str) -> Reader:
    def read(report: Mapping[str, Any]) -> Any:
        stack = _stack(report)
        packages = stack.get("packages") if stack is not None else None
        if not isinstance(packages, Mapping) or name not in packages:
            return _UNKNOWN  # a report from before 0.2, or one that did not look for it
        value = packages[name]
        return "not installed" if value is None else str(value)

    return read


def _build(name: str, *, needs: str | None = None) -> Reader:
    def read(report: Mapping[str, Any]) -> Any:
        stack = _stack(report)
        builds = stack.get("builds") if stack is not None else None
        if not isinstance(builds, Mapping):
            return _UNKNOWN
        if needs is not None:
            packages = stack.get("packages") if stack is not None else None
            if isinstance(packages, Mapping) and packages.get(needs) is None:
                return f"no {needs}"
        value = builds.get(name)
        return "none" if value is None else str(value)

    return read


# (fact, title, severity, reader, why it matters). The order is the order of the report.
FACTS: tuple[tuple[str, str, str, Reader, str], ...] = (
    (
        "hardware.driver_version",
        "NVIDIA driver",
        "error",
        _hardware_fact("driver_version"),
        "the driver decides which CUDA builds run and how NCCL talks to the GPUs; ranks on "
        "different drivers are a known cause of hangs in the first collective and of failures "
        "on only some nodes",
    ),
    (
        "hardware.cuda_driver_version",
        "CUDA version the driver supports",
        "error",
        _hardware_fact("cuda_driver_version"),
        "a torch/CUDA build that runs on one node can fail on another with 'CUDA driver version "
        "is insufficient for CUDA runtime version'",
    ),
    (
        "hardware.gpu_models",
        "GPU models",
        "error",
        _gpu_models,
        "kernels are chosen per compute capability (flash-attn, bf16, FP8): mixed models can "
        "fail on one node only, and every step runs at the speed of the slowest GPU",
    ),
    (
        "hardware.gpu_count",
        "GPU count",
        "error",
        _gpu_count,
        "launchers use one --nproc_per_node for every node: unequal counts give a wrong world "
        "size, idle GPUs or an 'invalid device ordinal' on the smaller node",
    ),
    (
        "python",
        "Python",
        "error",
        _python,
        "objects pickled by one Python may not load in another (object collectives, Ray, "
        "dataloader workers), and compiled extensions are built per Python version",
    ),
    (
        "packages.torch",
        "torch",
        "error",
        _package("torch"),
        "ranks must run the same torch: collective, checkpoint and FSDP/DTensor protocols "
        "change between releases",
    ),
    (
        "builds.torch_cuda",
        "torch CUDA build",
        "error",
        _build("torch_cuda", needs="torch"),
        "torch wheels for different CUDA versions bundle different NCCL and kernels; mixing "
        "them in one job is a classic source of hangs and device errors",
    ),
    (
        "builds.nccl",
        "NCCL",
        "error",
        _build("nccl"),
        "every rank must speak the same NCCL: different versions can hang or crash the first "
        "all-reduce",
    ),
    (
        "packages.deepspeed",
        "DeepSpeed",
        "error",
        _package("deepspeed"),
        "ZeRO partitioning, communication and checkpoint layout change between DeepSpeed "
        "releases: ranks disagree and hang, or save checkpoints that do not load",
    ),
    (
        "packages.vllm",
        "vLLM",
        "error",
        _package("vllm"),
        "vLLM workers of one engine (tensor/pipeline parallel, RLHF weight sync) must run "
        "the same release",
    ),
    (
        "packages.transformers",
        "transformers",
        "warning",
        _package("transformers"),
        "model code and defaults change between releases: ranks can build different models "
        "(shape errors, diverging loss)",
    ),
    (
        "packages.flash-attn",
        "flash-attn",
        "warning",
        _package("flash-attn"),
        "another (or no) flash-attn on one node changes the attention path there: different "
        "numerics, or an ImportError on that node only",
    ),
)


def heterogeneity(nodes: Sequence[NodeResult]) -> tuple[list[Heterogeneity], list[str]]:
    """Facts whose value differs across the checked nodes, and notes on what was not compared."""
    checked = [n for n in nodes if n.status == OK and n.report is not None]
    found: list[Heterogeneity] = []
    notes: list[str] = []
    if len(checked) < 2:
        return found, notes
    for fact, title, severity, read, why in FACTS:
        values: dict[str, str] = {}
        unknown: list[str] = []
        for node in checked:
            assert node.report is not None
            value = read(node.report)
            if value is _UNKNOWN:
                unknown.append(node.label)
            else:
                values[node.id] = str(value)
        if len(set(values.values())) > 1:
            for node in checked:
                values.setdefault(node.id, "unknown")
            found.append(Heterogeneity(fact, title, severity, values, why))
        elif unknown and values:
            notes.append(f"{title}: unknown on {', '.join(unknown)}, not compared there")
    return found, notes


# ---------------------------------------------------------------------------------------------
# The union of the findings

_STATUS_ORDER = {"affected": 0, "possible": 1}


def merge_findings(nodes: Sequence[NodeResult]) -> list[dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for node in nodes:
        if node.status != OK or node.report is None:
            continue
        for finding in node.report.get("findings", []):
            rule = str(finding["rule"])
            entry = merged.get(rule)
            if entry is None:
                entry = {
                    key: value
                    for key, value in finding.items()
                    if key not in ("status", "packages", "unknown", "matched")
                }
                entry["nodes"] = []
                merged[rule] = entry
            entry["nodes"].append(
                {
                    "node": node.id,
                    "status": finding.get("status"),
                    "packages": finding.get("packages", []),
                }
            )
    for entry in merged.values():
        statuses = [n["status"] for n in entry["nodes"]]
        entry["status"] = min(statuses, key=lambda s: _STATUS_ORDER.get(s, 9))
    severity = {"error": 0, "warning": 1, "info": 2}
    return sorted(
        merged.values(),
        key=lambda e: (
            _STATUS_ORDER.get(e["status"], 9),
            severity.get(e.get("severity", ""), 9),
            e["rule"],
        ),
    )


def _judged_differently(nodes: Sequence[NodeResult]) -> list[str]:
    """Reports made with other rules or other usage facts: their findings differ for that
    reason alone, which the reader must know before blaming the nodes."""
    notes = []
    kb: dict[str, list[str]] = {}
    usage: dict[str, list[str]] = {}
    for node in nodes:
        if node.status != OK or node.report is None:
            continue
        base = node.report.get("knowledge_base")
        digest = base.get("digest") if isinstance(base, Mapping) else None
        version = node.report.get("compat_version")
        bundle = (
            f", bundle {base.get('version')}"
            if isinstance(base, Mapping) and base.get("source") == "bundle"
            else ""
        )
        kb.setdefault(f"compat {version}, rules {str(digest)[:19]}{bundle}", []).append(node.label)
        usage.setdefault(json.dumps(node.report.get("usage") or {}, sort_keys=True), []).append(
            node.label
        )
    if len(kb) > 1:
        groups = "; ".join(f"{key}: {', '.join(names)}" for key, names in kb.items())
        notes.append(f"the reports were made with different knowledge bases ({groups})")
    if len(usage) > 1:
        groups = "; ".join(f"{key}: {', '.join(names)}" for key, names in usage.items())
        notes.append(f"the reports were made with different usage facts ({groups})")
    return notes


def build_fleet(source: str, nodes: Sequence[NodeResult], notes: Iterable[str] = ()) -> Fleet:
    differing, compare_notes = heterogeneity(nodes)
    compare_notes = [*_judged_differently(nodes), *compare_notes]
    return Fleet(
        source=source,
        nodes=tuple(nodes),
        findings=tuple(merge_findings(nodes)),
        heterogeneity=tuple(differing),
        notes=(*notes, *compare_notes),
    )


def fleet_document(fleet: Fleet) -> dict[str, Any]:
    from compat.report import COMPAT_VERSION

    labels = {n.id: n.label for n in fleet.nodes}
    return {
        "schema": FLEET_SCHEMA,
        "compat_version": COMPAT_VERSION,
        "source": fleet.source,
        "nodes": [
            {
                "id": n.id,
                "label": n.label,
                "hostname": n.hostname,
                "ip": n.ip,
                "status": n.status,
                "error": n.error,
                "source": n.source,
                "report": n.report,
            }
            for n in fleet.nodes
        ],
        "findings": list(fleet.findings),
        "heterogeneity": [
            {
                "fact": h.fact,
                "title": h.title,
                "severity": h.severity,
                "values": [
                    {"node": node, "label": labels.get(node, node), "value": value}
                    for node, value in h.values.items()
                ],
                "why": h.why,
            }
            for h in fleet.heterogeneity
        ],
        "summary": {
            "nodes": len(fleet.nodes),
            "checked": sum(1 for n in fleet.nodes if n.status == OK),
            "unchecked": len(fleet.unchecked),
            "affected": sum(1 for f in fleet.findings if f["status"] == "affected"),
            "possible": sum(1 for f in fleet.findings if f["status"] == "possible"),
            "heterogeneous": len(fleet.heterogeneity),
        },
        "notes": list(fleet.notes),
    }


# ---------------------------------------------------------------------------------------------
# --reports: per-node compat.report/1 files (Slurm, or any other way of running doctor per node)


def report_files(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.glob("*.json") if p.is_file())
            if not found:
                raise UsageError(f"--reports {path}: no *.json reports in this directory")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"--reports {path}: no such file or directory")
    return files


def read_report(path: Path) -> dict[str, Any]:
    """One per-node report, validated enough to merge; InputError names the file."""
    from compat.files.jsonio import parse_json
    from compat.files.readers import read_bytes

    raw = read_bytes(path, "lock", what="cannot read report")  # regular files only, capped
    if len(raw) > _REPORT_LIMIT:
        raise InputError("not a compat report: larger than 64 MiB", origin=Origin(str(path)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not a compat report: not UTF-8 text", origin=Origin(str(path))) from None
    document = parse_json(text, str(path))
    where = Origin(str(path))
    if not isinstance(document, dict):
        raise InputError("not a compat report: not a JSON object", origin=where)
    if document.get("schema") != REPORT_SCHEMA:
        raise InputError(
            f"schema is {document.get('schema')!r}, expected {REPORT_SCHEMA!r} "
            "(write it with `compat doctor --format json -o FILE`)",
            origin=where,
        )
    findings = document.get("findings")
    if not isinstance(findings, list) or not all(
        isinstance(f, dict) and isinstance(f.get("rule"), str) and isinstance(f.get("status"), str)
        for f in findings
    ):
        raise InputError("findings must be a list of objects with rule and status", origin=where)
    for key in ("host", "hardware", "stack", "environment"):
        if document.get(key) is not None and not isinstance(document[key], dict):
            raise InputError(f"{key} must be an object or null", origin=where)
    return document


_RANGE = re.compile(r"^([0-9]{1,18})(?:-([0-9]{1,18}))?$")  # no int() of a 5,000-digit number
MAX_NODES = 100_000  # in all: `a[0-99999]b[0-99999]` would otherwise ask for 10**10 names


def expand_hostlist(text: str) -> list[str]:
    """Slurm hostlist syntax: `gpu[01-03,07],login1` -> gpu01 gpu02 gpu03 gpu07 login1."""
    names = _expand(text, text)
    if len(names) > MAX_NODES:
        raise UsageError(f"--nodes {text!r}: more than {MAX_NODES} nodes")
    return names


def _expand(text: str, whole: str) -> list[str]:
    names: list[str] = []
    for item in _split_top(text):
        open_at = item.find("[")
        if open_at < 0:
            names.append(item)
            continue
        close_at = item.find("]", open_at)
        if close_at < 0:
            raise UsageError(f"--nodes {whole!r}: unclosed '[' in {item!r}")
        prefix, body, suffix = item[:open_at], item[open_at + 1 : close_at], item[close_at + 1 :]
        for part in body.split(","):
            match = _RANGE.match(part.strip())
            if match is None:
                raise UsageError(f"--nodes {whole!r}: {part!r} is not a number or a range")
            low, high = match.group(1), match.group(2) or match.group(1)
            if int(high) < int(low) or int(high) - int(low) > MAX_NODES:
                raise UsageError(f"--nodes {whole!r}: bad range {part!r}")
            for number in range(int(low), int(high) + 1):
                names += _expand(f"{prefix}{number:0{len(low)}d}{suffix}", whole)
                if len(names) > MAX_NODES:
                    raise UsageError(f"--nodes {whole!r}: more than {MAX_NODES} nodes")
    return names


def _split_top(text: str) -> list[str]:
    """Split on the commas outside brackets."""
    items, depth, current = [], 0, ""
    for char in text:
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(current)
            current = ""
        else:
            current += char
    items.append(current)
    return [item.strip() for item in items if item.strip()]


def nodes_from_reports(paths: Sequence[Path], expected: Sequence[str] = ()) -> list[NodeResult]:
    """One NodeResult per report file, then one `missing` result per expected node without one."""
    documents = [(path, read_report(path)) for path in report_files(paths)]
    ids: list[str] = []
    for path, document in documents:
        host = document.get("host") or {}
        hostname = host.get("hostname")
        ids.append(str(host.get("slurm_node") or (hostname or "").split(".")[0] or path.stem))
    nodes: list[NodeResult] = []
    claimed: set[str] = set()
    for (path, document), node_id in zip(documents, ids, strict=True):
        if ids.count(node_id) > 1:  # two reports from one host: the file names tell them apart
            node_id = (
                path.stem if [p.stem for p, _ in documents].count(path.stem) == 1 else str(path)
            )
        host = document.get("host") or {}
        nodes.append(
            NodeResult(
                id=node_id,
                hostname=host.get("hostname"),
                ip=host.get("ip"),
                status=OK,
                report=document,
                source=str(path),
            )
        )
        hostname = str(host.get("hostname") or "")
        claimed |= {node_id, path.stem, hostname, hostname.split(".")[0]}
        if host.get("slurm_node"):
            claimed.add(str(host["slurm_node"]))
    for name in expected:
        if name not in claimed:
            nodes.append(
                NodeResult(
                    id=name,
                    hostname=name,
                    ip=None,
                    status="missing",
                    error="no report from this node (did doctor fail or not run there?)",
                )
            )
            claimed.add(name)
    return nodes
