"""The pin planner's MaxSAT instances and answers on the real files, for comparing two trees
(issue 45: a faster rule weighing must add the very same clauses).

    python benchmarks/pin_clauses.py OUT.jsonl [--root TREE] [--only SUBSTRING]
    python benchmarks/pin_clauses.py --help

Runs, each in its own process with TREE first on sys.path (default: this checkout):
`compat check --offline FILE --format sarif` for every file under tests/data/real/check, with and
without the R535 profile (SARIF's offered fixes run the planner), and `compat pin -r FILE
--offline --hardware <A100 profile> --format json` for the files tests/unit/resolve/
test_pin_releases.py pins. Per run it writes one JSON line: the sha256 of every encoding's hard
and soft clauses in build order (all of them, with their groups and weights), the sha256 of
stdout, the exit code and the run's CPU seconds (user+sys). `diff` two outputs, ignoring "cpu".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def cases(root: Path) -> list[tuple[str, list[str]]]:
    real = HERE / "tests" / "data" / "real"
    out: list[tuple[str, list[str]]] = []
    for path in sorted((real / "check").iterdir()):
        if path.name.startswith("PROVENANCE"):
            continue
        for hardware in (True, False):
            args = ["check", "--offline", str(path), "--format", "sarif"]
            if hardware:
                args += ["--hardware", "@r535"]
            out.append((f"check {path.name}{' r535' if hardware else ''}", args))
    for path in sorted(real.rglob("*")):
        if path.is_file() and (
            (path.suffix == ".txt" and "requirements" in path.name.lower())
            or path.name.endswith("pyproject.toml")
        ):
            name = str(path.relative_to(real))
            args = ["pin", "-r", str(path), "--offline", "--hardware", "@a100", "--format", "json"]
            out.append((f"pin {name}", args))
    return out


def child(args: list[str]) -> None:
    """One run, in this process: record every encoding the planner builds, then the output."""
    from compat.resolve.pin import maxsat

    built: list[str] = []
    original = maxsat._Encoding.build

    def build(self: maxsat._Encoding) -> None:
        original(self)
        text = repr((self.hard, self.soft, sorted(self.values.items())))
        built.append(hashlib.sha256(text.encode()).hexdigest()[:16])

    maxsat._Encoding.build = build  # type: ignore[method-assign]
    from typer.testing import CliRunner

    from compat.cli import load_commands
    from compat.cli.base import app

    load_commands(args)
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    stdout = hashlib.sha256(result.stdout.encode()).hexdigest()[:16]
    print(json.dumps({"exit": result.exit_code, "stdout": stdout, "encodings": built}))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:  # one run, spawned below: the rest is compat's command line
        child(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog='`diff` two outputs, ignoring "cpu".'
    )
    parser.add_argument("out", type=Path, metavar="OUT.jsonl", help="where the JSON lines go")
    parser.add_argument(
        "--root", type=Path, default=HERE, help="the tree to run (default: this checkout)"
    )
    parser.add_argument("--only", default="", help="only the cases whose label holds this")
    args = parser.parse_args()
    out, root, only = args.out, args.root, args.only
    sys.path.insert(0, str(HERE))
    from tests.lib.hardware import profile_file
    from tests.profiles import R535

    with tempfile.TemporaryDirectory() as tmp, out.open("w") as sink:
        r535 = Path(tmp) / "r535.json"
        r535.write_text(json.dumps(R535))
        a100 = profile_file(Path(tmp) / "hw")
        for label, args in cases(root):
            if only not in label:
                continue
            args = [{"@r535": str(r535), "@a100": str(a100)}.get(a, a) for a in args]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            env = {**os.environ, "PYTHONPATH": str(root)}
            proc = subprocess.run(
                [sys.executable, __file__, "--child", *args],
                capture_output=True,
                text=True,
                env=env,
                cwd=HERE,  # SARIF names files relative to the working directory
                check=False,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            lines = proc.stdout.strip().splitlines()
            record = json.loads(lines[-1]) if lines else {"error": proc.stderr[-500:]}
            record.update(case=label, cpu=round(cpu, 1))
            sink.write(json.dumps(record) + "\n")
            sink.flush()
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
