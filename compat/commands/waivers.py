"""Waivers (`[tool.compat] ignore = [...]` or `.compat.toml`) and baselines for `compat check`.

A waiver names a rule id, a reason and optionally an expiry date. An expired waiver stops waiving
and says so; a waiver that silenced nothing is reported, so stale ones get cleaned up.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.files.jsonio import parse_json
from compat.model import Finding, Origin
from compat.report import ConfigWarning, Suppression


@dataclass(frozen=True)
class Waiver:
    rule: str
    reason: str
    until: dt.date | None
    origin: Origin


def _line_of(text: str, needle: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    return None


def load_waivers(directory: Path) -> list[Waiver]:
    """Waivers from `pyproject.toml` ([tool.compat]) and `.compat.toml` in `directory`."""
    waivers: list[Waiver] = []
    for name, table_path in (("pyproject.toml", ("tool", "compat")), (".compat.toml", ())):
        path = directory / name
        if not path.is_file():
            continue
        from compat.files.readers import parse_toml, read_text

        text = read_text(path, "config")
        document = parse_toml(text, path)
        table: Any = document
        for key in table_path:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        entries = table.get("ignore", []) if isinstance(table, dict) else []
        if not isinstance(entries, list):
            raise InputError(
                "ignore must be a list of {id, reason, until}",
                origin=Origin(str(path), _line_of(text, "ignore")),
            )
        for entry in entries:
            waivers.append(_waiver(entry, path, text))
    return waivers


def _waiver(entry: Any, path: Path, text: str) -> Waiver:
    rule = entry.get("id") if isinstance(entry, dict) else None
    origin = Origin(str(path), _line_of(text, str(rule)) if rule else _line_of(text, "ignore"))
    if not isinstance(rule, str) or not rule:
        raise InputError("each waiver needs an id", origin=origin)
    reason = entry.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise InputError(f"waiver for {rule} needs a reason", origin=origin)
    until = entry.get("until")
    if isinstance(until, str):
        try:
            until = dt.date.fromisoformat(until)
        except ValueError:
            raise InputError(
                f"waiver for {rule}: until must be a date (YYYY-MM-DD)", origin=origin
            ) from None
    # A TOML datetime is a date too (a subclass), but cannot be compared with today's date.
    if until is not None and (not isinstance(until, dt.date) or isinstance(until, dt.datetime)):
        raise InputError(f"waiver for {rule}: until must be a date (YYYY-MM-DD)", origin=origin)
    return Waiver(rule, reason.strip(), until, origin)


# Finding ids made by compat itself, not by a rule: `pip-check:conflict:torch`, ... A waiver or
# an inline ignore may name the family (`pip-check:*` as a pattern, or the whole id).
FAMILIES = frozenset(
    {
        "pip-check",
        "release",
        "build-fails",
        "install",
        "binary-symbols",
        "binary-no-kernel-image",
        "binary-no-device-code",
        "binary-library-major",
        "binary-library-majors",
        "binary-shared-file",
    }
)


def known_id(rule: str, known: frozenset[str]) -> bool:
    """A rule id, a retired one, a finding family's id, or a pattern matching one of them."""
    if rule in known or rule.split(":", 1)[0] in FAMILIES:
        return True
    if any(mark in rule for mark in "*?["):
        import fnmatch

        return any(fnmatch.fnmatchcase(name, rule) for name in (*known, *FAMILIES))
    return False


def closest_id(rule: str, known: frozenset[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(rule, sorted(known | FAMILIES), n=1, cutoff=0.6)
    return found[0] if found else None


def unknown_id_warning(rule: str, known: frozenset[str], where: Origin, what: str) -> ConfigWarning:
    close = closest_id(rule, known)
    guess = f"; did you mean {close}?" if close else ""
    return ConfigWarning(
        f"{where}: {what} names {rule}, which is no rule id{guess}", where.path, where.line
    )


def matches(rule: str, finding: Finding) -> bool:
    """`rule` (an id or a pattern) names the finding's rule or an id it superseded."""
    import fnmatch

    return any(
        fnmatch.fnmatchcase(rule_id, rule)
        for rule_id in (finding.rule.id, *finding.rule.supersedes)
    )


def apply_waivers(
    findings: Sequence[Finding],
    waivers: Sequence[Waiver],
    today: dt.date,
    known: frozenset[str] = frozenset(),
) -> tuple[list[Finding], list[tuple[Finding, Suppression]], list[str], list[ConfigWarning]]:
    """The findings left after waivers, the waived ones with why, notes (waived, expired) and
    warnings (a waiver naming no rule, with the closest rule id; a waiver that matched nothing).
    `known`: every rule id the knowledge base has (empty: not checked)."""
    notes: list[str] = []
    warnings: list[ConfigWarning] = []
    active: dict[str, Waiver] = {}
    for waiver in waivers:
        if known and not known_id(waiver.rule, known):
            warnings.append(unknown_id_warning(waiver.rule, known, waiver.origin, "a waiver"))
        if waiver.until is not None and waiver.until < today:
            notes.append(
                f"{waiver.origin}: waiver for {waiver.rule} expired on {waiver.until}: no longer waived"
            )
        else:
            active[waiver.rule] = waiver
    kept: list[Finding] = []
    waived: list[tuple[Finding, Suppression]] = []
    used: set[str] = set()
    for finding in findings:
        # A waiver naming a retired rule id waives the rule that superseded it.
        match = next((w for rule, w in active.items() if matches(rule, finding)), None)
        if match is None:
            kept.append(finding)
        else:
            used.add(match.rule)
            waived.append((finding, Suppression("external", match.reason, str(match.origin))))
            notes.append(
                f"waived {finding.rule.id} ({finding.status.value}): {match.reason} ({match.origin})"
            )
    for rule, waiver in active.items():
        if rule not in used and (not known or known_id(rule, known)):
            warnings.append(
                ConfigWarning(
                    f"{waiver.origin}: unused waiver for {rule}: nothing matched it; remove it",
                    waiver.origin.path,
                    waiver.origin.line,
                )
            )
    return kept, waived, notes, warnings


def finding_key(rule: str, packages: Sequence[str]) -> str:
    return rule + "|" + ",".join(sorted(packages))


def load_baseline(path: Path) -> set[str]:
    """Keys of the findings in a previous `--format json` report."""
    from compat.files.readers import read_text

    text = read_text(path, "lock", what="cannot read baseline")
    document = parse_json(text, str(path))
    if not isinstance(document, dict) or document.get("schema") != "compat.report/1":
        raise InputError(
            "baseline must be a `compat check --format json` report (compat.report/1)",
            origin=Origin(str(path)),
        )
    findings = document.get("findings", [])
    if not isinstance(findings, list):
        raise InputError("baseline: findings must be a list", origin=Origin(str(path)))
    keys = set()
    for finding in findings:
        if not isinstance(finding, dict) or "rule" not in finding:
            continue
        packages = finding.get("packages", [])
        if not isinstance(finding["rule"], str) or not isinstance(packages, list):
            raise InputError(
                "baseline: a finding's rule must be a string and its packages a list",
                origin=Origin(str(path)),
            )
        names = [p.get("name") if isinstance(p, dict) else None for p in packages]
        if not all(isinstance(name, str) for name in names):
            raise InputError(
                f"baseline: finding {finding['rule']!r} has a package without a name",
                origin=Origin(str(path)),
            )
        keys.add(finding_key(finding["rule"], [str(name) for name in names]))
    return keys


def finding_keys(finding: Finding) -> list[str]:
    """The keys a baseline may hold the finding under: its rule's id and every id it superseded."""
    names = [p.name for p in finding.packages]
    return [finding_key(rule_id, names) for rule_id in (finding.rule.id, *finding.rule.supersedes)]


def baseline_states(findings: Sequence[Finding], baseline: set[str]) -> tuple[str, ...]:
    """For each finding, "unchanged" when the baseline holds it, else "new"."""
    return tuple(
        "unchanged" if any(key in baseline for key in finding_keys(f)) else "new" for f in findings
    )


def new_since_baseline(findings: Sequence[Finding], baseline: set[str]) -> list[Finding]:
    """Findings the baseline does not hold, under the rule's id or an id it superseded."""
    return [f for f in findings if not any(key in baseline for key in finding_keys(f))]


def _configures(directory: Path) -> bool:
    if (directory / ".compat.toml").is_file():
        return True
    pyproject = directory / "pyproject.toml"
    try:
        return pyproject.is_file() and "[tool.compat" in pyproject.read_text(
            encoding="utf-8", errors="replace"
        )
    except OSError:
        return False


def nearest_config(path: Path, top: Path) -> Path | None:
    """The directory of the config nearest a checked file: its own directory or the closest one
    above it, up to `top` (the repository root), holding `.compat.toml` or a pyproject.toml with
    `[tool.compat]`; a monorepo's projects each keep theirs."""
    directory = Path(os.path.abspath(path)).parent
    top = Path(os.path.abspath(top))
    for candidate in (directory, *directory.parents):
        if _configures(candidate):
            return candidate
        if candidate == top:
            break
    return None


def waivers_by_directory(
    findings: Sequence[Finding],
    where: Callable[[Finding], str | None],
    cwd: Path,
    top: Path,
) -> tuple[dict[Path, list[Waiver]], list[Path | None]]:
    """The waivers of each config a finding's file is under (the working directory's always
    read), and for each finding the directory whose waivers judge it."""
    configs: dict[Path, list[Waiver]] = {cwd: load_waivers(cwd)}
    chosen: list[Path | None] = []
    for finding in findings:
        path = where(finding)
        directory = nearest_config(Path(path), top) if path else None
        directory = directory or cwd
        if directory not in configs:
            configs[directory] = load_waivers(directory)
        chosen.append(directory)
    return configs, chosen
