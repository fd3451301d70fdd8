"""`xdist_group` kept under pytest 9.2 (a plugin of tests/conftest.py; issue 45 item 2).

`--dist loadgroup` (scripts/test) sends the tests of one `xdist_group` to one worker by a suffix
on their node ids (`...::test@ray-cluster`) that pytest-xdist writes on each worker. xdist 3.8
writes it into `item._nodeid`, which pytest 9.2 no longer reads (node ids are structured:
`item._id`), so the suffix is lost and the group's tests go to every worker
(pytest-dev/pytest-xdist#1386, open): each worker then started its own 3-node Ray cluster for
tests/unit/fleet/test_fleet_ray.py and built its own user-install venv. This hook writes the
same suffix where pytest 9.2 reads it, only where xdist's own did not take effect, so it does
nothing under a pytest or an xdist that keeps the suffix.
"""

from __future__ import annotations

import pytest


def group_of(item: pytest.Item) -> str | None:
    """The group name as xdist forms it: every xdist_group mark's name, sorted, joined by `_`."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return "_".join(sorted(names)) if names else None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # set on an xdist worker of a --dist loadgroup run only (xdist's remote setup_config)
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId  # pytest >= 9.2: the structured id
    except ImportError:
        return  # an older pytest reads the suffix xdist wrote
    for item in items:
        group = group_of(item)
        if group is None or item.nodeid.endswith(f"@{group}"):
            continue
        item._id = NodeId.parse(f"{item.nodeid}@{group}")  # type: ignore[attr-defined]
