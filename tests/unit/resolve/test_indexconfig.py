"""Which index compat asks: flags, pip's configuration in pip's order, uv's, then PyPI.

Every test passes its own environ and cwd: real files under tmp_path, never the user's config.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from compat.errors import InputError, UsageError
from compat.resolve.sources.indexconfig import IndexConfig, pip_config_files, resolve_index_config

PYPI = "https://pypi.org/simple"


def conf(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    return path


def base_env(tmp_path: Path) -> dict[str, str]:
    return {
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg"),
    }


def resolve(
    tmp_path: Path,
    environ: dict[str, str],
    *,
    index_url: str | None = None,
    extra: tuple[str, ...] = (),
    no_index: bool = False,
    cwd: Path | None = None,
) -> IndexConfig:
    return resolve_index_config(
        index_url=index_url,
        extra_index_urls=extra,
        no_index=no_index,
        environ={**base_env(tmp_path), **environ},
        cwd=cwd or tmp_path / "project",
    )


USER_CONF = Path("home/.config/pip/pip.conf")
LEGACY_CONF = Path("home/.pip/pip.conf")
GLOBAL_CONF = Path("etc-xdg/pip/pip.conf")


def test_default_is_pypi(tmp_path: Path) -> None:
    config = resolve(tmp_path, {})
    assert (config.index_url, config.extra_index_urls) == (PYPI, ())
    assert config.urls == (PYPI,)


def test_flags_win_over_everything(tmp_path: Path) -> None:
    conf(tmp_path / USER_CONF, "[global]\nindex-url = https://user.example/simple\n")
    config = resolve(
        tmp_path,
        {"PIP_INDEX_URL": "https://env.example/simple", "UV_DEFAULT_INDEX": "https://uv.example"},
        index_url="https://flag.example/simple",
        extra=("https://extra.example/simple", "https://extra.example/simple"),
    )
    assert config.urls == ("https://flag.example/simple", "https://extra.example/simple")
    assert config.source == "--index-url/--extra-index-url"
    only_extra = resolve(tmp_path, {}, extra=("https://extra.example/simple",))
    assert only_extra.urls == (PYPI, "https://extra.example/simple")


def test_no_index_asks_nothing(tmp_path: Path) -> None:
    config = resolve(tmp_path, {"PIP_INDEX_URL": "https://env.example/simple"}, no_index=True)
    assert config.urls == ()


def test_directories_become_file_urls_and_garbage_is_refused(tmp_path: Path) -> None:
    simple = tmp_path / "simple"
    simple.mkdir()
    assert resolve(tmp_path, {}, index_url=str(simple)).index_url == simple.as_uri()
    assert resolve(tmp_path, {}, index_url=simple.as_uri()).index_url == simple.as_uri()
    with pytest.raises(UsageError, match=r"--index-url 'pypi\.org/simple': expected an http"):
        resolve(tmp_path, {}, index_url="pypi.org/simple")
    with pytest.raises(UsageError, match="--extra-index-url"):
        resolve(tmp_path, {}, extra=("ftp://mirror.example/simple",))


def test_pip_file_order_global_user_legacy_site(tmp_path: Path) -> None:
    conf(tmp_path / GLOBAL_CONF, "[global]\nindex-url = https://global.example/simple\n")
    assert resolve(tmp_path, {}).index_url == "https://global.example/simple"
    conf(tmp_path / LEGACY_CONF, "[global]\nindex-url = https://legacy.example/simple\n")
    assert resolve(tmp_path, {}).index_url == "https://legacy.example/simple"
    conf(
        tmp_path / USER_CONF,
        "[global]\nindex-url = https://user.example/simple\n"
        "extra-index-url =\n  https://a.example/simple\n  https://b.example/simple\n",
    )
    config = resolve(tmp_path, {})
    assert config.index_url == "https://user.example/simple"  # the XDG file beats the legacy one
    assert config.extra_index_urls == ("https://a.example/simple", "https://b.example/simple")
    assert config.source == f"pip config {tmp_path / USER_CONF} [global]"
    conf(tmp_path / "venv" / "pip.conf", "[global]\nindex-url = https://site.example/simple\n")
    site = resolve(tmp_path, {"VIRTUAL_ENV": str(tmp_path / "venv")})
    assert site.index_url == "https://site.example/simple"
    assert site.extra_index_urls == ("https://a.example/simple", "https://b.example/simple")


def test_xdg_config_home_moves_the_user_file(tmp_path: Path) -> None:
    conf(tmp_path / "xdg" / "pip" / "pip.conf", "[global]\nindex-url = https://xdg.example/s\n")
    conf(tmp_path / USER_CONF, "[global]\nindex-url = https://user.example/simple\n")
    config = resolve(tmp_path, {"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert config.index_url == "https://xdg.example/s"


def test_install_section_beats_global_section_in_any_file(tmp_path: Path) -> None:
    # pip pools each section over all files, then applies [global] and then [install].
    conf(tmp_path / GLOBAL_CONF, "[install]\nindex-url = https://install.example/simple\n")
    conf(tmp_path / USER_CONF, "[global]\nindex-url = https://user.example/simple\n")
    config = resolve(tmp_path, {})
    assert config.index_url == "https://install.example/simple"
    assert config.source == f"pip config {tmp_path / GLOBAL_CONF} [install]"
    # Other commands' sections are not ours: [download] and [freeze] change nothing.
    conf(tmp_path / LEGACY_CONF, "[download]\nindex-url = https://download.example/simple\n")
    assert resolve(tmp_path, {}).index_url == "https://install.example/simple"


def test_empty_values_are_ignored(tmp_path: Path) -> None:
    conf(tmp_path / GLOBAL_CONF, "[global]\nindex-url = https://global.example/simple\n")
    conf(tmp_path / USER_CONF, "[global]\nindex-url =\n")
    assert resolve(tmp_path, {"PIP_INDEX_URL": ""}).index_url == "https://global.example/simple"


def test_pip_environment_variables_override_files(tmp_path: Path) -> None:
    conf(tmp_path / USER_CONF, "[install]\nindex-url = https://user.example/simple\n")
    config = resolve(
        tmp_path,
        {
            "PIP_INDEX_URL": "https://env.example/simple",
            "PIP_EXTRA_INDEX_URL": "https://x.example/simple  https://y.example/simple",
        },
    )
    assert config.urls == (
        "https://env.example/simple",
        "https://x.example/simple",
        "https://y.example/simple",
    )
    assert config.source == "PIP_INDEX_URL, PIP_EXTRA_INDEX_URL"
    # Only the extra from the environment: the index still comes from the file.
    mixed = resolve(tmp_path, {"PIP_EXTRA_INDEX_URL": "https://x.example/simple"})
    assert mixed.urls == ("https://user.example/simple", "https://x.example/simple")


def test_pip_config_file_is_loaded_last_and_hides_the_user_files(tmp_path: Path) -> None:
    conf(tmp_path / GLOBAL_CONF, "[global]\nextra-index-url = https://global-extra.example/s\n")
    conf(tmp_path / USER_CONF, "[global]\nextra-index-url = https://user-extra.example/s\n")
    chosen = conf(tmp_path / "ci.conf", "[global]\nindex-url = https://ci.example/simple\n")
    config = resolve(tmp_path, {"PIP_CONFIG_FILE": str(chosen)})
    assert config.index_url == "https://ci.example/simple"
    # The global file is still read; the user file is not (pip skips it when the file exists).
    assert config.extra_index_urls == ("https://global-extra.example/s",)
    files = pip_config_files({**base_env(tmp_path), "PIP_CONFIG_FILE": str(chosen)})
    assert files[-1] == chosen and tmp_path / USER_CONF not in files
    # A PIP_CONFIG_FILE that does not exist leaves the user files in place.
    missing = resolve(tmp_path, {"PIP_CONFIG_FILE": str(tmp_path / "nope.conf")})
    assert missing.extra_index_urls == ("https://user-extra.example/s",)


def test_devnull_config_file_disables_every_file(tmp_path: Path) -> None:
    conf(tmp_path / GLOBAL_CONF, "[global]\nindex-url = https://global.example/simple\n")
    conf(tmp_path / USER_CONF, "[global]\nindex-url = https://user.example/simple\n")
    assert resolve(tmp_path, {"PIP_CONFIG_FILE": os.devnull}).index_url == PYPI
    # ... but not the environment variables.
    env = {"PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": "https://env.example/simple"}
    assert resolve(tmp_path, env).index_url == "https://env.example/simple"


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("index-url = https://x.example/simple\n", "File contains no section headers"),
        ("[global]\nindex-url = a\nindex-url = b\n", "option 'index-url'"),
        ("[global]\nindex-url = not a url\n", "index-url 'not a url': expected an http"),
    ],
)
def test_bad_pip_files_name_the_file(tmp_path: Path, body: str, fragment: str) -> None:
    path = conf(tmp_path / USER_CONF, body)
    with pytest.raises(InputError) as raised:
        resolve(tmp_path, {})
    assert fragment in raised.value.message
    assert raised.value.origin is not None and raised.value.origin.path == str(path)
    assert "\n" not in raised.value.message


# ---------------------------------------------------------------------------------------------
# uv


def test_uv_environment_variables(tmp_path: Path) -> None:
    config = resolve(
        tmp_path,
        {
            "UV_DEFAULT_INDEX": "https://uv.example/simple",
            "UV_INDEX": "pytorch=https://download.pytorch.org/whl/cu128 https://other.example/simple",
        },
    )
    assert config.urls == (
        "https://uv.example/simple",
        "https://download.pytorch.org/whl/cu128",
        "https://other.example/simple",
    )
    assert config.source == "UV_DEFAULT_INDEX, UV_INDEX"
    legacy = resolve(tmp_path, {"UV_INDEX_URL": "https://old.example/simple"})
    assert legacy.index_url == "https://old.example/simple"


def test_pip_configuration_comes_before_uv(tmp_path: Path) -> None:
    conf(tmp_path / USER_CONF, "[global]\nindex-url = https://pip.example/simple\n")
    config = resolve(tmp_path, {"UV_DEFAULT_INDEX": "https://uv.example/simple"})
    assert config.index_url == "https://pip.example/simple"


PYPROJECT_INDEXES = """
[project]
name = "train"
[tool.uv]
[[tool.uv.index]]
name = "pytorch-cu128"
url = "https://download.pytorch.org/whl/cu128"
explicit = true
[[tool.uv.index]]
name = "mirror"
url = "https://mirror.example/simple"
[[tool.uv.index]]
name = "internal"
url = "https://internal.example/simple"
default = true
"""


def test_uv_project_indexes_from_a_parent_directory(tmp_path: Path) -> None:
    conf(tmp_path / "project" / "pyproject.toml", PYPROJECT_INDEXES)
    nested = tmp_path / "project" / "scripts" / "rlhf"
    nested.mkdir(parents=True)
    config = resolve(tmp_path, {}, cwd=nested)
    assert config.index_url == "https://internal.example/simple"
    # The explicit index serves only packages pinned to it in [tool.uv.sources].
    assert config.extra_index_urls == ("https://mirror.example/simple",)
    assert config.source == f"uv config {tmp_path / 'project' / 'pyproject.toml'}"


def test_pyproject_without_tool_uv_is_passed_over(tmp_path: Path) -> None:
    conf(tmp_path / "uv.toml", 'index-url = "https://outer.example/simple"\n')
    conf(tmp_path / "project" / "pyproject.toml", '[project]\nname = "train"\n')
    assert resolve(tmp_path, {}).index_url == "https://outer.example/simple"


def test_uv_toml_beats_pyproject_in_the_same_directory(tmp_path: Path) -> None:
    conf(tmp_path / "project" / "pyproject.toml", PYPROJECT_INDEXES)
    conf(
        tmp_path / "project" / "uv.toml",
        'index-url = "https://legacy.example/simple"\n'
        'extra-index-url = ["https://extra.example/simple"]\n',
    )
    config = resolve(tmp_path, {})
    assert config.urls == ("https://legacy.example/simple", "https://extra.example/simple")


def test_uv_user_config_merges_under_the_project(tmp_path: Path) -> None:
    conf(
        tmp_path / "home" / ".config" / "uv" / "uv.toml",
        '[[index]]\nurl = "https://user-default.example/simple"\ndefault = true\n'
        '[[index]]\nurl = "https://user-extra.example/simple"\n',
    )
    assert resolve(tmp_path, {}).urls == (
        "https://user-default.example/simple",
        "https://user-extra.example/simple",
    )
    conf(tmp_path / "project" / "pyproject.toml", PYPROJECT_INDEXES)
    assert resolve(tmp_path, {}).urls == (
        "https://internal.example/simple",  # the project's default wins
        "https://mirror.example/simple",  # project indexes first, then the user's
        "https://user-extra.example/simple",
    )
    # Environment variables come before both.
    env = resolve(tmp_path, {"UV_INDEX": "https://env.example/simple"})
    assert env.extra_index_urls[0] == "https://env.example/simple"
    assert env.index_url == "https://internal.example/simple"


def test_uv_config_file_and_no_config(tmp_path: Path) -> None:
    conf(tmp_path / "project" / "pyproject.toml", PYPROJECT_INDEXES)
    chosen = conf(tmp_path / "ci-uv.toml", 'index-url = "https://ci.example/simple"\n')
    assert resolve(tmp_path, {"UV_CONFIG_FILE": str(chosen)}).urls == ("https://ci.example/simple",)
    assert resolve(tmp_path, {"UV_NO_CONFIG": "1"}).urls == (PYPI,)


def test_uv_relative_directory_index(tmp_path: Path) -> None:
    (tmp_path / "project" / "wheelhouse").mkdir(parents=True)
    conf(
        tmp_path / "project" / "uv.toml",
        '[[index]]\nname = "local"\nurl = "wheelhouse"\ndefault = true\n',
    )
    config = resolve(tmp_path, {})
    assert config.index_url == (tmp_path / "project" / "wheelhouse").as_uri()


def test_malformed_uv_toml_names_the_file(tmp_path: Path) -> None:
    path = conf(tmp_path / "project" / "uv.toml", "index-url = \n")
    with pytest.raises(InputError, match="invalid TOML") as raised:
        resolve(tmp_path, {})
    assert raised.value.origin is not None and raised.value.origin.path == str(path)
