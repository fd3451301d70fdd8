"""Every path a test names, from one place: a test file's own location is never used, so moving
a test between folders (tests/unit/<layer>/, tests/cli/, ...) never breaks a path."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
"""tests/: the suite's root (conftest.py, the helper modules)."""
REPO = TESTS.parent
"""The repository: compat/, docs/, schema/, scripts/."""
COMPAT = REPO / "compat"
"""The package's source."""
MATRIX = COMPAT / "matrix"
"""The shipped knowledge base."""
DATA = TESTS / "data"
"""Real files of other projects and recorded inputs (PROVENANCE files say where from)."""
LOGS = DATA / "logs"
"""Real and composed crash logs (tests/data/logs/PROVENANCE.md)."""
PYIMPORTS = DATA / "pyimports"
"""Real wheels' Python sources cut to what doctor's import check reads, one tree per release under
releases/ (MANIFEST.json: each case, its releases, its wheels' sha256 and the real import's
result; scripts/pyimport_fixtures.py; tests/lib/pyimports.copy_case builds a case's site)."""
REAL = DATA / "real"
"""Real dependency files of public training repositories."""
SNAPSHOTS = TESTS / "snapshots"
"""The renderers' expected output, byte for byte."""
FAKE_NVML = TESTS / "fake_nvml"
"""The stand-in `pynvml` (put first on PYTHONPATH; COMPAT_FAKE_NVML names the machine)."""
SARIF_SCHEMA = DATA / "sarif-schema-2.1.0.json"
"""The SARIF 2.1.0 JSON schema."""
CI_DATA = DATA / "ci"
"""The schemas CI systems read compat's outputs against (tests/data/ci/PROVENANCE.md)."""
JUNIT_XSD = CI_DATA / "junit-10.xsd"
"""Jenkins' JUnit schema (junit-10.xsd of the xUnit plugin)."""
GITLAB_CODE_QUALITY_SCHEMA = CI_DATA / "gitlab-code-quality.schema.json"
"""GitLab's documented Code Quality fields, as a JSON schema."""
ACTION = REPO / "action.yml"
"""The composite GitHub Action."""
