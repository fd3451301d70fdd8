"""Writing output: stdout, or a file written atomically (temp file + rename over the target)."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from compat.errors import UsageError
from compat.model import Origin


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that a failed run never truncates an existing file."""
    directory = path.parent if str(path.parent) else Path()
    if not directory.is_dir():
        raise UsageError("-o: directory does not exist", origin=Origin(str(path)))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise UsageError(f"-o: cannot write: {error.strerror}", origin=Origin(str(path))) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():  # keep the user's permissions on the file we replace
            with contextlib.suppress(OSError):
                os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        Path(tmp).replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            Path(tmp).unlink()
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def emit(text: str, output: Path | None) -> None:
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(output, text)
