"""Where compat keeps what it may throw away: $COMPAT_CACHE_DIR, else the XDG cache directory.

Always an absolute path with `~` expanded, so that no relative or unexpanded value can put cache
folders inside the current directory (in CI: inside the checked-out repository).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def user_cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """$COMPAT_CACHE_DIR, else $XDG_CACHE_HOME/compat, else ~/.cache/compat (not created here).

    Always absolute. `~` is expanded in every value (a shell does not expand it inside quotes or
    in a CI `env:` block). A relative $COMPAT_CACHE_DIR is taken relative to the directory compat
    started in, as any path option is; a relative $XDG_CACHE_HOME is ignored, as the XDG Base
    Directory spec asks.
    """
    return _compute(os.environ if environ is None else environ)


def _compute(env: Mapping[str, str]) -> Path:
    home = env.get("HOME") or str(Path.home())
    explicit = env.get("COMPAT_CACHE_DIR", "")
    if explicit:
        return Path(os.path.abspath(_expand(explicit, home)))
    xdg = _expand(env.get("XDG_CACHE_HOME", ""), home)
    if xdg and os.path.isabs(xdg):
        return Path(os.path.normpath(xdg)) / "compat"
    return Path(os.path.abspath(home)) / ".cache" / "compat"


def _expand(value: str, home: str) -> str:
    if value == "~" or value.startswith("~/"):
        return home + value[1:]
    return os.path.expanduser(value) if value.startswith("~") else value
