"""conda environments through the real CLI: `compat doctor --conda-prefix` (and the prefix of
`--path`) on an environment linked from real conda package records (tests/condaprefix.py says
what is real and what is minimal), and `compat check` on real environment.yml and pixi files."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests import condaprefix
from tests.conftest import run_cli
from tests.dists import make_dist
from tests.lib import paths
from tests.lib.doctor import doctor_json

DATA = paths.DATA
VERL_SPO = DATA / "conda" / "verl-spo-environment.yml"
TORCHBRICKS = DATA / "conda" / "torchbricks-environment.yml"
PIXI_TOML = DATA / "pixi" / "pytorch-gpu-pixi-example-pixi.toml"
PIXI_LOCK = DATA / "pixi" / "pytorch-gpu-pixi-example-pixi.lock"
HTCONDOR = DATA / "pixi" / "reproducible-ml-workflows-htcondor-pixi.toml"
TORCH_RECORD = "pytorch-2.8.0-cuda129_mkl_py313_h7947483_302.json"


def problems(report: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [p for p in report["environment"]["problems"] if p["kind"] == kind]


# ---------------------------------------------------------------------------------------------
# doctor


def test_conda_torch_cuda_build_and_cuda_stack_from_the_records(tmp_path: Path) -> None:
    condaprefix.build(tmp_path)
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert report["stack"]["builds"] == {
        "cuda_runtime": "12.9.79",  # cuda-cudart, not the cuda-version metapackage's 12.9
        "cudnn": "9.10.2.21",
        "nccl": "2.28.9.1",
        "torch_cuda": "12.9",  # pytorch's build string cuda129_mkl_py313_h7947483_302
    }
    assert report["stack"]["packages"]["torch"] == "2.8.0"
    assert report["environment"]["python"] == "3.13.9"  # the python record, not the dir name
    assert report["environment"]["problems"] == []
    assert "conda prefix" in report["environment"]["source"]


def test_the_prefix_above_a_path_is_read_too(tmp_path: Path) -> None:
    condaprefix.build(tmp_path)
    _, report = doctor_json("--no-probe", "--path", str(condaprefix.site_packages(tmp_path)))
    assert report["stack"]["builds"]["torch_cuda"] == "12.9"


def test_python_and_the_running_interpreter_read_their_prefix(tmp_path: Path) -> None:
    """`--python` reads the interpreter's sys.prefix/conda-meta, and so does the default (the
    running interpreter): a venv stands in for the conda prefix (its sys.prefix is the venv)."""
    import subprocess
    import sys
    import sysconfig

    prefix = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True)
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    condaprefix.build(prefix, python=python)
    interpreter = prefix / "bin" / "python"
    _, report = doctor_json("--no-probe", "--python", str(interpreter))
    assert report["stack"]["builds"]["torch_cuda"] == "12.9"
    assert f"conda prefix {prefix}" in report["environment"]["source"]
    # the same interpreter running compat itself (compat and its dependencies on PYTHONPATH)
    here = [str(paths.REPO), sysconfig.get_paths()["purelib"]]
    proc = subprocess.run(
        [str(interpreter), "-m", "compat", "doctor", "--no-probe", "--format", "json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(here)},
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["stack"]["builds"]["torch_cuda"] == "12.9"
    assert f"conda prefix {prefix}" in report["environment"]["source"]


def test_conda_only_packages_are_never_package_facts(tmp_path: Path) -> None:
    """libtorch, mkl, libgcc, cudnn, python have no PyPI counterpart in the sourced map: a rule
    naming a PyPI project of the same name must not fire on them."""
    condaprefix.build(tmp_path)
    rules = tmp_path / "rules.yaml"
    rules.write_text(
        "schema: compat.matrix/1\nrules:\n"
        + "".join(
            f"""  - id: no-{name}
    title: {name} is named
    severity: error
    evidence: reported
    when:
      packages:
        {name}: ">=0"
    fix: {{summary: s, change: remove it}}
    references: ['https://example.org/{name}']
    examples: {{affected: [{{packages: {{{name}: '1.0'}}}}], clear: [{{}}]}}
"""
            for name in ("libtorch", "mkl", "libgcc", "cudnn", "python", "cuda-version", "nccl")
        ),
        encoding="utf-8",
    )
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path), "--matrix", str(rules))
    assert not [f for f in report["findings"] if f["rule"].startswith("no-")], report["findings"]
    assert report["environment"]["packages"] == 4  # torch, numpy, filelock, triton (mapped)


def test_pip_torch_over_conda_torch_is_reported_and_its_own_build_is_used(tmp_path: Path) -> None:
    condaprefix.build(tmp_path)
    site = condaprefix.site_packages(tmp_path)
    shutil.rmtree(site / "torch-2.8.0.dist-info")  # pip uninstalled conda's files...
    make_dist(site, "torch", "2.9.1", requires=["nvidia-cuda-runtime-cu12==12.8.90"])  # ...pip's
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    (problem,) = problems(report, "conda-pip")
    assert problem["source"].endswith("torch-2.9.1.dist-info")
    assert TORCH_RECORD in problem["message"]
    assert "2.9.1" in problem["message"]
    # pip's torch is what runs: its CUDA build, and no conda CUDA libraries
    assert report["stack"]["builds"] == {"torch_cuda": "12.8"}
    assert report["stack"]["packages"]["torch"] == "2.9.1"


def test_both_dist_infos_present_is_reported(tmp_path: Path) -> None:
    condaprefix.build(tmp_path)
    site = condaprefix.site_packages(tmp_path)
    make_dist(site, "numpy", "1.26.4")  # pip install numpy<2 beside conda's numpy 2.3.5
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert [p["message"].split(" ")[0] for p in problems(report, "conda-pip")] == ["numpy"]


def test_a_record_without_files_falls_back_to_installer(tmp_path: Path) -> None:
    """A record with no `files` list (minimal) judges ownership by the dist-info's INSTALLER."""
    condaprefix.build(tmp_path)
    record_path = tmp_path / "conda-meta" / TORCH_RECORD
    record = json.loads(record_path.read_text(encoding="utf-8"))
    record["files"] = []
    record_path.write_text(json.dumps(record), encoding="utf-8")
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert report["environment"]["problems"] == []
    assert report["stack"]["builds"]["torch_cuda"] == "12.9"
    (condaprefix.site_packages(tmp_path) / "torch-2.8.0.dist-info" / "INSTALLER").write_text(
        "pip\n"
    )
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert len(problems(report, "conda-pip")) == 1


def test_files_prove_ownership_whatever_installer_says(tmp_path: Path) -> None:
    """conda-build runs pip, so a conda package's dist-info may say INSTALLER=pip; its record's
    files list is what proves it conda's. A metapackage record of the same PyPI project (files
    listing no dist-info, like conda-forge's pytorch-cpu) never makes a duplicate either."""
    condaprefix.build(tmp_path)
    (condaprefix.site_packages(tmp_path) / "torch-2.8.0.dist-info" / "INSTALLER").write_text(
        "pip\n"
    )
    meta = {"name": "pytorch-cpu", "version": "2.8.0", "build": "cpu_generic_h1_2", "files": []}
    (tmp_path / "conda-meta" / "pytorch-cpu-2.8.0-cpu_generic_h1_2.json").write_text(
        json.dumps(meta), encoding="utf-8"
    )
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert report["environment"]["problems"] == []
    assert report["stack"]["builds"]["torch_cuda"] == "12.9"


def test_torch_only_in_conda_meta_is_still_a_fact(tmp_path: Path) -> None:
    """No site-packages to read (a prefix copied without it): the record is the package."""
    condaprefix.build(tmp_path, conda_dist_infos=False)
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert report["stack"]["packages"]["torch"] == "2.8.0"
    assert report["stack"]["builds"]["torch_cuda"] == "12.9"


def test_verbatim_records_are_read(tmp_path: Path) -> None:
    """The two shipped PrefixRecords as pixi wrote them: cuda-version gives the runtime when no
    cuda-cudart is linked; pytorch-gpu (a metapackage) is not torch itself."""
    condaprefix.build(tmp_path, ("python", "numpy"), verbatim=("cuda-version", "pytorch-gpu"))
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    assert report["stack"]["builds"] == {"cuda_runtime": "12.9"}
    assert report["stack"]["packages"]["torch"] is None


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b'{"name": "pytorch", "version": 2}',
        b"[" * 5000 + b"]" * 5000,
        b"\xff\xfe",
        b'{"name": "pytorch", "version": "2.8.0", "build": "x", "files": '
        + b"[" * 200
        + b"]" * 200
        + b"}",
    ],
)
def test_hostile_record_is_one_problem_naming_the_file(tmp_path: Path, content: bytes) -> None:
    """Like a broken dist-info: one problem naming the record, the rest of the prefix read."""
    condaprefix.build(tmp_path)
    (tmp_path / "conda-meta" / TORCH_RECORD).write_bytes(content)
    result = run_cli(["doctor", "--conda-prefix", str(tmp_path), "--no-probe", "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    report = result.json()
    (problem,) = problems(report, "broken-metadata")
    assert problem["source"].endswith(TORCH_RECORD)
    assert "\n" not in problem["message"] and TORCH_RECORD in problem["message"]
    assert report["stack"]["builds"]["cudnn"] == "9.10.2.21"  # the other records still count


def test_oversized_and_special_records_are_refused_without_reading_them(tmp_path: Path) -> None:
    condaprefix.build(tmp_path)
    record = tmp_path / "conda-meta" / TORCH_RECORD
    with record.open("r+b") as handle:
        handle.truncate(17 * 1024 * 1024)  # sparse: over the 16 MiB metadata cap
    os.mkfifo(tmp_path / "conda-meta" / "nccl-2.28.9.1-h4d09622_0.json.tmp")
    fifo = tmp_path / "conda-meta" / "numpy-2.3.5-py313hf6604e3_0.json"
    fifo.unlink()
    os.mkfifo(fifo)
    _, report = doctor_json("--no-probe", "--conda-prefix", str(tmp_path))
    sources = sorted(Path(p["source"]).name for p in problems(report, "broken-metadata"))
    assert sources == [fifo.name, TORCH_RECORD]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--conda-prefix", "{missing}"], "no such directory"),
        (["--conda-prefix", "{plain}"], "no conda-meta directory"),
        (["--conda-prefix", "{prefix}", "--python", "/usr/bin/python3"], "--python"),
    ],
)
def test_bad_conda_prefix_is_exit_2_one_line(tmp_path: Path, args: list[str], needle: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    prefix = tmp_path / "prefix"
    condaprefix.build(prefix)
    values = {"missing": tmp_path / "nope", "plain": plain, "prefix": prefix}
    argv = [a.format(**values) for a in args]
    result = run_cli(["doctor", *argv, "--no-probe"])
    assert result.exit_code == 2
    assert needle in result.stderr
    assert len(result.stderr.strip().splitlines()) <= 2 and "Traceback" not in result.stderr


def test_pin_reads_the_conda_prefix(tmp_path: Path) -> None:
    condaprefix.build(tmp_path)
    result = run_cli(
        ["pin", "--conda-prefix", str(tmp_path), "--offline", "--no-verify", "--freeze", "-q",
         "--no-probe"]
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    assert "torch==2.8.0" in result.stdout


# ---------------------------------------------------------------------------------------------
# check


def check(*args: str) -> tuple[int, dict[str, Any]]:
    result = run_cli(["check", "--offline", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, result.json()


def test_verl_spo_environment_yml_is_read(tmp_path: Path) -> None:
    """verl's SPO recipe (a `conda env export`: conda build strings, a `pip:` list) exited 2
    "cannot tell what kind of file this is"; now its pip pins are the packages, its python pin
    the target Python, and torch's CUDA build comes from its +cu128 label."""
    _, report = check(str(VERL_SPO), "--platform", "linux")
    assert report["environment"]["python"] == "3.12.0"
    assert report["environment"]["packages"] == 198
    assert any("torch's CUDA build 12.8" in n for n in report["notes"])
    # The export pins verl 0.7.0.dev0, the version of a source checkout that PyPI never served
    # (the snapshot holds verl's whole history): `conda env create` fails there. It fails on a
    # second, independent cause too: opencv-python-headless 4.12.0.88 requires numpy<2.3.0,>=2
    # on Python >= 3.9 (its wheel metadata), beside the export's numpy==1.26.4 (the exported
    # environment held an inconsistent pair; a fresh `pip install` of the list cannot). That
    # conflict is install:unsatisfiable; verl's pin is no part of it (an unpublished pin alone
    # is its release:unpublished finding only).
    affected = {f["rule"]: f for f in report["findings"] if f["status"] == "affected"}
    assert list(affected) == ["install:unsatisfiable", "release:unpublished:verl"]
    conflict = affected["install:unsatisfiable"]
    assert "opencv-python-headless 4.12.0.88 requires numpy<2.3.0,>=2" in conflict["title"]
    assert {"numpy", "opencv-python-headless"} <= {p["name"] for p in conflict["packages"]}
    assert "verl" not in {p["name"] for p in conflict["packages"]}


def test_environment_yml_conda_specs_and_pytorch_cuda(tmp_path: Path) -> None:
    """torchbricks: `pytorch::pytorch=2.0.1`, `pytorch::pytorch-cuda=11.7`, channel prefixes,
    and conda-only packages (onnx, wandb, pytest...) that become no facts."""
    _, report = check(str(TORCHBRICKS), "--platform", "linux")
    assert report["environment"]["python"] == "3.10.0"
    assert report["environment"]["packages"] == 2  # torch and torchvision only
    note = next(n for n in report["notes"] if n.startswith("torch's CUDA build"))
    assert "11.7" in note and "torchbricks-environment.yml:16" in note


def test_environment_yml_detected_by_content_under_any_name(tmp_path: Path) -> None:
    env = tmp_path / "conda-env.yaml"
    env.write_text(
        "channels: [conda-forge]\ndependencies:\n  - python=3.11\n"
        "  - pytorch=2.5.1=cuda126*\n  - numpy<2\n  - pip:\n    - --extra-index-url https://example.org/simple\n"
        "    - -r reqs.txt\n    - transformers==4.46.0\n",
        encoding="utf-8",
    )
    (tmp_path / "reqs.txt").write_text("trl==0.12.0\n", encoding="utf-8")
    _, report = check(str(env), "--platform", "linux")
    # torch, numpy, transformers, trl, and what trl 0.12.0 and transformers 4.46.0 pull in
    # (accelerate, datasets, huggingface-hub, ...: the offline solve over compat's snapshot;
    # torch and numpy are conda's, not the solve's)
    (install,) = report["environment"]["installs"]
    assert "accelerate" in install["packages"] and "torch" not in install["packages"]
    pulled = set(install["packages"]) - {"transformers", "trl"}
    assert report["environment"]["packages"] == 4 + len(pulled)
    assert any("torch's CUDA build 12.6" in n for n in report["notes"])


def test_conda_and_pip_both_declaring_torch_is_noted_and_pip_wins(tmp_path: Path) -> None:
    env = tmp_path / "environment.yml"
    env.write_text(
        "dependencies:\n  - pytorch=2.1.0=*cuda118*\n  - pip:\n    - torch==2.4.0+cu121\n",
        encoding="utf-8",
    )
    _, report = check(str(env), "--platform", "linux")
    assert any("both as a conda package" in n for n in report["notes"])
    assert any("torch's CUDA build 12.1" in n for n in report["notes"])


def test_yaml_that_is_not_a_conda_environment_is_exit_2(tmp_path: Path) -> None:
    other = tmp_path / "config.yml"
    other.write_text("zero_optimization:\n  stage: 3\n", encoding="utf-8")
    result = run_cli(["check", str(other), "--offline"])
    assert result.exit_code == 2
    assert str(other) in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "text",
    [
        "dependencies:\n  - {bad: 1}\n",
        "dependencies:\n  - '>=2'\n",
        "dependencies: [" * 100 + "]" * 100 + "\n",
        "dependencies:\n  - pip: not-a-list\n",
    ],
)
def test_hostile_environment_yml_is_exit_2_one_line(tmp_path: Path, text: str) -> None:
    env = tmp_path / "environment.yml"
    env.write_text(text, encoding="utf-8")
    result = run_cli(["check", str(env), "--offline"])
    assert result.exit_code == 2, result.stdout
    assert str(env) in result.stderr
    assert "Traceback" not in result.stderr


def test_pixi_lock_is_judged_for_the_target_platform() -> None:
    _, linux = check(str(PIXI_LOCK), "--platform", "linux")
    assert linux["environment"]["python"] == "3.13.9"
    assert any("torch's CUDA build 12.9" in n for n in linux["notes"])
    _, mac = check(str(PIXI_LOCK), "--platform", "darwin/arm64")
    assert not any("torch's CUDA build" in n for n in mac["notes"])  # cpu_generic build
    _, win = check(str(PIXI_LOCK), "--platform", "win32")
    assert any("torch's CUDA build 12.8" in n for n in win["notes"])  # cuda128_mkl on win-64


def test_pixi_lock_without_the_target_platform_is_exit_2() -> None:
    result = run_cli(["check", str(PIXI_LOCK), "--offline", "--platform", "linux/aarch64"])
    assert result.exit_code == 2
    assert "linux-aarch64" in result.stderr and "linux-64" in result.stderr


def test_pixi_toml_system_requirements_and_unsettled_build() -> None:
    _, report = check(str(PIXI_TOML), "--platform", "linux")
    assert any("[system-requirements] cuda = '12.0'" in n for n in report["notes"])
    # conda-forge pytorch without a lock: which CUDA build is installed is a question, never
    # the PyPI default build of that release
    assert not any("torch's CUDA build" in n for n in report["notes"])


def test_pixi_features_and_environments() -> None:
    # every environment judged on its own (tests/unit/commands/test_pixi_environments.py):
    # `default` declares nothing and is skipped with a note; cpu and gpu are judged
    _, every = check(str(HTCONDOR), "--platform", "linux")
    assert "pixi environments judged one at a time: cpu, gpu" in " ".join(every["notes"])
    assert "default (declares no package compat can check)" in " ".join(every["notes"])
    result = run_cli(
        [
            "check",
            str(HTCONDOR),
            "--offline",
            "--platform",
            "linux",
            "--pixi-environment",
            "default",
        ]
    )
    assert result.exit_code == 3
    assert "--pixi-environment" in result.stderr
    _, gpu = check(str(HTCONDOR), "--platform", "linux", "--pixi-environment", "gpu")
    assert gpu["environment"]["packages"] == 2
    assert any("cpu not" in n for n in gpu["notes"])
    # the gpu feature's packages are `target.linux-64` only: nothing to judge on a Mac
    mac = run_cli(
        [
            "check",
            str(HTCONDOR),
            "--offline",
            "--platform",
            "darwin/arm64",
            "--pixi-environment",
            "gpu",
        ]
    )
    assert mac.exit_code == 3
    bad = run_cli(["check", str(HTCONDOR), "--offline", "--pixi-environment", "tpu"])
    assert bad.exit_code == 2 and "cpu, gpu" in bad.stderr


def test_tool_pixi_in_pyproject(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["transformers==4.46.0"]\n'
        '[tool.pixi.workspace]\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n'
        '[tool.pixi.dependencies]\npytorch = { version = "2.5.1", build = "cuda126*" }\n',
        encoding="utf-8",
    )
    _, report = check(str(pyproject), "--platform", "linux")
    assert any("torch's CUDA build 12.6" in n for n in report["notes"])


@pytest.mark.parametrize(
    ("name", "text", "needle"),
    [
        ("pixi.lock", "version: 99\nenvironments: {}\npackages: []\n", "lock version 99"),
        (
            "pixi.lock",
            "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64: [1]\n",
            "entry",
        ),
        ("pixi.toml", "[workspace]\n[dependencies]\npytorch = 2\n", "pytorch"),
        ("pixi.toml", '[workspace]\n[environments]\ngpu = ["gpu"]\n', "gpu"),
    ],
)
def test_hostile_pixi_files_are_exit_2_one_line(
    tmp_path: Path, name: str, text: str, needle: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = run_cli(["check", str(path), "--offline", "--platform", "linux"])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("compat: error: ") and str(path) in line


@pytest.mark.parametrize(
    ("specs", "cuda"),
    [
        (["pytorch=1.12.1", "cudatoolkit=11.3"], "11.3"),  # pytorch.org's pre-pytorch-cuda recipe
        (["pytorch=1.12.1", "cudatoolkit=11.3", "cpuonly"], None),
        (["pytorch=2.3.0=py3.10_cuda12.1_cudnn8.9.2_0"], "12.1"),  # pytorch channel build string
        (["pytorch 2.3.0 py3.10_cpu_0"], None),
        (["pytorch-cpu=2.8"], None),
        (["pytorch[version='>=2.5',build=cuda126*]"], "12.6"),
        (["pytorch==2.1.0=*cuda118*"], "11.8"),
        # A major alone (cuda13*: any CUDA 13.x build) never reads as CUDA 1.3; cuda92 is 9.2.
        (["pytorch==2.10.0=*cuda13*"], None),
        (["pytorch==2.8.0=cuda12*"], None),
        (["pytorch==1.2.0=*cuda92*"], "9.2"),
    ],
)
def test_conda_torch_builds_from_specs(tmp_path: Path, specs: list[str], cuda: str | None) -> None:
    env = tmp_path / "environment.yml"
    env.write_text("dependencies:\n" + "".join(f"  - {s}\n" for s in specs), encoding="utf-8")
    _, report = check(str(env), "--platform", "linux")
    notes = [n for n in report["notes"] if n.startswith("torch's CUDA build")]
    if cuda is None:
        assert notes == []
    else:
        assert len(notes) == 1 and notes[0].startswith(f"torch's CUDA build {cuda}: from conda")


def test_pixi_lock_pypi_entries(tmp_path: Path) -> None:
    """pixi's PyPI packages (installed with uv) are locked as `- pypi: URL` with name and
    version; a CUDA wheel from PyTorch's index carries its build in the local label."""
    wheel = (
        "https://download.pytorch.org/whl/cu124/torch-2.5.1%2Bcu124-cp312-cp312-linux_x86_64.whl"
    )
    python = (
        "https://conda.anaconda.org/conda-forge/linux-64/python-3.12.7-hc5c86c4_0_cpython.conda"
    )
    lock = tmp_path / "pixi.lock"
    lock.write_text(
        f"version: 6\nenvironments:\n  default:\n    channels:\n    - url: https://conda.anaconda.org/conda-forge/\n"
        f"    packages:\n      linux-64:\n      - conda: {python}\n      - pypi: {wheel}\n"
        f"packages:\n- conda: {python}\n  sha256: 0\n- pypi: {wheel}\n  name: torch\n  version: 2.5.1+cu124\n"
        f"  requires_python: '>=3.8.0'\n",
        encoding="utf-8",
    )
    _, report = check(str(lock), "--platform", "linux")
    assert report["environment"]["python"] == "3.12.7"
    assert any(
        n.startswith("torch's CUDA build 12.4: from its local version label")
        for n in report["notes"]
    )


R520 = {
    "schema": "compat.hardware/1",
    "driver_version": "520.61.05",
    "cuda_driver_version": "11.8",
    "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}


def test_conda_cuda_build_drives_findings_in_doctor_and_check(tmp_path: Path) -> None:
    """conda's CUDA 12.9 torch on an R520 driver (CUDA 11.8): below the CUDA 12 driver floor —
    from the records (doctor) and from the lock (check), pointing at the pytorch entry."""
    profile = tmp_path / "r520.json"
    profile.write_text(json.dumps(R520), encoding="utf-8")
    prefix = tmp_path / "env"
    condaprefix.build(prefix)
    result = run_cli(
        ["doctor", "--conda-prefix", str(prefix), "--hardware", str(profile), "--format", "json"]
    )
    assert result.exit_code == 1, result.stderr
    rules = {f["rule"]: f for f in result.json()["findings"]}
    assert rules["cuda12-build-below-driver-floor"]["status"] == "affected"
    result = run_cli(
        ["check", str(PIXI_LOCK), "--offline", "--platform", "linux", "--hardware", str(profile),
         "--format", "json"]
    )  # fmt: skip
    assert result.exit_code == 1, result.stderr
    finding = next(
        f for f in result.json()["findings"] if f["rule"] == "cuda12-build-below-driver-floor"
    )
    assert finding["status"] == "affected"
    assert any(
        p["name"] == "torch" and p["source"].endswith("pixi.lock:2473") for p in finding["packages"]
    ), finding


def test_pixi_cuda_requirement_against_the_target_driver(tmp_path: Path) -> None:
    profile = tmp_path / "r520.json"
    profile.write_text(json.dumps(R520), encoding="utf-8")
    _, report = check(str(PIXI_TOML), "--platform", "linux", "--hardware", str(profile))
    assert any("pixi refuses to install" in n and "11.8" in n for n in report["notes"])
    modern = tmp_path / "r580.json"
    modern.write_text(
        json.dumps({**R520, "driver_version": "580.65.06", "cuda_driver_version": "13.0"})
    )
    _, report = check(str(PIXI_TOML), "--platform", "linux", "--hardware", str(modern))
    assert not any("pixi refuses" in n for n in report["notes"])


YI_LOCK = DATA / "conda" / "Yi-conda-lock.yml"


def test_conda_lock_yml_of_a_training_repo() -> None:
    """01-ai/Yi's conda-lock.yml: pytorch 2.0.1 `py3.10_cuda11.8_cudnn8.7.0_0` from the pytorch
    channel, conda deepspeed/transformers/accelerate, pip flash-attn; python 3.10.13."""
    _, report = check(str(YI_LOCK), "--platform", "linux")
    assert report["environment"]["python"] == "3.10.13"
    assert any(n.startswith("torch's CUDA build 11.8: from conda") for n in report["notes"])
    assert not [f for f in report["findings"] if f["status"] == "affected"]
    result = run_cli(["check", str(YI_LOCK), "--offline", "--platform", "darwin/arm64"])
    assert result.exit_code == 2 and "osx-arm64" in result.stderr and "linux-64" in result.stderr


def test_conda_lock_pip_entries_and_versions(tmp_path: Path) -> None:
    lock = tmp_path / "conda-lock.yml"
    lock.write_text(
        "version: 1\nmetadata: {platforms: [linux-64]}\npackage:\n"
        "- name: pytorch\n  version: 2.1.0\n  manager: conda\n  platform: linux-64\n"
        "  url: https://conda.anaconda.org/conda-forge/linux-64/pytorch-2.1.0-cuda118_py311h_300.conda\n"
        "  category: main\n  optional: false\n"
        "- name: torch\n  version: 2.4.0\n  manager: pip\n  platform: linux-64\n"
        "  url: https://files.pythonhosted.org/torch-2.4.0-cp311-cp311-manylinux1_x86_64.whl\n"
        "  category: main\n  optional: false\n"
        "- name: transformers\n  version: 4.46.0\n  manager: conda\n  platform: linux-64\n"
        "  url: https://conda.anaconda.org/conda-forge/noarch/transformers-4.46.0-pyhd8ed1ab_0.conda\n"
        "  category: main\n  optional: false\n",
        encoding="utf-8",
    )
    _, report = check(str(lock), "--platform", "linux")
    assert report["environment"]["packages"] == 2  # torch (pip's) and transformers
    assert any(
        "locked both as the conda package pytorch and from PyPI" in n for n in report["notes"]
    )
    assert not any("from conda" in n for n in report["notes"])  # pip's torch, not conda's cuda118
