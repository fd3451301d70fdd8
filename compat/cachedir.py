"""Where compat keeps what it may throw away: $COMPAT_CACHE_DIR, else the XDG cache directory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def user_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """$COMPAT_CACHE_DIR, else $XDG_CACHE_HOME/compat, else ~/.cache/compat (not created here).

    Relative values are ignored, as the XDG Base Directory spec asks: a cache that moves with
    the working directory would be refilled in every project.
    """
    env = os.environ if environ is None else environ
    explicit = env.get("COMPAT_CACHE_DIR", "")
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_CACHE_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "compat"
    home = env.get("HOME") or str(Path.home())
    return Path(home) / ".cache" / "compat"
