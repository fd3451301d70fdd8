"""The package-index client: PEP 691 JSON with PEP 503 HTML fallback, cached, bounded, concurrent.

This is the only module that imports httpx (lazily: `compat doctor` never pays for it). Every
transport, HTTP or parse failure becomes an `IndexAccessError` naming the URL, with the hint to
use `--offline`. A project the index does not know (404) simply has no candidates, as in pip.
Responses are cached in the user cache directory and revalidated with ETag / Last-Modified; with
`offline=True` only the cache is read.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import os
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    NormalizedName,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import Version

from compat.errors import IndexAccessError
from compat.indexconfig import IndexConfig

ACCEPT = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"
JSON_TYPE = "application/vnd.pypi.simple.v1+json"
USER_AGENT = "compat (+https://github.com/compat-dev/compat)"
RETRY_STATUSES = {429, 500, 502, 503, 504}
DEFAULT_MAX_AGE = 600.0  # seconds a cached page is used without asking again (PyPI's max-age)


@dataclass(frozen=True)
class Candidate:
    name: NormalizedName
    version: Version
    filename: str
    url: str
    yanked: str | None  # None: not yanked; "" or the reason: yanked (PEP 592)
    requires_python: SpecifierSet | None
    metadata_url: str | None  # PEP 658 / PEP 714 core metadata
    is_wheel: bool
    size: int | None = None


def default_cache_dir() -> Path:
    explicit = os.environ.get("COMPAT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "compat"


class _LinkParser(HTMLParser):
    """Anchors of a PEP 503 project page, with their data-* attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[dict[str, str | None]] = []
        self._current: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._current = dict(attrs)
            self._current["#text"] = ""

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self._current["#text"] = (self._current["#text"] or "") + data

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._current is not None:
            self.links.append(self._current)
            self._current = None


def _version_of(filename: str, name: NormalizedName) -> tuple[Version, bool] | None:
    try:
        if filename.endswith(".whl"):
            wheel_name, version, _, _ = parse_wheel_filename(filename)
            return (version, True) if wheel_name == name else None
        sdist_name, version = parse_sdist_filename(filename)
        return (version, False) if sdist_name == name else None
    except (InvalidWheelFilename, InvalidSdistFilename, ValueError):
        return None  # not a distribution we can place: skip it, like pip


def _requires_python(value: Any) -> SpecifierSet | None:
    if not value or not isinstance(value, str):
        return None
    try:
        return SpecifierSet(html.unescape(value))
    except InvalidSpecifier:
        return None


def _yanked(value: Any) -> str | None:
    if value is None or value is False:
        return None
    return value if isinstance(value, str) else ""


def parse_json_page(body: bytes, name: NormalizedName, url: str) -> list[Candidate]:
    try:
        document = json.loads(body)
        files = document["files"]
        if not isinstance(files, list):
            raise TypeError("files is not a list")
    except (ValueError, KeyError, TypeError) as error:
        raise IndexAccessError(f"{url}: malformed PEP 691 JSON ({error})") from None
    candidates = []
    for item in files:
        if not isinstance(item, dict) or not isinstance(item.get("filename"), str):
            continue
        parsed = _version_of(item["filename"], name)
        if parsed is None:
            continue
        file_url = urljoin(url, str(item.get("url", "")))
        metadata = item.get("core-metadata", item.get("data-dist-info-metadata"))
        candidates.append(
            Candidate(
                name=name,
                version=parsed[0],
                filename=item["filename"],
                url=file_url,
                yanked=_yanked(item.get("yanked")),
                requires_python=_requires_python(item.get("requires-python")),
                metadata_url=file_url.split("#")[0] + ".metadata" if metadata else None,
                is_wheel=parsed[1],
                size=item.get("size") if isinstance(item.get("size"), int) else None,
            )
        )
    return candidates


def parse_html_page(body: bytes, name: NormalizedName, url: str) -> list[Candidate]:
    parser = _LinkParser()
    try:
        parser.feed(body.decode("utf-8"))
        parser.close()
    except (UnicodeDecodeError, AssertionError) as error:
        raise IndexAccessError(f"{url}: malformed PEP 503 HTML ({error})") from None
    candidates = []
    for link in parser.links:
        href = link.get("href")
        if not href:
            continue
        file_url = urljoin(url, href)
        filename = unquote(urlsplit(file_url).path.rsplit("/", 1)[-1])
        parsed = _version_of(filename, name)
        if parsed is None:
            continue
        metadata = link.get("data-core-metadata", link.get("data-dist-info-metadata"))
        candidates.append(
            Candidate(
                name=name,
                version=parsed[0],
                filename=filename,
                url=file_url,
                yanked=link.get("data-yanked") if "data-yanked" in link else None,
                requires_python=_requires_python(link.get("data-requires-python")),
                metadata_url=file_url.split("#")[0] + ".metadata"
                if metadata is not None and metadata != "false"
                else None,
                is_wheel=parsed[1],
            )
        )
    return candidates


def allows_python(candidate: Candidate, python_version: Version | None) -> bool:
    """Whether the candidate's Requires-Python admits the target (unknown target: yes)."""
    if python_version is None or candidate.requires_python is None:
        return True
    return candidate.requires_python.contains(python_version, prereleases=True)


class IndexClient:
    """Candidates and their metadata from one or more simple indexes."""

    def __init__(
        self,
        config: IndexConfig,
        *,
        cache_dir: Path | None = None,
        offline: bool = False,
        timeout: float = 15.0,
        retries: int = 2,
        max_bytes: int = 64 * 2**20,
        progress: Callable[[str], None] | None = None,
        workers: int = 8,
    ) -> None:
        self.config = config
        self.cache_dir = (cache_dir or default_cache_dir()) / "http"
        self.offline = offline
        self.timeout = timeout
        self.retries = retries
        self.max_bytes = max_bytes
        self.progress = progress
        self.workers = workers
        self._client: Any = None

    # -- lifecycle ---------------------------------------------------------------------------

    def __enter__(self) -> IndexClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _http(self) -> Any:
        if self._client is None:
            import httpx

            self._client = httpx.Client(
                timeout=httpx.Timeout(self.timeout),
                follow_redirects=True,
                headers={"User-Agent": USER_AGENT},
                limits=httpx.Limits(max_connections=self.workers),
            )
        return self._client

    # -- public API --------------------------------------------------------------------------

    def candidates(self, name: str) -> list[Candidate]:
        normalized = canonicalize_name(name)
        found: list[Candidate] = []
        for base in self.config.urls:
            url = base.rstrip("/") + f"/{normalized}/"
            if self.progress:
                self.progress(f"fetching {normalized} from {base}")
            page = self._get(url, accept=ACCEPT)
            if page is None:
                continue  # 404 on this index: no candidates here
            body, content_type = page
            if content_type.startswith(JSON_TYPE) or (
                content_type == "" and body.lstrip()[:1] == b"{"
            ):
                found += parse_json_page(body, normalized, url)
            else:
                found += parse_html_page(body, normalized, url)
        return found

    def candidates_many(self, names: Iterable[str]) -> dict[NormalizedName, list[Candidate]]:
        unique = sorted({canonicalize_name(n) for n in names})
        if not unique:
            return {}
        with ThreadPoolExecutor(max_workers=min(self.workers, len(unique))) as pool:
            results = list(pool.map(self.candidates, unique))
        return dict(zip(unique, results, strict=True))

    def versions(
        self, name: str, *, python_version: Version | None = None, include_yanked: bool = False
    ) -> list[Version]:
        versions = set()
        for candidate in self.candidates(name):
            if candidate.yanked is not None and not include_yanked:
                continue
            if allows_python(candidate, python_version):
                versions.add(candidate.version)
        return sorted(versions)

    def requires_dist(self, candidate: Candidate) -> tuple[str, ...]:
        """Requires-Dist of a candidate: its PEP 658 metadata file, else the wheel's METADATA."""
        if candidate.metadata_url is not None:
            page = self._get(candidate.metadata_url, accept="*/*")
            if page is not None:
                return _requires_from_metadata(page[0])
        if not candidate.is_wheel:
            return ()  # an sdist's dependencies are only known after a build
        page = self._get(candidate.url.split("#")[0], accept="*/*")
        if page is None:
            raise IndexAccessError(f"{candidate.url}: not found")
        try:
            with zipfile.ZipFile(io.BytesIO(page[0])) as wheel:
                member = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
                return _requires_from_metadata(wheel.read(member))
        except (zipfile.BadZipFile, StopIteration, KeyError) as error:
            raise IndexAccessError(f"{candidate.url}: not a readable wheel ({error})") from None

    # -- transport ---------------------------------------------------------------------------

    def _get(self, url: str, *, accept: str) -> tuple[bytes, str] | None:
        """Body and content type, None for 404; cached with revalidation."""
        if url.startswith("file://"):
            return self._get_file(url)
        entry = self._cache_path(url, accept)
        cached = _read_cache_entry(entry)
        if self.offline:
            if cached is None:
                raise IndexAccessError(
                    f"{url}: not in the cache (--offline)", hint="run once without --offline"
                )
            if cached["status"] == 404:
                return None
            return cached["body"], cached["content_type"]
        if cached is not None and time.time() - cached.get("stored", 0) < cached.get(
            "max_age", DEFAULT_MAX_AGE
        ):
            # Fresh: a simple page is good for its max-age (PyPI says 600 s), as in pip's cache.
            return None if cached["status"] == 404 else (cached["body"], cached["content_type"])
        headers = {"Accept": accept}
        if cached is not None and cached["status"] == 200:
            if cached.get("etag"):
                headers["If-None-Match"] = cached["etag"]
            if cached.get("last_modified"):
                headers["If-Modified-Since"] = cached["last_modified"]
        status, body, response_headers = self._request(url, headers)
        max_age = _max_age(response_headers.get("cache-control", ""))
        if status == 304 and cached is not None:
            _write_cache_entry(entry, {**cached, "stored": time.time(), "max_age": max_age})
            return cached["body"], cached["content_type"]
        if status == 404:
            _write_cache_entry(
                entry,
                {
                    "status": 404,
                    "body": b"",
                    "content_type": "",
                    "stored": time.time(),
                    "max_age": max_age,
                },
            )
            return None
        if status != 200:
            attempts = f" (after {self.retries + 1} attempts)" if status in RETRY_STATUSES else ""
            raise IndexAccessError(f"{url}: HTTP {status}{attempts}")
        content_type = response_headers.get("content-type", "").split(";")[0].strip().lower()
        _write_cache_entry(
            entry,
            {
                "status": 200,
                "body": body,
                "content_type": content_type,
                "etag": response_headers.get("etag"),
                "last_modified": response_headers.get("last-modified"),
                "stored": time.time(),
                "max_age": max_age,
            },
        )
        return body, content_type

    def _request(self, url: str, headers: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        import httpx

        last_error = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(min(0.25 * 2 ** (attempt - 1), 2.0))  # exponential backoff
            try:
                with self._http().stream("GET", url, headers=headers) as response:
                    if response.status_code in RETRY_STATUSES and attempt < self.retries:
                        last_error = f"HTTP {response.status_code}"
                        continue
                    declared = response.headers.get("content-length")
                    if (
                        declared is not None
                        and declared.isdigit()
                        and int(declared) > self.max_bytes
                    ):
                        raise IndexAccessError(
                            f"{url}: response of {declared} bytes is over the {self.max_bytes}-byte limit"
                        )
                    chunks = []
                    size = 0
                    for chunk in response.iter_bytes():
                        size += len(chunk)
                        if size > self.max_bytes:
                            raise IndexAccessError(
                                f"{url}: response is over the {self.max_bytes}-byte limit"
                            )
                        chunks.append(chunk)
                    return (
                        response.status_code,
                        b"".join(chunks),
                        {k.lower(): v for k, v in response.headers.items()},
                    )
            except httpx.TimeoutException:
                last_error = f"no answer within {self.timeout:g}s"
            except httpx.HTTPError as error:
                last_error = f"{error.__class__.__name__}: {error}"
        raise IndexAccessError(f"{url}: {last_error} (after {self.retries + 1} attempts)")

    def _get_file(self, url: str) -> tuple[bytes, str] | None:
        path = Path(url2pathname(urlsplit(url).path))
        if path.is_dir():
            index = path / "index.html"
            if not index.is_file():
                return None
            path = index
        try:
            body = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise IndexAccessError(f"{url}: {error.strerror}") from None
        return body, ("text/html" if path.suffix == ".html" else "")

    def _cache_path(self, url: str, accept: str) -> Path:
        digest = hashlib.sha256(f"{accept}\n{url}".encode()).hexdigest()
        return self.cache_dir / digest[:2] / f"{digest}.json"


def _max_age(cache_control: str) -> float:
    """Freshness from Cache-Control: no-cache/no-store -> 0, max-age=N -> N, else the default."""
    directives = [d.strip().lower() for d in cache_control.split(",") if d.strip()]
    if "no-cache" in directives or "no-store" in directives:
        return 0.0
    for directive in directives:
        if directive.startswith("max-age="):
            try:
                return float(directive.split("=", 1)[1])
            except ValueError:
                break
    return DEFAULT_MAX_AGE


def _requires_from_metadata(data: bytes) -> tuple[str, ...]:
    from compat.sources.installed import parse_headers

    return tuple(parse_headers(data.decode("utf-8", errors="replace")).get("requires-dist", ()))


def _read_cache_entry(path: Path) -> dict[str, Any] | None:
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
        meta["body"] = path.with_suffix(".body").read_bytes()
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def _write_cache_entry(path: Path, entry: dict[str, Any]) -> None:
    # Best effort and atomic: a concurrent compat or a read-only home must never break a check.
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for suffix, data in (
            (".body", entry["body"]),
            (".json", json.dumps({k: v for k, v in entry.items() if k != "body"}).encode()),
        ):
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            Path(tmp).replace(path.with_suffix(suffix))
    except OSError:
        pass
