from .parallel import parallel_backend, parallel_map, ParallelBackendConfig  # noqa F401
