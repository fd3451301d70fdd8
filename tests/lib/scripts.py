"""A script under scripts/ loaded as a module, for the tests of its functions: the scripts are
run by path, not installed, so they are no package to import."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from tests.lib.paths import REPO


def load_script(name: str) -> ModuleType:
    """scripts/NAME.py, executed as the module NAME (its own top level runs, not its main)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
