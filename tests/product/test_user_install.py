"""The user's install path, end to end (issue 23): compat's wheel, built from this tree, installed
into a virtual environment made as a user makes one — `python -m venv`, the pip that Python
bundles, no dev lock, the runtime dependencies from the registry — and then doctor, check
(online, against an index on 127.0.0.1, for another target Python and platform), pin and
explain on real files in tests/data. Runs on every Python CI runs (.github/workflows/ci.yml) and
once in `.ci/run`, because it is part of the suite.

The same venv then gets pip 23.2.1, what Python 3.11.7 and 3.12.0 bundle, which refuses
`--python-version`/`--platform` without `--target` (pypa/pip#12215, fixed in pip 23.3): with
compat's declared resolver (uv) the judgement still resolves for the target; forcing pip is a
failed resolve, named as one, exit 3 — never "cannot install together", never "offline"."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.sessioncache import built_once
from tests.profiles import R535

ROOT = paths.REPO
DATA = paths.DATA
PEFT_RULE = "peft-0.14-needs-transformers-4.43"
TOOLS = ("auto", "pip")

pytestmark = pytest.mark.xdist_group("user-install")


def run(command: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> Any:
    return subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout, check=False
    )


def target() -> tuple[str, str]:
    """A target Python and platform that both differ from this interpreter's."""
    python = "3.10" if sys.version_info[:2] != (3, 10) else "3.12"
    machine = platform.machine().lower()
    where = "linux/aarch64" if machine in ("x86_64", "amd64") else "linux/x86_64"
    if not sys.platform.startswith("linux"):
        where = "linux"
    return python, where


def build_wheel(dist: Path) -> None:
    """compat's wheel from a copy of this tree (the build writes nothing into the checkout)."""
    with tempfile.TemporaryDirectory(prefix="compat-wheel-") as scratch:
        work = Path(scratch)
        source = work / "src"
        source.mkdir()
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, source / name)
        shutil.copytree(
            ROOT / "compat", source / "compat", ignore=shutil.ignore_patterns("__pycache__")
        )
        built = run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w",
             str(dist), str(source)],
            pip_env(), work,
        )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]


def pip_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PIP_NO_CACHE_DIR", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """compat's wheel installed with the bundled pip into `python -m venv`. The wheel is built
    once for each content of what goes into it (the tree, the interpreter, the build backend),
    then kept under build/test-cache: an unchanged tree is not built again (issue 45)."""
    work = tmp_path_factory.mktemp("user-install")
    env = pip_env()
    backend = metadata.version("setuptools")
    dist = built_once(
        "compat-wheel",
        [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / "compat", sys.version, backend],
        build_wheel,
    )
    (wheel,) = dist.glob("compat-*.whl")
    venv = work / "venv"
    made = run([sys.executable, "-m", "venv", str(venv)], env, work)
    assert made.returncode == 0, made.stderr
    installed = run([str(bin_of(venv, "python")), "-m", "pip", "install", str(wheel)], env, work)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return venv


def bin_of(venv: Path, name: str) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def compat_env(tmp_path: Path) -> dict[str, str]:
    """The user's environment, with pip and uv seeing only the test's index."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "UV_", "COMPAT_")) and k != "VIRTUAL_ENV"
    }
    env.update(
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        UV_NO_CONFIG="1",
        UV_CACHE_DIR=str(tmp_path / "uv-cache"),
        UV_PYTHON_DOWNLOADS="never",
        COMPAT_CACHE_DIR=str(tmp_path / "compat-cache"),
        NO_COLOR="1",
    )
    return env


PEFT_INDEX = {
    "transformers": [Dist("transformers", "4.40.0")],
    "peft": [Dist("peft", "0.10.0"), Dist("peft", "0.14.0")],
}


# The first test pays for the module's venv: it builds compat's wheel and installs it with its
# runtime dependencies from the registry into a fresh venv with the bundled pip, as a user does
# (24 s in all in quiet fresh-clone .ci/runs, 42 s on the slowest, loaded one): under the 60 s
# limit, so not `slow` (the mark is for tests that need more; issue 45). Integration by folder.
def test_doctor_check_pin_and_explain_from_the_installed_wheel(venv: Path, tmp_path: Path) -> None:
    compat = str(bin_of(venv, "compat"))
    env = compat_env(tmp_path)
    profile = tmp_path / "a100-r535.json"
    profile.write_text(json.dumps(R535))

    # doctor: the venv compat itself lives in (no GPU here: the NVML library is absent).
    doctor = run([compat, "doctor", "--no-probe", "--format", "json"], env, tmp_path)
    assert doctor.returncode in (0, 1), doctor.stderr
    assert json.loads(doctor.stdout)["schema"] == "compat.report/1"

    # check, online, for another Python and platform: the resolve really happens for the target.
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("transformers==4.40.0\npeft>=0.10.0\n")
    python, where = target()
    with IndexServer(PEFT_INDEX) as index:
        check = run(
            [compat, "check", str(requirements), "--python-version", python, "--platform", where,
             "--index-url", index.url, "--format", "json"],
            env, tmp_path,
        )  # fmt: skip
        # pin, with its proof by the real resolver, on the same files.
        pin = run(
            [compat, "pin", "-r", str(requirements), "--hardware", str(profile),
             "--index-url", index.url],
            env, tmp_path,
        )  # fmt: skip
    assert check.returncode == 1, check.stderr
    report = json.loads(check.stdout)
    assert [f["rule"] for f in report["findings"]] == [PEFT_RULE]
    assert report["summary"]["resolve_failed"] is None
    assert any(n.startswith("judged the install uv ") for n in report["notes"])
    assert pin.returncode in (0, 1), pin.stderr
    assert "# proof: uv " in pin.stdout, pin.stdout

    # pin offline on a real training repo's file (LLaVA's pyproject): the solver, no index.
    real = DATA / "real" / "resolve" / "LLaVA-pyproject.toml"
    offline = run(
        [compat, "pin", "-r", str(real), "--hardware", str(profile), "--offline"], env, tmp_path
    )
    assert offline.returncode in (0, 1), offline.stderr
    assert "torch==2.1.2" in offline.stdout

    # check offline on real files: a verdict, never an error.
    for name in ("InternVL-requirements-internvl_chat.txt", "litgpt-pyproject.toml"):
        real_check = run(
            [compat, "check", str(DATA / "real" / "resolve" / name), "--offline",
             "--hardware", str(profile)],
            env, tmp_path,
        )  # fmt: skip
        assert real_check.returncode in (0, 1), real_check.stderr

    # explain on a real log.
    explain = run(
        [compat, "explain", str(DATA / "logs" / "open-r1-129-grpo-inprocess-vllm.log"),
         "--format", "json"],
        env, tmp_path,
    )  # fmt: skip
    assert explain.returncode == 0, explain.stderr
    assert json.loads(explain.stdout)["matches"]


def test_pip_before_23_3_is_a_failed_resolve_and_uv_still_resolves(
    venv: Path, tmp_path: Path
) -> None:
    # The user's venv with pip 23.2.1 (already so where the bundled pip is that old: Python
    # 3.11.7 and 3.12.1 bundle 23.2.1, 3.10.13 bundles 23.0.1).
    env = compat_env(tmp_path)
    python = str(bin_of(venv, "python"))
    downgrade = run(
        [python, "-m", "pip", "install", "pip==23.2.1"],
        {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}, tmp_path,
    )  # fmt: skip
    assert downgrade.returncode == 0, downgrade.stderr[-2000:]
    version = run([python, "-m", "pip", "--version"], env, tmp_path)
    assert version.stdout.startswith("pip 23.2.1 "), version.stdout + version.stderr

    requirements = tmp_path / "requirements.txt"
    requirements.write_text("transformers==4.40.0\npeft>=0.10.0\n")
    target_python, where = target()
    with IndexServer(PEFT_INDEX) as index:
        command = [
            str(bin_of(venv, "compat")), "check", str(requirements), "--python-version",
            target_python, "--platform", where, "--index-url", index.url, "--format", "json",
        ]  # fmt: skip
        results = {tool: run([*command, "--resolver", tool], env, tmp_path) for tool in TOOLS}
    # The default resolver, uv (a dependency of compat), resolves for the target.
    assert results["auto"].returncode == 1, results["auto"].stderr
    auto = json.loads(results["auto"].stdout)
    assert [f["rule"] for f in auto["findings"]] == [PEFT_RULE]
    # pip 23.2.1 refuses its own target options: a failed resolve, named, exit 3.
    assert results["pip"].returncode == 3, results["pip"].stderr
    forced = json.loads(results["pip"].stdout)
    assert forced["summary"]["resolve_failed"].startswith("pip 23.2.1 did not resolve")
    notes = forced["notes"]
    (failed,) = [n for n in notes if "did not resolve" in n]
    assert "pypa/pip#12215" in failed
    assert "ERROR: Can not use any platform or abi specific options" in failed
    assert not any("cannot install these requirements together" in n for n in notes)
    assert not any(n.startswith("offline") for n in notes)
