"""The offline solve's recorded inputs and answers (tests/data/solves): how one call of
compat.resolve.check.offline.solve is written as JSON and solved again. Recorded by
benchmarks/offline_solves.py on the solve before issue 45 made it faster; compared by
tests/unit/resolve/test_offline_same_answer.py."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tests.lib import paths

OUT = paths.DATA / "solves"


def _served(served: Mapping[str, Callable[[Any], bool]] | None) -> dict[str, list[str]]:
    from packaging.utils import canonicalize_name

    from compat.resolve.sources import snapshot

    out: dict[str, list[str]] = {}
    for name, accepts in (served or {}).items():
        versions = snapshot.releases(canonicalize_name(name))
        out[name] = sorted(str(v) for v in versions if accepts(v))
    return out


def encode_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    wanted, python, markers, *rest = args
    served = rest[0] if rest else kwargs.get("served")
    rebuilt = rest[1] if len(rest) > 1 else kwargs.get("rebuilt", frozenset())
    return {
        "wanted": [
            {
                "name": w.name,
                "specifier": str(w.specifier),
                "extras": sorted(w.extras),
                "url": w.url,
                "constraint": w.constraint,
                "version": None if w.version is None else str(w.version),
                "provided": w.provided,
            }
            for w in wanted
        ],
        "python": str(python),
        "markers": dict(markers),
        "served": _served(served),
        "rebuilt": sorted(rebuilt),
    }


def decode_inputs(item: Mapping[str, Any]) -> tuple[Any, ...]:
    """solve()'s positional arguments from one recorded input."""
    from packaging.specifiers import SpecifierSet
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    from compat.resolve.check.offline import Wanted

    wanted = [
        Wanted(
            canonicalize_name(w["name"]),
            SpecifierSet(w["specifier"]),
            frozenset(w["extras"]),
            url=w["url"],
            constraint=w["constraint"],
            version=None if w["version"] is None else Version(w["version"]),
            provided=w["provided"],
        )
        for w in item["wanted"]
    ]
    served = {
        canonicalize_name(name): frozenset(Version(v) for v in versions).__contains__
        for name, versions in item["served"].items()
    }
    rebuilt = frozenset(canonicalize_name(n) for n in item["rebuilt"])
    return wanted, Version(item["python"]), item["markers"], served, rebuilt


def encode_answer(answer: Any) -> dict[str, Any]:
    """An OfflineInstall, or the NoOfflineInstall raised, as plain JSON."""
    from compat.resolve.check.offline import NoOfflineInstall

    if isinstance(answer, NoOfflineInstall):
        return {
            "raised": type(answer).__name__,
            "message": str(answer),
            "explanation": answer.explanation,
        }
    return {
        "packages": {str(k): str(v) for k, v in answer.packages.items()},
        "unknown": {str(k): str(v) for k, v in answer.unknown.items()},
        "unread": list(answer.unread),
        "required_by": dict(sorted((str(k), v) for k, v in answer.required_by.items())),
        "recorded": list(answer.recorded),
        "installed": list(answer.installed),
    }


def solve_recorded(item: Mapping[str, Any]) -> dict[str, Any]:
    """One recorded input solved again, the answer encoded as recorded (no clock: the counts of
    work bound it, whatever the machine's load)."""
    from compat.resolve.check import offline

    try:
        answer: Any = offline.solve(*decode_inputs(item), clock=False)
    except offline.NoOfflineInstall as error:
        answer = error
    return encode_answer(answer)


def write(path: Path, document: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(document, indent=1, sort_keys=True).encode() + b"\n"
    tmp = path.with_suffix(path.suffix + ".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as stream:
        stream.write(data)
    tmp.replace(path)


def read(name: str) -> Any:
    with gzip.open(OUT / name, "rt", encoding="utf-8") as stream:
        return json.load(stream)
