"""Colour for text output, as marks: what a formatter paints becomes an SGR sequence only where
output leaves compat (cli/output.safe_text), after every control character of the text has been
escaped, ESC included. The marks carry a per-process random token, so no input can forge them."""

from __future__ import annotations

import os
import re

_TOKEN = os.urandom(8).hex()
PAINT_MARK = re.compile(f"\x00{_TOKEN}:([0-9;]{{1,16}})\x00")


def paint(text: str, sgr: str) -> str:
    """`text` in colour `sgr` (an SGR parameter such as "31"), as the output will write it."""
    return f"\x00{_TOKEN}:{sgr}\x00{text}\x00{_TOKEN}:0\x00"
