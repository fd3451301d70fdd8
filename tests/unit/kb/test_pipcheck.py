"""`compat doctor` does pip check's job: compared with real `pip check` on the same environment.

Environments are real: a venv (without pip) whose site-packages holds dist-info directories, or
a `pip install --target` directory filled by real pip from the loopback index. `pip check` runs
in the target interpreter through `pip --python`, so it sees exactly that environment.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_dist
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.doctor import doctor_json

PIP_ENV = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
Problem = tuple[str, str, str]  # (kind, dependent, required), canonical names


def make_venv(root: Path) -> tuple[Path, Path]:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = next(root.glob("lib/python*/site-packages"))
    return root / "bin" / "python", site


def pip_check(python: Path, extra_env: dict[str, str] | None = None) -> tuple[int, set[Problem]]:
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "check"],
        capture_output=True,
        text=True,
        env={**PIP_ENV, **(extra_env or {})},
        timeout=120,
        check=False,
    )
    problems: set[Problem] = set()
    for line in proc.stdout.splitlines():
        missing = re.fullmatch(r"(\S+) \S+ requires (\S+), which is not installed\.", line)
        conflict = re.fullmatch(r"(\S+) \S+ has requirement (\S+?)[\[<>=!~; (].*", line)
        if missing:
            problems.add(("missing", missing[1], missing[2]))
        elif conflict:
            problems.add(("conflict", conflict[1], conflict[2].lower()))
        else:
            assert line == "No broken requirements found.", line
    return proc.returncode, problems


def compat_problems(document: dict[str, Any]) -> tuple[set[Problem], set[Problem]]:
    """(what pip check also reports, what only the extras pass adds), from the JSON report."""
    plain: set[Problem] = set()
    via_extra: set[Problem] = set()
    for finding in document["findings"]:
        if finding["kind"] != "pip-check":
            continue
        _, kind, required = finding["rule"].split(":")
        for sentence in finding["matched"]:
            dependent = sentence.split(" ", 1)[0]
            (via_extra if "(for the extra" in sentence else plain).add((kind, dependent, required))
    return plain, via_extra


# doctor as pip check is run: no probe, exit 0 whatever it finds (its verdicts are compared).
QUIET = ("--no-probe", "--fail-on", "never")

# One environment, many of pip check's cases at once: (name, version, requires).
CASES: list[tuple[str, str, list[str]]] = [
    ("base-lib", "1.4.0", []),
    ("clean-app", "1.0", ["base-lib>=1.0,<2"]),
    ("needs-missing", "1.0", ["not-installed-pkg>=1"]),
    ("too-new", "2.0", ["base-lib<1.4"]),
    ("old-style", "1.0", ["base-lib (>=2.0)"]),
    ("excluded", "1.0", ["base-lib>=1,!=1.4.0"]),
    ("Spelled_Oddly", "1.0", ["spelled.other==3.0"]),
    ("spelled-other", "3.0", []),
    ("pre-dep", "1.1rc1", []),
    ("accepts-pre", "1.0", ["pre-dep>=1.0"]),  # 1.1rc1 is in >=1.0 with pre-releases allowed
    ("rejects-pre", "1.0", ["pre-dep>=1.1"]),  # 1.1rc1 < 1.1
    ("marker-false", "1.0", ['not-installed-a; python_version < "3"']),
    ("marker-true", "1.0", ['not-installed-b; python_version >= "3"']),
    ("marker-platform", "1.0", ['not-installed-c; sys_platform == "no-such-os"']),
    ("extra-only", "1.0", ['not-installed-d; extra == "docs"', 'base-lib>=9; extra == "test"']),
    ("url-dep", "1.0", ["base-lib @ https://example.invalid/base_lib-1.4.0-py3-none-any.whl"]),
    ("url-missing", "1.0", ["not-installed-e @ https://example.invalid/e.whl"]),
    ("wants-extra", "1.0", ["has-extras[gpu]>=1"]),
    ("has-extras", "1.0", ['not-installed-f>=2; extra == "gpu"', 'base-lib<1; extra == "gpu"']),
]


def test_same_problems_as_pip_check_on_a_real_venv(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    for name, version, requires in CASES:
        make_dist(site, name, version, requires=requires)
    code, expected = pip_check(python)
    assert code == 1
    # pip check's own verdicts, written out so that a change in either tool shows here.
    assert expected == {
        ("missing", "needs-missing", "not-installed-pkg"),
        ("missing", "marker-true", "not-installed-b"),
        ("missing", "url-missing", "not-installed-e"),
        ("conflict", "too-new", "base-lib"),
        ("conflict", "old-style", "base-lib"),
        ("conflict", "excluded", "base-lib"),
        ("conflict", "rejects-pre", "pre-dep"),
    }
    for args in (("--python", str(python)), ("--path", str(site))):
        plain, via_extra = compat_problems(doctor_json(*QUIET, *args)[1])
        assert plain == expected, args
        # Beyond pip check: wants-extra asks for has-extras[gpu], whose requirements fail.
        assert via_extra == {
            ("missing", "has-extras", "not-installed-f"),
            ("conflict", "has-extras", "base-lib"),
        }


def test_egg_info_requires_txt_is_read_as_pip_reads_it(tmp_path: Path) -> None:
    # Debian's dist-packages and `setup.py develop` leave .egg-info directories: their
    # requirements are in requires.txt, not in PKG-INFO (found on this machine: PyGObject).
    python, site = make_venv(tmp_path / "venv")
    make_dist(site, "base-lib", "1.0")
    egg = site / "Old_Style-2.0-py3.11.egg-info"
    egg.mkdir()
    (egg / "PKG-INFO").write_text("Metadata-Version: 1.2\nName: old-style\nVersion: 2.0\n\n")
    (egg / "requires.txt").write_text(
        "base-lib>=1.5\n\n[GPU_Support]\nnot-installed-x\n\n"
        '[:python_version < "3"]\nnot-installed-y\n\n'
        '[:sys_platform == "linux" or sys_platform == "win32" or sys_platform == "darwin"]\n'
        "not-installed-z\n"
    )
    make_dist(site, "wants-gpu", "1.0", requires=["old-style[gpu-support]"])
    code, expected = pip_check(python)
    assert code == 1
    assert expected == {
        ("conflict", "old-style", "base-lib"),
        ("missing", "old-style", "not-installed-z"),
    }
    plain, via_extra = compat_problems(doctor_json(*QUIET, "--python", str(python))[1])
    assert plain == expected
    assert via_extra == {("missing", "old-style", "not-installed-x")}


REAL = json.loads((paths.DATA / "pipcheck" / "pypi-requires-dist.json").read_text())
# What is installed beside the seven real distributions: versions chosen to meet some of their
# requirements and break others (numpy 2 for vLLM 0.7.2, tokenizers 0.21 for transformers 4.46,
# fsspec past datasets' cap, an NCCL wheel other than torch 2.5.1's pin); the rest is missing.
BESIDE = {
    "numpy": "2.1.0", "tokenizers": "0.21.0", "huggingface-hub": "0.26.0", "safetensors": "0.4.5",
    "packaging": "24.2", "PyYAML": "6.0.2", "filelock": "3.16.1", "fsspec": "2024.12.0",
    "nvidia-nccl-cu12": "2.20.5", "triton": "3.1.0", "typing_extensions": "4.12.2",
    "requests": "2.32.3", "tqdm": "4.67.1", "psutil": "6.1.0",
}  # fmt: skip


def test_real_pypi_metadata_gives_pip_checks_verdicts(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    for dist in REAL["distributions"]:
        info = make_dist(site, dist["name"], dist["version"], requires=dist["requires_dist"])
        # As pip writes it: the wheel's own tag (torch: cp311-cp311-manylinux1_x86_64).
        tag = "-".join(dist["wheel"].rsplit("/", 1)[1].removesuffix(".whl").split("-")[-3:])
        (info / "WHEEL").write_text(f"Wheel-Version: 1.0\nTag: {tag}\n", encoding="utf-8")
    for name, version in BESIDE.items():
        make_dist(site, name, version)
    # Asks for extras of the real distributions, so their extra sections are checked too.
    make_dist(site, "my-trainer", "1.0", requires=["transformers[torch]", "accelerate[deepspeed]"])
    code, expected = pip_check(python)
    assert code == 1
    assert len(expected) > 40  # the missing ones, and the conflicts below
    assert {p for p in expected if p[0] == "conflict"} == {
        ("conflict", "vllm", "numpy"),
        ("conflict", "vllm", "transformers"),
        ("conflict", "transformers", "tokenizers"),
        ("conflict", "datasets", "fsspec"),
        ("conflict", "torch", "nvidia-nccl-cu12"),
    }
    # --path: the directory name tells Python 3.11, torch's wheel tag tells Linux x86_64.
    for args in (("--python", str(python)), ("--path", str(site))):
        document = doctor_json(*QUIET, *args)[1]
        plain, via_extra = compat_problems(document)
        assert plain == expected, args
        assert via_extra == {("missing", "accelerate", "deepspeed")}
        assert not [n for n in document["notes"] if "declared requirements" in n]


def test_findings_gate_and_read_like_pip(tmp_path: Path) -> None:
    _, site = make_venv(tmp_path / "venv")
    make_dist(site, "trl", "0.14.0", requires=["transformers>=4.46.0", "accelerate"])
    make_dist(site, "transformers", "4.40.0")
    result = run_cli(["doctor", "--path", str(site), "--no-probe"])
    assert result.exit_code == 1
    assert "pip-check:conflict:transformers" in result.stdout
    assert (
        "trl 0.14.0 has requirement transformers>=4.46.0, but you have transformers 4.40.0"
        in result.stdout
    )
    assert "pip-check:missing:accelerate" in result.stdout
    document = doctor_json(*QUIET, "--path", str(site))[1]
    conflict = next(f for f in document["findings"] if f["rule"].endswith(":transformers"))
    assert conflict["status"] == "affected"
    assert conflict["severity"] == "error"
    assert conflict["fix"]["constraints"] == ["transformers>=4.46.0"]
    assert [p["name"] for p in conflict["packages"]] == ["transformers", "trl"]
    rules = [f for f in document["findings"] if f["kind"] == "rule"]
    assert all(not f["rule"].startswith("pip-check:") for f in rules)


def test_clean_environment_has_no_pip_check_findings(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    make_dist(site, "trl", "0.14.0", requires=["transformers>=4.46.0", 'rich; extra == "x"'])
    make_dist(site, "transformers", "4.46.3", requires=["numpy>=1.17"])
    make_dist(site, "numpy", "2.0.0rc1")
    assert pip_check(python) == (0, set())
    result = run_cli(["doctor", "--python", str(python), "--no-probe"])
    assert result.exit_code == 0, result.stdout
    assert "pip-check" not in result.stdout


def test_markers_are_evaluated_for_the_path_environment_not_this_process(tmp_path: Path) -> None:
    # A Python 3.9 site-packages read from this (newer) interpreter: 3.9's markers apply.
    site = tmp_path / "lib" / "python3.9" / "site-packages"
    make_dist(site, "old-app", "1.0", requires=['backport-x; python_version < "3.10"'])
    make_dist(site, "new-app", "1.0", requires=['modern-y; python_version >= "3.10"'])
    make_dist(site, "linux-app", "1.0", requires=['linux-z; sys_platform == "linux"'])
    document = doctor_json(*QUIET, "--path", str(site))[1]
    plain, _ = compat_problems(document)
    assert plain == {("missing", "old-app", "backport-x")}
    # The platform is not known for a bare directory: said once, never guessed.
    assert any("1 declared requirements" in note for note in document["notes"])


@pytest.mark.parametrize(
    ("tag", "expected", "undecided"),
    [
        # A CPython 3.9 extension wheel for aarch64 Linux pins platform and Python version.
        ("cp39-cp39-manylinux_2_17_aarch64", {"on-arm", "on-linux", "old-python"}, 1),
        # abi3 runs on any later Python: the platform is known, the Python version is not.
        ("cp39-abi3-manylinux_2_28_x86_64", {"on-linux"}, 2),
        ("cp312-cp312-win_amd64", set(), 1),
        # Only pure wheels: nothing beyond what the directory name tells (here: nothing).
        ("py3-none-any", set(), 5),
    ],
)
def test_a_path_environment_takes_its_platform_from_its_binary_wheels(
    tmp_path: Path, tag: str, expected: set[str], undecided: int
) -> None:
    target = tmp_path / "target"  # a `pip install --target` dir: no Python version in its name
    dist = make_dist(target, "fastlib", "1.0")
    (dist / "WHEEL").write_text(f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: {tag}\n")
    make_dist(
        target,
        "app",
        "1.0",
        requires=[
            'on-arm; platform_machine == "aarch64"',
            'on-linux; sys_platform == "linux"',
            'old-python; python_version < "3.10"',
            'on-windows-arm; platform_machine == "ARM64"',
            'new-kernel; platform_release >= "6"',  # no wheel tells the kernel release
        ],
    )
    document = doctor_json(*QUIET, "--path", str(target))[1]
    plain, _ = compat_problems(document)
    assert {required for _, _, required in plain} == expected
    (note,) = [n for n in document["notes"] if "declared requirements" in n]
    assert note.startswith(f"{undecided} declared requirements")


def test_unparsable_requirement_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    python, site = make_venv(tmp_path / "venv")
    make_dist(site, "broken-reqs", "1.0", requires=["ok-dep", "bad dep ==="])
    code, problems = pip_check(python)
    assert code == 1 and problems == set()  # pip skips the distribution and fails
    document = doctor_json(*QUIET, "--python", str(python))[1]
    assert compat_problems(document) == (set(), set())
    (problem,) = [p for p in document["environment"]["problems"] if p["kind"] != "duplicate"]
    assert problem["kind"] == "invalid-requirement"
    assert "'bad dep ==='" in problem["message"]


@pytest.mark.parametrize("version", ["0.34.0", "0.33.0"])
def test_pip_install_target_from_the_loopback_index(tmp_path: Path, version: str) -> None:
    projects = {
        "trl": [Dist("trl", "0.14.0", requires=["accelerate>=0.34", "datasets>=2"])],
        "accelerate": [Dist("accelerate", version, requires=['numpy; python_version >= "3"'])],
        "datasets": [Dist("datasets", "2.19.0")],
        "numpy": [Dist("numpy", "2.1.0")],
    }
    target = tmp_path / "target"
    with IndexServer(projects) as index:
        # --no-deps for trl: what a hand-pinned install leaves behind.
        for spec, deps in (("trl==0.14.0", False), (f"accelerate=={version}", False)):
            subprocess.run(
                [sys.executable, "-m", "pip", "install", "--quiet", "--no-cache-dir",
                 "--index-url", index.url, "--target", str(target),
                 *([] if deps else ["--no-deps"]), spec],
                env=PIP_ENV, check=True, timeout=120, capture_output=True,
            )  # fmt: skip
    python, _ = make_venv(tmp_path / "venv")
    _, expected = pip_check(python, {"PYTHONPATH": str(target)})
    wanted = {("missing", "trl", "datasets"), ("missing", "accelerate", "numpy")}
    if version == "0.33.0":
        wanted.add(("conflict", "trl", "accelerate"))
    assert expected == wanted
    # accelerate's numpy marker needs the Python version, which a --target dir's name does not
    # tell: the byte-code pip compiled while installing does (RECORD: *.cpython-311.pyc).
    plain, _ = compat_problems(doctor_json(*QUIET, "--path", str(target))[1])
    assert plain == expected
