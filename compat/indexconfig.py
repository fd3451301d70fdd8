"""Which package index to ask: flags first, then pip's configuration, then uv's, then PyPI.

pip's order (pip's "Configuration" docs): the file named by PIP_CONFIG_FILE (os.devnull disables
the files), else the global files (/etc/xdg/pip/pip.conf for each XDG_CONFIG_DIRS entry, then
/etc/pip.conf), the user files (~/.pip/pip.conf, then $XDG_CONFIG_HOME/pip/pip.conf) and the
site file ($VIRTUAL_ENV/pip.conf); later files override earlier ones, the command's section
([install]) overrides [global], and PIP_INDEX_URL / PIP_EXTRA_INDEX_URL override every file.
"""

from __future__ import annotations

import configparser
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from compat.errors import InputError, UsageError
from compat.model import Origin

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PYPI = "https://pypi.org/simple"


@dataclass(frozen=True)
class IndexConfig:
    index_url: str
    extra_index_urls: tuple[str, ...]
    source: str  # where it came from, for messages ("--index-url", "pip config /etc/pip.conf", ...)

    @property
    def urls(self) -> tuple[str, ...]:
        return (self.index_url, *self.extra_index_urls)


def _split(value: str) -> tuple[str, ...]:
    return tuple(part for part in value.split() if part)


def pip_config_files(environ: Mapping[str, str]) -> list[Path]:
    explicit = environ.get("PIP_CONFIG_FILE")
    if explicit == os.devnull:
        return []
    files: list[Path] = []
    xdg_dirs = environ.get("XDG_CONFIG_DIRS", "/etc/xdg").split(os.pathsep)
    files += [Path(d) / "pip" / "pip.conf" for d in xdg_dirs if d]
    files.append(Path("/etc/pip.conf"))
    home = Path(environ.get("HOME", str(Path.home())))
    files.append(home / ".pip" / "pip.conf")
    files.append(Path(environ.get("XDG_CONFIG_HOME", str(home / ".config"))) / "pip" / "pip.conf")
    if environ.get("VIRTUAL_ENV"):
        files.append(Path(environ["VIRTUAL_ENV"]) / "pip.conf")
    if explicit:
        files.append(Path(explicit))  # pip loads it after the others, so it wins
    return files


def _from_pip(environ: Mapping[str, str]) -> tuple[str | None, tuple[str, ...] | None, str]:
    index: str | None = None
    extra: tuple[str, ...] | None = None
    source = ""
    for path in pip_config_files(environ):
        if not path.is_file():
            continue
        parser = configparser.RawConfigParser()
        try:
            parser.read(path, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError) as error:
            raise InputError(
                f"invalid pip configuration: {error}", origin=Origin(str(path))
            ) from None
        for section in ("global", "install"):
            if parser.has_option(section, "index-url"):
                index, source = parser.get(section, "index-url").strip(), f"pip config {path}"
            if parser.has_option(section, "extra-index-url"):
                extra, source = _split(parser.get(section, "extra-index-url")), f"pip config {path}"
    if environ.get("PIP_INDEX_URL"):
        index, source = environ["PIP_INDEX_URL"].strip(), "PIP_INDEX_URL"
    if environ.get("PIP_EXTRA_INDEX_URL"):
        extra, source = _split(environ["PIP_EXTRA_INDEX_URL"]), source or "PIP_EXTRA_INDEX_URL"
    return index, extra, source


def _from_uv(environ: Mapping[str, str], cwd: Path) -> tuple[str | None, tuple[str, ...], str]:
    index = environ.get("UV_DEFAULT_INDEX") or environ.get("UV_INDEX_URL")
    extra = _split(environ.get("UV_INDEX", "") or environ.get("UV_EXTRA_INDEX_URL", ""))
    if index or extra:
        return index, extra, "uv environment"
    home = Path(environ.get("HOME", str(Path.home())))
    candidates = [
        (cwd / "pyproject.toml", ("tool", "uv")),
        (cwd / "uv.toml", ()),
        (Path(environ.get("XDG_CONFIG_HOME", str(home / ".config"))) / "uv" / "uv.toml", ()),
    ]
    for path, table_path in candidates:
        if not path.is_file():
            continue
        try:
            document = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # not ours to validate; pip/uv will complain about their own files
        table: object = document
        for key in table_path:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        if not isinstance(table, dict):
            continue
        index = table.get("index-url")
        extra = tuple(table.get("extra-index-url", ()))
        for entry in table.get("index", []):
            if isinstance(entry, dict) and isinstance(entry.get("url"), str):
                if entry.get("default"):
                    index = entry["url"]
                else:
                    extra += (entry["url"],)
        if index or extra:
            return (
                (str(index) if index else None),
                tuple(str(e) for e in extra),
                f"uv config {path}",
            )
    return None, (), ""


def resolve_index_config(
    *,
    index_url: str | None,
    extra_index_urls: Sequence[str],
    no_index: bool = False,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> IndexConfig:
    env = os.environ if environ is None else environ
    for url in (index_url, *extra_index_urls):
        if url is not None and not url.startswith(("http://", "https://", "file://")):
            raise UsageError(f"index URL {url!r}: expected an http(s):// or file:// URL")
    if index_url is not None or extra_index_urls:
        return IndexConfig(
            index_url or PYPI, tuple(extra_index_urls), "--index-url/--extra-index-url"
        )
    pip_index, pip_extra, pip_source = _from_pip(env)
    if pip_index is not None or pip_extra:
        return IndexConfig(pip_index or PYPI, pip_extra or (), pip_source)
    uv_index, uv_extra, uv_source = _from_uv(env, cwd or Path.cwd())
    if uv_index is not None or uv_extra:
        return IndexConfig(uv_index or PYPI, uv_extra, uv_source)
    return IndexConfig(PYPI, (), "default (PyPI)")
