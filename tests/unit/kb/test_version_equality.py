"""One version equality (issue 32 item 4): every generated table answers alike for every PEP 440
spelling of a release.

`2.2`, `2.2.0` and `2.2.0.0` are one release, and a local label names a build of its public
release (`2.2.0+cu121` is torch 2.2.0 built for CUDA 12.1). compat reads its generated tables
(compat/data/*.json) through one key, `compat.versions.release_key`, and one mapping,
`compat.kb.releasetable.ReleaseTable`. These tests hold every reader to it, for every version each table holds: the
shortest spelling (trailing zeros dropped), the two-, three- and four-part ones, and the same with
a local label. A reader of a table of PyPI's files (wheels, the dependency snapshot) answers for a
local build as for a release it does not record: PyPI serves no local version.

READERS and DERIVED_CASES name every reader; the first two tests fail when compat gains a module
that reads compat/data/ or a derived fact they do not list, so a new table joins the property.
The last tests run the reported case through the CLI: `torch==2.2` and `torch==2.2.0` on two
RTX 5090s give the same findings.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.kb import archtable, derived, nativelibs, torchbuilds, wheels
from compat.kb.derived import DerivedCondition
from compat.kb.examples import facts_from_example
from compat.kb.releasetable import ReleaseTable
from compat.model import Origin, Tri, Verdict
from compat.resolve.sources import snapshot
from compat.versions import release_key
from tests.checkcli import check, write
from tests.lib import paths
from tests.lib.hardware import profile

DATA = paths.COMPAT / "data"
ABSENT = Version(
    "0.0.0.dev987654"
)  # a version no table records (lightning-sdk published 0.0.0.dev0)
ORIGIN = Origin("version-equality", 1)


# ---------------------------------------------------------------------------------------------
# Spellings


def _suffix(version: Version) -> str:
    text = f"{version.pre[0]}{version.pre[1]}" if version.pre else ""
    text += f".post{version.post}" if version.post is not None else ""
    return text + (f".dev{version.dev}" if version.dev is not None else "")


def spellings(version: Version) -> list[Version]:
    """Every spelling of the release: trailing zeros dropped, then padded up to four parts."""
    release = list(version.release)
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    epoch = f"{version.epoch}!" if version.epoch else ""
    out = []
    for width in range(len(release), max(len(version.release), 4) + 1):
        parts = [*release, *[0] * (width - len(release))]
        out.append(Version(epoch + ".".join(map(str, parts)) + _suffix(version)))
    return out


def labelled(version: Version, label: str) -> Version:
    return Version(f"{version.public}+{label}")


def test_spellings_are_what_they_say() -> None:
    assert [str(v) for v in spellings(Version("2.2.0"))] == ["2.2", "2.2.0", "2.2.0.0"]
    assert [str(v) for v in spellings(Version("2.0.0"))] == ["2", "2.0", "2.0.0", "2.0.0.0"]
    assert [str(v) for v in spellings(Version("0.40.0.post2"))] == [
        "0.40.post2",
        "0.40.0.post2",
        "0.40.0.0.post2",
    ]
    assert [str(v) for v in spellings(Version("4.10.0.84"))] == ["4.10.0.84"]


# ---------------------------------------------------------------------------------------------
# The key itself, as a property over any release


_releases = st.lists(st.integers(min_value=0, max_value=40), min_size=1, max_size=4)
_labels = st.from_regex(r"[a-z0-9]{1,8}(\.[a-z0-9]{1,4}){0,2}", fullmatch=True)


@given(
    release=_releases, zeros=st.integers(0, 3), label=_labels, post=st.none() | st.integers(0, 9)
)
@settings(max_examples=300, deadline=None)
def test_any_spelling_and_any_local_label_is_one_key(
    release: list[int], zeros: int, label: str, post: int | None
) -> None:
    tail = "" if post is None else f".post{post}"
    written = Version(".".join(map(str, release)) + tail)
    spelled = Version(".".join(map(str, [*release, *[0] * zeros])) + tail)
    table = ReleaseTable({str(written): "row"})
    for asked in (spelled, labelled(spelled, label)):
        assert release_key(asked) == release_key(written)
        assert table.get(asked) == "row" and asked in table
    assert table.releases() == (written,)
    assert Version(f"{written}.dev0") not in table  # a dev build is not the release


def test_two_spellings_of_one_release_in_one_table_are_refused() -> None:
    with pytest.raises(ValueError, match="one release"):
        ReleaseTable([("2.2", 1), ("2.2.0", 2)])


# ---------------------------------------------------------------------------------------------
# Every reader of a generated table


@dataclass(frozen=True)
class Reader:
    """One table's reader: `cases` are (context, version) pairs taken from the table, `answer`
    what the reader says of a context and a version. `local` says what a local label gets: the
    label(s) to write and whether the answer is the release's (`same`) or that of a version the
    table does not record (`unrecorded`: a table of PyPI's files)."""

    cases: Callable[[], Iterable[tuple[Any, Version]]]
    answer: Callable[[Any, Version], Hashable]
    labels: tuple[str, ...]
    local: str  # "same" | "unrecorded"


def _cuda_spellings(cudas: Iterable[Version]) -> tuple[Version, ...]:
    return tuple(s for cuda in cudas for s in spellings(cuda))


def _arch_answer(_: None, version: Version) -> Hashable:
    release = archtable.release_of(version)
    if release is None:
        return None
    builds = archtable.builds_of(release)
    cudas = _cuda_spellings(builds)
    return (
        release in archtable.releases(),
        builds,
        tuple(archtable.arch_list(release, c) for c in cudas),
        tuple(archtable.evidence(release, c) for c in cudas),
        archtable.fixing_builds(release, (Version("12.0"), Version("8.0")), Version("12.9")),
        archtable.fixing_builds(release, (Version("6.0"),), None),
    )


_PLATFORMS = ("linux", "linux/aarch64", "win32", "darwin")


def _builds_answer(_: None, version: Version) -> Hashable:
    variants = torchbuilds.cuda_variants(version)
    return (
        torchbuilds.known_release(version),
        tuple(torchbuilds.default_cuda(version, p) for p in _PLATFORMS),
        variants,
        # every build the table names is found again from its index's URL, however spelled
        tuple(
            torchbuilds.index_cuda(torchbuilds.index_url(c)) == release_key(c)
            for c in _cuda_spellings(variants or ())
        ),
    )


def _wheel_cases() -> Iterator[tuple[str, Version]]:
    for name in sorted(wheels.TABLE_PACKAGES):
        for version in wheels.releases(name):
            yield name, version


_TARGETS = (
    ("linux/x86_64", Version("3.11")),
    ("linux/aarch64", Version("3.10")),
    ("win32/AMD64", Version("3.12")),
)


def _wheel_answer(name: str, version: Version) -> Hashable:
    return (
        tuple(wheels.availability(name, version, p, py) for p, py in _TARGETS),
        wheels.aarch64_cpu(version) if name == "torch" else None,
    )


def _nearest_cases() -> Iterator[tuple[str, Version]]:
    """Each package's first and last release and those a shorter spelling names (x.y.0): the
    search walks the whole release list per call, so not every release."""
    for name in sorted(wheels.TABLE_PACKAGES):
        ordered = wheels.releases(name)
        zeros = [v for v in ordered if v.release[-1] == 0]
        yield from (
            (name, v) for v in {ordered[0], ordered[-1], *zeros[:: max(1, len(zeros) // 6)]}
        )


def _nearest_answer(name: str, version: Version) -> Hashable:
    return wheels.nearest_installable(name, version, *_TARGETS[0])


@cache
def _flash_series() -> tuple[str, ...]:
    document = json.loads((DATA / "wheels.json").read_text())
    return tuple(
        sorted(
            {s for entry in document["flash_attn_assets"].values() for s in entry["built_against"]}
        )
    )


def _flash_answer(_: None, version: Version) -> Hashable:
    return tuple(wheels.flash_attn_built_against(version, s) for s in _flash_series())


_BNB_CUDAS = tuple(Version(c) for c in ("11.8", "12.1", "12.4", "12.6", "12.8", "13.0", "13.2"))


def _native_answer(_: None, version: Version) -> Hashable:
    cudas = _cuda_spellings(_BNB_CUDAS)
    return (
        nativelibs.shipped(version),
        tuple(nativelibs.loads(version, c) for c in cudas),
        tuple(nativelibs.first_loading(c, version) for c in _BNB_CUDAS),
    )


def _snapshot_cases() -> Iterator[tuple[Any, Version]]:
    for name in snapshot.names():
        for record in snapshot.records(name):
            if not record.yanked:  # releases() leaves yanked ones out (records() marks them)
                yield name, record.version


def _snapshot_answer(name: Any, version: Version) -> Hashable:
    releases = snapshot.releases(name)
    return (version in releases, releases.get(version), version in snapshot.published(name))


def _one(values: Callable[[], Iterable[Version]]) -> Callable[[], Iterator[tuple[None, Version]]]:
    return lambda: ((None, v) for v in values())


READERS: dict[str, Reader] = {
    "compat.kb.archtable": Reader(_one(archtable.releases), _arch_answer, ("cu121",), "same"),
    "compat.kb.torchbuilds": Reader(
        _one(torchbuilds.releases), _builds_answer, ("cu121", "cpu"), "same"
    ),
    "compat.kb.wheels": Reader(_wheel_cases, _wheel_answer, ("cu121",), "unrecorded"),
    "compat.kb.wheels.nearest_installable": Reader(
        _nearest_cases, _nearest_answer, ("cu121",), "same"
    ),
    "compat.kb.wheels.flash_attn_assets": Reader(
        _one(lambda: map(Version, wheels.flash_attn_asset_releases())),
        _flash_answer,
        ("cu12torch2.4cxx11abiFALSE",),
        "same",
    ),
    "compat.kb.nativelibs": Reader(_one(nativelibs.releases), _native_answer, ("cu121",), "same"),
    "compat.resolve.sources.snapshot": Reader(
        _snapshot_cases, _snapshot_answer, ("cu121",), "unrecorded"
    ),
}

# Every module that reads a file of compat/data/, and the readers above that hold it to the key;
# a module whose data is keyed by no version says why.
DATA_READERS: dict[str, tuple[str, ...] | str] = {
    "compat.kb.archtable": ("compat.kb.archtable",),
    "compat.kb.torchbuilds": ("compat.kb.torchbuilds",),
    "compat.kb.wheels": (
        "compat.kb.wheels",
        "compat.kb.wheels.nearest_installable",
        "compat.kb.wheels.flash_attn_assets",
    ),
    "compat.kb.nativelibs": ("compat.kb.nativelibs",),
    # keyed by package name; its versions are bounds compared as versions, judged through the
    # derived fact numpy_abi below
    "compat.kb.numpyabi": "by package: the first NumPy-2 build, compared (DERIVED_CASES)",
    "compat.resolve.sources.snapshot": ("compat.resolve.sources.snapshot",),
    "compat.resolve.check.transitive": "recorded-requires.json: by package, `since` compared",
    # keyed by the sdist's own version text as the index spells it: the entry is handed to uv for
    # exactly that release, never looked up by another spelling
    "compat.resolve.resolvers.staticmeta": "sdist-requires.json: by the release the index names",
    "compat.facts.condanames": "conda-names.json: by conda package name",
    "compat.probes.libcuda": (
        "forward-compat.json: by the driver's branch (Version.major) and a cuda-compat package's "
        "CUDA as `major.minor` of a parsed Version: 13 and 13.0.0 find one row"
    ),
    "compat.kb.freshness": "kb-inputs.json: by package, the newest release compared",
    "compat.kb.capabilities": "capabilities.yaml: by feature, `since` compared",
    "compat.kb.rocmtargets": "rocm-targets.json: by GPU target name (gfx942), no version",
    "compat.kb.torchrocm": (
        "torch-rocm-arch.json: by release series (major.minor string) and the +rocm label's "
        "numbers as text, one build of a major.minor; ROCm versions sorted as Version"
    ),
    "compat.kb.xformersrocm": (
        "xformers-rocm-arch.json: releases found by Version equality (xformersrocm._row), held "
        "by DERIVED_CASES (xformers_hip_code); the +rocm label's numbers as text, as torchrocm"
    ),
    "compat.kb.flashattnrocm": (
        "flash-attn-rocm-arch.json: releases found by Version equality (flashattnrocm.build_of), "
        "held by DERIVED_CASES (flash_attn_ck_target)"
    ),
    "compat.kb.importtable": (
        "python-imports.json: releases found by versions.release_key (importtable._spelled), "
        "held by tests/unit/kb/test_importtable_spelling.py"
    ),
}

_DATA_FILE = re.compile(r"""(?:data/|"data"\s*/\s*")([A-Za-z0-9_.-]+\.(?:json|yaml)(?:\.gz)?)""")


def _modules_reading_data() -> set[str]:
    names = {p.name for p in DATA.iterdir() if p.name.endswith((".json", ".yaml", ".json.gz"))}
    found = set()
    for path in paths.COMPAT.rglob("*.py"):
        code = "\n".join(
            line for line in path.read_text().splitlines() if not line.lstrip().startswith("#")
        )
        # a docstring names a file as compat/data/X; a reader opens "data/X" or "data" / "X"
        opened = {
            m.group(1)
            for m in _DATA_FILE.finditer(code)
            if not code[max(0, m.start() - 7) : m.start()].endswith("compat/")
        }
        if opened & names:
            parts = path.relative_to(paths.COMPAT.parent).with_suffix("").parts
            found.add(".".join(parts))
    return found


def test_every_module_that_reads_a_generated_table_is_held_to_the_key() -> None:
    assert _modules_reading_data() == set(DATA_READERS), (
        "a module reads compat/data/: add its reader to READERS (or say why it is keyed by no "
        "version) in DATA_READERS"
    )
    for module, readers in DATA_READERS.items():
        if isinstance(readers, tuple):
            assert readers and set(readers) <= set(READERS), module


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_spelling_of_every_release_gets_the_same_answer(name: str) -> None:
    reader = READERS[name]
    cases = list(reader.cases())
    assert cases, f"{name}: its table is empty"
    for context, version in cases:
        expected = reader.answer(context, version)
        for spelled in spellings(version):
            got = reader.answer(context, spelled)
            assert got == expected, f"{name}: {context} {spelled} != {version}"
            for label in reader.labels:
                local = labelled(spelled, label)
                want = expected if reader.local == "same" else reader.answer(context, ABSENT)
                assert reader.answer(context, local) == want, f"{name}: {context} {local}"


def test_the_readers_know_the_releases_they_list() -> None:
    """The property is not vacuous: each table answers for its releases (a lookup that missed
    every spelling alike would pass the property above)."""
    assert all(torchbuilds.known_release(v) for v in torchbuilds.releases())
    assert all(archtable.builds_of(v) for v in archtable.releases())
    assert all(nativelibs.shipped(v) is not None for v in nativelibs.releases())
    for name, version in _wheel_cases():
        found = wheels.availability(name, version, "linux/x86_64", Version("3.11"))
        assert found is not None, (name, version)
    for name, version in _snapshot_cases():
        assert version in snapshot.releases(name) and version in snapshot.published(name)
    assert any(
        _flash_answer(None, Version(v)) != (None,) * len(_flash_series())
        for v in wheels.flash_attn_asset_releases()
    )


# ---------------------------------------------------------------------------------------------
# Every derived fact: the tables as the rules read them


LINUX_311 = {
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "python_version": "3.11",
    "python_full_version": "3.11.9",
}
AARCH64_310 = {
    **LINUX_311,
    "platform_machine": "aarch64",
    "python_version": "3.10",
    "python_full_version": "3.10.14",
}
RTX5090 = {
    "gpus": [
        {"index": i, "name": "NVIDIA GeForce RTX 5090", "compute_capability": "12.0"}
        for i in range(2)
    ],
    "driver_version": "575.57.08",
    "cuda_driver_version": "12.9",
    "schema": "compat.hardware/1",
}
P100 = {
    "gpu": "Tesla P100-PCIE-16GB",
    "compute_capability": "6.0",
    "gpu_count": 2,
    "driver": "570.133.20",
    "cuda_driver": "12.8",
}


@dataclass(frozen=True)
class Case:
    """An example (rule-example shape) whose versions at `spelled` are respelled one at a time:
    ("packages", name) or ("build", key); `labels` the local labels a package may carry that
    name the same build (torch's +cuXYZ label is its CUDA build)."""

    expected: str
    example: Mapping[str, Any]
    spelled: tuple[tuple[str, str], ...]
    labels: Mapping[str, str]
    # the local label is the fact itself (xFormers' "built for 2.3.0+cu118"): respell the
    # release and keep each version's own label
    keep_labels: bool = False


def _torch_kernel_cases() -> Iterator[Case]:
    for release in archtable.releases():
        for cuda in archtable.builds_of(release):
            for hardware in (RTX5090, P100):
                yield Case(
                    "missing",
                    {
                        "packages": {"torch": str(release)},
                        "build": {"torch_cuda": str(cuda)},
                        "hardware": hardware,
                    },
                    (("packages", "torch"), ("build", "torch_cuda")),
                    {"torch": torchbuilds.cuda_tag(cuda)},
                )


def _bnb_cases() -> Iterator[Case]:
    for release in nativelibs.releases():
        for cuda in _BNB_CUDAS:
            yield Case(
                "missing",
                {
                    "packages": {"bitsandbytes": str(release), "torch": "2.5.1"},
                    "build": {"torch_cuda": str(cuda)},
                    "hardware": P100,
                },
                (("packages", "bitsandbytes"), ("build", "torch_cuda")),
                {"bitsandbytes": "cu121"},
            )


def _bnb_major_cases() -> Iterator[Case]:
    """The runtime-loader releases (0.31.8-0.40.0.post4) beside torch builds of every CUDA major."""
    for release in nativelibs.releases():
        for cuda in ("11.8", "12.1", "13.0"):
            yield Case(
                "missing",
                {
                    "packages": {"bitsandbytes": str(release), "torch": "2.5.1"},
                    "build": {"torch_cuda": cuda},
                    "hardware": P100,
                },
                (("packages", "bitsandbytes"), ("build", "torch_cuda")),
                {"bitsandbytes": "cu121"},
            )


def _numpy_cases() -> Iterator[Case]:
    from compat.kb.numpyabi import table

    for name, entry in table().items():
        for version in (entry["first"], entry["last_numpy1"]):
            yield Case(
                "numpy1-build",
                {"packages": {"numpy": "2.0.0", name: version}},
                (("packages", "numpy"), ("packages", name)),
                {name: "local1"},
            )


def _wheel_fact_cases(expected: str) -> Iterator[Case]:
    for name, version in _wheel_cases():
        packages = {name: str(version)}
        if name == "flash-attn":
            packages["torch"] = "2.4.0"
        yield Case(
            expected,
            {"packages": packages, "platform": LINUX_311, "python": "3.11"},
            (("packages", name),),
            {},  # a local build is no file of PyPI's: the wheel facts leave it alone
        )


def _cpu_build_cases() -> Iterator[Case]:
    for version in wheels.releases("torch"):
        yield Case(
            "cpu-build",
            {
                "packages": {"torch": str(version)},
                "platform": AARCH64_310,
                "python": "3.10",
                "hardware": P100,
            },
            (("packages", "torch"),),
            {},
        )


def _flash_prerelease_cases() -> Iterator[Case]:
    document = json.loads((DATA / "wheels.json").read_text())
    for release, entry in document["flash_attn_assets"].items():
        for series, built in entry["built_against"].items():
            for torch in {*built, f"{series}.0"}:
                yield Case(
                    "prerelease-torch",
                    {
                        "packages": {"flash-attn": release, "torch": torch},
                        "platform": LINUX_311,
                        "python": "3.11",
                    },
                    (("packages", "flash-attn"), ("packages", "torch")),
                    {"flash-attn": f"cu12torch{series}cxx11abiFALSE", "torch": "cu121"},
                )


def _xformers_build_cases() -> Iterator[Case]:
    """The build xFormers names beside the installed torch: another CUDA major or a CPU torch
    (true), the same build (false), one major's two minors (open)."""
    for torch, built in (
        ("2.3.0+cpu", "2.3.0+cu118"),
        ("2.1.2+cu118", "2.1.2+cu121"),
        ("2.1.2+cu121", "2.1.2+cu121"),
        ("2.1.2+cu118", "2.1.2+cu117"),
        ("2.0.0+cu117", "2.0.0+cu118"),
    ):
        yield Case(
            "other-build",
            {"packages": {"torch": torch}, "build": {"xformers_torch": built}},
            (("packages", "torch"), ("build", "xformers_torch")),
            {},
            keep_labels=True,
        )


def _cudnn_cases(expected: str) -> Iterator[Case]:
    """The cuDNN torch's message says it was compiled against and the one it found: an older
    minor of the same major, another major, a newer minor (neither)."""
    for built, found in (("8.5.0", "8.4.1"), ("9.1.0", "8.9.7"), ("8.7.0", "8.9.2")):
        yield Case(
            expected,
            {
                "packages": {"torch": "2.0.1"},
                "build": {"cudnn_torch": built, "cudnn_runtime": found},
            },
            (("build", "cudnn_torch"), ("build", "cudnn_runtime")),
            {},
        )


def _loader_cases() -> Iterator[Case]:
    """A CUDA library of another major than torch's build (true), of the same major (false)."""
    for torch, major in (("2.1.2+cu118", "12"), ("2.1.2+cu121", "12"), ("2.5.1+cu124", "11")):
        yield Case(
            "other-major",
            {"packages": {"torch": torch}, "build": {"missing_cuda": major}},
            (("packages", "torch"),),
            {},
            keep_labels=True,
        )


def _requirement_cases() -> Iterator[Case]:
    """The installed version against the requirement a check printed: outside (true), inside
    (false)."""
    for accelerate in ("0.25.0", "0.26.0", "1.0.1"):
        yield Case(
            "unmet",
            {"packages": {"accelerate": accelerate}, "requirements": {"accelerate": ">=0.26.0"}},
            (("packages", "accelerate"),),
            {},
        )


def _nccl_wheel_cases() -> Iterator[Case]:
    """NCCL wheels of two CUDA majors (true), of one (false)."""
    for packages in (
        {"nvidia-nccl-cu11": "2.14.3", "nvidia-nccl-cu12": "2.27.3"},
        {"nvidia-nccl-cu12": "2.27.3"},
    ):
        yield Case("two-majors", {"packages": packages}, (("packages", "nvidia-nccl-cu12"),), {})


def _hip_code_cases() -> Iterator[Case]:
    """The GPU's target against the ROCm build's printed list: absent (true), present (false);
    torch's version is spelled every way and never decides it."""
    for target in ("gfx1151", "gfx942"):
        yield Case(
            "missing",
            {
                "packages": {"torch": "2.6.0+rocm6.2.4"},
                "arch_lists": {"torch_hip": "gfx90a gfx942 gfx1100"},
                "hardware": {
                    "schema": "compat.hardware/1",
                    "gpus": [{"name": "AMD GPU", "vendor": "amd", "gfx_target": target}],
                },
            },
            (("packages", "torch"),),
            {},
            keep_labels=True,
        )


def _amd(target: str, override: str | None = None) -> dict[str, Any]:
    hardware: dict[str, Any] = {
        "schema": "compat.hardware/1",
        "gpus": [{"name": "AMD GPU", "vendor": "amd", "gfx_target": target}],
    }
    if override is not None:
        hardware["hsa_override_gfx_version"] = override
    return hardware


def _hip_log_cases(key: str) -> Iterator[Case]:
    """A ROCm failure a log printed, judged by its stated facts: true and false cases; torch's
    version (where it is read: rocm_loader) is spelled every way and its +rocmX.Y label kept."""
    if key == "rocm_loader":
        for torch, major in (("2.5.1+rocm6.2", "7"), ("2.7.1+rocm7.0.0", "7"), ("2.5.1", "6")):
            yield Case(
                "library-missing",
                {"packages": {"torch": torch}, "build": {"missing_hip": major}},
                (("packages", "torch"),),
                {},
                keep_labels=True,
            )
        yield Case("library-missing", {"packages": {"torch": "2.5.1+rocm6.2"}}, (), {})
        return
    if key == "bitsandbytes_rocm_library":
        # the library of torch's ROCm (6.3: rocm63) and 7.12 read as 82: any spelling of torch
        for torch, looked in (("2.6.0+rocm6.3", "63"), ("2.9.0+rocm7.12", "82")):
            yield Case(
                "missing",
                {"packages": {"torch": torch}, "build": {"bnb_rocm_library": looked}},
                (("packages", "torch"),),
                {},
                keep_labels=True,
            )
        # no loader message: never true of an environment
        yield Case(
            "missing", {"packages": {"torch": "2.6.0+rocm6.3"}}, (("packages", "torch"),), {}, True
        )
        return
    if key in ("flash_attn_rocm_arch", "flash_attn_nvcc"):
        fact, expected = {
            "flash_attn_rocm_arch": ("flash_attn_arch_refused", "refused"),
            "flash_attn_nvcc": ("flash_attn_needs_nvcc", "rocm-torch"),
        }[key]
        for torch in ("2.0.1+rocm5.4.2", "2.5.1+rocm6.2"):
            yield Case(
                expected,
                {"packages": {"torch": torch}, "build": {fact: "1"}},
                (("packages", "torch"),),
                {},
                keep_labels=True,
            )
        yield Case(expected, {"packages": {"torch": "2.5.1+rocm6.2"}}, (), {})
        return
    if key in ("hip_target", "loader_execstack"):
        # a message's own refusal: true whatever torch is, never true of an environment
        fact, value = {
            "hip_target": ("gpu_target_refused", "1"),
            "loader_execstack": ("execstack_refused", "1"),
        }[key]
        for torch in ("2.0.1+rocm5.4.2", "2.5.1+rocm6.2"):
            yield Case(
                "refused",
                {"packages": {"torch": torch}, "build": {fact: value}},
                (("packages", "torch"),),
                {},
                keep_labels=True,
            )
        yield Case("refused", {"packages": {"torch": "2.5.1+rocm6.2"}}, (), {})
        return
    if key == "rocm_kfd":
        # the node could not be opened (EACCES true, another errno open) or KFD refused the GPU
        for value in ("1", "3"):
            yield Case(
                "inaccessible",
                {"build": {"kfd_open_failed": value}, "hardware": _amd("gfx1100")},
                (("build", "kfd_open_failed"),),
                {},
            )
        yield Case("inaccessible", {"build": {"kfd_unsupported_gpu": "1"}}, (), {})
        yield Case("inaccessible", {"hardware": _amd("gfx1100")}, (), {})
        return
    if key == "torch_cuda_no_driver":
        # torch's CUDA build message beside AMD GPUs; alone (no GPU shown) or no message: false
        yield Case(
            "amd-gpus",
            {"build": {"cuda_no_driver": "1"}, "hardware": _amd("gfx1031")},
            (("build", "cuda_no_driver"),),
            {},
        )
        yield Case("amd-gpus", {"build": {"cuda_no_driver": "1"}}, (), {})
        yield Case("amd-gpus", {"hardware": _amd("gfx1031")}, (), {})
        return
    if key == "hip_override_fault":
        # the fault under an override naming another target: within the generation (open),
        # across generations (true), the GPU's own target (false)
        for target, override in (
            ("gfx1151", "11.0.0"),
            ("gfx90a", "10.3.0"),
            ("gfx1100", "11.0.0"),
        ):
            yield Case(
                "other-target",
                {"build": {"gpu_memory_fault": "1"}, "hardware": _amd(target, override)},
                (("build", "gpu_memory_fault"),),
                {},
            )
        yield Case("other-target", {"hardware": _amd("gfx1151", "11.0.0")}, (), {})
        return
    if key == "hip_device":
        nvidia = {"gpu": "NVIDIA Tesla T4", "gpu_count": 1, "compute_capability": "7.5"}
        yield Case("none", {"build": {"hip_no_device": "1"}, "hardware": nvidia}, (), {})
    fact, expected = {
        "hip_isa": ("hsa_invalid_isa", "rejected"),
        "hip_library": ("hip_library_missing", "target-missing"),
        "hip_device": ("hip_no_device", "none"),
    }[key]
    for target, override in (("gfx1102", "11.0.0"), ("gfx1100", "11.0.0"), ("gfx1030", "10.3.0")):
        yield Case(
            expected,
            {"build": {fact: "1"}, "hardware": _amd(target, override)},
            (("build", fact),),
            {},
        )
    yield Case(expected, {"hardware": _amd("gfx1102", "11.0.0")}, (), {})


def _hip_table_cases() -> Iterator[Case]:
    """A declared torch +rocm pin judged by its release branch's targets (torch-rocm-arch.json):
    2.0's builds lack gfx1100 (true), carry gfx90a (false); any spelling of 2.0.1 is 2.0."""
    for target in ("gfx1100", "gfx90a"):
        yield Case(
            "missing",
            {
                "packages": {"torch": "2.0.1+rocm5.4.2"},
                "hardware": {
                    "schema": "compat.hardware/1",
                    "gpus": [{"name": "AMD GPU", "vendor": "amd", "gfx_target": target}],
                },
            },
            (("packages", "torch"),),
            {},
            keep_labels=True,
        )


def _xformers_hip_cases() -> Iterator[Case]:
    """A declared xformers from a PyTorch ROCm index judged by its tag's HIP_ARCHITECTURES
    (xformers-rocm-arch.json): 0.0.30's builds lack gfx1100 (true), carry gfx942 (false); any
    spelling of 0.0.30 is that release."""
    for target in ("gfx1100", "gfx942"):
        yield Case(
            "missing",
            {
                "packages": {"xformers": "0.0.30"},
                "build": {"xformers_rocm": "6.3"},
                "hardware": {
                    "schema": "compat.hardware/1",
                    "gpus": [{"name": "AMD GPU", "vendor": "amd", "gfx_target": target}],
                },
            },
            (("packages", "xformers"),),
            {},
        )


def _flash_attn_ck_cases() -> Iterator[Case]:
    """A declared flash-attn under a ROCm torch judged by its tag's allowed_archs
    (flash-attn-rocm-arch.json): 2.6.3 does not list gfx1100 (true), lists gfx90a (false); any
    spelling of 2.6.3 is that release."""
    for target in ("gfx1100", "gfx90a"):
        yield Case(
            "unlisted",
            {
                "packages": {"flash-attn": "2.6.3", "torch": "2.4.1+rocm6.1"},
                "build": {"torch_rocm": "6.1"},
                "hardware": {
                    "schema": "compat.hardware/1",
                    "gpus": [{"name": "AMD GPU", "vendor": "amd", "gfx_target": target}],
                },
            },
            (("packages", "flash-attn"),),
            {},
        )


def _torch_backend_cases() -> Iterator[Case]:
    """A CUDA build of torch on AMD GPUs (true); its ROCm build (false)."""
    for torch in ("2.5.1+cu121", "2.4.1+rocm6.1"):
        yield Case(
            "cuda-on-amd",
            {
                "packages": {"torch": torch},
                "hardware": {
                    "schema": "compat.hardware/1",
                    "gpus": [{"name": "AMD GPU", "vendor": "amd", "gfx_target": "gfx942"}],
                },
            },
            (("packages", "torch"),),
            {},
            keep_labels=True,
        )


DERIVED_CASES: dict[tuple[str, str], Callable[[], Iterator[Case]]] = {
    ("hip_isa", "rejected"): lambda: _hip_log_cases("hip_isa"),
    ("hip_library", "target-missing"): lambda: _hip_log_cases("hip_library"),
    ("hip_device", "none"): lambda: _hip_log_cases("hip_device"),
    ("rocm_loader", "library-missing"): lambda: _hip_log_cases("rocm_loader"),
    ("bitsandbytes_rocm_library", "missing"): lambda: _hip_log_cases("bitsandbytes_rocm_library"),
    ("flash_attn_rocm_arch", "refused"): lambda: _hip_log_cases("flash_attn_rocm_arch"),
    ("flash_attn_nvcc", "rocm-torch"): lambda: _hip_log_cases("flash_attn_nvcc"),
    ("hip_target", "refused"): lambda: _hip_log_cases("hip_target"),
    ("hip_override_fault", "other-target"): lambda: _hip_log_cases("hip_override_fault"),
    ("loader_execstack", "refused"): lambda: _hip_log_cases("loader_execstack"),
    ("rocm_kfd", "inaccessible"): lambda: _hip_log_cases("rocm_kfd"),
    ("torch_cuda_no_driver", "amd-gpus"): lambda: _hip_log_cases("torch_cuda_no_driver"),
    ("nccl_wheels", "two-majors"): _nccl_wheel_cases,
    ("stated_requirement", "unmet"): _requirement_cases,
    ("loader_cuda_major", "other-major"): _loader_cases,
    ("cudnn_runtime", "older-same-major"): lambda: _cudnn_cases("older-same-major"),
    ("cudnn_runtime", "other-major"): lambda: _cudnn_cases("other-major"),
    ("torch_kernels", "missing"): _torch_kernel_cases,
    ("bitsandbytes_cuda_library", "missing"): _bnb_cases,
    ("bitsandbytes_cuda_major", "missing"): _bnb_major_cases,
    ("numpy_abi", "numpy1-build"): _numpy_cases,
    ("wheel", "none"): lambda: _wheel_fact_cases("none"),
    ("wheel", "source-build"): lambda: _wheel_fact_cases("source-build"),
    ("wheel", "cpu-build"): _cpu_build_cases,
    ("flash_attn_wheel", "prerelease-torch"): _flash_prerelease_cases,
    ("xformers_torch_build", "other-build"): _xformers_build_cases,
    ("hip_code", "missing"): lambda: itertools.chain(_hip_code_cases(), _hip_table_cases()),
    ("torch_backend", "cuda-on-amd"): _torch_backend_cases,
    ("xformers_hip_code", "missing"): _xformers_hip_cases,
    ("flash_attn_ck_target", "unlisted"): _flash_attn_ck_cases,
}


def test_every_derived_fact_is_in_the_property() -> None:
    vocabulary = {(k, v) for k, values in derived.VOCABULARY.items() for v in values}
    assert vocabulary == set(DERIVED_CASES)


def _verdict(key: str, expected: str, example: Mapping[str, Any]) -> tuple[Hashable, ...]:
    verdict: Verdict = DerivedCondition(key, expected).evaluate(facts_from_example(example, ORIGIN))
    return (
        verdict.value,
        tuple(sorted(u.fact for u in verdict.unknown)),
        tuple(sorted(p.name for p in verdict.packages)),
        verdict.fix.constraints if verdict.fix is not None else None,
        verdict.anchored,
    )


def _respell(example: Mapping[str, Any], where: tuple[str, str], text: str) -> dict[str, Any]:
    section, key = where
    return {**example, section: {**example[section], key: text}}


@pytest.mark.parametrize(("key", "expected"), sorted(DERIVED_CASES))
def test_every_derived_fact_answers_alike_for_every_spelling(key: str, expected: str) -> None:
    seen: set[Hashable] = set()
    for case in DERIVED_CASES[key, expected]():
        want = _verdict(key, expected, case.example)
        seen.add(want[0])
        for where in case.spelled:
            written = Version(case.example[where[0]][where[1]])
            texts = [str(s) for s in spellings(written)]
            if case.keep_labels and written.local:
                texts = [str(labelled(s, written.local)) for s in spellings(written)]
            label = case.labels.get(where[1]) if where[0] == "packages" else None
            if label is not None:
                texts += [str(labelled(s, label)) for s in spellings(written)]
            for text in texts:
                got = _verdict(key, expected, _respell(case.example, where, text))
                assert got == want, f"{key}: {where[1]}=={text} != {case.example}"
    assert {Tri.TRUE, Tri.FALSE} <= seen, f"{key}: its cases gave only {seen}"


# ---------------------------------------------------------------------------------------------
# The reported case, through the CLI


def _findings(report: Any) -> list[tuple[str, str, tuple[str, ...]]]:
    return sorted(
        (f["rule"], f["status"], tuple((f.get("fix") or {}).get("constraints") or ()))
        for f in report["findings"]
    )


@pytest.mark.parametrize(
    "spellings_of",
    [
        ("2.2", "2.2.0", "2.2.0.0"),
        ("2.6", "2.6.0"),
        ("2.2+cu121", "2.2.0+cu121", "2.2.0.0+cu121"),
    ],
)
def test_rtx_5090_torch_pins_give_the_same_findings_offline(
    tmp_path: Path, spellings_of: tuple[str, ...]
) -> None:
    hardware = profile(tmp_path, "NVIDIA GeForce RTX 5090", "12.0", "575.57.08", "12.9")
    answers = []
    for spelled in spellings_of:
        requirements = write(tmp_path / "r.txt", f"torch=={spelled}\n")
        code, report = check(
            str(requirements),
            "--hardware",
            str(hardware),
            "--python-version",
            "3.11",
            "--platform",
            "linux",
            "--offline",
        )
        answers.append((code, _findings(report)))
    assert all(answer == answers[0] for answer in answers), dict(
        zip(spellings_of, answers, strict=True)
    )
    code, findings = answers[0]
    assert code == 1
    assert ("torch-no-kernel-image-for-gpu", "affected") in {(r, s) for r, s, _ in findings}


@pytest.mark.parametrize(
    ("installed", "planned", "changed", "build_change"),
    [
        ("2.2", "2.2.0", False, False),
        ("2.2.0.0", "2.2", False, False),
        ("2.2+cu121", "2.2.0+cu121", False, False),
        ("2.2+cu121", "2.2.0+cu118", True, True),  # another CUDA build of the same release
        ("2.2", "2.2.1", True, False),
    ],
)
def test_a_pin_in_another_spelling_is_kept_not_moved(
    installed: str, planned: str, changed: bool, build_change: bool
) -> None:
    from compat.resolve.pin.solver import Pin

    pin = Pin(canonicalize_name("torch"), Version(planned), Version(installed), ())
    assert (pin.changed, pin.build_change) == (changed, build_change)
