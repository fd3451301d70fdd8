"""Knowledge-base bundles (compat.kb-bundle/1): build, verify, install, and find the one in force.

A bundle is a gzip'd tar of `bundle.json` (its manifest) and `matrix/*.yaml` rule files; an index
(compat.kb-index/1) names the current bundle with its sha256. docs/bundles.md is the format and
the trust model. Installing unpacks a verified, linted bundle into the user cache and points
`kb-bundles/current.json` at it, both atomically: a failed update leaves what was in force.

Start-ups only read which bundle is in force (compat/kb/bundlestate.py); this module is for
`compat matrix update` and `matrix lint BUNDLE`, and loads tarfile, gzip and the linter lazily.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from compat import __version__
from compat.errors import CompatError
from compat.kb.bundlestate import bundles_dir, compatible

if TYPE_CHECKING:
    from compat.kb.lint import LintResult

BUNDLE_SCHEMA = "compat.kb-bundle/1"
INDEX_SCHEMA = "compat.kb-index/1"
MAX_MEMBERS = 500
MAX_MEMBER_BYTES = 4 << 20
_MEMBER = re.compile(r"^matrix/[A-Za-z0-9][A-Za-z0-9._-]*\.yaml$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$")


class BundleError(CompatError):
    """A bundle or index that must not be used: bad digest, bad archive, invalid rules, too new."""


class Manifest(NamedTuple):
    version: str  # the bundle's own version, e.g. "2026.11.24"
    compat_version: str  # the compat release whose rule files the bundle extends
    min_compat: str  # the oldest compat that can read it
    files: Mapping[str, str]  # "matrix/x.yaml" -> sha256 hex
    # The day the bundle was made and the day past which its rules are stale (YYYY-MM-DD; ""
    # where the bundle does not say): `matrix update` never goes back in time, and every report
    # warns once a bundle in force has expired (issue 42 item 14).
    date: str = ""
    expires: str = ""


# ---------------------------------------------------------------------------------------------
# Reading and checking a bundle archive


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_bundle(data: bytes, where: str) -> tuple[Manifest, dict[str, bytes]]:
    """The manifest and rule files of a bundle archive, every file checked against the manifest.

    Members are read into memory, never extracted by tarfile: only regular files named
    `bundle.json` or `matrix/NAME.yaml` are accepted, so no path can escape the bundle directory.
    """
    import tarfile

    try:
        archive = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")  # noqa: SIM115 (closed below)
    except (tarfile.TarError, OSError, EOFError) as error:
        raise BundleError(f"{where}: not a bundle (gzip'd tar): {error}") from None
    files: dict[str, bytes] = {}
    manifest_bytes = None
    with archive:
        try:
            members = archive.getmembers()
        except (tarfile.TarError, OSError, EOFError) as error:
            raise BundleError(f"{where}: damaged archive: {error}") from None
        if len(members) > MAX_MEMBERS:
            raise BundleError(f"{where}: more than {MAX_MEMBERS} files")
        for member in members:
            if member.isdir() and member.name in ("matrix", "matrix/"):
                continue
            if not member.isfile() or member.size > MAX_MEMBER_BYTES:
                raise BundleError(f"{where}: unexpected member {member.name!r}")
            if member.name != "bundle.json" and not _MEMBER.match(member.name):
                raise BundleError(f"{where}: unexpected member {member.name!r}")
            handle = archive.extractfile(member)
            assert handle is not None  # a regular file
            try:
                content = handle.read()
            except (tarfile.TarError, OSError, EOFError) as error:
                raise BundleError(f"{where}: damaged archive: {error}") from None
            if member.name == "bundle.json":
                manifest_bytes = content
            else:
                files[member.name] = content
    if manifest_bytes is None:
        raise BundleError(f"{where}: no bundle.json manifest")
    manifest = parse_manifest(manifest_bytes, where)
    if set(manifest.files) != set(files):
        raise BundleError(f"{where}: the files do not match the manifest's list")
    for name, content in files.items():
        if sha256_hex(content) != manifest.files[name]:
            raise BundleError(f"{where}: {name} does not match its sha256 in the manifest")
    if not files:
        raise BundleError(f"{where}: no rule files")
    return manifest, files


def parse_manifest(data: bytes, where: str) -> Manifest:
    try:
        doc = json.loads(data)
    except ValueError as error:
        raise BundleError(f"{where}: bundle.json is not JSON ({error})") from None
    if not isinstance(doc, dict) or doc.get("schema") != BUNDLE_SCHEMA:
        raise BundleError(f"{where}: bundle.json: schema must be {BUNDLE_SCHEMA!r}")
    files = doc.get("files")
    if not isinstance(files, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and _SHA256.match(v) for k, v in files.items()
    ):
        raise BundleError(f"{where}: bundle.json: files must map names to sha256 digests")
    fields = [doc.get(key) for key in ("version", "compat_version", "min_compat")]
    if not all(isinstance(value, str) and _VERSION.match(value) for value in fields):
        raise BundleError(f"{where}: bundle.json: version, compat_version, min_compat required")
    version, compat_version, min_compat = (str(value) for value in fields)
    days = {key: doc.get(key, "") for key in ("date", "expires")}
    for key, value in days.items():
        if value and not (isinstance(value, str) and _is_day(value)):
            raise BundleError(f"{where}: bundle.json: {key} must be a date, YYYY-MM-DD")
    return Manifest(
        version, compat_version, min_compat, dict(files), str(days["date"]), str(days["expires"])
    )


def _is_day(text: str) -> bool:
    import datetime as dt

    try:
        dt.date.fromisoformat(text)
    except ValueError:
        return False
    return len(text) == 10


def lint_files(directory: Path, where: str) -> int:
    """Every rule file of an unpacked bundle through `matrix lint` (schema, examples, fixes)."""
    from compat.kb.lint import lint_base

    result = lint_base(directory)
    if result.problems:
        more = f" (and {len(result.problems) - 1} more)" if len(result.problems) > 1 else ""
        raise BundleError(f"{where}: invalid rules: {result.problems[0]}{more}")
    return result.rules


def lint(paths: Sequence[Path]) -> LintResult:
    """`compat matrix lint`: lint `paths` (default: the shipped knowledge base), with ids checked across all files.

    A knowledge-base bundle (`*.tar.gz`, docs/bundles.md) replaces the shipped rule files as the
    base, as it does when installed; other paths are checked together with it.
    """
    from compat.kb.knowledge import MATRIX_DIR
    from compat.kb.lint import READ_FROM_BACKLOG, lint_base

    bundles = [path for path in paths if path.name.endswith((".tar.gz", ".tgz"))]
    if len(bundles) > 1:
        raise CompatError("give one bundle at a time: each replaces the shipped rule files")
    extra = [path for path in paths if path not in bundles]
    if not bundles:
        # The user's files are checked together with the shipped ones, so id clashes show up too.
        return lint_base(MATRIX_DIR, extra, READ_FROM_BACKLOG)
    try:
        data = bundles[0].read_bytes()
    except OSError as error:
        raise CompatError(f"{bundles[0]}: cannot read bundle: {error.strerror}") from None
    _, members = read_bundle(data, str(bundles[0]))
    with tempfile.TemporaryDirectory(prefix="compat-bundle-") as tmp:
        unpack(members, Path(tmp))
        result = lint_base(Path(tmp) / "matrix", extra)
    # Name the files as they are in the bundle, not in the temporary directory.
    problems = tuple(p.replace(str(Path(tmp)), f"{bundles[0]}!") for p in result.problems)
    return result._replace(problems=problems)


def unpack(files: Mapping[str, bytes], directory: Path) -> None:
    (directory / "matrix").mkdir(parents=True)
    for name, content in files.items():
        (directory / name).write_bytes(content)


# ---------------------------------------------------------------------------------------------
# Building (scripts/build_bundle.py, and tests)


def build_bundle(
    matrix_dir: Path,
    version: str,
    *,
    min_compat: str,
    compat_version: str = __version__,
    date: str = "",
    expires: str = "",
) -> bytes:
    """A reproducible bundle of every *.yaml in `matrix_dir`: same inputs, same bytes."""
    import gzip
    import tarfile

    if not _VERSION.match(version):
        raise BundleError(f"bundle version {version!r}: letters, digits and .+_- only")
    files = {f"matrix/{p.name}": p.read_bytes() for p in sorted(matrix_dir.glob("*.yaml"))}
    if not files:
        raise BundleError(f"{matrix_dir}: no *.yaml rule files")
    manifest = {
        "schema": BUNDLE_SCHEMA,
        "version": version,
        "compat_version": compat_version,
        "min_compat": min_compat,
        **({"date": date} if date else {}),
        **({"expires": expires} if expires else {}),
        "files": {name: sha256_hex(content) for name, content in files.items()},
    }
    members = {"bundle.json": (json.dumps(manifest, indent=2) + "\n").encode(), **files}
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(content), 0o644, 0
            archive.addfile(info, io.BytesIO(content))
    return gzip.compress(raw.getvalue(), compresslevel=9, mtime=0)


def index_document(bundle: bytes, url: str, manifest: Manifest) -> dict[str, Any]:
    """The compat.kb-index/1 document that publishes `bundle` at `url` (relative to the index)."""
    return {
        "schema": INDEX_SCHEMA,
        "version": manifest.version,
        "compat_version": manifest.compat_version,
        "min_compat": manifest.min_compat,
        **({"date": manifest.date} if manifest.date else {}),
        **({"expires": manifest.expires} if manifest.expires else {}),
        "url": url,
        "size": len(bundle),
        "sha256": sha256_hex(bundle),
    }


# ---------------------------------------------------------------------------------------------
# Installing


def install(bundle: bytes, index: Mapping[str, Any], source: str) -> tuple[Manifest, int]:
    """Verify `bundle` against its index entry, lint it, and make it the bundle in force.

    Raises BundleError (nothing changed) when anything is off. Returns the manifest and the
    number of rules.
    """
    where = f"bundle {index['version']}"
    digest = sha256_hex(bundle)
    if digest != index["sha256"]:
        raise BundleError(
            f"{where}: sha256 {digest[:16]}… does not match the index's {index['sha256'][:16]}… "
            "(tampered or damaged download)"
        )
    manifest, files = read_bundle(bundle, where)
    if manifest.version != index["version"]:
        raise BundleError(
            f"{where}: its manifest says version {manifest.version!r}, the index {index['version']!r}"
        )
    if not compatible(manifest.compat_version, manifest.min_compat):
        raise BundleError(
            f"{where}: made for compat {manifest.min_compat} to {manifest.compat_version}, "
            f"this is {__version__}"
        )
    root = bundles_dir()
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=".staging-"))
    try:
        unpack(files, staging)
        rules = lint_files(staging / "matrix", where)
        name = f"{_safe(manifest.version)}-{digest[:12]}"
        final = root / name
        if final.exists():
            shutil.rmtree(final)
        staging.rename(final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    pointer = {
        "version": manifest.version,
        "compat_version": manifest.compat_version,
        "min_compat": manifest.min_compat,
        "sha256": digest,
        "directory": name,
        "source": source,
        "rules": rules,
        "date": manifest.date,
        "expires": manifest.expires,
    }
    _write_atomic(root / "current.json", (json.dumps(pointer, indent=2) + "\n").encode())
    for old in root.iterdir():  # earlier bundles: nothing points at them any more
        if old.is_dir() and old.name != name and not old.name.startswith(".staging-"):
            shutil.rmtree(old, ignore_errors=True)
    return manifest, rules


def remove_installed() -> bool:
    """Back to the shipped knowledge base. True when a bundle was installed."""
    root = bundles_dir()
    pointer = root / "current.json"
    existed = pointer.exists()
    pointer.unlink(missing_ok=True)
    if root.is_dir():
        for old in root.iterdir():
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
    return existed


def installed_pointer() -> dict[str, Any] | None:
    try:
        data = json.loads((bundles_dir() / "current.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _safe(version: str) -> str:
    return re.sub(r"[^0-9A-Za-z.+_-]", "_", version)


def _write_atomic(path: Path, content: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
    Path(tmp).replace(path)
