"""The CUDA driver a process will load (issue 33 item 3): a cuda-compat libcuda on the loader
path, through the CLI, over real directory layouts and loader caches written in glibc's format
(sysdeps/generic/dl-cache.h), with the stand-in NVML binding (tests/fake_nvml) for the GPU.

The CLI runs in-process through typer's runner with the environment each case names (what is
tested is what compat reads from LD_LIBRARY_PATH, the loader cache and the profile, not the
process boundary); the first case runs it as real processes too, as a user does."""

from __future__ import annotations

import json
import os
import platform
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from tests.conftest import run_cli, run_subprocess
from tests.dists import make_env
from tests.lib.nvml import fake_nvml_env, run_cli_on_machine

CUDA13_RULE = "cuda13-build-on-pre-580-driver"
OLD_MAGIC = b"ld.so-1.7.0"
NEW_MAGIC = b"glibc-ld.so.cache1.1"


def compat_dir(root: Path, version: str) -> Path:
    """cuda-compat's layout: libcuda.so.<version> and the libcuda.so.1 link to it."""
    directory = root / f"cuda-{version}" / "compat"
    directory.mkdir(parents=True)
    (directory / f"libcuda.so.{version}").write_bytes(b"\x7fELF")
    (directory / "libcuda.so.1").symlink_to(f"libcuda.so.{version}")
    return directory


def new_cache(entries: list[tuple[int, str, str]]) -> bytes:
    """A `glibc-ld.so.cache1.1` file: header, 24-byte entries, then the string table, every
    offset from the header's start (as ldconfig writes it since glibc 2.32)."""
    strings = bytearray()
    offsets = []
    base = 48 + 24 * len(entries)
    for _, key, value in entries:
        k = base + len(strings)
        strings += key.encode() + b"\0"
        v = base + len(strings)
        strings += value.encode() + b"\0"
        offsets.append((k, v))
    header = NEW_MAGIC + struct.pack("<IIB3xI12x", len(entries), len(strings), 2, 0)
    assert len(header) == 48
    body = b"".join(
        struct.pack("<iIIIQ", flags, k, v, 0, 0)
        for (flags, _, _), (k, v) in zip(entries, offsets, strict=True)
    )
    return header + body + bytes(strings)


def old_then_new(entries: list[tuple[int, str, str]]) -> bytes:
    """ldconfig's `-c compat` layout: an empty old table, then the new one, aligned to 8."""
    old = OLD_MAGIC + b"\0" + struct.pack("<I", 0)
    padding = (-len(old)) % 8
    new = new_cache(entries)
    # The new table's offsets count from its own header.
    return old + b"\0" * padding + new


def doctor(
    monkeypatch: pytest.MonkeyPatch, site: Path, machine: str, **env: str
) -> tuple[int, dict[str, object]]:
    args = ["doctor", "--path", str(site), "--format", "json"]
    result = run_cli_on_machine(monkeypatch, args, machine, **env)
    assert "Traceback" not in result.stderr, result.stderr
    return result.exit_code, result.json()


def doctor_process(site: Path, machine: str, **env: str) -> tuple[int, dict[str, object]]:
    """doctor as a real process, as a user runs it."""
    result = run_subprocess(
        ["doctor", "--path", str(site), "--format", "json"], env=fake_nvml_env(machine, **env)
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result.exit_code, result.json()


def findings(document: dict[str, object]) -> dict[str, str]:
    return {f["rule"]: f["status"] for f in document["findings"]}  # type: ignore[attr-defined]


def user_driver(document: dict[str, object]) -> dict[str, object]:
    hardware = document.get("hardware", document)
    assert isinstance(hardware, dict)
    found = hardware["user_mode_driver"]
    assert isinstance(found, dict)
    return found


@pytest.fixture
def cu130_site(tmp_path: Path) -> Path:
    return make_env(tmp_path / "site", {"torch": "2.11.0+cu130"})


def test_h100_on_r535_with_cuda_compat_13_runs_a_cuda13_build(
    tmp_path: Path, cu130_site: Path
) -> None:
    compat = compat_dir(tmp_path, "580.65.06")
    code, document = doctor_process(
        cu130_site, "h100-r535", LD_LIBRARY_PATH=f"/nonexistent:{compat}"
    )
    assert CUDA13_RULE not in findings(document)
    assert code == 0
    hardware = document["hardware"]
    assert isinstance(hardware, dict)
    assert hardware["driver_version"] == "535.104.05"  # the kernel driver, as NVML reports it
    assert hardware["cuda_driver_version"] == "12.2"
    found = user_driver(document)
    assert found["version"] == "580.65.06"
    assert found["path"] == str(compat / "libcuda.so.1")
    assert found["found_by"] == "LD_LIBRARY_PATH"
    assert found["forward_compat"] == "active"
    assert found["cuda_version"] == found["effective_cuda_version"] == "13.0"
    # Without the compat directory on the loader path, the same machine is affected.
    code, document = doctor_process(cu130_site, "h100-r535")
    assert findings(document)[CUDA13_RULE] == "affected"
    assert "user_mode_driver" not in document["hardware"]  # type: ignore[operator]
    assert code == 1


def test_the_same_layout_on_a_consumer_gpu_gives_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cu130_site: Path
) -> None:
    compat = compat_dir(tmp_path, "580.65.06")
    code, document = doctor(monkeypatch, cu130_site, "rtx4090-r535", LD_LIBRARY_PATH=str(compat))
    assert findings(document)[CUDA13_RULE] == "affected"
    assert code == 1
    found = user_driver(document)
    assert found["forward_compat"] == "unsupported-gpu"
    assert found["effective_cuda_version"] == "12.2"  # the kernel driver's
    notes = document["notes"]
    assert isinstance(notes, list)
    assert [n for n in notes if str(compat) in n and "804" in n], notes  # one note says so
    text = run_cli_on_machine(
        monkeypatch,
        ["doctor", "--path", str(cu130_site)],
        "rtx4090-r535",
        LD_LIBRARY_PATH=str(compat),
    ).stdout
    assert "cuda-compat driver 580.65.06 unused (unsupported-gpu)" in text


def test_a_kernel_branch_the_package_does_not_support_gives_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cu130_site: Path
) -> None:
    # An A100 on R550: NVIDIA's table lists no R550 for any cuda-compat package (end of life).
    compat = compat_dir(tmp_path, "580.65.06")
    _, document = doctor(monkeypatch, cu130_site, "a100-mig", LD_LIBRARY_PATH=str(compat))
    assert findings(document)[CUDA13_RULE] == "affected"
    assert user_driver(document)["forward_compat"] == "unsupported-branch"


def test_a_cuda_12_8_compat_driver_is_not_enough_for_a_cuda13_build(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cu130_site: Path
) -> None:
    # cuda-compat-12-8 (driver 570) on R535: forward compatible, but to CUDA 12.8 only.
    compat = compat_dir(tmp_path, "570.124.06")
    _, document = doctor(monkeypatch, cu130_site, "h100-r535", LD_LIBRARY_PATH=str(compat))
    found = user_driver(document)
    assert (found["forward_compat"], found["effective_cuda_version"]) == ("active", "12.8")
    assert findings(document)[CUDA13_RULE] == "affected"


def test_a_compat_driver_older_than_the_kernel_driver_is_a_mismatch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    compat = compat_dir(tmp_path, "570.124.06")
    result = run_cli_on_machine(
        monkeypatch, ["probe", "--format", "json"], "h100", LD_LIBRARY_PATH=str(compat)
    )
    assert result.exit_code == 0, result.stderr
    found = user_driver(result.json())
    assert found["forward_compat"] == "mismatch"
    assert found["effective_cuda_version"] == "13.0"  # the kernel driver's (580.159.04)


@pytest.mark.parametrize("layout", [new_cache, old_then_new])
def test_the_loader_cache_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cu130_site: Path, layout: object
) -> None:
    compat = compat_dir(tmp_path, "580.65.06")
    machine_flags = {"x86_64": 0x0303, "aarch64": 0x0A03}.get(platform.machine(), 1)
    other = tmp_path / "i386"
    other.mkdir()
    entries = [
        (0x0003, "libcuda.so.1", str(other / "libcuda.so.1")),  # a 32-bit library: skipped
        (0x0303 if machine_flags == 1 else machine_flags, "libc.so.6", "/lib/libc.so.6"),
        (machine_flags, "libcuda.so.1", str(compat / "libcuda.so.1")),
    ]
    if machine_flags == 1:
        entries = entries[1:]  # a machine whose flags this test does not know
    cache = tmp_path / "ld.so.cache"
    cache.write_bytes(layout(entries))  # type: ignore[operator]
    _, document = doctor(monkeypatch, cu130_site, "h100-r535", COMPAT_LD_SO_CACHE=str(cache))
    found = user_driver(document)
    assert found["found_by"] == f"ld.so.cache {cache}"
    assert found["forward_compat"] == "active"
    assert CUDA13_RULE not in findings(document)
    # LD_LIBRARY_PATH comes first: a kernel-branch libcuda there is what the process loads.
    native = compat_dir(tmp_path / "host", "535.104.05")
    _, document = doctor(
        monkeypatch,
        cu130_site,
        "h100-r535",
        COMPAT_LD_SO_CACHE=str(cache),
        LD_LIBRARY_PATH=str(native),
    )
    assert findings(document)[CUDA13_RULE] == "affected"


def _hostile_caches() -> dict[str, bytes]:
    good = new_cache([(1, "libcuda.so.1", "/x/libcuda.so.1")])
    absurd = bytearray(good)
    absurd[20:24] = struct.pack("<I", 0xFFFFFFFF)
    far = bytearray(good)
    struct.pack_into("<I", far, 48 + 4, 0x7FFFFFFF)  # the key's offset past the end
    unterminated = good.rstrip(b"\0")
    old_absurd = OLD_MAGIC + b"\0" + struct.pack("<I", 0x10000000)
    return {
        "truncated": good[:30],
        "absurd-count": bytes(absurd),
        "far-offset": bytes(far),
        "unterminated": unterminated,
        "wrong-magic": b"\x7fELF" + good[4:],
        "old-absurd-count": old_absurd,
        "empty": b"",
        "invalid-endian": good[:28] + b"\x01" + good[29:],
    }


@pytest.mark.parametrize("name", sorted(_hostile_caches()))
def test_a_hostile_loader_cache_is_one_note_never_a_traceback(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str
) -> None:
    cache = tmp_path / f"{name}.cache"
    cache.write_bytes(_hostile_caches()[name])
    result = run_cli_on_machine(
        monkeypatch, ["probe", "--format", "json"], "h100-r535", COMPAT_LD_SO_CACHE=str(cache)
    )
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    document = result.json()
    assert "user_mode_driver" not in document
    naming = [p for p in document.get("problems", []) if str(cache) in p]
    # A cache whose entries are unreadable but whose frame is sound names nothing.
    assert len(naming) <= 1
    if name in ("truncated", "absurd-count", "wrong-magic", "old-absurd-count", "empty"):
        assert len(naming) == 1, document.get("problems")


def test_a_symlink_loop_is_one_note(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.mkdir()
    (loop / "libcuda.so.1").symlink_to("libcuda.so.x")
    (loop / "libcuda.so.x").symlink_to("libcuda.so.1")
    result = run_cli_on_machine(
        monkeypatch, ["probe", "--format", "json"], "h100-r535", LD_LIBRARY_PATH=str(loop)
    )
    assert result.exit_code == 0, result.stderr
    problems = result.json().get("problems", [])
    assert len([p for p in problems if str(loop / "libcuda.so.1") in p]) == 1, problems


def test_a_profile_describes_a_container(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cu130_site: Path
) -> None:
    compat = compat_dir(tmp_path, "580.65.06")
    probed = run_cli_on_machine(
        monkeypatch, ["probe", "--format", "json"], "h100-r535", LD_LIBRARY_PATH=str(compat)
    )
    saved = tmp_path / "container.json"
    saved.write_text(probed.stdout, encoding="utf-8")
    # The profile alone says it: --hardware reads no loader path.
    for profile in (saved, tmp_path / "written.json"):
        if profile.name == "written.json":
            profile.write_text(
                json.dumps(
                    {
                        "schema": "compat.hardware/1",
                        "driver_version": "535.104.05",
                        "cuda_driver_version": "12.2",
                        "user_mode_driver": "580.65.06",
                        "gpus": [{"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}],
                    }
                ),
                encoding="utf-8",
            )
        result = run_cli(
            ["doctor", "--path", str(cu130_site), "--hardware", str(profile), "--format", "json"]
        )
        assert CUDA13_RULE not in findings(result.json()), profile.name
        assert user_driver(result.json())["forward_compat"] == "active"
    consumer = json.loads((tmp_path / "written.json").read_text(encoding="utf-8"))
    consumer["gpus"] = [{"name": "NVIDIA GeForce RTX 4090", "compute_capability": "8.9"}]
    (tmp_path / "consumer.json").write_text(json.dumps(consumer), encoding="utf-8")
    result = run_cli(
        ["doctor", "--path", str(cu130_site), "--hardware", str(tmp_path / "consumer.json")]
    )
    assert result.exit_code == 1
    assert CUDA13_RULE in result.stdout


@pytest.mark.parametrize("value", ['"not a version"', "true", "[1]", '{"version": "x"}'])
def test_a_bad_user_mode_driver_in_a_profile_is_exit_2(tmp_path: Path, value: str) -> None:
    profile = tmp_path / "bad.json"
    profile.write_text(
        '{"schema": "compat.hardware/1", "driver_version": "535.104.05", "gpus": [], '
        f'"user_mode_driver": {value}}}',
        encoding="utf-8",
    )
    site = make_env(tmp_path / "site", {"torch": "2.11.0+cu130"})
    result = run_cli(["doctor", "--path", str(site), "--hardware", str(profile)])
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _loop(directory: Path) -> Path:
    """A libcuda.so.1 that is a symbolic-link loop (open() fails with ELOOP)."""
    directory.mkdir(parents=True)
    (directory / "libcuda.so.1").symlink_to("loop")
    (directory / "loop").symlink_to("libcuda.so.1")
    return directory


def test_a_symlink_loop_on_ld_library_path_ends_the_search_there(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cu130_site: Path
) -> None:
    """glibc elf/dl-load.c open_path: an error other than ENOENT or EACCES ends the walk of
    LD_LIBRARY_PATH; the loader goes on to its cache, which here names no compat libcuda, so the
    kernel driver's (R535, CUDA 12.2) is what loads and the CUDA 13 build is affected. compat
    used to step over the loop to the next directory and call forward compatibility active."""
    loop = _loop(tmp_path / "broken")
    compat = compat_dir(tmp_path, "580.65.06")
    _, document = doctor(
        monkeypatch,
        cu130_site,
        "h100-r535",
        LD_LIBRARY_PATH=f"{loop}:{compat}",
        COMPAT_LD_SO_CACHE=str(tmp_path / "no-cache"),
    )
    assert findings(document)[CUDA13_RULE] == "affected"
    assert "user_mode_driver" not in document["hardware"]  # type: ignore[operator]
    said = json.dumps(document)  # the hardware's problems: one line naming the file
    assert f"{loop}/libcuda.so.1: Too many levels of symbolic links: the loader stops" in said
    # A directory without libcuda.so.1 (ENOENT) is stepped over, as the loader does.
    _, document = doctor(
        monkeypatch,
        cu130_site,
        "h100-r535",
        LD_LIBRARY_PATH=f"{tmp_path / 'empty'}:{compat}",
        COMPAT_LD_SO_CACHE=str(tmp_path / "no-cache"),
    )
    assert user_driver(document)["forward_compat"] == "active"


@pytest.mark.skipif(
    shutil.which("gcc") is None or platform.system() != "Linux", reason="needs gcc and glibc"
)
def test_the_real_loader_stops_at_a_symlink_loop(tmp_path: Path) -> None:
    """The behaviour the test above encodes, observed: a program needing libfoo.so.1, with
    LD_LIBRARY_PATH naming a directory whose libfoo.so.1 is a loop and then one holding the
    real library. glibc's loader (LD_DEBUG=libs) tries the loop, then its cache, never the
    second directory, and the program fails to start."""
    source = tmp_path / "foo.c"
    source.write_text("int foo(void) { return 1; }\n")
    good = tmp_path / "good"
    good.mkdir()
    gcc = ["gcc", "-shared", "-fPIC", "-Wl,-soname,libfoo.so.1", "-o", str(good / "libfoo.so.1")]
    subprocess.run([*gcc, str(source)], check=True, capture_output=True)
    main = tmp_path / "main.c"
    main.write_text("int foo(void);\nint main(void) { return foo() - 1; }\n")
    program = tmp_path / "main"
    link = ["gcc", "-o", str(program), str(main), f"-L{good}", "-l:libfoo.so.1"]
    subprocess.run(link, check=True, capture_output=True)
    loop = tmp_path / "broken"
    loop.mkdir()
    (loop / "libfoo.so.1").symlink_to("loop")
    (loop / "loop").symlink_to("libfoo.so.1")
    env = {"PATH": os.environ.get("PATH", ""), "LD_DEBUG": "libs"}
    ran = subprocess.run(
        [str(program)],
        env={**env, "LD_LIBRARY_PATH": f"{loop}:{good}"},
        capture_output=True,
        text=True,
        check=False,
    )
    tried = [line for line in ran.stderr.splitlines() if "trying file=" in line]
    assert any(f"{loop}/libfoo.so.1" in line for line in tried), ran.stderr
    assert not any(str(good) in line for line in tried), ran.stderr
    assert "search cache=" in ran.stderr and ran.returncode != 0
    ran = subprocess.run(  # without the loop, the same path finds the library
        [str(program)], env={**env, "LD_LIBRARY_PATH": str(good)}, capture_output=True, check=False
    )
    assert ran.returncode == 0
