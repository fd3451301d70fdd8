"""Helpers every layer's tests share, written once (they were copied into up to 8 files):

- `tests.lib.paths`: every path a test names (the repository, tests/data, the snapshots, the
  stand-in NVML), never derived from a test file's own location;
- `tests.lib.doctor`: `compat doctor` on a built environment, as the report or rule -> status;
- `tests.lib.hardware`: hardware profile files of real machines (R535, R580) for `--hardware`;
- `tests.lib.nvml`: the stand-in NVML binding's environment for a `compat` subprocess;
- `tests.lib.resolvers`: what real pip and real uv resolve under the constraints compat wrote;
- `tests.lib.cache`: a compat cache polluted by unrelated online runs (same-answer tests).

Installed environments themselves are built by tests/dists.py, the package index served by
tests/indexserver.py; `run_cli`/`run_subprocess` and the isolated cache live in conftest.py."""
