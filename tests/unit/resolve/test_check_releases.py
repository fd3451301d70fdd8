"""Releases that exist (issue 32 item 3): an exact pin of a version the index never published is
`release:unpublished:NAME` (affected, exit 1) at the pin's line, naming the nearest real
releases; a yanked release pinned exactly is `release:yanked:NAME`. Online through a real PEP
691/503 index on 127.0.0.1 and real pip/uv; offline from compat's dependency snapshot, which
calls a version unpublished only where it records the package's full history, and otherwise
says, in one note, which pins it could not check."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.resolve.sources import snapshot
from tests.checkcli import TOOLS, by_rule, check, write
from tests.conftest import run_cli
from tests.indexserver import Dist, Faults, IndexServer
from tests.lib import paths

SARIF_SCHEMA = json.loads(paths.SARIF_SCHEMA.read_text())
INDEX = {
    "peft": [Dist("peft", "0.3.0"), Dist("peft", "0.4.0"), Dist("peft", "0.5.0")],
    "transformers": [Dist("transformers", "4.31.0")],
    "torch": [Dist("torch", "2.2.0")],
    "accelerate": [
        Dist("accelerate", "0.20.0"),
        Dist("accelerate", "0.20.1", yanked="broke fp16"),
        Dist("accelerate", "0.20.3"),
    ],
}


def releases(report: dict[str, object]) -> dict[str, dict[str, object]]:
    return {k: v for k, v in by_rule(report).items() if k.startswith("release:")}


@pytest.mark.usefixtures("resolver_env")
def test_a_pin_of_a_release_never_published_is_affected_online(tmp_path: Path) -> None:
    """peft==0.4.0.dev0, a real line of a real file: pip refuses it; compat names the line and
    the releases that exist either side of it."""
    requirements = write(tmp_path / "requirements.txt", "transformers==4.31.0\npeft==0.4.0.dev0\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url)
        sarif = json.loads(
            run_cli(
                ["check", str(requirements), "--index-url", index.url, "--format", "sarif"]
            ).stdout
        )
        github = run_cli(
            ["check", str(requirements), "--index-url", index.url, "--format", "github"]
        ).stdout
    assert code == 1
    assert set(releases(report)) == {"release:unpublished:peft"}
    found = by_rule(report)["release:unpublished:peft"]
    assert found["status"] == "affected" and found["kind"] == "release"
    assert found["severity"] == "error"
    assert found["packages"] == [
        {"name": "peft", "version": "0.4.0.dev0", "source": f"{requirements}:2"}
    ]
    assert "0.3.0" in found["title"] and "0.4.0 above" in found["title"]
    assert found["fix"]["constraints"] == ["peft==0.4.0"]
    # SARIF and GitHub annotations point at the pin's line.
    jsonschema.validate(sarif, SARIF_SCHEMA)
    (result,) = [
        r for r in sarif["runs"][0]["results"] if r["ruleId"] == "release:unpublished:peft"
    ]
    location = result["locations"][0]["physicalLocation"]
    assert location["region"] == {"startLine": 2}
    assert location["artifactLocation"]["uri"].endswith("requirements.txt")
    (annotation,) = [x for x in github.splitlines() if "release%3Aunpublished%3Apeft" in x]
    assert annotation.startswith("::error ") and "requirements.txt,line=2," in annotation


@TOOLS
@pytest.mark.usefixtures("resolver_env")
def test_the_unpublished_release_is_the_reason_not_a_failed_resolve(
    tmp_path: Path, tool: str
) -> None:
    """A file the resolver would run on: the unpublished pin is the finding, and no note says
    the requirements "cannot install together" as if the resolve had judged them."""
    requirements = write(tmp_path / "requirements.txt", "peft==0.4.0.dev0\ntransformers\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    assert code == 1 and "release:unpublished:peft" in by_rule(report)
    assert report["summary"]["resolve_failed"] is None
    assert not any("cannot install these requirements together" in n for n in report["notes"])
    assert any("release:unpublished" in n for n in report["notes"])


@pytest.mark.usefixtures("resolver_env")
def test_pins_of_published_releases_pass_pep_440_equal_included(tmp_path: Path) -> None:
    """`torch==2.2` names 2.2.0 (PEP 440 zero padding); a local label is judged by its public
    version; an `===` pin like `==`."""
    requirements = write(
        tmp_path / "requirements.txt",
        "torch==2.2\npeft===0.5.0\ntransformers==4.31.0+local\naccelerate==0.20.3\n",
    )
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url)
    assert releases(report) == {}
    assert not any("exact pins name published releases" in n for n in report["notes"])
    # The release is published; its +local build is not on this index, so the resolver proves
    # the install impossible as written (issue 42 item 1), at that line alone.
    # Beside it, the import table's fact about two of these pins (peft 0.5.0's
    # peft/utils/other.py imports accelerate.utils.is_npu_available, first in accelerate 0.21).
    assert {f["rule"] for f in report["findings"]} == {
        "install:unsatisfiable",
        "python-import:peft:accelerate.utils:is_npu_available",
    }
    found = by_rule(report)["install:unsatisfiable"]
    assert code == 1
    assert [p["source"] for p in found["packages"]] == [f"{requirements}:3"]


@pytest.mark.usefixtures("resolver_env")
def test_a_yanked_release_pinned_exactly_is_a_warning_that_fails_the_gate(
    tmp_path: Path,
) -> None:
    requirements = write(tmp_path / "requirements.txt", "accelerate==0.20.1\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url)
        _, never = check(str(requirements), "--index-url", index.url, "--fail-on", "never")
    assert code == 1
    found = by_rule(report)["release:yanked:accelerate"]
    assert found["status"] == "affected" and found["severity"] == "warning"
    assert found["kind"] == "release"
    assert "broke fp16" in found["title"]
    assert found["fix"]["constraints"] == ["accelerate==0.20.3"]
    assert found["packages"][0]["source"] == f"{requirements}:1"
    assert "release:yanked:accelerate" in by_rule(never)


@pytest.mark.usefixtures("resolver_env")
def test_a_project_no_index_lists_is_unpublished_at_its_line(tmp_path: Path) -> None:
    """Issue 44 item 2 (this was a note): every index the install asks answered, and none has
    the project, so pip refuses the line: `release:unpublished:NAME`, affected, at its line."""
    requirements = write(tmp_path / "requirements.txt", "torch==2.2.0\nprivate-thing==1.0\n")
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url)
    assert code == 1
    found = by_rule(report)["release:unpublished:private-thing"]
    assert found["status"] == "affected" and found["severity"] == "error"
    assert found["packages"][0]["source"] == f"{requirements}:2"
    assert "lists no project private-thing" in found["title"] and index.url in found["title"]
    assert not any("`private-thing==1.0`" in n for n in report["notes"]), report["notes"]


@pytest.mark.usefixtures("resolver_env")
@TOOLS
def test_a_range_line_of_a_project_no_index_lists_is_unpublished_at_its_line(
    tmp_path: Path, tool: str
) -> None:
    """Not only exact pins: `company-utils>=2.0` and a bare `internal_sdk` name projects no index
    the install asks lists; the resolver finds nothing to install, and each is
    `release:unpublished:NAME` at its line. A range of a project the index lists is not."""
    requirements = write(
        tmp_path / "requirements.txt", "torch>=2.0\ncompany-utils>=2.0\ninternal_sdk\n"
    )
    with IndexServer(INDEX) as index:
        code, report = check(str(requirements), "--index-url", index.url, "--resolver", tool)
    assert code == 1
    assert set(releases(report)) == {
        "release:unpublished:company-utils",
        "release:unpublished:internal-sdk",
    }, report["findings"]
    found = by_rule(report)["release:unpublished:company-utils"]
    assert found["status"] == "affected" and found["severity"] == "error"
    assert found["packages"][0] == {
        "name": "company-utils", "version": ">=2.0", "source": f"{requirements}:2",
    }  # fmt: skip
    assert "lists no project company-utils" in found["title"] and index.url in found["title"]
    bare = by_rule(report)["release:unpublished:internal-sdk"]
    assert bare["packages"][0]["source"] == f"{requirements}:3"
    assert "install:unsatisfiable" not in by_rule(report)  # the absent projects are the reason


@pytest.mark.usefixtures("resolver_env")
def test_a_private_index_in_the_pip_configuration_is_asked_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's pip.conf names a private index that serves the project: it is asked too, even
    with --index-url on the command line, and nothing is called unpublished."""
    requirements = write(tmp_path / "requirements.txt", "private-thing==1.0\n")
    with IndexServer({"private-thing": [Dist("private-thing", "1.0")]}) as private:
        conf = write(tmp_path / "pip.conf", f"[global]\nextra-index-url = {private.url}\n")
        monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
        with IndexServer(INDEX) as index:
            _, report = check(str(requirements), "--index-url", index.url, "--resolver", "pip")
    assert releases(report) == {}, report["findings"]


@pytest.mark.usefixtures("resolver_env")
def test_an_index_that_cannot_be_read_is_a_note_naming_it(tmp_path: Path) -> None:
    """One index of the install answers 503 for the project: it may live there, so no finding;
    the note names the index."""
    requirements = write(tmp_path / "requirements.txt", "private-thing==1.0\n")
    faults = Faults(status={"private-thing": 503})
    with IndexServer(INDEX) as index, IndexServer({}, faults=faults) as broken:
        _, report = check(
            str(requirements), "--index-url", index.url, "--extra-index-url", broken.url,
            "--resolver", "pip",
        )  # fmt: skip
    assert releases(report) == {}, report["findings"]
    notes = " ".join(report["notes"])
    assert "`private-thing==1.0`" in notes and broken.url in notes, report["notes"]


def test_offline_a_pin_is_judged_against_the_snapshot(tmp_path: Path) -> None:
    """Offline, the snapshot decides only where it records peft's whole publication history;
    until then the pin is named in one note, never passed in silence nor called unpublished
    (the snapshot's finals since 2021 alone would call an older real release unpublished)."""
    requirements = write(tmp_path / "requirements.txt", "peft==0.4.0.dev0\nevalscope==0.10.0\n")
    code, report = check(str(requirements), "--offline")
    peft = NormalizedName("peft")
    assert Version("0.4.0.dev0") not in snapshot.published(peft)
    (note,) = [n for n in report["notes"] if "exact pins name published releases" in n]
    # evalscope: a package the snapshot does not cover is named, never judged absent.
    assert not snapshot.covers(NormalizedName("evalscope"))
    assert f"`evalscope==0.10.0` ({requirements}:2)" in note
    if snapshot.history_complete(peft):
        found = by_rule(report)["release:unpublished:peft"]
        assert found["status"] == "affected" and code == 1
        assert found["packages"][0]["source"] == f"{requirements}:1"
        assert "peft==0.4.0.dev0" not in note
    else:
        assert releases(report) == {} and code == 0
        assert f"`peft==0.4.0.dev0` ({requirements}:1)" in note


def test_offline_pins_outside_the_snapshot_are_counted_on_the_verdict_line(
    tmp_path: Path,
) -> None:
    """Issue 44 item 2: `mediapipe==0.10.11` (no wheel for 3.12, no sdist) offline is outside the
    snapshot: the verdict line says how many exact pins went unjudged, not only a note."""
    requirements = write(
        tmp_path / "requirements.txt", "mediapipe==0.10.11\nevalscope==0.10.0\ntransformers\n"
    )
    for name in ("mediapipe", "evalscope"):
        assert not snapshot.covers(NormalizedName(name))
    text = run_cli(["check", str(requirements), "--offline", "--no-probe"])
    code, report = check(str(requirements), "--offline")
    verdict = text.stdout.strip().splitlines()[-1]
    assert verdict.startswith("No known-bad combination found in what was judged")
    assert f"2 exact pins were not judged: outside the snapshot of {snapshot.fetched()}" in verdict
    assert report["summary"]["unjudged_pins"] == 2 and code == text.exit_code == 0
    covered = write(tmp_path / "covered.txt", "transformers==4.40.0\n")
    _, clean = check(str(covered), "--offline")
    assert clean["summary"]["unjudged_pins"] == 0


def test_offline_range_lines_outside_the_snapshot_are_counted_too(tmp_path: Path) -> None:
    """A range line or bare name of a package the snapshot does not cover is as unjudged as
    such a pin: what it installs, and what that pulls in, is unknown offline."""
    requirements = write(
        tmp_path / "requirements.txt",
        "evalscope==0.10.0\ninternal-utils>=1.2\ncompany_sdk\ntransformers>=4.40\n",
    )
    for name in ("evalscope", "internal-utils", "company-sdk"):
        assert not snapshot.covers(NormalizedName(name))
    text = run_cli(["check", str(requirements), "--offline", "--no-probe"])
    _, report = check(str(requirements), "--offline")
    verdict = text.stdout.strip().splitlines()[-1]
    assert (
        f"1 exact pin and 2 ranged requirements were not judged: outside the snapshot of "
        f"{snapshot.fetched()}" in verdict
    ), verdict
    assert (report["summary"]["unjudged_pins"], report["summary"]["unjudged_outside"]) == (1, 2)
    ranged_only = write(tmp_path / "ranged.txt", "internal-utils>=1.2\n")
    text = run_cli(["check", str(ranged_only), "--offline", "--no-probe"])
    assert "1 ranged requirement was not judged" in text.stdout.strip().splitlines()[-1]
    _, clean = check(str(write(tmp_path / "covered.txt", "transformers>=4.40\n")), "--offline")
    assert clean["summary"]["unjudged_outside"] == 0


def test_offline_a_recorded_release_needs_no_note(tmp_path: Path) -> None:
    name = NormalizedName("transformers")
    recorded = next(r.version for r in reversed(snapshot.records(name)) if not r.yanked)
    requirements = write(tmp_path / "requirements.txt", f"transformers=={recorded}\n")
    _, report = check(str(requirements), "--offline")
    assert releases(report) == {}
    assert not any("exact pins name published releases" in n for n in report["notes"])


def test_offline_every_yanked_release_the_snapshot_records_is_a_finding(tmp_path: Path) -> None:
    yanked = [
        (name, record.version)
        for name in snapshot.names()
        for record in snapshot.records(name)
        if record.yanked
    ]
    if not yanked:
        pytest.skip("the shipped snapshot records no yanked release yet")
    name, version = yanked[0]
    requirements = write(tmp_path / "requirements.txt", f"{name}=={version}\n")
    code, report = check(str(requirements), "--offline")
    assert by_rule(report)[f"release:yanked:{name}"]["status"] == "affected" and code == 1
