"""Score compat's reading of HIP code objects on real ROCm wheels (issue 43 item 3): a measure,
not a test.

A set (benchmarks/heldout/rocm-wheels-1/) is an `expectations.yaml`: the wheels (project,
version, file name, sha256, PyPI URL), and per wheel the GPU targets of each native file with
device code as LLVM's own tools list them on the ORIGINAL file (`clang-offload-bundler --list
--type=o` on each bundle of `.hip_fatbin`, a compressed `CCOB` bundle decompressed whole first;
`llvm-objdump --offloading` where `.llvm.offloading` exists), and two GPUs: one every judged file
serves and one some file does not (chosen from the truth by `--truth`).

Scoring installs each wheel with real pip (`--no-deps --target`, under benchmarks/.work/, from
a folder of the wheels: nothing is downloaded) and runs `compat doctor --format json --path DIR
--hardware PROFILE` as a subprocess of this interpreter's compat, once per GPU. Per wheel:

- targets: each native file's `gfx_targets` in `environment.native.files[]` equal (order
  aside) to the LLVM list, and no gfx_targets for a file without device code;
- unserved: on the GPU some judged file lacks, `binary-no-kernel-image:PKG` is `affected` and
  its `source` is one of the files that lack it;
- served: on the GPU every judged file serves, no `binary-no-kernel-image:PKG` at all;
- override: on the unserved GPU with HSA_OVERRIDE_GFX_VERSION naming a processor every judged
  file carries (the runtime then loads that code), no `binary-no-kernel-image:PKG`;
- override-miss: on the served GPU with HSA_OVERRIDE_GFX_VERSION naming a processor some judged
  file lacks (the first of OVERRIDES; the runtime then looks for that code only),
  `binary-no-kernel-image:PKG` affected naming a file that lacks it;
- clean: every run exits 0, 1 or 3 with a JSON document and no traceback.

A wheel whose loader picks one of several per-ROCm variants (bitsandbytes) names the torch
build (`torch:` in the expectations: a torch dist-info with that version is written beside it);
only the variant that torch build loads is judged for served/unserved.

An environment (`environments:` in the expectations) installs several of the set's wheels into
one folder and is judged on every GPU the scorer knows: the packages doctor finds affected by
binary-no-kernel-image are exactly those with a judged file that GPU cannot run (LLVM's
target-ID rule on the truth's targets; a GPU where an xnack setting would decide is skipped).

Hostile variants (`hostile:` in the expectations) mutate one real installed file (a bundle
whose entries run past the section, an entry count of 2^32-1, a corrupt zstd stream) and are
judged: exit 0/1/3, no traceback, exactly one note naming the file, and no finding for it.

compat's cache (COMPAT_CACHE_DIR) is a folder of the set's work folder, emptied at each start.

Run: .venv/bin/python benchmarks/score_rocm_wheels.py --wheels DIR [SET_DIR] [--out FILE]
     .venv/bin/python benchmarks/score_rocm_wheels.py --truth --wheels DIR [SET_DIR]
(default set: benchmarks/heldout/rocm-wheels-1; wheels: benchmarks/.work/SET_NAME/wheels)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import mmap
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SET = ROOT / "benchmarks" / "heldout" / "rocm-wheels-1"
WORK = ROOT / "benchmarks" / ".work" / DEFAULT_SET.name  # benchmarks/.work/SET_NAME: main sets it
sys.path.insert(0, str(ROOT / "scripts"))
from hip_fixtures import (  # type: ignore[import-not-found]  # noqa: E402  (a script)
    bundler_list,
    bundles,
    section,
    target,
)

BUNDLER = shutil.which("clang-offload-bundler-14") or "/usr/lib/llvm-14/bin/clang-offload-bundler"
OBJDUMP = shutil.which("llvm-objdump-14") or "llvm-objdump"

# The GPUs a wheel is judged on: target -> (marketing name, target features as the probe shows
# them). The first four are docs/examples/hardware's profiles.
GPUS = {
    "gfx942": ("AMD Instinct MI300X", "sramecc+"),
    "gfx90a": ("AMD Instinct MI250X", "sramecc+"),
    "gfx1100": ("AMD Radeon RX 7900 XTX", None),
    "gfx1151": ("AMD Radeon 8060S Graphics", None),
    "gfx950": ("AMD Instinct MI355X", "sramecc+"),
    "gfx908": ("AMD Instinct MI100", "sramecc+"),
    "gfx1201": ("AMD Radeon RX 9070 XT", None),
    "gfx1030": ("AMD Radeon RX 6800 XT", None),
    "gfx906": ("AMD Radeon VII", "sramecc-"),
    "gfx803": ("Radeon RX 580 Series", None),
    "gfx1031": ("AMD Radeon RX 6700 XT", None),
    "gfx1102": ("AMD Radeon RX 7600", None),
    "gfx1103": ("AMD Radeon 780M", None),
    "gfx1200": ("AMD Radeon RX 9060 XT", None),
    "gfx1010": ("AMD Radeon RX 5700 XT", None),
    "gfx900": ("Radeon RX Vega", None),
    "gfx1250": ("AMD gfx1250 GPU", None),
    "gfx90c": ("AMD Radeon Graphics (Renoir)", "xnack+"),
    "gfx940": ("AMD gfx940 GPU", "sramecc+:xnack+"),
}
SERVED_ORDER = ("gfx942", "gfx90a", "gfx1100", "gfx908", "gfx1030", "gfx906", "gfx803")
UNSERVED_ORDER = ("gfx1151", "gfx950", "gfx1201", "gfx942", "gfx1100", "gfx90a", "gfx803")
# LLVM AMDGPUUsage, "Generic processors" (the truth's own copy: the scorer does not trust
# compat's table to judge compat).
GENERIC = {
    "gfx9-generic": {"gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"},
    "gfx9-4-generic": {"gfx940", "gfx941", "gfx942", "gfx950"},
    "gfx10-1-generic": {"gfx1010", "gfx1011", "gfx1012", "gfx1013"},
    "gfx10-3-generic": {f"gfx103{n}" for n in range(7)},
    "gfx11-generic": {f"gfx110{n}" for n in range(4)} | {f"gfx115{n}" for n in range(4)},
    "gfx12-generic": {"gfx1200", "gfx1201"},
    "gfx12-5-generic": {"gfx1250", "gfx1251"},  # llvm-project#183381
}
CRITERIA = ("targets", "unserved", "served", "override", "override-miss", "clean")
# HSA_OVERRIDE_GFX_VERSION values of the processors an override may name (major.minor.stepping,
# the minor and stepping in decimal: gfx90a is 9.0.10).
OVERRIDES = {
    "gfx1100": "11.0.0", "gfx1030": "10.3.0", "gfx942": "9.4.2", "gfx90a": "9.0.10",
    "gfx908": "9.0.8", "gfx906": "9.0.6", "gfx900": "9.0.0", "gfx1201": "12.0.1",
}  # fmt: skip


# --- truth -------------------------------------------------------------------------------------


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def llvm_truth(path: Path, scratch: Path) -> dict[str, Any] | None:
    """The targets LLVM's tools list for one original ELF file; None without device code."""
    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        if data[:4] != b"\x7fELF":
            return None
        hip = section(data, b".hip_fatbin")
        offloading = section(data, b".llvm.offloading")
        kpack = section(data, b".rocm_kpack_ref")
        if hip is None and offloading is None and kpack is None:
            return None
        targets: set[str] = set()
        record: dict[str, Any] = {"tools": []}
        if hip is not None:
            found = bundles(data, hip[0], hip[0] + hip[1])
            for _start, _kept, whole in found:
                assert whole is not None
                listed = bundler_list(BUNDLER, whole, scratch)
                targets.update(t for e in listed if (t := entry_target(e)) is not None)
            record["bundles"] = len(found)
            record["compressed"] = sum(1 for s, _k, _w in found if data[s : s + 4] == b"CCOB")
            record["tools"].append("clang-offload-bundler --list --type=o")
        if offloading is not None:
            done = subprocess.run(
                [OBJDUMP, "--offloading", str(path)], capture_output=True, text=True, check=True
            )
            for line in done.stdout.splitlines():
                key, _, value = line.strip().partition(" ")
                if key == "arch" and value.strip().startswith("gfx"):
                    targets.add(value.strip())
            record["tools"].append("llvm-objdump --offloading")
        if kpack is not None:
            record["kpack"] = True
        record["targets"] = sorted(targets)
        return record


def entry_target(entry: str) -> str | None:
    """A bundle entry ID's target: hip_fixtures' reading of amdgcn entries, and `amdgcnspirv`
    for AMDGCN-flavoured SPIR-V (`hip-spirv64-amd-amdhsa--amdgcnspirv`, clang HIPSupport.rst)."""
    found: str | None = target(entry)
    if found is None and "-spirv64-amd-amdhsa" in entry and entry.endswith("-amdgcnspirv"):
        return "amdgcnspirv"
    return found


def runs(code: str, gpu: str) -> bool | None:
    """LLVM's rule (AMDGPUUsage "Target ID"): True runs, False cannot, None depends on xnack."""
    if code == "amdgcnspirv":  # compiled for the GPU at load time, if the runtime can
        return None
    processor, *features = code.split(":")
    if processor != gpu and gpu not in GENERIC.get(processor, set()):
        return False
    have = GPUS[gpu][1] or ""
    settings = {f[:-1]: f[-1] for f in have.split(":") if f}
    answer: bool | None = True
    for feature in features:
        known = settings.get(feature[:-1])
        if known is None:
            answer = None
        elif known != feature[-1]:
            return False
    return answer


def serves(targets: list[str], gpu: str) -> bool | None:
    answers = [runs(t, gpu) for t in targets]
    if any(a is True for a in answers):
        return True
    return None if any(a is None for a in answers) else False


def judged_files(wheel: dict[str, Any]) -> dict[str, list[str]]:
    """path -> targets of the files the process loads (one per-ROCm variant where torch says)."""
    files = {p: r["targets"] for p, r in wheel["files"].items() if r.get("targets")}
    loaded = wheel.get("loaded")
    return {p: t for p, t in files.items() if loaded is None or p in loaded}


def choose_gpus(wheel: dict[str, Any]) -> None:
    files = judged_files(wheel)
    if not files:
        return
    for gpu in SERVED_ORDER:
        if all(serves(t, gpu) is True for t in files.values()):
            wheel["served_gpu"] = gpu
            break
    for gpu in UNSERVED_ORDER:  # every file lacks it, else any file lacks it
        if all(serves(t, gpu) is False for t in files.values()):
            wheel["unserved_gpu"] = gpu
            break
    else:
        for gpu in UNSERVED_ORDER:
            if any(serves(t, gpu) is False for t in files.values()):
                wheel["unserved_gpu"] = gpu
                break
    if "unserved_gpu" in wheel:
        gpu = wheel["unserved_gpu"]
        wheel["override"] = next(
            (t for t in OVERRIDES if all(serves(f, t) is True for f in files.values())), None
        )
        wheel["unserved_files"] = sorted(p for p, t in files.items() if serves(t, gpu) is False)


def make_truth(set_dir: Path, wheels_dir: Path) -> None:
    path = set_dir / "expectations.yaml"
    doc = yaml.safe_load(path.read_text())
    version = subprocess.run(
        [BUNDLER, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    doc["truth_tools"] = [version.splitlines()[0], f"{OBJDUMP} --offloading"]
    with tempfile.TemporaryDirectory() as temp:
        scratch = Path(temp)
        for wheel in doc["wheels"]:
            archive_path = wheels_dir / wheel["filename"]
            if sha256(archive_path) != wheel["sha256"]:
                raise SystemExit(f"{wheel['filename']}: sha256 differs from the provenance")
            files: dict[str, Any] = {}
            elf_files = 0
            with zipfile.ZipFile(archive_path) as archive:
                for info in archive.infolist():
                    if info.is_dir():
                        continue
                    with archive.open(info) as member:
                        if member.read(4) != b"\x7fELF":
                            continue
                    elf_files += 1
                    original = scratch / "original"
                    with archive.open(info) as member, original.open("wb") as handle:
                        shutil.copyfileobj(member, handle, 1 << 22)
                    record = llvm_truth(original, scratch)
                    if record is not None:
                        files[info.filename] = record
                    original.unlink()
            wheel["elf_files"] = elf_files
            wheel["files"] = files
            for key in ("served_gpu", "unserved_gpu", "unserved_files", "override"):
                wheel.pop(key, None)
            choose_gpus(wheel)
            print(wheel["filename"], len(files), wheel.get("served_gpu"), wheel.get("unserved_gpu"))
    path.write_text(yaml.safe_dump(doc, sort_keys=False, width=100))


# --- scoring -----------------------------------------------------------------------------------


@dataclass
class Outcome:
    wheel: str
    passed: dict[str, bool] = field(default_factory=dict)
    why: list[str] = field(default_factory=list)


def install(wheel: dict[str, Any], wheels_dir: Path) -> Path:
    """The wheel installed by real pip into its own --target folder (no dependencies)."""
    name: str = wheel["filename"]
    site = WORK / "env" / name.removesuffix(".whl")
    if (site / ".installed").exists():
        return site
    if not (wheels_dir / name).is_file():
        raise SystemExit(
            f"{wheels_dir / name}: missing; bring it back with `pip download "
            f"{wheel['project']}=={wheel['version']} --no-deps --only-binary=:all: -d {wheels_dir}` "
            "(the platform and Python of its file name: PROVENANCE.md)"
        )
    shutil.rmtree(site, ignore_errors=True)
    parts = name.removesuffix(".whl").split("-")
    python, platforms = parts[-3], parts[-1].split(".")
    digits = python[2:] if python.startswith("cp") else "311"
    command = [
        sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-deps",
        "--no-index", "--only-binary=:all:", "--target", str(site),
        "--python-version", f"{digits[0]}.{digits[1:]}",
        *(arg for p in platforms for arg in ("--platform", p)),
        str(wheels_dir / name),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, text=True)
    if wheel.get("torch"):
        torch_dist(site, wheel["torch"])
    (site / ".installed").write_text("")
    return site


def torch_dist(site: Path, version: str) -> None:
    """The torch build the variant loader keys on: its dist-info (METADATA, RECORD), no files."""
    info = site / f"torch-{version.split('+')[0]}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n")
    (info / "RECORD").write_text(f"{info.name}/METADATA,,\n{info.name}/RECORD,,\n")
    (info / "INSTALLER").write_text("pip\n")


def profile(gpu: str, folder: Path, override: str | None = None) -> Path:
    name, features = GPUS[gpu]
    entry: dict[str, Any] = {"index": 0, "name": name, "vendor": "amd", "gfx_target": gpu}
    if features:
        entry["gfx_features"] = features
    folder.mkdir(parents=True, exist_ok=True)
    doc: dict[str, Any] = {"schema": "compat.hardware/1", "gpus": [entry]}
    if override:
        doc["hsa_override_gfx_version"] = OVERRIDES[override]
    path = folder / (f"{gpu}-as-{override}.json" if override else f"{gpu}.json")
    path.write_text(json.dumps(doc))
    return path


def doctor(site: Path, hardware: Path) -> tuple[int, dict[str, Any] | None, str]:
    done = subprocess.run(
        [
            sys.executable, "-m", "compat", "doctor", "--format", "json",
            "--path", str(site), "--hardware", str(hardware),
        ],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "COMPAT_CACHE_DIR": str(WORK / "cache")},
    )  # fmt: skip
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        report = None
    return done.returncode, report, done.stderr


def clean(code: int, report: dict[str, Any] | None, stderr: str) -> str | None:
    if code not in (0, 1, 3):
        return f"exit {code}"
    if report is None:
        return "no JSON document"
    if "Traceback" in stderr:
        return "traceback on stderr"
    return None


def no_kernel(report: dict[str, Any], project: str) -> dict[str, Any] | None:
    wanted = f"binary-no-kernel-image:{project}"
    return next((f for f in report.get("findings", []) if f["rule"] == wanted), None)


def score_wheel(wheel: dict[str, Any], wheels_dir: Path) -> Outcome:
    outcome = Outcome(wheel["filename"])
    site = install(wheel, wheels_dir)
    project = wheel["project"]
    runs_: dict[str, tuple[int, dict[str, Any] | None, str]] = {}
    for role in ("served_gpu", "unserved_gpu"):
        gpu = wheel.get(role)
        if gpu:
            runs_[role] = doctor(site, profile(gpu, WORK / "profiles"))
    if wheel.get("unserved_gpu") and wheel.get("override"):
        where = profile(wheel["unserved_gpu"], WORK / "profiles", wheel["override"])
        runs_["override"] = doctor(site, where)
    files = judged_files(wheel)
    miss = next((t for t in OVERRIDES if any(serves(f, t) is False for f in files.values())), None)
    if wheel.get("served_gpu") and miss:
        where = profile(wheel["served_gpu"], WORK / "profiles", miss)
        runs_["override-miss"] = doctor(site, where)
    if not runs_:  # no device code: one run on an MI300X, judged on targets and clean only
        runs_["none"] = doctor(site, profile("gfx942", WORK / "profiles"))
    problems = [f"{role}: {p}" for role, r in runs_.items() if (p := clean(*r))]
    outcome.passed["clean"] = not problems
    outcome.why.extend(problems)
    first = next((r[1] for r in runs_.values() if r[1] is not None), None)
    if first is None:
        outcome.passed.update(targets=False, unserved=False, served=False)
        return outcome
    listed = {
        f["path"]: f
        for f in first["environment"]["native"]["files"]
        if f.get("package") == project or f["path"] in wheel["files"]
    }
    bad = []
    for path, truth in wheel["files"].items():
        got = listed.get(path)
        if got is None:
            bad.append(f"{path}: not listed")
        elif sorted(got.get("gfx_targets", [])) != sorted(truth["targets"]):
            missing = sorted(set(truth["targets"]) - set(got.get("gfx_targets", [])))
            extra = sorted(set(got.get("gfx_targets", [])) - set(truth["targets"]))
            problem = got.get("problem")
            bad.append(
                f"{path}: missing {missing} extra {extra}" + (f" ({problem})" if problem else "")
            )
    for path, got in listed.items():
        if path not in wheel["files"] and got.get("gfx_targets"):
            bad.append(f"{path}: gfx_targets {got['gfx_targets']} where LLVM finds no device code")
    outcome.passed["targets"] = not bad
    outcome.why.extend(bad)
    if "unserved_gpu" in runs_:
        report = runs_["unserved_gpu"][1]
        found = no_kernel(report, project) if report else None
        ok = (
            found is not None
            and found["status"] == "affected"
            and any(found.get("source", "").endswith(p) for p in wheel["unserved_files"])
        )
        outcome.passed["unserved"] = ok
        if not ok:
            shown = (found["status"], found.get("source")) if found else None
            outcome.why.append(f"unserved {wheel['unserved_gpu']}: finding {shown}")
    if "served_gpu" in runs_:
        report = runs_["served_gpu"][1]
        found = no_kernel(report, project) if report else None
        outcome.passed["served"] = report is not None and found is None
        if found is not None:
            outcome.why.append(f"served {wheel['served_gpu']}: false alarm: {found['title']}")
    if "override" in runs_:
        report = runs_["override"][1]
        found = no_kernel(report, project) if report else None
        outcome.passed["override"] = report is not None and found is None
        if found is not None:
            outcome.why.append(
                f"{wheel['unserved_gpu']} as {wheel['override']}: false alarm: {found['title']}"
            )
    if "override-miss" in runs_:
        report = runs_["override-miss"][1]
        found = no_kernel(report, project) if report else None
        lacking = [p for p, t in files.items() if serves(t, str(miss)) is False]
        ok = (
            found is not None
            and found["status"] == "affected"
            and any(found.get("source", "").endswith(p) for p in lacking)
        )
        outcome.passed["override-miss"] = ok
        if not ok:
            shown = (found["status"], found.get("source")) if found else None
            outcome.why.append(f"{wheel['served_gpu']} as {miss}: finding {shown}")
    return outcome


# --- hostile variants --------------------------------------------------------------------------


def mutate(path: Path, kind: str) -> None:
    """One hostile change to the first bundle of the file's `.hip_fatbin` (or to the file)."""
    if kind == "file-truncated":  # a download cut short: the section table is gone with it
        with path.open("r+b") as handle:
            handle.truncate(path.stat().st_size // 2)
        return
    with path.open("r+b") as handle, mmap.mmap(handle.fileno(), 0) as data:
        where = section(data, b".hip_fatbin")
        assert where is not None, path
        start = where[0]
        while data[start] == 0:
            start += 1
        if kind == "bad-entry-count":
            assert data[start : start + 24] == b"__CLANG_OFFLOAD_BUNDLE__"
            struct.pack_into("<Q", data, start + 24, 0xFFFFFFFF)
        elif kind == "zero-entries":
            assert data[start : start + 24] == b"__CLANG_OFFLOAD_BUNDLE__"
            struct.pack_into("<Q", data, start + 24, 0)
        elif kind == "id-length":  # the first entry's ID claims 1 MiB
            assert data[start : start + 24] == b"__CLANG_OFFLOAD_BUNDLE__"
            struct.pack_into("<Q", data, start + 32 + 16, 1 << 20)
        elif kind == "ccob-overrun":  # the total size runs past the section
            assert data[start : start + 4] == b"CCOB"
            version = struct.unpack_from("<H", data, start + 4)[0]
            struct.pack_into("<Q" if version == 3 else "<I", data, start + 8, where[1] * 4)
        elif kind == "ccob-version":
            assert data[start : start + 4] == b"CCOB"
            struct.pack_into("<H", data, start + 4, 9)
        elif kind == "truncated-bundle":  # the last entry's size runs past the section end
            assert data[start : start + 24] == b"__CLANG_OFFLOAD_BUNDLE__"
            (count,) = struct.unpack_from("<Q", data, start + 24)
            at = start + 32
            for _ in range(count - 1):
                at += 24 + struct.unpack_from("<Q", data, at + 16)[0]
            struct.pack_into("<Q", data, at + 8, where[1] * 4)
        elif kind == "corrupt-zstd":
            assert data[start : start + 4] == b"CCOB"
            version = struct.unpack_from("<H", data, start + 4)[0]
            header = 32 if version == 3 else 24
            body = start + header + 16  # past the zstd frame header: the first block
            data[body : body + 64] = bytes((b ^ 0xA5) for b in data[body : body + 64])
        else:
            raise SystemExit(f"unknown hostile kind {kind}")


def score_environment(
    env: dict[str, Any], wheels: dict[str, dict[str, Any]], wheels_dir: Path
) -> Outcome:
    """Several wheels in one site, judged on every GPU of GPUS: the packages with a
    binary-no-kernel-image finding are exactly those with a judged file the GPU cannot run."""
    outcome = Outcome(f"environment {env['name']}")
    site = WORK / "envs" / env["name"]
    if not (site / ".installed").exists():
        shutil.rmtree(site, ignore_errors=True)
        for name in env["wheels"]:
            part = install(wheels[name], wheels_dir)
            shutil.copytree(part, site, symlinks=True, dirs_exist_ok=True)
        (site / ".installed").write_text("")
    for gpu in GPUS:
        expected = set()
        unsure = False
        for name in env["wheels"]:
            answers = [serves(t, gpu) for t in judged_files(wheels[name]).values()]
            unsure |= None in answers
            if False in answers:
                expected.add(wheels[name]["project"])
        if unsure:
            continue
        code, report, stderr = doctor(site, profile(gpu, WORK / "profiles"))
        problem = clean(code, report, stderr)
        got = {
            f["rule"].split(":", 1)[1]
            for f in (report or {}).get("findings", [])
            if f["rule"].startswith("binary-no-kernel-image:") and f["status"] == "affected"
        }
        outcome.passed[gpu] = problem is None and got == expected
        if not outcome.passed[gpu]:
            outcome.why.append(
                f"{gpu}: {problem or ''} missed {sorted(expected - got)} false {sorted(got - expected)}"
            )
    return outcome


def score_hostile(
    case: dict[str, Any], wheels: dict[str, dict[str, Any]], wheels_dir: Path
) -> Outcome:
    outcome = Outcome(f"hostile {case['kind']}: {case['file']}")
    source = install(wheels[case["wheel"]], wheels_dir)
    site = WORK / "hostile" / case["kind"]
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(source, site, symlinks=True)
    mutate(site / case["file"], case["kind"])
    code, report, stderr = doctor(site, profile(case.get("gpu", "gfx942"), WORK / "profiles"))
    problem = clean(code, report, stderr)
    outcome.passed["clean"] = problem is None
    if problem:
        outcome.why.append(problem)
    if report is None:
        outcome.passed["note"] = False
        return outcome
    notes = [n for n in report.get("notes", []) if case["file"] in _text(n)]
    outcome.passed["note"] = len(notes) == 1
    if len(notes) != 1:
        outcome.why.append(f"{len(notes)} notes name the file: {[_text(n) for n in notes]}")
    findings = [
        f["rule"]
        for f in report.get("findings", [])
        if f["rule"].startswith("binary-no-kernel-image") and case["file"] in f.get("source", "")
    ]
    outcome.passed["no-finding"] = not findings
    if findings:
        outcome.why.append(f"findings on a file not read: {findings}")
    return outcome


def _text(note: Any) -> str:
    return note if isinstance(note, str) else json.dumps(note)


# --- report ------------------------------------------------------------------------------------


def render(outcomes: list[Outcome], hostile: list[Outcome], environments: list[Outcome]) -> str:
    lines = ["| wheel | " + " | ".join(CRITERIA) + " | why |", "|---" * (len(CRITERIA) + 2) + "|"]
    totals = dict.fromkeys(CRITERIA, 0)
    counted = dict.fromkeys(CRITERIA, 0)
    for o in outcomes:
        cells = []
        for c in CRITERIA:
            if c in o.passed:
                counted[c] += 1
                totals[c] += o.passed[c]
                cells.append("pass" if o.passed[c] else "FAIL")
            else:
                cells.append("n/a")
        why = "; ".join(o.why).replace("|", "/")
        lines.append(f"| {o.wheel} | " + " | ".join(cells) + f" | {why} |")
    lines.append("")
    lines.append(
        "Totals: " + ", ".join(f"{c} {totals[c]}/{counted[c]}" for c in CRITERIA)
        + f"; wheels passing every criterion {sum(all(o.passed.values()) for o in outcomes)}"
        f"/{len(outcomes)}"
    )  # fmt: skip
    if hostile:
        lines += [
            "",
            "| hostile variant | clean | one note | no finding | why |",
            "|---|---|---|---|---|",
        ]
        for o in hostile:
            cells = ["pass" if o.passed.get(c) else "FAIL" for c in ("clean", "note", "no-finding")]
            lines.append(f"| {o.wheel} | " + " | ".join(cells) + f" | {'; '.join(o.why)} |")
        lines.append("")
        lines.append(
            f"Hostile variants passing all three: {sum(all(o.passed.values()) for o in hostile)}/{len(hostile)}"
        )
    for o in environments:
        passed = sum(o.passed.values())
        lines += [
            "",
            f"{o.wheel}: {passed}/{len(o.passed)} GPUs with exactly the expected "
            f"packages affected ({', '.join(o.passed)}){'; ' if o.why else ''}{'; '.join(o.why)}",
        ]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set_dir", nargs="?", type=Path, default=DEFAULT_SET)
    parser.add_argument("--wheels", type=Path, help="default: benchmarks/.work/SET_NAME/wheels")
    parser.add_argument("--truth", action="store_true", help="regenerate the LLVM truth")
    parser.add_argument("--only", help="score the wheels whose file name contains this")
    parser.add_argument("--out", type=Path, help="write the markdown table here too")
    args = parser.parse_args()
    global WORK
    WORK = WORK.parent / args.set_dir.resolve().name
    args.wheels = args.wheels or WORK / "wheels"
    if args.truth:
        make_truth(args.set_dir, args.wheels)
        return 0
    doc = yaml.safe_load((args.set_dir / "expectations.yaml").read_text())
    shutil.rmtree(WORK / "cache", ignore_errors=True)  # compat's own cache: every score cold
    wheels = {w["filename"]: w for w in doc["wheels"]}
    outcomes = []
    for wheel in doc["wheels"]:
        if args.only and args.only not in wheel["filename"]:
            continue
        outcome = score_wheel(wheel, args.wheels)
        print(wheel["filename"], outcome.passed, outcome.why[:3], file=sys.stderr, flush=True)
        outcomes.append(outcome)
    hostile = [
        score_hostile(case, wheels, args.wheels)
        for case in doc.get("hostile", [])
        if not args.only or args.only in case["wheel"]
    ]
    environments = [score_environment(e, wheels, args.wheels) for e in doc.get("environments", [])]
    table = render(outcomes, hostile, environments)
    print(table)
    if args.out:
        args.out.write_text(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
