"""pixi workspaces: `pixi.toml` (or `[tool.pixi]` in pyproject.toml) and `pixi.lock`.

* An environment is a set of features: `default` is the default feature alone unless
  `[environments]` defines it; a named environment is its features plus the default feature
  (unless `no-default-feature = true`). compat judges one environment: `default`, or the one
  `--pixi-environment` names; the others are listed in a note.
* Each feature's `dependencies` are conda match specs (compat.facts.declared.condaspec), its
  `pypi-dependencies` PEP 508 requirements (pixi installs them with uv; `index` sends a package
  to one index), `target.<platform>` tables apply on that platform (`linux-64`, `osx-arm64`,
  `win-64`, ... and the `linux`/`osx`/`win`/`unix` selectors), judged for the target platform
  (`--platform`) like uv.lock's markers.
* `[system-requirements] cuda` (and a rich platform's `cuda`) is what the lock was solved for:
  the target driver must support that CUDA (`__cuda`); it is said in a note.
* pixi.lock (versions 4 to 6): the environment's packages for the target platform, exact —
  conda entries by their record (name, version, build: the build string gives torch's CUDA
  build), PyPI entries by name and version.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.facts import condanames
from compat.facts.declared.condaspec import (
    MatchSpec,
    declare,
    file_name_fields,
    locked_conda,
    pep440,
)
from compat.facts.declared.entries import (
    CondaFacts,
    FileResult,
    IndexLine,
    locked,
    parse_requirement,
)
from compat.model import Origin

SUPPORTED_LOCK_VERSIONS = (4, 5, 6)
# (sys_platform, platform_machine) -> pixi's platform name
_PLATFORMS = {
    ("linux", "x86_64"): "linux-64", ("linux", "amd64"): "linux-64",
    ("linux", "aarch64"): "linux-aarch64", ("linux", "arm64"): "linux-aarch64",
    ("linux", "ppc64le"): "linux-ppc64le",
    ("darwin", "x86_64"): "osx-64", ("darwin", "arm64"): "osx-arm64",
    ("win32", "amd64"): "win-64", ("win32", "x86_64"): "win-64", ("win32", "arm64"): "win-arm64",
}  # fmt: skip
_SELECTORS = {"linux": ("linux", "unix"), "osx": ("osx", "unix"), "win": ("win",)}


def platform_of(option: str | None) -> str:
    """pixi's name for the target platform: --platform (`linux`, `darwin/arm64`, ...) or, without
    it, this machine. A machine-less system means its usual one, as check's markers do."""
    import platform as _platform
    import sys

    if option is None:
        system, machine = sys.platform, _platform.machine()
    else:
        system, _, machine = option.partition("/")
        machine = machine or ("AMD64" if system == "win32" else "x86_64")
    machine = machine.lower()
    return _PLATFORMS.get((system, machine), f"{system}-{machine}")


def _selectors(platform: str) -> tuple[str, ...]:
    family = platform.split("-")[0]
    return (platform, *_SELECTORS.get(family, ()))


def _channels(root: dict[str, Any]) -> tuple[str, ...]:
    """The workspace's channels in priority order (`channels = ["conda-forge"]` under
    [workspace] or [project]; an entry may be `{channel = "...", priority = N}`)."""
    for key in ("workspace", "project"):
        table = root.get(key)
        if isinstance(table, dict) and isinstance(table.get("channels"), list):
            return tuple(
                str(c.get("channel", "")) if isinstance(c, dict) else str(c)
                for c in table["channels"]
            )
    return ()


def _table(value: Any, where: str, origin: Origin) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputError(f"{where} must be a table", origin=origin)
    return value


# ---------------------------------------------------------------------------------------------
# pixi.toml / [tool.pixi]


def read_manifest(
    path: Path,
    root: dict[str, Any],
    platform: str,
    environment: str | None,
    text: str,
) -> tuple[FileResult, CondaFacts]:
    from compat.facts.declared.tomlfiles import LineFinder

    lines = LineFinder(text)
    origin = Origin(str(path))
    result, facts = FileResult(), CondaFacts()
    facts.channels = _channels(root)
    features = _features(root, environment, origin, result)
    where_cuda = _platform_cuda(root, platform, origin)
    for feature_name in features:
        feature = root if feature_name == "default" else _feature(root, feature_name, origin)
        prefix = "" if feature_name == "default" else f"feature.{feature_name}."
        tables = [(prefix, feature)]
        targets = _table(feature.get("target"), f"{prefix}target", origin)
        tables += [
            (f"{prefix}target.{s}.", _table(targets[s], f"{prefix}target.{s}", origin))
            for s in _selectors(platform)
            if s in targets
        ]
        for where, table in tables:
            for name, value in _table(
                table.get("dependencies"), f"{where}dependencies", origin
            ).items():
                spec = _conda_spec(name, value, origin)
                # the entry under its own table header: features repeat names (`pytorch =`)
                start = lines.table(f"[{where}dependencies]")
                line = Origin(
                    str(path),
                    lines.find(f"{name} =", start) or lines.find(f'"{name}" =', start),
                )
                if spec.name == "python":  # the environment's requires-python
                    python = pep440(spec.version)
                    if python:
                        result.python.append((python, line))
                    continue
                declared = declare(spec, line, facts, group=f"{where}dependencies")
                if declared is not None:
                    result.requirements.append(declared)
            pypi = _table(table.get("pypi-dependencies"), f"{where}pypi-dependencies", origin)
            for name, value in pypi.items():
                start = lines.table(f"[{where}pypi-dependencies]")
                line = Origin(
                    str(path),
                    lines.find(f"{name} =", start) or lines.find(f'"{name}" =', start),
                )
                _pypi_dependency(name, value, line, f"{where}pypi-dependencies", result)
            cuda = _table(table.get("system-requirements"), f"{where}system-requirements", origin)
            if "cuda" in cuda:
                where_cuda = (str(cuda["cuda"]), f"{path}: [{where}system-requirements] cuda")
    if where_cuda is not None:
        required = condanames.version_of(where_cuda[0])
        if required is not None:
            facts.system_cuda = (required, f"{where_cuda[1]} = {where_cuda[0]!r}")
        result.notes.append(
            f"{where_cuda[1]} = {where_cuda[0]!r}: the lock is solved for a driver supporting CUDA "
            f"{where_cuda[0]} (`__cuda`); the target machine's driver must support it too"
        )
    _pixi_duplicates(result, facts)
    if not result.requirements and not facts.names and not facts.builds:
        defined = sorted(_table(root.get("environments"), "environments", origin))
        if defined:
            from compat.errors import UncheckedError

            raise UncheckedError(
                f"pixi environment {environment or 'default'!r} of {path} declares no package "
                "compat can check",
                hint=f"choose one of {', '.join(defined)} with --pixi-environment NAME",
            )
    return result, facts


def _feature(root: dict[str, Any], name: str, origin: Origin) -> dict[str, Any]:
    features = _table(root.get("feature"), "feature", origin)
    if name not in features:
        raise InputError(
            f"pixi: environment uses feature {name!r}, which is not defined", origin=origin
        )
    return _table(features[name], f"feature.{name}", origin)


def _features(
    root: dict[str, Any], environment: str | None, origin: Origin, result: FileResult
) -> list[str]:
    environments = _table(root.get("environments"), "environments", origin)
    chosen = environment or "default"
    others = sorted(e for e in environments if e != chosen)
    if environment is not None and environment not in environments and environment != "default":
        raise InputError(
            f"pixi: no environment {environment!r} (defined: {', '.join(['default', *others])})",
            origin=origin,
        )
    if others:
        result.notes.append(
            f"{origin.path}: pixi environment {chosen!r} judged; {', '.join(others)} not "
            "(--pixi-environment NAME judges another)"
        )
    features = {name: _environment(root, name, spec, origin) for name, spec in environments.items()}
    if chosen not in features:
        return ["default"]
    return features[chosen]


def _environment(root: dict[str, Any], name: str, spec: Any, origin: Origin) -> list[str]:
    """An environment's features, each checked to exist (pixi refuses the manifest otherwise)."""
    if isinstance(spec, list):
        names, no_default = spec, False
    elif isinstance(spec, dict):
        names, no_default = spec.get("features", []), bool(spec.get("no-default-feature"))
    else:
        raise InputError(f"pixi: environments.{name} must be a list or table", origin=origin)
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InputError(f"pixi: environments.{name} features must be names", origin=origin)
    for feature in names:
        _feature(root, feature, origin)
    return [*names, *([] if no_default else ["default"])]


def _platform_cuda(root: dict[str, Any], platform: str, origin: Origin) -> tuple[str, str] | None:
    """A rich platform's cuda (`platforms = [{ platform = "linux-64", cuda = "12.0" }]`)."""
    workspace = root.get("workspace") or root.get("project") or {}
    for entry in workspace.get("platforms", []) if isinstance(workspace, dict) else []:
        if isinstance(entry, dict) and entry.get("platform") == platform and "cuda" in entry:
            return str(entry["cuda"]), f"{origin.path}: workspace platform {platform} cuda"
    return None


def _conda_spec(name: str, value: Any, origin: Origin) -> MatchSpec:
    if isinstance(value, str):
        return MatchSpec("", name.lower(), "" if value == "*" else value, "")
    if isinstance(value, dict):
        version = value.get("version", "")
        return MatchSpec(
            str(value.get("channel", "")),
            name.lower(),
            "" if version in ("*", None) else str(version),
            str(value.get("build", "") or ""),
        )
    raise InputError(f"pixi: dependency {name} must be a version string or a table", origin=origin)


def _pypi_dependency(name: str, value: Any, origin: Origin, group: str, result: FileResult) -> None:
    if isinstance(value, str):
        text = name if value in ("*", "") else f"{name}{value}"
    elif isinstance(value, dict):
        if any(k in value for k in ("git", "path", "url")):
            result.notes.append(
                f"{origin}: {name} comes from {'git' if 'git' in value else 'a path or URL'}: not checked"
            )
            return
        extras = value.get("extras", [])
        version = value.get("version", "")
        text = name + (f"[{','.join(map(str, extras))}]" if extras else "")
        text += "" if version in ("*", "", None) else str(version)
        if isinstance(value.get("index"), str):
            result.indexes.append(
                IndexLine(
                    value["index"],
                    origin,
                    packages=(parse_requirement(name, origin, "requirement").name,),
                )
            )
    else:
        raise InputError(f"pixi: pypi-dependency {name} must be a string or a table", origin=origin)
    result.requirements.append(parse_requirement(text, origin, "requirement", group))


def _pixi_duplicates(result: FileResult, facts: CondaFacts) -> None:
    """A name that is both a conda dependency and a PyPI one: pixi installs the conda package and
    lets uv skip it, or replaces it — either way two managers claim it. The PyPI entry is judged."""
    pypi = {r.name: r for r in result.requirements if "pypi-dependencies" in r.group}
    for name, conda_origin in list(facts.names.items()):
        if name in pypi:
            result.notes.append(
                f"{pypi[name].origin}: {pypi[name].display_name} is both a conda dependency "
                f"({conda_origin}) and a PyPI dependency; the PyPI one is judged"
            )
            del facts.names[name]
            result.requirements = [
                r for r in result.requirements if not (r.name == name and "pypi" not in r.group)
            ]


def environment_names(path: Path, kind: str) -> list[str]:
    """The environments a pixi file defines, `default` first, then in the file's order (pixi
    always has `default`); [] when the file has no pixi table. Read only to list them: a file
    that cannot be read says so when it is judged."""
    from compat.files.readers import read_text
    from compat.files.yamlio import load_with_lines

    try:
        if kind == "pixi.lock":
            document: Any = load_with_lines(read_text(path, "lock"), str(path))
            environments = document.get("environments") if isinstance(document, dict) else None
        else:
            from compat.facts.declared.tomlfiles import load_toml

            loaded, _ = load_toml(path)
            root: Any = loaded
            if kind == "pyproject":
                tool = loaded.get("tool")
                root = tool.get("pixi") if isinstance(tool, dict) else None
            if not isinstance(root, dict):
                return []
            defined = root.get("environments")
            environments = {"default": None, **(defined if isinstance(defined, dict) else {})}
    except InputError:
        return []
    if not isinstance(environments, dict):
        return []
    names = [str(name) for name in environments]
    return sorted(names, key=lambda name: name != "default")


# ---------------------------------------------------------------------------------------------
# pixi.lock


def read_lock(path: Path, platform: str, environment: str | None) -> tuple[FileResult, CondaFacts]:
    from compat.files.readers import read_text
    from compat.files.yamlio import load_with_lines

    text = read_text(path, "lock")
    document = load_with_lines(text, str(path))
    origin = Origin(str(path))
    if not isinstance(document, dict) or document.get("version") not in SUPPORTED_LOCK_VERSIONS:
        version = document.get("version") if isinstance(document, dict) else None
        raise InputError(
            f"pixi.lock: lock version {version!r} is not supported (compat reads "
            f"{', '.join(map(str, SUPPORTED_LOCK_VERSIONS))})",
            origin=Origin(str(path), 1),
        )
    environments = _table(document.get("environments"), "environments", origin)
    chosen = environment or "default"
    if chosen not in environments:
        raise InputError(
            f"pixi.lock: no environment {chosen!r} (locked: {', '.join(sorted(environments))})",
            origin=origin,
        )
    result, facts = FileResult(), CondaFacts()
    others = sorted(e for e in environments if e != chosen)
    if others:
        result.notes.append(
            f"{path}: pixi environment {chosen!r} judged; {', '.join(others)} not "
            "(--pixi-environment NAME judges another)"
        )
    env = _table(environments[chosen], f"environments.{chosen}", origin)
    per_platform = _table(env.get("packages"), f"environments.{chosen}.packages", origin)
    if platform not in per_platform:
        raise InputError(
            f"pixi.lock: environment {chosen!r} has no packages for {platform} (locked: "
            f"{', '.join(sorted(per_platform))}); choose the target with --platform",
            origin=origin,
        )
    records = _records(document, origin)
    url_lines = _url_lines(text)
    pypi_names: set[str] = set()
    conda_entries: list[tuple[dict[str, Any], Origin]] = []
    for item in per_platform[platform] or []:
        if not isinstance(item, dict) or len(item) != 1:
            raise InputError(f"pixi.lock: unexpected entry {item!r}", origin=origin)
        ((kind, url),) = item.items()
        record = records.get(str(url), {})
        found = url_lines.get(str(url))
        line = Origin(str(path), found[-1] if found else None)
        if kind == "pypi":
            name, version = record.get("name"), record.get("version")
            if isinstance(name, str) and isinstance(version, str):
                result.requirements.append(locked(name, version, line, "lock"))
                pypi_names.add(name.lower())
            continue
        if kind == "conda":
            conda_entries.append(({**file_name_fields(str(url)), **record}, line))
    for record, line in conda_entries:
        locked_conda(record, line, facts, result, pypi_names, "pixi.lock")
    return result, facts


def _records(document: dict[str, Any], origin: Origin) -> dict[str, dict[str, Any]]:
    packages = document.get("packages", [])
    if not isinstance(packages, list):
        raise InputError("pixi.lock: packages must be a list", origin=origin)
    out: dict[str, dict[str, Any]] = {}
    for entry in packages:
        if not isinstance(entry, dict):
            continue
        url = entry.get("conda") or entry.get("pypi") or entry.get("url")
        if isinstance(url, str):
            out[url] = entry
    return out


def _url_lines(text: str) -> dict[str, list[int]]:
    """The lines each URL appears on (the environment lists first, the packages section last)."""
    out: dict[str, list[int]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip().lstrip("- ")
        for key in ("conda: ", "pypi: ", "url: "):
            if stripped.startswith(key):
                out.setdefault(stripped[len(key) :].strip(), []).append(number)
    return out
