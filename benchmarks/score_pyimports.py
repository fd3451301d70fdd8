"""Score doctor's Python import check (issue 41) on a held-out set of real environments: a measure,
not a test.

A set is a folder with a MANIFEST.json (benchmarks/heldout/pyimports-1/ documents the fields):
environments built with real pip from real PyPI wheels, each with the statement that imports its
top package and the truth, set by running that statement in the built venv (`build`).

`build` makes each venv under benchmarks/.work/<set>/ (a hard-linked copy of a base venv that holds
the local torch wheel, then the environment's pip steps), records the lock (every wheel pip
installed, with its sha256 from `pip install --report`) and the real import's outcome: `ok`, or
the error's last line and the traceback's last frame. With `--from-lock` it rebuilds a venv from
the recorded lock (`--require-hashes`) instead of resolving again.

`score` runs `compat doctor --path SITE --no-probe --format json` on each venv's site-packages and
judges its `python` findings:

- a real failure is found when an `affected` finding names the missing name and cites the file and
  line of the traceback's failing frame (`found`); a finding on the name at another line or only
  `possible` is `partial`; none is a `miss`;
- every other python finding is checked against the real interpreter: the module it names is
  imported in the venv; where that import works the finding is a false alarm (`affected` and
  `possible` counted apart); where it fails with the finding's error it is right.

Run: .venv/bin/python benchmarks/score_pyimports.py build|score [SET_DIR] [--only NAME] [--json]
(default set: benchmarks/heldout/pyimports-1)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = ROOT / "benchmarks" / "heldout" / "pyimports-1"
TORCH_WHEEL = Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
_FRAME = re.compile(r'File "([^"]+)", line (\d+), in ')
_CANNOT = re.compile(r"ImportError: cannot import name '(\w+)' from '([\w.]+)'")
_EXCEPTION = re.compile(r"[A-Za-z_][\w.]*(?:Error|Exception|Exit): ")
_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")


def work_dir(set_dir: Path) -> Path:
    return ROOT / "benchmarks" / ".work" / set_dir.name


def site_of(venv: Path) -> Path:
    (lib,) = (venv / "lib").glob("python3.*")
    return lib / "site-packages"


def _run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, check=False, **kw)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def base_venv(work: Path) -> Path:
    """The venv every environment starts from: the local CPU torch wheel (and what it needs)."""
    base = work / "base"
    if not (base / "bin" / "python").exists():
        _run([sys.executable, "-m", "venv", str(base)])
        done = _run([str(base / "bin" / "python"), "-m", "pip", "install", "-q", str(TORCH_WHEEL)])
        if done.returncode:
            sys.exit(f"base venv: {done.stderr[-2000:]}")
    return base


def real_import(venv: Path, statement: str) -> dict[str, str]:
    """The statement run by the venv's interpreter: `ok`, or the error's last line and the
    traceback's last frame inside site-packages."""
    done = _run(
        [str(venv / "bin" / "python"), "-c", statement],
        cwd="/tmp",
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
        timeout=600,
    )
    if done.returncode == 0:
        return {"result": "ok"}
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    # the exception's line, not a hint printed after it
    errors = [line for line in lines if _EXCEPTION.match(line)]
    last = errors[-1] if errors else lines[-1] if lines else f"exit {done.returncode}"
    site = str(site_of(venv)) + "/"
    frames = [(p, n) for p, n in _FRAME.findall(done.stderr) if p.startswith(site)]
    out = {"result": last, "traceback": "\n".join(lines[-40:]).replace(site, "SITE/")}
    if frames:
        out["failing frame"] = f"{frames[-1][0][len(site) :]}:{frames[-1][1]}"
    return out


def build(
    set_dir: Path, manifest: dict[str, Any], only: str | None, from_lock: bool, keep: bool
) -> None:
    work = work_dir(set_dir)
    work.mkdir(parents=True, exist_ok=True)
    base = base_venv(work)
    for env in manifest["environments"]:
        if (only and env["name"] not in only.split(",")) or (not only and "truth" in env):
            continue  # without --only: the environments not built yet
        venv = work / env["name"]
        kept = keep and (work / f"{env['name']}.report0.json").exists()
        if venv.exists() and not kept:
            shutil.rmtree(venv)
        if not kept:
            _run(
                ["cp", "-al", str(base.resolve()), str(venv)]
            )  # base may be a link to a shared one
        py = str(venv / "bin" / "python")
        if from_lock:
            lock = work / f"{env['name']}.lock.txt"
            lock.write_text(
                "".join(
                    f"{p['name']}=={p['version']} --hash=sha256:{p['sha256']}\n"
                    for p in env["lock"]
                ),
                encoding="utf-8",
            )
            steps = [["--no-deps", "--require-hashes", "-r", str(lock)]]
        else:
            steps = env["install"]
        installed: dict[str, dict[str, str]] = {}
        failed = False
        for i, step in enumerate(steps):
            report = work / f"{env['name']}.report{i}.json"
            if not kept:
                done = _run([py, "-m", "pip", "install", "-q", "--report", str(report), *step])
                if done.returncode:
                    errors = [x for x in done.stderr.splitlines() if not x.startswith("WARNING")]
                    print(f"{env['name']}: pip {step}: " + "\n".join(errors[-5:]), file=sys.stderr)
                    failed = True
                    break
            for item in json.loads(report.read_text(encoding="utf-8"))["install"]:
                meta = item["metadata"]
                info = item.get("download_info", {})
                hashes = info.get("archive_info", {}).get("hashes", {})
                installed[meta["name"].lower()] = {
                    "name": meta["name"],
                    "version": meta["version"],
                    "sha256": hashes.get("sha256", ""),
                    "url": info.get("url", "").rsplit("/", 1)[-1],
                }
        if failed:
            continue
        if not from_lock:
            env["lock"] = sorted(installed.values(), key=lambda p: p["name"].lower())
            env["base"] = {"torch": TORCH_WHEEL.name, "sha256": sha256(TORCH_WHEEL)}
        env["truth"] = real_import(venv, env["import"])
        if env.get("entry"):  # the module users import, beyond the top package
            env["entry truth"] = real_import(venv, env["entry"])
        print(f"{env['name']}: {env['truth']['result']}", flush=True)
        (set_dir / "MANIFEST.json").write_text(
            json.dumps(manifest, indent=1) + "\n", encoding="utf-8"
        )


def doctor(site: Path) -> dict[str, Any]:
    compat = Path(sys.executable).parent / "compat"
    done = _run([str(compat), "doctor", "--path", str(site), "--no-probe", "--format", "json"])
    try:
        return dict(json.loads(done.stdout))
    except json.JSONDecodeError:
        return {"error": f"exit {done.returncode}: {done.stderr[-500:]}"}


def _module_statement(finding: dict[str, Any]) -> str:
    """What to run to see whether the module a finding names really fails: the failing module
    is the one the title names (`(module)`), imported whole."""
    match = re.search(r"\(([\w.]+)\): ", finding["title"])
    module = match.group(1) if match else ""
    return f"import {module}" if module else ""


def score_env(set_dir: Path, env: dict[str, Any]) -> dict[str, Any]:
    venv = work_dir(set_dir) / env["name"]
    site = site_of(venv)
    report = doctor(site)
    if "error" in report:
        return {"name": env["name"], "crash": report["error"]}
    findings = [f for f in report.get("findings", []) if f.get("kind") == "python"]
    truth = env["truth"]
    expected: tuple[str, str] | None = None  # (name, "file:line")
    if truth["result"] != "ok":
        cannot, nomod = _CANNOT.search(truth["result"]), _NO_MODULE.search(truth["result"])
        name = cannot.group(1) if cannot else nomod.group(1) if nomod else ""
        expected = (name, truth.get("failing frame", ""))
    verdict = "works" if expected is None else "miss" if expected[0] else "not a name failure"
    hit: dict[str, Any] | None = None
    for f in findings:
        source = f.get("source", "")
        rel = source.split("/site-packages/", 1)[-1]
        if expected and expected[0] and f"`{expected[0]}`" in f["title"] + f"'{expected[0]}'":
            if f["status"] == "affected" and rel == expected[1]:
                verdict, hit = "found", f
                break
            if verdict == "miss":
                verdict, hit = "partial", f
    if expected and verdict == "miss":
        for f in findings:  # a ModuleNotFoundError: the missing module is in the title
            if expected[0] and expected[0] in f["title"] and f["status"] == "affected":
                rel = f.get("source", "").split("/site-packages/", 1)[-1]
                verdict, hit = ("found" if rel == expected[1] else "partial"), f
                break
    others = []
    for f in findings:
        if f is hit:
            continue
        statement = _module_statement(f)
        real = real_import(venv, statement) if statement else {"result": "?"}
        # right: the module really fails, and the statement the finding names fails on its
        # name (the module may stop earlier, at another of its findings)
        parts = [*str(f["rule"]).split(":"), "", "", ""]
        said = f"'{parts[3]}'" if parts[3] else f"'{parts[2]}'"
        alone = real
        if said not in real["result"] and real["result"] != "ok":
            alone = real_import(
                venv, f"from {parts[2]} import {parts[3]}" if parts[3] else f"import {parts[2]}"
            )
        others.append(
            {
                "status": f["status"],
                "title": f["title"],
                "source": f.get("source", "").split("/site-packages/", 1)[-1],
                "real": real["result"],
                "right": real["result"] != "ok" and said in alone["result"],
            }
        )
    affected_other = [
        f["title"]
        for f in report.get("findings", [])
        if f.get("kind") != "python" and f.get("status") == "affected"
    ]
    return {
        "name": env["name"],
        "truth": truth["result"],
        "other kinds affected": affected_other,
        "expected": list(expected) if expected else None,
        "verdict": verdict,
        "hit": (hit or {}).get("title", ""),
        "others": others,
        "false_affected": sum(1 for o in others if o["real"] == "ok" and o["status"] == "affected"),
        "false_possible": sum(1 for o in others if o["real"] == "ok" and o["status"] != "affected"),
        "right_others": sum(1 for o in others if o["right"]),
    }


def render(scores: list[dict[str, Any]]) -> str:
    rows = [
        "| environment | real import | doctor | false affected | false possible | other right |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for s in scores:
        if "crash" in s:
            rows.append(f"| {s['name']} | | CRASH {s['crash'][:80]} | | | |")
            continue
        rows.append(
            f"| {s['name']} | {s['truth'][:90]} | {s['verdict']} | {s['false_affected']} | "
            f"{s['false_possible']} | {s['right_others']} |"
        )
    breaks = [s for s in scores if s.get("expected") and s["verdict"] != "not a name failure"]
    found = sum(1 for s in breaks if s["verdict"] == "found")
    works = [s for s in scores if not s.get("expected") and "crash" not in s]
    for s in scores:
        if s.get("verdict") == "not a name failure":
            rows.append(
                f"- {s['name']}: the real import fails on no missing name ({s['truth'][:100]}); "
                f"doctor's affected findings of other kinds: {s['other kinds affected'][:2]}"
            )
    silent = sum(1 for s in works if not s["others"])
    clean = sum(1 for s in works if not s["false_affected"] and not s["false_possible"])
    fa = sum(s.get("false_affected", 0) for s in scores)
    fp = sum(s.get("false_possible", 0) for s in scores)
    right = sum(s.get("right_others", 0) for s in scores)
    rows.append("")
    rows.append(
        f"real failures found (affected, file:line, name): {found}/{len(breaks)}; "
        f"environments that import fine: {silent}/{len(works)} with no python finding, "
        f"{clean}/{len(works)} with no false one; false affected findings: {fa}; false "
        f"possible findings: {fp}; other findings whose module really fails on that name: {right}"
    )
    for s in scores:
        for o in s.get("others", []):
            mark = (
                "right"
                if o["right"]
                else "FAILS FIRST ON ANOTHER NAME"
                if o.get("fails otherwise")
                else "FALSE"
            )
            rows.append(
                f"- {s['name']}: {mark} {o['status']}: {o['title'][:200]} (real: {o['real'][:120]})"
            )
    return "\n".join(rows) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("build", "score"))
    parser.add_argument("set_dir", nargs="?", type=Path, default=DEFAULT_SET)
    parser.add_argument("--only")
    parser.add_argument("--from-lock", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", action="store_true", help="reuse venvs already built")
    args = parser.parse_args()
    manifest = json.loads((args.set_dir / "MANIFEST.json").read_text(encoding="utf-8"))
    if args.action == "build":
        build(args.set_dir, manifest, args.only, args.from_lock, args.keep)
        return 0
    scores = [
        score_env(args.set_dir, env)
        for env in manifest["environments"]
        if "truth" in env and (not args.only or env["name"] in args.only.split(","))
    ]
    print(json.dumps(scores, indent=1) if args.json else render(scores), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
