"""A real package index on 127.0.0.1 for tests: PEP 691 JSON, PEP 503 HTML, PEP 658 metadata,
generated wheels that pip can resolve and install, and faults on demand.

    with IndexServer({"trl": [Dist("trl", "0.15.2", requires=["accelerate>=0.34"])]}) as index:
        index.url          # "http://127.0.0.1:PORT/simple", for --index-url or IndexClient
        index.requests     # every request: Request(path, accept, range)

Project pages answer with an ETag and a Last-Modified date and honour If-None-Match /
If-Modified-Since (304). Files honour single `Range` requests (206) unless `ranges=False`.
Use `write_wheel(dist, directory)` for a wheel file on disk (e.g. a file:// index or --find-links).
"""

from __future__ import annotations

import base64
import email.utils
import hashlib
import html
import io
import json
import re
import tarfile
import threading
import time
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import NamedTuple
from urllib.parse import unquote

from packaging.utils import NormalizedName, canonicalize_name


@dataclass(frozen=True)
class Dist:
    name: str
    version: str
    requires: Sequence[str] = ()
    requires_python: str | None = None
    yanked: bool | str = False
    wheel: bool = True
    metadata_file: bool = True  # serve PEP 658 metadata
    padding: int = 0  # bytes of incompressible data in the wheel, to make it big
    # With wheel=False: the source of an in-tree build backend (`backend.py`, no build
    # requirements), served as a real source distribution that the tools build.
    backend: str | None = None
    tag: str = "py3-none-any"  # the wheel's tag (its file name and WHEEL file say it)
    uploaded: str | None = None  # PEP 700 `upload-time` (JSON pages), "2024-05-01T12:00:00Z"
    files: tuple[tuple[str, str], ...] = ()  # more members of the wheel: (path, text)

    @property
    def filename(self) -> str:
        escaped = self.name.replace("-", "_")
        return (
            f"{escaped}-{self.version}-{self.tag}.whl"
            if self.wheel
            else f"{escaped}-{self.version}.tar.gz"
        )

    def metadata(self) -> bytes:
        lines = ["Metadata-Version: 2.1", f"Name: {self.name}", f"Version: {self.version}"]
        if self.requires_python:
            lines.append(f"Requires-Python: {self.requires_python}")
        lines += [f"Requires-Dist: {r}" for r in self.requires]
        return ("\n".join(lines) + "\n\n").encode()


def build_wheel(dist: Dist) -> bytes:
    """A real, installable pure-Python wheel with a RECORD pip accepts."""
    info = f"{dist.name.replace('-', '_')}-{dist.version}.dist-info"
    module = dist.name.replace("-", "_").lower()
    files = {
        f"{module}/__init__.py": f"__version__ = {dist.version!r}\n".encode(),
        f"{info}/METADATA": dist.metadata(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: compat-tests\nRoot-Is-Purelib: true\nTag: "
        + dist.tag.encode()
        + b"\n",
    }
    for path, text in dist.files:
        files[path] = text.encode()
    if dist.padding:
        # Deterministic but incompressible: a SHA-256 stream.
        blocks = (
            hashlib.sha256(f"{dist.filename}{i}".encode()).digest()
            for i in range(dist.padding // 32 + 1)
        )
        files[f"{module}/blob.bin"] = b"".join(blocks)[: dist.padding]
        files = {
            k: files[k] for k in sorted(files, key=lambda k: ".dist-info/" in k)
        }  # dist-info last
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return buffer.getvalue()


def build_sdist(dist: Dist) -> bytes:
    """A real source distribution whose build backend is `dist.backend`, in tree."""
    top = f"{dist.name.replace('-', '_')}-{dist.version}"
    pyproject = '[build-system]\nrequires = []\nbuild-backend = "backend"\nbackend-path = ["."]\n'
    files = {"PKG-INFO": dist.metadata(), "pyproject.toml": pyproject.encode()}
    files["backend.py"] = (dist.backend or "").encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path, data in files.items():
            info = tarfile.TarInfo(f"{top}/{path}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def write_wheel(dist: Dist, directory: Path) -> Path:
    """The wheel of `dist` as a file in `directory` (created if needed)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / dist.filename
    path.write_bytes(build_wheel(dist))
    return path


class Request(NamedTuple):
    path: str
    accept: str
    range: str | None  # the Range header, if any
    headers: Mapping[str, str]  # every request header, names lowercased


@dataclass
class Faults:
    """Per-project misbehaviour: status codes, bad bodies, slowness, size."""

    status: dict[str, int] = field(default_factory=dict)  # project -> HTTP status
    fail_first: dict[str, int] = field(default_factory=dict)  # project -> 5xx count before success
    malformed: dict[str, str] = field(default_factory=dict)  # project -> "json" | "html"
    slow: dict[str, float] = field(default_factory=dict)  # project -> seconds before answering
    huge: set[str] = field(default_factory=set)  # project -> a body far over any sane limit


class IndexServer:
    """`with IndexServer({"trl": [Dist("trl", "0.15.2")]}) as index: index.url`."""

    def __init__(
        self,
        projects: Mapping[str, Sequence[Dist]],
        *,
        formats: str = "json",
        faults: Faults | None = None,
        cache_control: str | None = None,
        ranges: bool = True,
        metadata_key: str = "core-metadata",
        etag: bool = True,
        roots: Mapping[str, Mapping[str, Sequence[Dist]]] | None = None,
    ) -> None:
        # More indexes on the same server, at /<root>/<project>/ (PyTorch's /whl/cu126 style);
        # `index.base` + "/cu126" is then an index URL that serves only those projects.
        self.roots = {
            root: {canonicalize_name(name): list(dists) for name, dists in projects.items()}
            for root, projects in (roots or {}).items()
        }
        self.etag = etag  # send ETags (else only Last-Modified)
        self.cache_control = cache_control  # e.g. "max-age=0" to make clients revalidate
        self.ranges = ranges  # answer Range requests with 206 (else the whole file, 200)
        # "core-metadata" (PEP 714) or the older "dist-info-metadata" (PEP 658 as first shipped)
        self.metadata_key = metadata_key
        self._modified: dict[str, float] = {}  # page digest -> when it first appeared
        self.projects = {canonicalize_name(name): list(dists) for name, dists in projects.items()}
        self.formats = formats  # "json", "html" (PEP 503 only) or "both"
        self.faults = faults or Faults()
        self.requests: list[Request] = []
        self._wheels: dict[str, bytes] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        # A client that gave up (timeout tests) makes the handler's write fail: not news.
        self._server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/simple"

    def __enter__(self) -> IndexServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()

    def count(self, fragment: str) -> int:
        """How many requests had `fragment` in their path."""
        return sum(1 for request in self.requests if fragment in request.path)

    # ------------------------------------------------------------------------------------------

    def last_modified(self, digest: str) -> str:
        """An HTTP date for a page body: each new body is a second newer than any before."""
        if digest not in self._modified:
            self._modified[digest] = max([time.time() - 3600, *self._modified.values()]) + 1
        return email.utils.formatdate(self._modified[digest], usegmt=True)

    def _dist_for(self, filename: str) -> Dist | None:
        every = [self.projects, *self.roots.values()]
        for dists in (d for projects in every for d in projects.values()):
            for dist in dists:
                if dist.filename == filename:
                    return dist
        return None

    def _page(
        self, project: NormalizedName, accept: str, root: str | None = None
    ) -> tuple[bytes, str]:
        dists = (self.roots[root] if root else self.projects)[project]
        want_json = self.formats == "json" or (self.formats == "both" and "v1+json" in accept)
        if want_json:
            files = []
            for dist in dists:
                entry: dict[str, object] = {
                    "filename": dist.filename,
                    "url": f"../../files/{dist.filename}",
                    "hashes": {"sha256": hashlib.sha256(self._file(dist)).hexdigest()},
                }
                if dist.requires_python:
                    entry["requires-python"] = dist.requires_python
                if dist.uploaded:
                    entry["upload-time"] = dist.uploaded
                if dist.yanked:
                    entry["yanked"] = dist.yanked
                if dist.metadata_file and dist.wheel:
                    entry[self.metadata_key] = {
                        "sha256": hashlib.sha256(dist.metadata()).hexdigest()
                    }
                files.append(entry)
            body = {"meta": {"api-version": "1.1"}, "name": project, "files": files}
            return json.dumps(body).encode(), "application/vnd.pypi.simple.v1+json"
        anchors = []
        for dist in dists:
            sha = hashlib.sha256(self._file(dist)).hexdigest()
            attrs = f'href="../../files/{dist.filename}#sha256={sha}"'
            if dist.requires_python:
                attrs += f' data-requires-python="{dist.requires_python.replace("<", "&lt;").replace(">", "&gt;")}"'
            if isinstance(dist.yanked, str) and dist.yanked:
                attrs += f' data-yanked="{html.escape(dist.yanked)}"'
            elif dist.yanked:
                attrs += " data-yanked"  # a valueless attribute: yanked, no reason given
            if dist.metadata_file and dist.wheel:
                digest = hashlib.sha256(dist.metadata()).hexdigest()
                attrs += f' data-{self.metadata_key}="sha256={digest}"'
            anchors.append(f"<a {attrs}>{dist.filename}</a><br/>")
        page = "<!DOCTYPE html><html><body><h1>Links for {}</h1>{}</body></html>".format(
            project, "\n".join(anchors)
        )
        return page.encode(), "text/html"

    def _file(self, dist: Dist) -> bytes:
        if dist.filename not in self._wheels:
            self._wheels[dist.filename] = (
                build_wheel(dist)
                if dist.wheel
                else build_sdist(dist)
                if dist.backend is not None
                else b"not really an sdist"
            )
        return self._wheels[dist.filename]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def _send(
                self,
                status: int,
                body: bytes,
                content_type: str = "text/plain",
                extra: dict[str, str] | None = None,
            ) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                for key, value in (extra or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def do_GET(self) -> None:
                path = unquote(self.path.split("?")[0])
                accept = self.headers.get("Accept", "")
                server.requests.append(
                    Request(
                        path,
                        accept,
                        self.headers.get("Range"),
                        {k.lower(): v for k, v in self.headers.items()},
                    )
                )
                parts = [p for p in path.split("/") if p]
                if len(parts) == 2 and parts[0] == "simple":
                    self._project(canonicalize_name(parts[1]), accept)
                elif len(parts) == 2 and parts[0] in server.roots:
                    project = canonicalize_name(parts[1])
                    if project in server.roots[parts[0]]:
                        body, content_type = server._page(project, accept, parts[0])
                        self._send(200, body, content_type)
                    else:
                        self._send(404, b"no such project")
                elif len(parts) == 2 and parts[0] == "files":
                    self._download(parts[1])
                else:
                    self._send(404, b"not found")

            # HEAD answers GET's status and headers without the body (_send): a range reader
            # asks a file's size this way first (scripts/pypi_inputs.py).
            do_HEAD = do_GET

            def _project(self, project: NormalizedName, accept: str) -> None:
                faults = server.faults
                if project in faults.slow:
                    time.sleep(faults.slow[project])
                if faults.fail_first.get(project, 0) > 0:
                    faults.fail_first[project] -= 1
                    self._send(503, b"try again")
                    return
                if project in faults.status:
                    self._send(faults.status[project], b"fault")
                    return
                if project in faults.huge:
                    self._send(
                        200,
                        b"{" + b" " * (80 * 2**20) + b"}",
                        "application/vnd.pypi.simple.v1+json",
                    )
                    return
                if project in faults.malformed:
                    kind = faults.malformed[project]
                    if kind == "json":
                        self._send(
                            200, b'{"files": [ {"filename": ', "application/vnd.pypi.simple.v1+json"
                        )
                    else:
                        self._send(200, b"<html><a href=\xff\xfe>", "text/html")
                    return
                if project not in server.projects:
                    self._send(404, b"no such project")
                    return
                body, content_type = server._page(project, accept)
                digest = hashlib.sha256(body).hexdigest()
                etag = f'"{digest[:16]}"'
                last_modified = server.last_modified(digest)
                if not server.etag:
                    etag = ""
                not_modified = (
                    self.headers.get("If-None-Match") == etag
                    if "If-None-Match" in self.headers
                    else self.headers.get("If-Modified-Since") == last_modified
                )
                if not_modified:
                    self.send_response(304)
                    if etag:
                        self.send_header("ETag", etag)
                    if server.cache_control:
                        self.send_header("Cache-Control", server.cache_control)
                    self.end_headers()
                    return
                headers = {"Last-Modified": last_modified}
                if etag:
                    headers["ETag"] = etag
                if server.cache_control:
                    headers["Cache-Control"] = server.cache_control
                self._send(200, body, content_type, headers)

            def _download(self, filename: str) -> None:
                if filename.endswith(".metadata"):
                    dist = server._dist_for(filename[: -len(".metadata")])
                    if dist is None or not dist.metadata_file:
                        self._send(404, b"no metadata")
                    else:
                        self._send(200, dist.metadata(), "application/octet-stream")
                    return
                dist = server._dist_for(filename)
                if dist is None:
                    self._send(404, b"no such file")
                    return
                data = server._file(dist)
                wanted = self.headers.get("Range")
                if not server.ranges or not wanted:
                    self._send(200, data, "application/octet-stream", {"Accept-Ranges": "none"})
                    return
                span = _byte_range(wanted, len(data))
                if span is None:
                    self._send(416, b"", extra={"Content-Range": f"bytes */{len(data)}"})
                    return
                start, end = span
                self._send(
                    206,
                    data[start:end],
                    "application/octet-stream",
                    {"Content-Range": f"bytes {start}-{end - 1}/{len(data)}"},
                )

        return Handler


def _byte_range(header: str, size: int) -> tuple[int, int] | None:
    """`bytes=a-b`, `bytes=a-` or `bytes=-n` as a half-open span, None when unsatisfiable."""
    match = re.fullmatch(r"bytes=(\d*)-(\d*)", header.strip())
    if not match or match.group(1) == match.group(2) == "":
        return None
    first, last = match.groups()
    if first == "":
        start, end = max(0, size - int(last)), size
    else:
        start, end = int(first), min(size, int(last) + 1) if last else size
    return (start, end) if start < end else None
