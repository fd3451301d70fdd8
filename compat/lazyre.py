"""Regular expressions compiled on first use, not at import.

`compat doctor` runs before every training job, and a module-level `re.compile` costs its parse
and compile on every start-up whether or not the run ever reads the text it is for (a WHEEL tag,
a `--hardware` profile, nvcc's output). `Lazy` has the same matching methods as a compiled
pattern and compiles once, when one of them is first called. Patterns used on every run, or in
a hot loop of a command that is not doctor (explain's log scan), stay plain `re.compile`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator


class Lazy:
    __slots__ = ("_compiled", "_flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def __repr__(self) -> str:
        return f"Lazy({self.pattern!r})"
