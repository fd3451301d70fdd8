"""The facts a ROCm log states, read by their structure whichever program prints them (issue 43
item 5; held-out set explain-rocm-7): a GPU target as a field's value (`GPU arch: gfx1033`,
`gcnArchName: gfx1034`, `gpu_type=gfx1103`, HIP's `for ISA: amdgcn-amd-amdhsa--gfx1102`) or in a
device banner with its hexadecimal ID, never a target a build, a flag or a variable asks for;
torch's version and ROCm build in a REPL's output (`Out[3]: '2.5.1+rocm6.2'`, torch.version.hip)
and in a printed mapping (`{'torch': '2.3.1+rocm5.7'}`). The wordings here are other programs'
and releases' than the held-out set's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

HIP_ERROR = "RuntimeError: HIP error: invalid device function"


def explain(path: Path) -> dict[str, Any]:
    result = run_cli(["explain", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document: dict[str, Any] = result.json()
    return document


def facts(tmp_path: Path, text: str) -> dict[tuple[str, str], str]:
    log = tmp_path / "run.log"
    log.write_text(text, encoding="utf-8")
    return {(f["kind"], f["key"]): f["value"] for f in explain(log)["facts"] or []}


def targets(found: dict[tuple[str, str], str]) -> dict[str, str]:
    return {key: value for (kind, key), value in found.items() if kind == "gfx_target"}


@pytest.mark.parametrize(
    ("line", "target"),
    [
        # hipInfo.exe (ZLUDA and comfyui-rocm threads)
        ("gcnArchName: gfx1034", "gfx1034"),
        # ComfyUI's start-up banner on ROCm
        ("AMD arch: gfx1151", "gfx1151"),
        # comfyui-rocm's Windows launcher
        ("[INFO] GPU arch: gfx1033", "gfx1033"),
        # ollama 0.5's logfmt
        (
            'time=2025-02-14T16:29:59.1+08:00 level=INFO source=amd_windows.go:122 msg="amdgpu '
            'is supported" gpu=0 gpu_type=gfx1030',
            "gfx1030",
        ),
        # HIP 6.x's loader at AMD_LOG_LEVEL=1, another target and its features
        (
            ":1:hip_fatbin.cpp           :276 : 3120 us: [pid:7 tid:0x7f] Cannot find CO in the "
            "bundle /opt/venv/lib/python3.12/site-packages/torch/lib/libtorch_hip.so for ISA: "
            "amdgcn-amd-amdhsa--gfx1102",
            "gfx1102",
        ),
    ],
)
def test_a_target_stated_as_a_field_is_the_gpus(tmp_path: Path, line: str, target: str) -> None:
    found = facts(tmp_path, f"{line}\n{HIP_ERROR}\n")
    assert set(targets(found).values()) == {target}


def test_targets_a_build_asks_for_are_not_the_gpus(tmp_path: Path) -> None:
    found = facts(
        tmp_path,
        "make -j16 LLAMA_HIPBLAS=1 AMDGPU_TARGETS=gfx1030\n"
        "hipcc --offload-arch=gfx906 -O3 -c kernels.hip\n"
        "Building PyTorch for GPU arch: gfx900\n"
        "PYTORCH_ROCM_ARCH: gfx1100\n"
        "supported: gfx942\n"
        "GPU architecture: gfx1101\n"
        f"{HIP_ERROR}\n",
    )
    assert targets(found) == {"0": "gfx1101"}


def test_a_device_banner_gives_each_gpu_its_target(tmp_path: Path) -> None:
    # ggml's banner with the target's features (an MI250X's two dies), on llama.cpp's HIP error
    found = facts(
        tmp_path,
        "ggml_cuda_init: found 2 ROCm devices:\n"
        "  Device 0: AMD Instinct MI250X, gfx90a:sramecc+:xnack- (0x90a), VMM: no, Wave Size: 64\n"
        "  Device 1: AMD Instinct MI250X, gfx90a:sramecc+:xnack- (0x90a), VMM: no, Wave Size: 64\n"
        "ROCm error: invalid device function\n",
    )
    assert targets(found) == {"0": "gfx90a", "1": "gfx90a"}
    assert found[("gpu_seen", "1")] == "AMD Instinct MI250X"


def test_a_banner_whose_id_is_another_target_is_not_read(tmp_path: Path) -> None:
    # the hexadecimal ID is the target's own digits; a mismatch is not a target banner
    found = facts(
        tmp_path,
        "  Device 0: AMD Radeon RX 7900 XTX, gfx1100 (0x1100), VMM: no\n"
        "  Device 1: Some Board, gfx1101 (0x1030)\n"
        "ROCm error: invalid device function\n",
    )
    assert targets(found) == {"0": "gfx1100"}


def test_ipython_output_and_torch_version_hip(tmp_path: Path) -> None:
    found = facts(
        tmp_path,
        "In [3]: torch.__version__\n"
        "Out[3]: '2.5.1+rocm6.2'\n"
        "\n"
        "In [4]: torch.version.hip\n"
        "Out[4]: '6.2.41133-dd7f95766'\n"
        f"{HIP_ERROR}\n",
    )
    assert found[("package", "torch")] == "2.5.1+rocm6.2"
    assert found[("build", "torch_rocm")] == "6.2"


@pytest.mark.parametrize(
    "text",
    [
        ">>> print(torch.version.hip)\n6.1.40091-a8dbc0c19\n",
        "torch.version.hip: 6.1.40091-a8dbc0c19\n",
    ],
)
def test_torch_version_hip_is_torchs_rocm_build(tmp_path: Path, text: str) -> None:
    assert facts(tmp_path, text + HIP_ERROR + "\n")[("build", "torch_rocm")] == "6.1"


@pytest.mark.parametrize(
    "line",
    [
        "Versions: {'torch': '2.3.1+rocm5.7', 'xformers': 'N/A', 'gradio': '3.41.2'}",
        '{"python": "3.11.9", "torch": "2.3.1+rocm5.7", "cuda": null}',
    ],
)
def test_a_printed_mapping_states_torchs_version(tmp_path: Path, line: str) -> None:
    found = facts(tmp_path, f"{line}\n{HIP_ERROR}\n")
    assert found[("package", "torch")] == "2.3.1+rocm5.7"
    assert ("package", "xformers") not in found  # 'N/A' is no version


def test_hipblaslt_glob_that_matched_nothing_names_the_target(tmp_path: Path) -> None:
    # hipBLASLt in TheRock's per-family libraries (another release and layout than the held-out
    # log's torch/lib/hipblaslt): its glob `*gfx1200*co` found no kernel file for the target
    log = tmp_path / "run.log"
    log.write_text(
        "rocblaslt warning: No paths matched C:\\venv\\Lib\\site-packages\\"
        "_rocm_sdk_libraries_gfx120X_all\\bin\\hipblaslt\\library\\*gfx1200*co. Make sure that "
        "HIPBLASLT_TENSILE_LIBPATH is set correctly.\n"
        "RuntimeError: CUDA error: HIPBLAS_STATUS_INTERNAL_ERROR when calling `hipblasLtMatmul( "
        "ltHandle, computeDesc.descriptor(), &alpha_val, mat1_ptr, Adesc.descriptor())`\n",
        encoding="utf-8",
    )
    document = explain(log)
    first = document["matches"][0]
    assert (first["rule"], first["line"]) == ("hip-library-kernels-missing-for-gpu-target", 1)
    assert first["verdict"] not in ("confirmed", "ruled-out")  # nothing firmer than the log
    found = {(f["kind"], f["key"]): f["value"] for f in document["facts"]}
    assert found[("gfx_target", "0")] == "gfx1200"


def test_a_sentence_quoting_the_error_ranks_after_the_line_that_prints_it(tmp_path: Path) -> None:
    # a report's sentence quotes ggml's message before the log prints it: the printed line is
    # cited; HIP's own quoting (`guarantee(false && "...")`) is the program's line, not a quote
    reported = tmp_path / "reported.log"
    reported.write_text(
        "After updating, llama-server keeps failing with 'ROCm error: invalid device function' "
        "on every prompt.\n"
        "load_tensors: offloaded 29/29 layers to GPU\n"
        "ggml_cuda_compute_forward: MUL_MAT failed\n"
        "ROCm error: invalid device function\n",
        encoding="utf-8",
    )
    first = explain(reported)["matches"][0]
    assert (first["rule"], first["line"]) == ("hip-no-code-object-for-gpu", 4)
    printed = tmp_path / "printed.log"
    printed.write_text(
        "hip_code_object.cpp:92: guarantee(false && \"hipErrorNoBinaryForGpu: Coudn't find "
        'binary for current devices!")\n'
        'I also tried the docker image and got "hipErrorNoBinaryForGpu" again.\n',
        encoding="utf-8",
    )
    first = explain(printed)["matches"][0]
    assert (first["rule"], first["line"]) == ("hip-no-code-object-for-gpu", 1)


@pytest.mark.parametrize(
    "line",
    [
        # `conda list`: name, version, build string, channel
        "torch                     2.3.1+rocm5.7            pypi_0    pypi",
        # A1111's footer, items between bullets
        "version: v1.10.1  \u2022  python: 3.10.12  \u2022  torch: 2.3.1+rocm5.7  \u2022  "
        "xformers: N/A  \u2022  gradio: 3.41.2",
    ],
)
def test_a_listing_row_or_a_footer_item_states_torchs_version(tmp_path: Path, line: str) -> None:
    found = facts(tmp_path, f"{line}\n{HIP_ERROR}\n")
    assert found[("package", "torch")] == "2.3.1+rocm5.7"


def test_rocm_smi_product_info_gives_each_indexed_gpu_its_target(tmp_path: Path) -> None:
    # `rocm-smi --showproductname` on a desktop with an iGPU: GPU[N] is the GPU's index; a
    # five-digit `gfx11000` (an old rocm-smi's misprint) is no target
    found = facts(
        tmp_path,
        "GPU[0]\t\t: Card Series: \t\tNavi 31 [Radeon RX 7900 XT/7900 XTX]\n"
        "GPU[0]\t\t: GFX Version: \t\tgfx1100\n"
        "GPU[1]\t\t: Card Series: \t\tRaphael\n"
        "GPU[1]\t\t: GFX Version: \t\tgfx1036\n"
        "GPU[2]  : GFX Version:   gfx11000\n"
        f"{HIP_ERROR}\n",
    )
    assert targets(found) == {"0": "gfx1100", "1": "gfx1036"}
