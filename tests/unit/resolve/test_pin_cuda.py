"""`compat pin` chooses torch's CUDA build for the driver and every visible GPU, from PyTorch's
per-CUDA indexes, and writes it so that real pip and real uv both install it from the
constraints file: `--extra-index-url <index>/cuXYZ` plus the local-label pin. The per-CUDA
indexes are served on 127.0.0.1 (tests/indexserver.py `roots`), wheels with `+cuXYZ` labels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.doctor import doctor_findings
from tests.lib.hardware import profile
from tests.lib.resolvers import pip_resolve, uv_resolve

CU12_RUNTIME = ['nvidia-cuda-runtime-cu12==12.8.90; platform_system == "Linux"']
CU13_TOOLKIT = ['cuda-toolkit[cublas,cudart]==13.0.2; platform_system == "Linux"']


def lines_of(stdout: str) -> dict[str, str]:
    return {
        line.split("==")[0]: " ".join(line.split())
        for line in stdout.splitlines()
        if "==" in line and not line.startswith("#")
    }


def run_pin(site: Path, hardware: Path, index: IndexServer, *args: str) -> Any:
    return run_cli(["pin", "--path", str(site), "--hardware", str(hardware), "--index-url",
                    index.url, "--pytorch-index", index.base, *args])  # fmt: skip


def test_pascal_gets_the_cuda_126_build_of_the_same_torch(tmp_path: Path) -> None:
    # torch 2.8.0 from PyPI is the CUDA 12.8 build: no sm_60/sm_61 kernels (P100, P40).
    site = make_env(tmp_path / "site", {})
    make_dist(site, "torch", "2.8.0", requires=CU12_RUNTIME)
    make_dist(site, "torchvision", "0.23.0", requires=["torch==2.8.0"])
    hardware = profile(tmp_path, "Tesla P100-PCIE-16GB", "6.0", "570.133.20", "12.8")
    projects = {
        "torch": [Dist("torch", v) for v in ("2.7.1", "2.8.0")],
        "torchvision": [Dist("torchvision", "0.23.0", requires=["torch==2.8.0"])],
    }
    cu126 = {
        "torch": [Dist("torch", "2.8.0+cu126")],
        "torchvision": [Dist("torchvision", "0.23.0+cu126", requires=["torch==2.8.0"])],
    }
    with IndexServer(projects, roots={"cu126": cu126}) as index:
        result = run_pin(site, hardware, index)
        assert result.exit_code == 0, result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        by_pip = pip_resolve(index.url, constraints, ["torch", "torchvision"], tmp_path)
        by_uv = uv_resolve(index.url, constraints, ["torch", "torchvision"], tmp_path)
    assert f"\n--extra-index-url {index.base}/cu126\n" in result.stdout
    assert "--torch-backend=cu126" in result.stdout
    lines = lines_of(result.stdout)
    assert lines["torch"].startswith(
        "torch==2.8.0+cu126 # downgrade from 2.8.0 (CUDA 12.8 build) to its CUDA 12.6 build via "
        "torch-no-kernel-image-for-gpu"
    )
    assert lines["torchvision"].startswith("torchvision==0.23.0+cu126 # kept 0.23.0")
    assert "# proof: uv " in result.stdout
    assert by_pip == by_uv == {"torch": "2.8.0+cu126", "torchvision": "0.23.0+cu126"}
    after = make_env(tmp_path / "after", by_pip)
    assert "torch-no-kernel-image-for-gpu" not in doctor_findings(after, hardware=hardware)


@pytest.mark.parametrize(
    ("ptx_jit", "torch", "vision", "label"),
    [
        # A CUDA 12 build of the same release runs on R535 through minor-version compatibility
        # (the knowledge base flags that only for code that JIT-compiles PTX): keep 2.11.
        ([], "2.11.0", "0.26.0", "cu126"),
        # With PTX JIT no 2.11 build suits: the nearest release with a CUDA <= 12.2 build.
        (["--set", "ptx_jit=true"], "2.7.1", "0.22.1", "cu118"),
    ],
)
def test_cuda13_torch_on_an_r535_driver_gets_a_build_the_driver_runs(
    tmp_path: Path, ptx_jit: list[str], torch: str, vision: str, label: str
) -> None:
    # torch 2.11 from PyPI is the CUDA 13.0 build; an R535 driver runs CUDA <= 12.2 natively.
    site = make_env(tmp_path / "site", {})
    make_dist(site, "torch", "2.11.0", requires=CU13_TOOLKIT)
    make_dist(site, "torchvision", "0.26.0", requires=["torch==2.11.0"])
    hardware = profile(tmp_path, "NVIDIA A100-SXM4-80GB", "8.0", "535.104.05", "12.2")
    releases = ("2.7.1", "2.8.0", "2.9.0", "2.10.0", "2.11.0")
    vision_for = {"2.7.1": "0.22.1", "2.11.0": "0.26.0"}

    def builds(cuda: str, of: tuple[str, ...]) -> dict[str, list[Dist]]:
        return {
            "torch": [Dist("torch", f"{v}+{cuda}") for v in of],
            "torchvision": [Dist("torchvision", f"{tv}+{cuda}", requires=[f"torch=={t}"])
                            for t, tv in vision_for.items() if t in of],
        }  # fmt: skip

    projects = {
        "torch": [Dist("torch", v) for v in releases],
        "torchvision": [Dist("torchvision", tv, requires=[f"torch=={t}"])
                        for t, tv in vision_for.items()],
    }  # fmt: skip
    roots = {
        "cu118": builds("cu118", ("2.7.1",)),
        "cu126": builds("cu126", releases),
        "cu128": builds("cu128", releases),
    }
    with IndexServer(projects, roots=roots) as index:
        result = run_pin(site, hardware, index, *ptx_jit)
        assert result.exit_code == 0, result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        by_pip = pip_resolve(index.url, constraints, ["torch", "torchvision"], tmp_path)
        by_uv = uv_resolve(index.url, constraints, ["torch", "torchvision"], tmp_path)
    assert f"\n--extra-index-url {index.base}/{label}\n" in result.stdout
    lines = lines_of(result.stdout)
    assert lines["torch"].startswith(f"torch=={torch}+{label} # downgrade from 2.11.0")
    assert lines["torchvision"].startswith(f"torchvision=={vision}+{label} #")
    assert by_pip == by_uv == {"torch": f"{torch}+{label}", "torchvision": f"{vision}+{label}"}
    findings = doctor_findings(make_env(tmp_path / "after", by_pip), *ptx_jit, hardware=hardware)
    assert not {"cuda13-build-on-pre-580-driver", "cuda12-build-newer-than-driver"} & {
        rule for rule, status in findings.items() if status == "affected"
    }


def test_no_build_is_chosen_for_an_unknown_machine(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {})
    make_dist(site, "torch", "2.8.0", requires=CU12_RUNTIME)
    with IndexServer({"torch": [Dist("torch", "2.8.0")]}) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url])
    assert result.exit_code == 0, result.stderr
    assert "\n--extra-index-url" not in result.stdout
    assert lines_of(result.stdout)["torch"].startswith("torch==2.8.0 # kept (installed)")
