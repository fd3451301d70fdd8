"""Suppression where the line is, and rule selection, for `compat check` (issue 42 item 6).

`# compat: ignore[RULE-ID] reason` on a requirement's line silences the findings of that rule
(an id, a retired id it superseded, or a pattern: `ignore[vllm-*]`, several comma-separated)
that point at that line. The comment is the same in every file check reads that has `#`
comments: requirements files, pyproject.toml, pylock.toml, uv.lock, Pipfile, conda
environment.yml, pixi.toml and their locks. A reason is required. A comment that names no rule
(the closest rule id suggested) or silences nothing is a warning, shown in every format.

`--select PATTERN` keeps only findings whose rule id matches, `--ignore PATTERN` leaves out those
that match (fnmatch patterns over the rule id and the ids it superseded); a pattern that
matches no rule id at all is a warning too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from compat.commands.waivers import known_id, matches, unknown_id_warning
from compat.errors import InputError
from compat.model import Finding, Origin
from compat.report import ConfigWarning, Suppression

_COMMENT = re.compile(r"#\s*compat:\s*ignore\[([^\]]*)\](.*)$")


class _Inline:
    def __init__(self, rules: list[str], reason: str, origin: Origin) -> None:
        self.rules = rules
        self.reason = reason
        self.origin = origin
        self.used: set[str] = set()


def _comments(path: str) -> dict[int, _Inline]:
    """The `# compat: ignore[...]` comments of one file, by line."""
    from compat.files.readers import read_text

    try:
        text = read_text(Path(path), "lock")
    except Exception:  # a file that cannot be read again carries no comment to honour
        return {}
    found: dict[int, _Inline] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = _COMMENT.search(line)
        if match is None:
            continue
        origin = Origin(path, number)
        rules = [r.strip() for r in match.group(1).split(",") if r.strip()]
        reason = match.group(2).strip().lstrip(":-— ").strip()
        if not rules:
            raise InputError("`# compat: ignore[...]` names no rule id", origin=origin)
        if not reason:
            raise InputError(
                f"`# compat: ignore[{', '.join(rules)}]` needs a reason after it "
                "(`# compat: ignore[RULE] why it does not apply here`)",
                origin=origin,
            )
        found[number] = _Inline(rules, reason, origin)
    return found


def _lines(finding: Finding) -> list[tuple[str, int]]:
    return [
        (p.origin.path, p.origin.line)
        for p in finding.packages
        if p.origin is not None and p.origin.path and p.origin.line is not None
    ]


def inline_suppressions(
    findings: Sequence[Finding], files: Sequence[str], known: frozenset[str]
) -> tuple[list[Finding], list[tuple[Finding, Suppression]], list[ConfigWarning]]:
    """The findings no comment silences, the silenced ones with why, and warnings."""
    paths = dict.fromkeys([*files, *(path for finding in findings for path, _ in _lines(finding))])
    comments = {path: _comments(path) for path in paths}
    kept: list[Finding] = []
    silenced: list[tuple[Finding, Suppression]] = []
    for finding in findings:
        hit = None
        for path, line in _lines(finding):
            inline = comments.get(path, {}).get(line)
            if inline is None:
                continue
            rule = next((r for r in inline.rules if matches(r, finding)), None)
            if rule is not None:
                inline.used.add(rule)
                hit = inline
                break
        if hit is None:
            kept.append(finding)
        else:
            silenced.append((finding, Suppression("inSource", hit.reason, str(hit.origin))))
    warnings: list[ConfigWarning] = []
    for by_line in comments.values():
        for inline in by_line.values():
            for rule in inline.rules:
                if known and not known_id(rule, known):
                    warnings.append(
                        unknown_id_warning(rule, known, inline.origin, "`# compat: ignore`")
                    )
                elif rule not in inline.used:
                    warnings.append(
                        ConfigWarning(
                            f"{inline.origin}: unused `# compat: ignore[{rule}]`: no finding of "
                            "that rule points at this line; remove it",
                            inline.origin.path,
                            inline.origin.line,
                        )
                    )
    return kept, silenced, warnings


def selected(
    findings: Sequence[Finding],
    select: Sequence[str],
    ignore: Sequence[str],
    known: frozenset[str],
) -> tuple[list[Finding], list[str], list[ConfigWarning]]:
    """The findings --select keeps and --ignore does not leave out; a note saying how many were
    left out; a warning for each pattern that matches no rule id."""
    warnings = [
        ConfigWarning(
            unknown_id_warning(pattern, known, Origin(option), "the pattern").message.split(
                ": ", 1
            )[1]
        )
        for option, patterns in (("--select", select), ("--ignore", ignore))
        for pattern in patterns
        if known and not known_id(pattern, known)
    ]
    chosen = [
        f
        for f in findings
        if (not select or any(matches(p, f) for p in select))
        and not any(matches(p, f) for p in ignore)
    ]
    left = len(findings) - len(chosen)
    notes = [f"{left} finding(s) left out by --select/--ignore"] if left else []
    return chosen, notes, warnings
