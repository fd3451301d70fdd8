#!/usr/bin/env python3
"""Build a knowledge-base bundle and its index for a release (docs/bundles.md).

    python scripts/build_bundle.py --version 2026.11.24 --out dist/kb
    # -> dist/kb/compat-kb-2026.11.24.tar.gz and dist/kb/compat-kb-index.json

Publish both files where your CI can reach them and point `compat matrix update --url` (or
$COMPAT_MATRIX_URL) at the index: it fetches the bundle the index names (its URL is relative to
the index). `--date` and `--expires` let `matrix update` refuse going backwards and every report
warn once the bundle has expired. The bundle is linted before it is
written, exactly as `compat matrix update` lints it before use, and is byte-for-byte reproducible.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compat import __version__
from compat.errors import CompatError
from compat.kb.bundle import build_bundle, index_document, lint_files, read_bundle, unpack
from compat.kb.knowledge import MATRIX_DIR


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", required=True, help="the bundle's version, e.g. 2026.11.24")
    parser.add_argument("--out", type=Path, required=True, help="directory for the two files")
    parser.add_argument("--matrix", type=Path, default=MATRIX_DIR, help="rule files to bundle")
    parser.add_argument("--min-compat", default=__version__, help="oldest compat that may use it")
    parser.add_argument(
        "--compat-version", default=__version__, help="the compat release the rules extend"
    )
    parser.add_argument("--url", help="the bundle's URL in the index (default: its file name)")
    parser.add_argument("--date", default="", help="the day it is made, YYYY-MM-DD")
    parser.add_argument("--expires", default="", help="the day its rules go stale, YYYY-MM-DD")
    args = parser.parse_args()
    try:
        bundle = build_bundle(
            args.matrix,
            args.version,
            min_compat=args.min_compat,
            compat_version=args.compat_version,
            date=args.date,
            expires=args.expires,
        )
        manifest, files = read_bundle(bundle, "the new bundle")
        with tempfile.TemporaryDirectory() as tmp:
            unpack(files, Path(tmp))
            rules = lint_files(Path(tmp) / "matrix", "the new bundle")
    except CompatError as error:
        sys.stderr.write(f"build_bundle: error: {error}\n")
        return 2
    name = f"compat-kb-{args.version}.tar.gz"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / name).write_bytes(bundle)
    index = index_document(bundle, args.url or name, manifest)
    (args.out / "compat-kb-index.json").write_text(json.dumps(index, indent=2) + "\n")
    print(f"{args.out / name}: {rules} rules, {len(bundle)} bytes, sha256 {index['sha256']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
