"""One answer whatever compat's cache holds (issue 23, items 3 and 5).

The real files in tests/data are checked offline three ways, each as a real process with its own
COMPAT_CACHE_DIR: with a cold cache, with a warm one (the same checks run before), and with a
cache that unrelated online runs filled from a loopback index whose releases say other things
than the ones the dependency snapshot records (torch 2.15.0 requiring triton~=3.9.0, an
accelerate that requires torch>=2.15). The JSON findings and notes must be the same bytes: a
cache may make a check faster, never give it another answer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_subprocess
from tests.indexserver import IndexServer
from tests.lib import paths
from tests.lib.cache import POLLUTING, pollute

DATA = paths.DATA
REAL = DATA / "real"

# Each case: the files of one repository, checked together.
CASES = {
    "deepscaler+verl": [
        REAL / "issue23" / "deepscaler" / "setup.py",
        REAL / "issue23" / "deepscaler" / "verl" / "requirements.txt",
    ],
    "easyr1": [REAL / "issue23" / "easyr1" / "requirements.txt"],
    "ms-swift": [REAL / "ms-swift" / "requirements.txt"],
    "verl": [REAL / "check" / "verl-requirements.txt"],
    "openrlhf": [REAL / "check" / "OpenRLHF-requirements.txt"],
    "open-r1": [REAL / "check" / "open-r1-setup.py"],
}


def check(files: list[Path], cache: Path, index_url: str) -> str:
    """Offline, naming the index whose pages the polluted cache holds (never contacted)."""
    result = run_subprocess(
        ["check", *map(str, files), "--offline", "--format", "json", "--python-version", "3.11",
         "--platform", "linux", "--index-url", index_url,
         # a project and its copy of verl are one install (each file is its own otherwise,
         # issue 42 item 5)
         *(["--together"] if len(files) > 1 else [])],
        env={"COMPAT_CACHE_DIR": str(cache)},
    )  # fmt: skip
    assert result.exit_code in (0, 1), result.stderr
    report = json.loads(result.stdout)
    kept = {"findings": report["findings"], "notes": report["notes"]}
    kept["installs"] = report["environment"]["installs"]  # what the offline solve took
    return json.dumps(kept, sort_keys=True)


@pytest.mark.parametrize("case", sorted(CASES))
def test_cold_warm_and_polluted_caches_give_the_same_findings(case: str, tmp_path: Path) -> None:
    files = CASES[case]
    with IndexServer(POLLUTING) as index:
        cold = check(files, tmp_path / "cold", index.url)
        warm = check(files, tmp_path / "cold", index.url)  # the same cache, now warm
        polluted_cache = tmp_path / "polluted"
        pollute(polluted_cache, tmp_path, index)
        polluted = check(files, polluted_cache, index.url)
    assert warm == cold
    assert polluted == cold


def test_vllm_0_6_3_never_pairs_torch_2_4_with_another_triton(tmp_path: Path) -> None:
    """The issue's case: DeepScaleR's setup.py with its copy of verl (`vllm<=0.6.3`). vllm 0.6.3
    pins torch 2.4.0, which pins triton 3.0.0; no install pairs torch 2.4 with triton 3.9."""
    cache = tmp_path / "polluted"
    with IndexServer(POLLUTING) as index:
        pollute(cache, tmp_path, index)
        report = json.loads(check(CASES["deepscaler+verl"], cache, index.url))
    rules = {f["rule"]: f["status"] for f in report["findings"]}
    assert rules.get("torch-triton-series-mismatch") != "affected"
    (solved,) = [n for n in report["notes"] if n.startswith("judged the install")]
    assert "compat's dependency snapshot" in solved and "compat's index cache" not in solved
    (install,) = report["installs"]
    assert (install["packages"]["torch"], install["packages"]["triton"]) == ("2.4.0", "3.0.0")
