"""The mapping every generated table (compat/data/*.json) is read through: rows by release,
looked up by `compat.versions.release_key`, so that any PEP 440 spelling of a release finds its
row. Imported by the table readers only, when a rule first asks (a generic Mapping subclass costs
a fifth of a millisecond to create: not for doctor's start-up)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar

from packaging.version import Version

from compat.versions import release_key

_Row = TypeVar("_Row")


class ReleaseTable(Mapping[Version, _Row]):
    """A generated table's rows by release, looked up by `release_key`: any spelling of a release
    (`2.2`, `2.2.0`, `2.2.0+cu121`) finds its row, whichever spelling the table was written in.

    Built from (version text, row) pairs; two spellings of one release in one table are an
    error of the generator, refused here rather than one row silently hiding the other."""

    __slots__ = ("_rows",)

    def __init__(self, rows: Mapping[str, _Row] | Iterable[tuple[str, _Row]]) -> None:
        pairs = rows.items() if isinstance(rows, Mapping) else rows
        found: dict[Version, _Row] = {}
        spelled: dict[Version, str] = {}
        for text, row in pairs:
            key = release_key(text)
            if key in spelled:
                raise ValueError(f"{spelled[key]!r} and {text!r} are one release (PEP 440)")
            found[key] = row
            spelled[key] = text
        self._rows = found

    def __getitem__(self, version: Version) -> _Row:
        return self._rows[release_key(version)]

    def __contains__(self, version: object) -> bool:
        return isinstance(version, Version) and release_key(version) in self._rows

    def __iter__(self) -> Iterator[Version]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def releases(self) -> tuple[Version, ...]:
        """Every release the table has a row for, oldest first."""
        return tuple(sorted(self._rows))
