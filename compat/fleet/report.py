"""`compat fleet`: one `compat.fleet/2` report for every node of a job, from per-node reports.

Each node's `compat.report/1` (made by doctor on that node: through a Ray task, or by
`srun ... compat doctor -o reports/%N.json`) is kept once per *node state*: nodes whose judged
facts are equal form one group whatever their identity (host, GPU UUIDs and bus ids, the node's
name in paths: compat/fleet/identity.py), named in Slurm's compressed hostlist form (`node[001-128]`), so the output grows with the distinct states, not with the nodes. On top
of them: the union of their findings with the groups each applies to, and the *heterogeneity*
findings — facts that differ across nodes where one training job needs them equal. A node that
could not be checked (dead, timed out, no report) is listed with why; it is never dropped, and it
makes the exit code 3 unless `--allow-missing`.

Every step is linear in the nodes: reports equal apart from identity are recognised from their
bytes (one parse per distinct state), and everything after reading works on the groups.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compat.errors import EXIT_OK, EXIT_UNCHECKED, InputError, UsageError
from compat.fleet.identity import (
    GpuIds,
    Layout,
    identity_of,
    skeleton,
    split_report,
    verify_skeleton,
)
from compat.model import Origin
from compat.report import FailOn

FLEET_SCHEMA = "compat.fleet/2"
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
    state: str | None = None  # digest of the report apart from identity: equal, one group
    gpus: GpuIds = ()  # (NVML UUID, PCI bus id) of each GPU: identity, kept per node

    @property
    def label(self) -> str:
        """Short and unique enough to read: Ray node ids are 56 hex digits, and simulated or
        containerised nodes can share a hostname."""
        if self.source == "ray":
            return f"{self.hostname or self.ip or 'node'}/{self.id[:8]}"
        return self.id


@dataclass(frozen=True)
class NodeGroup:
    """Nodes in one state: reports equal apart from identity, or one reason for no report."""

    number: int  # 1, 2, ...: the largest group first
    status: str
    report: Mapping[str, Any] | None  # without identity (host, GPU ids; names in paths {host})
    error: str | None
    labels: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.labels)

    @property
    def names(self) -> str:
        return compress_hostlist(self.labels)


@dataclass(frozen=True)
class Heterogeneity:
    fact: str  # "driver_version", "packages.torch", ...
    title: str
    severity: str
    values: tuple[tuple[str, tuple[NodeGroup, ...]], ...]  # value as shown -> groups, most first
    why: str


@dataclass(frozen=True)
class Fleet:
    source: str  # "ray auto", "reports reports/"
    nodes: tuple[NodeResult, ...]
    findings: tuple[dict[str, Any], ...]
    heterogeneity: tuple[Heterogeneity, ...]
    notes: tuple[str, ...] = field(default=())
    groups: tuple[NodeGroup, ...] = field(default=())

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
            if f["severity"] != "info" and any(g["status"] in statuses for g in f["groups"])
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


def heterogeneity(groups: Sequence[NodeGroup]) -> tuple[list[Heterogeneity], list[str]]:
    """Facts whose value differs across the checked nodes, and notes on what was not compared.
    Read once per group: every node of a group has the same report."""
    checked = [g for g in groups if g.status == OK and g.report is not None]
    found: list[Heterogeneity] = []
    notes: list[str] = []
    if sum(g.count for g in checked) < 2:
        return found, notes
    for fact, title, severity, read, why in FACTS:
        values: dict[str, list[NodeGroup]] = {}
        unknown: list[NodeGroup] = []
        for group in checked:
            assert group.report is not None
            value = read(group.report)
            if value is _UNKNOWN:
                unknown.append(group)
            else:
                values.setdefault(str(value), []).append(group)
        if len(values) > 1:
            if unknown:
                values["unknown"] = unknown
            ordered = sorted(values.items(), key=lambda item: -sum(g.count for g in item[1]))
            found.append(
                Heterogeneity(fact, title, severity, tuple((v, tuple(g)) for v, g in ordered), why)
            )
        elif unknown and values:
            names = compress_hostlist([label for g in unknown for label in g.labels])
            notes.append(f"{title}: unknown on {names}, not compared there")
    return found, notes


# ---------------------------------------------------------------------------------------------
# The union of the findings

_STATUS_ORDER = {"affected": 0, "possible": 1}


def merge_findings(groups: Sequence[NodeGroup]) -> list[dict[str, Any]]:
    merged: dict[str, dict[str, Any]] = {}
    for group in groups:
        if group.status != OK or group.report is None:
            continue
        for finding in group.report.get("findings", []):
            rule = str(finding["rule"])
            entry = merged.get(rule)
            if entry is None:
                entry = {
                    key: value
                    for key, value in finding.items()
                    if key not in ("status", "packages", "unknown", "matched")
                }
                entry["count"] = 0
                entry["groups"] = []
                merged[rule] = entry
            entry["count"] += group.count
            entry["groups"].append(
                {
                    "group": group.number,
                    "count": group.count,
                    "status": finding.get("status"),
                    "packages": finding.get("packages", []),
                    "matched": finding.get("matched", []),
                    "unknown": finding.get("unknown", []),
                }
            )
    for entry in merged.values():
        statuses = [g["status"] for g in entry["groups"]]
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


def _judged_differently(groups: Sequence[NodeGroup]) -> list[str]:
    """Reports made with other rules or other usage facts: their findings differ for that
    reason alone, which the reader must know before blaming the nodes."""
    notes = []
    kb: dict[str, list[str]] = {}
    usage: dict[str, list[str]] = {}
    for group in groups:
        if group.status != OK or group.report is None:
            continue
        base = group.report.get("knowledge_base")
        digest = base.get("digest") if isinstance(base, Mapping) else None
        version = group.report.get("compat_version")
        bundle = (
            f", bundle {base.get('version')}"
            if isinstance(base, Mapping) and base.get("source") == "bundle"
            else ""
        )
        key = f"compat {version}, rules {str(digest)[:19]}{bundle}"
        kb.setdefault(key, []).extend(group.labels)
        used = json.dumps(group.report.get("usage") or {}, sort_keys=True)
        usage.setdefault(used, []).extend(group.labels)
    if len(kb) > 1:
        parts = "; ".join(f"{key}: {compress_hostlist(names)}" for key, names in kb.items())
        notes.append(f"the reports were made with different knowledge bases ({parts})")
    if len(usage) > 1:
        parts = "; ".join(f"{key}: {compress_hostlist(names)}" for key, names in usage.items())
        notes.append(f"the reports were made with different usage facts ({parts})")
    return notes


def report_state(report: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The report without identity (host, GPU ids, the node's names in paths), and a digest of
    it: nodes with equal digests form one group."""
    split = split_report(report)
    return split.state, split.report


def group_nodes(nodes: Sequence[NodeResult]) -> tuple[NodeGroup, ...]:
    """One group per node state (equal report apart from identity, or equal status and reason),
    the largest first, then in the order the nodes came. A node with a `state` carries its
    report without identity already (compat/fleet/identity.py); one without is split here."""
    members: dict[tuple[str, str | None], list[NodeResult]] = {}
    reports: dict[tuple[str, str | None], Mapping[str, Any]] = {}
    for node in nodes:
        if node.status == OK and node.report is not None:
            if node.state is not None:
                state, judged = node.state, node.report
            else:
                state, judged = report_state(node.report)
            key: tuple[str, str | None] = (OK, state)
            reports.setdefault(key, judged)
        else:
            key = (node.status, node.error)
        members.setdefault(key, []).append(node)
    ordered = sorted(members.items(), key=lambda item: len(item[1]), reverse=True)  # stable
    groups = []
    for number, (key, group) in enumerate(ordered, start=1):
        first = group[0]
        report = reports.get(key) if key[0] == OK and first.status == OK else None
        groups.append(
            NodeGroup(
                number=number,
                status=first.status,
                report=report,
                error=first.error,
                labels=tuple(node.label for node in group),
            )
        )
    return tuple(groups)


def _shared_gpus(nodes: Sequence[NodeResult]) -> list[str]:
    """A GPU UUID is unique per GPU: one that two nodes report is one machine's report under two
    names (a copied file, a node renamed), and the fleet counts it twice."""
    first: dict[str, str] = {}
    shared: dict[str, list[str]] = {}
    for node in nodes:
        for uuid, _ in node.gpus:
            if uuid is None:
                continue
            owner = first.setdefault(uuid, node.label)
            if owner != node.label:
                shared.setdefault(uuid, [owner]).append(node.label)
    notes = [
        f"GPU {uuid} is reported by {len(labels)} nodes ({compress_hostlist(labels)}): one "
        "machine's report under several names?"
        for uuid, labels in list(shared.items())[:5]
    ]
    if len(shared) > 5:
        notes.append(f"... and {len(shared) - 5} more GPU UUIDs reported by several nodes")
    return notes


def build_fleet(source: str, nodes: Sequence[NodeResult], notes: Iterable[str] = ()) -> Fleet:
    groups = group_nodes(nodes)
    differing, compare_notes = heterogeneity(groups)
    compare_notes = [*_judged_differently(groups), *compare_notes, *_shared_gpus(nodes)]
    return Fleet(
        source=source,
        nodes=tuple(nodes),
        findings=tuple(merge_findings(groups)),
        heterogeneity=tuple(differing),
        notes=(*notes, *compare_notes),
        groups=groups,
    )


def fleet_document(fleet: Fleet) -> dict[str, Any]:
    from compat.report import COMPAT_VERSION

    return {
        "schema": FLEET_SCHEMA,
        "compat_version": COMPAT_VERSION,
        "source": fleet.source,
        "groups": [
            {
                "group": g.number,
                "count": g.count,
                "nodes": g.names,
                "status": g.status,
                "error": g.error,
                "report": g.report,
            }
            for g in fleet.groups
        ],
        "findings": list(fleet.findings),
        "heterogeneity": [
            {
                "fact": h.fact,
                "title": h.title,
                "severity": h.severity,
                "values": [
                    {
                        "value": value,
                        "count": sum(g.count for g in groups),
                        "groups": [g.number for g in groups],
                    }
                    for value, groups in h.values
                ],
                "why": h.why,
            }
            for h in fleet.heterogeneity
        ],
        "summary": {
            "nodes": len(fleet.nodes),
            "groups": len(fleet.groups),
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
    from compat.files.readers import read_bytes

    return _parse_report(read_bytes(path, "lock", what="cannot read report"), path)


def _parse_report(raw: bytes, path: Path) -> dict[str, Any]:
    from compat.files.jsonio import parse_json

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


class _ReportReader:
    """Reads reports; a report whose bytes reduce to an already-proven skeleton (its bytes with
    its identity cut out: host, GPU ids, its names in paths; see compat/fleet/identity.py) is
    not parsed again: it is that state with its own identity. One full parse per distinct
    skeleton, so 10,000 nodes in a few states cost a few parses, not 10,000."""

    def __init__(self) -> None:
        # skeleton -> (state digest, the state's report, layout of its identity spans)
        self._proven: dict[bytes, tuple[str, dict[str, Any], Layout]] = {}
        self._unproven: set[bytes] = set()  # digests of skeletons that did not prove out
        self._by_state: dict[str, dict[str, Any]] = {}  # digest -> the report without identity

    def read(self, path: Path) -> tuple[dict[str, Any] | None, str, dict[str, Any], GpuIds]:
        """(host, state digest, the report without identity: shared by the state's nodes, the
        node's GPU ids)."""
        from compat.files.readers import read_bytes

        raw = read_bytes(path, "lock", what="cannot read report")
        cut = skeleton(raw) if len(raw) <= _REPORT_LIMIT else None
        if cut is not None:
            known = self._proven.get(cut.key)
            if known is not None:
                state, report, layout = known
                try:
                    gpus = identity_of(cut, layout, _listed_gpus(report))
                except UnicodeDecodeError:
                    pass  # not UTF-8: the parse below says so, naming the file
                else:
                    return cut.host, state, report, gpus
        document = _parse_report(raw, path)
        split = split_report(document)
        report = self._by_state.setdefault(split.state, split.report)
        if cut is not None:
            mark = hashlib.sha256(cut.key).digest()
            if mark not in self._unproven:
                proven = verify_skeleton(cut, split)
                if proven is None:
                    self._unproven.add(mark)
                else:
                    self._proven[cut.key] = (split.state, report, proven)
        host = dict(split.host) if split.host is not None else None
        return host, split.state, report, split.gpus


def _listed_gpus(report: Mapping[str, Any]) -> int:
    hardware = _hardware(report)
    listed = hardware.get("gpus") if hardware is not None else None
    return len(listed) if isinstance(listed, list) else 0


def compress_hostlist(names: Iterable[str]) -> str:
    """Slurm's compressed hostlist: gpu01 gpu02 gpu03 gpu07 login1 -> `gpu[01-03,07],login1`.
    Names are grouped by prefix, digit count and suffix (so `expand_hostlist` gives them back);
    names without digits, or with characters that the syntax uses, are listed as they are."""
    series: dict[tuple[str, int, str], list[int]] = {}
    plain: list[str] = []
    for name in names:
        match = _NUMBERED.match(name)
        if match is None:
            plain.append(name)
            continue
        prefix, digits, suffix = match.groups()
        series.setdefault((prefix, len(digits), suffix), []).append(int(digits))
    parts = []
    for (prefix, width, suffix), numbers in sorted(series.items()):
        numbers = sorted(set(numbers))
        ranges = []
        start = previous = numbers[0]
        for number in [*numbers[1:], None]:
            if number is not None and number == previous + 1:
                previous = number
                continue
            ranges.append(
                f"{start:0{width}d}"
                if start == previous
                else f"{start:0{width}d}-{previous:0{width}d}"
            )
            if number is not None:
                start = previous = number
        body = ranges[0] if len(numbers) == 1 else f"[{','.join(ranges)}]"
        parts.append(f"{prefix}{body}{suffix}")
    return ",".join([*parts, *sorted(set(plain))])


# prefix, the last run of digits, a suffix without digits; none of `[],` anywhere.
_NUMBERED = re.compile(r"^([^\[\],]*?)([0-9]{1,18})([^\[\],0-9]*)$")


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
    """One NodeResult per report file, then one `missing` result per expected node without one.
    Nodes in one state share one report object (without host)."""
    reader = _ReportReader()
    read = [(path, *reader.read(path)) for path in report_files(paths)]
    ids: list[str] = []
    for path, host, *_ in read:
        host = host or {}
        hostname = host.get("hostname")
        ids.append(str(host.get("slurm_node") or (hostname or "").split(".")[0] or path.stem))
    id_count = Counter(ids)
    stem_count = Counter(path.stem for path, *_ in read)
    nodes: list[NodeResult] = []
    claimed: set[str] = set()
    for (path, host, state, report, gpus), node_id in zip(read, ids, strict=True):
        if id_count[node_id] > 1:  # two reports from one host: the file names tell them apart
            node_id = path.stem if stem_count[path.stem] == 1 else str(path)
        host = host or {}
        nodes.append(
            NodeResult(
                id=node_id,
                hostname=host.get("hostname"),
                ip=host.get("ip"),
                status=OK,
                report=report,
                source=str(path),
                state=state,
                gpus=gpus,
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
