"""Declarations that cannot install, and what arrives without being declared (issue 18, part 2).

Through the real CLI on real files (minimal files written here, shaped after ROLL's include
chain, verl's setup.py extras and ms-swift's requirements), the loopback index for online cases
and real pip/uv: conflicting lines across `-r`/`-c` are one finding naming both lines (and pip
really refuses them), extras are judged one install at a time, torch pulled in by another
requirement is judged from the metadata compat can read, and a resolver that runs out of time
leaves an offline judgement with one line saying so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from packaging.version import Version

from tests.checkcli import TOOLS, by_rule, check, write
from tests.conftest import run_cli, run_subprocess
from tests.dists import make_dist
from tests.indexserver import Dist, Faults, IndexServer
from tests.lib import paths

SARIF_SCHEMA = json.loads(paths.SARIF_SCHEMA.read_text())
CUDA13_RULE = "cuda13-build-on-pre-580-driver"


# --- conflicting lines across an include chain -----------------------------------------------


def roll_like(tmp_path: Path) -> tuple[Path, Path]:
    """ROLL's shape (minimal): the included file pins one transformers, the includer another."""
    common = write(
        tmp_path / "requirements_common.txt", "accelerate==1.2.0\ntransformers==4.51.2\n"
    )
    main = write(
        tmp_path / "requirements_torch.txt", "-r requirements_common.txt\ntransformers==4.48.3\n"
    )
    return main, common


def test_conflicting_pins_across_an_include_are_one_finding_naming_both_lines(
    tmp_path: Path,
) -> None:
    main, common = roll_like(tmp_path)
    code, report = check("--offline", str(main))
    assert code == 1
    found = by_rule(report)["pip-check:conflict:transformers"]
    assert found["status"] == "affected" and found["kind"] == "pip-check"
    assert found["packages"] == [
        {"name": "transformers", "version": "4.48.3", "source": f"{main}:2"},
        {"name": "transformers", "version": "4.51.2", "source": f"{common}:2"},
    ]
    # SARIF and GitHub point at the including file's line, which is a real line of a real file.
    sarif = json.loads(run_cli(["check", "--offline", str(main), "--format", "sarif"]).stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA)
    (result,) = sarif["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["region"] == {"startLine": 2}
    assert location["artifactLocation"]["uri"].endswith("requirements_torch.txt")
    github = run_cli(["check", "--offline", str(main), "--format", "github"]).stdout
    (annotation,) = [line for line in github.splitlines() if line.startswith("::error ")]
    assert "requirements_torch.txt,line=2," in annotation


def test_roll_real_include_chain_conflict() -> None:
    """ROLL's real files (tests/data/real/roll/PROVENANCE.md): the file pins transformers 4.48.3
    at line 12 and includes requirements_common.txt, which pins 4.51.2 at line 5."""
    roll = paths.REAL / "roll"
    main = roll / "requirements_torch251_sglang.txt"
    code, report = check("--offline", str(main))
    assert code == 1
    clashes = [f for f in report["findings"] if f["kind"] == "pip-check"]
    assert [f["rule"] for f in clashes] == ["pip-check:conflict:transformers"]
    assert [p["source"] for p in clashes[0]["packages"]] == [  # from the repository root
        f"{main.relative_to(paths.REPO).as_posix()}:12",
        f"{(roll / 'requirements_common.txt').relative_to(paths.REPO).as_posix()}:5",
    ]
    sarif = json.loads(run_cli(["check", "--offline", str(main), "--format", "sarif"]).stdout)
    jsonschema.validate(sarif, SARIF_SCHEMA)
    (result,) = [
        r for r in sarif["runs"][0]["results"] if r["ruleId"] == "pip-check:conflict:transformers"
    ]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 12}


@pytest.mark.usefixtures("resolver_env")
def test_pip_refuses_what_the_conflict_finding_names(tmp_path: Path) -> None:
    main, _ = roll_like(tmp_path)
    write(main, main.read_text() + "peft>=0.13\n")  # a range: the resolver would be asked
    index = {
        "peft": [Dist("peft", "0.13.2")],
        "accelerate": [Dist("accelerate", "1.2.0")],
        "transformers": [Dist("transformers", "4.48.3"), Dist("transformers", "4.51.2")],
    }
    with IndexServer(index) as server:
        pip = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
             "-r", str(main), "--index-url", server.url],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        code, report = check(str(main), "--index-url", server.url)
    assert pip.returncode != 0  # the premise: pip will not install this file
    assert code == 1 and "pip-check:conflict:transformers" in by_rule(report)
    # The resolver is not asked what it cannot answer; the note says why.
    assert any("the resolver was not run" in n for n in report["notes"])


def test_a_constraint_and_a_requirement_with_no_common_version(tmp_path: Path) -> None:
    write(tmp_path / "constraints.txt", "peft<0.15\n")
    main = write(tmp_path / "requirements.txt", "-c constraints.txt\npeft>=0.20\ntrl>=0.14\n")
    _, report = check("--offline", str(main))
    found = by_rule(report)["pip-check:conflict:peft"]
    assert [p["source"] for p in found["packages"]] == [
        f"{main}:2",
        f"{tmp_path / 'constraints.txt'}:1",
    ]
    assert [p["version"] for p in found["packages"]] == [">=0.20", "<0.15"]


def test_overlapping_ranges_and_different_extras_are_not_conflicts(tmp_path: Path) -> None:
    write(tmp_path / "common.txt", "peft>=0.14,<0.16\ntransformers[torch]>=4.40\n")
    main = write(
        tmp_path / "requirements.txt",
        "-r common.txt\npeft>=0.15\ntransformers[sentencepiece]<5\npeft!=0.15.1\n",
    )
    _, report = check("--offline", str(main))
    assert [f for f in report["findings"] if f["kind"] == "pip-check"] == []


# --- extras are alternatives: one install at a time --------------------------------------------

VERL_LIKE = """\
from setuptools import setup

install_requires = ["transformers", "peft", "deepspeed==0.14.2"]
VLLM_REQUIRES = ["vllm==0.8.5", "torch==2.6.0"]
SGLANG_REQUIRES = ["sglang==0.5.6", "torch==2.11.0"]
extras_require = {"vllm": VLLM_REQUIRES, "sglang": SGLANG_REQUIRES}

setup(name="mini", install_requires=install_requires, extras_require=extras_require)
"""
DEEPSPEED_USAGE = ("--set", "zero_stage=3", "--set", "offload_optimizer=cpu", "--set", "gradient_clipping=1.0")  # fmt: skip


def test_extras_are_judged_one_at_a_time_offline(tmp_path: Path, r535: Path) -> None:
    setup = write(tmp_path / "setup.py", VERL_LIKE)
    _, report = check("--offline", str(setup), "--hardware", str(r535), *DEEPSPEED_USAGE)
    found = by_rule(report)
    # torch 2.11.0 (CUDA 13 by default) is the sglang extra's: judged although vllm's pin of
    # torch 2.6.0 comes first in the file, and named as that extra's.
    assert found[CUDA13_RULE]["status"] == "affected"
    assert found[CUDA13_RULE]["install"] == "extra sglang"
    assert found[CUDA13_RULE]["packages"][0] == {
        "name": "torch", "version": "2.11.0", "source": f"{setup}:5"
    }  # fmt: skip
    # Two extras pinning two torch releases are alternatives, not a conflict.
    assert not any(f["kind"] == "pip-check" for f in report["findings"])
    # The base's finding holds in every install: reported once, as the base's.
    deepspeed = [f for f in report["findings"] if f["rule"].startswith("deepspeed-zero3")]
    assert len(deepspeed) == 1 and deepspeed[0]["install"] == "base"
    text = run_cli(["check", "--offline", str(setup), "--hardware", str(r535)]).stdout
    assert "install:  extra sglang" in text


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_extras_are_resolved_one_at_a_time_online(tmp_path: Path, r535: Path, tool: str) -> None:
    setup = write(tmp_path / "setup.py", VERL_LIKE)
    index = {
        "transformers": [Dist("transformers", "4.44.0")],
        "peft": [Dist("peft", "0.13.2")],
        "deepspeed": [Dist("deepspeed", "0.14.2")],
        "vllm": [Dist("vllm", "0.8.5", requires=["torch==2.6.0"])],
        "sglang": [Dist("sglang", "0.5.6", requires=["torch"])],
        "torch": [Dist("torch", "2.6.0"), Dist("torch", "2.11.0")],
    }
    with IndexServer(index) as server:
        _, report = check(
            str(setup), "--hardware", str(r535), "--index-url", server.url, "--resolver", tool
        )
    # The union (torch 2.6.0 and 2.11.0) cannot install; each install can.
    assert not any("cannot install these requirements together" in n for n in report["notes"])
    found = by_rule(report)[CUDA13_RULE]
    assert found["status"] == "affected" and found["install"] == "extra sglang"


@pytest.mark.usefixtures("resolver_env")
def test_extras_that_install_together_are_resolved_once(tmp_path: Path) -> None:
    setup = write(
        tmp_path / "setup.py",
        'from setuptools import setup\n\nsetup(\n    name="mini",\n'
        '    install_requires=["transformers"],\n'
        '    extras_require={"ds": ["deepspeed==0.14.2"], "lora": ["peft"]},\n)\n',
    )
    index = {
        "transformers": [Dist("transformers", "4.44.0")],
        "peft": [Dist("peft", "0.13.2")],
        "deepspeed": [Dist("deepspeed", "0.14.2")],
    }
    with IndexServer(index) as server:
        _, report = check(
            str(setup), *DEEPSPEED_USAGE, "--index-url", server.url, "--resolver", "pip"
        )
        # The resolver's reads (compat's own read of the pin's release list is not a resolve).
        asked = [
            r.path
            for r in server.requests
            if r.path.rstrip("/").endswith("/deepspeed")
            and not r.headers.get("user-agent", "").startswith("compat ")
        ]
    (found,) = [f for f in report["findings"] if f["rule"].startswith("deepspeed-zero3")]
    assert found["install"] == "extra ds"
    assert found["packages"][0]["source"] == f"{setup}:6"
    assert len(asked) == 1  # one resolve of the union, not one per install


# --- torch that arrives through another requirement ------------------------------------------

SWIFT_INDEX = {
    "ms-swift": [Dist("ms-swift", "3.0.0", requires=["accelerate", "peft"])],
    "accelerate": [Dist("accelerate", "1.2.0", requires=["torch>=2.0.0", "numpy"])],
    "peft": [Dist("peft", "0.13.2")],
    "numpy": [Dist("numpy", "2.1.0")],
    "torch": [Dist("torch", "2.11.0")],
}


def swift_like(tmp_path: Path) -> Path:
    """ms-swift's shape (minimal): torch is named nowhere, accelerate's metadata requires it."""
    return write(tmp_path / "requirements.txt", "ms-swift==3.0.0\npeft\n")


def assert_torch_question(
    report: Any, requirements: Path, version: str = ">=2.0.0", line: int = 1
) -> None:
    """The same CUDA-build question an unpinned `torch` line gets, at the line pulling it in."""
    found = by_rule(report)[CUDA13_RULE]
    assert found["status"] == "possible"
    assert [u["fact"] for u in found["unknown"]] == ["build.torch_cuda"]
    assert found["packages"] == [
        {"name": "torch", "version": version, "source": f"{requirements}:{line}"}
    ]


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_a_resolver_out_of_time_falls_back_to_the_offline_judgement(
    tmp_path: Path, r535: Path, tool: str
) -> None:
    requirements = swift_like(tmp_path)
    with IndexServer(SWIFT_INDEX, faults=Faults(slow={"peft": 3.0})) as server:
        result = run_cli(
            ["check", str(requirements), "--hardware", str(r535), "--index-url", server.url,
             "--resolver", tool, "--resolver-timeout", "1", "--format", "json"]
        )  # fmt: skip
        url = server.url
    # Judged offline, but the resolve the ranges rest on did not happen: not clean (issue 23).
    assert result.exit_code == 3, result.stderr
    report = result.json()
    (limit,) = [n for n in report["notes"] if "did not finish resolving" in n]
    assert limit.startswith(f"{tool} did not finish resolving within its limit of 1 s")
    assert report["summary"]["resolve_failed"] == limit.split(" — ")[0]
    # ms-swift 3.0.0 and every peft release are in compat's dependency snapshot: what they pull
    # in is read there (every peft release requires torch, the oldest with no bound), never
    # from what this index says about its own accelerate 1.2.0.
    assert_torch_question(report, requirements, "*", 2)
    (pulled,) = [n for n in report["notes"] if "pulls in torch" in n]
    assert "compat's dependency snapshot of" in pulled and "the package index" not in pulled
    # Offline afterwards, with the index's pages in compat's cache: the install is solved over
    # the shipped snapshot, and the same as with no index named at all (the cache is never read
    # as a source of facts).
    _, offline = check(str(requirements), "--hardware", str(r535), "--index-url", url, "--offline")
    _, bare = check(str(requirements), "--hardware", str(r535), "--offline")
    assert offline["findings"] == bare["findings"] and offline["notes"] == bare["notes"]
    assert offline["environment"]["installs"][0]["by"].startswith("compat's offline solve")


def test_nothing_readable_is_one_note_not_a_silent_skip(tmp_path: Path, r535: Path) -> None:
    requirements = write(tmp_path / "requirements.txt", "evalscope==0.10.0\nmodelscope\n")
    _, report = check(str(requirements), "--hardware", str(r535), "--offline")
    assert CUDA13_RULE not in by_rule(report)
    (note,) = [n for n in report["notes"] if "judged the install" in n]
    assert "requirements not in the snapshot" in note and "not judged" in note
    assert "evalscope" in note  # modelscope is in the snapshot


def test_recorded_metadata_when_nothing_else_can_be_read(tmp_path: Path, r535: Path) -> None:
    """compat/data/recorded-requires.json: every DeepSpeed release since 0.3.0 requires torch
    (sourced at release tags). DeepSpeed ships sdists only, so the dependency snapshot cannot
    tell what a release requires: the record does."""
    requirements = write(tmp_path / "requirements.txt", "deepspeed==0.14.2\n")
    _, report = check(str(requirements), "--hardware", str(r535), "--offline")
    found = by_rule(report)[CUDA13_RULE]
    # The record names torch but not all of DeepSpeed's requirements: the torch a fresh install
    # takes is a pick that the rest could change, so possible, naming what is missing.
    assert found["status"] == "possible"
    (torch,) = found["packages"]
    assert torch["name"] == "torch" and torch["source"] == f"{requirements}:1"
    assert "packages.torch.release" in [u["fact"] for u in found["unknown"]]
    (note,) = [n for n in report["notes"] if "judged the install" in n]
    assert "recorded-requires.json" in note and "deepspeed 0.14.2" in note
    # A pin older than what the record covers is not judged by it.
    old = write(tmp_path / "old.txt", "deepspeed==0.2.0\n")
    _, report = check(str(old), "--hardware", str(r535), "--offline")
    assert CUDA13_RULE not in by_rule(report)


def test_ms_swift_real_requirements_get_the_torch_question_on_r535(r535: Path) -> None:
    """ms-swift's real requirements (tests/data/real/ms-swift/PROVENANCE.md) name no torch:
    accelerate (requirements/framework.txt:1) and peft pull it in. Offline, compat's dependency
    snapshot puts the CUDA-build question an unpinned torch gets."""
    root = paths.REAL / "ms-swift"
    _, report = check(str(root / "requirements.txt"), "--hardware", str(r535), "--offline")
    found = by_rule(report)[CUDA13_RULE]
    assert found["status"] == "possible"
    framework = root / "requirements" / "framework.txt"
    # The offline solve takes the newest torch accelerate and peft allow; many of ms-swift's
    # other requirements are not in the snapshot, so that pick is possible, and says why.
    # torch is placed at the line of a declared package that pulls it in: accelerate (line 1)
    # or peft (line 22) of framework.txt, whichever the solve met first
    (torch,) = found["packages"]
    assert torch["name"] == "torch"
    framework_name = framework.relative_to(paths.REPO).as_posix()  # from the repository root
    assert torch["source"] in (f"{framework_name}:1", f"{framework_name}:22")
    assert "packages.torch.release" in [u["fact"] for u in found["unknown"]]
    (install,) = report["environment"]["installs"]
    assert "torch" in install["packages"]


def test_installed_metadata_tells_what_a_pinned_package_pulls_in(
    tmp_path: Path, r535: Path
) -> None:
    """A package compat's dependency snapshot does not cover (a training framework's own
    package): the installed metadata of exactly the release pinned is read."""
    requirements = write(tmp_path / "requirements.txt", "swift-like==1.2.0\n")
    site = tmp_path / "site"
    make_dist(site, "swift-like", "1.2.0", requires=["torch>=2.0.0", "numpy"])
    env = {"PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    result = run_subprocess(
        ["check", "--offline", str(requirements), "--hardware", str(r535), "--format", "json"],
        env=env,
    )
    assert result.exit_code in (0, 1), result.stderr
    report = json.loads(result.stdout)
    # The release's whole Requires-Dist: the offline solve takes the newest torch it allows.
    found = by_rule(report)[CUDA13_RULE]
    assert found["status"] == "affected"
    assert found["packages"][0]["source"] == f"{requirements}:1"
    (note,) = [n for n in report["notes"] if "judged the install" in n]
    assert "installed metadata of swift-like 1.2.0" in note and "torch " in note
    # Another release installed than the one pinned: its metadata says nothing about the pin
    # (`torch>=1.10.0` would be the wrong range); nothing else tells, and that is said.
    other = tmp_path / "other"
    make_dist(other, "swift-like", "0.34.0", requires=["torch>=1.10.0"])
    env = {"PYTHONPATH": os.pathsep.join([str(other), *sys.path])}
    result = run_subprocess(
        ["check", "--offline", str(requirements), "--hardware", str(r535), "--format", "json"],
        env=env,
    )
    report = json.loads(result.stdout)
    (note,) = [n for n in report["notes"] if "judged the install" in n]
    assert "requirements not in the snapshot" in note and "swift-like" in note
    assert CUDA13_RULE not in by_rule(report)
    # A covered package: the snapshot's record of the release pinned, not what is installed.
    requirements = write(tmp_path / "accelerate.txt", "accelerate==1.2.0\n")
    make_dist(site, "accelerate", "1.2.0", requires=["torch>=9.0.0"])
    env = {"PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    result = run_subprocess(
        ["check", "--offline", str(requirements), "--hardware", str(r535), "--format", "json"],
        env=env,
    )
    report = json.loads(result.stdout)
    (note,) = [n for n in report["notes"] if "judged the install" in n]
    assert "installed metadata" not in note and "torch " in note  # no torch 9 exists


def test_an_installed_release_pip_rejects_is_not_offered_again(tmp_path: Path) -> None:
    """The pinned release of a package the snapshot does not cover, read from its installed
    metadata, conflicts with a pin the snapshot covers (peft 0.14.0 requires accelerate>=0.21.0).
    Once backtracking rejects it, no release of it is left: the install is unsatisfiable, as pip
    finds. Offering the rejected release again sent the solve round and round to its bound (exit
    3, nothing judged); offering the release-unknown stand-in would call it solved."""
    requirements = write(tmp_path / "requirements.txt", "aaa-like==1.2.0\npeft==0.14.0\n")
    site = tmp_path / "site"
    make_dist(site, "aaa-like", "1.2.0", requires=["accelerate<0.21"])
    env = {"PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    result = run_subprocess(["check", "--offline", str(requirements), "--format", "json"], env=env)
    assert result.exit_code == 1, result.stderr
    report = json.loads(result.stdout)
    assert not [n for n in report["notes"] if "stopped at its bound" in n]
    found = by_rule(report)["install:unsatisfiable"]
    assert found["status"] == "affected"
    (note,) = [n for n in report["notes"] if "(install:unsatisfiable)" in n]
    assert "aaa-like 1.2.0 requires accelerate<0.21" in note
    assert "peft 0.14.0 requires accelerate>=0.21.0" in note
    assert report["environment"]["installs"] == []


def test_an_installed_release_pinned_with_extras_brings_what_the_extras_require(
    tmp_path: Path,
) -> None:
    """`aaa-like[x]==1.2.0`, the release read from its installed metadata: extra `x`'s
    requirements are the install's too, as for a release of the snapshot (they were dropped:
    the install below was solved clean, accelerate 1.15.0 beside `accelerate<0.21`)."""
    site = tmp_path / "site"
    make_dist(site, "aaa-like", "1.2.0", requires=['accelerate<0.21; extra == "x"'])
    env = {"PYTHONPATH": os.pathsep.join([str(site), *sys.path])}

    def solve(lines: str) -> tuple[int, dict[str, Any]]:
        requirements = write(tmp_path / "requirements.txt", lines)
        result = run_subprocess(
            ["check", "--offline", str(requirements), "--format", "json"], env=env
        )
        return result.exit_code, json.loads(result.stdout)

    code, report = solve("aaa-like[x]==1.2.0\n")
    (install,) = report["environment"]["installs"]
    assert code == 0 and install["packages"]["aaa-like"] == "1.2.0"
    assert Version(install["packages"]["accelerate"]) < Version("0.21")
    code, report = solve("aaa-like==1.2.0\n")  # without the extra: nothing of it
    (install,) = report["environment"]["installs"]
    assert "accelerate" not in install["packages"]
    code, report = solve("aaa-like[x]==1.2.0\npeft==0.14.0\n")
    assert code == 1 and by_rule(report)["install:unsatisfiable"]["status"] == "affected"
    (note,) = [n for n in report["notes"] if "(install:unsatisfiable)" in n]
    assert "aaa-like 1.2.0 requires accelerate<0.21" in note


# --- an empty intersection is proved, never guessed -------------------------------------------

_GRID = [
    f"{a}.{b}{suffix}"
    for a in range(3)
    for b in range(3)
    for suffix in ("", ".0", ".1", "rc1", ".dev0", ".post1", ".0.1")
]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["==", ">=", "<=", ">", "<", "~=", "!="]), st.sampled_from(_GRID)
        ),
        min_size=2,
        max_size=3,
    )
)
@settings(max_examples=400, deadline=None)
def test_an_empty_intersection_admits_no_version(parts: list[tuple[str, str]]) -> None:
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version

    from compat.resolve.check.clash import empty_intersection

    spec = SpecifierSet(
        ",".join(f"{op}{v}" for op, v in parts if not (op == "~=" and "." not in v))
    )
    if empty_intersection(spec):
        assert not any(spec.contains(Version(v), prereleases=True) for v in _GRID), spec


@pytest.mark.parametrize(
    ("text", "empty"),
    [(">=4.50,<4.45", True), (">=2.0,<2.0", True), ("==1.*,>=2", True), ("==1.0,>1.0", True),
     (">=1.0,<=1.0", False), ("~=2.2.1,>=2.2.9", False), (">=0.14,<0.16,!=0.15.1", False)],
)  # fmt: skip
def test_empty_intersection_examples(text: str, empty: bool) -> None:
    from packaging.specifiers import SpecifierSet

    from compat.resolve.check.clash import empty_intersection

    assert empty_intersection(SpecifierSet(text)) is empty
