"""explain, confirmed by the files themselves (issue 33 item 4).

A log's `FILE.so: undefined symbol: SYMBOL` names the file and the symbol. Where compat can read
them -- the environment given with `--python`/`--path`, or the very file the log names when
explain runs on the machine that crashed -- the symbol is looked up in the libraries that should
export it (the installed torch's, for torch's C++ symbols; otherwise the environment's libraries
the file needs). Exported: the crash is ruled out for these files (the log came from another
environment, or it was repaired since). Not exported: confirmed by the files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from compat.binary.elf import BinaryError, Exports, read_elf
from compat.binary.extensions import NativeFile, is_torch_symbol
from compat.facts.logfacts import LogFact

CONFIRMED = "confirmed"
RULED_OUT = "ruled-out"
UNREAD = "unread"

_MAX_LIBRARIES = 64  # libraries looked up per symbol: bounded, whatever a directory holds


@dataclass(frozen=True)
class SymbolCheck:
    line: int
    file: str  # as the log names it
    symbol: str  # mangled, as the log prints it
    verdict: str  # confirmed | ruled-out | unread
    detail: str  # what was read, in words

    def document(self) -> dict[str, object]:
        from compat.binary.demangle import demangle

        return {
            "line": self.line,
            "file": self.file,
            "symbol": self.symbol,
            "demangled": demangle(self.symbol),
            "verdict": self.verdict,
            "detail": self.detail,
        }


def check_symbols(
    facts: Iterable[LogFact], environment_files: Sequence[NativeFile] | None
) -> tuple[SymbolCheck, ...]:
    """One check per `undefined symbol` line the log holds (the first 16)."""
    checks = []
    for fact in [f for f in facts if f.kind == "undefined_symbol"][:16]:
        checks.append(_check(fact, environment_files))
    return tuple(checks)


def _check(fact: LogFact, files: Sequence[NativeFile] | None) -> SymbolCheck:
    named, symbol = fact.key, fact.value
    torch_symbol = is_torch_symbol(symbol)
    if files is not None:
        base = os.path.basename(named)
        found = [f for f in files if f.name == base]
        if not found:
            return SymbolCheck(
                fact.line, named, symbol, UNREAD, f"the given environment holds no file {base}"
            )
        target = found[0]
        if torch_symbol:
            providers = [f.path for f in files if f.package == "torch" and f.facts is not None]
            who = "the installed torch"
        else:
            needed = set(target.facts.needed) if target.facts else set()
            providers = [
                f.path
                for f in files
                if f.facts is not None and (f.name in needed or f.facts.soname in needed)
            ]
            who = "the libraries it needs that the environment provides"
        return _lookup(fact, target.path, symbol, providers, who)
    if not os.path.isfile(named):
        return SymbolCheck(
            fact.line,
            named,
            symbol,
            UNREAD,
            "the file is not on this machine: give the environment with --python or --path",
        )
    if not torch_symbol:
        try:
            beside = read_elf(named).needed
        except BinaryError as error:
            return SymbolCheck(fact.line, named, symbol, UNREAD, f"{named}: {error}")
        folder = Path(named).parent
        providers = [str(folder / n) for n in beside if (folder / n).is_file()]
        return _lookup(fact, named, symbol, providers, "the libraries beside it")
    return _lookup(fact, named, symbol, _torch_beside(Path(named)), "the torch beside it")


def _torch_beside(path: Path) -> list[str]:
    """torch's libraries in the site-packages the file lies in."""
    for parent in path.parents:
        if parent.name in ("site-packages", "dist-packages"):
            lib = parent / "torch" / "lib"
            if lib.is_dir():
                return sorted(
                    str(p) for p in list(lib.iterdir())[:_MAX_LIBRARIES] if ".so" in p.name
                )
            return []
    return []


def _lookup(
    fact: LogFact, target: str, symbol: str, providers: Sequence[str], who: str
) -> SymbolCheck:
    from compat.binary.demangle import demangle

    if not providers:
        return SymbolCheck(fact.line, fact.key, symbol, UNREAD, f"{who}: none found to read")
    unread = []
    for path in providers[:_MAX_LIBRARIES]:
        try:
            with Exports(path) as table:
                if symbol in table:  # may raise BinaryError on a corrupt hash chain
                    return SymbolCheck(
                        fact.line,
                        fact.key,
                        symbol,
                        RULED_OUT,
                        f"{path} exports {demangle(symbol)}: {target} loads here; the log came "
                        "from another environment, or it was repaired since",
                    )
        except BinaryError as error:
            unread.append(f"{path}: {error}")
    if unread:
        return SymbolCheck(
            fact.line, fact.key, symbol, UNREAD, f"{who} could not all be read: {unread[0]}"
        )
    shown = ", ".join(os.path.basename(p) for p in providers[:4])
    more = f" and {len(providers) - 4} more" if len(providers) > 4 else ""
    return SymbolCheck(
        fact.line,
        fact.key,
        symbol,
        CONFIRMED,
        f"none of {who} ({shown}{more}) exports {demangle(symbol)}: {target} was built against "
        "another build of them",
    )
