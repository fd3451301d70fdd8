"""The native-file inventory (compat/facts/native.py), over real dist-info directories on disk:
the cu12 and cu13 NCCL wheels' own RECORD lines, plain distributions, and hostile RECORDs."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from compat.facts.installed import read_paths
from compat.facts.native import NativeInventory, native_inventory
from tests.conftest import run_cli
from tests.dists import make_dist
from tests.lib.nativeenv import native_dist

NCCL = Path(__file__).resolve().parents[2] / "data" / "records" / "nccl"
LIB = "nvidia/nccl/lib/libnccl.so.2"
CU12_SIZE = 473_266_472  # the sizes the two wheels' RECORDs state for libnccl.so.2
CU13_SIZE = 299_259_704
# A size neither RECORD states, for the tests of the RECORD cache: a run hashes a shared file only
# where an owner's recorded size matches it, and each hash of a 299 MB sparse file cost ~0.8 s of
# CPU, 30 of them in the cache tests (issue 45). Hashing is what the tests above it test.
OTHER_SIZE = 4096


def nccl_site(site: Path, on_disk_size: int) -> Path:
    """Both NCCL wheels installed into one site-packages, the last one's libnccl.so.2 on disk (a
    sparse file of its recorded size: nothing here reads its bytes)."""
    for dist in NCCL.glob("*.dist-info"):
        shutil.copytree(dist, site / dist.name)
    library = site / LIB
    library.parent.mkdir(parents=True)
    with library.open("wb") as handle:
        handle.truncate(on_disk_size)
    (site / "nvidia/nccl/include").mkdir()
    (site / "nvidia/nccl/include/nccl.h").write_text("/* header */\n")
    return site


def inventory(site: Path, *, use_cache: bool = True) -> NativeInventory:
    return native_inventory(read_paths([site]), use_cache=use_cache)


def add_record_lines(dist: Path, *lines: str) -> None:
    with (dist / "RECORD").open("a", encoding="utf-8") as handle:
        handle.write("".join(f"{line}\n" for line in lines))


def test_two_nccl_wheels_own_one_library(tmp_path: Path) -> None:
    site = nccl_site(tmp_path / "site", CU13_SIZE)
    found = inventory(site)
    assert found.problems == ()
    assert [(f.package, f.relpath) for f in found.files] == [
        ("nvidia-nccl-cu12", LIB),
        ("nvidia-nccl-cu13", LIB),
    ]
    assert all(os.path.isabs(f.path) and f.path == str(site / LIB) for f in found.files)
    assert found.paths == (str(site / LIB),)
    # Only the shared object is a shared file: the headers both wheels own are not native.
    assert len(found.shared) == 1
    shared = found.shared[0]
    assert shared.relpath == LIB
    assert shared.owners == ("nvidia-nccl-cu12", "nvidia-nccl-cu13")
    # The file has cu13's size but not its bytes (a sparse file of zeros): the real RECORDs
    # state each build's sha256, and neither matches (issue 44 item 7; by size it was cu13's).
    assert (shared.on_disk, shared.by) == ((), "sha256")
    assert {f.package: f.recorded_size for f in found.files} == {
        "nvidia-nccl-cu12": CU12_SIZE,
        "nvidia-nccl-cu13": CU13_SIZE,
    }
    assert all(f.recorded_hash and f.recorded_hash.startswith("sha256=") for f in found.files)


def test_whose_copy_is_on_disk_follows_the_bytes(tmp_path: Path) -> None:
    """Two builds of one size: the size cannot tell them apart, the RECORD's sha256 can. The
    last install's bytes are on disk."""
    site = tmp_path / "site"
    native_dist(site, "nvidia-nccl-cu12", "2.27.5", {LIB: b"\x7fELF cu12 build"})
    native_dist(site, "nvidia-nccl-cu13", "2.28.9", {LIB: b"\x7fELF cu13 build"})
    (shared,) = inventory(site).shared
    assert (shared.on_disk, shared.by) == (("nvidia-nccl-cu13",), "sha256")
    (site / LIB).write_bytes(b"\x7fELF cu12 build")  # cu12 installed again, over it
    (shared,) = inventory(site, use_cache=False).shared
    assert (shared.on_disk, shared.by) == (("nvidia-nccl-cu12",), "sha256")


def test_without_a_recorded_hash_the_size_answers(tmp_path: Path) -> None:
    site = nccl_site(tmp_path / "site", CU12_SIZE)
    for record in site.glob("*.dist-info/RECORD"):
        text = record.read_text(encoding="utf-8")
        record.write_text(re.sub(r",sha256=[^,]*,", ",,", text), encoding="utf-8")
    (shared,) = inventory(site).shared
    assert (shared.on_disk, shared.by) == (("nvidia-nccl-cu12",), "size")


def test_one_owner_is_no_shared_file(tmp_path: Path) -> None:
    site = nccl_site(tmp_path / "site", CU13_SIZE)
    shutil.rmtree(site / "nvidia_nccl_cu12-2.31.2.dist-info")
    found = inventory(site)
    assert [f.package for f in found.files] == ["nvidia-nccl-cu13"]
    assert found.shared == ()


def test_uninstalled_co_owner_leaves_the_file_missing(tmp_path: Path) -> None:
    """pip uninstall of one owner removes the file the other still lists (SMACT#656)."""
    site = nccl_site(tmp_path / "site", CU13_SIZE)
    (site / LIB).unlink()
    found = inventory(site)
    assert found.files == ()
    assert [(m.package, m.relpath) for m in found.missing] == [
        ("nvidia-nccl-cu12", LIB),
        ("nvidia-nccl-cu13", LIB),
    ]


def test_which_names_are_native(tmp_path: Path) -> None:
    site = tmp_path / "site"
    dist = make_dist(site, "ext", "1.0")
    names = [
        "ext/_C.cpython-311-x86_64-linux-gnu.so",
        "ext/lib/libcudart.so.12",
        "ext/lib/libnvrtc.so.12.4.127",
        "ext/lib/plain.so",
        "ext/lib/notes.so.txt",
        "ext/lib/backup.so.bak",
        "ext/_C.pyd",
        "ext/lib/libx.dylib",
        "ext/__init__.py",
    ]
    for name in names:
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_bytes(b"\x7fELF")
    add_record_lines(dist, *(f"{name},sha256=x,4" for name in names))
    found = inventory(site)
    assert sorted(f.relpath for f in found.files) == sorted(names[:4])
    assert found.problems == ()


def test_plain_distributions_have_no_native_files(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for index in range(5):
        make_dist(site, f"plain-{index}", "1.0")
    assert inventory(site) == NativeInventory()


def test_hostile_records_are_problems_naming_the_file(tmp_path: Path) -> None:
    site = tmp_path / "lib" / "site"
    outside = tmp_path / "lib" / "libescape.so"
    outside.parent.mkdir(parents=True)
    outside.write_bytes(b"\x7fELF")
    # Paths out of site-packages: absolute, `..` escapes (not followed, not reported: pip
    # writes `../../bin/x` for scripts), a symbolic link out of the tree, a link loop.
    escapes = make_dist(site, "escapes", "1.0")
    (site / "escapes").mkdir()
    os.symlink(outside, site / "escapes" / "linked.so")
    os.symlink("loop.so", site / "escapes" / "loop.so")
    add_record_lines(
        escapes,
        f"{outside},sha256=x,4",
        "../libescape.so,sha256=x,4",
        "escapes/../../libescape.so,sha256=x,4",
        "escapes/linked.so,sha256=x,4",
        "escapes/loop.so,sha256=x,4",
    )
    # Malformed CSV lines: a NUL byte, too few fields, a bad quote; the good line still counts.
    malformed = make_dist(site, "malformed", "1.0")
    (site / "malformed").mkdir()
    (site / "malformed" / "good.so").write_bytes(b"\x7fELF")
    add_record_lines(
        malformed,
        "malformed/a.so\x00,sha256=x,4",
        "just-one-field",
        '"malformed/b.so,sha256=x,4',
        "malformed/good.so,sha256=x,4",
    )
    make_dist(site, "no-record", "1.0")
    (site / "no_record-1.0.dist-info" / "RECORD").unlink()
    not_utf8 = make_dist(site, "not-utf8", "1.0")
    (not_utf8 / "RECORD").write_bytes(b"not-utf8/x.so,sha256=\xff\xfe,4\n")
    huge = make_dist(site, "huge", "1.0")
    with (huge / "RECORD").open("wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: over the RECORD cap without the disk space
    directory = make_dist(site, "directory-record", "1.0")
    (directory / "RECORD").unlink()
    (directory / "RECORD").mkdir()

    found = inventory(site)
    assert [(f.package, f.relpath) for f in found.files] == [("malformed", "malformed/good.so")]
    problems = "\n".join(found.problems)
    for name in (
        "linked.so",
        "loop.so",
        "malformed-1.0.dist-info/RECORD:2",
        "no_record-1.0.dist-info",
        "not_utf8-1.0.dist-info/RECORD",
        "huge-1.0.dist-info/RECORD",
        "directory_record-1.0.dist-info/RECORD",
    ):
        assert sum(name in line for line in found.problems) == 1, (name, problems)
    assert len(found.problems) == 7
    assert all("\n" not in line for line in found.problems)
    assert "libescape" not in problems  # escapes are skipped quietly, never followed

    # doctor over the same directory: no traceback, a report
    result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    assert result.json()["environment"]["packages"] == 6


def test_egg_info_has_no_record_to_read(tmp_path: Path) -> None:
    site = tmp_path / "site"
    egg = site / "old-1.0.egg-info"
    egg.mkdir(parents=True)
    (egg / "PKG-INFO").write_text("Metadata-Version: 1.1\nName: old\nVersion: 1.0\n")
    assert inventory(site) == NativeInventory()


def settle() -> None:
    """Files older than the cache's 2 s racy window, as a user's install is."""
    time.sleep(2.1)


@pytest.fixture(scope="module")
def settled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Both NCCL wheels' RECORDs, settled once for the tests that change only the cache (each
    test has a cache of its own): the racy window's sleep is paid once, not per test. The
    RECORDs' change times cannot be set back, so a settled site is one that waited."""
    site = nccl_site(tmp_path_factory.mktemp("settled") / "site", OTHER_SIZE)
    settle()
    return site


def test_cache_never_changes_the_answer(tmp_path: Path, isolated_cache: Path) -> None:
    site = nccl_site(tmp_path / "site", OTHER_SIZE)
    settle()
    cold = inventory(site)
    written = list(isolated_cache.glob("native-*.json"))
    assert len(written) == 1  # settled RECORDs were recorded
    stamp = written[0].stat().st_mtime_ns
    assert inventory(site) == cold == inventory(site, use_cache=False)
    assert written[0].stat().st_mtime_ns == stamp  # a warm run writes nothing

    # A RECORD changed: the answer changes, even right after (inside the racy window).
    extra = site / "nvidia/nccl/lib/libnccl-net.so"
    extra.write_bytes(b"\x7fELF")
    add_record_lines(site / "nvidia_nccl_cu13-2.31.2.dist-info", f"{extra.relative_to(site)},,4")
    changed = inventory(site)
    assert changed != cold
    assert changed == inventory(site, use_cache=False)
    assert "nvidia/nccl/lib/libnccl-net.so" in {f.relpath for f in changed.files}
    settle()
    assert inventory(site) == changed  # recorded now
    assert inventory(site) == changed  # and read back

    # A corrupted, truncated or foreign cache file: ignored, the answer stays.
    for damage in (b"garbage", written[0].read_bytes()[:-7], b"", b"0" * 64 + b"\n{}"):
        written[0].write_bytes(damage)
        assert inventory(site) == changed


def _bad_lines(entry: list[Any]) -> Any:
    return [entry[0], [["x"]], []]


def _bad_problems(entry: list[Any]) -> Any:
    return [entry[0], [], [1]]


def _not_a_list(entry: list[Any]) -> Any:
    return "entry"


def _long_size(entry: list[Any]) -> Any:
    return [entry[0], [["nvidia/nccl/lib/libnccl.so.2", "473266472"]], []]


@pytest.mark.parametrize("damage", [_bad_lines, _bad_problems, _not_a_list, _long_size])
def test_cache_entries_of_another_shape_are_ignored(
    settled_site: Path, isolated_cache: Path, damage: Callable[[list[Any]], Any]
) -> None:
    """Entries whose signature still matches but whose lines are not what this module writes
    (a cache written by another version, or edited): read again from the RECORD."""
    site = settled_site
    expected = inventory(site)
    assert expected.shared and expected.files  # the RECORDs' native lines were read
    (cache,) = isolated_cache.glob("native-*.json")
    content = json.loads(cache.read_bytes().partition(b"\n")[2])
    content["records"] = {k: damage(v) for k, v in content["records"].items()}
    payload = json.dumps(content).encode()
    cache.write_bytes(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    assert inventory(site) == expected
    for payload in (b"[1, 2]", b'{"records": []}', b"[" * 100_000):
        cache.write_bytes(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
        assert inventory(site) == expected


def _cache_content(cache: Path) -> dict[str, Any]:
    return dict(json.loads(cache.read_bytes().partition(b"\n")[2]))


def _write_cache_content(cache: Path, content: dict[str, Any]) -> None:
    payload = json.dumps(content).encode()
    cache.write_bytes(hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)


def test_a_shared_files_hash_is_kept_by_its_signature(tmp_path: Path, isolated_cache: Path) -> None:
    """The sha256 of a file two RECORDs name is kept by the file's stat signature (two NCCL
    wheels: ~300 MB hashed on every run, issue 45): a warm run answers from it, a file whose
    bytes change is hashed again, and an entry of another shape is never believed."""
    site = tmp_path / "site"
    native_dist(site, "nvidia-nccl-cu12", "2.27.5", {LIB: b"\x7fELF cu12 build"})
    native_dist(site, "nvidia-nccl-cu13", "2.28.9", {LIB: b"\x7fELF cu13 build"})
    settle()
    cold = inventory(site)
    assert [(s.on_disk, s.by) for s in cold.shared] == [(("nvidia-nccl-cu13",), "sha256")]
    (cache,) = isolated_cache.glob("native-*.json")
    library = os.path.realpath(site / LIB)
    signature, digest = _cache_content(cache)["hashes"][library]
    assert digest == next(f.recorded_hash for f in cold.files if f.package == "nvidia-nccl-cu13")
    assert signature == list(next(f.signature for f in cold.files))
    stamp = cache.stat().st_mtime_ns
    assert inventory(site) == cold == inventory(site, use_cache=False)
    assert cache.stat().st_mtime_ns == stamp  # the warm run read the hash and wrote nothing

    # Entries of another shape, or of another signature: read from the file again.
    content = _cache_content(cache)
    other = next(f.recorded_hash for f in cold.files if f.package == "nvidia-nccl-cu12")
    for damaged in (
        [signature, "sha256=short"],
        [signature],
        "entry",
        [[0, *signature[1:]], other],  # another size: another file
        [signature, 7],
    ):
        _write_cache_content(cache, {**content, "hashes": {library: damaged}})
        assert inventory(site) == cold

    # cu12 installed again over it, read right away (inside the racy window): its bytes answer.
    (site / LIB).write_bytes(b"\x7fELF cu12 build")
    (shared,) = inventory(site).shared
    assert (shared.on_disk, shared.by) == (("nvidia-nccl-cu12",), "sha256")
    assert inventory(site) == inventory(site, use_cache=False)
