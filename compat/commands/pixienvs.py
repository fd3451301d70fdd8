"""Every pixi environment judged on its own, as a project's extras are (compat.resolve.check.installs).

A pixi workspace (pixi.toml, pixi.lock, a pyproject's [tool.pixi]) with several environments
installs each one separately: `py310cu121` holds a CUDA 12.1 torch while `py38cu101` holds a
CUDA 10.1 one, so judging only `default` passes a lock whose CUDA 12 torch cannot start on an R470
driver. Unless `--pixi-environment NAME` picks one, `compat check` judges each environment (its
own Python, packages and conda builds) and reports each finding once, naming the environments it
holds in (`install: pixi environments py38cu121, py310cu121`). An environment that declares
nothing compat can check, or has no packages for the target platform, is skipped with a note.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from compat.errors import InputError, UncheckedError
from compat.model import Finding
from compat.report import Report

# run_check for one environment: (report, findings)
Judge = Callable[[str], tuple[Report, list[Finding]]]


def judge_each(names: Sequence[str], judge: Judge) -> tuple[Report, list[Finding]]:
    judged: list[tuple[str, Report, list[Finding]]] = []
    skipped: list[str] = []
    first_error: Exception | None = None
    for name in names:
        try:
            report, findings = judge(name)
        except (UncheckedError, InputError) as error:
            if isinstance(error, InputError) and "has no packages for" not in error.message:
                raise  # a broken file is broken for every environment: said once, exit 2
            first_error = first_error or error
            skipped.append(f"{name} ({_reason(error)})")
            continue
        judged.append((name, report, findings))
    if not judged:
        assert first_error is not None
        raise first_error
    findings = _merge([(name, found) for name, _, found in judged])
    notes = [
        "pixi environments judged one at a time: "
        + ", ".join(name for name, _, _ in judged)
        + " (--pixi-environment NAME judges one)"
    ]
    if skipped:
        notes.append("pixi environments not judged: " + "; ".join(skipped))
    seen: set[str] = set()
    for name, report, _ in judged:
        for note in report.notes:
            if "(--pixi-environment NAME judges another)" in note:
                continue  # the per-environment "X judged; the others not" note
            shown = note if name == judged[0][0] else f"[pixi environment {name}] {note}"
            if note not in seen:
                seen.add(note)
                notes.append(shown)
    base = judged[0][1]
    packages = max(int(report.environment.get("packages", 0)) for _, report, _ in judged)
    report = dataclasses.replace(
        base,
        findings=tuple(findings),
        notes=tuple(notes),
        environment={**base.environment, "packages": packages},
        unjudged_ranges=sum(report.unjudged_ranges for _, report, _ in judged),
        unjudged_pins=sum(report.unjudged_pins for _, report, _ in judged),
        unjudged_outside=sum(report.unjudged_outside for _, report, _ in judged),
        snapshot_date=next((r.snapshot_date for _, r, _ in judged if r.snapshot_date), ""),
    )
    return report, findings


def _reason(error: Exception) -> str:
    message = getattr(error, "message", str(error))
    return "declares no package compat can check" if "declares no package" in message else message


def _merge(per_environment: Sequence[tuple[str, Sequence[Finding]]]) -> list[Finding]:
    """Each finding once, in the order first seen, labelled with the environments it holds in."""
    order: list[tuple[object, ...]] = []
    found: dict[tuple[object, ...], tuple[Finding, list[str]]] = {}
    for name, findings in per_environment:
        for finding in findings:
            key: tuple[object, ...] = (
                finding.rule.id,
                finding.status,
                finding.packages,
                finding.unknown,
            )
            if key not in found:
                order.append(key)
                found[key] = (finding, [])
            if name not in found[key][1]:
                found[key][1].append(name)
    merged = []
    for key in order:
        finding, names = found[key]
        label = ("pixi environment " if len(names) == 1 else "pixi environments ") + ", ".join(
            names
        )
        if finding.install:
            label += f" ({finding.install})"
        merged.append(dataclasses.replace(finding, install=label))
    from compat.engine import finding_order

    merged.sort(key=finding_order)
    return merged
