"""The one streaming pass of `compat explain`: symptom signatures behind their literal anchors
(compat.kb.signatures), the traceback frames around each match, and every fact reader's probes
(compat.facts.logfacts, logversions, machinefacts) over the same blocks (compat.facts.logread)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from compat.facts.logfacts import PROBES, FactCollector
from compat.facts.logread import (
    Hit,
    Probe,
    ScanStats,
    clean,
    line_prefix,
    open_log,
    read_blocks,
    scan,
    segments,
    strip_rank,
    whole_lines,
)
from compat.facts.logversions import VersionKey, VersionReader, record_groups, record_shapes
from compat.facts.machinefacts import MachineKey, MachineReader
from compat.facts.rocmlog import record_traceback
from compat.facts.traceback import is_source_echo
from compat.kb.signatures import Signature, choose_anchors, compile_signature, measured_cost
from compat.model import Rule, Symptom

WINDOW = 3  # lines a symptom may span (NumPy's "cannot be run in\nNumPy 2..." spans two)
FRAMES_BEFORE = 400  # a traceback's frames are printed before its error line ...
FRAMES_AFTER = 40  # ... or, with ranks interleaved, partly after it
LOOK_BACK = 64 * 1024  # bytes kept before an error line to find its traceback in
CONTEXT = 16 * 1024  # bytes before a match kept to find the packages the log names near it
MAX_MATCHES = 16  # matches kept per rule (the first ones)
SAMPLE = 2**20  # bytes of the log on which anchor costs are measured


@dataclass
class Match:
    rule: Rule
    symptom: Symptom
    line: int
    text: str
    rank: int | None
    frames: dict[tuple[str, str], int] = field(default_factory=dict)  # (file, func) -> line
    any_frame: bool = False
    # The installed package whose frames raised: the innermost `site-packages/<pkg>/` frame of
    # the traceback that belongs to this error (its line), numpy's own frames left out (they
    # carry NumPy's ABI messages, not the package built against NumPy 1)
    raised_in: tuple[str, int] | None = None
    # The line only echoes source code (a notebook's `----> 12 raise ImportError(...)`, a
    # frame's source line, pytest's `>` line): cited only where no exception line matched.
    echo: bool = False
    # The message is quoted inside a sentence (`I either get a "**HIP error: ...**" error if ...`):
    # someone citing the error, cited only where no line prints it.
    quoted: bool = False
    # The bytes around the match (the end of its traceback, its own lines): where a package the
    # rule is about would be named if the log names it near the error at all.
    context: bytes = b""
    # Packages whose release the message names by printing it (a `release_NAME` group: only the
    # releases the rule's condition on NAME names print this text; docs/knowledge-base.md).
    releases: frozenset[str] = frozenset()


# ---------------------------------------------------------------------------------------------
# Scanning


class Matcher:
    """Symptom signatures behind their anchors, and the traceback frames seen around matches."""

    def __init__(self, rules: list[Rule], sample: bytes) -> None:
        # Symptoms that could backtrack catastrophically or match an empty line never get here:
        # rule files are refused at load (compat.knowledge, compat.signatures).
        entries: list[tuple[Rule, Symptom, Signature]] = [
            (rule, symptom, compile_signature(symptom.match))
            for rule in rules
            for symptom in rule.symptoms
        ]
        # Anchors are chosen for this log: what each costs is measured on its first MiB.
        cost = measured_cost(sample[:SAMPLE]) if len(sample) >= SAMPLE // 4 else None
        anchors, bare = choose_anchors([sig.literals for _, _, sig in entries], cost)
        self.by_anchor: dict[bytes, list[tuple[Rule, Symptom, Signature]]] = {}
        for anchor in anchors:
            self.by_anchor[anchor.encode()] = [
                e for e in entries if any(anchor in lit for lit in e[2].literals)
            ]
        self.bare: dict[bytes, re.Pattern[bytes]] = {}
        for i in bare:  # no literal to anchor on: each signature's own regex finds its lines
            rule, symptom, sig = entries[i]
            key = f"regex:{rule.id}:{symptom.match}".encode()
            self.by_anchor[key] = [entries[i]]
            try:
                self.bare[key] = re.compile(symptom.match.encode(), sig.regex.flags & re.I | re.M)
            except (re.error, UnicodeEncodeError):
                self.bare[key] = re.compile(rb"^", re.M)  # every line
        self.matches: dict[str, list[Match]] = {}

    def probes(self) -> list[Probe]:
        return [
            Probe(
                anchor,
                ("sig", anchor),
                self._window(anchor),
                before=LOOK_BACK,
                regex=self.bare.get(anchor),
            )
            for anchor in self.by_anchor
        ]

    def _window(self, anchor: bytes) -> Callable[[bytes], int]:
        """Lines wanted after an anchor's line: the symptom's few when one of its regexes could
        match, and the traceback's (frames after the error) when it does; one otherwise, so
        that a line repeated a million times costs little."""
        entries = self.by_anchor[anchor]
        multiline = any("\\s" in sig.pattern or "\\n" in sig.pattern for _, _, sig in entries)

        def window(first: bytes) -> int:
            if multiline:
                return FRAMES_AFTER
            text = strip_rank(clean(first))[0]
            return FRAMES_AFTER if any(sig.regex.search(text) for _, _, sig in entries) else 1

        return window

    def symptom_hit(self, hit: Hit, collector: FactCollector) -> None:
        assert isinstance(hit.key, tuple)
        lines = [clean(raw) for raw in hit.lines[:WINDOW]]
        first, line_rank = strip_rank(lines[0])
        # Whitespace inside a message never decides a match: runs of spaces and tabs are one
        # space to the signature (signatures never span whitespace with an anchor either).
        rest = "\n".join(_spaces(strip_rank(text)[0]) for text in lines[1:])
        previous = hit.before[hit.before.rfind(b"\n", 0, len(hit.before) - 1) + 1 :]
        previous_text = strip_rank(clean(previous))[0] if previous else ""
        for rule, symptom, sig in self.by_anchor[hit.key[1]]:
            kept = self.matches.setdefault(rule.id, [])
            if len(kept) >= MAX_MATCHES or any(m.line == hit.line for m in kept):
                continue
            for segment in segments(first):
                part, rank = strip_rank(segment)  # a rank prefix after a progress bar's \r
                rank = line_rank if rank is None else rank
                spaced = _spaces(part)
                found = sig.regex.search(spaced + "\n" + rest if rest else spaced)
                if found and found.start() < len(spaced):
                    match = Match(rule, symptom, hit.line, part.strip()[:500], rank)
                    match.echo = is_source_echo(part, previous_text)
                    match.quoted = bool(_QUOTED.search(spaced[: found.start()]))
                    match.context = hit.before[-CONTEXT:] + b"\n".join(hit.lines)
                    match.releases = frozenset(
                        group.partition("_")[2].replace("_", "-")
                        for group, value in found.groupdict().items()
                        if group.startswith("release_") and value is not None
                    )
                    if sig.regex.groupindex:  # the message states facts (docs/knowledge-base.md)
                        record_groups(
                            collector, found.groupdict(), hit.line, part.strip()[:300], rule.id
                        )
                    # every fact the message states, whichever rule asks (compat.facts.shapes)
                    message = spaced + "\n" + rest if rest else spaced
                    record_shapes(collector, message[:2000], hit.line, rule.id)
                    self._frames(match, hit, collector)
                    kept.append(match)
                    break

    def _frames(self, match: Match, hit: Hit, collector: FactCollector) -> None:
        """Traceback frames printed around the error line: before it, and (ranks interleaved)
        after it."""
        before = hit.before.split(b"\n")[:-1] if hit.before else []
        if before and len(hit.before) == LOOK_BACK:
            before = before[1:]  # the first line is cut
        numbered = [(hit.line - len(before) + i, raw) for i, raw in enumerate(before)]
        numbered += [(hit.line + i, raw) for i, raw in enumerate(hit.lines)]
        match.raised_in = _raised_in(numbered, match.line)
        packages: set[str] = set()  # the `site-packages/<pkg>/` directories of its frames
        for line, raw in numbered[-FRAMES_BEFORE - FRAMES_AFTER :]:
            if b'File "' not in raw:
                continue
            text = clean(raw)
            if line > match.line and strip_rank(text)[1] is None:
                continue  # after the error only another rank's traceback belongs to it
            found = _FRAME.search(text)
            if found:
                match.any_frame = True
                file = found.group(1).replace("\\", "/").rsplit("/", 1)[-1]
                match.frames.setdefault((file, found.group(2)), line)
                collector.frame(file, text, line)
                owner = _PACKAGE_DIR.search(text)
                if owner:
                    packages.add(owner.group(1).lower())
        record_traceback(collector, match.line, match.text, packages, f"message ({match.rule.id})")


# What precedes a message a sentence quotes: a word, a space, an opening quote (and Markdown's
# emphasis). A program's own quoting follows a colon, an operator or a parenthesis instead
# (`Error: "..."`, `guarantee(false && "hipErrorNoBinaryForGpu: ...")`), or starts the line.
_QUOTED = re.compile(r"[A-Za-z]\s[\"'`\u201c]\s?(?:\*\*|__|\*|_)?\s?$")
_SPACE_RUN = re.compile(r"[ \t]{2,}|\t")


def _spaces(text: str) -> str:
    return _SPACE_RUN.sub(" ", text) if "  " in text or "\t" in text else text


_FRAME = re.compile(r'File "([^"]+)", line \d+, in (\S+)')
_PACKAGE_DIR = re.compile(
    r'File "[^"]*[\\/](?:site|dist)-packages[\\/]([A-Za-z_][\w.-]{0,80})[\\/]'
)
_TRACEBACK = b"Traceback (most recent call last)"
# import names that are not their distribution's (the rules name distributions)
_DISTRIBUTIONS = {"sklearn": "scikit-learn", "cv2": "opencv-python", "pil": "pillow"}
FOLLOWING = 12  # lines after a message within which the traceback it prints starts (NumPy's: 9)


def _raised_in(numbered: list[tuple[int, bytes]], error: int) -> tuple[str, int] | None:
    """The package whose frames raised the error on line `error`: the innermost
    `site-packages/<pkg>/` frame of its traceback. A message that prints its stack after it
    (NumPy's "compiled using NumPy 1.x" warning) owns the traceback that starts within
    FOLLOWING lines; an error line owns the traceback printed right above it."""
    after = [(line, raw) for line, raw in numbered if line > error]
    start = next(
        (
            i
            for i, (line, raw) in enumerate(after)
            if line - error <= FOLLOWING and _TRACEBACK in raw
        ),
        None,
    )
    frames: list[tuple[int, str]] = []
    if start is not None:
        for i, (line, raw) in enumerate(after[start:]):
            text = strip_rank(clean(raw))[0]
            if i and not text[:1].isspace():
                break  # the error line closes the traceback
            frames.append((line, text))
    else:
        for line, raw in reversed([(line, raw) for line, raw in numbered if line < error]):
            text = strip_rank(clean(raw))[0]
            if not text[:1].isspace():
                if _TRACEBACK in raw:
                    frames.append((line, text))  # its first frame may share the header's line
                break
            frames.append((line, text))
        frames.reverse()
    for line, text in reversed(frames):
        found = _PACKAGE_DIR.search(text)
        if found:
            name = found.group(1).lower().replace("_", "-")
            name = _DISTRIBUTIONS.get(name, name)
            if name != "numpy":
                return name, line
    return None


def scan_log(
    log: Path, rules: list[Rule], collector: FactCollector, reader: VersionReader
) -> tuple[Matcher, ScanStats]:
    """One pass over the log: symptom matches (with their frames) and every fact reader's hits."""
    machine = MachineReader(collector)
    with open_log(log) as stream:
        blocks = read_blocks(stream, log)
        first = next(blocks, b"")
        # a prefix on most lines (journald, docker compose, timestamps) is read past everywhere
        # (and a loader message a terminal wrapped over two lines is read as one)
        blocks = whole_lines(itertools.chain([first], blocks), line_prefix(first))
        first = next(blocks, b"")
        matcher = Matcher(rules, first)

        def on_hit(hit: Hit) -> None:
            if isinstance(hit.key, tuple):
                matcher.symptom_hit(hit, collector)
            elif isinstance(hit.key, VersionKey):
                reader.handle(hit)
            elif isinstance(hit.key, MachineKey):
                machine.handle(hit)
            else:
                collector.handle(hit)

        probes = [*matcher.probes(), *PROBES, *reader.probes(), *machine.probes()]
        return matcher, scan(itertools.chain([first], blocks), probes, on_hit)
