"""Capabilities: the first release of a package that has a feature a usage fact needs.

`compat/data/capabilities.yaml` (schema `compat.capabilities/1`) says, for instance, that
GRPO training needs trl 0.14.0 or later (GRPOTrainer is absent from 0.13.0). `compat pin` reads
them as floors: it never moves a package below what the stated usage needs. Only usage the
user stated counts: an unknown trainer needs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import InvalidVersion, Version

from compat.errors import CompatError, KnowledgeBaseError
from compat.model import Condition, Evidence, Facts, Origin, Tri
from compat.versions import parse_version

CAPABILITIES_SCHEMA = "compat.capabilities/1"
# Shipped beside the data pin reads, not among the rule files (compat/matrix holds rules only).
SHIPPED = Path(__file__).parent.parent / "data" / "capabilities.yaml"
CAPABILITY_KEYS = {
    "id", "feature", "package", "since", "evidence", "description", "when", "references",
    "examples",
}  # fmt: skip
EXAMPLE_KINDS = ("needs", "not_needed")
_HEAD = re.compile(rb"^schema:\s*['\"]?compat\.capabilities/1", re.MULTILINE)


@dataclass(frozen=True)
class Capability:
    id: str
    feature: str
    package: NormalizedName
    since: Version
    when: Condition
    evidence: Evidence
    references: tuple[str, ...]
    examples: tuple[tuple[str, Mapping[str, Any], Origin], ...]
    origin: Origin

    def needed(self, facts: Facts) -> bool:
        """True only when the stated usage needs the feature (unknown usage needs nothing)."""
        return self.when.evaluate(facts).value is Tri.TRUE


def is_capability_file(path: Path) -> bool:
    """Cheap test on the first bytes, so that pin does not parse every rule file to find these."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return _HEAD.search(head) is not None


def validate_capabilities(path: Path, doc: Any) -> list[dict[str, Any]]:
    """One `compat.capabilities/1` document -> plain capability dicts (marshallable);
    KnowledgeBaseError names file:line."""
    from compat.kb.knowledge import URL_PATTERN, _Validator
    from compat.names import canonicalize_name

    check = _Validator(str(path))
    doc = check.mapping(doc, "a capabilities file")
    check.unknown_keys(doc, {"schema", "capabilities"}, "the file")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for node in check.sequence(doc.get("capabilities", []), "capabilities", doc, "capabilities"):
        node = check.mapping(node, "a capability")
        check.unknown_keys(node, CAPABILITY_KEYS, "a capability")
        for key in ("id", "feature", "package", "since", "evidence", "when", "references"):
            if key not in node:
                raise check.fail(node, f"capability is missing required key {key!r}")
        cap_id = check.text(node["id"], "id", node, "id")
        if cap_id in seen:
            raise check.fail(node, f"duplicate capability id {cap_id!r}", "id")
        seen.add(cap_id)
        try:
            since = parse_version(str(node["since"]))
        except InvalidVersion:
            raise check.fail(node, f"since {node['since']!r} is not a version", "since") from None
        evidence = node["evidence"]
        if evidence not in {e.value for e in Evidence}:
            raise check.fail(node, "evidence must be verified or reported", "evidence")
        when = check.mapping(node["when"], "when", node, "when")
        check.unknown_keys(when, {"usage", "packages", "any"}, "a capability's when")
        if "usage" not in when and "any" not in when:
            raise check.fail(node, "a capability's when needs a usage condition", "when")
        plain_when = check.when(when, node, "when")
        references = check.sequence(node["references"], "references", node, "references")
        if not references or not all(
            isinstance(r, str) and URL_PATTERN.match(r) for r in references
        ):
            raise check.fail(node, "references must be one or more http(s) URLs", "references")
        examples = check.mapping(node.get("examples"), "examples", node, "examples")
        check.unknown_keys(examples, set(EXAMPLE_KINDS), "examples")
        if not examples.get("needs") or not examples.get("not_needed"):
            raise check.fail(
                node, "examples need 'needs' and 'not_needed' environments", "examples"
            )
        cases = []
        for kind in EXAMPLE_KINDS:
            for item in check.sequence(examples[kind], kind, examples, kind):
                item = check.mapping(item, f"an example under {kind}")
                check.unknown_keys(item, {"packages", "usage", "hardware"}, "an example")
                cases.append((kind, _plain(item), Origin(str(path), item.line)))
        out.append(
            {
                "id": cap_id,
                "feature": check.text(node["feature"], "feature", node, "feature"),
                "package": str(canonicalize_name(str(node["package"]))),
                "since": str(since),
                "when": _plain(plain_when),
                "evidence": evidence,
                "references": [str(r) for r in references],
                "examples": [(kind, data, origin.line) for kind, data, origin in cases],
                "line": node.line,
            }
        )
    return out


def _build(path: str, plain: Mapping[str, Any]) -> Capability:
    from compat.kb.knowledge import compile_when

    return Capability(
        id=plain["id"],
        feature=plain["feature"],
        package=NormalizedName(plain["package"]),
        since=Version(plain["since"]),
        when=compile_when(plain["when"]),
        evidence=Evidence(plain["evidence"]),
        references=tuple(plain["references"]),
        examples=tuple((kind, data, Origin(path, line)) for kind, data, line in plain["examples"]),
        origin=Origin(path, plain["line"]),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def read_capability_file(path: Path, *, use_cache: bool = False) -> list[Capability]:
    """Validated capabilities of one file; with `use_cache`, from a marshalled copy keyed by
    the file's stat data (as the rule cache is), so that pin does not parse YAML every run."""
    cache = _cache_path(path) if use_cache else None
    plain = _read_cache(cache) if cache is not None else None
    if plain is None:
        plain = _validate_file(path)
        if cache is not None:
            _write_cache(cache, plain)
    return [_build(str(path), item) for item in plain]


def _validate_file(path: Path) -> list[dict[str, Any]]:
    from compat.errors import InputError
    from compat.files.yamlio import load_with_lines

    try:
        doc = load_with_lines(path.read_text(encoding="utf-8"), str(path))
    except OSError as error:
        raise KnowledgeBaseError(
            f"cannot read capability file: {error.strerror}", origin=Origin(str(path))
        ) from None
    except InputError as error:
        raise KnowledgeBaseError(error.message, origin=error.origin) from None
    return validate_capabilities(path, doc)


def _cache_path(path: Path) -> Path | None:
    import hashlib

    from compat import __version__
    from compat.files.cachedir import user_cache_dir

    try:
        stat = path.stat()
    except OSError:
        return None
    stamp = f"1:{__version__}:{path.resolve()}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}"
    return (
        user_cache_dir() / f"capabilities-{hashlib.sha256(stamp.encode()).hexdigest()[:32]}.marshal"
    )


def _read_cache(path: Path) -> list[dict[str, Any]] | None:
    import marshal

    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return data if isinstance(data, list) else None


def _write_cache(path: Path, plain: list[dict[str, Any]]) -> None:
    import marshal
    import os
    import tempfile

    try:  # best effort: a read-only cache never fails pin
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".cap-", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            handle.write(marshal.dumps(plain))
        Path(tmp).replace(path)
    except (OSError, ValueError):
        pass


def load_capabilities(files: Sequence[Path | str] = ()) -> tuple[Capability, ...]:
    """The shipped capabilities, then those of `files` (the `--matrix` files) that declare them."""
    found: list[Capability] = []
    for item in (SHIPPED, *files):
        path = Path(item)
        if is_capability_file(path) and (path == SHIPPED or path.resolve() != SHIPPED.resolve()):
            found.extend(read_capability_file(path, use_cache=True))
    return tuple(found)


def example_problems(capability: Capability) -> list[str]:
    """Run a capability's examples: `needs` must need it, `not_needed` must not."""
    from compat.kb.examples import facts_from_example

    problems = []
    for kind, data, origin in capability.examples:
        try:
            facts = facts_from_example(data, origin)
        except CompatError as error:
            problems.append(str(error))
            continue
        needed = capability.needed(facts)
        if needed != (kind == "needs"):
            got = "needs" if needed else "not_needed"
            problems.append(
                f"{origin}: capability {capability.id}: example expected {kind}, got {got}"
            )
    return problems


@dataclass(frozen=True)
class Floor:
    version: Version
    capability: Capability


def floors(capabilities: Sequence[Capability], facts: Facts) -> dict[NormalizedName, Floor]:
    """The lowest release of each package that the stated usage allows (the highest `since`)."""
    out: dict[NormalizedName, Floor] = {}
    for capability in capabilities:
        if not capability.needed(facts):
            continue
        current = out.get(capability.package)
        if current is None or capability.since > current.version:
            out[capability.package] = Floor(capability.since, capability)
    return out
