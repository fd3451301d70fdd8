"""`compat explain` on flash-attn's undefined-symbol ImportError: when the log's facts settle that
the extension is the release wheel setup.py fetched for the installed torch's series, compiled
against another build of that series (compat/matrix/flash-attn-wheels.yaml, the publish matrix
at each tag in compat/data/wheels.json), and when they leave it open."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.lib import paths

LOGS = paths.LOGS
RULE = "flash-attn-wheel-built-against-torch-prerelease"
SERIES = "flash-attn-built-for-another-torch"
ERROR = (
    "ImportError: /env/lib/python3.10/site-packages/"
    "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
)


def verdicts(log: Path) -> tuple[int, dict[str, dict[str, object]]]:
    result = run_cli(["explain", str(log), "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, {m["rule"]: m for m in result.json()["matches"]}


def test_the_real_issue_931_log_is_the_nightly_built_wheel() -> None:
    # torch 2.3.0 / flash-attn 2.5.7 / cpython-310 on x86_64: setup.py fetched v2.5.7's torch2.3
    # wheel, compiled against torch 2.3.0.dev20240207 (publish.yml at v2.5.7)
    code, matches = verdicts(LOGS / "flash-attention-931-setdevice.log")
    assert code == 0
    assert matches[RULE]["verdict"] == "confirmed" and matches[RULE]["unknown"] == []
    assert {f["fact"] for f in matches[RULE]["facts"]} >= {
        "packages.torch",
        "packages.flash-attn",
        "build.flash_attn_link_error",
    }
    # which series the binary was built for stays open for the per-series rule
    assert matches[SERIES]["verdict"] == "symptom-only"


@pytest.mark.parametrize(
    ("versions", "error", "verdict"),
    [
        # 2.5.8 rebuilt its torch 2.3 wheels against the final 2.3.0 (flash-attention #931)
        ("torch: 2.3.0\nflash-attn: 2.5.8\n", ERROR, "outside-range"),
        # 2.5.7's torch 2.2 wheels were compiled against the final 2.2.0
        ("torch: 2.2.0\nflash-attn: 2.5.7\n", ERROR, "outside-range"),
        # no cp312 wheel of 2.5.7 for torch 2.3: setup.py compiled against the torch present
        ("torch: 2.3.0\nflash-attn: 2.5.7\n", ERROR.replace("310", "312"), "outside-range"),
        # the log shows no versions: open, with what would settle it
        ("", ERROR, "symptom-only"),
        # NGC's pre-release torch beside 2.3.2's wheel compiled against the final 2.1.0 (#620)
        ("torch: 2.1.0a0+fe05266\nflash-attn: 2.3.2\n", ERROR.replace("310", "38"), "confirmed"),
    ],
)
def test_what_the_log_shows_decides(
    tmp_path: Path, versions: str, error: str, verdict: str
) -> None:
    log = tmp_path / "train.log"
    log.write_text(versions + error)
    _, matches = verdicts(log)
    assert matches[RULE]["verdict"] == verdict
    if verdict == "symptom-only":
        assert [u.split(" ")[0] for u in matches[RULE]["unknown"]] == [
            "packages.flash-attn",
            "packages.torch",
        ]


@pytest.mark.parametrize(
    "error",
    [
        # an aarch64 extension: no release wheel exists there, setup.py compiled it
        ERROR.replace("x86_64", "aarch64"),
        # no CPython tag or machine in the name: nothing says a release wheel was fetched
        "ImportError: flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n",
    ],
)
def test_an_extension_name_that_does_not_show_linux_x86_64_is_not_this_rule(
    tmp_path: Path, error: str
) -> None:
    log = tmp_path / "train.log"
    log.write_text("torch: 2.3.0\nflash-attn: 2.5.7\n" + error)
    _, matches = verdicts(log)
    assert RULE not in matches and matches[SERIES]["verdict"] == "symptom-only"


def test_the_620_log_names_no_error_so_nothing_matches() -> None:
    # "encouter the same error with ..." and versions, but no error line: no symptom, no verdict
    _, matches = verdicts(LOGS / "flash-attention-620-versions.log")
    assert RULE not in matches and SERIES not in matches


def test_an_environment_given_on_the_command_line_judges_python_and_versions(
    tmp_path: Path,
) -> None:
    log = tmp_path / "train.log"
    log.write_text(ERROR)
    site = tmp_path / "env" / "lib" / "python3.10" / "site-packages"
    for name, version in (("torch", "2.3.0"), ("flash_attn", "2.5.7")):
        info = site / f"{name}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n"
        )
    result = run_cli(["explain", str(log), "--path", str(site), "--format", "json"])
    assert result.exit_code == 0, result.stderr
    matches = {m["rule"]: m for m in result.json()["matches"]}
    assert matches[RULE]["verdict"] == "confirmed"
