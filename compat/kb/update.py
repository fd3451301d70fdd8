"""`compat matrix update`: fetch the knowledge-base index and bundle over httpx, verify, install.

The index URL comes from `--matrix-url`/`--url`, else $COMPAT_MATRIX_URL (the CLI's variable for
that option); there is no default (no index is published for everyone: a default pointing nowhere
only failed), and without one the command says how to set one. A bundle older than the knowledge
base in force (an older version of a bundle, or an earlier date than the bundle or shipped rules
in force) is refused unless `allow_downgrade` (issue 42 item 14). Every failure is one
`CompatError` line and leaves the knowledge base in force untouched: `UpdateUnreachable` (exit 3) when nothing usable could be downloaded,
`BundleError` (exit 2) when what was downloaded must not be used. docs/bundles.md has the trust
model: the index is fetched over HTTPS and pins the bundle's sha256.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, NamedTuple
from urllib.parse import urljoin, urlsplit

from compat import __version__
from compat.errors import EXIT_UNCHECKED, CompatError, UsageError
from compat.kb.bundle import INDEX_SCHEMA, BundleError, install, installed_pointer
from compat.kb.bundlestate import active_bundle

MAX_INDEX_BYTES = 1 << 20
MAX_BUNDLE_BYTES = 32 << 20
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class UpdateUnreachable(CompatError):
    """The index or the bundle could not be downloaded (offline, HTTP error, timeout)."""

    exit_code = EXIT_UNCHECKED


class UpdateResult(NamedTuple):
    version: str
    sha256: str
    rules: int
    source: str
    changed: bool  # False: the bundle in force was already this one


def index_url(flag: str | None) -> str:
    """`--matrix-url`/`--url`, which the CLI also fills from $COMPAT_MATRIX_URL."""
    if not flag:
        raise UsageError(
            "no knowledge-base index is configured: give --url URL or set COMPAT_MATRIX_URL to "
            "a compat.kb-index/1 document (scripts/build_bundle.py writes one; docs/bundles.md)"
        )
    return flag


def in_force() -> tuple[str, str, str]:
    """The knowledge base in force: (what it is, its version, its date): a bundle's own, or the
    shipped rules' (compat's version; the newest day their PyPI inputs were read)."""
    current = active_bundle()
    if current is not None:
        return f"bundle {current.version}", current.version, current.date
    from compat.kb.freshness import INPUTS_FILE

    try:
        day = str(json.loads(INPUTS_FILE.read_text("utf-8"))["fetched"]["newest"])
    except (OSError, ValueError, KeyError, TypeError):
        day = ""
    return f"the rules shipped with compat {__version__}", __version__, day


def older(index: dict[str, Any]) -> str | None:
    """Why the index's bundle is older than the knowledge base in force, or None: an earlier
    date than its date, or (bundle against bundle) a lower version."""
    from packaging.version import InvalidVersion

    from compat.versions import parse_version

    what, version, day = in_force()
    new_day = str(index.get("date") or "")
    if day and new_day and new_day < day:
        return f"bundle {index['version']} is dated {new_day}, {what} {day}"
    if active_bundle() is not None:
        try:
            lower = parse_version(index["version"]) < parse_version(version)
        except InvalidVersion:
            lower = False  # versions that do not compare: the dates decide
        if lower:
            return f"bundle {index['version']} is older than {what}"
    return None


def update(
    url: str,
    *,
    timeout: float = 20.0,
    progress: Callable[[str], None] | None = None,
    allow_downgrade: bool = False,
) -> UpdateResult:
    """Fetch the index at `url`, then its bundle when it is not the one in force; verify and
    install it, never one older than the knowledge base in force unless `allow_downgrade`.
    `progress`, when given, is told each step (the CLI shows it on a terminal)."""
    say = progress or (lambda message: None)
    _check_scheme(url)
    import httpx

    headers = {"User-Agent": f"compat/{__version__}"}
    # Every request, redirects included, must be https (or loopback): no downgrade mid-way.
    hooks = {"request": [lambda request: _check_scheme(str(request.url))]}
    with httpx.Client(
        timeout=httpx.Timeout(timeout), follow_redirects=True, headers=headers, event_hooks=hooks
    ) as http:
        # The limit is the network's: it starts once the client exists (making one loads the CA
        # bundle, which took most of a 1 s limit on a loaded machine before a byte was asked for).
        deadline = time.monotonic() + timeout
        say(f"matrix update: fetching the index {url}")
        index = parse_index(_download(http, url, MAX_INDEX_BYTES, deadline, timeout), url)
        current = active_bundle()  # in force, not merely installed: a stale one is replaced
        if current is not None and current.sha256 == index["sha256"]:
            rules = (installed_pointer() or {}).get("rules", 0)
            return UpdateResult(index["version"], index["sha256"], int(rules), url, False)
        backwards = None if allow_downgrade else older(index)
        if backwards is not None:
            raise BundleError(
                f"{backwards}: refusing to go back (--allow-downgrade installs it anyway)"
            )
        bundle_url = urljoin(url, index["url"])  # relative to the index, not to a redirect
        _check_scheme(bundle_url)
        limit = min(MAX_BUNDLE_BYTES, index["size"])
        say(f"matrix update: fetching bundle {index['version']} ({index['size']:,} bytes)")
        bundle = _download(http, bundle_url, limit, deadline, timeout)
    if len(bundle) != index["size"]:
        raise BundleError(
            f"bundle {index['version']}: {len(bundle)} bytes received, the index says "
            f"{index['size']} (truncated download)"
        )
    say(f"matrix update: verifying and installing bundle {index['version']}")
    manifest, rules = install(bundle, index, bundle_url)
    return UpdateResult(manifest.version, index["sha256"], rules, bundle_url, True)


def parse_index(data: bytes, url: str) -> dict[str, Any]:
    try:
        doc = json.loads(data)
    except ValueError:
        raise BundleError(f"{url}: the index is not JSON") from None
    if not isinstance(doc, dict) or doc.get("schema") != INDEX_SCHEMA:
        raise BundleError(f"{url}: not a knowledge-base index (schema {INDEX_SCHEMA!r})")
    problems = [
        key
        for key, kind in (("version", str), ("url", str), ("sha256", str), ("size", int))
        if not isinstance(doc.get(key), kind)
    ]
    if problems:
        raise BundleError(f"{url}: the index lacks {', '.join(problems)}")
    doc["sha256"] = doc["sha256"].lower()
    if len(doc["sha256"]) != 64 or doc["size"] <= 0:
        raise BundleError(f"{url}: the index has an invalid sha256 or size")
    if doc["size"] > MAX_BUNDLE_BYTES:
        raise BundleError(f"{url}: bundle of {doc['size']} bytes is over the limit")
    min_compat = doc.get("min_compat")
    if isinstance(min_compat, str):
        from packaging.version import InvalidVersion, Version

        from compat.versions import parse_version

        try:
            too_new = parse_version(min_compat) > Version(__version__)
        except InvalidVersion:
            raise BundleError(f"{url}: invalid min_compat {min_compat!r}") from None
        if too_new:
            raise BundleError(
                f"bundle {doc['version']} needs compat {min_compat} or newer (this is "
                f"{__version__}): upgrade compat"
            )
    return doc


def _download(http: Any, url: str, limit: int, deadline: float, timeout: float) -> bytes:
    """GET `url` whole, at most `limit` bytes, within the overall deadline."""
    import httpx

    try:
        with http.stream("GET", url) as response:
            if response.status_code != 200:
                raise UpdateUnreachable(f"{url}: HTTP {response.status_code}")
            chunks = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise BundleError(f"{url}: more than the {limit} bytes expected")
                if time.monotonic() > deadline:
                    raise UpdateUnreachable(f"{url}: not downloaded within {timeout:g}s")
                chunks.append(chunk)
            return b"".join(chunks)
    except httpx.TimeoutException:
        raise UpdateUnreachable(f"{url}: no answer within {timeout:g}s") from None
    except httpx.RemoteProtocolError as error:
        raise UpdateUnreachable(f"{url}: incomplete download ({_first_line(error)})") from None
    except httpx.HTTPError as error:
        raise UpdateUnreachable(f"{url}: {_first_line(error)}") from None


def _check_scheme(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOOPBACK):
        return
    raise UsageError(
        f"{url}: the knowledge base is fetched over https only (http only from 127.0.0.1)"
    )


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else error.__class__.__name__
