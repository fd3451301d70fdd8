"""Read chosen members of a wheel (a zip) on an HTTP server without downloading it whole: HTTP
Range requests for the central directory at the end, then only the wanted members' bytes
(issue 41, item 2: torch's and vLLM's wheels are 400-900 MB; their `.py` files a few).

The server must answer a Range request with 206 and a Content-Range naming the file's full size;
one that does not is refused (SystemExit), never read whole by accident. The full size must be
the size PyPI states for the file (`expected_size`), and every member read is checked against
its CRC-32 in the central directory by `zipfile` itself; the file's sha256 cannot be checked
without reading every byte, so the recorded sha256 names the file and the size and CRCs hold
its bytes.

Members are fetched in few requests: the wanted members' spans sorted by offset and merged where
the gap between two is under GAP bytes.

RangeFile is the one HTTP Range reader of scripts/: the generators that read a member or two of
a remote wheel (gen_torch_builds' torch/version.py, pypi_inputs' METADATA and names,
gen_requires_snapshot's METADATA where PyPI has no PEP 658 file) read through it, each over its
own transport (`Get`: an httpx client, or urllib with a User-Agent and retries).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import httpx  # imported where a client is made: pypi_inputs' urllib transport needs none

GAP = 256 * 1024
TAIL = 1024 * 1024  # the first read from the end: the central directory of a big wheel fits
# The fetched bytes kept: past this, the oldest segments but the first (the central directory)
# are let go and fetched again if read again (a generator reading a 1 GB member in 8 MB reads).
KEEP = 256 * 1024 * 1024


class Answer(NamedTuple):
    """An HTTP answer as RangeFile reads it; header names in lower case."""

    status: int
    headers: Mapping[str, str]
    content: bytes


# (url, request headers) -> the answer, redirects followed; an error status may raise instead
Get = Callable[[str, Mapping[str, str]], Answer]


def httpx_get(client: httpx.Client) -> Get:
    """A `Get` over an httpx client."""

    def get(url: str, headers: Mapping[str, str]) -> Answer:
        answer = client.get(url, headers=dict(headers), follow_redirects=True)
        found = {name.lower(): value for name, value in answer.headers.items()}
        return Answer(answer.status_code, found, answer.content)

    return get


class RangeFile(io.RawIOBase):
    """A seekable read-only file over HTTP Range requests, reading from fetched segments.
    `source`: an httpx client or a `Get`; `tail`: the bytes read first, from the end (a small
    wheel's central directory fits in less than a big one's)."""

    def __init__(
        self,
        source: httpx.Client | Get,
        url: str,
        expected_size: int | None = None,
        tail: int = TAIL,
    ) -> None:
        self.get = source if callable(source) else httpx_get(source)
        self.url, self.pos = url, 0
        self.segments: list[tuple[int, bytes]] = []
        self.requests = 0
        answer = self._get(f"bytes=-{tail}")
        total = int(answer.headers["content-range"].rpartition("/")[2])
        if expected_size is not None and total != expected_size:
            raise SystemExit(f"{url}: the server's size {total} is not PyPI's {expected_size}")
        self.size = total
        self.segments.append((total - len(answer.content), answer.content))

    def _get(self, spec: str) -> Answer:
        answer = self.get(self.url, {"Range": spec})
        self.requests += 1
        if answer.status >= 400:  # a transport that does not raise on its own (httpx)
            raise SystemExit(f"{self.url}: HTTP {answer.status}")
        if answer.status != 206 or "content-range" not in answer.headers:
            raise SystemExit(f"{self.url}: no Range support (HTTP {answer.status})")
        return answer

    def fetch(self, start: int, end: int) -> None:
        """Bring bytes [start, end) into the segments."""
        if start >= end or any(s <= start and end <= s + len(d) for s, d in self.segments):
            return
        answer = self._get(f"bytes={start}-{end - 1}")
        got = answer.content
        if len(got) != end - start:
            raise SystemExit(f"{self.url}: asked {end - start} bytes at {start}, got {len(got)}")
        kept = sum(len(d) for _, d in self.segments) + len(got)
        while kept > KEEP and len(self.segments) > 1:
            kept -= len(self.segments.pop(1)[1])
        self.segments.append((start, got))

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self.pos, 2: self.size}[whence]
        self.pos = base + offset
        return self.pos

    def read(self, n: int | None = -1) -> bytes:
        end = self.size if n is None or n < 0 else min(self.size, self.pos + n)
        if end <= self.pos:
            return b""
        for start, data in self.segments:
            if start <= self.pos and end <= start + len(data):
                out = data[self.pos - start : end - start]
                self.pos = end
                return out
        self.fetch(self.pos, max(end, min(self.size, self.pos + 64 * 1024)))
        return self.read(n)

    def readinto(self, buffer: Any) -> int:
        """For io.BufferedReader, which the generators wrap around a RangeFile."""
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def read_members(
    url: str, wanted: Callable[[str], bool], dest: Path, expected_size: int | None = None
) -> tuple[list[str], int]:
    """Write the wheel's members for which `wanted(name)` holds under `dest`; an extension
    module not wanted is written empty (its names are not readable anyway: doctor's reader says
    so), so that a module's existence is still seen. Returns the members written with content
    and the number of HTTP requests made."""
    import httpx

    with httpx.Client(follow_redirects=True, timeout=120) as client:
        remote = RangeFile(client, url, expected_size)
        with zipfile.ZipFile(remote) as archive:
            infos = sorted(archive.infolist(), key=lambda i: i.header_offset)
            ends = [i.header_offset for i in infos[1:]] + [remote.size]
            spans = [
                (info.header_offset, end)
                for info, end in zip(infos, ends, strict=True)
                if wanted(info.filename)
            ]
            merged: list[list[int]] = []
            for start, end in spans:
                if merged and start - merged[-1][1] < GAP:
                    merged[-1][1] = end
                else:
                    merged.append([start, end])
            for start, end in merged:
                remote.fetch(start, end)
            read: list[str] = []
            for info in infos:
                if info.is_dir():
                    continue
                target = dest / info.filename
                if wanted(info.filename):
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(info))  # zipfile checks the CRC-32
                    read.append(info.filename)
                elif info.filename.endswith((".so", ".pyd")):
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(b"")
        return read, remote.requests
