"""Speed and memory of `compat explain` (issue #12): a 1 GB synthetic training log with the error
at its very end, against `grep -nP` with the same symptom signatures (all shipped ones joined
into one alternation: GNU grep -P takes a single pattern). Targets: at least 1/3 of grep -P's
throughput, peak RSS under 150 MB.

The log is generated once into benchmarks/.work (gitignored): a start-up section (DeepSpeed
banner and config dump, a pip freeze, nvidia-smi), then training steps with carriage-return
progress bars, `[rankN]:` prefixes and ANSI colours, then a ZeRO-3 offload traceback.

`--huge` streams a log over 4 GiB through stdin instead (generated on the fly, never written)
and checks the line number and memory of the result.

Run: .venv/bin/python benchmarks/bench_explain.py [--size-mb 1024] [--runs 3] [--huge]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, WORK

COMPOSITE = ROOT / "tests" / "data" / "logs" / "composite-minicpm-deepspeed-0.14.2.log"
STEP = (
    "[rank{rank}]:[2024-06-03 10:{m:02d}:{s:02d},{ms:03d}] [INFO] [trainer.py:2241:log] "
    "{{'loss': 0.{loss:04d}, 'grad_norm': 1.{g:03d}, 'learning_rate': 1.9e-05, 'epoch': 0.{e:02d}}}\n"
)


def startup() -> bytes:
    """The lines a real run prints first: what explain reads its facts from."""
    lines = COMPOSITE.read_bytes().split(b"\n")[:12]
    freeze = [f"package-{i:03d}=={i % 7}.{i % 13}.{i % 5}".encode() for i in range(200)]
    freeze += [b"deepspeed==0.14.2", b"torch==2.3.0", b"transformers==4.40.0"]
    return b"\n".join(lines + freeze) + b"\n"


def step_block(index: int) -> bytes:
    """About 64 KiB of training output: step lines of 8 ranks and a tqdm bar redrawn with CR."""
    out = []
    for i in range(100):
        n = index * 100 + i
        rank = n % 8
        out.append(
            STEP.format(
                rank=rank,
                m=n // 60 % 60,
                s=n % 60,
                ms=n % 1000,
                loss=n % 10000,
                g=n % 1000,
                e=n % 100,
            )
        )
        if i % 10 == 0:
            bar = "\r".join(
                f" {p:3d}%|{'#' * (p // 10):10}| {p}/100 [00:{p:02d}<00:10]"
                for p in range(0, 100, 9)
            )
            out.append(f"\x1b[32m{bar}\x1b[0m\n")
        if i % 50 == 0:
            out.append(
                "UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly\n"
            )
    return "".join(out).encode()


def crash() -> bytes:
    return b"\n".join(COMPOSITE.read_bytes().split(b"\n")[12:])


def generate(path: Path, size: int) -> None:
    if path.exists() and path.stat().st_size >= size:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as out:
        written = out.write(startup())
        index = 0
        while written < size:
            written += out.write(step_block(index % 512))
            index += 1
        out.write(crash())
    tmp.replace(path)


def signatures() -> str:
    from compat.kb.knowledge import load_knowledge_base

    kb = load_knowledge_base(())
    patterns = sorted({s.match for rule in kb.rules() for s in rule.symptoms})
    return "|".join(f"(?:{p})" for p in patterns)


def measured(command: list[str]) -> tuple[float, float, bytes]:
    """Wall seconds, peak RSS (MB) and stdout of one run (the child's own rusage)."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert proc.stdout is not None
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{command[0]} failed ({proc.returncode})")
    return elapsed, usage.ru_maxrss / 1024, out


def run_pair(log: Path, runs: int) -> None:
    compat = [sys.executable, "-m", "compat", "explain", str(log), "--format", "json"]
    grep = ["grep", "-nP", signatures(), str(log)]
    times: dict[str, list[float]] = {"compat": [], "grep": []}
    rss = 0.0
    for round_ in range(runs):
        for name, command in (("grep", grep), ("compat", compat)):
            elapsed, peak, out = measured(command)
            times[name].append(elapsed)
            if name == "compat":
                rss = max(rss, peak)
                if round_ == 0:
                    match = json.loads(out)["matches"][0]
                    print(f"compat: {match['verdict']} {match['rule']} at line {match['line']}")
            elif round_ == 0:
                print(f"grep: {out.decode(errors='replace').splitlines()[-1][:100]}")
    size = log.stat().st_size / 1e6
    grep_s, compat_s = statistics.median(times["grep"]), statistics.median(times["compat"])
    print(f"log: {size:,.0f} MB, {runs} interleaved runs, medians")
    print(f"grep -nP:        {grep_s:6.2f} s  {size / grep_s:7.1f} MB/s")
    print(f"compat explain:  {compat_s:6.2f} s  {size / compat_s:7.1f} MB/s  peak RSS {rss:.0f} MB")
    print(f"compat / grep -P throughput: {grep_s / compat_s:.2f} (target >= 0.33)")


def run_huge(gib: float) -> None:
    """Stream more than 4 GiB through stdin: no size cap, lines counted past 2**32 bytes."""
    block = b"".join(step_block(i) for i in range(16))  # ~1 MiB
    count = int(gib * 2**30 / len(block)) + 1
    head, tail = startup(), crash()
    expected = (
        head.count(b"\n")
        + block.count(b"\n") * count
        + tail[: tail.index(b"RuntimeError")].count(b"\n")
        + 1
    )
    command = [sys.executable, "-m", "compat", "explain", "-", "--format", "json"]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None

    def feed() -> None:
        assert proc.stdin is not None
        proc.stdin.write(head)
        for _ in range(count):
            proc.stdin.write(block)
        proc.stdin.write(tail)
        proc.stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    writer.join()
    elapsed = time.perf_counter() - start
    document = json.loads(out)
    match = document["matches"][0]
    print(
        f"stdin: {document['bytes'] / 2**30:.2f} GiB in {elapsed:.1f} s "
        f"({document['bytes'] / 1e6 / elapsed:.0f} MB/s), peak RSS {usage.ru_maxrss / 1024:.0f} MB; "
        f"{match['verdict']} {match['rule']} at line {match['line']} (expected {expected})"
    )
    if match["line"] != expected:
        raise SystemExit("wrong line number")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--huge", type=float, default=0, help="stream this many GiB via stdin")
    args = parser.parse_args()
    if args.huge:
        run_huge(args.huge)
        return
    log = WORK / f"explain-{args.size_mb}mb.log"
    generate(log, args.size_mb * 10**6)
    run_pair(log, args.runs)


if __name__ == "__main__":
    main()
