"""Generate compat/data/conda-names.json: conda package name -> PyPI project name.

Input: prefix-dev/parselmouth `files/compressed_mapping.json` (the conda-forge -> PyPI name map
pixi uses for its PyPI/conda interplay; a conda name mapped to null has no PyPI counterpart).
Kept: every conda name whose PyPI project is one the shipped knowledge base names, so that a
conda spec or record becomes a package fact exactly where a rule can use it. Everything else is
conda-only to compat (no fact, hence no finding).

    python scripts/gen_conda_names.py compressed_mapping.json COMMIT DATE
    python scripts/gen_conda_names.py --verify compressed_mapping.json [TABLE]   # re-read a sample
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def kb_names() -> set[str]:
    from compat.kb.knowledge import load_knowledge_base
    from compat.names import canonicalize_name

    names: set[str] = set()

    def walk(when: object) -> None:
        if not isinstance(when, dict):
            return
        packages = when.get("packages") or {}
        if isinstance(packages, dict):
            names.update(str(canonicalize_name(n)) for n in packages)
        for branch in when.get("any") or []:
            walk(branch)

    for rule in load_knowledge_base(()).plain:
        walk(rule["when"])
    return names


TABLE = ROOT / "compat" / "data" / "conda-names.json"
VERIFY_ROWS = 8  # recorded names re-read


def verify(source: Path, table: Path = TABLE, count: int = VERIFY_ROWS) -> str:
    """Re-read a seeded sample of the table's rows from the mapping file it records (the file
    must be the one whose sha256 the table names): each sampled conda name must map to the
    same PyPI project there. Raises tablegen.SampleDisagrees on the first row that differs."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from tablegen import SampleDisagrees, resample

    from compat.names import canonicalize_name

    raw = source.read_bytes()
    document = json.loads(table.read_text(encoding="utf-8"))
    digest = hashlib.sha256(raw).hexdigest()
    if digest != document["source"]["sha256"]:
        raise SampleDisagrees(
            f"{table}: {source} is not the mapping the table was made from "
            f"(sha256 {digest[:12]}, the table records {document['source']['sha256'][:12]})"
        )
    mapping = json.loads(raw)

    def reread(row: tuple[str, str]) -> tuple[str, Any, Any]:
        conda, pypi = row
        found = mapping.get(conda)
        return conda, pypi, str(canonicalize_name(found)) if isinstance(found, str) else found

    rows = sorted(document["pypi"].items())
    return resample(str(table), rows, reread, count=count, seed=document["source"]["commit"])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(__doc__ or "").split("\n\n", 2)[-1],
    )
    parser.add_argument(
        "--verify", nargs="+", metavar="FILE", help="MAPPING [TABLE]: re-read a sample of rows"
    )
    parser.add_argument("inputs", nargs="*", metavar="MAPPING COMMIT DATE")
    args = parser.parse_args()
    if args.verify:
        sys.path.insert(0, str(ROOT / "scripts"))
        from tablegen import SampleDisagrees

        table = Path(args.verify[1]) if len(args.verify) > 1 else TABLE
        try:
            print(verify(Path(args.verify[0]), table))
        except SampleDisagrees as error:
            print(f"scripts/gen_conda_names.py: refused: {error}", file=sys.stderr)
            raise SystemExit(1) from None
        return
    if len(args.inputs) != 3:
        parser.error("give MAPPING COMMIT DATE (or --verify MAPPING [TABLE])")
    source, commit, date = Path(args.inputs[0]), args.inputs[1], args.inputs[2]
    from compat.names import canonicalize_name

    raw = source.read_bytes()
    mapping = json.loads(raw)
    wanted = kb_names()
    pypi = {
        conda: str(canonicalize_name(name))
        for conda, name in sorted(mapping.items())
        if isinstance(name, str) and str(canonicalize_name(name)) in wanted
    }
    document = {
        "source": {
            "repository": "https://github.com/prefix-dev/parselmouth",
            "path": "files/compressed_mapping.json",
            "commit": commit,
            "date": date,
            "sha256": hashlib.sha256(raw).hexdigest(),
            "url": f"https://raw.githubusercontent.com/prefix-dev/parselmouth/{commit}/files/compressed_mapping.json",
            "kept": "conda names whose PyPI project a shipped rule names",
        },
        "pypi": pypi,
    }
    out = ROOT / "compat" / "data" / "conda-names.json"
    out.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{out}: {len(pypi)} names")


if __name__ == "__main__":
    main()
