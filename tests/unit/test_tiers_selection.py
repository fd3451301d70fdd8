"""Which runs skip collecting the files that hold only integration tests (tests/lib/tiers.py):
those whose `-m` deselects every `integration` test, whatever its other marks, and no other."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from tests.lib import paths, tiers


class _Options:
    def __init__(self, markexpr: str) -> None:
        self.markexpr = markexpr

    def getoption(self, name: str, default: Any = None) -> Any:
        return self.markexpr if name == "markexpr" else default


@pytest.mark.parametrize(
    ("markexpr", "skips"),
    [
        ("not integration and not slow", True),  # scripts/test --fast
        ("not integration", True),
        ("not (integration or slow)", True),
        ("", False),
        ("integration", False),
        ("not slow", False),
        ("not integration or slow", False),  # a slow integration test is selected
        ("integration and slow", False),
        ("not integration and", False),  # not an expression: collect everything
    ],
)
def test_a_selection_skips_whole_integration_files_only_where_it_drops_every_one(
    markexpr: str, skips: bool
) -> None:
    config = cast(pytest.Config, _Options(markexpr))
    assert tiers.leaves_out_integration(config) is skips


def test_whole_integration_files_are_those_of_the_integration_folders_and_list() -> None:
    assert tiers.whole_file_integration(paths.TESTS / "cli" / "test_check.py")
    assert tiers.whole_file_integration(paths.REPO / "tests/unit/kb/test_pipcheck.py")
    assert not tiers.whole_file_integration(paths.TESTS / "product" / "test_schemas.py")
    assert not tiers.whole_file_integration(paths.TESTS / "unit" / "formats" / "test_html.py")
    assert not tiers.whole_file_integration(Path("/elsewhere/tests/cli/test_check.py"))
