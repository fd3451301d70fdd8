"""Probes: hardware (NVML), CUDA builds and training configs. Imported lazily."""
