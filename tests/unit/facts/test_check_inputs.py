"""`compat check` on the inputs users have: setup.py (read, never run), Poetry, Pipfile and
Pipfile.lock, uv.lock forks, direct references, requires-python, duplicate lines, and the
hardware a CI gate judges against (a profile, never the runner unless --probe)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.lib import paths
from tests.profiles import R535

REAL = paths.REAL / "check"
CUDA13_RULE = "cuda13-build-on-pre-580-driver"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check_json(*args: str) -> Any:
    result = run_cli(["check", "--offline", *args, "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return result.json()


def packages_of(report: Any, rule: str) -> list[dict[str, str]]:
    (found,) = [f for f in report["findings"] if f["rule"] == rule]
    packages: list[dict[str, str]] = found["packages"]
    return packages


def profile(tmp_path: Path, document: dict[str, Any] = R535) -> Path:
    return write(tmp_path / "r535.json", json.dumps(document))


# --- setup.py --------------------------------------------------------------------------------


def test_setup_py_literal_lists_names_and_extras_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    setup = write(
        tmp_path / "setup.py",
        "from setuptools import setup\n"
        f"open({str(marker)!r}, 'w').write('executed')\n"
        "BASE = [\n    'deepspeed==0.14.2',\n]\n"
        "setup(\n    name='x',\n    install_requires=BASE + ['trl==0.8.6'],\n"
        "    extras_require={'eval': ['peft>=0.14']},\n    python_requires='>=3.9',\n)\n",
    )
    report = check_json(str(setup), "--set", "zero_stage=3", "--set", "offload_optimizer=cpu",
                        "--set", "gradient_clipping=1.0")  # fmt: skip
    assert not marker.exists()  # parsed with ast, never run
    packages = packages_of(report, "deepspeed-zero3-offload-clip-device-mismatch")
    assert packages == [{"name": "deepspeed", "version": "0.14.2", "source": f"{setup}:4"}]
    assert report["environment"]["packages"] >= 2


def test_setup_py_requirement_table_idiom_of_open_r1() -> None:
    # install_requires = [deps["torch"], ...] where deps is built from the literal `_deps` list
    setup = REAL / "open-r1-setup.py"
    report = check_json(str(setup), "--set", "trainer=grpo")
    lines = setup.read_text().splitlines()
    expected = {
        # issue 42 item 4: named from the repository root, wherever the run starts
        name: f"{setup.relative_to(paths.REPO).as_posix()}:"
        f"{next(i for i, t in enumerate(lines, 1) if t.strip().startswith(chr(34) + text))}"
        for name, text in (
            ("torch", "torch=="),
            ("trl", "trl[vllm]=="),
            ("bitsandbytes", "bitsandbytes"),
        )
    }
    found = {p["name"]: p["source"] for f in report["findings"] for p in f["packages"]}
    assert found and all(found[name] == expected[name] for name in found if name in expected)
    assert report["environment"]["packages"] >= 8
    assert not any("duplicate" in n for n in report["notes"])  # one table line used twice


def test_setup_py_computed_requirements_say_how_to_get_a_report(tmp_path: Path) -> None:
    setup = write(
        tmp_path / "setup.py",
        "from setuptools import setup\n"
        "setup(name='x', install_requires=open('requirements.txt').read().splitlines())\n",
    )
    result = run_cli(["check", "--offline", str(setup)])
    assert result.exit_code == 2
    assert f"{setup}:2:" in result.stderr and "pip install --dry-run" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_file_kind_says_how_to_get_a_report(tmp_path: Path) -> None:
    odd = write(tmp_path / "deps.cfg", "[metadata]\nname = x\n")
    result = run_cli(["check", "--offline", str(odd)])
    assert result.exit_code == 2 and "--report report.json" in result.stderr


# --- Poetry, Pipfile -------------------------------------------------------------------------


def test_poetry_caret_tilde_git_rev_and_python(tmp_path: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[tool.poetry]\nname = "x"\nversion = "0.1"\n\n[tool.poetry.dependencies]\n'
        'python = "==3.10.*"\npeft = "~0.14.0"\ntransformers = "^4.40.0"\n'
        'openrlhf = {git = "https://github.com/OpenRLHF/OpenRLHF.git", '
        'rev = "01b8a23d79a8b4e965084cdf7d0c769dc569dc82"}\n\n'
        '[tool.poetry.group.dev.dependencies]\ndeepspeed = "0.13.5"\n',
    )
    report = check_json(str(pyproject), "--set", "trainer=ppo", "--set", "use_vllm=false")
    assert report["environment"]["python"].startswith("3.10")
    openrlhf = packages_of(report, "openrlhf-process-sequences-mask-on-cpu")
    assert openrlhf[0]["source"] == f"{pyproject}:9"
    (finding,) = [f for f in report["findings"] if f["rule"].startswith("openrlhf-")]
    assert finding["status"] == "affected"
    # ~0.14.0 is >=0.14.0,<0.15 and ^4.40.0 is >=4.40.0,<5: some transformers 4.x are below 4.43
    # offline the solve takes the newest transformers 4.x (no finding), and the range that also
    # admits the bad ones is a range note at the transformers line, with the caret spelled out
    assert "peft-0.14-needs-transformers-4.43" not in {f["rule"] for f in report["findings"]}
    assert any(
        n.startswith(f"{pyproject}:8: `transformers>=4.40.0,<5` also allows transformers")
        and "peft-0.14-needs-transformers-4.43" in n
        for n in report["notes"]
    )


def test_poetry_alternatives_paths_markers_and_multiple_constraints(tmp_path: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[tool.poetry]\nname = "x"\nversion = "0.1"\n\n[tool.poetry.dependencies]\n'
        'python = "^3.10"\n'
        'numpy = "1.26 || 2.0"\n'
        'mylib = {path = "../mylib"}\n'
        "deepspeed = [\n"
        '  {version = "0.14.2", markers = "sys_platform == \'linux\'"},\n'
        '  {version = "0.14.4", python = "<3.10"},\n'
        "]\n"
        'trl = {version = "~0.15", extras = ["vllm"]}\n',
    )
    report = check_json(str(pyproject), "--platform", "linux", "--set", "zero_stage=3",
                        "--set", "offload_optimizer=cpu", "--set", "gradient_clipping=1.0")  # fmt: skip
    notes = "\n".join(report["notes"])
    assert f"{pyproject}:7: numpy 1.26 || 2.0: `||` alternatives are not checked" in notes
    assert f"{pyproject}:8: mylib is a local path (../mylib): not checked" in notes
    packages = packages_of(report, "deepspeed-zero3-offload-clip-device-mismatch")
    assert packages == [{"name": "deepspeed", "version": "0.14.2", "source": f"{pyproject}:9"}]
    bad = write(tmp_path / "bad" / "pyproject.toml", '[tool.poetry.dependencies]\ntorch = "^^2"\n')
    result = run_cli(["check", "--offline", str(bad)])
    assert result.exit_code == 2 and f"{bad}:2:" in result.stderr and "^^2" in result.stderr


def test_pipfile_git_and_path_entries_and_a_lock_with_git(tmp_path: Path) -> None:
    pipfile = write(
        tmp_path / "Pipfile",
        '[packages]\nopenrlhf = {git = "https://github.com/OpenRLHF/OpenRLHF.git", '
        'ref = "01b8a23d79a8b4e965084cdf7d0c769dc569dc82"}\nmine = {path = "."}\n'
        'deepspeed = "*"\n',
    )
    report = check_json(str(pipfile), "--set", "trainer=ppo", "--set", "use_vllm=false")
    (found,) = [f for f in report["findings"] if f["rule"].startswith("openrlhf-process")]
    assert found["status"] == "affected" and found["packages"][0]["source"] == f"{pipfile}:2"
    assert any(n.startswith(f"{pipfile}:3: mine is a local path") for n in report["notes"])
    lock = write(
        tmp_path / "Pipfile.lock",
        json.dumps(
            {
                "_meta": {"requires": {"python_version": "3.10"}, "sources": []},
                "default": {
                    "openrlhf": {
                        "git": "https://github.com/OpenRLHF/OpenRLHF.git",
                        "ref": "01b8a23d79a8b4e965084cdf7d0c769dc569dc82",
                    },
                    "deepspeed": {"version": "==0.13.5"},
                },
                "develop": {},
            },
            indent=4,
        ),
    )
    locked = check_json(str(lock), "--set", "trainer=ppo", "--set", "use_vllm=false")
    assert locked["environment"]["python"].startswith("3.10")
    assert {f["rule"]: f["status"] for f in locked["findings"]}[found["rule"]] == "affected"


def test_real_poetry_project_gpt_neox() -> None:
    report = check_json(str(REAL / "gpt-neox-pyproject.toml"))
    assert report["environment"]["packages"] >= 1
    # huggingface_hub = "^0.11.0" (<0.12) beside transformers = "4.38.0", which requires
    # huggingface-hub>=0.19.3 with no marker: no install meets both (uv pip compile of the two
    # lines: "No solution found"; tests/product/test_check_real.py). That is the one affected
    # finding, and it names both lines.
    affected = [f for f in report["findings"] if f["status"] == "affected"]
    assert [f["rule"] for f in affected] == ["install:unsatisfiable"]
    assert {p["name"] for p in affected[0]["packages"]} == {"huggingface-hub", "transformers"}
    assert "transformers 4.38.0 requires huggingface-hub<1.0,>=0.19.3" in affected[0]["title"]


def test_real_pipfile_and_lock_h2o_llmstudio(tmp_path: Path) -> None:
    pipfile = REAL / "h2o-llmstudio-Pipfile"
    report = check_json(str(pipfile), "--hardware", str(profile(tmp_path)))
    assert report["environment"]["python"].startswith("3.10")  # [requires] python_version
    assert any("torch's CUDA build 11.8" in n for n in report["notes"])  # +cu118 label
    lock = check_json(str(REAL / "h2o-llmstudio-Pipfile.lock"))
    assert lock["environment"]["packages"] > 100
    assert not [f for f in lock["findings"] if f["status"] == "affected"]


def test_pipfile_index_routes_torch_to_a_cuda_build(tmp_path: Path) -> None:
    pipfile = write(
        tmp_path / "Pipfile",
        '[[source]]\nname = "pypi"\nurl = "https://pypi.org/simple"\n\n'
        '[[source]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu130"\n\n'
        '[packages]\ntorch = {index = "pytorch", version = "==2.10.0"}\n',
    )
    report = check_json(str(pipfile), "--hardware", str(profile(tmp_path)))
    assert packages_of(report, CUDA13_RULE) == [
        {"name": "torch", "version": "2.10.0", "source": f"{pipfile}:10"}
    ]


# --- uv.lock forks ---------------------------------------------------------------------------

UV_FORKS = """version = 1
revision = 3
requires-python = ">=3.10"
resolution-markers = [
    "platform_machine == 'x86_64' and sys_platform == 'linux'",
    "platform_machine == 'aarch64' and sys_platform == 'linux'",
]

[[package]]
name = "nvidia-cuda-runtime"
version = "13.0.96"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "torch"
version = "2.10.0+cu130"
source = { registry = "https://download.pytorch.org/whl/cu130" }
resolution-markers = [
    "platform_machine == 'aarch64' and sys_platform == 'linux'",
]
dependencies = [
    { name = "nvidia-cuda-runtime" },
]

[[package]]
name = "torch"
version = "2.10.0+cu128"
source = { registry = "https://download.pytorch.org/whl/cu128" }
resolution-markers = [
    "platform_machine == 'x86_64' and sys_platform == 'linux'",
]

[[package]]
name = "trainer"
version = "0.1.0"
source = { editable = "." }
dependencies = [
    { name = "torch", version = "2.10.0+cu128", source = { registry = "https://download.pytorch.org/whl/cu128" }, marker = "platform_machine == 'x86_64' and sys_platform == 'linux'" },
    { name = "torch", version = "2.10.0+cu130", source = { registry = "https://download.pytorch.org/whl/cu130" }, marker = "platform_machine == 'aarch64' and sys_platform == 'linux'" },
]
"""


@pytest.mark.parametrize(
    ("platform", "torch", "line", "affected"),
    [("linux", "2.10.0+cu128", 26, False), ("linux/aarch64", "2.10.0+cu130", 15, True)],
)
def test_uv_lock_entries_for_the_target_platform_only(
    tmp_path: Path, platform: str, torch: str, line: int, affected: bool
) -> None:
    lock = write(tmp_path / "uv.lock", UV_FORKS)
    report = check_json(str(lock), "--platform", platform, "--hardware", str(profile(tmp_path)))
    found = [f for f in report["findings"] if f["rule"] == CUDA13_RULE]
    assert bool(found) is affected
    if found:
        assert found[0]["status"] == "affected"
        assert {"name": "torch", "version": torch, "source": f"{lock}:{line}"} in found[0][
            "packages"
        ]
    assert report["environment"]["packages"] == (2 if affected else 1)


def test_real_uv_lock_open_instruct_x86_64_is_not_judged_by_aarch64_entries(
    tmp_path: Path,
) -> None:
    lock = REAL / "open-instruct-uv.lock"
    hardware = str(profile(tmp_path))
    x86 = check_json(str(lock), "--platform", "linux", "--hardware", hardware)
    assert x86["environment"]["python"].startswith("3.12")  # the lock's requires-python
    assert not [f for f in x86["findings"] if f["rule"] == CUDA13_RULE]
    arm = check_json(str(lock), "--platform", "linux/aarch64", "--hardware", hardware)
    (found,) = [f for f in arm["findings"] if f["rule"] == CUDA13_RULE]
    assert found["status"] == "affected"
    assert {k: v for k, v in found["packages"][0].items() if k != "source"} == {
        "name": "torch",
        "version": "2.10.0+cu130",
    }


# --- direct references, duplicates -----------------------------------------------------------


def test_git_commit_is_a_commit_fact_and_a_moving_ref_keeps_rules_possible(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt",
        "openrlhf @ git+https://github.com/OpenRLHF/OpenRLHF.git@01b8a23d79a8b4e965084cdf7d0c769dc569dc82\n"
        "trl @ git+https://github.com/huggingface/trl.git@main\n"
        "vllm==0.6.6.post1\n"
        "./local-project\n"
        "https://example.org/wheels/thing-1.0-py3-none-any.whl\n",
    )
    report = check_json(str(requirements), "--set", "trainer=ppo", "--set", "use_vllm=false")
    (openrlhf,) = [f for f in report["findings"] if f["rule"].startswith("openrlhf-")]
    assert openrlhf["status"] == "affected"
    assert openrlhf["packages"][0]["source"] == f"{requirements}:1"
    grpo = check_json(str(requirements), "--set", "trainer=grpo", "--set", "use_vllm=true")
    trl = [f for f in grpo["findings"] if any(p["name"] == "trl" for p in f["packages"])]
    assert trl and {f["status"] for f in trl} == {"possible"}
    notes = "\n".join(report["notes"])
    assert f"{requirements}:2: trl follows a moving git ref" in notes
    assert f"{requirements}:4: ./local-project names no project" in notes
    assert f"{requirements}:5:" in notes


def test_duplicate_and_conflicting_lines_are_flagged(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt",
        "torch==2.3.0\naccelerate\ntorch==2.4.0\naccelerate\n"
        "transformers[torch]>=4.40\ntransformers[sentencepiece]>=4.40\ntransformers<5\n"
        "trl==0.16.0\ntrl @ git+https://github.com/huggingface/trl.git@019fc6dbaa03b888f9d5c\n",
    )
    report = check_json(str(requirements))
    notes = report["notes"]
    assert not any("for transformers" in n for n in notes)  # other extras, compatible ranges
    clashes = {f["rule"]: f for f in report["findings"] if f["kind"] == "pip-check"}
    assert set(clashes) == {"pip-check:conflict:trl", "pip-check:conflict:torch"}
    # Both lines, the later one first (it is where the SARIF/GitHub annotation points).
    assert [p["source"] for p in clashes["pip-check:conflict:torch"]["packages"]] == [
        f"{requirements}:3",
        f"{requirements}:1",
    ]
    assert [p["version"] for p in clashes["pip-check:conflict:torch"]["packages"]] == [
        "2.4.0",
        "2.3.0",
    ]
    assert clashes["pip-check:conflict:trl"]["packages"][0]["source"] == f"{requirements}:9"
    assert all(f["status"] == "affected" for f in clashes.values())
    assert any(
        n.startswith(f"{requirements}:4: duplicate requirement for accelerate") for n in notes
    )


# --- target Python and hardware --------------------------------------------------------------


def test_requires_python_sets_the_target_python(tmp_path: Path) -> None:
    other = "3.9" if sys.version_info >= (3, 10) else "3.12"
    pyproject = write(
        tmp_path / "pyproject.toml",
        f'[project]\nname = "x"\nversion = "0"\nrequires-python = "=={other}.*"\n'
        'dependencies = ["torch==2.3.0"]\n',
    )
    report = check_json(str(pyproject))
    assert report["environment"]["python"].startswith(other)
    assert any(n.startswith(f"target Python {other}") for n in report["notes"])
    explicit = check_json(str(pyproject), "--python-version", "3.11")
    assert explicit["environment"]["python"].startswith("3.11")


def test_tool_compat_hardware_and_no_probe_by_default(tmp_path: Path) -> None:
    # The project with [tool.compat] and the bare file sit side by side: a file under the
    # project's directory takes its config (the nearest [tool.compat], issue 42 item 5).
    project = tmp_path / "project"
    profile(project)
    pyproject = write(
        project / "pyproject.toml",
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==2.11.0"]\n\n'
        '[tool.compat]\nhardware = "r535.json"\n',
    )
    report = check_json(str(pyproject))
    assert report["hardware"]["driver_version"] == "535.104.05"
    assert packages_of(report, CUDA13_RULE)[0]["source"] == f"{pyproject}:4"
    bare = write(tmp_path / "other" / "requirements.txt", "torch==2.11.0\n")
    unprobed = check_json(str(bare))
    assert unprobed["hardware"] is None  # the CI runner is not the training machine
    result = run_cli(["check", "--offline", "--probe", "--no-probe", str(bare)])
    assert result.exit_code == 2 and "contradict" in result.stderr
