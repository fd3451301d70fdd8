"""Releases that exist: an exact pin (`==X`, `===X`) of a version the index never published, or
of a release its maintainers yanked (PEP 592), is a finding at the pin's line.

pip and uv refuse a pin of a version the index never served (`peft==0.4.0.dev0`: "No matching
distribution found"), so such a line is `affected`, kind `release`, id
`release:unpublished:NAME`, severity error, naming the nearest real releases below and above it.
A yanked release pinned exactly installs (pip and uv honour `==` to a yanked release, with a
warning), but its maintainers withdrew it, nearly always because it is broken: `affected`, id
`release:yanked:NAME`, severity warning (the default gate fails on it; `--fail-on never` or a
waiver keeps it), with the yank reason where the index gives one.

Where the release list comes from:

* online, the index itself (every index the flags, pip's or uv's configuration and the files'
  own index lines name; PEP 691/503 through IndexClient): the versions it serves and which of
  them have every file yanked;
* offline, compat's dependency snapshot (compat.resolve.sources.snapshot), never the index cache: a
  version is called unpublished only where the snapshot records the package's full
  publication history (`snapshot.history_complete`); a yanked final is known from its record.

Where the list cannot settle it (offline: a package the snapshot does not cover, or whose full
history it does not record; online: an index that could not be read, a file that reads
`--find-links` or `--no-index`), there is no finding and one note
names the pins left unchecked. A project that every index the install asks answered for and
none lists (`ReleaseList.absent`) is `release:unpublished:NAME` too: pip and uv refuse any
version of it (issue 44; compat.resolve.sources.asked names the configured indexes). PEP 440 equality throughout: `torch==2.2` names 2.2.0; a local
label (`+cu121`) is judged by its public version (the build lives on another index).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from packaging.utils import NormalizedName
from packaging.version import Version

from compat.facts.declared.entries import Declared
from compat.kb.verified import verified_finding
from compat.model import Finding, Fix, MatchedPackage, Severity

KIND = "release"
UNPUBLISHED = "unpublished"
YANKED = "yanked"
PEP_592 = "https://peps.python.org/pep-0592/"
PIP_PINS = "https://pip.pypa.io/en/stable/topics/dependency-resolution/"
_CHECKED = ("requirement", "constraint")


@dataclass(frozen=True)
class ReleaseList:
    """What one source says of a package's releases."""

    published: frozenset[Version]  # every version served (public versions)
    yanked: Mapping[Version, str]  # version -> the yank reason ("" when none was given)
    complete: bool  # a version outside `published` was never published
    source: str  # "the index https://pypi.org/simple", "compat's dependency snapshot of DATE"
    page: str  # a page that shows the list
    # Every index the install would ask was read and none lists the project (issue 44 item 2).
    absent: bool = False
    # Online: each version's file names, for the wheels the target can install (issue 44 item 3).
    files: Mapping[Version, tuple[str, ...]] | None = None


def pinned_lines(declared: Iterable[Declared]) -> list[Declared]:
    """The exact pins of requirement and constraint lines (not lock entries: a lock names what
    its tool resolved from the index; not direct references)."""
    return [
        item
        for item in declared
        if item.kind in _CHECKED and item.pinned is not None and not item.url
    ]


def release_findings(
    declared: Iterable[Declared], lists: Mapping[NormalizedName, ReleaseList | None]
) -> tuple[list[Finding], list[Declared]]:
    """The findings of the exact pins, and the pins the lists could not settle."""
    findings: list[Finding] = []
    unsettled: list[Declared] = []
    seen: set[tuple[NormalizedName, Version]] = set()
    for item in pinned_lines(declared):
        assert item.pinned is not None
        pinned = Version(item.pinned.public)
        if (item.name, pinned) in seen:
            continue
        seen.add((item.name, pinned))
        found = lists.get(item.name)
        if found is None:
            unsettled.append(item)
        elif pinned in found.published:
            if pinned in found.yanked:
                findings.append(_yanked(item, pinned, found))
        elif found.complete and found.published:
            findings.append(_unpublished(item, pinned, found))
        elif found.absent:
            findings.append(_absent(item, found))
        else:
            unsettled.append(item)
    return findings, unsettled


def unsettled_note(items: Sequence[Declared], why: str) -> str:
    pins = ", ".join(f"`{item.name}=={item.pinned}` ({item.origin})" for item in items)
    return f"whether these exact pins name published releases was not checked ({why}): {pins}"


def nearest(pinned: Version, found: ReleaseList) -> tuple[Version | None, Version | None]:
    """The nearest final releases below and above `pinned` that are not yanked."""
    real = sorted(v for v in found.published if not v.is_prerelease and v not in found.yanked)
    below = [v for v in real if v < pinned]
    above = [v for v in real if v > pinned]
    return (below[-1] if below else None), (above[0] if above else None)


def _unpublished(item: Declared, pinned: Version, found: ReleaseList) -> Finding:
    below, above = nearest(pinned, found)
    near = ", ".join(
        f"{v} {where}" for v, where in ((below, "below"), (above, "above")) if v is not None
    )
    choice = above or below
    return _finding(
        item,
        f"release:{UNPUBLISHED}:{item.name}",
        f"{item.display_name} {item.pinned}: {found.source} never published this release; "
        f"pip and uv refuse `{item.raw}` (nearest releases: {near or 'none'})",
        Fix(
            f"pin a release that exists ({near or 'the index lists none'})",
            (f"{item.display_name}=={choice}",) if choice is not None else (),
        ),
        (found.page, PIP_PINS),
        Severity.ERROR,
    )


def absent_findings(
    items: Iterable[Declared], lists: Mapping[NormalizedName, ReleaseList | None]
) -> list[Finding]:
    """Range lines (and bare names) of projects that no index the install asks lists: pip and
    uv refuse them as they refuse such a pin (issue 44 item 2), once per project."""
    out: list[Finding] = []
    seen: set[NormalizedName] = set()
    for item in items:
        found = lists.get(item.name)
        if found is not None and found.absent and item.name not in seen:
            seen.add(item.name)
            out.append(_absent(item, found))
    return out


def _absent(item: Declared, found: ReleaseList) -> Finding:
    """A project no index the install asks lists: pip and uv refuse the line ("No matching
    distribution found"), whatever the version."""
    named = f"{item.display_name} {item.pinned}" if item.pinned is not None else item.display_name
    return _finding(
        item,
        f"release:{UNPUBLISHED}:{item.name}",
        f"{named}: {found.source} lists no project {item.name}; pip and uv refuse `{item.raw}`",
        Fix(
            "check the project's name, or name the index that serves it (--extra-index-url, "
            "pip's or uv's configuration, or an --extra-index-url line in the file)"
        ),
        (found.page, PIP_PINS),
        Severity.ERROR,
    )


def _yanked(item: Declared, pinned: Version, found: ReleaseList) -> Finding:
    below, above = nearest(pinned, found)
    reason = found.yanked.get(pinned, "")
    choice = next(
        (v for v in (above, below) if v is not None and v.release[:2] == pinned.release[:2]),
        above or below,
    )
    return _finding(
        item,
        f"release:{YANKED}:{item.name}",
        f"{item.display_name} {item.pinned} was yanked from {found.source}"
        + (f" ({reason})" if reason else "")
        + ": pip and uv still install it for `==`, with a warning",
        Fix(
            "pin a release that was not withdrawn" + (f" ({choice})" if choice is not None else ""),
            (f"{item.display_name}=={choice}",) if choice is not None else (),
        ),
        (found.page, PEP_592),
        Severity.WARNING,
    )


def _finding(
    item: Declared, id: str, title: str, fix: Fix, references: tuple[str, ...], severity: Severity
) -> Finding:
    return verified_finding(
        id,
        title,
        fix,
        kind=KIND,
        origin=item.origin,
        packages=[
            MatchedPackage(
                item.name,
                str(item.pinned) if item.pinned is not None else str(item.specifier) or "*",
                item.origin,
            )
        ],
        matched=[f"{item.origin}: {item.raw}"],
        references=references,
        severity=severity,
    )


# -- where the lists come from ----------------------------------------------------------------


def snapshot_lists(names: Iterable[NormalizedName]) -> dict[NormalizedName, ReleaseList | None]:
    """Offline: compat's dependency snapshot (None: not covered)."""
    from compat.resolve.sources import snapshot

    out: dict[NormalizedName, ReleaseList | None] = {}
    for name in names:
        if not snapshot.covers(name):
            out[name] = None
            continue
        out[name] = ReleaseList(
            published=frozenset(Version(v.public) for v in snapshot.published(name)),
            yanked={r.version: "" for r in snapshot.records(name) if r.yanked},
            complete=snapshot.history_complete(name),
            source=f"PyPI (compat's dependency snapshot of {snapshot.fetched()})",
            page=f"https://pypi.org/project/{name}/#history",
        )
    return out


def index_lists(
    names: Iterable[NormalizedName], urls: Sequence[str], timeout: float
) -> tuple[dict[NormalizedName, ReleaseList | None], list[str]]:
    """Online: every index in `urls` (pip's merged view). A package is None where some index
    could not be read (its list may be incomplete), and where no index knows the project."""
    from concurrent.futures import ThreadPoolExecutor

    from compat.errors import IndexAccessError
    from compat.resolve.sources.index import IndexClient, redact
    from compat.resolve.sources.indexconfig import IndexConfig

    wanted = sorted(set(names))
    files: dict[NormalizedName, list[Any]] = {name: [] for name in wanted}
    failed: dict[NormalizedName, str] = {}
    for url in urls:
        config = IndexConfig(index_url=url, extra_index_urls=(), source="check")
        with IndexClient(config, timeout=timeout) as client:

            def read(name: NormalizedName, client: IndexClient = client) -> list[Any] | str:
                try:
                    return client.candidates(name)
                except IndexAccessError as error:
                    return str(error)

            with ThreadPoolExecutor(max_workers=max(1, min(8, len(wanted)))) as pool:
                for name, got in zip(wanted, pool.map(read, wanted), strict=True):
                    if isinstance(got, str):
                        failed.setdefault(name, got)
                    else:
                        files[name] += got
    where = redact(urls[0]) + (f" (and {len(urls) - 1} more)" if len(urls) > 1 else "")
    out: dict[NormalizedName, ReleaseList | None] = {}
    asked = ", ".join(redact(u) for u in urls)
    for name in wanted:
        if name not in failed and not files[name]:
            # Every index answered and none has it: pip and uv find nothing to install.
            out[name] = ReleaseList(
                frozenset(), {}, True, f"no index asked ({asked})", redact(urls[0]), absent=True
            )
            continue
        if name in failed:
            out[name] = None
            continue
        by_version: dict[Version, list[str | None]] = {}
        filenames: dict[Version, list[str]] = {}
        for candidate in files[name]:
            version = Version(candidate.version.public)
            by_version.setdefault(version, []).append(candidate.yanked)
            if candidate.version.local is None:
                filenames.setdefault(version, []).append(candidate.filename)
        out[name] = ReleaseList(
            published=frozenset(by_version),
            # PEP 592: a release is yanked when every one of its files is
            yanked={
                v: next((r for r in marks if r), "")
                for v, marks in by_version.items()
                if all(m is not None for m in marks)
            },
            complete=True,
            source=f"the index {where}",
            page=redact(urls[0]).rstrip("/") + f"/{name}/",
            files={v: tuple(f) for v, f in filenames.items()},
        )
    notes = [f"{name}: the index could not be read ({why})" for name, why in sorted(failed.items())]
    return out, notes
