"""Fetching the published facts that scripts/gen_rules.py turns into rules (used by `--refresh`).

Only PyPI is read, through its ordinary interfaces:

* the simple API in its JSON form (PEP 691) for the list of releases and their files;
* each release's core metadata, published next to the wheel (PEP 658, `<wheel url>.metadata`);
* single files inside a released wheel, read with HTTP range requests on the wheel (its zip
  central directory, then the one member), so a 10 MB wheel costs a few hundred kB. A wheel's
  files are the release's source at its tag, as built and shipped.

Nothing here runs during a normal regeneration: the answers are recorded in scripts/inputs/*.json.
"""

from __future__ import annotations

import io
import json
import os
import re
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urljoin

from packaging.utils import parse_sdist_filename, parse_wheel_filename
from packaging.version import InvalidVersion, Version
from remote_zip import Answer, RangeFile

# The index the generators read: PyPI, or COMPAT_GEN_INDEX (a simple-API root; the tests point it
# at a real index on 127.0.0.1).
SIMPLE = os.environ.get("COMPAT_GEN_INDEX", "https://pypi.org/simple").rstrip("/") + "/{name}/"
USER_AGENT = "compat-kb-generator (scripts/gen_rules.py --refresh)"
TIMEOUT = 60.0


def _get(url: str, headers: Mapping[str, str] | None = None) -> bytes:
    return _answer(url, headers).content


def _answer(url: str, headers: Mapping[str, str] | None = None) -> Answer:
    """The status, headers and body of a GET (an error status raises urllib's HTTPError)."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, **(headers or {})})
    with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
        data: bytes = response.read()
        found = {name.lower(): value for name, value in response.headers.items()}
        return Answer(response.status, found, data)


def simple_files(name: str) -> list[dict[str, Any]]:
    """Every file PyPI lists for a project (PEP 691 JSON)."""
    page = SIMPLE.format(name=name)
    body = _get(page, {"Accept": "application/vnd.pypi.simple.v1+json"})
    files: list[dict[str, Any]] = json.loads(body)["files"]
    for entry in files:  # PEP 691 allows relative URLs (PyPI's are absolute)
        entry["url"] = urljoin(page, entry["url"])
    return files


def final_versions(files: Iterable[dict[str, Any]]) -> dict[Version, list[dict[str, Any]]]:
    """Wheels by release, final releases and post releases only (no dev, alpha, beta, rc)."""
    out: dict[Version, list[dict[str, Any]]] = {}
    for entry in files:
        filename = entry["filename"]
        if not filename.endswith(".whl"):
            continue
        try:
            _, version, _, _ = parse_wheel_filename(filename)
        except (ValueError, InvalidVersion):
            continue
        if version.is_prerelease or version.is_devrelease or version.local:
            continue
        out.setdefault(version, []).append(entry)
    return out


def release_versions(files: Iterable[dict[str, Any]]) -> list[Version]:
    """Final and post releases with any file, wheel or sdist (DeepSpeed ships sdists only)."""
    found: set[Version] = set()
    for entry in files:
        filename = entry["filename"]
        try:
            if filename.endswith(".whl"):
                version = parse_wheel_filename(filename)[1]
            elif filename.endswith(".tar.gz"):
                version = parse_sdist_filename(filename)[1]
            else:
                continue
        except (ValueError, InvalidVersion):
            continue
        if not (version.is_prerelease or version.is_devrelease or version.local):
            found.add(version)
    return sorted(found)


def pick_wheel(wheels: list[dict[str, Any]]) -> dict[str, Any]:
    """The wheel a Linux x86-64 machine would take (its metadata is what pip reads there)."""

    def rank(entry: dict[str, Any]) -> tuple[int, str]:
        name = entry["filename"]
        if "manylinux" in name and "x86_64" in name:
            return (0, name)
        if name.endswith("-none-any.whl"):
            return (1, name)
        if "linux" in name and "x86_64" in name:
            return (2, name)
        return (3, name)

    return sorted(wheels, key=rank)[0]


def core_metadata(url: str) -> list[tuple[str, str]]:
    """The wheel's METADATA (PEP 658), as (field, value) pairs.

    Wheels uploaded before PyPI served PEP 658 files have none: their METADATA is then read from
    the wheel itself."""
    try:
        text = _get(url + ".metadata").decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise
        return wheel_metadata(url)
    return parse_metadata(text)


def wheel_metadata(url: str) -> list[tuple[str, str]]:
    """The METADATA file inside the wheel itself (not the index's PEP 658 copy of it)."""
    names = [n for n in wheel_names(url) if n.endswith(".dist-info/METADATA")]
    if not names:
        return []
    return parse_metadata(wheel_members(url, names[:1])[names[0]] or "")


def parse_metadata(text: str) -> list[tuple[str, str]]:
    """A core-metadata header as (field, value) pairs, continuation lines joined."""
    header = text.split("\n\n", 1)[0]
    fields: list[tuple[str, str]] = []
    for line in header.splitlines():
        if line.startswith((" ", "\t")) and fields:
            key, value = fields[-1]
            fields[-1] = (key, value + "\n" + line.strip())
        elif ":" in line:
            key, _, value = line.partition(":")
            fields.append((key.strip(), value.strip()))
    return fields


class _RangeFile(RangeFile):
    """scripts/remote_zip.py's Range reader over this module's urllib transport (its
    User-Agent and time-out): a server that ignores Range is refused, never read whole."""

    def __init__(self, url: str) -> None:
        super().__init__(_answer, url, tail=1 << 16)  # a 10 MB wheel: a few hundred kB read


def wheel_members(url: str, members: Iterable[str]) -> dict[str, str | None]:
    """The text of some files inside a remote wheel (None where the wheel lacks one)."""
    raw = _RangeFile(url)
    with zipfile.ZipFile(io.BufferedReader(raw, buffer_size=1 << 16)) as archive:
        names = set(archive.namelist())
        return {
            member: archive.read(member).decode("utf-8", "replace") if member in names else None
            for member in members
        }


def wheel_names(url: str) -> list[str]:
    """The file names inside a remote wheel (its central directory only)."""
    with zipfile.ZipFile(io.BufferedReader(_RangeFile(url), buffer_size=1 << 16)) as archive:
        return sorted(archive.namelist())


def parallel(function: Callable[[Any], Any], items: list[Any], workers: int = 8) -> list[Any]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(function, items))


def first_match(pattern: str, text: str | None) -> str | None:
    if text is None:
        return None
    match = re.search(pattern, text)
    return match.group(1) if match else None
