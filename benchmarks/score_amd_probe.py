"""Score `compat probe --format json` on real AMD machines it has not seen
(benchmarks/heldout/amd-probe-1/machines/*.json, provenance in PROVENANCE.md).

Each machine is written out as compat reads one: its KFD topology as a sysfs tree
(COMPAT_SYSFS_ROOT), the `amd-smi static --json` it printed behind an `amd-smi` stand-in
(COMPAT_AMD_SMI), its ROCm installs (COMPAT_ROCM_PREFIXES) and its variables; then
`python -m compat probe --format json` runs as a process and each expected fact is compared:

- right: the probe states the expected value;
- miss: the probe states nothing where the machine gives the fact;
- false: the probe states another value (a wrong target, a GPU that is not one, a name that
  is not a marketing name, a partition's made-up PCI address): as bad as a miss.

Expected keys: `gpus[]` (count, then per GPU `gfx_target` (null: the machine does not give
it, so any target is false), `gfx_features`, `name` (null: no marketing name is given, so only
compat's own `AMD gfx...` placeholder is not false), `pci_bus_id`, `uuid`), `physical_gpus`
(distinct PCI addresses among the GPUs: partitions of one GPU share it; and the document's
`amd_physical_gpus`, every GPU one where it states none; default: the count of `gpus`),
`amdgpu_driver_version`, `hsa_override_gfx_version`, `rocm_version`, and `problem` (a
substring some problem line must carry: the fact that could not be read, named).

Usage: python benchmarks/score_amd_probe.py [--verbose] [DIR]   (from the repository root)
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

DEFAULT = Path("benchmarks/heldout/amd-probe-1")
TOP_LEVEL = ("amdgpu_driver_version", "hsa_override_gfx_version", "rocm_version")


def materialize(machine: dict[str, Any], root: Path) -> dict[str, str]:
    """The machine under `root`; the variables that point compat at it."""
    nodes = root / "sys" / "class" / "kfd" / "kfd" / "topology" / "nodes"
    for number, text in machine["nodes"].items():
        (nodes / number).mkdir(parents=True)
        (nodes / number / "properties").write_text(text, encoding="ascii")
    for number, banks in machine.get("mem_banks", {}).items():
        for bank, text in banks.items():
            (nodes / number / "mem_banks" / bank).mkdir(parents=True)
            (nodes / number / "mem_banks" / bank / "properties").write_text(text, "ascii")
    if machine.get("amdgpu_version"):
        (root / "sys" / "module" / "amdgpu").mkdir(parents=True)
        (root / "sys" / "module" / "amdgpu" / "version").write_text(
            machine["amdgpu_version"] + "\n", encoding="ascii"
        )
    env = {
        "COMPAT_SYSFS_ROOT": str(root / "sys"),
        "COMPAT_AMD_SMI": "",
        "COMPAT_ROCM_PREFIXES": "",
        "COMPAT_LD_SO_CACHE": "",
        **machine.get("environ", {}),
    }
    smi = machine.get("amd_smi")
    if smi is not None:
        (root / "amd-smi.out").write_text(smi["stdout"], encoding="utf-8")
        script = root / "amd-smi"
        script.write_text(
            f"#!{sys.executable}\nimport sys\n"
            "if sys.argv[1:2] != ['static'] or '--json' not in sys.argv:\n    sys.exit(2)\n"
            f"sys.stdout.write(open({str(root / 'amd-smi.out')!r}).read())\n"
            f"sys.stderr.write({smi.get('stderr', '')!r})\n"
            f"sys.exit({int(smi.get('exit', 0))})\n",
            encoding="utf-8",
        )
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        env["COMPAT_AMD_SMI"] = str(script)
    prefixes = []
    for name, version in machine.get("rocm", {}).items():
        info = root / "opt" / name / ".info"
        info.mkdir(parents=True)
        (info / "version").write_text(version + "\n", encoding="ascii")
        prefixes.append(str(root / "opt" / name))
    env["COMPAT_ROCM_PREFIXES"] = os.pathsep.join(prefixes)
    return env


def probe(env: dict[str, str]) -> dict[str, Any]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.endswith("VISIBLE_DEVICES") and k != "HSA_OVERRIDE_GFX_VERSION"
    }
    done = subprocess.run(
        [sys.executable, "-m", "compat", "probe", "--format", "json"],
        capture_output=True, text=True, check=False, env={**base, **env}, timeout=120,
    )  # fmt: skip
    try:
        return dict(json.loads(done.stdout))
    except ValueError:
        return {"gpus": [], "problems": [f"no JSON (exit {done.returncode}): {done.stderr[-300:]}"]}


def _placeholder(name: Any) -> bool:
    return isinstance(name, str) and name.startswith("AMD gfx")


def score(expected: dict[str, Any], doc: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(fact, verdict, detail) for every expected fact; verdict right | miss | false."""
    out: list[tuple[str, str, str]] = []
    gpus = [g for g in doc.get("gpus", []) if g.get("vendor") == "amd"]
    want = expected["gpus"]
    verdict = "right" if len(gpus) == len(want) else ("miss" if len(gpus) < len(want) else "false")
    out.append(("gpu count", verdict, f"{len(gpus)} (expected {len(want)})"))
    for i, exp in enumerate(want):
        got = gpus[i] if i < len(gpus) else {}  # a GPU not listed: each of its facts missed
        for key, value in exp.items():
            have = got.get(key)
            if not got:
                out.append((f"gpu{i}.{key}", "miss", "GPU not listed"))
                continue
            if key == "name" and value is None:
                ok = have is None or _placeholder(have)
                out.append(
                    (f"gpu{i}.name", "right" if ok else "false", f"{have!r} (no name given)")
                )
                continue
            if have == value:
                verdict = "right"
            elif have is None or (key == "name" and _placeholder(have)):
                verdict = "miss"
            else:
                verdict = "false"
            out.append((f"gpu{i}.{key}", verdict, f"{have!r} (expected {value!r})"))
    physical = expected.get("physical_gpus", len(want))
    if "physical_gpus" in expected:
        found = len({g.get("pci_bus_id") for g in gpus})
        verdict = "right" if found == physical else "false"
        out.append(("physical gpus", verdict, f"{found} PCI addresses (expected {physical})"))
    # the count the document states (none stated: every GPU is one)
    stated = doc.get("amd_physical_gpus", len(gpus))
    verdict = "right" if stated == physical else ("miss" if not gpus else "false")
    out.append(("amd_physical_gpus", verdict, f"{stated!r} (expected {physical})"))
    for key in TOP_LEVEL:
        if key in expected:
            have = doc.get(key)
            verdict = "right" if have == expected[key] else ("miss" if have is None else "false")
            out.append((key, verdict, f"{have!r} (expected {expected[key]!r})"))
    if "problem" in expected:
        said = [p for p in doc.get("problems", []) if expected["problem"] in p]
        out.append(("problem named", "right" if said else "miss", said[0] if said else "none"))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--verbose", action="store_true", help="every fact, not only misses")
    args = parser.parse_args(argv)
    totals = {"right": 0, "miss": 0, "false": 0}
    rows = []
    for path in sorted((args.folder / "machines").glob("*.json")):
        machine = json.loads(path.read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            doc = probe(materialize(machine, Path(tmp)))
        facts = score(machine["expected"], doc)
        counts = {v: sum(1 for _, verdict, _ in facts if verdict == v) for v in totals}
        for v in totals:
            totals[v] += counts[v]
        rows.append(f"| {path.stem} | {counts['right']} | {counts['miss']} | {counts['false']} |")
        for fact, verdict, detail in facts:
            if verdict != "right" or args.verbose:
                rows.append(f"|   {fact}: {verdict} | | | {detail} |")
    print("| machine | right | miss | false |\n| --- | --- | --- | --- |")
    print("\n".join(rows))
    total = sum(totals.values())
    print(
        f"\n{totals['right']}/{total} facts right, {totals['miss']} missed, {totals['false']} false"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
