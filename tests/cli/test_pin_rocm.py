"""`compat pin` on a machine whose GPUs are all AMD's chooses torch's ROCm build itself, the way
uv's `--torch-backend=auto` picks a ROCm index, but judged by compat's own facts: the GPU's
target against what each build carries (compat/data/torch-rocm-arch.json) and which ROCm builds
PyTorch serves for the release (the same table's builder matrices). It writes the build as it
writes a CUDA build: `--extra-index-url <PyTorch's index>/rocmX.Y` and `torch==V+rocmX.Y`, with
none of the CUDA libraries PyPI's build requires. Where no build serves the GPU, the
UNRESOLVED line stays and says which fact decides. Real pip installs the constraints from a
local index that serves ROCm-labelled wheels under /rocmX.Y, as PyTorch's does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from packaging.version import Version

from compat.kb import torchrocm
from tests.conftest import run_cli
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.doctor import doctor_findings
from tests.lib.paths import REPO
from tests.lib.resolvers import pip_resolve

HARDWARE = REPO / "docs" / "examples" / "hardware"
MI300X = HARDWARE / "amd-mi300x-8.json"
RULE = "torch-cuda-build-on-amd-gpu"
# PyPI's torch 2.4.1 (Linux x86_64) is the CUDA 12.1 build: these are two of its requirements
CUDA_BUILD = [
    'nvidia-cuda-runtime-cu12==12.1.105; platform_system == "Linux" and platform_machine == "x86_64"',
    'triton==3.0.0; platform_system == "Linux" and platform_machine == "x86_64" and python_version < "3.13"',
]  # fmt: skip
# ...and its ROCm builds' one extra requirement (pytorch/builder manywheel/build_rocm.sh)
ROCM_BUILD = ["pytorch-triton-rocm==3.0.0"]


def constraint_lines(stdout: str) -> dict[str, str]:
    return {
        line.split("==")[0]: " ".join(line.split())
        for line in stdout.splitlines()
        if "==" in line and not line.startswith("#")
    }


def pin_file(profile: Path, text: str, tmp_path: Path) -> tuple[int, str, str]:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(text, encoding="utf-8")
    result = run_cli(["pin", "--offline", "--hardware", str(profile), "-r", str(requirements)])
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stdout, result.stderr


def test_an_installed_cuda_torch_on_an_mi300x_gets_its_rocm_build_and_pip_installs_it(
    tmp_path: Path,
) -> None:
    site = make_env(tmp_path / "site", {})
    make_dist(site, "torch", "2.4.1", requires=CUDA_BUILD)
    make_dist(site, "torchvision", "0.19.1", requires=["torch==2.4.1"])
    projects = {
        "torch": [Dist("torch", "2.4.1", requires=CUDA_BUILD)],
        "torchvision": [Dist("torchvision", "0.19.1", requires=["torch==2.4.1"])],
        "nvidia-cuda-runtime-cu12": [Dist("nvidia-cuda-runtime-cu12", "12.1.105")],
        "triton": [Dist("triton", "3.0.0")],
    }

    def rocm(label: str) -> dict[str, list[Dist]]:
        return {
            "torch": [Dist("torch", f"2.4.1+{label}", requires=ROCM_BUILD)],
            "torchvision": [Dist("torchvision", f"0.19.1+{label}", requires=["torch==2.4.1"])],
            "pytorch-triton-rocm": [Dist("pytorch-triton-rocm", "3.0.0")],
        }

    roots = {"rocm6.0": rocm("rocm6.0"), "rocm6.1": rocm("rocm6.1")}
    with IndexServer(projects, roots=roots) as index:
        result = run_cli(["pin", "--path", str(site), "--hardware", str(MI300X), "--index-url",
                          index.url, "--pytorch-index", index.base])  # fmt: skip
        assert result.exit_code == 0, result.stdout + result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout, encoding="utf-8")
        by_pip = pip_resolve(index.url, constraints, ["torch", "torchvision"], tmp_path)
    # both builds carry gfx942 (torch 2.4's builder matrix): the newest of the machine's ROCm
    # major (6.4.1 in the profile) comes first, as uv tries the newest ROCm index first
    assert f"\n--extra-index-url {index.base}/rocm6.1\n" in result.stdout
    assert "# ROCm build: pip and uv read the index line below" in result.stdout
    assert "--torch-backend=rocm6.1" in result.stdout
    lines = constraint_lines(result.stdout)
    assert lines["torch"].startswith(
        "torch==2.4.1+rocm6.1 # rebuild from 2.4.1 (CUDA 12.1 build) to its ROCm 6.1 build via "
        f"{RULE}"
    )
    assert lines["torchvision"].startswith("torchvision==0.19.1+rocm6.1 # kept 0.19.1")
    assert not [name for name in lines if name.startswith("nvidia-") or name == "triton"]
    assert by_pip == {
        "torch": "2.4.1+rocm6.1",
        "torchvision": "0.19.1+rocm6.1",
        "pytorch-triton-rocm": "3.0.0",
    }
    after = make_env(tmp_path / "after", by_pip)
    assert RULE not in doctor_findings(after, hardware=MI300X)


@pytest.mark.parametrize(
    "profile", ["amd-mi300x-8.json", "amd-mi250x-8.json", "amd-rx7900xtx.json"]
)
def test_a_requirements_file_gets_the_rocm_build_of_its_torch(profile: str, tmp_path: Path) -> None:
    # gfx942, gfx90a and gfx1100 are in both of torch 2.4's ROCm builds (6.0 and 6.1)
    code, stdout, stderr = pin_file(HARDWARE / profile, "torch==2.4.1\n", tmp_path)
    assert code == 0, stdout + stderr
    assert "\n--extra-index-url https://download.pytorch.org/whl/rocm6.1\n" in stdout
    lines = constraint_lines(stdout)
    assert lines["torch"].startswith("torch==2.4.1+rocm6.1 # rebuild from your pin 2.4.1")
    # PyPI's CUDA build drags in the CUDA libraries and triton; the ROCm build requires neither
    assert not [name for name in lines if name.startswith("nvidia-") or name == "triton"]
    assert "# UNRESOLVED" not in stdout
    # the header says what an AMD machine has: targets, ROCm, amdgpu driver (no NVIDIA driver)
    header = next(x for x in stdout.splitlines() if x.startswith("# python:"))
    assert ", ROCm " in header and ", amdgpu driver " in header and "driver None" not in header


def test_a_build_of_another_rocm_major_than_the_machines_says_what_is_not_judged(
    tmp_path: Path,
) -> None:
    # torch 2.4's ROCm builds are 6.0 and 6.1; the machine has ROCm 5.7. The wheel carries its
    # own ROCm libraries (pytorch/builder manywheel/build_rocm.sh), so that is no reason to
    # refuse it; the amdgpu driver's support of ROCm 6 is AMD's table, not compat's: said so.
    document = json.loads((HARDWARE / "amd-mi250x-8.json").read_text(encoding="utf-8"))
    document["rocm_version"] = "5.7.1"
    profile = tmp_path / "mi250x-rocm57.json"
    profile.write_text(json.dumps(document), encoding="utf-8")
    code, stdout, _ = pin_file(profile, "torch==2.4.1\n", tmp_path)
    assert code == 0
    assert constraint_lines(stdout)["torch"].startswith("torch==2.4.1+rocm6.1 #")
    assert (
        "# torch 2.4.1+rocm6.1 loads the ROCm 6.1 libraries its wheel carries, not this machine's "
        "ROCm 5.7.1; whether the amdgpu driver supports ROCm 6.1's user space is not judged here"
    ) in stdout
    # the same machine on ROCm 6.2.4 (the profile): a build of its own major, nothing to say
    code, stdout, _ = pin_file(HARDWARE / "amd-mi250x-8.json", "torch==2.4.1\n", tmp_path)
    assert code == 0 and "libraries its wheel carries" not in stdout


def test_a_gpu_no_rocm_build_carries_keeps_the_unresolved_line(tmp_path: Path) -> None:
    # an RX 6700 XT (gfx1031): no PYTORCH_ROCM_ARCH of the table lists it (users run gfx1030
    # code through HSA_OVERRIDE_GFX_VERSION=10.3.0)
    profile = tmp_path / "rx6700xt.json"
    gpu = {"index": 0, "name": "AMD Radeon RX 6700 XT", "vendor": "amd", "gfx_target": "gfx1031"}
    profile.write_text(
        json.dumps({"schema": "compat.hardware/1", "rocm_version": "6.2.4", "gpus": [gpu]}),
        encoding="utf-8",
    )
    code, stdout, _ = pin_file(profile, "torch==2.4.1\n", tmp_path)
    assert code == 1
    line = next(x for x in stdout.splitlines() if x.startswith("# UNRESOLVED"))
    assert line.startswith(f"# UNRESOLVED {RULE} (affected): torch 2.4.1's ROCm builds carry no ")
    assert "code for gfx1031 (+rocm6.0: gfx900 gfx906 gfx908 gfx90a gfx1030 gfx1100 gfx942;" in line
    assert f"no ROCm build in the table (torch {torchrocm.span()}) carries code for gfx1031" in line
    assert "--extra-index-url" not in stdout


def test_strix_halo_is_judged_by_the_table(tmp_path: Path) -> None:
    code, stdout, _ = pin_file(HARDWARE / "amd-strix-halo.json", "torch==2.4.1\n", tmp_path)
    first = torchrocm.first_carrying("gfx1151")
    if first is None:
        # no row carries gfx1151 (Strix Halo): no build is chosen, and the line says so
        assert code == 1
        assert f"# UNRESOLVED {RULE} (affected): " in stdout
        assert "carries code for gfx1151" in stdout
        assert "--extra-index-url" not in stdout
        assert constraint_lines(stdout)["torch"].startswith("torch==2.4.1 # kept (your pin)")
    else:
        # a row of a newer release carries it: that release's ROCm build
        assert code == 0
        assert "+rocm" in constraint_lines(stdout)["torch"]


def test_a_release_without_a_row_is_not_judged(tmp_path: Path) -> None:
    code, stdout, _ = pin_file(MI300X, "torch==2.6.0\n", tmp_path)
    torch = constraint_lines(stdout)["torch"]
    if torchrocm.index_builds(Version("2.6.0")) is None:
        # which ROCm builds 2.6 has is not in compat's table: the plan says so and keeps the
        # pin; an older release the table knows is no escape (it would move the user's torch,
        # and what depends on it, for a fact compat lacks)
        assert code == 1
        assert (
            "# UNRESOLVED torch-cuda-build-on-amd-gpu (affected): torch 2.6.0: compat's table "
            "of torch's ROCm builds (compat/data/torch-rocm-arch.json) has no row for 2.6"
        ) in stdout
        assert torch.startswith("torch==2.6.0 # kept (your pin)")
        assert "--extra-index-url" not in stdout
    else:
        assert code == 0
        assert torch.startswith("torch==2.6.0+rocm")


def test_a_range_whose_newest_release_has_no_row_is_not_moved_to_an_older_one(
    tmp_path: Path,
) -> None:
    code, stdout, _ = pin_file(MI300X, "torch>=2.0\n", tmp_path)
    torch = constraint_lines(stdout)["torch"]
    newest = Version(torch.split(" ")[0].split("==")[1].split("+")[0])
    if torchrocm.index_builds(newest) is None:
        assert code == 1
        assert f"has no row for {newest.major}.{newest.minor}" in stdout
        assert "+rocm" not in torch.split(" ")[0]
    else:
        assert code == 0
        assert "+rocm" in torch.split(" ")[0]


def test_an_nvidia_machine_never_gets_a_rocm_build(tmp_path: Path) -> None:
    profile = tmp_path / "h100.json"
    gpu = {"index": 0, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}
    profile.write_text(
        json.dumps({"schema": "compat.hardware/1", "driver_version": "570.133.20",
                    "cuda_driver_version": "12.8", "gpus": [gpu]}),
        encoding="utf-8",
    )  # fmt: skip
    code, stdout, _ = pin_file(profile, "torch==2.4.1\n", tmp_path)
    assert code == 0
    assert "rocm" not in stdout
    assert constraint_lines(stdout)["torch"].startswith("torch==2.4.1 # kept (your pin)")


def test_a_range_gets_a_rocm_build_within_the_solvers_limits(tmp_path: Path) -> None:
    # a range the table covers: on an AMD machine torch's CUDA builds are no candidates (none
    # runs there), so its ROCm builds are not crowded out of the nearest 63
    code, stdout, stderr = pin_file(
        HARDWARE / "amd-rx7900xtx.json", "torch>=2.0,<2.5\ntransformers\n", tmp_path
    )
    assert code == 0, stdout + stderr
    torch = constraint_lines(stdout)["torch"]
    assert "+rocm" in torch.split(" ")[0]
    label = torch.split(" ")[0].split("+")[1]
    assert f"\n--extra-index-url https://download.pytorch.org/whl/{label}\n" in stdout
    assert "# solver: limit reached: torch" not in stdout


def test_a_pinned_rocm_build_without_the_gpus_target_moves_to_one_with_it(tmp_path: Path) -> None:
    # torch 2.3's ROCm 5.7 build has no gfx942 (hip-no-code-object-for-gpu); its ROCm 6.0 build
    # of the same release has: the label moves, the release stays
    code, stdout, _ = pin_file(MI300X, "torch==2.3.0+rocm5.7\n", tmp_path)
    assert code == 0
    assert "\n--extra-index-url https://download.pytorch.org/whl/rocm6.0\n" in stdout
    assert constraint_lines(stdout)["torch"].startswith(
        "torch==2.3.0+rocm6.0 # rebuild from your pin 2.3.0+rocm5.7 (ROCm 5.7 build) to its "
        "ROCm 6.0 build via hip-no-code-object-for-gpu"
    )
    # a build that serves the GPU stays as pinned
    code, stdout, _ = pin_file(MI300X, "torch==2.4.1+rocm6.1\n", tmp_path)
    assert code == 0
    assert "--extra-index-url" not in stdout
    # the requirement file's own pin, not an installed build (nothing is installed here)
    assert "(your pin's build 2.4.1+rocm6.1: choose it with the matching --index-url)" in stdout
    assert "installed build" not in stdout
