"""The import table (compat/data/python-imports.json) finds a release however its version is
spelled, as every generated table does (versions.release_key): `0.26`, `0.26.0` and a local build
`0.26.0+local` are one release of huggingface_hub; an unread release is no answer."""

from __future__ import annotations

import pytest

from compat.kb.importtable import broken, families


def _hub() -> str:
    (defining,) = {f.defining for f in families() if f.module == "huggingface_hub"}
    return defining


@pytest.mark.parametrize("hub", ["0.26.0", "0.26", "0.26.0.0", "0.26.0+local"])
@pytest.mark.parametrize("st", ["2.2.2", "2.2.2.0"])
def test_every_spelling_of_a_release_finds_its_row(hub: str, st: str) -> None:
    found = broken("sentence-transformers", st, _hub(), hub)
    assert {b.name for b in found} >= {"cached_download"}


@pytest.mark.parametrize("hub", ["0.25.2", "0.25.2.0", "0.19.99", "not-a-version"])
def test_a_release_that_defines_it_or_was_never_read_is_no_break(hub: str) -> None:
    assert not [b for b in broken("sentence-transformers", "2.2.2", _hub(), hub)
                if b.name == "cached_download"]  # fmt: skip
