"""compat fleet's text, markdown, JSON and HTML: every format of a `compat.fleet/2` result.

Both show node groups (nodes in one judged state, named in compressed hostlist form) and refer to them
by number: the output grows with the distinct node states, not with the nodes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from compat.fleet.report import OK, Fleet, NodeGroup


def _nodes(count: int) -> str:
    return f"{count} node" + ("" if count == 1 else "s")


def _group_summary(group: NodeGroup) -> str:
    if group.status != OK or group.report is None:
        return f"{group.status.upper()}: {group.error}"
    summary = group.report.get("summary") or {}
    hardware = group.report.get("hardware")
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


def _group_numbers(numbers: Sequence[int]) -> str:
    return ("group " if len(numbers) == 1 else "groups ") + ", ".join(map(str, numbers))


def _where(entry: Mapping[str, Any], checked: int) -> str:
    """`affected on all 10000 checked nodes` / `affected on 1000 of 10000 nodes (group 2)`."""
    by_status: dict[str, list[Mapping[str, Any]]] = {}
    for group in entry["groups"]:
        by_status.setdefault(str(group["status"]), []).append(group)
    parts = []
    for status, groups in by_status.items():
        count = sum(int(g["count"]) for g in groups)
        numbers = _group_numbers([int(g["group"]) for g in groups])
        if count == checked and len(by_status) == 1:
            parts.append(f"{status} on all {_nodes(count)} checked ({numbers})")
        else:
            parts.append(f"{status} on {count} of {checked} checked nodes ({numbers})")
    return "; ".join(parts)


def _checked(fleet: Fleet) -> int:
    return sum(g.count for g in fleet.groups if g.status == OK)


def render_text(fleet: Fleet) -> str:
    checked = _checked(fleet)
    lines = [
        f"compat fleet · {fleet.source} · {_nodes(len(fleet.nodes))} in "
        f"{len(fleet.groups)} group{'' if len(fleet.groups) == 1 else 's'}, {checked} checked",
        "",
        "Nodes (one group per judged state; identity apart)",
    ]
    for group in fleet.groups:
        lines.append(f"  [{group.number}] {group.names}")
        lines.append(f"      {_nodes(group.count)}, {_group_summary(group)}")
    lines.append("")
    if fleet.heterogeneity:
        lines.append("Differs across nodes (one job needs it equal)")
        for item in fleet.heterogeneity:
            lines.append(f"  {item.title} [{item.severity}]")
            for value, groups in item.values:
                count = sum(g.count for g in groups)
                numbers = _group_numbers([g.number for g in groups])
                lines.append(f"    {value}: {_nodes(count)} ({numbers})")
            lines.append(f"    why: {item.why}")
        lines.append("")
    if fleet.findings:
        lines.append("Findings")
        for entry in fleet.findings:
            lines.append(f"  {entry['rule']}  [{entry.get('severity')}, {entry['status']}]")
            lines.append(f"    {entry.get('title', '')}")
            lines.append(f"    nodes: {_where(entry, checked)}")
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
    checked = _checked(fleet)
    lines = [
        f"## compat fleet · {_cell(fleet.source)}",
        "",
        "| group | nodes | count | status |",
        "|---|---|---|---|",
    ]
    for group in fleet.groups:
        lines.append(
            f"| {group.number} | {_cell(group.names)} | {group.count} | "
            f"{_cell(_group_summary(group))} |"
        )
    if fleet.heterogeneity:
        lines += ["", "### Differs across nodes", "", "| fact | values | why |", "|---|---|---|"]
        for item in fleet.heterogeneity:
            values = "<br>".join(
                f"{_cell(value)}: {_nodes(sum(g.count for g in groups))} "
                f"({_group_numbers([g.number for g in groups])})"
                for value, groups in item.values
            )
            lines.append(f"| {_cell(item.title)} | {values} | {_cell(item.why)} |")
    if fleet.findings:
        lines += ["", "### Findings", "", "| rule | severity | nodes |", "|---|---|---|"]
        for entry in fleet.findings:
            lines.append(
                f"| `{_cell(entry['rule'])}` {_cell(entry.get('title', ''))} | "
                f"{_cell(entry.get('severity'))} | {_cell(_where(entry, checked))} |"
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
    if format_name == "html":  # the page is rendered from the JSON document
        from compat.fleet.report import fleet_document
        from compat.formats.html import render_fleet

        return render_fleet(fleet_document(fleet))
    return render_text(fleet)
