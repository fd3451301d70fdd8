"""Record every command's output on the real files in tests/data, to compare a refactor against.

    python scripts/snapshot_outputs.py OUT_DIR            # record
    diff -r before/ after/                                # compare

Each run of `compat ...` becomes one file in OUT_DIR holding the exit code, stdout and stderr:
`--help` of every command at widths 80, 100 and 200 (as real processes, so the terminal width is
the one a user sees), doctor/check/pin/explain/matrix/fleet in every format on the real files
(in-process through typer's runner, offline, with a fresh cache, so nothing but the tree under
test changes an answer). Temporary paths are replaced by placeholders.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data"
sys.path.insert(0, str(REPO))

R535 = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}
R580 = {
    "schema": "compat.hardware/1",
    "driver_version": "580.65.06",
    "cuda_driver_version": "13.0",
    "gpus": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}] * 8,
}
# A stack with known-bad combinations (and a safe one), as installed environments.
STACKS: dict[str, dict[str, str]] = {
    "old": {
        "torch": "2.5.1",
        "deepspeed": "0.14.2",
        "transformers": "4.46.0",
        "trl": "0.12.0",
        "accelerate": "1.0.1",
        "vllm": "0.6.3",
        "flash-attn": "2.6.3",
        "peft": "0.13.2",
        "numpy": "2.1.0",
        "nvidia-nccl-cu12": "2.20.5",
    },
    "new": {
        "torch": "2.7.1",
        "deepspeed": "0.17.1",
        "transformers": "4.53.0",
        "trl": "0.19.0",
        "accelerate": "1.8.1",
        "vllm": "0.9.2",
        "numpy": "1.26.4",
    },
}
DS_CONFIG = {
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
    "bf16": {"enabled": True},
}
COMMANDS = ("doctor", "probe", "explain", "check", "pin", "fleet", "matrix")
SUBCOMMANDS = (("matrix", "lint"), ("matrix", "list"), ("matrix", "show"), ("matrix", "update"))


def requirement_files() -> list[Path]:
    found = []
    for folder in ("real", "requirements", "conda", "pixi"):
        for path in sorted((DATA / folder).rglob("*")):
            if path.is_file() and not path.name.startswith("PROVENANCE"):
                found.append(path)
    return found


def record(out: Path, name: str, code: int, stdout: str, stderr: str, tmp: Path) -> None:
    text = f"exit {code}\n--- stdout\n{stdout}\n--- stderr\n{stderr}"
    text = text.replace(str(tmp), "<TMP>").replace(str(REPO), "<REPO>")
    text = re.sub(r"[0-9a-f-]{8,}\.tmp", "<TMPFILE>", text)
    safe = re.sub(r"[^A-Za-z0-9_.=+-]+", "_", name)
    (out / safe).write_text(text, encoding="utf-8")


def helps(out: Path, tmp: Path) -> None:
    invocations = [[], *([c] for c in COMMANDS), *(list(s) for s in SUBCOMMANDS)]
    for width in (80, 100, 200):
        for words in invocations:
            env = {**os.environ, "COLUMNS": str(width), "TERM": "dumb"}
            proc = subprocess.run(
                [sys.executable, "-m", "compat", *words, "--help"],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
            )
            name = "help-" + "-".join(words or ["compat"]) + f"-{width}"
            record(out, name, proc.returncode, proc.stdout, proc.stderr, tmp)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=(__doc__ or "").split("\n\n", 1)[-1],
    )
    parser.add_argument("out", type=Path, metavar="OUT_DIR", help="the folder to record into")
    out = parser.parse_args().out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="compat-snapshot-") as name:
        tmp = Path(name)
        cache = tmp / "cache"
        os.environ.update(
            {
                "COMPAT_CACHE_DIR": str(cache),
                "UV_CACHE_DIR": str(cache / "uv"),
                "PIP_NO_CACHE_DIR": "1",
                "PIP_CONFIG_FILE": os.devnull,
                "HF_HOME": str(tmp / "hf"),
                "NO_COLOR": "1",
            }
        )
        for var in ("GITHUB_STEP_SUMMARY", "CUDA_HOME", "CUDA_PATH", "XDG_CACHE_HOME"):
            os.environ.pop(var, None)
        helps(out, tmp)
        run_all(out, tmp)
    return 0


def run_all(out: Path, tmp: Path) -> None:
    from typer.testing import CliRunner

    from compat.cli import app
    from tests.dists import make_env

    def run(name: str, args: list[str]) -> None:
        result = CliRunner().invoke(app, args, catch_exceptions=True)
        stderr = result.stderr
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            stderr += f"\nEXCEPTION {type(result.exception).__name__}: {result.exception}"
        record(out, name, result.exit_code, result.stdout, stderr, tmp)

    hardware = {}
    for label, profile in (("r535", R535), ("r580", R580)):
        path = tmp / f"{label}.json"
        path.write_text(json.dumps(profile), encoding="utf-8")
        hardware[label] = str(path)
    ds = tmp / "ds.json"
    ds.write_text(json.dumps(DS_CONFIG), encoding="utf-8")
    sites = {label: str(make_env(tmp / f"site-{label}", stack)) for label, stack in STACKS.items()}

    for label, site in sites.items():
        for hw in hardware:
            for fmt in ("text", "json", "markdown"):
                base = ["--path", site, "--hardware", hardware[hw], "--format", fmt]
                run(f"doctor-{label}-{hw}-{fmt}", ["doctor", *base])
                run(
                    f"doctor-{label}-{hw}-ds-grpo-{fmt}",
                    ["doctor", *base, "--deepspeed-config", str(ds), "--set", "trainer=grpo"],
                )
        for fmt in ("text", "json"):
            common = ["--path", site, "--hardware", hardware["r535"], "--offline"]
            run(f"pin-{label}-{fmt}", ["pin", *common, "--format", fmt])
            run(f"pin-{label}-freeze-{fmt}", ["pin", *common, "--freeze", "--format", fmt])
            run(
                f"pin-{label}-ds-{fmt}",
                ["pin", *common, "--deepspeed-config", str(ds), "--format", fmt],
            )
        run(f"doctor-{label}-quiet", ["doctor", "--path", site, "--no-probe", "-q"])
        report = tmp / f"report-{label}.json"
        run(
            f"doctor-{label}-report",
            [
                "doctor",
                "--path",
                site,
                "--hardware",
                hardware["r580"],
                "-f",
                "json",
                "-o",
                str(report),
            ],
        )
    run(
        "fleet-reports-text",
        [
            "fleet",
            "--reports",
            str(tmp / "report-old.json"),
            "--reports",
            str(tmp / "report-new.json"),
        ],
    )
    run(
        "fleet-reports-json",
        [
            "fleet",
            "--reports",
            str(tmp / "report-old.json"),
            "--reports",
            str(tmp / "report-new.json"),
            "-f",
            "json",
        ],
    )

    for path in requirement_files():
        rel = str(path.relative_to(DATA))
        for fmt in ("text", "json", "markdown", "sarif", "github"):
            args = ["check", str(path), "--offline", "--hardware", hardware["r535"], "-f", fmt]
            run(f"check-{rel}-{fmt}", args)
        for fmt in ("text", "json"):
            args = ["pin", "-r", str(path), "--offline", "--no-probe", "--format", fmt]
            run(f"pin-r-{rel}-{fmt}", args)
    check_dir = DATA / "real" / "check"
    run(
        "check-all-real-text",
        ["check", *map(str, sorted(check_dir.glob("*.txt"))), "--offline", "--set", "trainer=grpo"],
    )

    for log in sorted((DATA / "logs").glob("*.log")):
        for fmt in ("text", "json", "markdown"):
            run(f"explain-{log.name}-{fmt}", ["explain", str(log), "--no-probe", "-f", fmt])
            run(
                f"explain-{log.name}-r535-{fmt}",
                [
                    "explain",
                    str(log),
                    "--hardware",
                    hardware["r535"],
                    "--path",
                    sites["old"],
                    "-f",
                    fmt,
                ],
            )

    for fmt in ("text", "json"):
        run(f"matrix-list-{fmt}", ["matrix", "list", "-f", fmt])
    listing = json.loads(
        (out / "matrix-list-json").read_text().split("--- stdout\n", 1)[1].split("\n--- stderr")[0]
    )
    rules = listing["rules"] if isinstance(listing, dict) else listing
    for rule in rules:
        rid = rule["id"]
        for fmt in ("text", "json"):
            run(f"matrix-show-{rid}-{fmt}", ["matrix", "show", rid, "-f", fmt])
    run("matrix-lint", ["matrix", "lint"])
    run("probe-hardware", ["probe", "--hardware", hardware["r580"]])
    run("probe-hardware-json", ["probe", "--hardware", hardware["r580"], "-f", "json"])


if __name__ == "__main__":
    sys.exit(main())
