"""The rule cache vouches for unchanged rule files by their stat signature, and never for a file
whose bytes changed: an edit that keeps the size and puts the modification time back is seen."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from tests.conftest import run_cli
from tests.dists import make_dist

RULES = """\
schema: compat.matrix/1
rules:
  - id: local-loader-crash
    title: our loader crashes on torch 2.4
    severity: warning
    evidence: reported
    when:
      packages: {{torch: "{spec}"}}
    fix: {{summary: stay on 2.3, constraints: ["torch<2.4"]}}
    references: ["https://wiki.example.org/loader"]
    examples:
      affected: [{{packages: {{torch: "2.4.1"}}}}]
      clear: [{{packages: {{torch: "2.3.1"}}}}]
"""


def _rules_found(site: Path, rules: Path, cache: Path) -> set[str]:
    result = run_cli(
        ["doctor", "--path", str(site), "--no-probe", "--matrix", str(rules), "-f", "json"],
        env={"COMPAT_CACHE_DIR": str(cache)},
    )
    assert result.exit_code in (0, 1), result.stderr
    return {finding["rule"] for finding in json.loads(result.stdout)["findings"]}


def test_an_edit_that_keeps_size_and_mtime_is_seen(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    make_dist(site, "torch", "2.4.1")
    rules, cache = tmp_path / "rules.yaml", tmp_path / "cache"
    rules.write_text(RULES.format(spec=">=2.4"), encoding="utf-8")
    time.sleep(2.1)  # older than the racy window: the entry records the file's signature
    assert "local-loader-crash" in _rules_found(site, rules, cache)  # cold: built and written
    assert "local-loader-crash" in _rules_found(site, rules, cache)  # warm: vouched by stat
    before = rules.stat()
    rules.write_text(RULES.format(spec="<=2.4"), encoding="utf-8")  # same length
    os.utime(rules, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = rules.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert "local-loader-crash" not in _rules_found(site, rules, cache)
    assert "local-loader-crash" not in _rules_found(site, rules, cache)


def test_an_entry_written_while_its_file_was_fresh_is_checked_by_digest(tmp_path: Path) -> None:
    """Within the racy window the entry records no signature (a second edit inside a coarse file
    system's timestamp granularity could leave the times as they were): the next run reads the
    file and compares digests."""
    site = tmp_path / "site"
    site.mkdir()
    make_dist(site, "torch", "2.4.1")
    rules, cache = tmp_path / "rules.yaml", tmp_path / "cache"
    rules.write_text(RULES.format(spec=">=2.4"), encoding="utf-8")
    assert "local-loader-crash" in _rules_found(site, rules, cache)
    before = rules.stat()
    rules.write_text(RULES.format(spec="<=2.4"), encoding="utf-8")
    os.utime(rules, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "local-loader-crash" not in _rules_found(site, rules, cache)
