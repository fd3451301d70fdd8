"""compat/probes/: the GPU probe at the NVML binding boundary, CUDA builds, hardware profiles,
conda's virtual packages."""
