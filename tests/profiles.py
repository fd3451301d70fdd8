"""Hardware profiles (`compat.hardware/1`) of real machines, for check tests: an A100 node on the
R535 driver (CUDA 12.2, too old for CUDA 13 builds) and an H100 node on R580 (CUDA 13.0)."""

from __future__ import annotations

from typing import Any

R535: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}
R580: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "580.65.06",
    "cuda_driver_version": "13.0",
    "gpus": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}] * 8,
}
# A V100 node on the R470 driver (CUDA 11.4): below the CUDA 12 family floor (525.60.13).
R470: dict[str, Any] = {
    "schema": "compat.hardware/1",
    "driver_version": "470.182.03",
    "cuda_driver_version": "11.4",
    "gpus": [{"name": "Tesla V100-SXM2-32GB", "compute_capability": "7.0"}] * 4,
}
