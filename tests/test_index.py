"""The package-index client against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from compat.errors import IndexAccessError
from compat.index import IndexClient
from compat.indexconfig import IndexConfig
from tests.indexserver import Dist, Faults, IndexServer

PROJECTS = {
    "trl": [
        Dist(
            "trl",
            "0.14.0",
            requires=["accelerate>=0.34", "vllm; extra == 'vllm'"],
            requires_python=">=3.9",
        ),
        Dist(
            "trl",
            "0.15.2",
            requires=["accelerate>=0.34", "vllm==0.7.2; extra == 'vllm'"],
            requires_python=">=3.9",
        ),
        Dist("trl", "0.16.0", yanked="broken release"),
        Dist("trl", "1.16.0", requires_python=">=3.11"),
        Dist("trl", "0.15.1", wheel=False),
    ],
    "vllm": [Dist("vllm", "0.7.2", requires=["torch==2.5.1"], metadata_file=False)],
}


def client(url: str, cache: Path, **kwargs: object) -> IndexClient:
    return IndexClient(IndexConfig(url, (), "test"), cache_dir=cache, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("formats", ["json", "html"])
def test_candidates_yanked_and_requires_python(tmp_path: Path, formats: str) -> None:
    with IndexServer(PROJECTS, formats=formats) as index, client(index.url, tmp_path) as c:
        found = {str(x.version): x for x in c.candidates("TRL")}
        assert set(found) == {"0.14.0", "0.15.2", "0.16.0", "1.16.0", "0.15.1"}
        assert found["0.16.0"].yanked == "broken release"
        assert found["0.15.2"].yanked is None
        assert str(found["1.16.0"].requires_python) == ">=3.11"
        assert not found["0.15.1"].is_wheel
        assert c.versions("trl", python_version=Version("3.10")) == [
            Version(v) for v in ("0.14.0", "0.15.1", "0.15.2")
        ]
        assert Version("0.16.0") in c.versions("trl", include_yanked=True)


def test_requires_dist_from_pep658_and_from_the_wheel(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index, client(index.url, tmp_path) as c:
        trl = next(x for x in c.candidates("trl") if str(x.version) == "0.15.2")
        assert trl.metadata_url is not None
        assert c.requires_dist(trl) == ("accelerate>=0.34", "vllm==0.7.2; extra == 'vllm'")
        (vllm,) = c.candidates("vllm")
        assert vllm.metadata_url is None
        assert c.requires_dist(vllm) == ("torch==2.5.1",)  # read from the downloaded wheel
        assert [p for p, _ in index.requests if p.endswith(".whl")] == [
            "/files/vllm-0.7.2-py3-none-any.whl"
        ]


def test_unknown_project_is_empty_not_an_error(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index, client(index.url, tmp_path) as c:
        assert c.candidates("no-such-project") == []


def test_concurrent_lookups(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index, client(index.url, tmp_path) as c:
        many = c.candidates_many(["trl", "vllm", "TRL", "missing"])
        assert sorted(many) == ["missing", "trl", "vllm"]
        assert len(many["trl"]) == 5


def test_retries_a_5xx_then_succeeds(tmp_path: Path) -> None:
    with (
        IndexServer(PROJECTS, faults=Faults(fail_first={"trl": 2})) as index,
        client(index.url, tmp_path) as c,
    ):
        assert len(c.candidates("trl")) == 5
        assert index.count("/simple/trl/") == 3


@pytest.mark.parametrize(
    ("faults", "fragment"),
    [
        (Faults(status={"trl": 500}), "HTTP 500 (after 3 attempts)"),
        (Faults(status={"trl": 403}), "HTTP 403"),
        (Faults(malformed={"trl": "json"}), "malformed PEP 691 JSON"),
        (Faults(malformed={"trl": "html"}), "malformed PEP 503 HTML"),
        (Faults(slow={"trl": 2.0}), "no answer within 0.3s"),
        (Faults(huge={"trl"}), "over the"),
    ],
)
def test_faults_become_one_clear_error(tmp_path: Path, faults: Faults, fragment: str) -> None:
    formats = "html" if faults.malformed.get("trl") == "html" else "json"
    with (
        IndexServer(PROJECTS, faults=faults, formats=formats) as index,
        client(index.url, tmp_path, timeout=0.3, retries=2, max_bytes=2**20) as c,
        pytest.raises(IndexAccessError) as raised,
    ):
        c.candidates("trl")
    assert fragment in str(raised.value)
    assert "/simple/trl/" in str(raised.value)
    assert raised.value.hint is not None and "--offline" in raised.value.hint


def test_dead_index(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index:
        url = index.url
    with (
        client(url, tmp_path, retries=0, timeout=1) as c,
        pytest.raises(IndexAccessError, match="ConnectError"),
    ):
        c.candidates("trl")


def test_fresh_cache_asks_nothing(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index:
        with client(index.url, tmp_path) as c:
            first = c.candidates("trl")
        with client(index.url, tmp_path) as c:
            assert c.candidates("trl") == first
        assert index.count("/simple/trl/") == 1  # no max-age from the server: fresh for 600 s


def test_cache_revalidates_with_etag_and_serves_offline(tmp_path: Path) -> None:
    with IndexServer(PROJECTS, cache_control="max-age=0") as index:
        with client(index.url, tmp_path) as c:
            first = c.candidates("trl")
        with client(index.url, tmp_path) as c:
            assert c.candidates("trl") == first
        assert [
            a for p, a in index.requests if p == "/simple/trl/"
        ]  # asked twice, answered 304 once
        assert index.count("/simple/trl/") == 2
    # The server is gone: offline still answers from the cache, and says what it lacks.
    with client(index.url, tmp_path, offline=True) as c:
        assert c.candidates("trl") == first
        with pytest.raises(IndexAccessError, match="not in the cache"):
            c.candidates("vllm")


def test_file_index(tmp_path: Path) -> None:
    project = tmp_path / "simple" / "deepspeed"
    project.mkdir(parents=True)
    (project / "index.html").write_text(
        '<a href="deepspeed-0.14.2.tar.gz">deepspeed-0.14.2.tar.gz</a><a href="deepspeed-0.14.3.tar.gz">x</a>'
    )
    with client((tmp_path / "simple").as_uri(), tmp_path / "cache") as c:
        assert [str(v) for v in c.versions("deepspeed")] == ["0.14.2", "0.14.3"]
        assert c.candidates("missing") == []
