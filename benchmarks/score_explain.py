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

An import failure explain reads (issue 41 item 3: its `imports`) is a cause where it is one
(`cause` possible or confirmed, or, in documents before that field, as `has_cause` counts it),
named `import:KIND:MODULE:NAME`, after the rules' matches. A log whose expectations carry an
`import` block (benchmarks/heldout/explain-imports-1/ documents it) is also judged on a fifth
criterion, kept apart from the four: facts, the import failure read names the releases that
define the name (or none, where compat cannot know them), the module's version the log shows (or
asks for it), and the importing distribution and release the frame and the log show.

A log whose expectations carry `states` (a list of `KIND[.KEY]: VALUE`, e.g. `gfx_target: gfx1103`
or `package.torch: 2.2.0+rocm5.7`) is also judged, apart from the four, on the facts the log
states: each must be among the facts explain read (`facts[]`, KIND and KEY as it names them).
This is what the four criteria do not see: a cause that asks nothing may still have left unread
the GPU target or torch build the log prints. `not_states` lists facts explain must not read
(a build's requested target is not the GPU's).

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
    imports: dict[str, Any] | None = None
    not_causes: list[str] = field(default_factory=list)  # lines no listed cause may cite
    states: list[str] = field(default_factory=list)  # facts the log states, KIND[.KEY]: VALUE
    not_states: list[str] = field(default_factory=list)  # facts explain must not read


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
    facts: bool | None = None  # the import facts, where the expectations name them
    facts_wrong: list[str] = field(default_factory=list)
    stated: bool | None = None  # the facts the log states, where the expectations name them
    stated_wrong: list[str] = field(default_factory=list)

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
            imports=entry.get("import"),
            not_causes=list(entry.get("not_causes", [])),
            states=[str(x) for x in entry.get("states", [])],
            not_states=[str(x) for x in entry.get("not_states", [])],
        )
        for fact in expectation.states + expectation.not_states:
            if ": " not in fact:
                raise SystemExit(f"{name}: a stated fact is KIND[.KEY]: VALUE, not {fact!r}")
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
        if expectation.not_causes:
            text = path.read_text(encoding="utf-8", errors="replace")
            for part in expectation.not_causes:
                if part not in text:
                    raise SystemExit(f"{name}: the not-a-cause text {part!r} is not in the log")
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
    causes += import_causes(document)
    if expectation.imports is not None:
        score.facts_wrong = import_facts(expectation.imports, document)
        score.facts = not score.facts_wrong
    if expectation.states or expectation.not_states:
        score.stated_wrong = stated_facts(expectation, document)
        score.stated = not score.stated_wrong
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
    for other in causes[1:]:  # a line the expectations say is no cause, listed as one
        at = other.get("line")
        text = lines[at - 1] if isinstance(at, int) and 0 < at <= len(lines) else ""
        if any(part in text for part in expectation.not_causes):
            score.invented.append(str(other["rule"]))
            score.cause = False
    number = first.get("line")
    score.cited = number if isinstance(number, int) else None
    cited = lines[number - 1] if isinstance(number, int) and 0 < number <= len(lines) else ""
    score.line = any(part in cited for part in expectation.line)
    score.firmness = score.verdict != "confirmed" or expectation.status == "affected"
    score.asked = [str(u).split(" — ")[0].strip() for u in first.get("unknown", [])]
    score.wrongly_asked = [key for key in score.asked if fullmatch_any(expectation.answered, key)]
    score.questions = not score.wrongly_asked
    return score


def _read(document: dict[str, Any]) -> set[tuple[str, str]]:
    """The facts explain read, as (KIND, VALUE) and (KIND.KEY, VALUE) pairs."""
    out: set[tuple[str, str]] = set()
    for fact in document.get("facts") or []:
        kind, key, value = str(fact.get("kind")), str(fact.get("key")), str(fact.get("value"))
        out |= {(kind, value), (f"{kind}.{key}", value)}
    return out


def stated_facts(expectation: Expectation, document: dict[str, Any]) -> list[str]:
    """The stated facts explain did not read, and the facts it read that it must not ([] right)."""
    read = _read(document)
    wrong = []
    for fact in expectation.states:
        name, _, value = fact.partition(": ")
        if (name, value) not in read:
            wrong.append(f"not read: {fact}")
    for fact in expectation.not_states:
        name, _, value = fact.partition(": ")
        if (name, value) in read:
            wrong.append(f"read: {fact}")
    return wrong


def _import_cause(entry: dict[str, Any], judged: set[int]) -> str:
    """confirmed | possible | '' (none): the document's `cause`, or, in documents before it, what
    compat.commands.explain.import_causes counted."""
    cause = entry.get("cause")
    if cause is None:
        installed, kind = entry.get("installed"), entry.get("kind")
        if installed == "lacks":
            cause = "confirmed"
        elif installed == "defines":
            cause = "ruled-out"
        else:
            cause = "possible" if kind == "cannot-import-name" else ""
    if cause == "possible" and entry.get("line") in judged:
        return ""  # a rule judged the same line: it is the cause listed
    return str(cause) if cause in ("confirmed", "possible") else ""


def _asks(entry: dict[str, Any]) -> bool:
    if "asks" in entry:
        return bool(entry["asks"])
    return "does not show it" in str(entry.get("detail", ""))


def import_causes(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The import failures that are causes, as matches: `import:KIND:MODULE:NAME`."""
    judged = {m.get("line") for m in document.get("matches", [])}
    out = []
    for entry in document.get("imports", []):
        cause = _import_cause(entry, judged)
        if not cause:
            continue
        asked = [f"packages.{entry.get('distribution', '')}"] if _asks(entry) else []
        out.append(
            {
                "rule": f"import:{entry['kind']}:{entry['module']}:{entry['name']}",
                "verdict": "confirmed" if cause == "confirmed" else "symptom-only",
                "line": entry.get("line"),
                "unknown": asked,
            }
        )
    return out


_SPANS = re.compile(r"that define it \(of those compat read[^)]*\): ([^;]+);")


def _defined_in(entry: dict[str, Any]) -> list[str]:
    """The spans of releases the entry names as defining the name ([] none)."""
    if "defined_in" in entry:
        value = entry["defined_in"]
        return [s.strip() for s in str(value).split(",") if s.strip()] if value else []
    hit = _SPANS.search(str(entry.get("detail", "")))
    return [s.strip() for s in hit.group(1).split(",")] if hit else []


def _inside(spans: list[str], release: str) -> bool:
    from packaging.version import Version

    for span in spans:
        low, _, high = span.partition("–")
        try:
            if Version(low) <= Version(release) <= Version(high or low):
                return True
        except ValueError:
            continue
    return False


def import_facts(want: dict[str, Any], document: dict[str, Any]) -> list[str]:
    """What the import failure read gets wrong of the expected facts ([] all right)."""
    from packaging.utils import canonicalize_name

    found = [
        e
        for e in document.get("imports", [])
        if (e.get("module"), e.get("name")) == (want["module"], want["name"])
    ]
    if not found:
        return ["not read"]
    entry, wrong = found[0], []
    spans = _defined_in(entry)
    defined = want.get("defined_in")
    if defined == "unknown":
        if spans:
            wrong.append(f"named releases {', '.join(spans)} it cannot know")
    elif isinstance(defined, dict) and (
        not all(_inside(spans, r) for r in defined.get("in", []))
        or any(_inside(spans, r) for r in defined.get("out", []))
    ):
        wrong.append(f"defining releases {', '.join(spans) or 'none named'}")
    version = str(want.get("version", ""))
    if version:
        if entry.get("version") != version:
            wrong.append(f"version {entry.get('version') or 'not read'} (log: {version})")
    elif entry.get("version") or not _asks(entry):
        wrong.append("did not ask for the version")
    importer = str(want.get("importer", ""))
    said = str(entry.get("importer_package", ""))
    if canonicalize_name(said or "-") != canonicalize_name(importer or "-"):
        wrong.append(f"importer {said or 'none'} (frame: {importer or 'none'})")
    release = str(want.get("importer_release", ""))
    if str(entry.get("importer_release", "")) != release:
        wrong.append(f"importer release {entry.get('importer_release') or 'none'}")
    return wrong


def score_set(set_dir: Path) -> list[Score]:
    results = []
    for expectation in load(set_dir):
        if expectation.imports is not None:
            _FACTS.add(expectation.log)
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
    judged = [r for r in results if r.facts is not None or (r.error and r.log in _FACTS)]
    if judged:
        out["import_facts"] = {"logs": len(judged), "right": sum(bool(r.facts) for r in judged)}
    stated = [r for r in results if r.stated is not None]
    if stated:
        out["stated_facts"] = {"logs": len(stated), "right": sum(bool(r.stated) for r in stated)}
    return out


_FACTS: set[str] = set()  # the logs whose expectations name import facts (a crash fails them)


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
            if r.invented:
                said += "; also listed, no cause: " + ", ".join(r.invented)
        if r.facts is not None:
            said += "; import facts: " + ("right" if r.facts else "; ".join(r.facts_wrong))
        if r.stated is not None:
            said += "; stated facts: " + ("read" if r.stated else "; ".join(r.stated_wrong))
        rows.append(
            f"| {r.log} | {mark(r.cause)} | {mark(r.line)} | {mark(r.firmness)} | "
            f"{mark(r.questions)} | {mark(r.all_four)} | {said} |"
        )
    return "\n".join(rows)


def summary(total: dict[str, Any]) -> str:
    n = total["logs"]
    parts = [f"{name} {total[name]}/{n}" for name in CRITERIA]
    facts = total.get("import_facts")
    tail = f"; import facts right: {facts['right']}/{facts['logs']}" if facts else ""
    stated = total.get("stated_facts")
    if stated:
        tail += f"; stated facts read: {stated['right']}/{stated['logs']}"
    return (
        f"all four: {total['all_four']}/{n} ({', '.join(parts)}); "
        f"logs with a cause: {total['with_cause']['all_four']}/{total['with_cause']['logs']} "
        f"on all four; invented a cause on {total['no_cause']['invented']}/"
        f"{total['no_cause']['logs']} logs without one; crashed: {total['crashed']}{tail}"
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
