"""Same-answer sweep for pin: `compat pin -r FILE --offline` over every real requirement file
and pyproject under tests/data/real (and X-R1's), on five machines (--no-probe, the MI300X and
Strix Halo example profiles, tests/profiles.py's A100/R535 and H100/R580), with and without
--no-verify. Each output is written to OUT/MACHINE/MODE/FILE.txt with its exit code, so that two
trees can be compared with `diff -r`: run it once with the old tree first on PYTHONPATH, once
with the new one.

    PYTHONPATH=/tmp/old python scripts/pin_sweep.py /tmp/sweep-old
    python scripts/pin_sweep.py /tmp/sweep-new && diff -r /tmp/sweep-old /tmp/sweep-new
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from typer.testing import CliRunner

from compat.cli import app

REPO = Path(__file__).resolve().parent.parent
REAL = REPO / "tests" / "data" / "real"
FILES = [
    *sorted(
        path
        for path in REAL.rglob("*")
        if path.is_file()
        and (
            (path.suffix == ".txt" and "requirements" in path.name.lower())
            or path.name.endswith("pyproject.toml")
        )
    ),
    REPO / "tests" / "data" / "requirements" / "xr1-requirements.txt",
]
NVIDIA = {
    # tests/profiles.py's R535 and R580, copied: this script runs against older trees too
    "a100-r535": {
        "schema": "compat.hardware/1",
        "driver_version": "535.104.05",
        "cuda_driver_version": "12.2",
        "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
    },
    "h100-r580": {
        "schema": "compat.hardware/1",
        "driver_version": "580.65.06",
        "cuda_driver_version": "13.0",
        "gpus": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}] * 8,
    },
}
AMD = {
    "mi300x": REPO / "docs" / "examples" / "hardware" / "amd-mi300x-8.json",
    "strix-halo": REPO / "docs" / "examples" / "hardware" / "amd-strix-halo.json",
}


MACHINES = ("no-probe", *AMD, *NVIDIA)


def machines(directory: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"no-probe": ["--no-probe"]}
    for name, path in AMD.items():
        found[name] = ["--hardware", str(path)]
    for name, profile in NVIDIA.items():
        written = directory / f"{name}.json"
        written.write_text(json.dumps(profile), encoding="utf-8")
        found[name] = ["--hardware", str(written)]
    return found


def main(out: Path, only: list[str]) -> None:
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as scratch:
        env = {"COMPAT_CACHE_DIR": str(Path(scratch) / "cache")}
        for machine, args in machines(Path(scratch)).items():
            if only and machine not in only:
                continue
            for mode, extra in (("verify", []), ("no-verify", ["--no-verify"])):
                for file in FILES:
                    argv = ["pin", "-r", str(file), "--offline", *args, *extra]
                    result = runner.invoke(app, argv, env=env, catch_exceptions=False)
                    # the profile's path differs between runs and trees: the header names it
                    text = result.stdout.replace(scratch, "SCRATCH").replace(str(REPO), "REPO")
                    target = out / machine / mode / f"{file.relative_to(REPO)}.txt"
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(f"{text}# exit {result.exit_code}\n", encoding="utf-8")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 1)[1],
    )
    parser.add_argument("out", type=Path, metavar="OUT", help="the folder the outputs go to")
    parser.add_argument(
        "machines", nargs="*", metavar="MACHINE", help=f"only these ({', '.join(MACHINES)})"
    )
    args = parser.parse_args()
    main(args.out, args.machines)
