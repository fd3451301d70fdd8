"""compat.resolve.resolvers.resolver: real pip and real uv resolving against a real index on 127.0.0.1."""

from __future__ import annotations

import sys

import pytest
from packaging.version import Version

from compat.errors import IndexAccessError, UsageError
from compat.resolve.resolvers.resolver import ResolutionFailed, Target, find_uv, resolve
from compat.resolve.sources.indexconfig import IndexOptions
from tests.indexserver import Dist, IndexServer

pytestmark = pytest.mark.usefixtures("resolver_env")

TOOLS = ["pip", pytest.param("uv", marks=pytest.mark.skipif(find_uv() is None, reason="no uv"))]

PROJECTS = {
    "trl": [
        Dist("trl", "0.14.0", requires=["transformers>=4.46", "accelerate>=0.34"]),
        Dist("trl", "0.15.2", requires=["transformers>=4.46", "accelerate>=0.34"]),
        Dist("trl", "0.16.0", requires=["transformers>=4.46", "accelerate>=0.34"]),
    ],
    "transformers": [Dist("transformers", v) for v in ("4.46.0", "4.48.2", "4.49.0")],
    "accelerate": [
        Dist("accelerate", "0.34.2"),
        Dist("accelerate", "1.0.0", requires_python=">=3.99"),  # never for this interpreter
    ],
    "vllm": [
        Dist("vllm", "0.7.2", requires=["transformers>=4.48.2"]),
        Dist("vllm", "0.7.3", requires=["transformers>=4.49.0"]),
    ],
}


def _index(server: IndexServer) -> IndexOptions:
    return IndexOptions(index_url=server.url, timeout=30)


@pytest.mark.parametrize("tool", TOOLS)
def test_resolves_what_the_tool_would_install(tool: str) -> None:
    with IndexServer(PROJECTS) as server:
        got = resolve(["trl>=0.14"], index=_index(server), tool=tool)
    assert got.tool.startswith(tool + " ")
    assert got.packages == {
        "trl": Version("0.16.0"),
        "transformers": Version("4.49.0"),
        "accelerate": Version("0.34.2"),  # 1.0.0 requires a Python that does not exist
    }


@pytest.mark.parametrize("tool", TOOLS)
def test_constraints_steer_the_resolution(tool: str) -> None:
    with IndexServer(PROJECTS) as server:
        got = resolve(
            ["trl>=0.14", "vllm"],
            ["trl<0.16", "vllm==0.7.2", "transformers<4.49"],
            index=_index(server),
            tool=tool,
        )
    assert got.packages["trl"] == Version("0.15.2")
    assert got.packages["vllm"] == Version("0.7.2")
    assert got.packages["transformers"] == Version("4.48.2")  # what vLLM 0.7.2 needs, and no more


@pytest.mark.parametrize("tool", TOOLS)
def test_conflicts_are_reported_by_the_resolver(tool: str) -> None:
    with IndexServer(PROJECTS) as server, pytest.raises(ResolutionFailed) as failure:
        resolve(["vllm==0.7.3"], ["transformers<4.49"], index=_index(server), tool=tool)
    assert failure.value.tool == tool
    assert "vllm" in failure.value.message.lower()


@pytest.mark.parametrize("tool", TOOLS)
def test_other_target_python(tool: str) -> None:
    # accelerate 1.0.0 requires Python >= 3.99: for a target of 3.99 it is the one resolved.
    with IndexServer(PROJECTS) as server:
        got = resolve(
            ["accelerate"], target=Target(python_version="3.99"), index=_index(server), tool=tool
        )
    assert got.packages == {"accelerate": Version("1.0.0")}


@pytest.mark.slow("pip and uv retry a dead index with backoff before they give up, as users see")
@pytest.mark.parametrize("tool", TOOLS)
def test_dead_index_is_an_input_error_not_a_verdict(tool: str) -> None:
    with IndexServer(PROJECTS) as server:
        url = server.url
    with pytest.raises(IndexAccessError):
        resolve(["trl"], index=IndexOptions(index_url=url, timeout=5), tool=tool, timeout=60)


def test_offline_and_unknown_tools_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        resolve(["trl"], index=IndexOptions(offline=True))
    with pytest.raises(UsageError):
        resolve(["trl"], tool="poetry")
    with pytest.raises(UsageError):
        resolve(["trl"], target=Target(platform="solaris"))


def test_pip_for_another_platform_uses_wheels_for_that_platform() -> None:
    # A py3-none-any wheel installs anywhere: resolving for win32 from Linux (or the reverse)
    # goes through pip's --platform/--only-binary path and still finds it.
    other = "win32" if sys.platform != "win32" else "linux"
    with IndexServer(PROJECTS) as server:
        got = resolve(
            ["transformers"], target=Target(platform=other), index=_index(server), tool="pip"
        )
    assert got.packages == {"transformers": Version("4.49.0")}
    assert "--only-binary=:all:" in got.command
