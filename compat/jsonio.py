"""JSON documents the user gives us (configs, profiles, reports, baselines): one place that turns
a parse error into a one-line InputError naming file, line and column."""

from __future__ import annotations

import json
from typing import Any

from compat.errors import InputError
from compat.model import Origin


def parse_json(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"invalid JSON: {error.msg} (column {error.colno})", origin=Origin(path, error.lineno)
        ) from None
