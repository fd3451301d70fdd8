"""Which platforms and Pythons each release has wheels for, from data generated out of PyPI's file
lists (compat/data/wheels.json, written by scripts/gen_wheels.py), and the three derived facts
that read it:

* `wheel: none`: a declared release has no file pip can install on the target (no wheel for its
  platform and Python, no sdist, or a Requires-Python that excludes it): the install fails;
* `wheel: source-build`: a release that ships wheels has none for the target but an sdist: pip
  builds it there (and a package with CUDA extensions needs the CUDA toolkit, nvcc, to do so);
* `wheel: cpu-build`: the torch wheel PyPI ships for linux/aarch64 declares no CUDA runtime
  (torch before 2.11): a CPU build, on a host with NVIDIA GPUs.

Packages installed ones are never judged for availability (they are installed), and packages a
conda file declares are conda's builds, not PyPI's wheels. The table is read only when a fact
asks about a package it lists (TABLE_PACKAGES says which without reading it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from packaging.specifiers import InvalidSpecifier
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import InvalidVersion, Version

from compat.kb.conditions import FALSE, HARDWARE_HINT
from compat.kb.releasetable import ReleaseTable
from compat.model import Facts, Fix, MatchedPackage, PackageFact, Tri, Unknown, Verdict
from compat.specifiers import contains
from compat.versions import release_key

# The packages compat/data/wheels.json records (scripts/gen_wheels.py PACKAGES;
# tests/unit/kb/test_wheels.py keeps the two equal), so that a fact about other packages never reads the table.
TABLE_PACKAGES = frozenset(
    {
        "accelerate", "bitsandbytes", "datasets", "deepspeed", "flash-attn", "flash-attn-3",
        "flashinfer-python", "fsspec", "huggingface-hub", "numba", "numpy", "nvidia-cudnn-cu12",
        "nvidia-nccl-cu12", "nvidia-nccl-cu13", "openrlhf", "pandas", "peft", "pyarrow", "ray",
        "safetensors", "tokenizers", "torch", "torchao", "torchaudio", "torchvision",
        "transformer-engine", "transformer-engine-torch", "transformers", "triton", "trl", "vllm",
        "xformers",
    }
)  # fmt: skip
# Packages whose source build compiles CUDA extensions, so that building from the sdist needs the
# CUDA toolkit (nvcc) and a torch to build against: each one's build script says so.
NEEDS_NVCC: Mapping[str, str] = {
    "vllm": "setup.py builds its CUDA kernels with CMake and nvcc (CUDA_HOME)",
    "xformers": "setup.py builds its CUDA extensions with torch.utils.cpp_extension (nvcc)",
    "flash-attn": "setup.py compiles its CUDA kernels with nvcc when no prebuilt wheel matches",
    "flash-attn-3": "setup.py compiles its CUDA kernels with nvcc",
    "flashinfer-python": "its kernels are compiled with nvcc (ahead of time or at first use)",
    "transformer-engine": "its build compiles CUDA sources with nvcc",
    "transformer-engine-torch": "its build compiles CUDA sources with nvcc",
    "bitsandbytes": "its CUDA library is built with CMake and nvcc",
}
FIRST_AARCH64_CUDA_NOTE = (
    "or a CUDA build for linux/aarch64 from the PyTorch index (download.pytorch.org/whl/cuXYZ), "
    "where it publishes one for this release"
)


@cache
def _table() -> Mapping[str, list[dict[str, Any]]]:
    text = resources.files("compat").joinpath("data/wheels.json").read_text("utf-8")
    packages: Mapping[str, list[dict[str, Any]]] = json.loads(text)["packages"]
    return packages


@cache
def _assets() -> ReleaseTable[dict[str, Any]]:
    text = resources.files("compat").joinpath("data/wheels.json").read_text("utf-8")
    assets: Mapping[str, dict[str, Any]] = json.loads(text)["flash_attn_assets"]
    return ReleaseTable(assets)


@cache
def _index(name: str) -> ReleaseTable[dict[str, Any]]:
    return ReleaseTable((v, run) for run in _table().get(name, []) for v in run["releases"])


def releases(name: str) -> tuple[Version, ...]:
    return _index(name).releases()


def run_starts() -> dict[str, set[str]]:
    """`>=first` of every run, per package: specifiers that separate releases the table tells
    apart (pin's solver treats releases on the same side of every specifier as alike)."""
    return {name: {f">={run['releases'][0]}" for run in runs} for name, runs in _table().items()}


# ---------------------------------------------------------------------------------------------
# The target


def target_platform(markers: Mapping[str, str]) -> str | None:
    """`linux/aarch64`, `linux/x86_64`, `darwin/arm64`, `win32/AMD64` from a PEP 508
    environment; None for a platform the table does not name."""
    system = markers.get("sys_platform", "")
    machine = markers.get("platform_machine", "")
    if system.startswith("linux"):
        machine = {"arm64": "aarch64", "amd64": "x86_64", "AMD64": "x86_64"}.get(machine, machine)
        return f"linux/{machine}" if machine else None
    if system == "darwin":
        return f"darwin/{machine}" if machine in ("arm64", "x86_64") else None
    if system == "win32":
        machine = {"amd64": "AMD64", "x86_64": "AMD64", "arm64": "ARM64"}.get(machine, machine)
        return f"win32/{machine}" if machine in ("AMD64", "ARM64") else None
    return None


def target_python(markers: Mapping[str, str], fallback: Version | None = None) -> Version | None:
    try:
        return Version(markers.get("python_full_version") or markers.get("python_version", ""))
    except InvalidVersion:
        return fallback


def _python_ok(tag: str, python: Version) -> bool:
    """Whether a recorded Python tag (`cp311`, `abi3:cp39`, `py3`, `py38`) installs on CPython
    `python`."""
    parsed = _parsed_tag(tag)
    if parsed is None:
        return False
    kind, major, minor, stable = parsed
    if major != python.major:
        return False
    if not minor:
        return kind == "py"
    if kind == "cp" and not stable:
        return python.minor == int(minor)
    return python.minor >= int(minor)


@cache
def _parsed_tag(tag: str) -> tuple[str, int, str, bool] | None:
    # (kind, major, minor digits, abi3) of a table's tag; parsed once, as the table's tags are
    # few and asked about for every release and target (issue 45).
    match = re.fullmatch(r"(cp|py)(\d)(\d*)", tag.removeprefix("abi3:"))
    if match is None:
        return None
    return match.group(1), int(match.group(2)), match.group(3), tag.startswith("abi3:")


def _tags_text(tags: Sequence[str]) -> str:
    shown = [t.replace("abi3:", "abi3 from ") for t in tags]
    return ", ".join(shown) if len(shown) <= 3 else f"{shown[0]} ... {shown[-1]}"


def availability(
    name: str, version: Version, platform: str, python: Version
) -> tuple[str, str, str] | None:
    """(kind, why, cause) of a release on a target: cause `python` or `platform` (which of the
    two the verdict turns on), kind `wheel` (pip installs a wheel), `source-build`
    (no wheel; pip builds the sdist), `none` (nothing installs), `sdist-only` (the release ships
    no wheel anywhere: building is its normal install); None when the table does not know the
    release (a pre-release, a local build, older or newer than the table). PyPI serves no local
    version: `2.2.0+cu121` is another index's file, so the table does not speak for it."""
    run = None if version.local is not None else _index(name).get(version)
    if run is None:
        return None
    python_short = f"{python.major}.{python.minor}"
    requires = run.get("requires_python")
    if requires:
        try:
            allowed = contains(requires, python)
        except InvalidSpecifier:
            allowed = True
        if not allowed:
            why = f"its Requires-Python is {requires}: pip installs nothing on {python_short}"
            return "none", why, "python"
    wheels: Mapping[str, list[str]] = run["wheels"]
    if not wheels:
        return "sdist-only", "PyPI has only its sdist", ""
    for key in (platform, "any"):
        if any(_python_ok(tag, python) for tag in wheels.get(key, ())):
            return "wheel", "", ""
    here = wheels.get(platform) or wheels.get("any")
    cause = "python" if here else "platform"
    if here:
        missing = f"no wheel for Python {python_short} on {platform} (its wheels there: {_tags_text(here)})"
    else:
        elsewhere = ", ".join(sorted(wheels))
        missing = f"no wheel for {platform} (wheels for {elsewhere} only)"
    if run["sdist"]:
        return "source-build", missing + "; pip builds it from the sdist", cause
    return "none", missing + " and no sdist: the install fails", cause


def aarch64_cpu(version: Version) -> bool | None:
    """Whether PyPI's linux/aarch64 torch wheel of this release is a CPU build: its metadata
    declares no CUDA runtime (nvidia-*) requirement there. None when not recorded."""
    run = None if version.local is not None else _index("torch").get(version)
    if run is None or "aarch64_cuda" not in run:
        return None
    return not run["aarch64_cuda"]


def first_aarch64_cuda() -> Version | None:
    found = [v for v, run in _index("torch").items() if run.get("aarch64_cuda")]
    return min(found) if found else None


def nearest_installable(
    name: str, version: Version, platform: str, python: Version
) -> tuple[Version, bool] | None:
    """The release to move to: the first later one with a wheel for the target, else the newest
    earlier one; with whether every later recorded release has one too."""
    version = release_key(version)
    ordered = releases(name)
    good = [v for v in ordered if (availability(name, v, platform, python) or ("",))[0] == "wheel"]
    later = [v for v in good if v > version]
    chosen = later[0] if later else max((v for v in good if v < version), default=None)
    if chosen is None:
        return None
    return chosen, all(v in good for v in ordered if v >= chosen)


# ---------------------------------------------------------------------------------------------
# The derived facts


def _candidates(facts: Facts) -> Iterator[PackageFact]:
    conda = facts.conda_packages
    for name in sorted(facts.packages):
        fact = facts.packages[name]
        if name in TABLE_PACKAGES and name not in conda and not fact.installed:
            yield fact


def wheel_missing(facts: Facts, want: str) -> Verdict:
    """`wheel: none` / `wheel: source-build` for the declared packages on the target."""
    if facts.markers is None:
        return FALSE
    candidates = list(_candidates(facts))
    if not candidates:
        return FALSE  # the table is not read
    platform = target_platform(facts.markers)
    python = target_python(facts.markers, facts.python_version)
    if platform is None or python is None:
        return FALSE
    found: list[tuple[PackageFact, Version, str, str]] = []
    for fact in candidates:
        if any(v.local is not None for v in fact.versions):
            continue  # a local build: not PyPI's files
        if fact.name == "flash-attn":
            assets = flash_attn_source_build(fact, facts, platform, python)
            if assets is not None and want == "source-build":
                found.append((fact, fact.versions[0], *assets))
            continue
        verdicts = [
            availability(fact.name, Version(v.public), platform, python) for v in fact.versions
        ]
        known = [v for v in verdicts if v is not None]
        if not known or len(known) < len(verdicts):
            continue  # a release the table does not know
        if {kind for kind, _, _ in known} == {want}:
            # a range is judged only when no release it allows installs a wheel
            found.append((fact, fact.versions[0], known[0][1], known[0][2]))
    if not found:
        return FALSE
    texts, constraints = [], []
    for fact, version, why, _ in found:
        where = f" ({fact.origin})" if fact.origin else ""
        label = f"{fact.label} {version}" if fact.exact else (fact.requirement or fact.label)
        text = f"{label}{where}: {why}"
        if want == "source-build" and fact.name in NEEDS_NVCC:
            text += f", which needs the CUDA toolkit (nvcc) and torch at build time ({NEEDS_NVCC[fact.name]})"
        texts.append(text)
        move = nearest_installable(fact.name, Version(version.public), platform, python)
        if move is not None:
            target, all_later = move
            constraints.append(
                f"{fact.name}>={target}"
                if all_later and target > version
                else f"{fact.name}=={target}"
            )
    matched = tuple(
        MatchedPackage(f.name, str(v) if f.exact else "*", f.origin) for f, v, _, _ in found
    )
    python_short = f"{python.major}.{python.minor}"
    fix = Fix(
        f"pin releases with a wheel for {platform} and Python {python_short}"
        + (f" ({', '.join(constraints)})" if constraints else "")
        + ", or judge for the platform and Python you install on (--platform, --python-version)",
        tuple(constraints),
    )
    causes = {cause for *_, cause in found}
    open_ = sorted(c for c in causes if c in facts.target_assumed or c == "assets")
    if len(open_) == len(causes):
        # every one turns on the Python or platform check took from the machine it runs on, or
        # on a release asset the publish matrix does not list
        unknown = tuple(Unknown(_UNKNOWN_FACTS[cause], _TARGET_HINTS[cause]) for cause in open_)
        return Verdict(Tri.UNKNOWN, ("; ".join(texts),), unknown, matched, anchored=True)
    return Verdict(Tri.TRUE, ("; ".join(texts),), (), matched, anchored=True, fix=fix)


def flash_attn_source_build(
    fact: PackageFact, facts: Facts, platform: str, python: Version
) -> tuple[str, str] | None:
    """(why, cause) when a pinned flash-attn's setup.py finds no prebuilt wheel among its
    release's assets for the target (compat/data/wheels.json flash_attn_assets, from the
    publish matrix at the release tag) and compiles with nvcc; None when it finds one or
    nothing says (a range, torch unpinned, a release whose setup.py never downloads)."""
    if not fact.exact:
        return None
    version = fact.versions[0]
    entry = _assets().get(version)
    if entry is None or not entry["combos"]:
        return None
    tag = f"{entry['tag']} ({entry['commit'][:12]})"
    if platform != entry["platform"]:
        why = (
            f"its release {tag} publishes prebuilt wheels for {entry['platform']} only, so on "
            f"{platform} setup.py compiles it"
        )
        return why, "platform"
    torch = facts.packages.get(canonicalize_name("torch"))
    if torch is None or not torch.exact:
        return None
    series = f"{torch.versions[0].major}.{torch.versions[0].minor}"
    cuda = facts.builds.get("torch_cuda")
    py = f"{python.major}.{python.minor}"
    combos = [tuple(c.split("|")) for c in entry["combos"]]
    wanted = [c for c in combos if cuda is None or c[2] == str(cuda.major)]
    if any(c[0] == py and c[1] == series for c in wanted):
        return None
    cuda_text = f", CUDA {cuda.major}" if cuda is not None else ""
    why = (
        f"its release {tag} has no prebuilt wheel for torch {series}{cuda_text} on Python {py} "
        f"(it builds torch {', '.join(sorted({c[1] for c in combos}, key=Version))}), so "
        "setup.py compiles it"
    )
    # The matrix at the tag is what the release built; an asset uploaded by hand later is not in
    # it, so whether the asset exists stays a question (settled by the release's asset list).
    return why, "assets"


_TARGET_HINTS = {
    "python": "--python-version X.Y (the Python it is installed with), or requires-python",
    "platform": "--platform (the OS/machine it is installed on), or a hardware profile",
    "assets": "the GitHub release's asset list (a flash_attn-...+cu12torchX.Y wheel for this "
    "Python), or pin a prebuilt wheel URL",
}
_UNKNOWN_FACTS = {
    "python": "target.python",
    "platform": "target.platform",
    "assets": "packages.flash-attn.assets",
}


def cpu_build(facts: Facts) -> Verdict:
    """`wheel: cpu-build`: torch from PyPI on linux/aarch64, a release whose wheel there declares
    no CUDA runtime, on a host with NVIDIA GPUs."""
    torch = facts.packages.get(canonicalize_name("torch"))
    if torch is None or facts.markers is None or "torch" in facts.conda_packages:
        return FALSE
    if target_platform(facts.markers) != "linux/aarch64":
        return FALSE
    if "torch_cuda" in facts.builds:
        return FALSE  # a CUDA build: a local label, a PyTorch index, conda, torch/version.py
    if any(v.local is not None or v.is_prerelease for v in torch.versions):
        return FALSE  # not PyPI's wheel (NVIDIA's containers, a +cpu or source build)
    cpu = [aarch64_cpu(v) for v in torch.versions]
    if not cpu or not all(cpu):
        return FALSE  # a release with CUDA on aarch64 there, or one the table does not know
    if "torch_cuda" in facts.unknown_builds:
        return Verdict(
            Tri.UNKNOWN, unknown=(Unknown("build.torch_cuda", facts.unknown_builds["torch_cuda"]),)
        )
    where = f" ({torch.origin})" if torch.origin else ""
    label = f"torch {torch.versions[0]}" if torch.exact else (torch.requirement or "torch")
    text = (
        f"{label}{where}: PyPI's linux/aarch64 wheel of this release declares its nvidia-* and "
        "triton requirements for x86_64 only: a CPU build (torch.cuda.is_available() is False)"
    )
    matched = MatchedPackage(
        torch.name, str(torch.versions[0]) if torch.exact else "*", torch.origin
    )
    hardware = facts.hardware
    if hardware is None:
        return Verdict(
            Tri.UNKNOWN,
            (text,),
            (Unknown("hardware.gpu_count", HARDWARE_HINT),),
            (matched,),
            anchored=True,  # the release's CPU build is a fact; only the GPUs are open
        )
    if not hardware.gpus:
        return FALSE  # a CPU build on a CPU host is what it should be
    first = first_aarch64_cuda()
    fix = Fix(
        f"torch {first} is the first release whose linux/aarch64 wheel on PyPI carries CUDA"
        if first
        else "no torch release on PyPI carries CUDA on linux/aarch64",
        (f"torch>={first}",) if first else (),
        FIRST_AARCH64_CUDA_NOTE,
    )
    return Verdict(
        Tri.TRUE,
        (text + f", on {len(hardware.gpus)} NVIDIA GPU(s)",),
        (),
        (matched,),
        anchored=True,
        fix=fix,
    )


def installable(
    name: str, versions: set[Version], markers: Mapping[str, str], keep: Version | None = None
) -> set[Version]:
    """The releases pin may propose on the target: those with a wheel for it (or not recorded,
    or sdist-only projects), and `keep` (what is installed now) whatever the table says."""
    if canonicalize_name(name) not in TABLE_PACKAGES:
        return versions  # the table is not read
    platform = target_platform(markers)
    python = target_python(markers)
    if platform is None or python is None:
        return versions
    out = set()
    for version in versions:
        found = None if version.local else availability(name, version, platform, python)
        if version == keep or found is None or found[0] in ("wheel", "sdist-only"):
            out.add(version)
    return out


def names() -> tuple[NormalizedName, ...]:
    return tuple(NormalizedName(n) for n in sorted(TABLE_PACKAGES))


# ---------------------------------------------------------------------------------------------
# flash-attn's release wheel for a torch series, compiled against another build of that series


def flash_attn_built_against(version: Version, series: str) -> Version | None:
    """The torch flash-attn `version`'s release wheels for torch `series` were compiled against,
    from the publish matrix at its tag; None when setup.py fetches no wheel for the series (or
    the matrix built two releases of it, so which one the asset holds is not recorded)."""
    entry = _assets().get(version)
    if entry is None:
        return None
    built = entry.get("built_against", {}).get(series, [])
    return Version(built[0]) if len(built) == 1 else None


def _other_build(built: Version, installed: Version) -> bool:
    """A nightly or pre-release on one side and not the same release on the other: C++ symbols
    move between a nightly and the final (the 2.3.0.dev20240207 build of 2.5.7's torch 2.3 wheels
    needs `_ZN3c104cuda9SetDeviceEi`, which 2.3.0 does not export). Two final releases of one
    series are not judged."""
    return (built.is_prerelease or installed.is_prerelease) and Version(built.public) != Version(
        installed.public
    )


def flash_attn_prerelease_torch(facts: Facts) -> Verdict:
    """`flash_attn_wheel: prerelease-torch`: flash-attn's setup.py fetches the release wheel
    named for torch's major.minor, and that wheel was compiled against another build of the
    series than the torch installed (a nightly of it, or the final beside an installed
    pre-release such as NGC's 2.1.0a0). TRUE only where the wheel is the one setup.py fetches:
    Linux x86_64 (off it setup.py compiles against the torch present), a Python the matrix built
    for the series; UNKNOWN when the Python is not known."""
    flash = facts.packages.get(canonicalize_name("flash-attn"))
    torch = facts.packages.get(canonicalize_name("torch"))
    if not facts.packages_known and (flash is None or torch is None):
        # a log that does not show a version: open, never outside the rule
        missing = [name for name, fact in (("flash-attn", flash), ("torch", torch)) if fact is None]
        return Verdict(
            Tri.UNKNOWN,
            unknown=tuple(
                Unknown(f"packages.{name}", "an environment or requirement file (--python, --path)")
                for name in missing
            ),
        )
    if flash is None or torch is None or not flash.exact or not torch.exact:
        return FALSE
    installed = torch.versions[0]
    series = f"{installed.major}.{installed.minor}"
    label = re.search(r"torch(\d+\.\d+)", flash.versions[0].local or "")
    if label is not None and label.group(1) != series:
        return FALSE  # a wheel for another series: flash-attn-built-for-another-torch says so
    release = Version(flash.versions[0].public)
    built = flash_attn_built_against(release, series)
    if built is None or not _other_build(built, installed):
        return FALSE
    entry = _assets()[release]
    if facts.markers is not None:
        platform = target_platform(facts.markers)
        if platform != entry["platform"]:
            return FALSE  # setup.py compiles it against the torch present
    python = facts.python_version
    if python is None and facts.markers is not None:
        python = target_python(facts.markers)
    tag = f"{entry['tag']} ({entry['commit'][:12]})"
    why = (
        f"flash-attn {release}'s release wheel for torch {series} ({tag}) was compiled against "
        f"torch {built}, not the installed {installed}"
    )
    matched = (
        MatchedPackage(flash.name, str(flash.versions[0]), flash.origin),
        MatchedPackage(torch.name, str(installed), torch.origin),
    )
    if python is None:
        return Verdict(
            Tri.UNKNOWN,
            (why,),
            (
                Unknown(
                    "python",
                    "--python-version X.Y (the Python it runs under), or the log's "
                    "flash_attn_2_cuda.cpython-3XY name",
                ),
            ),
            matched,
            anchored=True,
        )
    pythons = {c.split("|")[0] for c in entry["combos"] if c.split("|")[1] == series}
    if f"{python.major}.{python.minor}" not in pythons:
        return FALSE  # no wheel for this Python: setup.py compiled it against the torch present
    fixed = _first_final_build(release, series)
    fix = Fix(
        (
            f"install flash-attn {fixed}, whose wheel for torch {series} is built against a final "
            "release, "
            if fixed is not None
            else ""
        )
        + "or build flash-attn against the installed torch (FLASH_ATTENTION_FORCE_BUILD=TRUE "
        "pip install --no-build-isolation --no-cache-dir flash-attn)",
        (f"flash-attn>={fixed}",) if fixed is not None else (),
    )
    return Verdict(Tri.TRUE, (why,), (), matched, anchored=True, fix=fix)


def _first_final_build(release: Version, series: str) -> Version | None:
    """The first release after `release` whose wheel for `series` is built against a final."""
    for version in _assets().releases():
        if version <= release:
            continue
        built = flash_attn_built_against(version, series)
        if built is not None and not (built.is_prerelease or built.is_devrelease):
            return version
    return None


def flash_attn_asset_releases() -> tuple[str, ...]:
    """The flash-attn releases whose publish matrix the table records."""
    return tuple(str(v) for v in _assets())


def flash_attn_prerelease_rows() -> int:
    """(release, series) pairs whose wheel was compiled against a pre-release of the series."""
    return sum(
        1
        for entry in _assets().values()
        for builds in entry.get("built_against", {}).values()
        if len(builds) == 1 and Version(builds[0]).is_prerelease
    )
