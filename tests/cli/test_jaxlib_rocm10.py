"""jaxlib-does-not-know-rocm10-plugin: jaxlib through 0.11.0 looks for its ROCm kernel modules
under jax_rocm7_plugin / jax_rocm60_plugin only (jaxlib/plugin_support.py in the 0.11.0 wheel;
jax-ml/jax#39634 in 0.11.1). Judged on installed dist-info, on a requirements file, and in a log
that shows the failure and the versions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import run_subprocess
from tests.dists import make_env
from tests.lib.paths import DATA

RULE = "jaxlib-does-not-know-rocm10-plugin"
LOGS = DATA / "logs"


def _findings(args: list[str]) -> dict[str, dict[str, Any]]:
    result = run_subprocess([*args, "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return {f["rule"]: f for f in result.json()["findings"]}


def test_doctor_on_an_installed_rocm10_plugin(tmp_path: Path) -> None:
    old = make_env(
        tmp_path / "old",
        {
            "jax": "0.11.0",
            "jaxlib": "0.11.0",
            "jax-rocm10-plugin": "0.11.0+rocm10.0.0",
            "jax-rocm10-pjrt": "0.11.0+rocm10.0.0",
        },
    )
    hit = _findings(["doctor", "--path", str(old)])[RULE]
    assert hit["status"] == "affected"
    assert "jaxlib>=0.11.1" in str(hit)
    fixed = make_env(
        tmp_path / "fixed",
        {"jaxlib": "0.11.1", "jax-rocm10-plugin": "0.11.1", "jax-rocm10-pjrt": "0.11.1"},
    )
    assert RULE not in _findings(["doctor", "--path", str(fixed)])
    # the ROCm 7 plugin is a name jaxlib 0.11.0 lists; PyPI's 0.0.0 is a placeholder (no module)
    rocm7 = make_env(tmp_path / "rocm7", {"jaxlib": "0.9.2", "jax-rocm7-plugin": "0.9.2"})
    assert RULE not in _findings(["doctor", "--path", str(rocm7)])
    placeholder = make_env(tmp_path / "ph", {"jaxlib": "0.11.0", "jax-rocm10-plugin": "0.0.0"})
    assert RULE not in _findings(["doctor", "--path", str(placeholder)])


def test_check_a_requirements_file_offline(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    # PyPI's jax-rocm10-plugin 0.11.1 requires only jax-rocm10-pjrt==0.11.1: jaxlib stays 0.11.0
    requirements.write_text("jaxlib==0.11.0\njax-rocm10-plugin==0.11.1\n", encoding="utf-8")
    assert _findings(["check", "--offline", str(requirements)])[RULE]["status"] == "affected"
    requirements.write_text("jaxlib==0.11.1\njax-rocm10-plugin==0.11.1\n", encoding="utf-8")
    assert RULE not in _findings(["check", "--offline", str(requirements)])


def _explain(name: str) -> dict[str, Any] | None:
    result = run_subprocess(["explain", "--format", "json", str(LOGS / name)])
    assert result.exit_code in (0, 1), result.stderr
    return next((m for m in result.json()["matches"] if m["rule"] == RULE), None)


def test_explain_reads_the_shims_miss_not_the_ffi_line_alone() -> None:
    # TheRock#7067: the FFI error alone is also what a build that did not link the plugin's
    # libraries prints (openxla/xla#35191): not this rule's symptom
    assert _explain("therock-7067-jax-rocm10-ffi.log") is None
    # the shim's warning says the plugin lookup missed; the freeze lines confirm the versions
    found = _explain("composed-jax-rocm10-plugin-freeze.log")
    assert found is not None and found["verdict"] == "confirmed" and found["line"] == 7
