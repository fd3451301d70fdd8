"""CUDA build facts read from metadata and files (torch is never imported), and saved profiles."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from packaging.version import Version

from compat.errors import InputError
from compat.facts.installed import read_paths
from compat.probes.cuda import NvccQuery, build_facts, find_nvcc_version
from compat.probes.profile import load_profile
from tests.dists import make_dist


@pytest.mark.parametrize(
    ("version", "requires", "expected"),
    [
        ("2.3.0+cu121", [], "12.1"),
        ("2.1.2+cu118", [], "11.8"),
        ("2.11.0+cu130", [], "13.0"),
        ("2.5.1+cpu", ["nvidia-cuda-runtime-cu12==12.4.127"], None),  # the label wins: a CPU build
        ("2.5.1+rocm6.2", [], None),
        ("2.8.0", ['nvidia-cuda-runtime-cu12==12.8.90; platform_system == "Linux"'], "12.8"),
        ("2.11.0", ['cuda-toolkit[cublas,cudart]==13.0.2; platform_system == "Linux"'], "13.0"),
        ("2.4.0", [], None),
    ],
)
def test_torch_cuda_build(
    tmp_path: Path, version: str, requires: list[str], expected: str | None
) -> None:
    make_dist(tmp_path, "torch", version, requires=requires)
    builds = build_facts(read_paths([tmp_path]), with_nvcc=False)
    assert builds.get("torch_cuda") == (Version(expected) if expected else None)


def test_torch_version_py_read_as_text(tmp_path: Path) -> None:
    make_dist(tmp_path, "torch", "2.4.0")
    (tmp_path / "torch").mkdir()
    (tmp_path / "torch" / "version.py").write_text(
        "__version__ = '2.4.0'\ndebug = False\ncuda: Optional[str] = '12.4'\nhip = None\n"
    )
    assert build_facts(read_paths([tmp_path]), with_nvcc=False)["torch_cuda"] == Version("12.4")


def test_nvidia_wheels(tmp_path: Path) -> None:
    make_dist(tmp_path, "nvidia-nccl-cu12", "2.21.5")
    make_dist(tmp_path, "nvidia-cudnn-cu12", "9.1.0.70")
    make_dist(tmp_path, "nvidia-cuda-runtime-cu12", "12.4.127")
    builds = build_facts(read_paths([tmp_path]), with_nvcc=False)
    assert builds == {
        "nccl": Version("2.21.5"),
        "cudnn": Version("9.1.0.70"),
        "cuda_runtime": Version("12.4.127"),
    }


def test_nvcc_is_the_toolkit_found_on_path(tmp_path: Path) -> None:
    nvcc = tmp_path / "bin" / "nvcc"
    nvcc.parent.mkdir()
    nvcc.write_text(
        "#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
        "echo 'Cuda compilation tools, release 12.4, V12.4.131'\n"
    )
    nvcc.chmod(0o755)
    assert find_nvcc_version({"PATH": str(nvcc.parent)}) == Version("12.4")
    assert find_nvcc_version(
        {"PATH": str(tmp_path / "empty"), "CUDA_HOME": str(tmp_path)}
    ) == Version("12.4")
    assert find_nvcc_version({"PATH": str(tmp_path / "empty")}) is None


def test_an_nvcc_that_hangs_or_says_nothing_gives_way_to_the_next(tmp_path: Path) -> None:
    """$CUDA_HOME's nvcc is asked first; one that prints no release, or does not answer in
    time, is passed over for the one on PATH, as before the query ran in the background."""
    home, path = tmp_path / "home" / "bin", tmp_path / "path"
    home.mkdir(parents=True)
    path.mkdir()
    good = path / "nvcc"
    good.write_text("#!/bin/sh\necho 'Cuda compilation tools, release 12.8, V12.8.61'\n")
    good.chmod(0o755)
    silent = home / "nvcc"
    silent.write_text("#!/bin/sh\necho 'no release here'\n")
    silent.chmod(0o755)
    environ = {"PATH": str(path), "CUDA_HOME": str(home.parent)}
    assert find_nvcc_version(environ) == Version("12.8")
    silent.write_text("#!/bin/sh\nexec sleep 30\n")
    assert NvccQuery.start(environ, timeout=0.5).version() == Version("12.8")
    # started now, read later: the same answer
    query = NvccQuery.start({"PATH": str(path)})
    assert build_facts(read_paths([tmp_path]), with_nvcc=query)["nvcc"] == Version("12.8")


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_profile_yaml_and_minimal_documents(tmp_path: Path) -> None:
    profile = load_profile(
        write(
            tmp_path / "p.yaml",
            "driver_version: 550.54.15\ncuda_driver_version: '12.4'\ngpus:\n  - name: Tesla T4\n    compute_capability: '7.5'\n",
        )
    )
    assert profile.driver_label == "550.54.15" and profile.gpus[0].compute_capability == Version(
        "7.5"
    )
    empty = load_profile(
        write(tmp_path / "cpu.json", json.dumps({"schema": "compat.hardware/1", "gpus": []}))
    )
    assert empty.gpus == () and empty.driver_version is None


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"schema": "compat.hardware/2", "gpus": []}', "schema is 'compat.hardware/2'"),
        ('{"gpus": {"name": "x"}}', "gpus must be a list"),
        ('{"gpus": [{"index": 0}]}', "gpus[0] needs at least a name"),
        (
            '{"driver_version": "five-fifty", "gpus": []}',
            "driver_version 'five-fifty' is not a version",
        ),
        (
            '{"gpus": [{"name": "T4", "memory_total_mib": "16GB"}]}',
            "memory_total_mib must be an integer",
        ),
        ('{"gpus": [\n  {"name": "T4",}\n]}', "p.json:2: invalid JSON"),
        ("[]", "must be a JSON object"),
    ],
)
def test_bad_profiles(tmp_path: Path, text: str, fragment: str) -> None:
    with pytest.raises(InputError) as raised:
        load_profile(write(tmp_path / "p.json", text))
    assert fragment in str(raised.value)


def test_unreadable_profile(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read hardware profile"):
        load_profile(tmp_path / "missing.json")
    if os.geteuid() != 0:  # pragma: no cover - root reads anything
        locked = write(tmp_path / "locked.json", "{}")
        locked.chmod(0)
        with pytest.raises(InputError):
            load_profile(locked)
