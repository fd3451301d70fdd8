"""`compat doctor --install SPEC`: the environment an install would leave, judged before it runs.

Through the CLI as a subprocess, with a real venv (python -m venv) holding real dist-info
directories, a package index on 127.0.0.1 (tests/indexserver.py) serving small real wheels, and
the real pip and uv asked for their dry run. The GPU is a hardware profile of an R470 machine.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Result, run_subprocess
from tests.dists import make_dist
from tests.indexserver import Dist, Faults, IndexServer, write_wheel
from tests.profiles import R470, R535

pytestmark = pytest.mark.usefixtures("resolver_env")

FLASH_ATTN_WHEEL = (
    "https://github.com/Dao-AILab/flash-attention/releases/download/v2.7.4.post1/"
    "flash_attn-2.7.4.post1+cu12torch2.5cxx11abiFALSE-cp311-cp311-linux_x86_64.whl"
)
CUDA_124 = [
    "nvidia-cuda-runtime-cu12==12.4.127; platform_system == 'Linux'",
    "nvidia-cudnn-cu12==9.1.0.70; platform_system == 'Linux'",
]
CUDA_128 = ["nvidia-cuda-runtime-cu12==12.8.90; platform_system == 'Linux'"]

# What the index serves: a vLLM that pins a newer torch (CUDA 12.8 by its requirements, as on
# PyPI), an older vLLM that pins the installed torch, and what they pull in.
PROJECTS = {
    "vllm": [
        Dist("vllm", "0.6.6", requires=["torch==2.5.1", "transformers>=4.45"]),
        Dist("vllm", "0.10.2", requires=["torch==2.8.0", "transformers>=4.55"]),
    ],
    "torch": [
        Dist("torch", "2.5.1", requires=["filelock", *CUDA_124]),
        Dist("torch", "2.8.0", requires=["filelock", *CUDA_128]),
    ],
    "transformers": [Dist("transformers", "4.46.3"), Dist("transformers", "4.55.4")],
    "filelock": [Dist("filelock", "3.16.1")],
    "nvidia-cuda-runtime-cu12": [
        Dist("nvidia-cuda-runtime-cu12", "12.4.127"),
        Dist("nvidia-cuda-runtime-cu12", "12.8.90"),
    ],
    "nvidia-cudnn-cu12": [Dist("nvidia-cudnn-cu12", "9.1.0.70")],
    "six": [Dist("six", "1.17.0")],
}


def make_venv(root: Path) -> tuple[Path, Path]:
    """A real venv without pip (compat's pip resolves for it with --python), and its
    site-packages holding a CUDA 12.4 torch and the flash-attn release wheel built for it."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    site = next((root / "lib").glob("python3*/site-packages"))
    make_dist(site, "torch", "2.5.1+cu124", requires=["filelock", *CUDA_124])
    make_dist(site, "filelock", "3.16.1")
    make_dist(site, "nvidia-cuda-runtime-cu12", "12.4.127")
    make_dist(site, "nvidia-cudnn-cu12", "9.1.0.70")
    make_dist(
        site,
        "flash-attn",
        "2.7.4.post1",
        requires=["torch", "einops"],
        direct_url={"url": FLASH_ATTN_WHEEL, "archive_info": {}},
    )
    make_dist(site, "einops", "0.8.0")
    return python, site


def install_pip(site: Path) -> None:
    """The running interpreter's pip, its package and dist-info copied into `site`: what
    `python -m venv` with pip installs there (ensurepip's bundled wheel, 4 s of CPU a venv),
    from files on disk."""
    pip = importlib.metadata.distribution("pip")
    for file in pip.files or ():
        if file.parts[0] == ".." or "__pycache__" in file.parts:  # scripts in bin/, byte-code
            continue
        target = site / file
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(str(pip.locate_file(file))), target)


def snapshot(root: Path) -> dict[str, str]:
    """Every file under the venv and its content's digest: nothing may change."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def index() -> Iterator[IndexServer]:
    with IndexServer(PROJECTS) as server:
        yield server


@pytest.fixture
def venv(tmp_path: Path) -> tuple[Path, Path]:
    python, _ = make_venv(tmp_path / "venv")
    profile = tmp_path / "r470.json"
    profile.write_text(json.dumps(R470), encoding="utf-8")
    return python, profile


def doctor_install(
    python: Path, profile: Path, index: str, *args: str, tool: str = "pip"
) -> Result:
    env = {"PIP_INDEX_URL": index, "UV_INDEX_URL": index, "UV_DEFAULT_INDEX": index}
    return run_subprocess(
        ["doctor", "--python", str(python), "--hardware", str(profile), "--resolver", tool, *args],
        env=env,
    )


@pytest.mark.parametrize("tool", ["pip", "uv"])
def test_vllm_that_pins_a_newer_torch(
    venv: tuple[Path, Path], index: IndexServer, tool: str
) -> None:
    python, profile = venv
    root = python.parent.parent
    before = snapshot(root)
    result = doctor_install(
        python, profile, index.url, "--install", "vllm==0.10.2", "--format", "json", tool=tool
    )
    assert snapshot(root) == before  # nothing installed, nothing touched
    assert result.exit_code == 1, result.stderr
    document = result.json()
    changes = {c["name"]: c for c in document["install"]["changes"]}
    torch = changes["torch"]
    assert torch["change"] == "replaced"
    assert torch["before"] == {"version": "2.5.1+cu124", "cuda": "12.4"}
    assert torch["after"] == {"version": "2.8.0", "cuda": "12.8"}
    assert changes["vllm"]["change"] == "added"
    assert changes["vllm"]["after"]["version"] == "0.10.2"
    assert changes["nvidia-cuda-runtime-cu12"]["after"]["version"] == "12.8.90"
    assert "filelock" not in changes  # installed and still satisfying: kept
    behind = {b["name"]: b for b in document["install"]["left_behind"]}
    assert set(behind) == {"flash-attn"}
    assert "torch 2.5" in behind["flash-attn"]["reason"]
    findings = {f["rule"]: f for f in document["findings"]}
    # flash-attn built for torch 2.5 under torch 2.8: introduced by the install.
    assert findings["flash-attn-built-for-another-torch"]["new"] is True
    # The R470 driver is below the CUDA 12 floor for the CUDA 12.4 torch already: the finding
    # is there before the install, and stays for the CUDA 12.8 one.
    driver = findings["cuda12-build-below-driver-floor"]
    assert driver["status"] == "affected" and driver["new"] is False
    assert "torch_cuda 12.8 is in >=12.0,<13.0" in driver["matched"]
    assert "flash-attn-built-for-another-torch" in document["install"]["new"]
    assert "cuda12-build-below-driver-floor" not in document["install"]["new"]
    assert document["install"]["resolver"].startswith(tool)
    # The way out, from pin's solver and proved by a second dry run: keep torch, take the vLLM
    # release that pins it (and the transformers that lives with that torch).
    way = document["install"]["way_out"]
    assert way["verified"] is True, way
    assert way["request_allowed"] is False  # vllm==0.10.2 itself cannot live here
    assert way["reasons"][0].startswith("vllm==0.10.2: every release it allows introduces")
    assert set(way["constraints"]) >= {"vllm==0.6.6", "transformers==4.46.3", "torch==2.5.1+cu124"}


def test_text_names_the_replacement_and_what_is_left_behind(
    venv: tuple[Path, Path], index: IndexServer
) -> None:
    python, profile = venv
    result = doctor_install(python, profile, index.url, "--install", "vllm==0.10.2")
    assert result.exit_code == 1, result.stderr
    out = result.stdout
    assert "torch 2.5.1 (CUDA 12.4) → 2.8.0 (CUDA 12.8)" in out
    assert "vllm (not installed) → 0.10.2" in out
    assert "flash-attn 2.7.4.post1: its wheel was built for torch 2.5" in out
    new = out.split("New: findings the install would introduce")[1].split("Already there")[0]
    assert "flash-attn-built-for-another-torch" in new
    assert "cuda12-build-below-driver-floor" not in new
    kept = out.split("Already there before the install")[1]
    assert "cuda12-build-below-driver-floor" in kept
    assert "nothing was installed" in out


def test_quiet_prints_only_what_the_install_would_introduce(
    venv: tuple[Path, Path], index: IndexServer
) -> None:
    python, profile = venv
    result = doctor_install(python, profile, index.url, "--install", "vllm==0.10.2", "--quiet")
    assert result.exit_code == 1, result.stderr
    out = result.stdout
    assert out.lstrip().startswith("flash-attn-built-for-another-torch")  # no header, no changes
    assert "cuda12-build-below-driver-floor" not in out  # there before the install
    assert "environment:" not in out and "would change" not in out and "New:" not in out
    kept = doctor_install(
        python, profile, index.url, "--install", "vllm==0.6.6", "--install", "transformers<4.50",
        "-q",
    )  # fmt: skip
    assert (kept.exit_code, kept.stdout) == (0, ""), kept.stderr


def test_an_install_that_keeps_torch_and_its_transformers_introduces_nothing(
    venv: tuple[Path, Path], index: IndexServer
) -> None:
    python, profile = venv
    args = ["--install", "vllm==0.6.6", "--install", "transformers<4.50", "-f", "json"]
    result = doctor_install(python, profile, index.url, *args)
    assert result.exit_code == 0, result.stdout + result.stderr
    document = result.json()
    names = {c["name"] for c in document["install"]["changes"]}
    assert "torch" not in names and "vllm" in names
    assert document["install"]["left_behind"] == []
    assert document["install"]["new"] == []
    # The driver finding is still reported, as already there.
    assert [f["new"] for f in document["findings"] if f["rule"].startswith("cuda12")] == [False]


def test_no_release_the_request_allows_can_live_here(
    venv: tuple[Path, Path], index: IndexServer
) -> None:
    python, profile = venv
    result = doctor_install(python, profile, index.url, "--install", "vllm>=0.10", "-f", "json")
    assert result.exit_code == 1, result.stderr
    way = result.json()["install"]["way_out"]
    assert way["request_allowed"] is False
    assert way["summary"].startswith("no release of vllm that the request allows lives here")
    (reason,) = way["reasons"]
    assert reason.startswith("vllm>=0.10: every release it allows introduces ")
    assert "flash-attn-built-for-another-torch" in reason and reason.endswith("vllm 0.6.6")


def test_the_targets_own_pip_and_a_conda_prefix(index: IndexServer, tmp_path: Path) -> None:
    """A venv with its own pip is asked through `PYTHON -m pip`; a conda prefix through the
    Python in it."""
    root = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = next((root / "lib").glob("python3*/site-packages"))
    install_pip(site)  # its own pip
    make_dist(site, "torch", "2.5.1+cu124", requires=["filelock", *CUDA_124])
    make_dist(site, "filelock", "3.16.1")
    (root / "conda-meta").mkdir()
    for cache in list(root.rglob("__pycache__")):  # a run that wrote byte-code would show
        shutil.rmtree(cache)
    profile = tmp_path / "r470.json"
    profile.write_text(json.dumps(R470), encoding="utf-8")
    before = snapshot(root)
    env = {"PIP_INDEX_URL": index.url}
    args = ["--hardware", str(profile), "--install", "vllm==0.10.2", "-f", "json"]
    for selection in (["--python", str(root / "bin" / "python")], ["--conda-prefix", str(root)]):
        result = run_subprocess(["doctor", *selection, *args], env=env)
        assert result.exit_code == 0, result.stderr  # no flash-attn here: nothing new
        install = result.json()["install"]
        assert install["new"] == []
        assert install["resolver"].endswith(f"({root / 'bin' / 'python'} -m pip)")
        torch = next(c for c in install["changes"] if c["name"] == "torch")
        assert (torch["before"]["cuda"], torch["after"]["cuda"]) == ("12.4", "12.8")
    assert snapshot(root) == before


def test_requirements_file(venv: tuple[Path, Path], index: IndexServer, tmp_path: Path) -> None:
    python, profile = venv
    reqs = tmp_path / "requirements.txt"
    reqs.write_text("vllm==0.10.2\n", encoding="utf-8")
    result = doctor_install(
        python, profile, index.url, "--install", "-r", str(reqs), "--install", "six", "-f", "json"
    )
    assert result.exit_code == 1, result.stderr
    install = result.json()["install"]
    assert install["requested"] == ["six", f"-r {reqs}"]
    assert {"torch", "vllm", "six"} <= {c["name"] for c in install["changes"]}


def test_a_wheel_file(venv: tuple[Path, Path], index: IndexServer, tmp_path: Path) -> None:
    """A local wheel is a spec pip reads as a place: passed through, resolved like a name."""
    python, profile = venv
    wheel = write_wheel(PROJECTS["vllm"][1], tmp_path / "dist")
    result = doctor_install(python, profile, index.url, "--install", str(wheel), "-f", "json")
    assert result.exit_code == 1, result.stderr
    install = result.json()["install"]
    assert install["requested"] == [str(wheel)]
    assert {"torch", "vllm"} <= {c["name"] for c in install["changes"]}


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--install", "vllm=>0.10"], 2, "--install 'vllm=>0.10': cannot parse it"),
        (["--install", "-r", "missing.txt"], 2, "--install -r missing.txt: no such file"),
        (["--install", "vllm==9.9.9"], 3, "No matching distribution found for vllm==9.9.9"),
        (["--resolver", "uv", "--install", "vllm==9.9.9"], 3, "uv cannot resolve the install"),
        (
            ["--install", "vllm==0.10.2", "--install", "torch==2.5.1"],
            3,
            "Cannot install",
        ),
    ],
)
def test_bad_input_is_one_line(
    venv: tuple[Path, Path], index: IndexServer, args: list[str], code: int, message: str
) -> None:
    python, profile = venv
    root = python.parent.parent
    before = snapshot(root)
    result = doctor_install(python, profile, index.url, *args)
    assert result.exit_code == code, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert "WARNING" not in lines[0]
    assert snapshot(root) == before


def test_unreachable_index(venv: tuple[Path, Path]) -> None:
    python, profile = venv
    with IndexServer(PROJECTS, faults=Faults()) as server:
        url = server.url
    # The server is gone: its port refuses connections.
    env = {"PIP_INDEX_URL": url, "PIP_RETRIES": "1", "PIP_TIMEOUT": "2"}
    result = run_subprocess(
        ["doctor", "--python", str(python), "--hardware", str(profile), "--install", "vllm"],
        env=env,
    )
    assert result.exit_code == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"pip could not reach {url}: connection refused" in lines[0], lines


def test_path_cannot_ask_a_resolver(venv: tuple[Path, Path]) -> None:
    python, _ = venv
    site = next((python.parent.parent / "lib").glob("python3*/site-packages"))
    result = run_subprocess(["doctor", "--path", str(site), "--install", "vllm"])
    assert result.exit_code == 2
    assert "cannot ask that environment's resolver" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_markdown_is_refused(venv: tuple[Path, Path]) -> None:
    python, _ = venv
    result = run_subprocess(["doctor", "--python", str(python), "--install", "x", "-f", "markdown"])
    assert result.exit_code == 2
    assert "--install reports as text or json" in result.stderr


def test_the_running_interpreter_is_the_default(index: IndexServer, tmp_path: Path) -> None:
    """Without --python, the interpreter running compat is the target (its own pip)."""
    profile = tmp_path / "r470.json"
    profile.write_text(json.dumps(R470), encoding="utf-8")
    result = run_subprocess(
        ["doctor", "--hardware", str(profile), "--install", "six==1.17.0", "-f", "json"],
        env={"PIP_INDEX_URL": index.url, "PIP_FIND_LINKS": ""},
    )
    assert result.exit_code in (0, 1), result.stderr
    install = result.json()["install"]
    assert install["python"] == sys.executable
    assert (
        os.path.realpath(sys.executable) in install["resolver"] or "-m pip" in install["resolver"]
    )


def test_a_cuda13_torch_on_an_r535_driver_is_a_new_driver_finding(tmp_path: Path) -> None:
    """On R535 (CUDA 12.2) a CUDA 12.8 torch runs (minor-version compatibility); a vLLM that pins
    torch 2.11 brings its CUDA 13 build, which the driver cannot run: a new driver finding, and
    the way out keeps torch with the vLLM release that pins it."""
    projects = {
        "vllm": [
            Dist("vllm", "0.10.2", requires=["torch==2.8.0"]),
            Dist("vllm", "0.20.0", requires=["torch==2.11.0"]),
        ],
        "torch": [
            Dist("torch", "2.8.0", requires=CUDA_128),
            Dist("torch", "2.11.0", requires=["nvidia-cuda-runtime==13.0.96"]),
        ],
        "nvidia-cuda-runtime-cu12": [Dist("nvidia-cuda-runtime-cu12", "12.8.90")],
        "nvidia-cuda-runtime": [Dist("nvidia-cuda-runtime", "13.0.96")],
    }
    root = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    site = next((root / "lib").glob("python3*/site-packages"))
    make_dist(site, "torch", "2.8.0", requires=CUDA_128)
    make_dist(site, "nvidia-cuda-runtime-cu12", "12.8.90")
    profile = tmp_path / "r535.json"
    profile.write_text(json.dumps(R535), encoding="utf-8")
    before = snapshot(root)
    with IndexServer(projects) as server:
        result = doctor_install(
            root / "bin" / "python", profile, server.url, "--install", "vllm", "-f", "json"
        )
    assert snapshot(root) == before
    assert result.exit_code == 1, result.stderr
    document = result.json()
    torch = next(c for c in document["install"]["changes"] if c["name"] == "torch")
    assert torch["before"] == {"version": "2.8.0", "cuda": "12.8"}
    assert torch["after"] == {"version": "2.11.0", "cuda": "13.0"}
    driver = next(f for f in document["findings"] if f["rule"] == "cuda13-build-on-pre-580-driver")
    assert driver["new"] is True and driver["status"] == "affected"
    assert document["install"]["new"] == ["cuda13-build-on-pre-580-driver"]
    way = document["install"]["way_out"]
    assert way["verified"] is True and way["request_allowed"] is True, way["reasons"]
    assert "vllm==0.10.2" in way["constraints"] and "torch==2.8.0" in way["constraints"]
    # Keeping torch 2.8.0 (nothing moves) is the way out the solver prefers to the CUDA 12.6
    # build of torch 2.11.0, which would move torch: no other build is named here.
    assert not any("download.pytorch.org" in r for r in way["reasons"])


def test_a_resolver_that_refuses_gives_its_own_reason(
    venv: tuple[Path, Path], index: IndexServer, tmp_path: Path
) -> None:
    """compat reads no requirements file itself: pip refuses the bad line, and says why."""
    python, profile = venv
    reqs = tmp_path / "requirements.txt"
    reqs.write_text("vllm=>0.10\n", encoding="utf-8")
    result = doctor_install(python, profile, index.url, "--install", "-r", str(reqs))
    assert result.exit_code == 3, result.stdout + result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("compat: error: pip cannot resolve the install: Invalid requirement")


def test_no_release_of_the_package_can_live_here(venv: tuple[Path, Path]) -> None:
    """Every vLLM the index has pins a torch that breaks the flash-attn built for the installed
    one: no way out, and the report says so with the reasons."""
    python, profile = venv
    projects = {**PROJECTS, "vllm": [PROJECTS["vllm"][1]]}  # 0.10.2 only
    with IndexServer(projects) as server:
        result = doctor_install(python, profile, server.url, "--install", "vllm", "-f", "json")
    assert result.exit_code == 1, result.stderr
    way = result.json()["install"]["way_out"]
    assert way["verified"] is False and way["constraints"] == [], way
    assert way["summary"].startswith("no release of vllm that the request allows lives")
    assert any(
        r.startswith("no release of vllm on the index (1 read) lives with what is installed")
        and "(vllm 0.10.2 requires torch==2.8.0; installed: torch 2.5.1+cu124)" in r
        and "flash-attn-built-for-another-torch" in r
        for r in way["reasons"]
    ), way["reasons"]


def test_every_kind_of_extension_left_behind(venv: tuple[Path, Path], index: IndexServer) -> None:
    """A compiled extension without a recorded build (xformers, which pins torch too) and one
    whose label names its torch (PyG's `+pt25cu124`) are left behind; a pure-Python package
    that merely requires torch is not."""
    python, profile = venv
    site = next((python.parent.parent / "lib").glob("python3*/site-packages"))
    make_dist(site, "xformers", "0.0.28.post3", requires=["torch==2.5.1"])
    make_dist(site, "torch-scatter", "2.1.2+pt25cu124")
    make_dist(site, "accelerate", "1.2.1", requires=["torch>=2.0.0"])
    result = doctor_install(python, profile, index.url, "--install", "vllm==0.10.2", "-f", "json")
    assert result.exit_code == 1, result.stderr
    document = result.json()
    behind = {b["name"]: b["reason"] for b in document["install"]["left_behind"]}
    assert set(behind) == {"flash-attn", "xformers", "torch-scatter"}
    assert "compiled torch extension" in behind["xformers"]
    assert "+pt25cu124" in behind["torch-scatter"]
    # xformers' exact torch pin is broken by the install: pip check's finding, new.
    conflict = next(f for f in document["findings"] if f["rule"] == "pip-check:conflict:torch")
    assert conflict["new"] is True
