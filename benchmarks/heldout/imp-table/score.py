#!/usr/bin/env python3
"""Score an import table (compat/data/python-imports.json, or the one given) on the held-out
reports in cases.json: a case is right when the table says what the report shows, wrong when it
says otherwise, and a miss when it cannot say (a release it did not read).

Usage: python benchmarks/heldout/imp-table/score.py [TABLE.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from compat.kb import importtable  # noqa: E402


def score(table_path: Path) -> list[tuple[str, str]]:
    families = importtable._families(json.loads(table_path.read_text(encoding="utf-8")))
    cases = json.loads((Path(__file__).parent / "cases.json").read_text(encoding="utf-8"))
    results = []
    for case in cases["cases"]:
        if "defines_from" in case:
            defining, module, name, first, before = case["defines_from"]
            family = next((f for f in families if f.defining == defining), None)
            key = f"{module}:{name}"
            if family is None or key not in family.lacking:
                results.append((case["id"], "miss (pair not read)"))
                continue
            defined = importtable.defined_in(family, key)
            read = set(family.releases)
            if first not in read or before not in read:
                results.append((case["id"], "miss (release not read)"))
            elif first in defined and before not in defined:
                results.append((case["id"], "right"))
            else:
                results.append((case["id"], "wrong"))
            continue
        (importer, i_rel), (defining, d_rel) = case["importer"], case["defining"]
        family = next((f for f in families if f.defining == defining), None)
        if (
            family is None
            or importtable._spelled(d_rel, family.spellings[""]) is None
            or importtable._spelled(i_rel, family.spellings.get(importer)) is None
        ):
            results.append((case["id"], "miss (release not read)"))
            continue
        found = [
            (b.module, b.name)
            for b in importtable.broken(importer, i_rel, defining, d_rel, families)
            if b.reached
        ]
        results.append((case["id"], "right" if tuple(case["breaks"]) in found else "wrong"))
    return results


def main() -> int:
    table = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "compat/data/python-imports.json"
    results = score(table)
    for case, verdict in results:
        print(f"{case}: {verdict}")
    right = sum(v == "right" for _c, v in results)
    print(f"{right}/{len(results)} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
