"""conda environment files (`environment.yml`, `conda env export` output): `dependencies:` match
specs (compat.facts.declared.condaspec) and the `pip:` list, read as a requirements file in the
environment file's directory (conda hands it to pip there), with its own options (`-r`,
`--extra-index-url`, `-e`). A package in both lists is installed by conda, then over it by pip —
noted, and pip's is the one judged. `prefix:`, `name:`, `variables:` say nothing to check.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.facts.declared.condaspec import declare, parse_spec, pep440
from compat.facts.declared.entries import CondaFacts, FileResult
from compat.model import Origin

_KEYS = ("dependencies",)


def looks_like(head: str) -> bool:
    """A YAML document with a top-level `dependencies:` list (content detection for `*.yml`)."""
    return re.search(r"^dependencies\s*:", head, re.MULTILINE) is not None


def read_environment_yml(path: Path, environ: Mapping[str, str]) -> tuple[FileResult, CondaFacts]:
    from compat.facts.declared.requirements import RequirementsResult, read_requirement_lines
    from compat.files.readers import read_text
    from compat.files.yamlio import load_with_lines

    text = read_text(path, "requirements")
    document = load_with_lines(text, str(path))
    if not isinstance(document, dict) or not isinstance(document.get("dependencies"), list):
        raise InputError(
            "conda environment file: no `dependencies:` list", origin=Origin(str(path))
        )
    lines = _Lines(text)
    facts = CondaFacts()
    channels = document.get("channels")
    if isinstance(channels, list):
        facts.channels = tuple(str(c) for c in channels)
    result = FileResult()
    pip: list[tuple[int, str]] = []
    for item in document["dependencies"]:
        if isinstance(item, dict):
            if set(item) - {"pip"} or not isinstance(item.get("pip"), list):
                raise InputError(
                    "conda environment file: a dependency must be a spec or a `pip:` list",
                    origin=Origin(str(path), getattr(item, "line", None)),
                )
            for line in item["pip"]:
                if not isinstance(line, str):
                    raise InputError(
                        f"pip: expected a requirement line, got {line!r}",
                        origin=Origin(str(path), getattr(item["pip"], "line", None)),
                    )
                pip.append((lines.find(line) or 0, line))
            continue
        if not isinstance(item, str | int | float):
            raise InputError(
                f"conda environment file: expected a package spec, got {item!r}",
                origin=Origin(str(path), getattr(document["dependencies"], "line", None)),
            )
        spec_text = str(item)
        origin = Origin(str(path), lines.find(spec_text))
        spec = parse_spec(spec_text, origin)
        if spec.name == "python":  # conda's python pin is the environment's requires-python
            python = pep440(spec.version)
            if python:
                result.python.append((python, origin))
            continue
        declared = declare(spec, origin, facts, group="dependencies")
        if declared is not None:
            result.requirements.append(declared)
    if pip:
        pip_result = read_requirement_lines(
            path, pip, environ=environ, result=RequirementsResult(), stack=(path.resolve(),)
        )
        result.requirements += [
            r if r.group else _in_group(r, "pip") for r in pip_result.requirements
        ]
        result.indexes += pip_result.indexes
        result.notes += pip_result.notes
        _pip_over_conda(result, facts)
    return result, facts


def _in_group(requirement: Any, group: str) -> Any:
    from dataclasses import replace

    return replace(requirement, group=group)


def _pip_over_conda(result: FileResult, facts: CondaFacts) -> None:
    """A name in both lists: conda installs it, then pip installs over it (a classic broken
    environment). pip's is what runs, so the conda entry and its build facts are dropped."""
    pip_names = {r.name: r for r in result.requirements if r.group == "pip"}
    for name, conda_origin in list(facts.names.items()):
        pip = pip_names.get(name)
        if pip is None:
            continue
        result.notes.append(
            f"{pip.origin}: {pip.display_name} is declared both as a conda package "
            f"({conda_origin}) and in `pip:` — pip installs over conda's copy and conda keeps "
            f"its record of it (conda and pip both manage {pip.display_name}); pip's is judged"
        )
        del facts.names[name]
        result.requirements = [
            r for r in result.requirements if not (r.name == name and r.group == "dependencies")
        ]
        if name == "torch":
            facts.builds.pop("torch_cuda", None)
            facts.torch = facts.torch_why = ""


class _Lines:
    """The line of each list entry, found in order (an entry written twice gets both lines).
    One pass builds the index, so a long file costs O(lines), not O(entries x lines)."""

    def __init__(self, text: str) -> None:
        self.index: dict[str, list[int]] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("-"):
                entry = stripped[1:].split(" #")[0].strip().strip("'\"")
                self.index.setdefault(entry, []).append(number)

    def find(self, entry: str) -> int | None:
        found = self.index.get(entry.strip())
        if not found:
            return None
        return found.pop(0) if len(found) > 1 else found[0]
