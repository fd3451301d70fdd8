"""Score `compat explain` on a held-out set of real logs (issue 40 item 5): a measure, not a test.

A set is a folder of logs with an `expectations.yaml` (benchmarks/heldout/explain-7/ documents
the fields). Each log is run through `compat explain --format json LOG` as a subprocess of this
interpreter's compat, and judged on four criteria:

- cause: the first cause listed (the first match whose verdict is not `outside-range`) is a rule
  the expectations name (regex, full match);
- line: the log line that cause cites contains one of the expected substrings (the exception or
  the loader's message, not a source line a notebook echoes);
- firmness: the verdict is no firmer than the log settles (`confirmed` only where the log settles
  `affected`);
- questions: the cause asks (`unknown`) no fact the log already answers.

A log with a cause for which explain lists none fails all four (there is no first cause to
judge). A log with `no_cause: true` passes all four when explain lists no cause for it (no `confirmed` or
`symptom-only` match); any listed cause there counts as an invented cause. A crash (an exit
other than 0 or 1, or no JSON) fails every criterion.

Run: .venv/bin/python benchmarks/score_explain.py [SET_DIR] [--json]
(default set: benchmarks/heldout/explain-7)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = ROOT / "benchmarks" / "heldout" / "explain-7"
CRITERIA = ("cause", "line", "firmness", "questions")
CAUSES = ("confirmed", "symptom-only")


@dataclass
class Expectation:
    """What a right answer is for one log (one entry of expectations.yaml)."""

    log: str
    mechanism: str
    no_cause: bool = False
    rules: list[str] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    status: str = "possible"
    answered: list[str] = field(default_factory=list)


@dataclass
class Score:
    """One log's result: each criterion, and what explain said."""

    log: str
    no_cause: bool
    cause: bool = False
    line: bool = False
    firmness: bool = False
    questions: bool = False
    invented: list[str] = field(default_factory=list)
    rule: str | None = None
    verdict: str | None = None
    cited: int | None = None
    asked: list[str] = field(default_factory=list)
    wrongly_asked: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def all_four(self) -> bool:
        return all(getattr(self, name) for name in CRITERIA)


def load(set_dir: Path) -> list[Expectation]:
    """The expectations, each checked against its log: the log exists and every expected line
    substring occurs in it (a typo would otherwise score a miss that is not explain's)."""
    raw = yaml.safe_load((set_dir / "expectations.yaml").read_text(encoding="utf-8"))
    out = []
    for name, entry in raw["logs"].items():
        expectation = Expectation(
            log=name,
            mechanism=str(entry["mechanism"]).strip(),
            no_cause=bool(entry.get("no_cause", False)),
            rules=list(entry.get("rules", [])),
            line=list(entry.get("line", [])),
            status=str(entry.get("status", "possible")),
            answered=list(entry.get("answered", [])),
        )
        path = set_dir / name
        if not path.is_file():
            raise SystemExit(f"{set_dir / 'expectations.yaml'}: no log {name}")
        if expectation.status not in ("affected", "possible"):
            raise SystemExit(f"{name}: status must be affected or possible")
        if not expectation.no_cause:
            if not expectation.rules or not expectation.line:
                raise SystemExit(f"{name}: a log with a cause needs rules and line")
            text = path.read_text(encoding="utf-8", errors="replace")
            for part in expectation.line:
                if part not in text:
                    raise SystemExit(f"{name}: the expected line text {part!r} is not in the log")
        for pattern in expectation.rules + expectation.answered:
            re.compile(pattern)
        out.append(expectation)
    return out


def explain(log: Path) -> tuple[dict[str, Any] | None, str | None]:
    """compat's JSON document for the log, or why there is none."""
    proc = subprocess.run(
        [sys.executable, "-m", "compat", "explain", str(log), "--format", "json", "--no-probe"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if proc.returncode not in (0, 1):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        return None, f"exit {proc.returncode}: {tail[0][:200]}"
    try:
        document: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        return None, f"no JSON: {exc}"
    return document, None


def fullmatch_any(patterns: list[str], value: str) -> bool:
    return any(re.fullmatch(pattern, value) for pattern in patterns)


def judge(expectation: Expectation, document: dict[str, Any], lines: list[str]) -> Score:
    score = Score(log=expectation.log, no_cause=expectation.no_cause)
    causes = [m for m in document.get("matches", []) if m.get("verdict") in CAUSES]
    if expectation.no_cause:
        score.invented = [str(m["rule"]) for m in causes]
        passed = not causes
        score.cause = score.line = score.firmness = score.questions = passed
        return score
    if not causes:
        return score
    first = causes[0]
    score.rule, score.verdict = str(first["rule"]), str(first["verdict"])
    score.cause = fullmatch_any(expectation.rules, score.rule)
    number = first.get("line")
    score.cited = number if isinstance(number, int) else None
    cited = lines[number - 1] if isinstance(number, int) and 0 < number <= len(lines) else ""
    score.line = any(part in cited for part in expectation.line)
    score.firmness = score.verdict != "confirmed" or expectation.status == "affected"
    score.asked = [str(u).split(" — ")[0].strip() for u in first.get("unknown", [])]
    score.wrongly_asked = [key for key in score.asked if fullmatch_any(expectation.answered, key)]
    score.questions = not score.wrongly_asked
    return score


def score_set(set_dir: Path) -> list[Score]:
    results = []
    for expectation in load(set_dir):
        path = set_dir / expectation.log
        document, error = explain(path)
        if document is None:
            results.append(Score(log=expectation.log, no_cause=expectation.no_cause, error=error))
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        results.append(judge(expectation, document, lines))
    return results


def totals(results: list[Score]) -> dict[str, Any]:
    no_cause = [r for r in results if r.no_cause]
    out: dict[str, Any] = {"logs": len(results)}
    for name in CRITERIA:
        out[name] = sum(bool(getattr(r, name)) for r in results)
    out["all_four"] = sum(r.all_four for r in results)
    with_cause = [r for r in results if not r.no_cause]
    out["with_cause"] = {"logs": len(with_cause), "all_four": sum(r.all_four for r in with_cause)}
    out["no_cause"] = {
        "logs": len(no_cause),
        "invented": sum(bool(r.invented) for r in no_cause),
    }
    out["crashed"] = sum(r.error is not None for r in results)
    return out


def mark(value: bool) -> str:
    return "yes" if value else "NO"


def table(results: list[Score]) -> str:
    head = "| log | cause | line | firmness | questions | all four | explain said |"
    rows = [head, "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        if r.error:
            said = f"crashed: {r.error}"
        elif r.no_cause:
            said = "invented: " + ", ".join(r.invented) if r.invented else "no cause listed"
        elif r.rule is None:
            said = "no cause listed"
        else:
            said = f"{r.rule} ({r.verdict}, line {r.cited})"
            if r.wrongly_asked:
                said += "; asked " + ", ".join(r.wrongly_asked)
        rows.append(
            f"| {r.log} | {mark(r.cause)} | {mark(r.line)} | {mark(r.firmness)} | "
            f"{mark(r.questions)} | {mark(r.all_four)} | {said} |"
        )
    return "\n".join(rows)


def summary(total: dict[str, Any]) -> str:
    n = total["logs"]
    parts = [f"{name} {total[name]}/{n}" for name in CRITERIA]
    return (
        f"all four: {total['all_four']}/{n} ({', '.join(parts)}); "
        f"logs with a cause: {total['with_cause']['all_four']}/{total['with_cause']['logs']} "
        f"on all four; invented a cause on {total['no_cause']['invented']}/"
        f"{total['no_cause']['logs']} logs without one; crashed: {total['crashed']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("set_dir", nargs="?", type=Path, default=DEFAULT_SET)
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    args = parser.parse_args(argv)
    results = score_set(args.set_dir)
    total = totals(results)
    if args.json:
        print(
            json.dumps(
                {
                    "set": str(args.set_dir),
                    "totals": total,
                    "logs": [asdict(r) | {"all_four": r.all_four} for r in results],
                },
                indent=2,
            )
        )
    else:
        print(table(results))
        print()
        print(summary(total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
