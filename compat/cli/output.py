"""Writing output: stdout, or a file written atomically (temp file + rename over the target).

`-o` writes regular files only: a symlink (which could point anywhere the user can write), a
FIFO, a socket or a device is refused rather than replaced, as is a directory or an empty name.
Any failure (disk full, EXDEV, a vanished directory) leaves the target as it was and is exit 2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from compat.errors import UsageError
from compat.model import Origin


def check_target(path: Path, what: str = "-o") -> os.stat_result | None:
    """Refuse what -o (or `what`) must not write to; the existing file's stat, or None when it
    is new."""
    if not str(path):
        raise UsageError(f"{what}: empty file name")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise UsageError(
            f"{what}: cannot write: {error.strerror or error}", origin=Origin(str(path))
        ) from None
    if stat.S_ISLNK(info.st_mode):
        raise UsageError(
            f"{what}: is a symbolic link; give the file it points to", origin=Origin(str(path))
        )
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{what}: is a directory, not a file", origin=Origin(str(path)))
    if not stat.S_ISREG(info.st_mode):
        raise UsageError(
            f"{what}: not a regular file (a FIFO, socket or device is never replaced)",
            origin=Origin(str(path)),
        )
    return info


def write_atomically(path: Path, text: str, what: str = "-o") -> None:
    """Write `text` to `path` so that a failed run never truncates an existing file."""
    existing = check_target(path, what)
    directory = path.parent if str(path.parent) else Path()
    if not directory.is_dir():
        raise UsageError(f"{what}: directory does not exist", origin=Origin(str(path)))
    data = _encode(text, str(path))  # before anything touches the disk
    try:
        import tempfile  # only a written file needs it: not doctor's start-up

        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise UsageError(
            f"{what}: cannot write: {error.strerror or error}", origin=Origin(str(path))
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if existing is not None:  # keep the user's permissions on the file we replace
            with contextlib.suppress(OSError):
                os.chmod(tmp, existing.st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        # The target may have been swapped for a symlink or FIFO since the check: look again
        # right before the rename (a narrower window; rename itself never follows a link).
        check_target(path, what)
        os.replace(tmp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        reason = error.strerror or str(error)
        if error.errno == errno.EXDEV:
            reason = "the temporary file and the target are on different file systems"
        raise UsageError(f"{what}: cannot write: {reason}", origin=Origin(str(path))) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Every control character other than newline and tab (ESC included, whatever follows it): what a
# METADATA Name, a `--set` value, a config or a rule file could smuggle into a terminal (colours,
# cursor moves, title changes, OSC 8 links). Escaped where output leaves compat, in every format,
# with lone surrogates (an undecodable byte of a path given on the command line): the output is
# written with that one entry escaped rather than refused as a whole.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def safe_text(text: str) -> str:
    """Output text with terminal-active characters escaped (`\\u001b`), newlines and tabs kept,
    and compat's own colour marks (compat.formats.paint) turned into SGR sequences, only here,
    after everything else has been escaped."""
    from compat.formats.paint import PAINT_MARK

    parts = PAINT_MARK.split(text)  # [text, sgr, text, sgr, ..., text]
    for index in range(0, len(parts), 2):
        parts[index] = _UNSAFE.sub(_escaped, parts[index])
    for index in range(1, len(parts), 2):
        parts[index] = f"\x1b[{parts[index]}m"
    return "".join(parts)


def _escaped(match: re.Match[str]) -> str:
    # `\\u001b`, not `\\x1b`: the one form that is also a JSON escape, so a JSON document (its
    # writers leave C1 controls and U+2028 raw inside strings) stays valid and means the same.
    return f"\\u{ord(match.group(0)):04x}"


def _encode(text: str, where: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as error:  # a lone surrogate: an undecodable byte in a file name
        bad = text[error.start]
        line = text.count("\n", 0, error.start) + 1
        raise UsageError(
            f"cannot write output: line {line} holds an undecodable byte "
            f"(\\u{ord(bad):04x}, from a file or directory name that is not valid UTF-8)",
            origin=Origin(where),
        ) from None


def emit(text: str, output: Path | None) -> None:
    text = safe_text(text)
    if output is None or str(output) == "-":
        _encode(text, "<stdout>")  # refuse what the stream could not write, before writing any
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(output, text)


def append_text(path_text: str, text: str, what: str) -> None:
    """Append to a file someone else named (e.g. $GITHUB_STEP_SUMMARY): regular files only."""
    path = Path(path_text)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as error:
        raise UsageError(
            f"{what}: cannot write: {error.strerror or error}", origin=Origin(path_text)
        ) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise UsageError(f"{what}: is {kind}", origin=Origin(path_text))
    try:
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(text)
    except OSError as error:
        raise UsageError(
            f"{what}: cannot write: {error.strerror or error}", origin=Origin(path_text)
        ) from None


def parse_reports(
    values: Sequence[str],
    output: Path | None,
    formats: Sequence[str] | None = None,
    taken: Mapping[str, Path | None] | None = None,
) -> list[tuple[str, Path]]:
    """`--report FORMAT=FILE` values, checked before any work is done: a known format, a file
    that `-o` could write, no file named twice (nor the main output's). `formats`: the command's
    report formats (check's and doctor's, REPORT_FORMATS, by default); `taken`: the command's
    other output files by option (pin's --build-constraints-output)."""
    from compat.formats import REPORT_FORMATS

    known = REPORT_FORMATS if formats is None else tuple(formats)
    reports: list[tuple[str, Path]] = []
    seen: dict[str, str] = {}
    for option, path in {"-o": output, **(taken or {})}.items():
        if path is not None and str(path) != "-":
            seen[os.path.abspath(path)] = option
    for value in values:
        name, sep, file = value.partition("=")
        name = name.strip().lower()
        if not sep:
            raise UsageError(
                f"--report: {value!r} is not FORMAT=FILE (e.g. --report sarif=compat.sarif)"
            )
        if name not in known:
            raise UsageError(
                f"--report: unknown format {name!r} in {value!r} (choose from {', '.join(known)})"
            )
        if file == "-":
            raise UsageError(
                f"--report: {value!r}: --report writes a file; stdout is --format's (give a file)"
            )
        what = f"--report {name}"
        if not file.strip():
            raise UsageError(f"{what}: empty file name (give FORMAT=FILE)")
        path = Path(file)
        check_target(path, what)
        directory = path.parent if str(path.parent) else Path()
        if not directory.is_dir():
            raise UsageError(f"{what}: directory does not exist", origin=Origin(file))
        key = os.path.abspath(path)
        if key in seen:
            raise UsageError(
                f"{what}: the file is already written by {seen[key]}", origin=Origin(file)
            )
        seen[key] = what
        reports.append((name, path))
    return reports


def write_reports(reports: Sequence[tuple[str, Path]], render: Callable[[str], str]) -> None:
    """Write each `--report` file atomically; every one is rendered before any is written."""
    texts = [(name, path, safe_text(render(name))) for name, path in reports]
    for name, path, text in texts:
        write_atomically(path, text, f"--report {name}")
