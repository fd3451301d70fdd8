"""`compat check`: requirement and lock files of training projects, the CI formats, waivers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import run_cli
from tests.lib import paths

SARIF_SCHEMA = json.loads(paths.SARIF_SCHEMA.read_text())
DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
ZERO3 = [
    "--set",
    "zero_stage=3",
    "--set",
    "offload_optimizer=cpu",
    "--set",
    "gradient_clipping=1.0",
]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(*args: str, cwd_files: Path | None = None) -> Any:
    return run_cli(["check", "--no-probe", "--offline", *args])


def openrlhf_like_project(root: Path) -> Path:
    write(
        root / "requirements" / "base.txt",
        "# shared\ntransformers==4.40.0  # pinned for llama3\ntorch==2.3.0+cu121\n",
    )
    return write(
        root / "requirements.txt",
        "-r requirements/base.txt\n"
        "--extra-index-url https://download.pytorch.org/whl/cu121\n"
        "accelerate \\\n    ==0.30.1\n"
        "deepspeed==0.14.2 \\\n    --hash=sha256:0123456789abcdef\n"
        "flash-attn==2.5.8 ; sys_platform == 'linux'\n"
        "bitsandbytes==0.43.1 ; sys_platform == 'win32'\n"
        "peft @ https://files.example.org/peft-0.11.1-py3-none-any.whl\n"
        "${EXTRA_PACKAGE}\n",
    )


def test_requirements_with_includes_continuations_and_hashes(tmp_path: Path) -> None:
    requirements = openrlhf_like_project(tmp_path)
    result = run_cli(["check", str(requirements), "--no-probe", "--offline", *ZERO3, "--format", "json"],
                     env={"EXTRA_PACKAGE": "trl==0.8.6"})  # fmt: skip
    assert result.exit_code == 1, result.stderr
    report = result.json()
    (found,) = [f for f in report["findings"] if f["rule"] == DS_RULE]
    assert found["status"] == "affected"
    assert found["packages"] == [
        {"name": "deepspeed", "version": "0.14.2", "source": f"{requirements}:5"}
    ]
    # win32-only bitsandbytes is not for a linux target; the peft wheel URL carries its version;
    # beyond the 7 declared, the packages the offline solve says they pull in
    (install,) = report["environment"]["installs"]
    assert install["by"].startswith("compat's offline solve")
    pulled = set(install["packages"]) - {"transformers", "torch", "accelerate", "deepspeed",
                                         "flash-attn", "peft", "trl"}  # fmt: skip
    assert pulled and report["environment"]["packages"] == 7 + len(pulled)
    assert report["environment"]["source"].startswith("files ")


def test_fixed_revision_passes(tmp_path: Path) -> None:
    # torch pinned below 2.6 (DeepSpeed 0.14's checkpoints resume there: a fresh install would
    # take the newest torch), and transformers below 4.52 (which refuses torch.load below 2.6)
    requirements = write(
        tmp_path / "requirements.txt",
        "deepspeed==0.14.4\ntrl==0.18.0\ntorch==2.5.1\ntransformers==4.51.3\n",
    )
    usage = [
        "--set",
        "trainer=grpo",
        "--set",
        "distributed=fsdp",
        "--set",
        "fsdp_version=1",
        "--set",
        "use_vllm=true",
    ]
    result = check(str(requirements), *ZERO3, *usage)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "No known-bad combination found" in result.stdout


@pytest.mark.parametrize(
    ("spec", "status"),
    [
        (">=0.14.1,<0.14.3", "affected"),  # every allowed release is bad
        ("~=0.14.0", None),  # admits bad releases and good ones: a range note, not a finding
        (">=0.14.3", None),
        ("", None),
    ],
)
def test_ranges_offline_use_the_versions_the_knowledge_base_names(
    tmp_path: Path, spec: str, status: str | None
) -> None:
    requirements = write(tmp_path / "requirements.txt", f"deepspeed{spec}\n")
    result = check(str(requirements), *ZERO3, "--format", "json")
    report = result.json()
    found = [f for f in report["findings"] if f["rule"] == DS_RULE]
    assert (found[0]["status"] if found else None) == status
    # Offline, the install is solved over the snapshot (pip takes the newest allowed release);
    # a range that also admits bad releases the solve did not pick is a range note.
    assert any(note.startswith("judged the install a fresh") for note in report["notes"])
    range_note = any(DS_RULE in n and "range note" in n for n in report["notes"])
    assert range_note is (spec in ("~=0.14.0", ""))


def test_pyproject_with_optional_and_dependency_groups(tmp_path: Path) -> None:
    pyproject = write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "grpo-run"\nversion = "0.1"\ndependencies = [\n  "transformers>=4.46",\n  "trl==0.17.0",\n]\n\n'
        '[project.optional-dependencies]\nvllm = ["vllm==0.8.3"]\n\n'
        '[dependency-groups]\ndev = ["pytest"]\ntrain = [{include-group = "dev"}, "deepspeed==0.14.1"]\n',
    )
    result = check(
        str(pyproject), "--set", "trainer=grpo", "--set", "distributed=fsdp", "--format", "json"
    )
    report = result.json()
    by_rule = {f["rule"]: f for f in report["findings"]}
    assert by_rule["trl-grpo-fsdp-ref-model-on-cpu"]["packages"][0]["source"] == f"{pyproject}:6"
    assert DS_RULE not in by_rule  # distributed=fsdp: no ZeRO stage, nothing to ask about
    assert result.exit_code == 1
    deepspeed_run = check(str(pyproject), "--set", "distributed=deepspeed", "--format", "json")
    by_rule = {f["rule"]: f for f in deepspeed_run.json()["findings"]}
    assert by_rule[DS_RULE]["packages"][0]["source"] == f"{pyproject}:14"


UV_LOCK = """version = 1
revision = 2
requires-python = ">=3.10"

[[package]]
name = "deepspeed"
version = "0.14.2"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://files.pythonhosted.org/packages/deepspeed-0.14.2.tar.gz", hash = "sha256:00", size = 1 }

[[package]]
name = "my-trainer"
version = "0.1.0"
source = { editable = "." }
dependencies = [{ name = "deepspeed" }, { name = "trl" }]

[[package]]
name = "trl"
version = "0.15.2"
source = { registry = "https://pypi.org/simple" }
"""

PYLOCK = """lock-version = "1.0"
created-by = "pip"
requires-python = ">=3.10"

[[packages]]
name = "vllm"
version = "0.7.3"

[[packages]]
name = "trl"
version = "0.15.2"

[[packages]]
name = "pywin32"
version = "306"
marker = "sys_platform == 'win32'"
"""


def test_uv_lock(tmp_path: Path) -> None:
    lock = write(tmp_path / "uv.lock", UV_LOCK)
    report = check(str(lock), *ZERO3, "--format", "json").json()
    (found,) = [f for f in report["findings"] if f["rule"] == DS_RULE]
    assert found["status"] == "affected" and found["packages"][0]["source"] == f"{lock}:6"
    assert report["environment"]["packages"] == 2  # the editable project itself is skipped
    assert not any("treated as absent" in note for note in report["notes"])  # a lock is complete


def test_pylock_markers_are_honoured(tmp_path: Path) -> None:
    lock = write(tmp_path / "pylock.toml", PYLOCK)
    usage = ["--set", "trainer=grpo", "--set", "use_vllm=true", "--set", "distributed=deepspeed"]
    result = check(str(lock), *usage, "--platform", "linux", "--format", "json")
    report = result.json()
    affected = {f["rule"]: f for f in report["findings"] if f["status"] == "affected"}
    # trl 0.15.2 declares vllm==0.7.2 in its extra: the generated window rule says so too
    assert set(affected) == {"trl-0152-vllm-073-gather-hang", "trl-vllm-outside-supported-window"}
    found = affected["trl-0152-vllm-073-gather-hang"]
    assert found["packages"][0]["source"] in (f"{lock}:6", f"{lock}:10")
    assert report["environment"]["packages"] == 2  # pywin32 is for win32 only


def test_pip_report(tmp_path: Path) -> None:
    document = {
        "version": "1",
        "pip_version": "24.2",
        "install": [
            {"metadata": {"name": "torch", "version": "2.3.0"}, "requested": False},
            {"metadata": {"name": "deepspeed", "version": "0.14.1"}, "requested": True},
        ],
    }
    report_file = write(tmp_path / "report.json", json.dumps(document, indent=2))
    report = check(str(report_file), *ZERO3, "--format", "json").json()
    (found,) = [f for f in report["findings"] if f["rule"] == DS_RULE]
    assert found["packages"][0]["version"] == "0.14.1"
    line = next(
        i
        for i, text in enumerate(report_file.read_text().splitlines(), 1)
        if '"name": "deepspeed"' in text
    )
    assert found["packages"][0]["source"] == f"{report_file}:{line}"


def test_sarif_validates_and_points_at_the_line(tmp_path: Path) -> None:
    requirements = openrlhf_like_project(tmp_path)
    result = run_cli(
        ["check", str(requirements), "--no-probe", "--offline", "--format", "sarif"],
        env={"EXTRA_PACKAGE": ""},
    )
    document = json.loads(result.stdout)
    jsonschema.validate(document, SARIF_SCHEMA)
    run = document["runs"][0]
    (sarif_result,) = [r for r in run["results"] if r["ruleId"] == DS_RULE]
    assert sarif_result["ruleId"] == DS_RULE
    assert sarif_result["level"] == "warning"  # possible: no config given
    region = sarif_result["locations"][0]["physicalLocation"]
    assert region["region"] == {"startLine": 5}
    assert run["tool"]["driver"]["rules"][sarif_result["ruleIndex"]]["helpUri"].startswith(
        "https://github.com/deepspeedai/"
    )
    again = json.loads(
        run_cli(
            ["check", str(requirements), "--no-probe", "--offline", "--format", "sarif"],
            env={"EXTRA_PACKAGE": ""},
        ).stdout
    )
    fingerprints = {r["ruleId"]: r["partialFingerprints"] for r in again["runs"][0]["results"]}
    assert fingerprints[DS_RULE] == sarif_result["partialFingerprints"]


def test_sarif_of_a_clean_check_validates(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "requests==2.32.3\n")
    result = check(str(requirements), "--format", "sarif")
    assert result.exit_code == 0
    jsonschema.validate(json.loads(result.stdout), SARIF_SCHEMA)


def test_github_annotations_are_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "reqs, gpu.txt", "deepspeed==0.14.2\n")
    result = check("reqs, gpu.txt", *ZERO3, "--format", "github")
    line = result.stdout.splitlines()[0]
    assert line.startswith(f"::error file=reqs%2C gpu.txt,line=1,title=compat%3A {DS_RULE}::")
    assert "\n" not in line and result.exit_code == 1


def test_markdown_and_step_summary(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "deepspeed==0.14.2\n")
    summary = write(tmp_path / "summary.md", "previous step\n")
    result = run_cli(["check", str(requirements), "--no-probe", "--offline", *ZERO3, "--format", "text", "--step-summary"],
                     env={"GITHUB_STEP_SUMMARY": str(summary)})  # fmt: skip
    assert result.exit_code == 1
    text = summary.read_text()
    assert text.startswith("previous step\n## compat report")
    assert (
        f"| affected | error | `{DS_RULE}` | deepspeed 0.14.2 | `deepspeed!=0.14.1,!=0.14.2` |"
        in text
    )


def test_waivers_expired_unused_and_active(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "requirements.txt", "deepspeed==0.14.2\n")
    write(
        tmp_path / "pyproject.toml",
        "[tool.compat]\nignore = [\n"
        f'  {{ id = "{DS_RULE}", reason = "we never clip", until = "2099-01-01" }},\n'
        '  { id = "trl-grpo-fsdp-ref-model-on-cpu", reason = "no FSDP here" },\n]\n',
    )
    result = check("requirements.txt", *ZERO3, "--format", "json")
    assert result.exit_code == 0
    notes = result.json()["notes"]
    assert any(n.startswith(f"waived {DS_RULE} (affected): we never clip") for n in notes)
    # issue 42: an unused waiver is a warning (every format shows it), no longer a note
    warnings = [w["message"] for w in result.json()["warnings"]]
    assert any("unused waiver for trl-grpo-fsdp-ref-model-on-cpu" in w for w in warnings)
    waived = result.json()["suppressed"]
    assert [w["rule"] for w in waived] == [DS_RULE]
    assert waived[0]["suppression"]["kind"] == "external"
    write(
        tmp_path / "pyproject.toml",
        f'[tool.compat]\nignore = [{{ id = "{DS_RULE}", reason = "x", until = 2020-01-01 }}]\n',
    )
    result = check("requirements.txt", *ZERO3, "--format", "json")
    assert result.exit_code == 1
    assert any("expired on 2020-01-01" in n for n in result.json()["notes"])


def test_baseline_fails_only_on_new_findings(tmp_path: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "deepspeed==0.14.2\n")
    baseline = tmp_path / "baseline.json"
    result = check(str(requirements), *ZERO3, "--format", "json", "-o", str(baseline))
    assert result.exit_code == 1
    assert check(str(requirements), *ZERO3, "--baseline", str(baseline)).exit_code == 0
    write(requirements, "deepspeed==0.14.2\ntrl==0.17.0\n")
    assert check(str(requirements), *ZERO3, "--set", "trainer=grpo", "--set", "distributed=fsdp", "--baseline",
                 str(baseline)).exit_code == 1  # fmt: skip


@pytest.mark.parametrize(
    ("files", "target", "fragment"),
    [
        (
            {"requirements.txt": "torch==2.3.0\ndeepspeed=0.14.2\n"},
            "requirements.txt",
            "requirements.txt:2: invalid requirement 'deepspeed=0.14.2'",
        ),
        (
            {"requirements.txt": "-r missing.txt\n"},
            "requirements.txt",
            "requirements.txt:1: included file not found",
        ),
        (
            {"requirements.txt": "-r b.txt\n", "b.txt": "x==1\n-r requirements.txt\n"},
            "requirements.txt",
            "b.txt:2: include cycle",
        ),
        (
            {"requirements.txt": "--frobnicate\n"},
            "requirements.txt",
            "requirements.txt:1: unknown option '--frobnicate'",
        ),
        (
            {
                "pyproject.toml": "[project]\nname = 'x'\ndependencies = [\n  'trl>=0.14'\n  'vllm'\n]\n"
            },
            "pyproject.toml",
            "pyproject.toml:5: invalid TOML",
        ),
        (
            {"uv.lock": "version = 2\n[[package]]\nname = 'x'\n"},
            "uv.lock",
            "uv.lock:1: uv.lock: lock version 2 is not supported",
        ),
        (
            {"pylock.toml": 'lock-version = "2.0"\n'},
            "pylock.toml",
            "pylock.toml:1: pylock: lock-version 2.0 is not supported",
        ),
        (
            {"report.json": '{"version": "1", "install": [\n'},
            "report.json",
            "report.json:2: invalid JSON",
        ),
        ({}, "nope.txt", "nope.txt: no such file"),
    ],
)
def test_malformed_files_are_one_line_exit_2(
    tmp_path: Path, files: dict[str, str], target: str, fragment: str
) -> None:
    for name, text in files.items():
        write(tmp_path / name, text)
    result = check(str(tmp_path / target))
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("compat: error: ")
    assert fragment in lines[0]


def test_no_requirements_is_exit_3(tmp_path: Path) -> None:
    requirements = write(
        tmp_path / "requirements.txt", "# nothing yet\n--index-url https://pypi.org/simple\n"
    )
    result = check(str(requirements))
    assert result.exit_code == 3


def test_online_ranges_use_released_versions(tmp_path: Path) -> None:
    from tests.indexserver import Dist, IndexServer

    requirements = write(tmp_path / "requirements.txt", "deepspeed>=0.14.1,<0.15\n")
    releases = [Dist("deepspeed", v) for v in ("0.14.1", "0.14.2", "0.14.4")]
    with IndexServer({"deepspeed": releases}) as index:
        result = run_cli(
            [
                "check",
                str(requirements),
                "--no-probe",
                "--index-url",
                index.url,
                *ZERO3,
                "--format",
                "json",
            ]
        )
    report = result.json()
    # A fresh resolve installs 0.14.4, which is fine: no finding, but a range note that the range
    # also admits the bad 0.14.1/0.14.2.
    assert report["findings"] == []
    assert any(
        n.startswith(("judged the install pip", "judged the install uv")) for n in report["notes"]
    )
    (note,) = [n for n in report["notes"] if "range note" in n]
    assert (
        note.startswith(f"{requirements}:1: `deepspeed>=0.14.1,<0.15`") and "picks 0.14.4" in note
    )
    assert result.exit_code == 0
