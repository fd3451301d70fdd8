"""Which package index to ask: flags first, then pip's configuration, then uv's, then PyPI.

pip's rules, as pip's `configuration.py` and its "Configuration" page state them (pip 23-25):

- files, loaded in this order, later ones overriding earlier ones: global
  (`$XDG_CONFIG_DIRS/pip/pip.conf` for each entry, default /etc/xdg, then /etc/pip.conf), user
  (the legacy ~/.pip/pip.conf, then `$XDG_CONFIG_HOME/pip/pip.conf`), site
  (`$VIRTUAL_ENV/pip.conf`), and last the file named by PIP_CONFIG_FILE. PIP_CONFIG_FILE set to
  os.devnull disables every file; when it names a file that exists, the user files are skipped.
- values are pooled by section across all files, then applied section by section: [global],
  then the command's section, then the PIP_* environment variables. So `[install] index-url` in
  /etc/pip.conf beats `[global] index-url` in the user file. compat's command is "install":
  the constraints `compat pin` writes are for `pip install`. Empty values are ignored.
- PIP_EXTRA_INDEX_URL and multi-line `extra-index-url` values are whitespace-separated lists.

uv's rules (its "Configuration files" page): env vars (UV_DEFAULT_INDEX / UV_INDEX_URL,
UV_INDEX / UV_EXTRA_INDEX_URL) first, then the project's nearest uv.toml or pyproject.toml with
a [tool.uv] table (uv.toml wins in one directory), the user's `$XDG_CONFIG_HOME/uv/uv.toml` and
the system's uv.toml, merged with the project first. UV_CONFIG_FILE replaces the discovered
files, UV_NO_CONFIG disables them. Indexes marked `explicit = true` serve only the packages
pinned to them, so they are not asked for everything else.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compat.errors import InputError, UsageError
from compat.model import Origin

if TYPE_CHECKING:
    import configparser

PYPI = "https://pypi.org/simple"
PIP_COMMAND = "install"
_URL_SCHEMES = ("http://", "https://", "file://")


@dataclass(frozen=True)
class IndexOptions:
    """The index flags of check and pin, as given (IndexConfig: what they resolve to)."""

    index_url: str | None = None
    extra_index_urls: Sequence[str] = ()
    offline: bool = False
    timeout: float = 15.0
    # PyTorch's per-CUDA indexes live under this URL (/cu126, /cu128, ...): a mirror may serve them.
    pytorch_index: str = "https://download.pytorch.org/whl"


@dataclass(frozen=True)
class IndexConfig:
    index_url: str  # "" with --no-index
    extra_index_urls: tuple[str, ...]
    source: str  # where it came from, for messages ("--index-url", "pip config /etc/pip.conf", ...)

    @property
    def urls(self) -> tuple[str, ...]:
        """Every index to ask, the main one first."""
        return tuple(u for u in (self.index_url, *self.extra_index_urls) if u)


def _split(value: str) -> tuple[str, ...]:
    return tuple(value.split())


def _dedupe(urls: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(urls))


def _as_url(value: str, what: str, origin: Origin | None, base: Path | None = None) -> str:
    """An index URL, or a local directory (as pip and uv accept) turned into a file:// URL."""
    value = value.strip()
    if value.startswith(_URL_SCHEMES):
        from compat.facts.declared.entries import url_problem

        problem = url_problem(value)
        if problem is None:
            return value
        if origin is None:
            raise UsageError(f"{what}: {problem}")
        raise InputError(f"{what}: {problem}", origin=origin)
    path = Path(value).expanduser()
    if not path.is_absolute() and base is not None:
        path = base / path
    if "://" not in value and path.is_dir():
        return path.resolve().as_uri()
    message = f"{what} {value!r}: expected an http(s):// or file:// URL or an existing directory"
    if origin is None:
        raise UsageError(message)
    raise InputError(message, origin=origin)


# ---------------------------------------------------------------------------------------------
# pip


def _home(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HOME") or str(Path.home()))


def _xdg_config_home(environ: Mapping[str, str]) -> Path:
    value = environ.get("XDG_CONFIG_HOME", "")
    return Path(value) if value and os.path.isabs(value) else _home(environ) / ".config"


def _xdg_config_dirs(environ: Mapping[str, str]) -> list[Path]:
    value = environ.get("XDG_CONFIG_DIRS") or "/etc/xdg"
    return [Path(d) for d in value.split(os.pathsep) if d]


def pip_config_files(environ: Mapping[str, str]) -> list[Path]:
    """pip's configuration files in loading order (later ones override earlier ones)."""
    explicit = environ.get("PIP_CONFIG_FILE")
    if explicit == os.devnull:
        return []
    files = [d / "pip" / "pip.conf" for d in _xdg_config_dirs(environ)]
    files.append(Path("/etc/pip.conf"))
    if not (explicit and os.path.exists(explicit)):
        files.append(_home(environ) / ".pip" / "pip.conf")
        files.append(_xdg_config_home(environ) / "pip" / "pip.conf")
    if environ.get("VIRTUAL_ENV"):
        files.append(Path(environ["VIRTUAL_ENV"]) / "pip.conf")
    if explicit:
        files.append(Path(explicit))
    return files


def _read_pip_file(path: Path) -> configparser.RawConfigParser | None:
    import configparser  # imported here: only `pin` and `check` read index configuration

    from compat.files.readers import read_text

    parser = configparser.RawConfigParser()
    try:
        text = read_text(path, "config")
    except InputError:
        return None  # absent or unreadable (a FIFO, a device): pip skips it too
    try:
        parser.read_string(text, source=str(path))
    except configparser.Error as error:
        first_line = str(error).splitlines()[0]
        raise InputError(
            f"invalid pip configuration: {first_line}", origin=Origin(str(path))
        ) from None
    return parser


def _from_pip(environ: Mapping[str, str]) -> tuple[str | None, tuple[str, ...] | None, str]:
    # (section, key) -> (value, where): later files override earlier ones, as in pip.
    pooled: dict[tuple[str, str], tuple[str, Origin]] = {}
    for path in pip_config_files(environ):
        parser = _read_pip_file(path)
        if parser is None:
            continue
        for section in parser.sections():
            for key in ("index-url", "extra-index-url"):
                value = parser.get(section, key, fallback="")
                if value.strip():
                    pooled[(section, key)] = (value, Origin(str(path)))
    for key, variable in (
        ("index-url", "PIP_INDEX_URL"),
        ("extra-index-url", "PIP_EXTRA_INDEX_URL"),
    ):
        if environ.get(variable, "").strip():
            pooled[(":env:", key)] = (environ[variable], Origin(variable))
    index: str | None = None
    extra: tuple[str, ...] | None = None
    index_from = extra_from = ""
    for section in ("global", PIP_COMMAND, ":env:"):
        if (section, "index-url") in pooled:
            value, origin = pooled[(section, "index-url")]
            index, index_from = _as_url(value, "index-url", origin), _describe(section, origin)
        if (section, "extra-index-url") in pooled:
            value, origin = pooled[(section, "extra-index-url")]
            extra = tuple(_as_url(v, "extra-index-url", origin) for v in _split(value))
            extra_from = _describe(section, origin)
    return index, extra, ", ".join(dict.fromkeys(s for s in (index_from, extra_from) if s))


def _describe(section: str, origin: Origin) -> str:
    return origin.path if section == ":env:" else f"pip config {origin.path} [{section}]"


# ---------------------------------------------------------------------------------------------
# uv


def _uv_files(environ: Mapping[str, str], cwd: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """uv's configuration files, highest priority first, with the table that holds settings."""
    if environ.get("UV_NO_CONFIG", "").strip().lower() in ("1", "true", "yes", "on"):
        return []
    if environ.get("UV_CONFIG_FILE"):
        return [(Path(environ["UV_CONFIG_FILE"]), ())]
    files: list[tuple[Path, tuple[str, ...]]] = []
    for directory in (cwd, *cwd.parents):
        if (directory / "uv.toml").is_file():
            files.append((directory / "uv.toml", ()))
            break
        pyproject = directory / "pyproject.toml"
        if pyproject.is_file() and _has_tool_uv(pyproject):
            files.append((pyproject, ("tool", "uv")))
            break
    files.append((_xdg_config_home(environ) / "uv" / "uv.toml", ()))
    system = [d / "uv" / "uv.toml" for d in _xdg_config_dirs(environ)] + [Path("/etc/uv/uv.toml")]
    files += [(p, ()) for p in system if p.is_file()][:1]  # only the first system file counts
    return files


def _load_toml(path: Path) -> dict[str, Any] | None:
    from compat.files.readers import parse_toml, read_text

    if not path.exists():
        return None  # a missing file is no configuration; any other problem is an input error
    return parse_toml(read_text(path, "config"), path)


def _has_tool_uv(pyproject: Path) -> bool:
    document = _load_toml(pyproject)
    tool = document.get("tool") if document else None
    return isinstance(tool, dict) and isinstance(tool.get("uv"), dict)


def _uv_env_index(entry: str) -> str:
    # UV_INDEX entries may be `name=url`; a URL never has "=" before its scheme.
    name, sep, url = entry.partition("=")
    return url if sep and "://" not in name and "/" not in name else entry


def _from_uv(environ: Mapping[str, str], cwd: Path) -> tuple[str | None, tuple[str, ...], str]:
    default: str | None = None
    extra: list[str] = []
    sources: list[str] = []
    env_default = environ.get("UV_DEFAULT_INDEX") or environ.get("UV_INDEX_URL")
    if env_default:
        default = _as_url(env_default, "default index", Origin("UV_DEFAULT_INDEX"))
        sources.append("UV_DEFAULT_INDEX" if environ.get("UV_DEFAULT_INDEX") else "UV_INDEX_URL")
    for variable in ("UV_INDEX", "UV_EXTRA_INDEX_URL"):
        if environ.get(variable, "").strip():
            extra += [
                _as_url(_uv_env_index(e), "index", Origin(variable))
                for e in _split(environ[variable])
            ]
            sources.append(variable)
    for path, table_path in _uv_files(environ, cwd):
        document = _load_toml(path) if path.is_file() else None
        table: Any = document or {}
        for key in table_path:
            table = table.get(key, {}) if isinstance(table, dict) else {}
        if not isinstance(table, dict):
            continue
        found_default, found_extra = _uv_table_indexes(table, path)
        if found_default or found_extra:
            sources.append(f"uv config {path}")
        default = default or found_default
        extra += found_extra
    return default, _dedupe(extra), ", ".join(sources)


def _uv_table_indexes(table: dict[str, Any], path: Path) -> tuple[str | None, list[str]]:
    origin = Origin(str(path))
    default: str | None = None
    extra: list[str] = []
    entries = table.get("index", [])
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("url"), str):
            continue
        if entry.get("explicit"):
            continue  # serves only packages pinned to it in [tool.uv.sources]
        url = _as_url(entry["url"], "index url", origin, path.parent)
        if entry.get("default"):
            default = default or url
        else:
            extra.append(url)
    legacy = table.get("index-url")
    if isinstance(legacy, str) and default is None:
        default = _as_url(legacy, "index-url", origin, path.parent)
    legacy_extra = table.get("extra-index-url", [])
    if isinstance(legacy_extra, list):
        extra += [
            _as_url(e, "extra-index-url", origin, path.parent)
            for e in legacy_extra
            if isinstance(e, str)
        ]
    return default, extra


# ---------------------------------------------------------------------------------------------


def resolve_index_config(
    *,
    index_url: str | None,
    extra_index_urls: Sequence[str],
    no_index: bool = False,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> IndexConfig:
    """The indexes to ask: flags, else pip's configuration, else uv's, else PyPI.

    `environ` and `cwd` default to the process's; tests pass their own so that no real user
    configuration is read. Raises UsageError for a bad flag and InputError for a bad file.
    """
    env = os.environ if environ is None else environ
    if no_index:
        return IndexConfig("", (), "--no-index")
    if index_url is not None or extra_index_urls:
        return IndexConfig(
            _as_url(index_url, "--index-url", None) if index_url is not None else PYPI,
            _dedupe(_as_url(u, "--extra-index-url", None) for u in extra_index_urls),
            "--index-url/--extra-index-url",
        )
    pip_index, pip_extra, pip_source = _from_pip(env)
    if pip_index is not None or pip_extra:
        return IndexConfig(pip_index or PYPI, _dedupe(pip_extra or ()), pip_source)
    uv_index, uv_extra, uv_source = _from_uv(env, cwd or Path.cwd())
    if uv_index is not None or uv_extra:
        return IndexConfig(uv_index or PYPI, uv_extra, uv_source)
    return IndexConfig(PYPI, (), "default (PyPI)")
