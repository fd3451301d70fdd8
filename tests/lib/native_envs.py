"""Installed environments built from real wheels (issue 33): each recipe writes a site-packages
directory with the wheels' real dist-info files (METADATA, RECORD, WHEEL, top_level.txt) and the
skeletons of their native files (tests/lib/skeleton.py) at their RECORD paths, sparse.

The recipes:

- `clean`: torchaudio 2.5.1 beside torch 2.5.1, the torch it was built for;
- `other_torch`: torchaudio 2.5.1 beside torch 2.4.1 (built against another torch);
- `nccl_twice`: torch 2.5.1 with its nvidia-nccl-cu12 2.21.5, then nvidia-nccl-cu13 2.30.7
  installed over it: both RECORDs own `nvidia/nccl/lib/libnccl.so.2`, the file on disk is cu13's
  (WMD-group/SMACT#656);
- `xformers`: xformers 0.0.28.post3 (built for torch 2.5.1) with torch 2.5.1;
- `bitsandbytes`: bitsandbytes 0.45.0 (one library per CUDA version) with torch 2.5.1.

torch 2.5.1 comes with the two CUDA wheels of its requirements whose libraries the extensions
need (nvidia-cuda-runtime-cu12 12.4.127: libcudart.so.12; nvidia-nccl-cu12 2.21.5). Every other
requirement of the installed wheels (sympy, the other nvidia-* wheels, ...) is, with
`stand_ins=True`, a plain dist-info at the version the requirement pins (else its lowest
allowed version, else 1.0), so version rules see a consistent environment; the native findings
are the test's subject. EXPECTED.md in tests/data/native says what the files hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.dists import make_dist
from tests.lib.skeleton import NATIVE, WheelFixture, restore, wheel

TORCH_251 = ("nvidia-cuda-runtime-cu12-12.4.127", "nvidia-nccl-cu12-2.21.5", "torch-2.5.1")
TORCH_241 = ("torch-2.4.1",)

RECIPES: dict[str, tuple[str, ...]] = {
    "clean": (*TORCH_251, "torchaudio-2.5.1"),
    "other_torch": (*TORCH_241, "torchaudio-2.5.1"),
    "nccl_twice": (*TORCH_251, "nvidia-nccl-cu13-2.30.7"),
    "xformers": (*TORCH_251, "xformers-0.0.28.post3"),
    "bitsandbytes": (*TORCH_251, "bitsandbytes-0.45.0"),
}
"""Each recipe's wheels (project-version, as MANIFEST.json names them), in install order: a
later wheel's file replaces an earlier one's at the same path, as pip leaves it."""

# The machine the wheels are for (their tags): Linux x86_64, CPython 3.11.
_MARKERS: dict[str, str] = {
    **{key: str(value) for key, value in default_environment().items()},
    "python_version": "3.11",
    "python_full_version": "3.11.9",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "sys_platform": "linux",
    "os_name": "posix",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
}


def install(site: Path, fixture: WheelFixture) -> None:
    """One wheel, as the recipe installs it: its dist-info files verbatim, its native files as
    sparse skeletons at their paths."""
    for name in fixture.dist_info:
        target = site / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(fixture.dist_info_text(name))
    for member in fixture.members:
        restore(member.skeleton, site / member.path)
    # Small text files of the wheel the readers need, verbatim (torch/version.py: its CUDA build)
    files = NATIVE / fixture.wheel.removesuffix(".whl") / "files"
    for source in sorted(files.rglob("*")) if files.is_dir() else ():
        if source.is_file():
            target = site / source.relative_to(files)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())


def requirements(fixture: WheelFixture) -> list[Requirement]:
    """The wheel's Requires-Dist that apply on the wheels' machine, without extras."""
    metadata = next(n for n in fixture.dist_info if n.endswith("/METADATA"))
    text = fixture.dist_info_text(metadata).decode("utf-8")
    found: list[Requirement] = []
    for line in text.split("\n\n", 1)[0].splitlines():
        if not line.startswith("Requires-Dist:"):
            continue
        requirement = Requirement(line.split(":", 1)[1].strip())
        if requirement.marker is None or requirement.marker.evaluate({**_MARKERS, "extra": ""}):
            found.append(requirement)
    return found


def _stand_in_version(requirement: Requirement) -> str:
    for spec in requirement.specifier:
        if spec.operator in ("==", "==="):
            return spec.version
    for spec in requirement.specifier:
        if spec.operator in (">=", "~="):
            return spec.version
    return "1.0"


def write_env(site: Path, wheels: Sequence[str], *, stand_ins: bool = True) -> Path:
    """Write the wheels (project-version keys of MANIFEST.json) into `site`, in order; with
    `stand_ins`, a plain distribution for every requirement no wheel of the list provides."""
    fixtures = [wheel(key) for key in wheels]
    for fixture in fixtures:
        install(site, fixture)
    if stand_ins:
        present = {canonicalize_name(f.project) for f in fixtures}
        for fixture in fixtures:
            for requirement in requirements(fixture):
                name = canonicalize_name(requirement.name)
                if name in present:
                    continue
                present.add(name)
                make_dist(site, requirement.name, _stand_in_version(requirement))
    return site


def write_recipe(site: Path, recipe: str, *, stand_ins: bool = True) -> Path:
    """The environment of one recipe (RECIPES) in `site`."""
    return write_env(site, RECIPES[recipe], stand_ins=stand_ins)
