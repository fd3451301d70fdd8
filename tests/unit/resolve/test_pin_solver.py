"""`compat pin` as a solver (issue #19): the answer follows the rules' own fixes, is never worse
than the input, is the same bytes under CPU load, guards unpinned torch on an old driver without
the proof, writes build constraints pip and uv read, and names an unreachable index in one line.
Real CLI, a package index on 127.0.0.1, real pip and real uv consuming what pin writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from compat.kb.knowledge import load_knowledge_base
from compat.resolve.resolvers.resolver import find_uv
from tests.conftest import run_cli
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.hardware import profile, two_gpus
from tests.lib.resolvers import pip_resolve, uv_resolve

INPROCESS = "trl-grpo-inprocess-vllm-device-mismatch"
WINDOW = "trl-vllm-outside-supported-window"
GRPO_VLLM = ["--set", "trainer=grpo", "--set", "use_vllm=true"]
VLLM_NEEDS = {  # (torch pin, transformers floor) per vLLM release, as their metadata declares
    "0.6.6.post1": ("2.5.1", "4.45.2"),
    "0.7.0": ("2.5.1", "4.45.2"),
    "0.7.1": ("2.5.1", "4.45.2"),
    "0.7.2": ("2.5.1", "4.48.2"),
    "0.7.3": ("2.5.1", "4.48.2"),
    "0.8.3": ("2.6.0", "4.48.2"),
}
TRL_NEEDS = {"0.13.0": "4.46.0", "0.14.0": "4.46.0", "0.15.2": "4.46.0", "0.16.0": "4.46.0",
             "0.18.0": "4.50.0"}  # fmt: skip


def grpo_projects() -> dict[str, list[Dist]]:
    return {
        "trl": [Dist("trl", v, requires=[f"transformers>={t}", "accelerate>=0.34.0"])
                for v, t in TRL_NEEDS.items()],
        "vllm": [Dist("vllm", v, requires=[f"torch=={t}", f"transformers>={f}"])
                 for v, (t, f) in VLLM_NEEDS.items()],
        "transformers": [Dist("transformers", v)
                         for v in ("4.46.0", "4.48.1", "4.48.2", "4.48.3", "4.50.0")],
        "torch": [Dist("torch", v) for v in ("2.5.1", "2.6.0")],
        "accelerate": [Dist("accelerate", "1.3.0")],
    }  # fmt: skip


def grpo_site(site: Path) -> Path:
    make_env(site, {"trl": "0.14.0", "torch": "2.5.1", "transformers": "4.48.1"})
    make_dist(site, "vllm", "0.6.6.post1", requires=["torch==2.5.1", "transformers>=4.45.2"])
    make_dist(site, "accelerate", "1.3.0")
    return site


def findings(site: Path, *args: str) -> dict[str, str]:
    result = run_cli(["doctor", "--path", str(site), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.stderr
    return {f["rule"]: f["status"] for f in result.json()["findings"]}


def rule_fix() -> tuple[str, Any]:
    """The in-process rule's own fix, read from the rule (the boundary may move: issue #18)."""
    rule = load_knowledge_base().get(INPROCESS)
    assert rule is not None and rule.fix.constraints
    requirement = Requirement(rule.fix.constraints[0])
    return str(canonicalize_name(requirement.name)), requirement.specifier


def nearest_inside(name: str, spec: Any, start: str) -> str:
    releases = {"vllm": list(VLLM_NEEDS), "trl": list(TRL_NEEDS)}[name]
    inside = sorted((Version(v) for v in releases if spec.contains(v)), key=lambda v: v)
    return str(next(v for v in inside if v >= Version(start)))


@pytest.mark.parametrize("usage", [GRPO_VLLM, []], ids=["stated-usage", "no-usage"])
def test_grpo_takes_the_rules_own_fix_and_is_never_worse(tmp_path: Path, usage: list[str]) -> None:
    site = grpo_site(tmp_path / "site")
    hardware = two_gpus(tmp_path)
    before = findings(site, "--hardware", str(hardware), *usage)
    with IndexServer(grpo_projects()) as index:
        args = ["pin", "--path", str(site), "--hardware", str(hardware), "--index-url", index.url,
                *usage]  # fmt: skip
        text = run_cli(args)
        document = run_cli([*args, "--format", "json"]).json()
        assert text.exit_code == 0, text.stdout + text.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(text.stdout)
        wanted = ["trl", "vllm", "transformers", "torch", "accelerate"]
        by_pip = pip_resolve(index.url, constraints, wanted, tmp_path)
        by_uv = uv_resolve(index.url, constraints, wanted, tmp_path)
    pins = {p["name"]: p for p in document["pins"]}
    fixed, spec = rule_fix()
    start = {"vllm": "0.6.6.post1", "trl": "0.14.0"}[fixed]
    # The rule's own fix, at its nearest release, and nothing further than that needs.
    assert pins[fixed]["version"] == nearest_inside(fixed, spec, start), pins
    assert INPROCESS in pins[fixed]["via"]
    if fixed == "vllm":
        assert pins["trl"]["version"] == "0.14.0" and pins["trl"]["action"] == "kept"
        torch, floor = VLLM_NEEDS[pins["vllm"]["version"]]
        assert pins["torch"]["version"] == torch
        assert pins["transformers"]["version"] == min(
            (v for v in ("4.48.1", "4.48.2", "4.48.3", "4.50.0") if Version(v) >= Version(floor)),
            key=Version,
        )
    assert by_pip == by_uv
    assert {k: by_pip[k] for k in pins} == {k: p["version"] for k, p in pins.items()}
    after = findings(make_env(tmp_path / "after", by_pip), "--hardware", str(hardware), *usage)
    assert INPROCESS not in after and WINDOW not in after  # trl stays inside TRL's vLLM window
    # Never worse: nothing affected that was not, nothing possible that was not.
    assert set(after) <= set(before)
    assert all(before[rule] == "affected" or status != "affected" for rule, status in after.items())
    # The possible FSDP rule is not chased by dragging trl, vLLM and torch along.
    assert pins["trl"]["version"] != "0.18.0"


def test_same_bytes_twice_once_under_cpu_load(tmp_path: Path) -> None:
    site = grpo_site(tmp_path / "site")
    hardware = two_gpus(tmp_path)
    with IndexServer(grpo_projects()) as index:
        args = ["pin", "--path", str(site), "--hardware", str(hardware), "--index-url", index.url,
                "--no-verify"]  # fmt: skip
        quiet = run_cli(args)
        burn = "import time\nend = time.monotonic() + 60\nwhile time.monotonic() < end: pass\n"
        load = [subprocess.Popen([sys.executable, "-c", burn]) for _ in range(4)]
        try:
            loaded = run_cli(args)
        finally:
            for process in load:
                process.kill()
                process.wait()
    assert quiet.exit_code == loaded.exit_code == 0, quiet.stderr
    assert quiet.stdout.encode() == loaded.stdout.encode()


LLAVA = """[project]
name = "llava"
version = "1.2.2.post1"
requires-python = ">=3.8"
dependencies = ["torch==2.0.1", "numpy", "tokenizers==0.15.1"]
"""


def test_llava_like_pyproject_caps_numpy_below_2_the_same_way_twice(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(LLAVA)
    hardware = profile(tmp_path, "NVIDIA A100-SXM4-80GB", "8.0", "550.54.15", "12.4", count=1)
    projects = {
        "torch": [Dist("torch", v) for v in ("2.0.1", "2.3.0")],
        "numpy": [Dist("numpy", v) for v in ("1.24.4", "1.26.4", "2.0.2", "2.4.6")],
        "tokenizers": [Dist("tokenizers", "0.15.1")],
    }
    with IndexServer(projects) as index:
        args = ["pin", "-r", str(pyproject), "--hardware", str(hardware), "--index-url", index.url]
        first, second = run_cli(args), run_cli(args)
        assert first.exit_code == 0, first.stdout + first.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(first.stdout)
        wanted = ["torch==2.0.1", "numpy", "tokenizers==0.15.1"]
        by_pip = pip_resolve(index.url, constraints, wanted, tmp_path)
        by_uv = uv_resolve(index.url, constraints, wanted, tmp_path)
    assert first.stdout == second.stdout
    lines = {line.split("==")[0]: " ".join(line.split()) for line in first.stdout.splitlines()
             if "==" in line and not line.startswith("#")}  # fmt: skip
    assert lines["numpy"].startswith("numpy==1.26.4 # downgrade from 2.4.6")
    assert "numpy2-with-torch-before-2.3" in lines["numpy"]
    assert lines["torch"].startswith("torch==2.0.1 # kept (your pin)")
    assert "# UNRESOLVED" not in first.stdout and "limit reached" not in first.stdout
    assert by_pip == by_uv and by_pip["numpy"] == "1.26.4" and by_pip["torch"] == "2.0.1"


CU12 = ['nvidia-cuda-runtime-cu12==12.8.90; platform_system == "Linux"']
CU13 = ['cuda-toolkit[cublas,cudart]==13.0.2; platform_system == "Linux"']
CU132 = ['cuda-toolkit[cublas,cudart]==13.2.0; platform_system == "Linux"']


def test_unpinned_torch_on_r535_without_the_proof_gets_a_build_the_driver_runs(
    tmp_path: Path,
) -> None:
    # InternVL/litgpt style: torch unpinned. The newest torch (2.15) is a CUDA 13.2 build that an
    # R535 driver cannot run: pin says which build to take even though no resolver ran.
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch\nnumpy\n")
    hardware = profile(tmp_path, "NVIDIA A100-SXM4-80GB", "8.0", "535.104.05", "12.2")
    projects = {
        "torch": [Dist("torch", v, requires=CU12) for v in ("2.9.1", "2.10.0")]
        + [Dist("torch", v, requires=CU13) for v in ("2.11.0", "2.12.0", "2.13.0", "2.14.0")]
        + [Dist("torch", "2.15.0", requires=CU132)],
        "numpy": [Dist("numpy", v) for v in ("1.26.4", "2.4.6")],
    }
    # The cu126 index serves what the build table records PyTorch publishing there (2.14 is the
    # last release built for CUDA 12.6: compat/data/torch-arch.json); without the proof, pin
    # trusts the table, as it must offline.
    roots = {
        "cu126": {"torch": [Dist("torch", f"{v}+cu126") for v in ("2.9.1", "2.11.0", "2.14.0")]}
    }
    with IndexServer(projects, roots=roots) as index:
        args = ["pin", "-r", str(requirements), "--hardware", str(hardware), "--index-url",
                index.url, "--pytorch-index", index.base, "--no-verify"]  # fmt: skip
        result = run_cli(args)
        assert result.exit_code == 0, result.stdout + result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        by_pip = pip_resolve(index.url, constraints, ["torch", "numpy"], tmp_path)
        by_uv = uv_resolve(index.url, constraints, ["torch", "numpy"], tmp_path)
    left = next(line for line in result.stdout.splitlines() if line.startswith("# left to"))
    assert "torch" not in left.split(":", 1)[1]
    torch = next(line for line in result.stdout.splitlines() if line.startswith("torch=="))
    assert "cuda13-build-on-pre-580-driver" in torch
    assert by_pip == by_uv and by_pip["torch"] == torch.split("==")[1].split()[0]
    after = make_env(tmp_path / "after", {})
    make_dist(after, "torch", by_pip["torch"], requires=CU12)
    assert "cuda13-build-on-pre-580-driver" not in findings(after, "--hardware", str(hardware))


def test_build_constraints_file_is_read_by_pip_and_uv(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"torch": "2.5.1", "flash-attn": "2.7.4"})
    projects = {
        "torch": [Dist("torch", v) for v in ("2.5.1", "2.6.0")],
        "flash-attn": [Dist("flash-attn", "2.7.4", requires=["torch"])],
    }
    build = tmp_path / "build-constraints.txt"
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                          "--build-constraints-output", str(build)])  # fmt: skip
        assert result.exit_code == 0, result.stdout + result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_"))}
        env["PIP_CONFIG_FILE"] = os.devnull
        pip = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
             "--no-cache-dir", "--index-url", index.url, "--build-constraint", str(build),
             "-c", str(constraints), "flash-attn", "torch"],
            capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
        uv = find_uv()
        assert uv is not None
        compiled = subprocess.run(
            [uv, "pip", "compile", "-", "--build-constraints", str(build), "-c", str(constraints),
             "--index-url", index.url, "--no-config", "--no-header", "--quiet",
             "--cache-dir", str(tmp_path / "uv-cache")],  # UV_CACHE_DIR is dropped above
            input="flash-attn\ntorch\n", capture_output=True, text=True, env=env, timeout=300,
        )  # fmt: skip
    assert pip.returncode == 0, pip.stderr
    assert compiled.returncode == 0, compiled.stderr
    assert "torch==2.5.1" in compiled.stdout
    assert [line for line in build.read_text().splitlines() if not line.startswith("#")] == [
        "torch==2.5.1"
    ]
    assert "flash-attn" in build.read_text()
    assert f"# build constraints: {build} " in result.stdout
    assert f"pip install --build-constraint {build}" in result.stdout


def test_without_the_option_the_header_says_source_builds_need_it(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"torch": "2.5.1", "flash-attn": "2.7.4"})
    with IndexServer({"torch": [Dist("torch", "2.5.1")]}) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                          "--no-verify"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "# flash-attn can build from source against torch" in result.stdout
    assert "--build-constraints-output FILE" in result.stdout


@pytest.mark.slow("the real resolver retries the unreachable index before compat reports it")
def test_an_unreachable_pytorch_index_plans_with_the_package_index_builds(tmp_path: Path) -> None:
    """A network that reaches only the package index (a locked-down cluster, a CI runner): the
    CUDA 12.6 build of torch 2.8.0 cannot be fetched, so pin plans again with the builds the
    package index serves (torch 2.7.1, whose default build still carries Pascal), proves that,
    and says why."""
    site = make_env(tmp_path / "site", {})
    make_dist(site, "torch", "2.8.0", requires=CU12)
    hardware = profile(tmp_path, "Tesla P100-PCIE-16GB", "6.0", "570.133.20", "12.8")
    out = tmp_path / "constraints.txt"
    with IndexServer({"torch": [Dist("torch", v) for v in ("2.7.1", "2.8.0")]}) as index:
        started = time.monotonic()
        result = run_cli(["pin", "--path", str(site), "--hardware", str(hardware), "--index-url",
                          index.url, "--pytorch-index", "http://127.0.0.1:9/whl", "--timeout",
                          "2", "-o", str(out)])  # fmt: skip
    assert time.monotonic() - started < 180
    assert result.exit_code == 0, result.stdout + result.stderr
    written = out.read_text()
    assert "torch==2.7.1" in written and "+cu126" not in written
    (proof,) = [line for line in written.splitlines() if line.startswith("# proof: ")]
    assert "http://127.0.0.1:9/whl could not be reached" in proof
    assert "Traceback" not in result.stderr


def test_an_affected_rule_that_cannot_be_escaped_names_what_stands_in_the_way(
    tmp_path: Path,
) -> None:
    # GRPO is stated: trl stays >= 0.14.0, and no vLLM release with the device fix is on the
    # index. The line says which of the user's own constraints rule the escape out.
    site = grpo_site(tmp_path / "site")
    projects = grpo_projects()
    projects["vllm"] = [d for d in projects["vllm"] if Version(d.version) < Version("0.7.2")]
    projects["trl"] = [d for d in projects["trl"] if Version(d.version) < Version("0.16.0")]
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--hardware", str(two_gpus(tmp_path)),
                          "--index-url", index.url, *GRPO_VLLM, "--no-verify", "--format",
                          "json"])  # fmt: skip
    assert result.exit_code == 1
    unresolved = {u["rule"]: u["why"] for u in result.json()["unresolved"]}
    assert "trl>=0.14.0 for GRPOTrainer" in unresolved[INPROCESS], unresolved
    assert "0.2.7" not in json.dumps(result.json()["unresolved"])


def test_doctor_never_imports_the_solver(tmp_path: Path) -> None:
    site = grpo_site(tmp_path / "site")
    code = (
        "import sys\nfrom compat.cli import main\n"
        f"sys.argv = ['compat', 'doctor', '--no-probe', '--path', {str(site)!r}, '-q']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pysat', 'ortools')"
        " or m in ('compat.resolve.pin.maxsat', 'compat.resolve.pin.unsatcore')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
