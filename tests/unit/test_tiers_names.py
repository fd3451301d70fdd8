"""tests/lib/tiers.py names files and test functions by hand: a renamed or moved test would
silently fall back into the fast tier, so every name it lists must still exist."""

from __future__ import annotations

import ast

from tests.lib import paths, tiers


def test_every_integration_file_exists() -> None:
    missing = [name for name in tiers.INTEGRATION_FILES if not (paths.REPO / name).is_file()]
    assert missing == []


def test_every_integration_test_is_a_test_function_of_its_file() -> None:
    missing = []
    for name, reason in tiers.INTEGRATION_TESTS.items():
        assert reason.strip(), name  # each says why it is integration
        file, _, function = name.partition("::")
        path = paths.REPO / file
        defined = (
            {
                node.name
                for node in ast.parse(path.read_text(encoding="utf-8")).body
                if isinstance(node, ast.FunctionDef)
            }
            if path.is_file()
            else set()
        )
        if function not in defined:
            missing.append(name)
    assert missing == []
