"""Reading logs of any size: decompression, bytes-level literal scanning, one line numbering.

A log is read in blocks of bytes and never held whole: memory stays constant whatever its size.
Callers register *probes*, each a literal byte string (an anchor) and how many lines from the
anchor's line they need; one pass of `bytes.find` per anchor over each block finds the candidate
lines, and only those are decoded. Lines are counted on b"\\n" alone, as `grep -n` does, and the
text handed back for a line is that same line: a carriage return, form feed or U+2028 never
starts a new one.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple, cast

from compat.errors import InputError
from compat.model import Origin

BLOCK = 4 * 2**20  # bytes read at a time
MAX_LINE = 8192  # longer lines are cut to this many bytes when handed to a probe's handler
MAX_CARRY = 16 * 2**20  # a "line" longer than this (no newline) is scanned in pieces

_GZIP = b"\x1f\x8b"
_XZ = b"\xfd7zXZ\x00"
_ZSTD = b"\x28\xb5\x2f\xfd"

# CSI (colours, cursor moves) and OSC (titles, hyperlinks) escape sequences.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# `[rank3]:` (torchrun), `[default3]:` / `[...rank=3]` prefixes; Ray's `(Actor pid=123, ip=...)`
# is stripped too but names a process, not a rank.
_RANK = re.compile(
    r"^\s*\[(?:rank|RANK|default)\s*(\d+)\]:?\s?|^\s*\[[^\]\s]*rank=?(\d+)\]\s?"
    r"|^\s*\((?:[\w.]+) pid=\d+(?:, ip=[\d.:a-f]+)?\)\s?"
)


class Probe(NamedTuple):
    anchor: bytes  # a literal that every interesting line contains
    key: object  # handed back with each hit: the caller dispatches on it
    # Lines from the hit's line that the handler needs (1: that line only); a function of the
    # hit's line when only some lines with the anchor start a block (a table header, say).
    lines: int | Callable[[bytes], int] = 1
    before: int = 0  # bytes before the hit's line wanted when more than one line is (a traceback)
    # Short anchors cost as much per pass as long ones find in ten: those that only matter
    # where a run starts (pip freeze, env reports) are scanned in the first STARTUP bytes and
    # again after every start-up marker (a probe with `reopens`), not through GBs of steps.
    startup: bool = False
    reopens: bool = False
    # Cheaper still: probes that only matter in the first HEAD bytes of a run (free-form
    # `torch: 2.3.0` lines, one anchor per known name) run there and after every start-up marker.
    head: bool = False
    # A signature with no literal to anchor on: its own (bytes) regex finds the lines instead.
    regex: re.Pattern[bytes] | None = None


STARTUP = 64 * 2**20
HEAD = 4 * 2**20


@dataclass
class Hit:
    key: object
    line: int  # 1-based, counted on b"\n"
    lines: list[bytes] = field(default_factory=list)  # raw lines, without their b"\n"
    need: int = 1
    before: bytes = b""  # raw bytes before the line (up to Probe.before)


@contextmanager
def open_log(path: Path) -> Iterator[IO[bytes]]:
    """The log as a binary stream: '-' is stdin; gzip, xz and zstd are recognised by content.
    Closes what it opened (never stdin)."""
    stdin = str(path) == "-"
    if stdin:
        raw: Any = sys.stdin.buffer
    else:
        # A regular file only: a FIFO would block until some writer appeared (use '-' to pipe).
        from compat.files.readers import open_regular_fd

        raw = os.fdopen(open_regular_fd(path, "cannot read log"), "rb")
    try:
        buffered: Any = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)
        try:
            head = buffered.peek(8)[:8]
        except OSError as error:
            raise InputError(
                f"cannot read log: {error.strerror}", origin=Origin(str(path))
            ) from None
        if head.startswith(_GZIP):
            import gzip

            with gzip.GzipFile(fileobj=buffered, mode="rb") as unzipped:
                yield cast(IO[bytes], unzipped)
        elif head.startswith(_XZ):
            import lzma

            with lzma.LZMAFile(buffered, mode="rb") as unxz:
                yield unxz
        elif head.startswith(_ZSTD):
            yield _zstd_reader(buffered, path)
        else:
            yield buffered
    finally:
        if not stdin:
            raw.close()


def _zstd_reader(raw: IO[bytes], path: Path) -> IO[bytes]:
    try:  # Python 3.14+
        from compression import zstd  # type: ignore[import-not-found, unused-ignore]

        return zstd.ZstdFile(raw, mode="rb")  # type: ignore[no-any-return, unused-ignore]
    except ImportError:
        pass
    try:
        import zstandard  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise InputError(
            "cannot read log: it is zstd-compressed; zstd needs Python 3.14+ or "
            "`pip install zstandard` (or decompress it: zstd -dc LOG | compat explain -)",
            origin=Origin(str(path)),
        ) from None
    return zstandard.ZstdDecompressor().stream_reader(raw)  # type: ignore[no-any-return, unused-ignore]


def read_blocks(stream: IO[bytes], path: Path, size: int = BLOCK) -> Iterator[bytes]:
    """Blocks of the decompressed log; read errors (a truncated gzip, ...) as InputError."""
    import lzma
    import zlib

    while True:
        try:
            block = stream.read(size)
        except (OSError, EOFError, lzma.LZMAError, zlib.error) as error:
            reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
            raise InputError(f"cannot read log: {reason}", origin=Origin(str(path))) from None
        if not block:
            return
        yield block


@dataclass
class ScanStats:
    lines: int = 0
    bytes: int = 0


@dataclass
class _State:
    probes: Sequence[Probe]
    on_hit: Callable[[Hit], object]
    pending: list[Hit] = field(default_factory=list)  # hits still collecting following lines
    startup_until: int = STARTUP  # offset up to which the start-up probes run
    head_until: int = HEAD  # offset up to which the head probes run
    offset: int = 0  # offset of the current chunk in the log
    previous: bytes = b""  # the chunk before the current one, for look-back


def scan(
    blocks: Iterator[bytes], probes: Sequence[Probe], on_hit: Callable[[Hit], object]
) -> ScanStats:
    """Call `on_hit` for every line holding a probe's anchor, in line order within a block."""
    stats = ScanStats()
    state = _State(probes, on_hit)
    carry = b""
    line_base = 0
    for block in blocks:
        stats.bytes += len(block)
        data = carry + block if carry else block
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) <= MAX_CARRY:
            carry = data
            continue
        if cut == 0:  # one enormous line: scan it in pieces, keeping a tail for split anchors
            keep = max(len(p.anchor) for p in probes)
            chunk, carry = data[:-keep], data[-keep:]
        else:
            chunk, carry = data[:cut], data[cut:]
        line_base = _chunk(state, chunk, line_base)
    if carry:
        line_base = _chunk(state, carry + b"\n", line_base)
    for hit in state.pending:
        on_hit(hit)
    stats.lines = line_base
    return stats


def _chunk(state: _State, chunk: bytes, line_base: int) -> int:
    state.pending = _feed(state.pending, chunk, state.on_hit)
    startup = state.offset < state.startup_until
    head = state.offset < state.head_until
    probes = [p for p in state.probes if (startup or not p.startup) and (head or not p.head)]
    reopened = _scan_chunk(state, chunk, 0, line_base, probes)
    if reopened is not None and not (startup and head):
        # A run starts again in this chunk: its start-up lines follow the marker.
        start = chunk.rfind(b"\n", 0, reopened) + 1
        late = [p for p in state.probes if p not in probes]
        _scan_chunk(state, chunk, start, line_base + chunk.count(b"\n", 0, start), late)
    state.previous = chunk
    state.offset += len(chunk)
    return line_base + chunk.count(b"\n")


def _feed(pending: list[Hit], chunk: bytes, on_hit: Callable[[Hit], object]) -> list[Hit]:
    """Give waiting hits the lines at the start of `chunk`; dispatch those now complete."""
    still = []
    for hit in pending:
        start = 0
        while len(hit.lines) < hit.need and start < len(chunk):
            end = chunk.find(b"\n", start)
            end = len(chunk) if end == -1 else end
            hit.lines.append(chunk[start : min(end, start + MAX_LINE)])
            start = end + 1
        if len(hit.lines) >= hit.need:
            on_hit(hit)
        else:
            still.append(hit)
    return still


def _scan_chunk(
    state: _State, chunk: bytes, begin: int, line_base: int, probes: Sequence[Probe]
) -> int | None:
    """Dispatch the hits of `probes` in chunk[begin:] (line_base: lines before `begin`).
    Returns the offset of the last start-up marker hit, if any."""
    found: list[tuple[int, int]] = []  # (line start offset, probe index)
    for index, probe in enumerate(probes):
        if probe.regex is not None:
            found.extend((s, index) for s in _regex_lines(probe.regex, chunk, begin))
            continue
        anchor = probe.anchor
        pos = chunk.find(anchor, begin)
        while pos != -1:
            start = chunk.rfind(b"\n", 0, pos) + 1
            found.append((start, index))
            end = chunk.find(b"\n", pos)
            if end == -1:
                break
            pos = chunk.find(anchor, end + 1)
    reopened = None
    found.sort()
    counted_to, line = begin, line_base
    for start, index in found:
        line += chunk.count(b"\n", counted_to, start)
        counted_to = start
        probe = probes[index]
        if probe.reopens:
            reopened = start
            state.startup_until = max(state.startup_until, state.offset + start + STARTUP)
            state.head_until = max(state.head_until, state.offset + start + HEAD)
        end = chunk.find(b"\n", start)
        first = chunk[start : end if end != -1 else len(chunk)]
        need = probe.lines(first) if callable(probe.lines) else probe.lines
        before = b""
        if probe.before and need > 1:
            before = chunk[max(0, start - probe.before) : start]
            if start < probe.before and state.previous:
                before = state.previous[-(probe.before - start) :] + before
        hit = Hit(probe.key, line + 1, [], need, before)
        pos = start
        while len(hit.lines) < hit.need and pos < len(chunk):
            end = chunk.find(b"\n", pos)
            if end == -1:
                break
            hit.lines.append(chunk[pos : min(end, pos + MAX_LINE)])
            pos = end + 1
        if len(hit.lines) >= hit.need:
            state.on_hit(hit)
        else:
            state.pending.append(hit)
    return reopened


def _regex_lines(regex: re.Pattern[bytes], chunk: bytes, begin: int) -> Iterator[int]:
    """Starts of the lines where `regex` matches (one per line)."""
    pos = begin
    while True:
        found = regex.search(chunk, pos)
        if found is None:
            return
        start = chunk.rfind(b"\n", 0, found.start()) + 1
        yield start
        end = chunk.find(b"\n", found.start())
        if end == -1:
            return
        pos = end + 1


def clean(raw: bytes) -> str:
    """A raw line as text: invalid UTF-8 replaced, escape sequences gone, trailing CR dropped."""
    text = raw.decode("utf-8", errors="replace")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    return text.rstrip("\r\n")


def segments(text: str) -> list[str]:
    """The parts of a cleaned line that a terminal shows separately: a carriage return (progress
    bars) overwrites what came before it on the same line."""
    return [part for part in text.split("\r") if part.strip()] or [text]


def strip_rank(text: str) -> tuple[str, int | None]:
    """`[rank3]: RuntimeError: ...` -> ("RuntimeError: ...", 3); chained prefixes
    (`[default3]:[rank3]:`) are all removed, the last rank named wins."""
    rank = None
    for _ in range(3):
        found = _RANK.match(text)
        if not found:
            break
        number = found.group(1) or found.group(2)
        rank = int(number) if number else rank
        text = text[found.end() :]
    return text, rank


# ---------------------------------------------------------------------------------------------
# Line prefixes a collector adds to every line (issue 40): journald/syslog, docker compose,
# logging timestamps and levels, vLLM's and glog's headers. A message's facts are read as if the
# prefix were absent; line numbers stay the real ones (a prefix never spans a newline).

_STAMP = (
    rb"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?"
    rb"|[A-Z][a-z]{2} [ \d]?\d \d{2}:\d{2}:\d{2}(?:\.\d{1,9})?"  # syslog: Nov 12 10:00:01
)
_LEVEL = rb"(?:DEBUG|INFO|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL|TRACE)"
# Each alternative is one whole prefix; the group after it keeps the message's own indentation
# (one separator space is the prefix's, the rest is the message's).
_COLOUR = rb"(?:\x1b\[[0-9;]*m)*"  # docker compose colours the service's name
_PREFIX = re.compile(
    rb"^" + _COLOUR + rb"(?:"
    # journald/syslog: `Nov 12 10:00:01 host python3[1234]: ` (the host optional, ISO stamps too)
    rb"(?:" + _STAMP + rb") (?:[\w.-]{1,64} )?[\w./@-]{1,64}\[\d{1,10}\]: ?"
    # a logging timestamp, then optionally the logger's name and a level: `... - INFO - `,
    # `[...Z] `, `2024-05-01 12:00:00 INFO: `
    rb"|(?:" + _STAMP + rb")(?: ?-? ?(?:[\w.]{1,80} - )?" + _LEVEL + rb")?(?: ?[-:|] ?| )"
    # vLLM's `INFO 05-01 12:00:00 [file.py:12] ` (older: `file.py:12] `), glog's
    # `I0501 12:00:00.123 1234 file.cc:3] `
    rb"|" + _LEVEL + rb" \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)? \[?[\w./-]{1,120}:\d{1,7}\] ?"
    rb"|[IWEF]\d{4} \d{2}:\d{2}:\d{2}\.\d{1,9} {1,8}\d{1,10} [\w./-]{1,120}:\d{1,7}\] ?"
    # docker compose: `trainer-1  | ` (service names padded to one width)
    rb"|[\w.-]{1,64} {1,40}" + _COLOUR + rb"\|" + _COLOUR + rb" ?"
    rb")",
    re.M,
)
PREFIX_SAMPLE = 4000  # lines of the log's start on which a repeating prefix is looked for


def line_prefix(sample: bytes) -> re.Pattern[bytes] | None:
    """The prefix pattern when most non-empty lines of `sample` carry one (None otherwise): a
    prefix on a few lines (a quoted log line, one timestamped warning) is the message's text."""
    lines = [line for line in sample.split(b"\n", PREFIX_SAMPLE)[:PREFIX_SAMPLE] if line.strip()]
    if len(lines) < 2:
        return None
    carried = sum(1 for line in lines if _PREFIX.match(line))
    return _PREFIX if carried * 2 > len(lines) else None


# The loader's "FILE.so: undefined symbol: _ZN..." wrapped by a terminal or a paste: the symbol
# on the next line (after "symbol:"), or its tail there (a line of one mangled-name token, with
# the quote and parenthesis of a repr'd ImportError after it); a word alone ("Killed") is not.
_LOADER = b"undefined symbol:"
_RANK_BYTES = rb"(?:\[(?:rank|RANK|default)\s*\d+\]:?\s?)?"
_WRAPPED = re.compile(
    rb"(undefined symbol:)[ \t]*\r?\n" + _RANK_BYTES + rb"[ \t]*(_Z[\w$.@]{1,2000})[ \t]*\r?(?=\n)"
    rb"|(undefined symbol: {0,4}_Z[\w$.@]{1,2000})\r?\n"
    + _RANK_BYTES
    + rb"(?![A-Z][a-z]+\r?\n)([\w$.@]{1,2000}['\")\],]{0,4})[ \t]*\r?(?=\n)"
)


def _rejoin(found: re.Match[bytes]) -> bytes:
    """The message on its first line whole, the continuation line left empty (numbers kept)."""
    if found.group(1) is not None:
        return found.group(1) + b" " + found.group(2) + b"\n"
    return found.group(3) + found.group(4) + b"\n"


def whole_lines(blocks: Iterator[bytes], prefix: re.Pattern[bytes] | None) -> Iterator[bytes]:
    """The blocks cut at line ends, each line's `prefix` removed and a wrapped loader message
    rejoined on its first line (the line after it left empty): every line keeps its number.
    A block ends at its last newline (a loader line at its end waits for its continuation)."""
    carry = b""
    for block in blocks:
        data = carry + block if carry else block
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) <= MAX_CARRY:
            carry = data
            continue
        if cut and len(data) <= MAX_CARRY:
            last = data.rfind(b"\n", 0, cut - 1) + 1
            if _LOADER in data[last:cut]:
                cut = last  # its continuation may be in the next block
        whole, carry = (data, b"") if cut == 0 else (data[:cut], data[cut:])
        yield _normalised(whole, prefix)
    if carry:
        yield _normalised(carry, prefix)


def _normalised(data: bytes, prefix: re.Pattern[bytes] | None) -> bytes:
    if prefix is not None:
        data = prefix.sub(b"", data)
    if _LOADER in data:
        data = _WRAPPED.sub(_rejoin, data)
    return data
