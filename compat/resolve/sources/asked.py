"""Every index a user's install could ask (issue 44 item 2): before a project is called absent
from the index, each index the user's pip or uv configuration names is asked too, not only the
one the flags chose. pip reads its configuration unless a flag overrides it, and the user may run
uv instead of pip: a private index configured in either may be where the project lives."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def configured_indexes(
    environ: Mapping[str, str] | None = None, cwd: Path | None = None
) -> list[str]:
    """The index URLs pip's and uv's configuration name (files and environment variables)."""
    from compat.errors import CompatError
    from compat.resolve.sources.indexconfig import _from_pip, _from_uv

    env = os.environ if environ is None else environ
    urls: list[str] = []
    try:
        pip_index, pip_extra, _ = _from_pip(env)
        urls += [pip_index or "", *(pip_extra or ())]
    except CompatError:
        pass  # a bad pip file is check's to report where it uses it, not this list's
    try:
        uv_index, uv_extra, _ = _from_uv(env, cwd or Path.cwd())
        urls += [uv_index or "", *uv_extra]
    except CompatError:
        pass
    return [u for u in urls if u]
