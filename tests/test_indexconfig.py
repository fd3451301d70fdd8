"""Which index compat asks: flags, pip's configuration in pip's order, uv's, then PyPI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from compat.errors import UsageError
from compat.indexconfig import resolve_index_config


def conf(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    return path


def resolve(tmp_path: Path, environ: dict[str, str], **flags: object):  # type: ignore[no-untyped-def]
    base = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_DIRS": str(tmp_path / "etc-xdg")}
    return resolve_index_config(
        index_url=flags.get("index_url"),  # type: ignore[arg-type]
        extra_index_urls=flags.get("extra", ()),  # type: ignore[arg-type]
        environ={**base, **environ},
        cwd=tmp_path / "project",
    )


def test_default_is_pypi(tmp_path: Path) -> None:
    config = resolve(tmp_path, {"PIP_CONFIG_FILE": os.devnull})
    assert config.index_url == "https://pypi.org/simple" and config.extra_index_urls == ()


def test_flags_win(tmp_path: Path) -> None:
    config = resolve(tmp_path, {"PIP_INDEX_URL": "https://env.example/simple"},
                     index_url="https://flag.example/simple", extra=("https://extra.example/simple",))  # fmt: skip
    assert config.urls == ("https://flag.example/simple", "https://extra.example/simple")


def test_pip_files_in_order_and_install_section(tmp_path: Path) -> None:
    conf(
        tmp_path / "etc-xdg" / "pip" / "pip.conf",
        "[global]\nindex-url = https://global.example/simple\n",
    )
    conf(tmp_path / "home" / ".config" / "pip" / "pip.conf",
         "[global]\nindex-url = https://user.example/simple\nextra-index-url =\n  https://a.example/simple\n  https://b.example/simple\n")  # fmt: skip
    config = resolve(tmp_path, {})
    assert (
        config.index_url == "https://user.example/simple"
    )  # the user file overrides the global one
    assert config.extra_index_urls == ("https://a.example/simple", "https://b.example/simple")
    conf(tmp_path / "venv" / "pip.conf", "[install]\nindex-url = https://site.example/simple\n")
    assert (
        resolve(tmp_path, {"VIRTUAL_ENV": str(tmp_path / "venv")}).index_url
        == "https://site.example/simple"
    )


def test_pip_environment_variables_override_files(tmp_path: Path) -> None:
    conf(
        tmp_path / "home" / ".config" / "pip" / "pip.conf",
        "[global]\nindex-url = https://user.example/simple\n",
    )
    config = resolve(tmp_path, {"PIP_INDEX_URL": "https://env.example/simple",
                                "PIP_EXTRA_INDEX_URL": "https://x.example/simple https://y.example/simple"})  # fmt: skip
    assert config.urls == (
        "https://env.example/simple",
        "https://x.example/simple",
        "https://y.example/simple",
    )
    assert config.source == "PIP_INDEX_URL"


def test_pip_config_file_variable(tmp_path: Path) -> None:
    conf(
        tmp_path / "home" / ".config" / "pip" / "pip.conf",
        "[global]\nindex-url = https://user.example/simple\n",
    )
    chosen = conf(tmp_path / "ci.conf", "[global]\nindex-url = https://ci.example/simple\n")
    assert (
        resolve(tmp_path, {"PIP_CONFIG_FILE": str(chosen)}).index_url == "https://ci.example/simple"
    )
    assert resolve(tmp_path, {"PIP_CONFIG_FILE": os.devnull}).index_url == "https://pypi.org/simple"


def test_uv_configuration(tmp_path: Path) -> None:
    assert (
        resolve(
            tmp_path,
            {"PIP_CONFIG_FILE": os.devnull, "UV_DEFAULT_INDEX": "https://uv.example/simple"},
        ).index_url
        == "https://uv.example/simple"
    )
    conf(tmp_path / "project" / "pyproject.toml",
         '[tool.uv]\n[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu128"\n'
         '[[tool.uv.index]]\nname = "internal"\nurl = "https://internal.example/simple"\ndefault = true\n')  # fmt: skip
    config = resolve(tmp_path, {"PIP_CONFIG_FILE": os.devnull})
    assert config.index_url == "https://internal.example/simple"
    assert config.extra_index_urls == ("https://download.pytorch.org/whl/cu128",)


def test_file_indexes_are_accepted_and_garbage_is_not(tmp_path: Path) -> None:
    assert resolve(tmp_path, {}, index_url=(tmp_path / "simple").as_uri()).index_url.startswith(
        "file://"
    )
    with pytest.raises(UsageError, match="expected an http"):
        resolve(tmp_path, {}, index_url="pypi.org/simple")
