"""`compat fleet` as text and Markdown (JSON: compat.fleet.report.fleet_document)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compat.fleet.report import OK, Fleet, NodeResult


def _node_summary(node: NodeResult) -> str:
    if node.status != OK or node.report is None:
        return f"{node.status.upper()}: {node.error}"
    summary = node.report.get("summary") or {}
    hardware = node.report.get("hardware")
    gpus = hardware.get("gpus") if isinstance(hardware, Mapping) else None
    where = "hardware unknown"
    if isinstance(gpus, list):
        where = f"{len(gpus)} GPU" + ("" if len(gpus) == 1 else "s")
        if isinstance(hardware, Mapping) and hardware.get("driver_version"):
            where += f", driver {hardware['driver_version']}"
    return (
        f"ok: {summary.get('affected', 0)} affected, {summary.get('possible', 0)} possible "
        f"({where})"
    )


def _grouped(values: Mapping[str, str], labels: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    groups: dict[str, list[str]] = {}
    for node, value in values.items():
        groups.setdefault(value, []).append(labels.get(node, node))
    return sorted(groups.items(), key=lambda item: -len(item[1]))


def _where(entry: Mapping[str, Any], labels: Mapping[str, str]) -> str:
    by_status: dict[str, list[str]] = {}
    for node in entry["nodes"]:
        by_status.setdefault(str(node["status"]), []).append(labels.get(node["node"], node["node"]))
    return "; ".join(f"{status} on {', '.join(names)}" for status, names in by_status.items())


def render_text(fleet: Fleet) -> str:
    labels = {n.id: n.label for n in fleet.nodes}
    checked = sum(1 for n in fleet.nodes if n.status == OK)
    lines = [f"compat fleet · {fleet.source} · {len(fleet.nodes)} nodes, {checked} checked", ""]
    lines.append("Nodes")
    width = max((len(n.label) for n in fleet.nodes), default=0)
    ips = {n.id: n.ip if n.ip and n.ip not in n.label else "" for n in fleet.nodes}
    ip_width = max((len(ip) for ip in ips.values()), default=0)
    for node in fleet.nodes:
        ip = f"  {ips[node.id]:{ip_width}}" if ip_width else ""
        lines.append(f"  {node.label:{width}}{ip}  {_node_summary(node)}")
    lines.append("")
    if fleet.heterogeneity:
        lines.append("Differs across nodes (one job needs it equal)")
        for item in fleet.heterogeneity:
            lines.append(f"  {item.title} [{item.severity}]")
            for value, nodes in _grouped(item.values, labels):
                lines.append(f"    {value}: {', '.join(nodes)}")
            lines.append(f"    why: {item.why}")
        lines.append("")
    if fleet.findings:
        lines.append("Findings")
        for entry in fleet.findings:
            lines.append(f"  {entry['rule']}  [{entry.get('severity')}, {entry['status']}]")
            lines.append(f"    {entry.get('title', '')}")
            lines.append(f"    nodes: {_where(entry, labels)}")
            fix = entry.get("fix") or {}
            if fix.get("summary"):
                lines.append(f"    fix: {fix['summary']}")
        lines.append("")
    if not fleet.heterogeneity and not fleet.findings and checked:
        lines.append("No findings, and the compared facts agree on every checked node.")
        lines.append("")
    lines += [f"note: {note}" for note in fleet.notes]
    return "\n".join(lines).rstrip("\n") + "\n"


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(fleet: Fleet) -> str:
    labels = {n.id: n.label for n in fleet.nodes}
    lines = [
        f"## compat fleet · {_cell(fleet.source)}",
        "",
        "| node | IP | status |",
        "|---|---|---|",
    ]
    for node in fleet.nodes:
        lines.append(
            f"| {_cell(node.label)} | {_cell(node.ip or '')} | {_cell(_node_summary(node))} |"
        )
    if fleet.heterogeneity:
        lines += ["", "### Differs across nodes", "", "| fact | values | why |", "|---|---|---|"]
        for item in fleet.heterogeneity:
            values = "<br>".join(
                f"{_cell(value)}: {_cell(', '.join(nodes))}"
                for value, nodes in _grouped(item.values, labels)
            )
            lines.append(f"| {_cell(item.title)} | {values} | {_cell(item.why)} |")
    if fleet.findings:
        lines += ["", "### Findings", "", "| rule | severity | nodes |", "|---|---|---|"]
        for entry in fleet.findings:
            lines.append(
                f"| `{_cell(entry['rule'])}` {_cell(entry.get('title', ''))} | "
                f"{_cell(entry.get('severity'))} | {_cell(_where(entry, labels))} |"
            )
    if fleet.notes:
        lines += ["", *[f"- {_cell(note)}" for note in fleet.notes]]
    return "\n".join(lines) + "\n"


def render(fleet: Fleet, format_name: str) -> str:
    if format_name == "json":
        import json

        from compat.fleet.report import fleet_document

        return json.dumps(fleet_document(fleet), indent=2, ensure_ascii=False) + "\n"
    if format_name == "markdown":
        return render_markdown(fleet)
    return render_text(fleet)
