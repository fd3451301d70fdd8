"""The edit-test loop's tier (`scripts/test --fast`, issue 45): what is left out is marked
`integration` here, at collection, so a new test falls into the right tier by what it uses
rather than by someone remembering a marker.

A test is `integration` when it
- is marked `slow` (it says why);
- asks for the `resolver_env` fixture: it drives real pip or uv resolves (conftest.py);
- lives in one of INTEGRATION_PATHS: the product suites that run compat as a user does, whole
  real files of other projects, fuzzing, installs of compat's own wheel.

Everything else (unit tests, the rule examples, the CLI's contract through typer's runner, the
schemas and the import layers) is the fast tier. CI runs both tiers, always."""

from __future__ import annotations

import pytest

from tests.lib import paths

# tests/product holds the contract checks too (the schemas, the import layers, the rule
# language); the rest of it is the user's whole path.
CONTRACT = {"test_schemas.py", "test_layers.py", "test_rule_language.py"}
INTEGRATION_FIXTURES = {"resolver_env"}


def is_integration(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow") is not None:
        return True
    if INTEGRATION_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    path = item.path
    product = paths.TESTS / "product"
    return path.is_relative_to(product) and path.name not in CONTRACT


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_integration(item):
            item.add_marker(pytest.mark.integration)
