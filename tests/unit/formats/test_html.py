"""`--format html` for doctor, check, explain and fleet, opened in a real browser.

Every page is written by the CLI from real inputs (dist-info trees, a hardware profile, a
requirements file, a real log, per-node doctor reports) that carry hostile values: markup,
quotes and control characters in a GPU name, a directory name, a log's file name and node
names. Headless Chromium (Debian's `chromium`; scripts/ensure-chromium installs it in CI) loads
each page from disk and dumps the DOM it built: the findings' rule ids and counts must be there,
and every hostile value must be text, never an element. A screenshot of a fleet page is written
to the test's temporary directory. Without Chromium the browser tests skip; the checks on the
file itself (self-contained, escaped) always run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.dists import make_env
from tests.lib import paths

HOSTILE = "<script>alert(\"x\")</script> 'q' & \x1b[31m"
SHOWN = "<script>alert(\"x\")</script> 'q' & \\u001b[31m"  # as text, the control escaped
NODE_HOSTILE = '<img src=x onerror="alert(1)">'  # no "/": it is also a file name here
STACK = {"torch": "2.6.0+cu124", "vllm": "0.7.2", "xformers": "0.0.28.post3", "trl": "0.14.0"}
LOGS = paths.LOGS

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _chromium() -> str | None:
    return os.environ.get("COMPAT_TEST_CHROMIUM") or shutil.which("chromium")


class _Dom(HTMLParser):
    """Elements, attributes and text of a DOM as the browser serialised it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[dict[str, str | None]] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.append(dict(attrs))

    def handle_data(self, data: str) -> None:
        self.texts.append(data)

    @property
    def text(self) -> str:
        return "".join(self.texts)

    def values(self, name: str) -> list[str]:
        return [str(a[name]) for a in self.attrs if a.get(name) is not None]


def _parse(markup: str) -> _Dom:
    dom = _Dom()
    dom.feed(markup)
    return dom


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The four pages, and the JSON documents the same inputs give."""
    tmp = tmp_path_factory.mktemp("html")
    site = make_env(tmp / f"site {NODE_HOSTILE}", STACK)
    made: dict[str, Any] = {"tmp": tmp}
    for driver, cuda in (("535.104.05", "12.2"), ("550.54.15", "12.4")):
        gpus = [
            {"index": i, "name": f"NVIDIA A100 {HOSTILE}", "compute_capability": "8.0"}
            for i in range(8)
        ]
        profile = tmp / f"hw-{driver}.json"
        profile.write_text(
            json.dumps(
                {
                    "schema": "compat.hardware/1",
                    "driver_version": driver,
                    "cuda_driver_version": cuda,
                    "gpus": gpus,
                }
            ),
            encoding="utf-8",
        )
        doctor = ["doctor", "--path", str(site), "--hardware", str(profile)]
        made[driver] = run_cli([*doctor, "--format", "json"]).json()
    assert run_cli([*doctor, "-f", "html", "-o", str(tmp / "doctor.html")]).exit_code == 1
    made["doctor"] = made["550.54.15"]

    requirements = tmp / f"req {NODE_HOSTILE}.txt"
    requirements.write_text("torch==2.6.0\nvllm==0.7.2\n", encoding="utf-8")
    check = ["check", str(requirements), "--offline"]
    made["check"] = run_cli([*check, "-f", "json"]).json()
    assert run_cli([*check, "-f", "html", "-o", str(tmp / "check.html")]).exit_code == 1

    log = tmp / f"{NODE_HOSTILE}.log"
    log.write_text(
        (LOGS / "deepspeed-5538-zero3-cpu-offload.log").read_text(encoding="utf-8")
        + f"\nuser text {HOSTILE}\n",
        encoding="utf-8",
    )
    made["explain"] = run_cli(["explain", str(log), "-f", "json"]).json()
    run_cli(["explain", str(log), "-f", "html", "-o", str(tmp / "explain.html")])

    reports = tmp / "reports"
    reports.mkdir()
    names = [f"gpu{i:02d}" for i in range(1, 13)] + [HOSTILE.replace("\x1b", "")]
    for index, name in enumerate(names):
        state = made["550.54.15"] if index in (3, 4) else made["535.104.05"]
        host = {"hostname": name, "ip": f"10.0.0.{index}", "slurm_node": name}
        (reports / f"n{index:02d}.json").write_text(
            json.dumps({**state, "host": host}, indent=2), encoding="utf-8"
        )
    fleet = ["fleet", "--reports", str(reports), "--nodes", "gpu[01-14]"]
    made["fleet"] = run_cli([*fleet, "-f", "json"]).json()
    assert run_cli([*fleet, "-f", "html", "-o", str(tmp / "fleet.html")]).exit_code == 3
    return made


FORMATS = ("doctor", "check", "explain", "fleet")


@pytest.mark.parametrize("name", FORMATS)
def test_each_page_is_one_self_contained_file_with_its_values_escaped(
    pages: dict[str, Any], name: str
) -> None:
    markup = (pages["tmp"] / f"{name}.html").read_text(encoding="utf-8")
    dom = _parse(markup)
    assert markup.startswith("<!DOCTYPE html>")
    # Nothing to fetch, nothing to run: no script, no external style, image, frame or font.
    assert not {"script", "link", "iframe", "object", "embed", "img", "base"} & set(dom.tags)
    assert "@import" not in markup and "url(" not in markup
    assert all(not v.startswith(("http", "//")) for v in dom.values("src"))
    csp = [a for a in dom.attrs if a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in str(csp[0]["content"])
    # Hostile values are text: no element came from them, no raw control character is left.
    assert "\x1b" not in markup and NODE_HOSTILE not in markup
    assert NODE_HOSTILE in dom.text
    assert all(a.get("onerror") is None for a in dom.attrs)
    # Semantic structure: one h1, headings below it, tables with header cells.
    assert dom.tags.count("h1") == 1 and "h2" in dom.tags and "th" in dom.tags


def test_report_pages_group_findings_and_show_evidence(pages: dict[str, Any]) -> None:
    dom = _parse((pages["tmp"] / "doctor.html").read_text(encoding="utf-8"))
    findings = pages["doctor"]["findings"]
    assert dom.values("data-rule") == [f["rule"] for f in _by_status(findings)]
    text = dom.text
    assert SHOWN in text  # the GPU name from the profile, as text
    for heading in ("Affected: ", "Possible: ", "Severity error", "Facts", "Environment"):
        assert heading in text
    for finding in findings:
        for matched in finding["matched"]:
            assert matched in text
        for unknown in finding["unknown"]:
            assert unknown["settle_with"] in text
        assert finding["fix"]["summary"] in text
        assert all(reference in text for reference in finding["references"])


def _by_status(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    order = {"affected": 0, "possible": 1}
    severity = {"error": 0, "warning": 1, "info": 2}
    return sorted(
        findings, key=lambda f: (order.get(f["status"], 9), severity.get(f["severity"], 9))
    )


# ---------------------------------------------------------------------------------------------
# In the browser


def _browser(chromium: str, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp / "chromium-profile"
    return subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def chromium() -> str:
    found = _chromium()
    if found is None:
        pytest.skip("chromium is not installed (scripts/ensure-chromium installs it)")
    return found


@pytest.mark.parametrize("name", FORMATS)
def test_the_browser_builds_the_findings_and_keeps_hostile_input_as_text(
    pages: dict[str, Any], chromium: str, name: str, tmp_path: Path
) -> None:
    page = pages["tmp"] / f"{name}.html"
    done = _browser(chromium, tmp_path, "--dump-dom", page.as_uri())
    assert done.returncode == 0, done.stderr[-2000:]
    dom = _parse(done.stdout)
    assert "h1" in dom.tags, done.stdout[:500]
    # What the browser built from hostile input is text: no element, no handler.
    assert not {"script", "img", "iframe"} & set(dom.tags)
    assert all(a.get("onerror") is None for a in dom.attrs)
    assert NODE_HOSTILE in dom.text
    document = pages[name]
    rules = dom.values("data-rule")
    if name == "explain":
        assert rules == [m["rule"] for m in document["matches"]]
        assert "deepspeed-zero3-offload-clip-device-mismatch" in rules
    else:
        shown = [*document["findings"], *document.get("needs_hardware", [])]
        expected = {f["rule"] for f in shown}
        assert set(rules) == expected and len(rules) == len(shown)
    if name in ("doctor", "fleet"):
        assert SHOWN in dom.text  # GPU names
    if name == "fleet":
        _fleet_dom(dom, document)


def _fleet_dom(dom: _Dom, document: dict[str, Any]) -> None:
    text = dom.text
    summary = document["summary"]
    assert summary["nodes"] == 15 and summary["groups"] == 3  # 11 + 2 + 2 missing
    groups = {g["nodes"]: g for g in document["groups"]}
    hostile = HOSTILE.replace("\x1b", "")
    assert groups[f"gpu[01-03,06-12],{hostile}"]["count"] == 11
    assert groups["gpu[04-05]"]["count"] == 2
    assert groups["gpu[13-14]"]["status"] == "missing"
    for names in groups:  # every group's names, as text
        assert names in text
    assert "11 nodes" in text and "missing" in text
    # Per finding, the node count; the differing driver as a table row.
    for finding in document["findings"]:
        assert finding["count"] == 13
        assert f"{finding['count']} of {summary['checked']}" in text
    assert "NVIDIA driver" in text and "535.104.05" in text and "550.54.15" in text


def test_a_fleet_page_screenshot(pages: dict[str, Any], chromium: str, tmp_path: Path) -> None:
    shot = tmp_path / "fleet.png"
    page = pages["tmp"] / "fleet.html"
    done = _browser(
        chromium, tmp_path, f"--screenshot={shot}", "--window-size=1280,1600", page.as_uri()
    )
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000
    print(f"\nscreenshot: {shot}")


def test_an_outside_range_match_shows_no_fix(tmp_path: Path) -> None:
    """As in text: a match whose versions are outside the rule is not the cause, and its fix
    would only mislead."""
    log = LOGS / "trl-3008-grpo-vllm-0.7.3.log"
    document = run_cli(["explain", str(log), "-f", "json"]).json()
    outside = [m for m in document["matches"] if m["verdict"] == "outside-range"]
    assert outside
    page = tmp_path / "explain.html"
    run_cli(["explain", str(log), "-f", "html", "-o", str(page)])
    text = _parse(page.read_text(encoding="utf-8")).text
    assert "What the log shows is outside this rule" in text
    assert all(m["fix"]["summary"] not in text for m in outside)
    assert all(m["rule"] in text for m in outside)
