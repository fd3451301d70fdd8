"""`compat doctor --install SPEC` output: what the install changes, and what that does.

Both formats read the report of the environment the install would leave, a predicate that says
which of its findings the install introduces, and the `install` document
(compat.commands.installcheck.install_document: plain JSON values).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from compat.formats.text import _finding, _Painter, hardware_line
from compat.model import Finding, Status
from compat.report import COMPAT_VERSION, Report

IsNew = Callable[[Finding], bool]
_CUDA_LABEL = re.compile(r"\+cu\d+$")


def render_json(report: Report, install: Mapping[str, Any], is_new: IsNew) -> str:
    """compat.report/1 of the environment after the install, each finding marked `new` (true:
    the install introduces it) and the `install` member with the diff."""
    from compat.formats.json import report_document

    document = report_document(report)
    for key, findings in (("findings", report.judged), ("needs_hardware", report.needs_hardware)):
        for entry, finding in zip(document[key], findings, strict=True):
            entry["new"] = is_new(finding)
    document["install"] = dict(install)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def side(version: str | None, cuda: str | None) -> str:
    """`2.5.1 (CUDA 12.4)`: a `+cuXYZ` label is said as the build, any other label kept."""
    if version is None:
        return "(none)"
    if cuda is None:
        return version
    shown = _CUDA_LABEL.sub("", version)
    return f"{shown} (CUDA {cuda})"


def change_line(change: Mapping[str, Any]) -> str:
    """`torch 2.5.1 (CUDA 12.4) → 2.8.0 (CUDA 12.8)`, `vllm (not installed) → 0.10.1`."""
    before, after = change["before"], change["after"]
    old = side(before["version"], before["cuda"]) if before["version"] else "(not installed)"
    new = side(after["version"], after["cuda"]) if after["version"] else "(removed)"
    return f"{change['name']} {old} → {new}"


def render_text(report: Report, install: Mapping[str, Any], is_new: IsNew, colour: bool) -> str:
    paint = _Painter(colour)
    env = report.environment
    python = f"Python {env['python']}, " if env.get("python") else ""
    out = [
        f"compat {COMPAT_VERSION} · {report.kb_rules} rules · {report.knowledge_base_label}",
        f"environment: {env['source']} ({python}{env['packages']} distributions)",
        hardware_line(report.hardware, report.hardware_note),
        f"resolver: {install['resolver']} (dry run: nothing was installed)",
    ]
    out += [paint(f"note: {note}", "dim") for note in report.notes]
    out += _changes(install, paint)
    new = [f for f in report.judged if is_new(f)]
    kept = [f for f in report.judged if not is_new(f)]
    if new:
        out += ["", paint(f"New: findings the install would introduce ({len(new)})", "bold")]
        for finding in new:
            out += [*_finding(finding, paint, settle=False), ""]
        out.pop()
    if kept:
        out += ["", paint(f"Already there before the install ({len(kept)})", "bold")]
        for finding in kept:
            out.append(f"  {finding.rule.id}  [{finding.status.value}]  {finding.rule.title}")
            if finding.matched:
                out.append(f"    {'matched:':9} {'; '.join(finding.matched)}")
    if install["resolved"]:
        out += ["", paint(f"Gone after the install: {', '.join(install['resolved'])}", "green")]
    out += _way_out(install.get("way_out"), paint)
    out += ["", _verdict(new, report, paint)]
    return "\n".join(out) + "\n"


def render_new_findings(report: Report, is_new: IsNew, colour: bool) -> str:
    """`--quiet`: the findings the install would introduce and nothing else (empty when it
    introduces none), as doctor's `--quiet` prints its findings only."""
    paint = _Painter(colour)
    out: list[str] = []
    for finding in report.judged:
        if is_new(finding):
            out += [*_finding(finding, paint, settle=False), ""]
    return "\n".join(out[:-1]) + "\n" if out else ""


def _changes(install: Mapping[str, Any], paint: _Painter) -> list[str]:
    out = ["", paint(f"The install of {' '.join(install['requested'])} would change", "bold")]
    if not install["changes"]:
        out.append("  nothing: every requirement is already met")
    out += [f"  {change['change']:9} {change_line(change)}" for change in install["changes"]]
    behind = install["left_behind"]
    if behind:
        out += [
            "",
            paint(f"Left behind, built against the torch it replaces ({len(behind)})", "bold"),
        ]
        out += [f"  {b['name']} {b['version']}: {b['reason']}" for b in behind]
    return out


def _way_out(way: Mapping[str, Any] | None, paint: _Painter) -> list[str]:
    if not way:
        return []
    out = ["", paint("A way out", "bold"), f"  {way['summary']}"]
    if way.get("constraints"):
        out.append("  constraints: " + " ".join(way["constraints"]))
    out += [f"  {line}" for line in way.get("reasons", [])]
    return out


def _verdict(new: list[Finding], report: Report, paint: _Painter) -> str:
    if not new:
        return paint("The install introduces no known-bad combination.", "green")
    affected = sum(1 for f in new if f.status is Status.AFFECTED)
    return paint(
        f"The install would introduce {len(new)} finding{'s' if len(new) != 1 else ''} "
        f"({affected} affected, {len(new) - affected} possible); "
        f"after it: {report.count(Status.AFFECTED)} affected, "
        f"{report.count(Status.POSSIBLE)} possible",
        "red" if affected else "yellow",
    )
