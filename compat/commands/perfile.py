"""One install per file, unless the files say otherwise (issue 42 item 5).

`compat check docs/requirements.txt requirements.txt` judged both files as one install, so a
package the docs pin and the trainer pins differently was a `pip-check:conflict` between files
no one installs together. Now:

- each requirements file is its own install, with what it includes: a file another given file
  includes (`-r`, `-c`) is judged inside that one, not again on its own;
- a project's other files in one directory (pyproject.toml, its uv.lock, setup.py, Pipfile, a
  conda environment, pixi files) are one install, as one project declares them; pyproject
  extras and groups then follow their own declarations (compat.resolve.check.installs);
- `--together` judges every file as one install (what a `pip install -r a -r b` does).

Each install is judged by `judge` (run_check) and the reports are merged: every finding, each
file's notes once, and a note saying how the files were grouped when there was more than one
install. An install with nothing to check (a pyproject.toml holding only `[tool.ruff]`) is a note
while another install was judged; when none was, the first one's error stands (exit 3).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from compat.errors import UncheckedError
from compat.model import Finding
from compat.report import Report

Judge = Callable[[Sequence[Path]], tuple[Report, list[Finding]]]
_INCLUDE = re.compile(r"^\s*(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)(\S+)", re.M)


def _requirements_file(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith((".txt", ".in")) and not name.endswith("uv.lock")


def _includes(path: Path) -> set[Path]:
    """The files `path` includes, transitively (`-r`/`-c`, relative to the including file)."""
    from compat.files.readers import read_text

    found: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        try:
            text = read_text(current, "lock")
        except Exception:  # the judgement reports an unreadable file, with its line
            continue
        for include in _INCLUDE.findall(text):
            target = Path(os.path.abspath(current.parent / include))
            if target not in found:
                found.add(target)
                todo.append(target)
    return found


def installs(paths: Sequence[Path]) -> list[list[Path]]:
    """The given files grouped into the installs they declare, in the order given."""
    absolute = [Path(os.path.abspath(p)) for p in paths]
    included: set[Path] = set()
    for path in absolute:
        if _requirements_file(path):
            included |= _includes(path)
    groups: list[list[Path]] = []
    projects: dict[Path, list[Path]] = {}
    for given, path in zip(paths, absolute, strict=True):
        if path in included and any(_requirements_file(p) for p in absolute if p != path):
            continue  # judged inside the file that includes it
        if _requirements_file(path) or path.is_dir():
            groups.append([Path(given)])
            continue
        project = projects.get(path.parent)
        if project is None:
            project = projects[path.parent] = []
            groups.append(project)
        project.append(Path(given))
    return groups


def judge_files(
    paths: Sequence[Path], judge: Judge, together: bool
) -> tuple[Report, list[Finding]]:
    """Every install the files declare, each judged on its own, merged into one report."""
    groups = [list(paths)] if together else installs(paths)
    if len(groups) <= 1:
        return judge(groups[0] if groups else list(paths))
    judged: list[tuple[list[Path], Report, list[Finding]]] = []
    empty: list[tuple[list[Path], UncheckedError]] = []
    for group in groups:
        try:
            report, findings = judge(group)
        except UncheckedError as error:
            empty.append((group, error))
            continue
        judged.append((group, report, findings))
    if not judged:
        raise empty[0][1]
    return _merge(judged, empty)


def _merge(
    judged: Sequence[tuple[list[Path], Report, list[Finding]]],
    empty: Sequence[tuple[list[Path], UncheckedError]],
) -> tuple[Report, list[Finding]]:
    from compat.engine import finding_order

    findings = sorted((f for _, _, found in judged for f in found), key=finding_order)
    notes = [
        "judged as separate installs (one per requirements file or project; --together judges "
        "them as one): " + "; ".join(", ".join(str(p) for p in group) for group, _, _ in judged)
    ]
    notes += [
        f"{', '.join(str(p) for p in group)}: nothing to check ({error.message.split(';')[0]})"
        for group, error in empty
    ]
    seen: set[str] = set()
    for _, report, _ in judged:
        for note in report.notes:
            if note not in seen:
                seen.add(note)
                notes.append(note)
    reports = [report for _, report, _ in judged]
    base = reports[0]
    files = tuple(dict.fromkeys(f for report in reports for f in report.files))
    failed = next((r.resolve_failed for r in reports if r.resolve_failed), None)
    environment = {
        **base.environment,
        "source": "files " + ", ".join(files),
        "packages": sum(report.package_count for report in reports),
        "installs": [i for report in reports for i in report.environment.get("installs", [])],
    }
    newer = tuple(dict.fromkeys(n for report in reports for n in report.newer_than_kb))
    merged = dataclasses.replace(
        base,
        findings=tuple(findings),
        notes=tuple(notes),
        files=files,
        environment=environment,
        unjudged_ranges=sum(report.unjudged_ranges for report in reports),
        resolve_failed=failed,
        newer_than_kb=newer,
    )
    return merged, findings


# What the pre-commit hook hands over besides requirement and lock files: a project's config and
# hardware profiles. They are not judged themselves; the project they belong to is.
_PROJECT_FILE = re.compile(
    r"^([^/]*requirements[^/]*\.(txt|in)|[^/]*constraints[^/]*\.(txt|in)|pyproject\.toml|"
    r"pylock(\.[^/]+)?\.toml|uv\.lock|setup\.py|Pipfile(\.lock)?|environment[^/]*\.ya?ml|"
    r"[^/]*conda-lock\.ya?ml|pixi\.(toml|lock))$"
)


def _settings_file(path: Path) -> bool:
    """`.compat.toml`, or a hardware profile (`compat probe --format json`); a pip --report JSON
    is a file to judge."""
    if path.name == ".compat.toml":
        return True
    if path.suffix.lower() != ".json":
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return b'"compat.hardware/1"' in head


def project_files(setting: Path) -> list[Path]:
    """The requirement and lock files of the project a config or profile file belongs to: those
    of its directory, else of the nearest directory above it that has some."""
    here = Path(os.path.abspath(setting)).parent
    for directory in (here, *here.parents):
        try:
            found = sorted(p for p in directory.iterdir() if _PROJECT_FILE.match(p.name))
        except OSError:
            return []
        found = [p for p in found if p.is_file()]
        if found:
            return found
        if (directory / ".git").exists():
            return []
    return []


def pre_commit_files(paths: Sequence[Path]) -> list[Path]:
    """The files a commit's staged files ask to judge: each requirement or lock file, and for a
    config or hardware profile, its project's files (compat check --pre-commit)."""
    chosen: dict[str, Path] = {}
    for path in paths:
        for target in project_files(path) if _settings_file(path) else [path]:
            chosen.setdefault(os.path.abspath(target), target)
    return list(chosen.values())
