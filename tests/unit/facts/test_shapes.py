"""The catalogue of fact shapes (compat.facts.shapes), read from real messages of at least two
releases or formats each: what a message states, and the role its words give it."""

from __future__ import annotations

import pytest

from compat.facts.shapes import Shape, collect_env_line, read, symbol


def facts(text: str, kind: str) -> list[tuple[str, str, str]]:
    return [(s.name, s.value, s.role) for s in read(text) if s.kind == kind]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # torch 1.13-2.x (two spaces before "against", pytorch#81881)
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) "
            "but found runtime version (8, 4, 1). PyTorch already comes bundled with cuDNN.",
            [("cudnn", "8.5.0", "compiled"), ("cudnn", "8.4.1", "installed")],
        ),
        # torch 1.12: "linked against"
        (
            "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against (8, 3, 2) "
            "but linked against (8, 0, 3)",
            [("cudnn", "8.3.2", "compiled"), ("cudnn", "8.0.3", "installed")],
        ),
        # before 1.12: one integer each
        (
            "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked "
            "against 7600",
            [("cudnn", "7.1.2", "compiled"), ("cudnn", "7.6.0", "installed")],
        ),
        # numba 0.60+: the bound and the NumPy found
        (
            "ImportError: Numba needs NumPy 2.0 or less. Got NumPy 2.1.",
            [("numpy", "<=2.0", "required"), ("numpy", "2.1", "installed")],
        ),
        # numba 0.57-0.59: the bound only (kb-audit-6 8.7)
        ("ImportError: Numba needs NumPy 1.24 or less", [("numpy", "<=1.24", "required")]),
    ],
)
def test_versions_with_their_roles(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert facts(text, "version") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # transformers 4.30's and 4.51's TrainingArguments check
        (
            "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.20.1`: Please "
            "run `pip install transformers[torch]` or `pip install accelerate -U`",
            [("accelerate", ">=0.20.1", "required")],
        ),
        (
            "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`: Please "
            "run `pip install transformers[torch]` or `pip install 'accelerate>=0.26.0'`",
            [("accelerate", ">=0.26.0", "required"), ("accelerate", ">=0.26.0", "required")],
        ),
    ],
)
def test_requirements_inside_messages(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert facts(text, "requirement") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # vLLM 0.2 (config.py) and 0.4+ (worker.py, with the float16 hint)
        (
            "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
            "8.0. Your Tesla T4 GPU has compute capability 7.5.",
            [("gpu", "8.0", "required"), ("gpu", "7.5", "seen")],
        ),
        (
            "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least "
            "8.0. Your Tesla V100-SXM2-16GB GPU has compute capability 7.0. You can use float16 "
            "instead by explicitly setting the`dtype` flag in CLI, for example: --dtype=half.",
            [("gpu", "8.0", "required"), ("gpu", "7.0", "seen")],
        ),
        # torch's capability warnings: the old format and 2.8's, and 2.13's "(CC)"
        ("Found GPU0 Tesla K80 which is of cuda capability 3.7.", [("gpu", "3.7", "seen")]),
        (
            "Found GPU0 NVIDIA GB10 which is of compute capability (CC) 12.1.",
            [("gpu", "12.1", "seen")],
        ),
        (
            "NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the "
            "current PyTorch installation.",
            [("gpu", "12.0", "seen")],
        ),
        # flash-attn 2's check names the architecture
        (
            "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
            [("gpu", "8.0", "required")],
        ),
    ],
)
def test_compute_capabilities(text: str, expected: list[tuple[str, str, str]]) -> None:
    assert facts(text, "capability") == expected


def test_arch_lists_and_torch_2_8_range() -> None:
    listed = (
        "The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 "
        "sm_86 sm_90 compute_90."
    )
    assert facts(listed, "arch_list") == [
        ("torch", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 compute_90", "")
    ]
    # torch 2.8-2.10, one line (spark-vllm-docker#15) and wrapped (pytorch#164708)
    one_line = (
        "Found GPU0 NVIDIA GB10 which is of cuda capability 12.1. Minimum and Maximum cuda "
        "capability supported by this version of PyTorch is (8.0) - (12.0)"
    )
    assert facts(one_line, "arch_range") == [("torch", "8.0-12.0", "")]
    wrapped = (
        "Minimum and Maximum cuda capability supported by this version of PyTorch is\n"
        "    (8.9) - (9.0)"
    )
    assert facts(wrapped, "arch_range") == [("torch", "8.9-9.0", "")]


def test_dtypes_sonames_and_whitespace() -> None:
    assert [s.name for s in read("Your setup doesn't support bf16/gpu.") if s.kind == "dtype"] == [
        "bfloat16"
    ]
    loader = (
        "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory"
    )
    assert facts(loader, "soname") == [("libcudart.so", "12", "missing")]
    assert facts("OSError: libcudnn_cnn_infer.so.8: cannot open shared object file", "soname") == [
        ("libcudnn_cnn_infer.so", "8", "missing")
    ]
    # a tab or two spaces read as one
    spaced = "cuDNN version incompatibility: PyTorch was compiled\tagainst  (9, 1, 0)"
    assert facts(spaced, "version") == [("cudnn", "9.1.0", "compiled")]


@pytest.mark.parametrize(
    ("mangled", "namespace", "library", "abi"),
    [
        # c10::Error::Error(c10::SourceLocation, std::string): the old ABI's `Ss`
        ("_ZN3c105ErrorC2ENS_14SourceLocationESs", "c10", "torch", "old"),
        # the same with std::__cxx11::basic_string
        (
            "_ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
            "c10",
            "torch",
            "cxx11",
        ),
        # at::_ops::...::call(...): no string type, so no ABI to read
        ("_ZN2at4_ops10zeros_like4callERKNS_6TensorE", "at", "torch", ""),
        # an identifier that happens to contain "Ss" is not the old ABI's string
        ("_ZN5torch3jit8SsFinderC1Ev", "torch", "torch", ""),
        # c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::__cxx11 ...)
        (
            "_ZN3c106detail14torchCheckFailEPKcS2_jRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
            "c10",
            "torch",
            "cxx11",
        ),
    ],
)
def test_symbols_with_their_abi(mangled: str, namespace: str, library: str, abi: str) -> None:
    read_symbol = symbol(mangled)
    assert (read_symbol.namespace, read_symbol.library, read_symbol.abi) == (
        namespace,
        library,
        abi,
    )


def test_collect_env_lines() -> None:
    assert collect_env_line("[pip3] nvidia-nccl-cu11==2.14.3") == Shape(
        "listed", "nvidia-nccl-cu11", "2.14.3", "pip3"
    )
    assert collect_env_line(
        "[conda] nvidia-nccl-cu12           2.20.5                   pypi_0    pypi"
    ) == Shape("listed", "nvidia-nccl-cu12", "2.20.5", "conda")
    assert collect_env_line("[pip3] numpy") is None
