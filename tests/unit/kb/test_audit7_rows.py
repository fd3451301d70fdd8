"""Audit 7 rows B1-B3: which torch releases print which cuDNN-check wording, as read in the
wheels' torch/backends/cudnn/__init__.py (docs/audits/audit-7-self.md). The rule's description
names release ranges; they must agree with the wheels read, so a description that dates a
wording or the check itself to the wrong releases fails here."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[3]

# release read -> (the wording after the compiled version, the check accepts a newer minor)
READ = {
    "1.6.0": ("but linked against (", True),
    "1.7.1": ("but linked against (", True),
    "1.10.0": ("but linked against (", True),
    "1.11.0": ("but linked against (", True),
    "1.12.1": ("but found runtime version (", True),
    "1.13.1": ("but found runtime version (", True),
    "2.0.1": ("but found runtime version (", True),
    "2.4.0": ("but found runtime version (", True),
}


def _description() -> str:
    doc = yaml.safe_load((ROOT / "compat/matrix/cuda.yaml").read_text())
    (rule,) = [r for r in doc["rules"] if r["id"] == "cudnn-runtime-older-than-torch-build"]
    return str(rule["description"])


def _minor(release: str) -> tuple[int, int]:
    major, minor = release.split(".")[:2]
    return int(major), int(minor)


def test_the_description_dates_each_wording_to_the_releases_that_print_it() -> None:
    text = " ".join(_description().split())
    # "1.12 onward" for the found-runtime wording, "1.6-1.11" for the linked-against tuples
    onward = re.search(r"\((\d+)\.(\d+) onward", text)
    linked = re.search(r"(\d+)\.(\d+)-(\d+)\.(\d+) print the same tuples as", text)
    assert onward and linked, text
    first_found = (int(onward.group(1)), int(onward.group(2)))
    linked_from = (int(linked.group(1)), int(linked.group(2)))
    linked_to = (int(linked.group(3)), int(linked.group(4)))
    for release, (wording, _) in READ.items():
        key = _minor(release)
        if wording.startswith("but found"):
            assert key >= first_found, release
        else:
            assert linked_from <= key <= linked_to, release


def test_the_description_does_not_date_the_check_to_a_later_release() -> None:
    text = " ".join(_description().split())
    oldest = min(_minor(r) for r, (_, newer_ok) in READ.items() if newer_ok)
    for major, minor in re.findall(r"from torch (\d+)\.(\d+)", text):
        assert (int(major), int(minor)) <= oldest
