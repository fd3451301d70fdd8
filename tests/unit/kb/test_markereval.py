"""compat.kb.markereval gives packaging.markers' verdicts (pip's own evaluator) on a table of markers
from real Requires-Dist lines and on several interpreters' environments."""

from __future__ import annotations

import pytest
from packaging.markers import Marker

from compat.kb.markereval import Unsupported, evaluate, marker_parses

LINUX_311 = {
    "implementation_name": "cpython", "implementation_version": "3.11.7", "os_name": "posix",
    "platform_machine": "x86_64", "platform_release": "6.8.0-45-generic", "platform_system": "Linux",
    "platform_version": "#45-Ubuntu SMP", "python_full_version": "3.11.7",
    "platform_python_implementation": "CPython", "python_version": "3.11", "sys_platform": "linux",
}  # fmt: skip
MAC_39 = {
    **LINUX_311, "platform_machine": "arm64", "platform_system": "Darwin", "sys_platform": "darwin",
    "python_full_version": "3.9.18", "python_version": "3.9", "implementation_version": "3.9.18",
    "platform_release": "23.1.0",
}  # fmt: skip
WIN_313_PRE = {
    **LINUX_311, "platform_machine": "AMD64", "platform_system": "Windows", "sys_platform": "win32",
    "os_name": "nt", "python_full_version": "3.13.0rc2", "python_version": "3.13",
    "implementation_version": "3.13.0rc2", "platform_release": "10",
}  # fmt: skip
PYPY_310 = {
    **LINUX_311, "implementation_name": "pypy", "platform_python_implementation": "PyPy",
    "implementation_version": "7.3.15", "python_version": "3.10", "python_full_version": "3.10.13",
}  # fmt: skip

MARKERS = [
    'python_version < "3.11"',
    'python_version >= "3.9"',
    "python_version<'3.12'",
    'python_version == "3.1*"',  # not a valid specifier: a string comparison
    'python_version ~= "3.10"',
    'python_full_version >= "3.13.0rc1"',
    'python_full_version < "3.13"',  # 3.13.0rc2 is a pre-release of 3.13
    'python_version != "3.9"',
    'python_version === "3.11"',
    'python_version in "3.10 3.11"',
    'python_version not in "3.10, 3.11"',
    'sys_platform == "linux"',
    'sys_platform != "win32"',
    'platform_system == "Linux" and platform_machine == "x86_64"',
    'platform_machine == "x86_64" and platform_system == "Linux"',
    "platform_machine != 'aarch64' and sys_platform == 'linux'",
    '(platform_machine == "x86_64" or platform_machine == "AMD64") and python_version >= "3.10"',
    'sys_platform == "darwin" or sys_platform == "win32"',
    'platform_system == "Windows" and python_version < "3.13" or sys_platform == "darwin"',
    'implementation_name == "cpython"',
    'platform_python_implementation != "PyPy"',
    'implementation_version >= "7"',
    'platform_release >= "6"',  # "6.8.0-45-generic" is no PEP 440 version: False
    'platform_release >= "20"',
    '"linux" in sys_platform',
    '"x86" not in platform_machine',
    'os_name == "nt"',
    "os.name == 'posix'",
    "sys.platform == 'linux'",
    'extra == "test"',
    'extra == "Test_Extra"',
    'python_version >= "3.8" and extra == "gpu"',
    'extra == "gpu" or extra == "all"',
    'platform_version >= "1"',  # not a version variable: a string comparison
    'python_version > "3.9" and (sys_platform == "linux" and (platform_machine == "aarch64" or implementation_name == "pypy"))',
]  # fmt: skip


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize(
    "environment", [LINUX_311, MAC_39, WIN_313_PRE, PYPY_310], ids=["linux", "mac", "win", "pypy"]
)
@pytest.mark.parametrize("extra", ["", "gpu", "test-extra"])
def test_same_verdict_as_packaging(marker: str, environment: dict[str, str], extra: str) -> None:
    full = {**environment, "extra": extra}
    assert marker_parses(marker)
    assert evaluate(marker, full) is Marker(marker).evaluate(full)


@pytest.mark.parametrize(
    "marker",
    [
        'python_version ~= "3"',  # packaging: UndefinedComparison when evaluated
        'extras == "x"',  # a variable this evaluator does not know
        '"a" == "b"',
        "python_version",
        'python_version < "3" and',
        '(python_version < "3"',
    ],
)
def test_what_it_does_not_handle_is_left_to_packaging(marker: str) -> None:
    with pytest.raises(Unsupported):
        evaluate(marker, {**LINUX_311, "extra": ""})


@pytest.mark.parametrize(
    ("marker", "known", "verdict"),
    [
        ('extra == "gpu" and sys_platform == "linux"', {"extra": ""}, False),
        ('extra == "gpu" and sys_platform == "linux"', {"extra": "gpu"}, None),
        ('sys_platform == "linux" or python_version >= "3"', {"python_version": "3.11"}, True),
        ('sys_platform == "linux" and python_version >= "3"', {"python_version": "3.11"}, None),
        ('sys_platform == "linux" and python_version < "3"', {"python_version": "3.11"}, False),
        ('(platform_machine == "x86_64") or extra == "all"', {"extra": "all"}, True),
        ('platform_release >= "6"', {}, None),
    ],
)
def test_unknown_variables_make_a_verdict_unknown_only_where_they_matter(
    marker: str, known: dict[str, str], verdict: bool | None
) -> None:
    # A --path directory knows some variables; `and`/`or` decide without the others when they can.
    assert evaluate(marker, known) is verdict
