"""A node's identity apart from its state: what `compat fleet` groups by, and what it keeps per node.

A doctor report mixes two kinds of facts. *Identity* names the node: its `host` block (hostname,
IP, Slurm node name), its GPUs' NVML UUIDs and PCI bus ids, and paths that embed its name
(`/scratch/node017/venv`). Every node has its own, so identity never decides a group. Everything
else is *judged state*: packages, builds, GPU models and count, the driver, findings, usage. Two
nodes whose states are equal are one group, whatever their identities.

`split_report` is the definition: it takes identity out of a parsed report (GPU ids leave their
GPU objects; the node's names in paths become `{host}`) and digests what is left.
`skeleton` is the same cut made on a report's bytes, so that a report whose bytes reduce to an
already-seen skeleton is not parsed at all: `_ReportReader` in compat/fleet/report.py proves a
skeleton once, on the first report that has it, by parsing it with sentinels where the identity
was (see `verify_skeleton`), and after that reads only the identity spans of later reports.

Why a cut made on bytes gives the same state as the cut on the parsed document: a node name is
replaced only where it follows a `/` and ends at `/`, `.`, `-`, `_` or the end of a string, and
only names of plain characters (`A-Za-z0-9._-`) are replaced. A `/` occurs only inside JSON
strings, so every replacement lies inside a string; one that overlapped an escape sequence would
leave `\\{` or a non-hex digit in a `\\u` escape, which does not parse, so a skeleton that parses
had no such overlap. Reports with `\\u` escapes (where a `/` or a name character could hide as
`\\u002f`) are never cut on bytes: they are parsed.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HOST_TOKEN = "{host}"  # where a report's path embedded the node's own name
GPU_IDENTITY = ("uuid", "pci_bus_id")  # per GPU: the GPU's identity, never its state

# (uuid, pci_bus_id) for each GPU of the report, in its order.
GpuIds = tuple[tuple[str | None, str | None], ...]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_LETTER = re.compile(r"[A-Za-z]")
_AFTER = frozenset("/.-_")
_AFTER_BYTES = frozenset(b'/.-_"')  # the same, on bytes: `"` ends the string
_TOKEN_BYTES = HOST_TOKEN.encode()


def host_names(host: Any) -> tuple[str, ...]:
    """The names a node's paths may embed: its hostname, short hostname and Slurm node name
    (plain characters with a letter, two or more), longest first."""
    if not isinstance(host, Mapping):
        return ()
    found: set[str] = set()
    for key in ("hostname", "slurm_node"):
        value = host.get(key)
        if not isinstance(value, str):
            continue
        for name in (value, value.split(".")[0]):
            if len(name) >= 2 and _NAME.fullmatch(name) and _LETTER.search(name):
                found.add(name)
    return tuple(sorted(found, key=lambda n: (-len(n), n)))


def _replace_text(text: str, names: Sequence[str]) -> str:
    for name in names:
        if name not in text:
            continue
        parts: list[str] = []
        position = start = 0
        while True:
            at = text.find(name, position)
            if at < 0:
                break
            end = at + len(name)
            if at > 0 and text[at - 1] == "/" and (end == len(text) or text[end] in _AFTER):
                parts += [text[start:at], HOST_TOKEN]
                start = position = end
            else:
                position = at + 1
        if parts:
            text = "".join([*parts, text[start:]])
    return text


def _replace_names(value: Any, names: Sequence[str]) -> Any:
    if isinstance(value, str):
        return _replace_text(value, names)
    if isinstance(value, list):
        return [_replace_names(item, names) for item in value]
    if isinstance(value, dict):
        return {
            _replace_text(key, names): _replace_names(item, names) for key, item in value.items()
        }
    return value


@dataclass(frozen=True)
class Split:
    state: str  # digest of the judged state: equal digests, one group
    report: dict[str, Any]  # the report without identity: what the group shows
    host: Mapping[str, Any] | None
    gpus: GpuIds


def split_report(report: Mapping[str, Any]) -> Split:
    """The node's identity, and its report without it (the definition; see the module doc)."""
    host = report.get("host")
    state = {key: value for key, value in report.items() if key != "host"}
    gpus: list[tuple[str | None, str | None]] = []
    hardware = state.get("hardware")
    if isinstance(hardware, Mapping) and isinstance(hardware.get("gpus"), list):
        judged = []
        for gpu in hardware["gpus"]:
            if isinstance(gpu, Mapping):
                ids = [gpu.get(key) for key in GPU_IDENTITY]
                gpus.append(
                    (
                        ids[0] if isinstance(ids[0], str) else None,
                        ids[1] if isinstance(ids[1], str) else None,
                    )
                )
                gpu = {key: value for key, value in gpu.items() if key not in GPU_IDENTITY}
            else:
                gpus.append((None, None))
            judged.append(gpu)
        state["hardware"] = {**hardware, "gpus": judged}
    names = host_names(host)
    if names:
        state = _replace_names(state, names)
    return Split(
        digest(state),
        state,
        host if isinstance(host, Mapping) else None,
        tuple(gpus),
    )


def digest(state: Mapping[str, Any]) -> str:
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------------------------------------
# The same cut on bytes

# A report's `host` is a flat object (or null), so its bytes are `"host": {...}` with no brace
# inside: found without parsing, in any formatting. GPU ids are strings without escapes. Only
# candidates, found by bytes.find and a regex anchored there: verify_skeleton proves where each
# span stands, once per skeleton.
_HOST_KEY = b'"host"'
_HOST_VALUE = re.compile(rb"\s*:\s*(null|\{[^{}]*\})")
_GPU_KEYS = (b'"uuid"', b'"pci_bus_id"')
_GPU_VALUE = re.compile(rb'\s*:\s*(null|"[^"\\]*")')
_UNKNOWN: Any = object()


def _host_span(raw: bytes) -> re.Match[bytes] | None:
    """The likeliest top-level `host`: at doctor's indentation, else the last one."""
    found = None
    at = raw.find(_HOST_KEY)
    while at >= 0:
        match = _HOST_VALUE.match(raw, at + len(_HOST_KEY))
        if match is not None:
            if raw[max(0, at - 3) : at] == b"\n  ":
                return match
            found = match
        at = raw.find(_HOST_KEY, at + 1)
    return found


def _gpu_spans(raw: bytes) -> list[tuple[int, int]]:
    spans = []
    for key in _GPU_KEYS:
        at = raw.find(key)
        while at >= 0:
            match = _GPU_VALUE.match(raw, at + len(key))
            if match is not None:
                spans.append(match.span(1))
            at = raw.find(key, at + 1)
    return spans


def _name_spans(raw: bytes, names: Sequence[bytes], taken: list[tuple[int, int]]) -> list[int]:
    """Where _replace_text would replace the names in raw, outside the `taken` spans (sorted,
    not overlapping): a match never overlaps another (names hold no `/`), and a replaced name
    starts no new match (the token starts with `{`), so one pass per name over the original
    bytes, skipping the starts a longer name took, replaces what the passes one after another
    do. A match cannot reach into a taken span from before it (a span follows `:` and blanks,
    which no name holds), so only a span with a `/` in it can hold one."""
    check_taken = any(raw.find(b"/", start, end) >= 0 for start, end in taken)
    starts: set[int] = set()
    found: list[tuple[int, int]] = []
    for name in names:
        needle = b"/" + name
        at = raw.find(needle)
        while at >= 0:
            start, end = at + 1, at + len(needle)
            if (
                end < len(raw)
                and (raw[end] in _AFTER_BYTES or raw[end : end + 2] == b"\\/")
                and start not in starts
                and not (check_taken and _overlaps(taken, start, end))
            ):
                found.append((start, end))
            at = raw.find(needle, end)
        starts.update(start for start, _ in found)
    found.sort()
    return [start for start, _ in found] + [end for _, end in found]


def _overlaps(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    at = bisect.bisect_right(spans, (start, end))
    return (at > 0 and spans[at - 1][1] > start) or (at < len(spans) and spans[at][0] < end)


def _host_value(span: bytes) -> Any:
    """The host object from its bytes, or _UNKNOWN when it is not one (then parse it all)."""
    try:
        value = json.loads(span.decode("utf-8"), parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return _UNKNOWN
    if value is None or (
        isinstance(value, dict)
        and all(isinstance(v, str | int | float | bool | type(None)) for v in value.values())
    ):
        return value
    return _UNKNOWN


def _no_constant(name: str) -> Any:
    raise ValueError(name)


@dataclass(frozen=True)
class Skeleton:
    """A report's bytes with its identity cut out: `key` (the segments joined by NUL, a byte
    JSON text never holds raw), the spans' bytes, and the host they hold."""

    key: bytes
    segments: tuple[bytes, ...]
    values: tuple[bytes, ...]
    host: Any


def skeleton(raw: bytes) -> Skeleton | None:
    """The cut on bytes, or None where only a parse can tell (escapes, an odd host)."""
    if b"\\u" in raw or b"\x00" in raw:  # NUL joins the segments: never in JSON text
        return None
    match = _host_span(raw)
    host = _host_value(match.group(1)) if match is not None else None
    if host is _UNKNOWN:
        return None
    spans = _gpu_spans(raw)
    if match is not None:
        host_start, host_end = match.span(1)
        spans = [s for s in spans if not host_start <= s[0] < host_end]
        spans.append((host_start, host_end))
    spans.sort()
    names = host_names(host)
    edits = [(start, end, b"") for start, end in spans]  # b"": a cut
    if names:
        found = _name_spans(raw, [name.encode() for name in names], spans)
        half = len(found) // 2
        edits += [(found[i], found[half + i], _TOKEN_BYTES) for i in range(half)]
        edits.sort()
    segments: list[bytes] = []
    values: list[bytes] = []
    pieces: list[bytes] = []
    position = 0
    for start, end, token in edits:
        pieces.append(raw[position:start])
        if token:
            pieces.append(token)
        else:
            segments.append(b"".join(pieces))
            pieces = []
            values.append(raw[start:end])
        position = end
    pieces.append(raw[position:])
    segments.append(b"".join(pieces))
    return Skeleton(b"\x00".join(segments), tuple(segments), tuple(values), host)


# Where each span of a proven skeleton stands: ("host", -1) or (GPU_IDENTITY key, GPU index).
Layout = tuple[tuple[str, int], ...]


def verify_skeleton(cut: Skeleton, split: Split) -> Layout | None:
    """Whether the skeleton is the report `split` was made from, cut where its identity stands:
    parsed with a sentinel in each span, it must be split.report with the sentinels exactly at
    the top-level `host` and at GPU ids. Then its layout; else None."""
    sentinels = {f"\x00compat-fleet-{k}": k for k in range(len(cut.values))}
    marked = [cut.segments[0]]
    for k, segment in enumerate(cut.segments[1:]):
        marked += [f'"\\u0000compat-fleet-{k}"'.encode(), segment]
    try:
        document = json.loads(b"".join(marked).decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return None
    layout: list[tuple[str, int] | None] = [None] * len(cut.values)

    def place(value: Any, where: tuple[str, int]) -> bool:
        k = sentinels.get(value) if isinstance(value, str) else None
        if k is None or layout[k] is not None:
            return False
        layout[k] = where
        return True

    if "host" in document and place(document["host"], ("host", -1)):
        del document["host"]
    hardware = document.get("hardware")
    gpus = hardware.get("gpus") if isinstance(hardware, dict) else None
    for index, gpu in enumerate(gpus if isinstance(gpus, list) else []):
        if isinstance(gpu, dict):
            for key in GPU_IDENTITY:
                if key in gpu and place(gpu[key], (key, index)):
                    del gpu[key]
    if any(where is None for where in layout) or document != split.report:
        return None
    return tuple(where for where in layout if where is not None)


def identity_of(cut: Skeleton, layout: Layout, gpu_count: int) -> GpuIds:
    """The GPU ids of a report whose skeleton was proven with this layout."""
    ids: list[list[str | None]] = [[None, None] for _ in range(gpu_count)]
    for (key, index), value in zip(layout, cut.values, strict=True):
        if key != "host" and value != b"null":
            ids[index][GPU_IDENTITY.index(key)] = value[1:-1].decode("utf-8")
    return tuple((uuid, bus) for uuid, bus in ids)
