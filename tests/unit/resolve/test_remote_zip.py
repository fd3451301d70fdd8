"""scripts/remote_zip.py, the import table's reader of big wheels (issue 41 item 2: torch's and
vLLM's 400-900 MB wheels): only the central directory and the wanted members cross the wire, a
server that ignores Range is refused, and a member's bytes are held by its CRC-32. A real HTTP
server on 127.0.0.1 that answers Range requests as files.pythonhosted.org does (206,
Content-Range with the full size)."""

from __future__ import annotations

import io
import os
import sys
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from scripts.remote_zip import read_members
from tests.lib import paths

SOURCE = b"from huggingface_hub import cached_download\n" * 50


def _wheel(path: Path) -> bytes:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("pkg/__init__.py", SOURCE)
        # an extension module between the sources, big and incompressible (larger than the
        # first read from the end, remote_zip.TAIL): never fetched
        archive.writestr("pkg/_C.cpython-311-x86_64-linux-gnu.so", os.urandom(3 * 1024 * 1024))
        archive.writestr("pkg/sub.py", b"NAME = 1\n")
        archive.writestr("pkg-1.0.dist-info/RECORD", b"pkg/__init__.py,,\npkg/sub.py,,\n")
    return path.read_bytes()


@contextmanager
def _server(data: bytes, *, ranges: bool = True, corrupt: int | None = None) -> Iterator[dict]:
    served = {"bytes": 0, "requests": 0}
    body = bytearray(data)
    if corrupt is not None:
        body[corrupt] ^= 0xFF

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            spec = self.headers.get("Range", "")
            served["requests"] += 1
            if ranges and spec.startswith("bytes="):
                first, _, last = spec[6:].partition("-")
                if not first:
                    start, end = len(body) - int(last), len(body)
                else:
                    start, end = int(first), int(last) + 1
                chunk = bytes(body[start:end])
                self.send_response(206)
                self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(body)}")
            else:
                chunk = bytes(body)
                self.send_response(200)
            self.send_header("Content-Length", str(len(chunk)))
            self.end_headers()
            self.wfile.write(chunk)
            served["bytes"] += len(chunk)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        served["url"] = f"http://127.0.0.1:{server.server_address[1]}/pkg-1.0-py3-none-any.whl"
        yield served
    finally:
        server.shutdown()
        server.server_close()


def _wanted(name: str) -> bool:
    return name.endswith((".py", "RECORD"))


def test_only_the_wanted_members_cross_the_wire(tmp_path: Path) -> None:
    data = _wheel(tmp_path / "pkg.whl")
    with _server(data) as served:
        read, requests = read_members(served["url"], _wanted, tmp_path / "site", len(data))
    assert sorted(read) == ["pkg-1.0.dist-info/RECORD", "pkg/__init__.py", "pkg/sub.py"]
    assert (tmp_path / "site" / "pkg" / "__init__.py").read_bytes() == SOURCE
    # the extension module is there (a module doctor's reader sees) but empty, never fetched
    assert (tmp_path / "site" / "pkg" / "_C.cpython-311-x86_64-linux-gnu.so").read_bytes() == b""
    assert served["bytes"] < len(data) / 2 and requests == served["requests"] <= 4


def test_a_server_without_range_is_refused(tmp_path: Path) -> None:
    data = _wheel(tmp_path / "pkg.whl")
    with _server(data, ranges=False) as served, pytest.raises(SystemExit, match="no Range"):
        read_members(served["url"], _wanted, tmp_path / "site", len(data))


def test_a_file_of_another_size_than_pypi_states_is_refused(tmp_path: Path) -> None:
    data = _wheel(tmp_path / "pkg.whl")
    with _server(data) as served, pytest.raises(SystemExit, match="not PyPI's"):
        read_members(served["url"], _wanted, tmp_path / "site", len(data) + 1)


def test_a_member_whose_bytes_changed_is_refused_by_its_crc(tmp_path: Path) -> None:
    data = _wheel(tmp_path / "pkg.whl")
    with zipfile.ZipFile(tmp_path / "pkg.whl") as archive:
        info = archive.getinfo("pkg/sub.py")
    # the member's stored data starts after its 30-byte local header, name and extra field
    offset = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    with (
        _server(data, corrupt=offset + 1) as served,
        pytest.raises(zipfile.BadZipFile, match="CRC"),
    ):
        read_members(served["url"], _wanted, tmp_path / "site", len(data))


# --- the generators read remote wheels through the same RangeFile ------------------------------

sys.path.insert(0, str(paths.REPO / "scripts"))  # the generators import their siblings so
import gen_requires_snapshot  # noqa: E402
import gen_torch_builds  # noqa: E402
import pypi_inputs  # noqa: E402
import remote_zip  # noqa: E402


def test_pypi_inputs_reads_members_and_names_by_range(tmp_path: Path) -> None:
    data = _wheel(tmp_path / "pkg.whl")
    with _server(data) as served:
        texts = pypi_inputs.wheel_members(served["url"], ["pkg/sub.py", "pkg/absent.py"])
        names = pypi_inputs.wheel_names(served["url"])
    assert texts == {"pkg/sub.py": "NAME = 1\n", "pkg/absent.py": None}
    assert "pkg/_C.cpython-311-x86_64-linux-gnu.so" in names
    assert served["bytes"] < len(data) / 2  # the extension module never crossed the wire


@pytest.mark.parametrize("reader", ["pypi_inputs", "gen_torch_builds"])
def test_every_generator_refuses_a_server_without_range(tmp_path: Path, reader: str) -> None:
    """A server that answers a Range request with the whole file (200) is refused by name after
    one request: the readers these replaced downloaded the whole wheel on every read and read
    the wrong bytes as a zip (BadZipFile, which names no cause)."""
    import httpx

    data = _wheel(tmp_path / "pkg.whl")
    with _server(data, ranges=False) as served, pytest.raises(SystemExit, match="no Range"):
        if reader == "pypi_inputs":
            pypi_inputs.wheel_names(served["url"])
        else:
            with httpx.Client(timeout=30) as client:
                gen_torch_builds._wheel_cuda(client, served["url"])
    assert served["requests"] == 1


def test_requires_snapshot_reads_a_big_wheels_metadata_by_range(tmp_path: Path) -> None:
    path = tmp_path / "big-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        # bigger than gen_requires_snapshot.BLOCK: read by range, not downloaded whole
        archive.writestr("big/_C.so", os.urandom(3 * gen_requires_snapshot.BLOCK))
        archive.writestr("big-1.0.dist-info/METADATA", b"Name: big\nRequires-Dist: torch\n")
    data = path.read_bytes()
    with _server(data) as served:
        found = gen_requires_snapshot._wheel_metadata(served["url"], len(data))
        assert found == ("big-1.0.dist-info/METADATA", b"Name: big\nRequires-Dist: torch\n")
        # one request from the end: the central directory and the METADATA after the module
        assert served["requests"] == 1 and served["bytes"] == gen_requires_snapshot.BLOCK
        with pytest.raises(SystemExit, match="not PyPI's"):  # the size PyPI states, checked
            gen_requires_snapshot._wheel_metadata(served["url"], len(data) - 1)


def test_a_long_read_keeps_at_most_keep_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generator reading a big member in buffered reads (gen_arch_table's 8 MB) lets the
    oldest segments go past KEEP; the central directory stays, the bytes read are the file's."""
    monkeypatch.setattr(remote_zip, "KEEP", 256 * 1024)
    data = _wheel(tmp_path / "pkg.whl")
    with _server(data) as served:
        remote = remote_zip.RangeFile(pypi_inputs._answer, served["url"], len(data))
        tail = remote.segments[0]
        with (
            zipfile.ZipFile(io.BufferedReader(remote, 64 * 1024)) as archive,
            archive.open("pkg/_C.cpython-311-x86_64-linux-gnu.so") as member,
        ):
            so = b"".join(iter(lambda: member.read(64 * 1024), b""))
        with zipfile.ZipFile(tmp_path / "pkg.whl") as archive:
            assert so == archive.read("pkg/_C.cpython-311-x86_64-linux-gnu.so")  # and its CRC
    assert remote.segments[0] == tail
    kept = sum(len(d) for _, d in remote.segments)
    assert kept <= len(tail[1]) + 256 * 1024 and len(so) > 2 * kept
