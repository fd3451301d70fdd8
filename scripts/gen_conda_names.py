"""Generate compat/data/conda-names.json: conda package name -> PyPI project name.

Input: prefix-dev/parselmouth `files/compressed_mapping.json` (the conda-forge -> PyPI name map
pixi uses for its PyPI/conda interplay; a conda name mapped to null has no PyPI counterpart).
Kept: every conda name whose PyPI project is one the shipped knowledge base names, so that a
conda spec or record becomes a package fact exactly where a rule can use it. Everything else is
conda-only to compat (no fact, hence no finding).

    python scripts/gen_conda_names.py compressed_mapping.json COMMIT DATE
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

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


def main() -> None:
    source, commit, date = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
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
