"""`compat check --diff`: what `--fix` would write, as a unified diff (`git apply` and `patch -p1`
read it). Lines keep their own endings, so a CRLF file's diff shows CRLF lines."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

_NO_NEWLINE = "\\ No newline at end of file\n"


def render_diff(files: Sequence[Any]) -> str:
    """Each rewritten file (`path`, `old`, `new`) as one unified diff, paths as the files were
    named (forward slashes)."""
    out: list[str] = []
    for file in files:
        name = str(file.path).replace("\\", "/").lstrip("/")
        old, new = file.old.splitlines(keepends=True), file.new.splitlines(keepends=True)
        for line in difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"):
            if line.startswith(("---", "+++", "@@")):
                out.append(line if line.endswith("\n") else line + "\n")
            elif line.endswith(("\n", "\r")):
                out.append(line)
            else:  # the file's last line has no line ending: say so, as diff does
                out.append(line + "\n" + _NO_NEWLINE)
    return "".join(out)
