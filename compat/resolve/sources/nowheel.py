"""Releases without a wheel for the target (issue 44 item 3): an exact pin whose release the
index serves, but with no wheel that installs on the target's Python and platform. With no sdist
either, pip and uv install nothing ("No matching distribution found"): `affected`, id
`release:no-distribution:NAME`. With only an sdist, pip builds it on the target: a `build`
finding, `possible` (the build may work there, or not), id `build-from-source:NAME`, naming what
the build needs where compat knows it. Read from the index's file names (PEP 427 wheel tags),
whether or not the checking machine could build it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from packaging.tags import Tag
from packaging.utils import InvalidWheelFilename, NormalizedName, parse_wheel_filename
from packaging.version import Version

from compat.facts.declared.entries import Declared
from compat.kb.verified import verified_finding
from compat.model import Finding, Fix, MatchedPackage, Severity, Status, Unknown

_OS = {"linux": ("manylinux", "musllinux", "linux"), "darwin": ("macosx",), "win32": ("win",)}
_ARCH = {"x86_64": ("x86_64", "amd64", "universal2", "intel"), "AMD64": ("amd64",),
         "aarch64": ("aarch64",), "arm64": ("arm64", "universal2")}  # fmt: skip


def fits(tag: Tag, python: Version, platform: str) -> bool:
    """Whether a wheel tag installs on CPython `python` on `platform` (`linux/x86_64`)."""
    major, minor = python.major, python.minor
    interpreter = tag.interpreter
    if interpreter.startswith("cp"):
        try:
            built = int(interpreter[3:]) if interpreter[2:3] == str(major) else -1
        except ValueError:
            return False
        # abi3 wheels install on their Python and every later one; others on theirs only.
        if built < 0 or (built != minor if tag.abi != "abi3" else built > minor):
            return False
    elif interpreter != f"py{major}" and not (
        # pyXY: pip accepts it on Python X.Y and every later X.*
        interpreter[:3] == f"py{major}"
        and interpreter[3:].isdigit()
        and int(interpreter[3:]) <= minor
    ):
        return False
    if tag.platform == "any":
        return True
    system, _, arch = platform.partition("/")
    return tag.platform.startswith(_OS.get(system, (system,))) and tag.platform.endswith(
        _ARCH.get(arch, (arch.lower(),))
    )


def judge_files(filenames: Sequence[str], python: Version, platform: str) -> tuple[str, str] | None:
    """(kind, why): kind `none` (no wheel for the target and no sdist) or `sdist` (only an
    sdist installs); None where a wheel installs or the release has no files listed."""
    if not filenames:
        return None
    wheels = [f for f in filenames if f.endswith(".whl")]
    tags: list[Tag] = []
    for name in wheels:
        try:
            tags += parse_wheel_filename(name)[3]
        except InvalidWheelFilename:
            return None  # a file compat cannot read could be the one that installs
    if any(fits(tag, python, platform) for tag in tags):
        return None
    short = f"{python.major}.{python.minor}"
    pythons = sorted({t.interpreter for t in tags}, key=lambda i: (len(i), i))
    missing = (
        f"no wheel for Python {short} on {platform} (its wheels: {', '.join(pythons)})"
        if wheels
        else "no wheel at all"
    )
    sdist = any(not f.endswith(".whl") for f in filenames)
    return ("sdist", missing) if sdist else ("none", missing + " and no sdist")


def findings(
    pins: Iterable[Declared],
    files: Mapping[NormalizedName, tuple[Mapping[Version, Sequence[str]], str]],
    python: Version,
    platform: str,
) -> list[Finding]:
    """`files`: each package's file names per version, and the source that lists them."""
    """The findings of the exact pins whose release has no wheel for the target."""
    from compat.kb.wheels import NEEDS_NVCC

    out: list[Finding] = []
    for item in pins:
        if item.pinned is None or item.pinned.local is not None:
            continue  # a local build (`+cu121`) lives on another index
        pinned = Version(item.pinned.public)
        listed, source = files.get(item.name, ({}, ""))
        judged = judge_files(listed.get(pinned, ()), python, platform)
        if judged is None:
            continue
        kind, why = judged
        package = MatchedPackage(item.name, str(item.pinned), item.origin)
        matched = [f"{item.origin}: {item.raw}"]
        if kind == "none":
            out.append(
                verified_finding(
                    f"release:no-distribution:{item.name}",
                    f"{item.display_name} {item.pinned} has {why} on {source}: pip and uv "
                    f"cannot install `{item.raw}` for the target",
                    Fix(
                        f"pin a release with a wheel for Python {python.major}.{python.minor} on "
                        f"{platform}, or judge for the Python you install on (--python-version)"
                    ),
                    kind="release",
                    origin=item.origin,
                    packages=[package],
                    matched=matched,
                    references=(
                        "https://packaging.python.org/en/latest/specifications/platform-compatibility-tags/",
                    ),
                )
            )
            continue
        needs = (
            f"the CUDA toolkit (nvcc) and torch at build time ({NEEDS_NVCC[item.name]})"
            if item.name in NEEDS_NVCC
            else "its build requirements and any compiler its setup needs (not recorded by compat)"
        )
        out.append(
            verified_finding(
                f"build-from-source:{item.name}",
                f"{item.display_name} {item.pinned} has {why} on {source}: pip builds it from "
                f"its sdist on the target, which needs {needs}",
                Fix("make sure the target can build it, or pin a release with a wheel for it"),
                kind="build",
                origin=item.origin,
                packages=[package],
                matched=matched,
                references=(
                    "https://pip.pypa.io/en/stable/cli/pip_install/#controlling-the-installation-of-source-distributions",
                ),
                severity=Severity.WARNING,
                status=Status.POSSIBLE,
                # What settles it, as every possible finding says (a blank question otherwise).
                unknown=(
                    Unknown(
                        f"build.{item.name}",
                        f"whether the target can build {item.display_name} {item.pinned} from "
                        f"its sdist: `pip wheel --no-deps {item.name}=={item.pinned}` there",
                    ),
                ),
            )
        )
    return out


def unbuilt_finding(
    name: str,
    version: str,
    declared: Sequence[Declared],
    urls: Sequence[str],
    python: Version,
    platform: str,
    index_options: Any,
) -> list[Finding]:
    """The `build-from-source` (or `release:no-distribution`) finding of a release the resolver
    could not build on this machine (`av 10.0.0`, which an older faster-whisper requires), read
    from the index's files of that release; at the line that asks for it, else the install's
    first requirement line. [] where the index cannot be read or lists a wheel for the target."""
    from compat.errors import CompatError
    from compat.names import canonicalize_name
    from compat.resolve.sources.index import IndexClient, redact
    from compat.resolve.sources.indexconfig import IndexConfig

    normalized = NormalizedName(canonicalize_name(name))
    try:
        wanted = Version(version)
        config = IndexConfig(index_url=urls[0], extra_index_urls=tuple(urls[1:]), source="check")
        with IndexClient(config, timeout=index_options.timeout) as client:
            files = [c.filename for c in client.candidates(normalized) if c.version == wanted]
    except (CompatError, ValueError):
        return []
    asking = [
        i for i in declared if i.name == normalized and i.kind in ("requirement", "constraint")
    ]
    line = next(iter(asking), None) or next((i for i in declared if i.kind == "requirement"), None)
    if line is None:
        return []
    from dataclasses import replace

    from packaging.specifiers import SpecifierSet

    # The release the install pulls in, at the line that brings it: judged as if pinned there.
    stand_in = replace(
        line, name=normalized, display_name=name, specifier=SpecifierSet(f"=={wanted}"),
        url=None, marker=None, extras=(),
    )  # fmt: skip
    source = "the index " + redact(urls[0])
    return findings([stand_in], {normalized: ({wanted: tuple(files)}, source)}, python, platform)
