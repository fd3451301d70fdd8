"""The edit-test loop's tier (`scripts/test --fast`, issue 45): what is left out is marked
`integration` here, at collection, so a new test falls into the right tier by what it uses
rather than by someone remembering a marker.

A test is `integration` when it
- is marked `slow` (it says why);
- asks for the `resolver_env` fixture: it drives real pip or uv resolves (conftest.py), or for
  `chromium`: it starts a headless browser (tests/unit/formats/test_html.py; `scripts/test
  --fast` installs none, CI does);
- lives in tests/product or tests/cli (INTEGRATION_DIRS) and is not one of the cheap contract
  checks (CONTRACT): the suites that run compat as a user does, whole real files of other
  projects, fuzzing, installs of compat's own wheel, the action's steps;
- is in one of INTEGRATION_FILES: unit files that pin, solve or package whole real inputs;
- is one of INTEGRATION_TESTS: single unit tests of that kind in files otherwise cheap (each
  with its reason).

Everything else (unit tests, the rule examples, the schemas, the import layers, the config and
option contract) is the fast tier. CI runs both tiers, always.

A run whose `-m` leaves out every `integration` test (`scripts/test --fast`) does not collect the
files whose every test is one (whole_file_integration): importing them (hypothesis, the MCP SDK,
Ray) cost each xdist worker seconds for tests it then deselected."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lib import paths

# tests/product and tests/cli hold contract checks that cost little (the schemas, the import
# layers, the rule language, the config and environment options); the rest of them is the
# user's whole path: compat processes, real pip and uv, an action's steps in bash, the MCP
# server, matrix lint of the whole knowledge base (measured: 0.5-60 s a test, issue 45).
CONTRACT = {
    "test_schemas.py",
    "test_layers.py",
    "test_rule_language.py",
    "test_config.py",
    "test_envopts.py",
}
INTEGRATION_DIRS = ("product", "cli")
# Unit folders' files that pin, solve or package whole real inputs: each of them cost 50-400 s
# summed in a --fast run on a loaded 2-core machine (issue 45, scripts/test_times.py), most of
# the tier's time.
INTEGRATION_FILES = {
    "tests/unit/resolve/test_pin_releases.py",  # pin over every real file, then checked
    "tests/unit/resolve/test_pin_intent.py",  # offline pins of real stacks
    "tests/unit/resolve/test_pin_proof.py",  # the real resolver proves each pin
    "tests/unit/resolve/test_pin_offline_proof.py",
    "tests/unit/commands/test_pixi_environments.py",  # whole pixi locks, every environment
    "tests/unit/kb/test_bundle.py",  # knowledge bundles built, served over HTTP, installed
    "tests/unit/resolve/test_offline_same_answer.py",  # 236 recorded offline solves again
    # compat check processes over a real file, one of them stopped and resumed to slow its clock
    "tests/unit/resolve/test_solve_budget.py",
    "tests/unit/kb/test_pipcheck.py",  # real `pip check` and `pip install --target` per test
    "tests/unit/commands/test_check_fix.py",  # --fix proven by real resolves, then pip installs
    "tests/unit/fleet/test_fleet_ray.py",  # a real 3-node Ray cluster on 127.0.0.1 (20-31 s a test)
}
# Single tests, by file and function (every parameter of it): each drives real pip, reruns a
# generator over its whole recorded input, or pins/judges a whole real file or stack. Measured
# (issue 45, a --fast run on a loaded 2-core machine, summed seconds): 15-170 s each.
INTEGRATION_TESTS = {
    "tests/unit/kb/test_python_imports.py::"
    "test_a_first_run_scanned_by_worker_processes_answers_as_one_process": (
        "two compat processes scan 4,100 sources cold, one of them with worker processes"
    ),
    "tests/unit/facts/test_conda.py::test_python_and_the_running_interpreter_read_their_prefix": (
        "creates a venv and runs compat as that interpreter's own process"
    ),
    "tests/unit/resolve/test_pin_reasons.py::test_the_issues_case_on_a_driver_below_cuda_12": "pins a real 3-package stack from the shipped snapshot, proving every edit",
    "tests/unit/resolve/test_pin_reasons.py::test_the_issues_case_offline_from_the_snapshot": "pins a real 3-package stack from the shipped snapshot, proving every edit",
    "tests/unit/resolve/test_pin_reasons.py::test_unresolved_reasons_name_only_pins_the_plan_keeps": "pins a real stack online, then again offline from the same cache",
    "tests/unit/resolve/test_requires_snapshot.py::"
    "test_the_snapshot_is_what_the_script_writes_from_its_recorded_input": "reruns scripts/gen_requires_snapshot.py over its whole recorded input",
    "tests/unit/kb/test_audit5_rows.py::"
    "test_flash_attn_release_detection_reads_the_download_not_a_function_name": "reruns scripts/gen_wheels.py on a git clone and copies of the data tables",
    "tests/unit/facts/test_check_inputs.py::test_setup_py_requirement_table_idiom_of_open_r1": "checks open-r1's whole real setup.py (every pin judged offline)",
    "tests/unit/resolve/test_bounded_solve.py::test_verl_setup_py_is_judged_within_the_bound": "solves verl's whole real setup.py until the solver's bound",
    "tests/unit/resolve/test_pin_solver.py::test_grpo_takes_the_rules_own_fix_and_is_never_worse": "pins a whole GRPO stack and proves the plan never worse",
    "tests/unit/resolve/test_pin_solver.py::"
    "test_llava_like_pyproject_caps_numpy_below_2_the_same_way_twice": "pins a whole pyproject twice",
    "tests/unit/kb/test_arch_table.py::test_pin_writes_the_fixing_build_and_real_pip_installs_it": "real pip installs what pin wrote",
    "tests/unit/facts/test_explain_stream.py::test_crash_after_256_mib_of_progress_is_found": (
        "streams 256 MiB of progress bars through explain (10 s of CPU)"
    ),
}
# resolver_env: real pip/uv resolves; chromium: a headless browser per test (0.5-2 s CPU each)
INTEGRATION_FIXTURES = {"resolver_env", "chromium"}


def whole_file_integration(path: Path) -> bool:
    """Every test of the file is integration, by its file or its folder alone."""
    try:
        relative = path.relative_to(paths.REPO).as_posix()
    except ValueError:
        return False
    if relative in INTEGRATION_FILES:
        return True
    return path.name not in CONTRACT and any(
        path.is_relative_to(paths.TESTS / folder) for folder in INTEGRATION_DIRS
    )


def leaves_out_integration(config: pytest.Config) -> bool:
    """Whether the run's `-m` deselects every `integration` test, whatever its other marks."""
    expression = str(config.getoption("markexpr", "") or "")
    if "integration" not in expression:
        return False
    try:  # pytest's own evaluator of -m (private: any doubt collects everything)
        from _pytest.mark.expression import Expression

        compiled = Expression.compile(expression)
        return not any(
            compiled.evaluate(lambda name, /, others=others, **_: name == "integration" or others)
            for others in (False, True)
        )
    except Exception:
        return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path.suffix != ".py" or not collection_path.name.startswith("test_"):
        return None
    if whole_file_integration(collection_path) and leaves_out_integration(config):
        return True
    return None


def is_integration(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow") is not None:
        return True
    if INTEGRATION_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    path = item.path
    relative = path.relative_to(paths.REPO).as_posix()
    if relative in INTEGRATION_FILES:
        return True
    function = getattr(item, "originalname", item.name)
    if f"{relative}::{function}" in INTEGRATION_TESTS:
        return True
    return path.name not in CONTRACT and any(
        path.is_relative_to(paths.TESTS / folder) for folder in INTEGRATION_DIRS
    )


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_integration(item):
            item.add_marker(pytest.mark.integration)
