"""One entry of a TOML dependency table, as Pipenv's Pipfile and Poetry write them.

Both spell a requirement as a version string or a table: `version`, `extras`, a `git` URL and
its ref, a local `path` (or `file`), `markers`. They differ only in the keys of a git ref, in
whether `url` is a direct reference, in the version syntax and in how markers combine: a
`TableSyntax` says which, and `table_requirement` reads both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from compat.errors import InputError
from compat.model import Origin

Note = Callable[[str], None]


class TableSyntax(NamedTuple):
    refs: tuple[str, ...]  # the keys of a git ref, in order of precedence
    url: bool  # `url = "..."` is a direct reference
    local: tuple[str, ...]  # keys of a local path or file: not checked
    local_note: Callable[[str, Mapping[str, Any]], str]  # (name, entry) -> why it is skipped
    # (name, entry, origin, note) -> the PEP 440 specifier, or None when it cannot be checked
    version: Callable[[str, Mapping[str, Any], Origin, Note], str | None]
    markers: Callable[[Mapping[str, Any]], str]  # entry -> " ; MARKER" (or "")


def table_requirement(
    name: str, value: Any, origin: Origin, syntax: TableSyntax, note: Note
) -> str | None:
    """The entry as a PEP 508 requirement, or None when it is not checked (`note` says why)."""
    if isinstance(value, str):
        value = {"version": value}
    if not isinstance(value, dict):
        raise InputError(f"{name}: expected a version string or a table", origin=origin)
    extras = value.get("extras") or []
    head = f"{name}[{','.join(extras)}]" if extras else name
    if "git" in value:
        ref = next((value[key] for key in syntax.refs if value.get(key)), "")
        text = f"{head} @ git+{value['git']}" + (f"@{ref}" if ref else "")
    elif syntax.url and "url" in value:
        text = f"{head} @ {value['url']}"
    elif any(key in value for key in syntax.local):
        note(f"{origin}: {syntax.local_note(name, value)}")
        return None
    else:
        spec = syntax.version(name, value, origin, note)
        if spec is None:
            return None
        text = f"{head}{spec}"
    return text + syntax.markers(value)
