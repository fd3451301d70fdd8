"""The pre-commit hook (.pre-commit-hooks.yaml, issue 35 item 7): its `files:` pattern matches
every kind of file `compat check` reads, under the names projects give them, and nothing else
a repository commonly holds; the hook's entry reads every file it is handed."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.lib import paths

HOOK = yaml.safe_load((paths.REPO / ".pre-commit-hooks.yaml").read_text())[0]
# pre-commit matches `files:` with re.search over the path relative to the repository root.
FILES = re.compile(HOOK["files"])
DATA = paths.TESTS / "data"
PYLOCK = (
    'lock-version = "1.0"\ncreated-by = "pip"\n\n[[packages]]\nname = "trl"\nversion = "0.15.2"\n'
)

# Each kind check reads (compat/facts/declared/detect.py), the names a project gives it, and a
# real file of that kind (tests/data) or its text.
KINDS: dict[str, list[tuple[str, Path | str]]] = {
    "requirements": [
        ("requirements.txt", DATA / "real/check/verl-requirements.txt"),
        ("requirements-dev.in", "trl==0.15.2\n"),
        ("requirements/base.txt", DATA / "real/check/X-R1-requirements.txt"),
        ("ci/constraints.txt", "torch==2.5.1\n"),
        # issue 42 item 11: nested, prefixed and suffixed names
        ("requirements/gpu/cuda12.txt", "torch==2.5.1\n"),
        ("docs-requirements.txt", "sphinx\n"),
        ("requirements-dev.txt", "pytest\n"),
    ],
    "pyproject": [("pyproject.toml", DATA / "real/check/trl-pyproject.toml")],
    "setup.py": [("setup.py", DATA / "real/check/open-r1-setup.py")],
    "pipfile": [("Pipfile", DATA / "real/check/h2o-llmstudio-Pipfile")],
    "pipfile.lock": [("Pipfile.lock", DATA / "real/check/h2o-llmstudio-Pipfile.lock")],
    "pylock": [("pylock.toml", PYLOCK), ("pylock.train.toml", PYLOCK)],
    "uv.lock": [("uv.lock", DATA / "real/check/open-instruct-uv.lock")],
    "conda-env": [
        ("environment.yml", DATA / "conda/torchbricks-environment.yml"),
        ("envs/environment-gpu.yaml", DATA / "conda/verl-spo-environment.yml"),
    ],
    "conda-lock": [("conda-lock.yml", DATA / "conda/Yi-conda-lock.yml")],
    "pixi.toml": [("pixi.toml", DATA / "pixi/pixi-sample-pixi.toml")],
    "pixi.lock": [("pixi.lock", DATA / "pixi/pixi-sample-pixi.lock")],
}
# A pip --report JSON has no conventional name (`pip install --report FILE`): matching every
# *.json would hand the hook package.json and tsconfig.json. The hook's comment says so.
NOT_BY_NAME = {"pip-report"}
NOT_MATCHED = [
    ".github/workflows/ci.yml",
    ".pre-commit-config.yaml",
    "mkdocs.yml",
    "package.json",
    "docs/notes.txt",
    "configs/ds_zero3.json",
    "environment.py",
    "conda-lock.yml.bak",
]


def kinds_check_reads() -> set[str]:
    """Every kind `file_kind` returns, read from its source (a new kind fails this test)."""
    source = (paths.COMPAT / "facts/declared/detect.py").read_text()
    function = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "file_kind"
    )
    kinds = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            values = [node.value]
            while values:
                value = values.pop()
                if isinstance(value, ast.IfExp):  # `"pipfile.lock" if ... else "pip-report"`
                    values += [value.body, value.orelse]
                elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                    kinds.add(value.value)
    return kinds


def fixture_repository(root: Path) -> list[str]:
    names = []
    for entries in KINDS.values():
        for name, content in entries:
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_text(content)
            names.append(name)
    return names


def test_every_kind_check_reads_is_matched() -> None:
    assert set(KINDS) == kinds_check_reads() - NOT_BY_NAME
    for kind, entries in KINDS.items():
        for name, _ in entries:
            assert FILES.search(name), (kind, name)
            assert FILES.search(f"services/trainer/{name}"), (kind, name)


# Not judged themselves: a staged one makes the hook check the project it belongs to.
SETTINGS = [".compat.toml", "svc/.compat.toml", ".compat/cluster.json", "hardware-h100.json"]


def test_config_and_hardware_profiles_are_matched() -> None:
    for name in SETTINGS:
        assert FILES.search(name), name


def test_nothing_else_is_matched() -> None:
    for name in NOT_MATCHED:
        assert not FILES.search(name), name


def test_the_hooks_entry_reads_each_file_it_is_handed(tmp_path: Path) -> None:
    """Each matched file through the hook's own entry (`compat check --offline --pre-commit
    FILE`), as a real process in the fixture repository: a verdict (0, 1), never exit 2 or 3
    (a staged file with nothing to check passes: issue 42 item 11)."""
    names = fixture_repository(tmp_path)
    entry = HOOK["entry"].split()
    assert entry[0] == "compat"
    for name in names:
        proc = subprocess.run(
            [sys.executable, "-m", "compat", *entry[1:], name, "--quiet"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode in (0, 1), (name, proc.stderr)


def test_the_hook_passes_a_staged_pyproject_with_nothing_to_check(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    entry = HOOK["entry"].split()
    proc = subprocess.run(
        [sys.executable, "-m", "compat", *entry[1:], "pyproject.toml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
