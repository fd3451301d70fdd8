"""`check --baseline-ref REF`: the baseline is the same files at a git revision, judged the same
way, so a pull request's gate needs no second checkout and no stored report.

Each checked file, and every file its `-r`/`-c` lines include, is read from git with
`git show REF:PATH` into a temporary directory laid out as the repository is; a file that does
not exist at REF holds no finding (everything in it is new). The findings of that judgement are
the baseline's keys (compat.commands.waivers.finding_key).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from compat.errors import UsageError
from compat.model import Finding

# `-r other.txt`, `--requirement=other.txt`, `-c constraints.txt`: what a requirements file pulls in.
_INCLUDE = re.compile(r"^\s*(?:-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+)(\S+)", re.M)
_TIMEOUT = 30.0


def _git(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, timeout=_TIMEOUT, check=False
        )
    except FileNotFoundError:
        raise UsageError("--baseline-ref: git is not installed") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"--baseline-ref: git {args[0]} took over {_TIMEOUT:.0f}s") from None


def repository_top(directory: Path) -> Path | None:
    result = _git(["rev-parse", "--show-toplevel"], directory)
    if result.returncode != 0:
        return None
    return Path(os.fsdecode(result.stdout.strip()))


def export_files(ref: str, paths: Sequence[Path], into: Path) -> tuple[list[Path], Path]:
    """The files at `ref`, written under `into` at their places in the repository: the paths to
    judge there (those that exist at REF), and the repository's top level."""
    top = repository_top(Path.cwd())
    if top is None:
        raise UsageError("--baseline-ref: the working directory is not inside a git repository")
    verified = _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], top)
    if verified.returncode != 0:
        raise UsageError(f"--baseline-ref: {ref!r} is no commit of this repository")
    top = top.resolve()
    exported: list[Path] = []
    seen: set[str] = set()
    todo = [Path(os.path.abspath(p)).resolve() for p in paths]
    first = len(todo)
    position = 0
    while position < len(todo):
        path = todo[position]
        position += 1
        try:
            relative = path.relative_to(top).as_posix()
        except ValueError:
            continue  # outside the repository: git holds no earlier version of it
        if relative in seen:
            continue
        seen.add(relative)
        shown = _git(["show", f"{ref}:{relative}"], top)
        if shown.returncode != 0:
            continue  # not at REF: a new file, everything in it is new
        target = into / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(shown.stdout)
        if position <= first:
            exported.append(target)
        text = shown.stdout.decode("utf-8", errors="replace")
        for include in _INCLUDE.findall(text):
            todo.append((path.parent / include).resolve())
    return exported, top


def baseline_from_ref(
    ref: str, paths: Sequence[Path], judge: Callable[[Sequence[Path]], Sequence[Finding]]
) -> set[str]:
    """The baseline's keys: the findings `judge` makes of the files as they were at `ref`."""
    from compat.commands.waivers import finding_key

    with tempfile.TemporaryDirectory(prefix="compat-baseline-") as tmp:
        exported, _top = export_files(ref, paths, Path(tmp))
        if not exported:
            return set()
        findings = judge(exported)
        return {finding_key(f.rule.id, [p.name for p in f.packages]) for f in findings}
