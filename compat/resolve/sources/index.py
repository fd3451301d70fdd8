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
import math
import os
import re
import tempfile
import threading
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

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
from compat.files.cachedir import user_cache_dir
from compat.resolve.sources.indexconfig import IndexConfig
from compat.versions import parse_specifier

ACCEPT = "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"
JSON_TYPE = "application/vnd.pypi.simple.v1+json"
USER_AGENT = "compat (+https://github.com/compat-dev/compat)"
RETRY_STATUSES = {429, 500, 502, 503, 504}
DEFAULT_MAX_AGE = 600.0  # seconds a cached page is used without asking again (PyPI's max-age)
# Whatever a server (or a file planted in the cache) says, a page is asked for again after a day.
MAX_AGE_LIMIT = 86_400.0
METADATA_LIMIT = 16 * 2**20  # a METADATA member larger than this is not a wheel's
# Codecs Python knows that are not a web page's charset: decoding with them is at best
# meaningless and, for punycode, quadratic in the size of the body.
_NOT_CHARSETS = {"punycode", "idna", "unicode-escape", "raw-unicode-escape", "undefined"}
_ASCII_DIGITS = re.compile(r"[0-9]{1,18}")
TAIL_BYTES = 64 * 1024  # first range read of a wheel: the zip directory is at the end


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
    sha256: str | None = None  # the file's hash as the index states it (check --fix's --hash lines)


def redact(url: str) -> str:
    """The URL with any password replaced, for messages (index URLs often carry tokens)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:****@{host}"))


def _error(url: str, what: str) -> IndexAccessError:
    # The hint ("use --offline ...") is IndexAccessError's own default, kept in one place.
    return IndexAccessError(f"{redact(url)}: {what}")


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
        return parse_specifier(value)
    except InvalidSpecifier:
        return None  # as pip: an unreadable Requires-Python does not hide the file


def _yanked(value: Any) -> str | None:
    if value is None or value is False:
        return None
    return value if isinstance(value, str) else ""


def _metadata_url(file_url: str) -> str:
    return file_url.split("#", 1)[0] + ".metadata"  # PEP 658: the file's URL plus ".metadata"


def parse_json_page(body: bytes, name: NormalizedName, url: str) -> list[Candidate]:
    """Candidates from a PEP 691 project page; files that are not distributions are skipped."""
    try:
        document = json.loads(body)
        if not isinstance(document, dict):
            raise TypeError("not an object")
        files = document["files"]
        if not isinstance(files, list):
            raise TypeError("files is not a list")
    except (ValueError, KeyError, TypeError) as error:
        raise _error(url, f"malformed PEP 691 JSON ({_one_line(str(error))})") from None
    except RecursionError:
        raise _error(url, "malformed PEP 691 JSON (nested too deeply)") from None
    meta = document.get("meta")
    api_version = str(meta.get("api-version", "1.0")) if isinstance(meta, dict) else "1.0"
    if api_version.split(".")[0] != "1":
        raise _error(url, f"unsupported simple API version {api_version} (compat reads 1.x)")
    candidates = []
    for item in files:
        if not isinstance(item, dict):
            continue
        filename, href = item.get("filename"), item.get("url")
        if not isinstance(filename, str) or not isinstance(href, str) or not href:
            continue
        parsed = _version_of(filename, name)
        if parsed is None:
            continue
        file_url = _link(url, href)
        # PEP 714: "core-metadata" where present, else the older "dist-info-metadata".
        metadata = (
            item["core-metadata"] if "core-metadata" in item else item.get("dist-info-metadata")
        )
        size = item.get("size")
        candidates.append(
            Candidate(
                name=name,
                version=parsed[0],
                filename=filename,
                url=file_url,
                yanked=_yanked(item.get("yanked")),
                requires_python=_requires_python(item.get("requires-python")),
                metadata_url=_metadata_url(file_url) if metadata else None,
                is_wheel=parsed[1],
                size=size if isinstance(size, int) and not isinstance(size, bool) else None,
                sha256=_sha256((item.get("hashes") or {}).get("sha256")),
            )
        )
    return candidates


def parse_html_page(
    body: bytes, name: NormalizedName, url: str, charset: str = "utf-8"
) -> list[Candidate]:
    """Candidates from a PEP 503 project page (with PEP 592 yanking and PEP 658/714 metadata)."""
    parser = _LinkParser()
    try:
        import codecs

        codec = codecs.lookup(charset)
        if not codec._is_text_encoding or codec.name in _NOT_CHARSETS:
            raise LookupError(f"{charset!r} is not a character set")
        parser.feed(body.decode(codec.name))
        parser.close()
    except (UnicodeError, LookupError, AssertionError, ValueError) as error:
        raise _error(url, f"malformed PEP 503 HTML ({_one_line(str(error))})") from None
    candidates = []
    for link in parser.links:
        href = link.get("href")
        if not href:
            continue
        file_url = _link(url, href)
        filename = unquote(urlsplit(file_url).path.rsplit("/", 1)[-1])
        parsed = _version_of(filename, name)
        if parsed is None:
            continue
        # Attribute values arrive unescaped from HTMLParser; a valueless attribute is None.
        metadata = link.get("data-core-metadata") or link.get("data-dist-info-metadata")
        requires_python = link.get("data-requires-python")
        candidates.append(
            Candidate(
                name=name,
                version=parsed[0],
                filename=filename,
                url=file_url,
                yanked=(link.get("data-yanked") or "") if "data-yanked" in link else None,
                requires_python=_requires_python(html.unescape(requires_python or "")),
                metadata_url=_metadata_url(file_url) if metadata and metadata != "false" else None,
                is_wheel=parsed[1],
                sha256=_sha256(_fragment_hash(file_url)),
            )
        )
    return candidates


_HEX64 = frozenset("0123456789abcdef")


def _sha256(value: Any) -> str | None:
    """A SHA-256 the index states, when it is one (64 hex digits), in lower case."""
    if not isinstance(value, str) or len(value) != 64 or not _HEX64.issuperset(value.lower()):
        return None
    return value.lower()


def _fragment_hash(file_url: str) -> str | None:
    """PEP 503: a file URL's `#sha256=HEX` fragment."""
    fragment = file_url.partition("#")[2]
    return fragment[len("sha256=") :] if fragment.startswith("sha256=") else None


def _link(page_url: str, href: str) -> str:
    """The absolute URL of a link. A malformed one (`http://[::1`) is an error, and so is one
    pointing at local files from a page served over the network: a remote index must never
    make compat read file:///etc/passwd."""
    try:
        target = urljoin(page_url, href)
        scheme = urlsplit(target).scheme.lower()
        urlsplit(target).port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as error:
        raise _error(page_url, f"malformed link {href[:200]!r} ({error})") from None
    if urlsplit(page_url).scheme.lower() in ("http", "https") and scheme not in ("http", "https"):
        raise _error(
            page_url, f"links to {target[:200]!r}: a remote index may only link to http(s) URLs"
        )
    return target


def allows_python(candidate: Candidate, python_version: Version | None) -> bool:
    """Whether the candidate's Requires-Python admits the target (unknown target: yes)."""
    if python_version is None or candidate.requires_python is None:
        return True
    return candidate.requires_python.contains(python_version, prereleases=True)


class IndexClient:
    """Candidates and their metadata from one or more simple indexes (pip's merged view)."""

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
        self.cache_dir = (cache_dir or user_cache_dir()) / "http"
        self.offline = offline
        self.timeout = timeout
        self.retries = retries
        self.max_bytes = max_bytes
        self.progress = progress
        self.workers = workers
        self._client: Any = None
        self._lock = threading.Lock()  # candidates_many's threads share one client
        self._last_retry_after: dict[str, str] = {}

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
        """Close the connection pool; the client may not be used afterwards."""
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _http(self) -> Any:
        with self._lock:
            if self._client is None:
                import httpx  # here, not at the top: `compat doctor` never pays for it

                # trust_env (the default) keeps HTTP(S)_PROXY, NO_PROXY and SSL_CERT_FILE working.
                self._client = httpx.Client(
                    timeout=httpx.Timeout(self.timeout),
                    follow_redirects=True,
                    headers={"User-Agent": USER_AGENT},
                    limits=httpx.Limits(max_connections=self.workers),
                )
            return self._client

    # -- public API --------------------------------------------------------------------------

    def candidates(self, name: str) -> list[Candidate]:
        """Every file of `name` on every configured index (404 on an index: none from it)."""
        normalized = canonicalize_name(name)
        found: list[Candidate] = []
        urls = self.config.urls
        for base in urls:
            url = base.rstrip("/") + f"/{normalized}/"
            if self.progress:
                where = "" if len(urls) == 1 else f" from {urlsplit(base).netloc or base}"
                self.progress(f"fetching {normalized}{where}")
            page = self._get(url, accept=ACCEPT, what=normalized)
            if page is None:
                continue  # 404 on this index: no candidates here
            body, content_type = page
            kind, _, params = content_type.partition(";")
            kind = kind.strip().lower()
            if kind == JSON_TYPE or (
                kind in ("", "application/json") and body.lstrip()[:1] == b"{"
            ):
                found += parse_json_page(body, normalized, url)
            else:
                found += parse_html_page(body, normalized, url, _charset(params))
        return found

    def candidates_many(self, names: Iterable[str]) -> dict[NormalizedName, list[Candidate]]:
        """`candidates` for many names at once, over a small pool of threads."""
        unique = sorted({canonicalize_name(n) for n in names})
        if not unique:
            return {}
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=min(self.workers, len(unique))) as pool:
            results = list(pool.map(self.candidates, unique))
        return dict(zip(unique, results, strict=True))

    def versions(
        self, name: str, *, python_version: Version | None = None, include_yanked: bool = False
    ) -> list[Version]:
        """Sorted distinct versions, without yanked ones and those the Python cannot install."""
        versions = set()
        for candidate in self.candidates(name):
            if candidate.yanked is not None and not include_yanked:
                continue
            if allows_python(candidate, python_version):
                versions.add(candidate.version)
        return sorted(versions)

    def requires_dist(self, candidate: Candidate) -> tuple[str, ...]:
        """Requires-Dist of a candidate: its PEP 658 metadata file, else the wheel's METADATA.

        A wheel is read with HTTP range requests (the zip directory and the METADATA member
        only), so a 2 GB torch wheel costs a few hundred kilobytes; servers without ranges send
        the whole file, within the size cap. An sdist's dependencies are unknown: ().
        """
        label = f"{candidate.name} {candidate.version}"
        if candidate.metadata_url is not None:
            page = self._get(candidate.metadata_url, accept="*/*", what=label, immutable=True)
            if page is not None:
                return _requires_from_metadata(page[0])
        if not candidate.is_wheel:
            return ()
        return _requires_from_metadata(self._wheel_metadata(candidate, label))

    # -- wheels ------------------------------------------------------------------------------

    def _wheel_metadata(self, candidate: Candidate, label: str) -> bytes:
        url = candidate.url.split("#", 1)[0]
        if url.startswith("file://"):
            page = self._get_file(url)
            if page is None:
                raise _error(url, "not found")
            return _metadata_member(io.BytesIO(page[0]), url)
        entry = self._cache_path(url, "wheel-metadata")
        cached = _read_cache_entry(entry)
        if cached is not None:
            return bytes(cached["body"])  # wheels never change under one URL
        if self.offline:
            raise self._offline_error(url, label)
        if self.progress:
            self.progress(f"reading {candidate.filename}")
        status, body, headers = self._request(url, {"Range": f"bytes=-{TAIL_BYTES}"})
        if status == 206:
            total = _content_range_total(headers.get("content-range", ""))
            if total is None:
                raise _error(url, "range response without a total size")
            sparse = _RangeFile(total, total - len(body), body, lambda a, b: self._range(url, a, b))
            metadata = _metadata_member(sparse, url)
        elif status == 200:  # no range support: this is the whole wheel
            metadata = _metadata_member(io.BytesIO(body), url)
        elif status == 404:
            raise _error(url, "not found (HTTP 404)")
        else:
            raise _error(url, _http_status(status))
        _write_cache_entry(entry, {"status": 200, "body": metadata, "content_type": ""})
        return metadata

    def _range(self, url: str, start: int, end: int) -> bytes:
        status, body, _ = self._request(url, {"Range": f"bytes={start}-{end - 1}"})
        if status != 206 or len(body) != end - start:
            raise _error(url, f"bad range response (HTTP {status}, {len(body)} bytes)")
        return body

    # -- transport ---------------------------------------------------------------------------

    def _offline_error(self, url: str, what: str) -> IndexAccessError:
        return IndexAccessError(
            f"{what}: not in the cache for {redact(url)} (--offline)",
            hint="run once without --offline to fill the cache",
        )

    def _get(
        self, url: str, *, accept: str, what: str, immutable: bool = False
    ) -> tuple[bytes, str] | None:
        """Body and content type, None for 404; cached with revalidation.

        `immutable` files (PEP 658 metadata) are served from the cache without asking again.
        """
        if url.startswith("file://"):
            return self._get_file(url)
        entry = self._cache_path(url, accept)
        cached = _read_cache_entry(entry)
        if self.offline:
            if cached is None:
                raise self._offline_error(url, what)
            return None if cached["status"] == 404 else (cached["body"], cached["content_type"])
        if cached is not None and (
            (immutable and cached["status"] == 200)
            or 0 <= time.time() - cached["stored"] < cached["max_age"]
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
        if status in (404, 410):
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
            raise _error(url, _http_status(status) + attempts)
        content_type = response_headers.get("content-type", "")
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
        """One GET with retries (connect errors, timeouts, 429, 5xx) and the size cap."""
        import httpx

        last_error = ""
        delay = 0.0
        for attempt in range(self.retries + 1):
            if attempt:
                # Exponential backoff (0.25 s, 0.5 s, ... up to 2 s), or the server's Retry-After.
                time.sleep(max(delay, min(0.25 * 2 ** (attempt - 1), 2.0)))
            delay = 0.0
            try:
                answer = self._within_deadline(url, headers, last=attempt == self.retries)
                if isinstance(answer, float):  # a status worth retrying, and its Retry-After
                    last_error = _http_status(int(answer))
                    delay = _retry_after(self._last_retry_after.get(url, ""))
                    continue
                return answer
            except httpx.TimeoutException:
                last_error = f"no answer within {self.timeout:g}s"
            except httpx.InvalidURL as error:
                raise _error(url, f"invalid URL ({error})") from None
            except httpx.HTTPError as error:
                last_error = f"{error.__class__.__name__}: {_one_line(str(error))}"
        raise _error(url, f"{last_error} (after {self.retries + 1} attempts)")

    def _within_deadline(
        self, url: str, headers: dict[str, str], *, last: bool
    ) -> tuple[int, bytes, dict[str, str]] | float:
        """One attempt, bounded as a whole by the timeout: httpx's timeout bounds each read, so
        a server sending one byte a second (slow-loris) would hold a read-only timeout forever.

        The attempt runs on a daemon thread; past the deadline it is abandoned with its
        connection pool (a fresh one serves later requests) and the caller gets an error.
        """
        import threading as _threading

        box: dict[str, Any] = {}
        deadline = time.monotonic() + self.timeout

        def attempt() -> None:
            try:
                box["answer"] = self._attempt(url, headers, deadline, last)
            except BaseException as error:  # handed to the caller's thread
                box["error"] = error

        worker = _threading.Thread(target=attempt, daemon=True, name="compat-index")
        worker.start()
        worker.join(self.timeout + 0.5)
        if worker.is_alive():
            with self._lock:
                self._client = None  # abandoned to the stuck thread, never closed under it
            raise _error(
                url, f"no complete answer within {self.timeout:g}s (the server sends too slowly)"
            )
        if "error" in box:
            raise box["error"]
        answer: tuple[int, bytes, dict[str, str]] | float = box["answer"]
        return answer

    def _attempt(
        self, url: str, headers: dict[str, str], deadline: float, last: bool
    ) -> tuple[int, bytes, dict[str, str]] | float:
        with self._http().stream("GET", url, headers=headers) as response:
            if response.status_code in RETRY_STATUSES and not last:
                self._last_retry_after[url] = response.headers.get("retry-after", "")
                return float(response.status_code)
            declared = response.headers.get("content-length", "").strip()
            if _ASCII_DIGITS.fullmatch(declared) and int(declared) > self.max_bytes:
                raise _error(
                    url,
                    f"response of {int(declared)} bytes is over the {self.max_bytes}-byte limit",
                )
            chunks = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > self.max_bytes:
                    raise _error(url, f"response is over the {self.max_bytes}-byte limit")
                if time.monotonic() > deadline:
                    raise _error(
                        url,
                        f"no complete answer within {self.timeout:g}s (the server sends too slowly)",
                    )
                chunks.append(chunk)
            return (
                response.status_code,
                b"".join(chunks),
                {k.lower(): v for k, v in response.headers.items()},
            )

    def _get_file(self, url: str) -> tuple[bytes, str] | None:
        from urllib.request import url2pathname  # pulls in http.client: only for file:// URLs

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
            raise _error(url, error.strerror or str(error)) from None
        return body, ("text/html" if path.suffix == ".html" else "")

    def _cache_path(self, url: str, accept: str) -> Path:
        digest = hashlib.sha256(f"{accept}\n{url}".encode()).hexdigest()
        return self.cache_dir / digest[:2] / f"{digest}.json"


class _RangeFile(io.RawIOBase):
    """A read-only, seekable view of a remote file that fetches only the ranges read."""

    def __init__(
        self, size: int, start: int, data: bytes, fetch: Callable[[int, int], bytes]
    ) -> None:
        super().__init__()
        self._size = size
        self._pos = 0
        self._chunks: list[tuple[int, bytes]] = [(start, data)]
        self._fetch = fetch

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: Any) -> int:
        want = min(len(buffer), self._size - self._pos)
        if want <= 0:
            return 0
        data = self._slice(self._pos, self._pos + want)
        buffer[: len(data)] = data
        self._pos += len(data)
        return len(data)

    def _slice(self, start: int, end: int) -> bytes:
        for chunk_start, chunk in self._chunks:
            if chunk_start <= start and end <= chunk_start + len(chunk):
                return chunk[start - chunk_start : end - chunk_start]
        # Read ahead: zipfile asks for a 30-byte header, then the name, then the data.
        fetch_end = min(self._size, max(end, start + TAIL_BYTES))
        data = self._fetch(start, fetch_end)
        self._chunks.append((start, data))
        return data[: end - start]


def _metadata_member(archive: Any, url: str) -> bytes:
    try:
        with zipfile.ZipFile(archive) as wheel:
            names = [
                n
                for n in wheel.namelist()
                if n.count("/") == 1 and n.endswith(".dist-info/METADATA")
            ]
            if not names:
                raise _error(url, "not a wheel: no .dist-info/METADATA")
            if wheel.getinfo(names[0]).file_size > METADATA_LIMIT:
                raise _error(url, f"METADATA is over the {METADATA_LIMIT}-byte limit")
            return wheel.read(names[0])
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        KeyError,
        EOFError,
        ValueError,
        NotImplementedError,  # an unsupported compression method
        RuntimeError,  # an encrypted member
        OSError,
        zlib.error,
    ) as error:
        raise _error(url, f"not a readable wheel ({_one_line(str(error))})") from None


def _content_range_total(value: str) -> int | None:
    match = re.fullmatch(r"\s*bytes\s+\d+-\d+/(\d+)\s*", value)
    return int(match.group(1)) if match else None


def _charset(params: str) -> str:
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip('"')
    return "utf-8"


def _http_status(status: int) -> str:
    why = {401: "authentication required", 403: "forbidden", 429: "too many requests"}.get(status)
    return f"HTTP {status} ({why})" if why else f"HTTP {status}"


def _retry_after(value: str) -> float:
    # Seconds only, ASCII digits only (`str.isdigit` accepts "²", which float() refuses; the
    # HTTP-date form is rare on indexes); never wait longer than 10 s.
    value = value.strip()
    return min(float(value), 10.0) if _ASCII_DIGITS.fullmatch(value) else 0.0


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _max_age(cache_control: str) -> float:
    """Freshness from Cache-Control: no-cache/no-store -> 0, max-age=N -> N, else the default."""
    directives = [d.strip().lower() for d in cache_control.split(",") if d.strip()]
    if "no-cache" in directives or "no-store" in directives:
        return 0.0
    for directive in directives:
        if directive.startswith("max-age="):
            return _clamp_age(directive.split("=", 1)[1].strip())
    return DEFAULT_MAX_AGE


def _clamp_age(value: Any) -> float:
    """A max-age as a number of seconds in [0, MAX_AGE_LIMIT]; anything else: the default."""
    if isinstance(value, str):
        value = float(value) if _ASCII_DIGITS.fullmatch(value) else DEFAULT_MAX_AGE
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return DEFAULT_MAX_AGE
    return float(min(max(value, 0.0), MAX_AGE_LIMIT))


def _requires_from_metadata(data: bytes) -> tuple[str, ...]:
    from compat.facts.installed import parse_headers

    return tuple(parse_headers(data.decode("utf-8", errors="replace")).get("requires-dist", ()))


def _read_cache_entry(path: Path) -> dict[str, Any] | None:
    """A cache entry, validated: anything malformed, from the future or oversized is a miss."""
    try:
        if path.stat().st_size > 1 << 20:
            return None
        meta = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(meta, dict):
            return None
        body = path.with_suffix(".body")
        if body.stat().st_size > 256 * 2**20:
            return None
        meta["body"] = body.read_bytes()
    except (OSError, ValueError, RecursionError):
        return None
    stored = meta.get("stored", 0.0)
    if (
        meta.get("status") not in (200, 404)
        or not isinstance(meta.get("content_type", ""), str)
        or isinstance(stored, bool)
        or not isinstance(stored, int | float)
        or not math.isfinite(stored)
        or stored > time.time() + 300  # "stored" in the future would keep an entry fresh
        or not all(isinstance(meta.get(k), str | None) for k in ("etag", "last_modified"))
    ):
        return None
    meta.setdefault("content_type", "")
    meta["stored"] = float(stored)
    meta["max_age"] = _clamp_age(meta.get("max_age", DEFAULT_MAX_AGE))
    return meta


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
