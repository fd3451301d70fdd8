"""The package-index client against a real HTTP server on 127.0.0.1 (and real files on disk)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.errors import IndexAccessError
from compat.files.cachedir import user_cache_dir
from compat.resolve.sources.index import Candidate, IndexClient, parse_json_page
from compat.resolve.sources.indexconfig import IndexConfig
from tests.indexserver import Dist, Faults, IndexServer, write_wheel

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
            requires_python=">=3.9,<3.14",
        ),
        Dist("trl", "0.16.0", yanked="broken release"),
        Dist("trl", "0.16.1", yanked=True),
        Dist("trl", "1.16.0", requires_python=">=3.11"),
        Dist("trl", "0.15.1", wheel=False),
    ],
    "vllm": [Dist("vllm", "0.7.2", requires=["torch==2.5.1"], metadata_file=False)],
    "accelerate": [Dist("accelerate", "1.2.1")],
}
ALL_TRL = {"0.14.0", "0.15.2", "0.16.0", "0.16.1", "1.16.0", "0.15.1"}


def client(*urls: str, cache: Path, **kwargs: object) -> IndexClient:
    config = IndexConfig(urls[0], tuple(urls[1:]), "test")
    return IndexClient(config, cache_dir=cache, **kwargs)  # type: ignore[arg-type]


def by_version(candidates: list[Candidate]) -> dict[str, Candidate]:
    return {str(c.version): c for c in candidates}


# ---------------------------------------------------------------------------------------------
# pages


@pytest.mark.parametrize("formats", ["json", "html", "both"])
def test_candidates_yanked_and_requires_python(tmp_path: Path, formats: str) -> None:
    with IndexServer(PROJECTS, formats=formats) as index, client(index.url, cache=tmp_path) as c:
        found = by_version(c.candidates("TRL"))
        assert set(found) == ALL_TRL
        assert found["0.16.0"].yanked == "broken release"
        assert found["0.16.1"].yanked == ""  # yanked without a reason
        assert found["0.15.2"].yanked is None
        assert str(found["0.15.2"].requires_python) == "<3.14,>=3.9"  # unescaped from HTML
        assert str(found["1.16.0"].requires_python) == ">=3.11"
        assert found["0.15.2"].filename == "trl-0.15.2-py3-none-any.whl"
        assert found["0.15.2"].url.startswith(index.url.removesuffix("/simple") + "/files/")
        assert found["0.15.1"].is_wheel is False and found["0.15.1"].metadata_url is None
        assert {c.name for c in found.values()} == {"trl"}
        assert c.versions("trl", python_version=Version("3.10")) == [
            Version(v) for v in ("0.14.0", "0.15.1", "0.15.2")
        ]
        assert c.versions("trl", python_version=Version("3.14")) == [
            Version(v) for v in ("0.14.0", "0.15.1", "1.16.0")
        ]
        with_yanked = c.versions("trl", include_yanked=True)
        assert Version("0.16.0") in with_yanked and Version("0.16.1") in with_yanked
    accepts = {r.accept for r in index.requests}
    assert all(a.startswith("application/vnd.pypi.simple.v1+json") for a in accepts)


def test_unparseable_files_are_skipped(tmp_path: Path) -> None:
    project = tmp_path / "simple" / "flash-attn"
    project.mkdir(parents=True)
    (project / "index.html").write_text(
        '<a href="flash_attn-2.7.4.post1.tar.gz">ok</a>'
        '<a href="flash_attn-2.7.4.post1+cu12torch2.6-cp311-cp311-linux_x86_64.whl">ok</a>'
        '<a href="flash_attn-not.a.version.tar.gz">bad version</a>'
        '<a href="flash_attn-2.0.0.exe">installer</a>'
        '<a href="other_project-1.0.tar.gz">another project</a>'
        '<a href="flash_attn-2.0-py3-none.whl">bad wheel name</a>'
        "<a>no href</a>"
    )
    with client((tmp_path / "simple").as_uri(), cache=tmp_path / "cache") as c:
        assert [str(v) for v in c.versions("flash_attn")] == [
            "2.7.4.post1",
            "2.7.4.post1+cu12torch2.6",
        ]


def test_json_page_edges() -> None:
    name = canonicalize_name("deepspeed")
    page = {
        "meta": {"api-version": "1.1"},
        "files": [
            {
                "filename": "deepspeed-0.14.2.tar.gz",
                "url": "https://f.example/deepspeed-0.14.2.tar.gz",
            },
            {"filename": "deepspeed-0.14.3.tar.gz"},  # no url: unusable
            "not an object",
            {
                "filename": "deepspeed-0.14.4-py3-none-any.whl",
                "url": "../../f/deepspeed-0.14.4-py3-none-any.whl",
                "core-metadata": False,
                "dist-info-metadata": {"sha256": "00"},  # core-metadata wins (PEP 714)
                "requires-python": "not a specifier",
                "size": 1234,
            },
        ],
    }
    url = "https://idx.example/simple/deepspeed/"
    found = by_version(parse_json_page(json.dumps(page).encode(), name, url))
    assert set(found) == {"0.14.2", "0.14.4"}
    wheel = found["0.14.4"]
    assert wheel.url == "https://idx.example/f/deepspeed-0.14.4-py3-none-any.whl"
    assert wheel.metadata_url is None and wheel.requires_python is None and wheel.size == 1234
    with pytest.raises(IndexAccessError, match=r"unsupported simple API version 2\.0"):
        parse_json_page(b'{"meta": {"api-version": "2.0"}, "files": []}', name, url)
    with pytest.raises(IndexAccessError, match="malformed PEP 691 JSON"):
        parse_json_page(b"[]", name, url)


# ---------------------------------------------------------------------------------------------
# dependency metadata


@pytest.mark.parametrize("formats", ["json", "html"])
@pytest.mark.parametrize("key", ["core-metadata", "dist-info-metadata"])
def test_requires_dist_from_pep658_metadata(tmp_path: Path, formats: str, key: str) -> None:
    with (
        IndexServer(PROJECTS, formats=formats, metadata_key=key) as index,
        client(index.url, cache=tmp_path) as c,
    ):
        trl = by_version(c.candidates("trl"))["0.15.2"]
        assert trl.metadata_url == trl.url.split("#")[0] + ".metadata"
        assert c.requires_dist(trl) == ("accelerate>=0.34", "vllm==0.7.2; extra == 'vllm'")
        assert c.requires_dist(trl) == ("accelerate>=0.34", "vllm==0.7.2; extra == 'vllm'")
        assert index.count(".metadata") == 1  # metadata files never change: asked once
        assert not [r for r in index.requests if r.path.endswith(".whl")]


def test_requires_dist_of_an_sdist_is_unknown(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index, client(index.url, cache=tmp_path) as c:
        sdist = by_version(c.candidates("trl"))["0.15.1"]
        assert c.requires_dist(sdist) == ()
        assert index.count("/files/") == 0


BIG = {
    "torch": [
        Dist("torch", "2.5.1", requires=["sympy>=1.13"], metadata_file=False, padding=3 * 2**20)
    ]
}


def test_wheel_metadata_read_with_range_requests(tmp_path: Path) -> None:
    with IndexServer(BIG) as index:
        with client(index.url, cache=tmp_path, max_bytes=2**20) as c:
            (torch,) = c.candidates("torch")
            assert torch.metadata_url is None
            assert c.requires_dist(torch) == ("sympy>=1.13",)
        wheel_requests = [r for r in index.requests if r.path.endswith(".whl")]
        assert wheel_requests and all(r.range for r in wheel_requests)
        # A later run reads the extracted METADATA from the cache, even offline.
        with client(index.url, cache=tmp_path, offline=True) as c:
            assert c.requires_dist(torch) == ("sympy>=1.13",)
        assert index.count(".whl") == len(wheel_requests)


def test_wheel_metadata_without_range_support(tmp_path: Path) -> None:
    with IndexServer(PROJECTS, ranges=False) as index, client(index.url, cache=tmp_path) as c:
        (vllm,) = c.candidates("vllm")
        assert c.requires_dist(vllm) == ("torch==2.5.1",)  # the whole (small) wheel
    with (
        IndexServer(BIG, ranges=False) as index,
        client(index.url, cache=tmp_path / "2", max_bytes=2**20) as c,
    ):
        (torch,) = c.candidates("torch")
        with pytest.raises(IndexAccessError, match="over the 1048576-byte limit"):
            c.requires_dist(torch)


# ---------------------------------------------------------------------------------------------
# several names, several indexes


def test_unknown_project_is_empty_not_an_error(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index, client(index.url, cache=tmp_path) as c:
        assert c.candidates("no-such-project") == []
        assert c.versions("no-such-project") == []


def test_concurrent_lookups(tmp_path: Path) -> None:
    messages: list[str] = []
    with (
        IndexServer(PROJECTS) as index,
        client(index.url, cache=tmp_path, progress=messages.append) as c,
    ):
        many = c.candidates_many(["trl", "vllm", "TRL", "missing"])
        assert sorted(many) == ["missing", "trl", "vllm"]
        assert {str(x.version) for x in many[canonicalize_name("trl")]} == ALL_TRL
        assert many[canonicalize_name("missing")] == []
        assert sorted(messages) == ["fetching missing", "fetching trl", "fetching vllm"]
        assert c.candidates_many([]) == {}


def test_extra_indexes_are_merged(tmp_path: Path) -> None:
    mirror = {"trl": [Dist("trl", "0.17.0")], "internal-tool": [Dist("internal-tool", "1.0")]}
    messages: list[str] = []
    with (
        IndexServer(PROJECTS) as main,
        IndexServer(mirror, formats="html") as extra,
        client(main.url, extra.url, cache=tmp_path, progress=messages.append) as c,
    ):
        assert set(by_version(c.candidates("trl"))) == {*ALL_TRL, "0.17.0"}
        assert c.versions("internal-tool") == [Version("1.0")]  # 404 on the main index
    host = extra.url.split("/")[2]
    assert f"fetching trl from {host}" in messages


# ---------------------------------------------------------------------------------------------
# failures


def test_retries_a_5xx_then_succeeds(tmp_path: Path) -> None:
    with (
        IndexServer(PROJECTS, faults=Faults(fail_first={"trl": 2})) as index,
        client(index.url, cache=tmp_path) as c,
    ):
        assert set(by_version(c.candidates("trl"))) == ALL_TRL
        assert index.count("/simple/trl/") == 3


@pytest.mark.parametrize(
    ("faults", "fragment"),
    [
        (Faults(status={"trl": 500}), "HTTP 500 (after 3 attempts)"),
        (Faults(status={"trl": 429}), "HTTP 429 (too many requests) (after 3 attempts)"),
        (Faults(status={"trl": 403}), "HTTP 403 (forbidden)"),
        (Faults(status={"trl": 401}), "HTTP 401 (authentication required)"),
        (Faults(malformed={"trl": "json"}), "malformed PEP 691 JSON"),
        (Faults(malformed={"trl": "html"}), "malformed PEP 503 HTML"),
        (Faults(slow={"trl": 2.0}), "no answer within 0.3s (after 3 attempts)"),
        (Faults(huge={"trl"}), "over the 1048576-byte limit"),
    ],
)
def test_faults_become_one_clear_error(tmp_path: Path, faults: Faults, fragment: str) -> None:
    formats = "html" if faults.malformed.get("trl") == "html" else "json"
    timeout = 0.3 if faults.slow else 30.0
    with (
        IndexServer(PROJECTS, faults=faults, formats=formats) as index,
        # The size limit is under test for the huge answer, not the clock: a loaded machine
        # must not turn it into a time-out, so only the slow case keeps the tight deadline.
        client(index.url, cache=tmp_path, timeout=timeout, retries=2, max_bytes=2**20) as c,
        pytest.raises(IndexAccessError) as raised,
    ):
        c.candidates("trl")
    message = raised.value.message
    assert message.startswith(f"{index.url}/trl/: ")
    assert fragment in message and "\n" not in message
    assert raised.value.hint is not None and raised.value.hint.startswith("use --offline")


def test_dead_index_and_redacted_credentials(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index:
        url = index.url.replace("http://", "http://ci:s3cret-token@")
    with (
        client(url, cache=tmp_path, retries=1, timeout=1) as c,
        pytest.raises(IndexAccessError) as raised,
    ):
        c.candidates("trl")
    assert "(after 2 attempts)" in raised.value.message  # not httpx's exception name
    assert "s3cret" not in raised.value.message and "ci:****@" in raised.value.message


def test_credentials_in_the_url_are_sent(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index:
        url = index.url.replace("http://", "http://ci:s3cret@")
        with client(url, cache=tmp_path) as c:
            assert c.candidates("vllm")
        assert index.requests[0].headers["authorization"].startswith("Basic ")


# ---------------------------------------------------------------------------------------------
# cache


def test_fresh_cache_asks_nothing(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index:
        with client(index.url, cache=tmp_path) as c:
            first = c.candidates("trl")
            assert c.candidates("no-such-project") == []
        with client(index.url, cache=tmp_path) as c:
            assert c.candidates("trl") == first
            assert c.candidates("no-such-project") == []
        assert index.count("/simple/trl/") == 1  # no max-age from the server: fresh for 600 s
        assert index.count("/simple/no-such-project/") == 1


@pytest.mark.parametrize("etag", [True, False], ids=["etag", "last-modified"])
def test_stale_cache_revalidates(tmp_path: Path, etag: bool) -> None:
    with IndexServer(PROJECTS, cache_control="max-age=0", etag=etag) as index:
        with client(index.url, cache=tmp_path) as c:
            first = c.candidates("trl")
        with client(index.url, cache=tmp_path) as c:
            assert c.candidates("trl") == first  # answered 304 from the cached body
        second = index.requests[-1].headers
        assert ("if-none-match" in second) is etag
        assert "if-modified-since" in second
        # A new release changes the page: the next revalidation gets the new body.
        index.projects[canonicalize_name("trl")].append(Dist("trl", "0.17.0"))
        with client(index.url, cache=tmp_path) as c:
            assert Version("0.17.0") in c.versions("trl")
        assert index.count("/simple/trl/") == 3


def test_offline_uses_only_the_cache(tmp_path: Path) -> None:
    with IndexServer(PROJECTS) as index, client(index.url, cache=tmp_path) as c:
        first = c.candidates("trl")
        assert c.candidates("gone") == []
        assert c.requires_dist(by_version(first)["0.14.0"])
    # The server is gone: offline still answers from the cache, and says what it lacks.
    with client(index.url, cache=tmp_path, offline=True) as c:
        assert c.candidates("trl") == first
        assert c.candidates("gone") == []  # a cached 404
        assert c.requires_dist(by_version(first)["0.14.0"]) == (
            "accelerate>=0.34",
            "vllm; extra == 'vllm'",
        )
        with pytest.raises(IndexAccessError) as raised:
            c.candidates("vllm")
        assert raised.value.message.startswith("vllm: not in the cache for ")
        assert raised.value.hint is not None and "without --offline" in raised.value.hint
        with pytest.raises(IndexAccessError, match=r"trl 0\.15\.2: not in the cache"):
            c.requires_dist(by_version(first)["0.15.2"])


def test_offline_with_an_empty_cache(tmp_path: Path) -> None:
    with (
        client("http://127.0.0.1:9/simple", cache=tmp_path, offline=True) as c,
        pytest.raises(IndexAccessError, match="trl: not in the cache"),
    ):
        c.candidates("trl")


def test_unwritable_cache_does_not_break_lookups(tmp_path: Path) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache directory should be")
    with IndexServer(PROJECTS) as index, client(index.url, cache=blocker) as c:
        assert c.versions("vllm") == [Version("0.7.2")]


def test_cache_dir_resolution(tmp_path: Path) -> None:
    assert user_cache_dir({"COMPAT_CACHE_DIR": str(tmp_path / "c"), "XDG_CACHE_HOME": "/x"}) == (
        tmp_path / "c"
    )
    assert user_cache_dir({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "compat"
    home = {"HOME": str(tmp_path)}
    assert user_cache_dir(home) == tmp_path / ".cache" / "compat"
    assert user_cache_dir({**home, "XDG_CACHE_HOME": "relative"}) == tmp_path / ".cache" / "compat"
    assert user_cache_dir({**home, "COMPAT_CACHE_DIR": ""}) == tmp_path / ".cache" / "compat"


# ---------------------------------------------------------------------------------------------
# file:// indexes


def test_file_index(tmp_path: Path) -> None:
    simple = tmp_path / "simple"
    project = simple / "deepspeed"
    project.mkdir(parents=True)
    wheel = write_wheel(
        Dist("deepspeed", "0.14.3", requires=["hjson", "ninja"]), tmp_path / "files"
    )
    (project / "index.html").write_text(
        '<a href="deepspeed-0.14.2.tar.gz">deepspeed-0.14.2.tar.gz</a>'
        f'<a href="{wheel.as_uri()}" data-requires-python="&gt;=3.8">wheel</a>'
    )
    with client(simple.as_uri(), cache=tmp_path / "cache") as c:
        assert [str(v) for v in c.versions("deepspeed")] == ["0.14.2", "0.14.3"]
        assert c.versions("deepspeed", python_version=Version("3.7")) == [Version("0.14.2")]
        assert c.candidates("missing") == []
        found = by_version(c.candidates("DeepSpeed"))
        assert c.requires_dist(found["0.14.3"]) == ("hjson", "ninja")


# ---------------------------------------------------------------------------------------------
# the test index itself: real pip resolves and installs from it


def test_pip_resolves_from_the_test_index(tmp_path: Path) -> None:
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("trl!=0.15.2\n")
    report = tmp_path / "report.json"
    pip = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--no-cache-dir",
           "--only-binary", ":all:", "--target", str(tmp_path / "t"), "--report", str(report),
           "-c", str(constraints)]  # fmt: skip
    with IndexServer(PROJECTS, formats="both") as index:
        proc = subprocess.run(
            [*pip, "--index-url", index.url, "trl<1"],
            capture_output=True,
            text=True,
            env={**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
            timeout=120,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr
    installed = {
        item["metadata"]["name"]: item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }
    # 0.16.x are yanked, 0.15.2 is excluded by the constraint, 0.15.1 is an sdist-only fake.
    assert installed == {"trl": "0.14.0", "accelerate": "1.2.1"}
