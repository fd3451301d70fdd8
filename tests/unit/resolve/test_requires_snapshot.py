"""compat/data/requires-snapshot.json.gz: the dated dependency metadata offline inference reads.

Written by scripts/gen_requires_snapshot.py from its recorded input (PyPI's PEP 658 metadata,
each file's sha256 recorded); the offline check infers what a file pulls in from one consistent
set of releases in it (issue 23, item 3).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.checkcli import by_rule, check, write
from tests.lib import paths

ROOT = paths.REPO


def test_the_snapshot_is_what_the_script_writes_from_its_recorded_input() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_requires_snapshot.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, f"requires-snapshot.json is stale: {proc.stderr}"


def test_every_read_is_recorded_with_its_sha256_and_date() -> None:
    document = json.loads((ROOT / "scripts" / "inputs" / "requires-snapshot.json").read_text())
    assert document["fetched"] and document["since"]
    assert set(document["packages"]) == set(document["names"])
    for name, package in document["packages"].items():
        assert len(package["simple_sha256"]) == 64, name  # the file list every field comes from
        for entry in package["releases"]:
            if entry["requires_dist"] is not None:
                assert len(entry["metadata_sha256"]) == 64, (name, entry["version"])
                assert len(entry["wheel_sha256"]) == 64, (name, entry["version"])
                assert all(0 <= i < len(package["lines"]) for i in entry["requires_dist"])


def test_the_closure_of_real_resolves_is_covered_with_its_whole_history() -> None:
    """scripts/inputs/snapshot-names.json: what `uv pip compile` installs for the real files
    under tests/data. Each is covered, with every version the index ever listed."""
    from compat.resolve.sources import snapshot

    recorded = json.loads((ROOT / "scripts" / "inputs" / "snapshot-names.json").read_text())
    resolved = [f for f in recorded["files"].values() if any("python" in g for g in f.values())]
    assert len(resolved) >= 20  # the real files were resolved, not skipped
    assert len(recorded["names"]) > 3 * 38  # far wider than the 38 rule packages it replaced
    for name in recorded["names"]:
        assert snapshot.covers(canonicalize_name(name)), name
        assert snapshot.history_complete(canonicalize_name(name)), name
    assert set(recorded["names"]) <= set(snapshot.names())
    assert not snapshot.history_complete(canonicalize_name("not-a-package-compat-knows"))


def test_yanked_releases_are_marked_and_never_picked_for_a_range() -> None:
    """vLLM 0.2.1: every file yanked on PyPI (PEP 592, the simple API's `yanked`)."""
    from compat.resolve.sources import snapshot

    vllm = canonicalize_name("vllm")
    (record,) = [r for r in snapshot.records(vllm) if r.version == Version("0.2.1")]
    assert record.yanked
    assert not next(r for r in snapshot.records(vllm) if r.version == Version("0.2.2")).yanked
    assert Version("0.2.1") not in snapshot.releases(vllm)  # pip takes it only when pinned
    assert Version("0.2.1") in snapshot.published(vllm)


def test_requires_python_and_wheels_decide_installable() -> None:
    """xformers 0.0.17 ships CPython 3.8-3.10 Linux wheels and no sdist: pip cannot install it
    on 3.11. torch 2.4.0 declares Requires-Python >=3.8.0."""
    from compat.resolve.sources import snapshot

    (xformers,) = [
        r for r in snapshot.records(canonicalize_name("xformers")) if r.version == Version("0.0.17")
    ]
    assert xformers.wheels == frozenset({"cp38", "cp39", "cp310"}) and xformers.sdist is False
    assert xformers.installable(Version("3.10")) is True
    assert xformers.installable(Version("3.11")) is False
    (torch,) = [
        r for r in snapshot.records(canonicalize_name("torch")) if r.version == Version("2.4.0")
    ]
    assert torch.requires_python == ">=3.8.0"
    assert torch.installable(Version("3.7")) is False
    assert torch.installable(Version("3.12")) is True


def test_published_holds_pre_releases_and_old_finals_never_invented_ones() -> None:
    from compat.resolve.sources import snapshot

    transformers = snapshot.published(canonicalize_name("transformers"))
    assert Version("4.0.0rc1") in transformers  # a pre-release
    assert Version("2.0.0") in transformers  # a final before the snapshot's first day
    peft = canonicalize_name("peft")
    assert snapshot.history_complete(peft)
    assert Version("0.4.0") in snapshot.published(peft)
    assert Version("0.4.0.dev0") not in snapshot.published(peft)  # issue 32 item 3


def test_the_packages_rules_speak_of_and_their_carriers_are_covered() -> None:
    from compat.resolve.sources import snapshot

    for name in ("torch", "torchvision", "torchaudio", "triton", "vllm", "transformers",
                 "tokenizers", "accelerate", "peft", "trl", "deepspeed", "flash-attn",
                 "xformers", "bitsandbytes", "numpy", "openrlhf", "verl"):  # fmt: skip
        assert snapshot.covers(canonicalize_name(name)), name


def test_real_pins_the_issue_rests_on() -> None:
    """vllm 0.6.3 pins torch 2.4.0; torch 2.4.0 pins triton 3.0.0 (their PyPI metadata)."""
    from compat.resolve.sources import snapshot

    vllm = snapshot.releases(canonicalize_name("vllm"))
    torch = snapshot.releases(canonicalize_name("torch"))
    assert "torch==2.4.0" in (vllm[Version("0.6.3")] or ())
    assert any(line.startswith("triton==3.0.0") for line in torch[Version("2.4.0")] or ())


def test_a_pin_infers_the_exact_release_chain(tmp_path: Path) -> None:
    """`vllm==0.6.3` installs torch 2.4.0 and, through it, triton 3.0.0: judged exactly."""
    requirements = write(tmp_path / "requirements.txt", "vllm==0.6.3\n")
    _, report = check(str(requirements), "--offline", "--python-version", "3.11",
                      "--platform", "linux")  # fmt: skip
    (install,) = report["environment"]["installs"]
    assert install["by"].startswith("compat's offline solve over its dependency snapshot of")
    assert install["packages"]["torch"] == "2.4.0"  # vllm 0.6.3's pin
    assert install["packages"]["triton"] == "3.0.0"  # torch 2.4.0's pin
    assert "torch-triton-series-mismatch" not in by_rule(report)


def test_the_snapshot_read_package_by_package_is_the_whole_document() -> None:
    """compat parses each package's line when first asked for it (compat.resolve.sources.
    snapshot._split): the same document as the file parsed whole, and a text of another layout
    is parsed whole."""
    import gzip

    from compat.resolve.sources import snapshot

    text = gzip.decompress((ROOT / "compat" / snapshot.FILE).read_bytes()).decode("utf-8")
    whole = json.loads(text)
    split = snapshot._split(text)
    assert split is not None
    assert {k: v for k, v in split.items() if k != "packages"} == {
        k: v for k, v in whole.items() if k != "packages"
    }
    assert list(split["packages"]) == list(whole["packages"]) and len(whole["packages"]) > 500
    assert {n: split["packages"][n] for n in split["packages"]} == whole["packages"]
    assert snapshot._split(json.dumps(whole)) is None
    assert snapshot._split(json.dumps(whole, indent=1)) is None
