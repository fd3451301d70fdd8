"""PEP 503 name normalization without importing packaging.utils (and its packaging.tags) at start-up."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

_SEPARATORS = re.compile(r"[-_.]+")


def canonicalize_name(name: str) -> NormalizedName:
    """Exactly packaging.utils.canonicalize_name: runs of -_. become -, lowercased."""
    return cast("NormalizedName", _SEPARATORS.sub("-", name).lower())
