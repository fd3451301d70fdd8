"""The edit-test loop's tier (`scripts/test --fast`, issue 45): what is left out is marked
`integration` here, at collection, so a new test falls into the right tier by what it uses
rather than by someone remembering a marker.

A test is `integration` when it
- is marked `slow` (it says why);
- asks for the `resolver_env` fixture: it drives real pip or uv resolves (conftest.py);
- lives in tests/product or tests/cli (INTEGRATION_DIRS) and is not one of the cheap contract
  checks (CONTRACT): the suites that run compat as a user does, whole real files of other
  projects, fuzzing, installs of compat's own wheel, the action's steps;
- is in one of INTEGRATION_FILES: unit files that pin, solve or package whole real inputs.

Everything else (unit tests, the rule examples, the schemas, the import layers, the config and
option contract) is the fast tier. CI runs both tiers, always."""

from __future__ import annotations

import pytest

from tests.lib import paths

# tests/product and tests/cli hold contract checks that cost little (the schemas, the import
# layers, the rule language, the config and environment options); the rest of them is the
# user's whole path: compat processes, real pip and uv, an action's steps in bash, the MCP
# server, matrix lint of the whole knowledge base (measured: 0.5-60 s a test, issue 45).
CONTRACT = {
    "test_schemas.py",
    "test_layers.py",
    "test_rule_language.py",
    "test_config.py",
    "test_envopts.py",
}
INTEGRATION_DIRS = ("product", "cli")
# Unit folders' files that pin, solve or package whole real inputs: each of them cost 50-400 s
# summed in a --fast run on a loaded 2-core machine (issue 45, scripts/test_times.py), most of
# the tier's time.
INTEGRATION_FILES = {
    "tests/unit/resolve/test_pin_releases.py",  # pin over every real file, then checked
    "tests/unit/resolve/test_pin_intent.py",  # offline pins of real stacks
    "tests/unit/resolve/test_pin_proof.py",  # the real resolver proves each pin
    "tests/unit/resolve/test_pin_offline_proof.py",
    "tests/unit/commands/test_pixi_environments.py",  # whole pixi locks, every environment
    "tests/unit/kb/test_bundle.py",  # knowledge bundles built, served over HTTP, installed
    "tests/unit/resolve/test_offline_same_answer.py",  # 236 recorded offline solves again
}
INTEGRATION_FIXTURES = {"resolver_env"}


def is_integration(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow") is not None:
        return True
    if INTEGRATION_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    path = item.path
    if path.relative_to(paths.REPO).as_posix() in INTEGRATION_FILES:
        return True
    return path.name not in CONTRACT and any(
        path.is_relative_to(paths.TESTS / folder) for folder in INTEGRATION_DIRS
    )


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_integration(item):
            item.add_marker(pytest.mark.integration)
