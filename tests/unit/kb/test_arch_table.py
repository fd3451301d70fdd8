"""GPU code per torch build: a generated table, and the one rule that reads it.

compat/data/torch-arch.json is written by scripts/gen_arch_table.py from recorded inputs
(scripts/inputs/torch-arch-lists.json: TORCH_CUDA_ARCH_LIST per release series and CUDA build,
with the repository, ref, commit and sha256 it was read at). These tests regenerate it offline,
hold the evaluator of PyTorch's build scripts to the shapes those scripts take, and run
`torch-no-kernel-image-for-gpu` through the real CLI: doctor on real dist-info trees with the
stand-in NVML library (tests/fake_nvml), check on a requirement file, and pin writing the fixing
build that real pip installs from a loopback index.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from packaging.version import Version

from compat.kb import archtable
from tests.conftest import run_cli, run_subprocess
from tests.dists import make_env, torch_dist
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.doctor import doctor_on_machine
from tests.lib.hardware import profile
from tests.lib.resolvers import pip_resolve

ROOT = paths.REPO
SCRIPT = ROOT / "scripts" / "gen_arch_table.py"
FAKE_NVML = paths.FAKE_NVML
RULE = "torch-no-kernel-image-for-gpu"
CU12_RUNTIME = 'nvidia-cuda-runtime-cu12=={}; platform_system == "Linux"'

sys.path.insert(0, str(ROOT / "scripts"))
import gen_arch_table  # noqa: E402

# ---------------------------------------------------------------------------------------------
# The generated table


def test_the_table_is_what_the_script_writes_from_its_recorded_inputs() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, "compat/data/torch-arch.json is stale: run gen_arch_table.py"


def test_a_hand_edit_of_the_table_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    for part in ("scripts", "compat/data"):
        shutil.copytree(ROOT / part, copy / part)
    table = copy / "compat" / "data" / "torch-arch.json"
    table.write_text(table.read_text().replace('"8.0",', '"8.9",', 1))
    proc = subprocess.run(
        [sys.executable, str(copy / "scripts" / "gen_arch_table.py"), "--check"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 1


def test_every_recorded_row_names_where_it_was_read() -> None:
    document = json.loads((ROOT / "scripts" / "inputs" / "torch-arch-lists.json").read_text())
    for series, row in document["releases"].items():
        source = row["source"]
        assert source["repo"] in ("pytorch/builder", "pytorch/pytorch"), series
        if source["kind"] == "script":
            # read at the release branch: the commit and the file's digest are recorded
            assert len(source["commit"]) == 40 and len(source["sha256"]) == 64, series
            assert source["fetched"] and source["ref"].endswith(series), series
        else:
            assert source["references"] and all(
                r.startswith("https://github.com/pytorch/") or r.startswith("https://github.com/")
                for r in source["references"]
            ), series
            assert source["evidence"] in ("support-matrix", "build-script-snapshot", "secondary")
        if "release_strips_ptx" in source:
            strip = source["release_strips_ptx"]
            assert strip["note"] and strip["references"], series
        assert all(row["cuda"].values()), series


def test_every_pypi_default_build_was_read_from_its_wheel() -> None:
    # The nvcc flags inside each PyPI wheel decide that build's row; they agree with the build
    # scripts on every SASS list (1.8-2.15) and show no PTX in 2.12-2.15's CUDA 13 wheels.
    wheels = json.loads((ROOT / "scripts" / "inputs" / "torch-wheel-arch.json").read_text())
    builds = json.loads((ROOT / "compat" / "data" / "torch-builds.json").read_text())["releases"]
    for version, entry in builds.items():
        cuda = entry["default"].get("linux/x86_64")
        if cuda is None:
            continue
        if version not in wheels["releases"] and Version(version) < Version("1.8"):
            # 1.0-1.7's builds (torch-builds.json) predate the arch table's rows: it claims no
            # architecture list for them, so nothing there is left unread.
            assert archtable.evidence(Version(version), Version(cuda)) is None, version
            continue
        wheel = wheels["releases"][version]
        assert wheel["cuda"] == cuda and len(wheel["sha256"]) == 64, version
        assert wheel["nvcc_flags"].startswith("-gencode;arch=compute_"), version
        assert gen_arch_table.flags_to_list(wheel["nvcc_flags"]) == wheel["arch_list"]
        assert archtable.evidence(Version(version), Version(cuda)) == "wheel", version
    assert archtable.evidence(Version("1.12.1"), Version("11.3")) == "build-script"
    assert (
        gen_arch_table.flags_to_list(
            "-gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_90,code=compute_90"
        )
        == "8.0;9.0+PTX"
    )


def test_every_pypi_wheel_flags_agree_with_its_fat_binaries() -> None:
    # Read with compat's own reader from the released wheels (scripts/gen_arch_table.py
    # refresh_fatbins): not one PyPI CUDA wheel, 1.8.0-2.15.0, carries PTX.
    wheels = json.loads((ROOT / "scripts" / "inputs" / "torch-wheel-arch.json").read_text())
    for version, wheel in wheels["releases"].items():
        assert wheel["fatbin"]["entries"] > 1000, version
        assert wheel["fatbin"]["ptx"] == [], version
        gen_arch_table.check_fatbin(version, wheel)
    # 1.8's also carries the sm_35 kernels of the cuDNN linked in; torch's own start at sm_37
    assert "sm_35" in wheels["releases"]["1.8.0"]["fatbin"]["sass"]
    assert not archtable.runs(
        archtable.arch_list(Version("1.8.0"), Version("10.2")) or archtable.ArchList((), ()),
        Version("3.5"), Version("10.2"), Version("11.4"),
    )  # fmt: skip


def test_a_reading_whose_fat_binaries_disagree_is_refused() -> None:
    flags = "-gencode;arch=compute_80,code=sm_80;-gencode;arch=compute_90,code=sm_90"
    wheel: dict[str, Any] = {
        "arch_list": gen_arch_table.flags_to_list(flags),
        "fatbin": {"sass": ["sm_80", "sm_90"], "ptx": ["compute_90"], "entries": 3},
    }
    with pytest.raises(gen_arch_table.ScriptError, match="PTX"):
        gen_arch_table.check_fatbin("9.9.9", wheel)
    wheel["fatbin"] = {"sass": ["sm_80"], "ptx": [], "entries": 1}
    with pytest.raises(
        gen_arch_table.ScriptError, match=r"no fat-binary entry for the flags. 9\.0"
    ):
        gen_arch_table.check_fatbin("9.9.9", wheel)
    wheel["fatbin"] = {"sass": ["sm_35", "sm_80", "sm_90", "sm_90a"], "ptx": [], "entries": 4}
    gen_arch_table.check_fatbin("9.9.9", wheel)  # more than the flags: statically linked code


@pytest.mark.parametrize(
    ("release", "cuda"),
    [("2.12.0", "13.2"), ("2.12.1", "13.2"), ("2.13.0", "13.2"), ("2.14.1", "13.2"),
     ("2.15.0", "13.0")],
)  # fmt: skip
def test_release_builds_off_pypi_carry_no_ptx_where_the_release_strips_it(
    release: str, cuda: str
) -> None:
    # The fifth audit's row, corrected at its source (PR #188914): RELEASE.md's 12.0+PTX for
    # CUDA 13.x describes the nightlies; the old table said PTX 12.0 for these builds.
    arches = archtable.arch_list(Version(release), Version(cuda))
    assert arches is not None and "12.0" in arches.sass and arches.ptx == ()


@pytest.mark.parametrize(
    ("release", "cuda"),
    [("2.7.0", "12.8"), ("2.8.0", "12.9"), ("2.9.1", "13.0"), ("2.10.0", "13.0")],
)
def test_builds_no_strip_is_recorded_for_keep_their_ptx(release: str, cuda: str) -> None:
    # Evidence over the issue: 2.7.0+cu128 and 2.7.1+cu128 report compute_120 at run time, and
    # the first release-only removals for 12.8, 13.0 came with 2.8 and 2.11 (the row's note).
    arches = archtable.arch_list(Version(release), Version(cuda))
    assert arches is not None and arches.ptx == ("12.0",)
    document = json.loads((ROOT / "scripts" / "inputs" / "torch-arch-lists.json").read_text())
    source = document["releases"][release.rsplit(".", 1)[0]]["source"]
    assert "release_strips_ptx" not in source and "+PTX" in source["note"]


# Build-script shapes PyTorch has used (written for this test, not copied from upstream).
BUILDER_STYLE = """
TORCH_CUDA_ARCH_LIST="3.7;5.0;6.0;7.0"
case ${CUDA_VERSION} in
    11.[356])
        TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};7.5;8.0;8.6"
        ;;
    12.4)
        if [[ "$GPU_ARCH_TYPE" = "cuda-aarch64" ]]; then
            TORCH_CUDA_ARCH_LIST="9.0"
        else
            TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};9.0"
        fi
        ;;
    10.*)
        TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST}"
        ;;
    *)
        echo "unknown cuda version $CUDA_VERSION"
        exit 1
        ;;
esac
"""
ONE_LINE_STYLE = """
TORCH_CUDA_ARCH_LIST="7.0;7.5;8.0;8.6;9.0"
case ${CUDA_VERSION} in
    12.6) TORCH_CUDA_ARCH_LIST="5.0;6.0;${TORCH_CUDA_ARCH_LIST}" ;;
    12.8) TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};10.0;12.0+PTX" ;;
    *) echo "unknown cuda version $CUDA_VERSION"; exit 1 ;;
esac
"""


@pytest.mark.parametrize(
    ("script", "cuda", "expected"),
    [
        (BUILDER_STYLE, "10.2", "3.7;5.0;6.0;7.0"),
        (BUILDER_STYLE, "11.3", "3.7;5.0;6.0;7.0;7.5;8.0;8.6"),
        (BUILDER_STYLE, "12.4", "3.7;5.0;6.0;7.0;9.0"),  # the x86_64 (else) branch
        (BUILDER_STYLE, "11.7", None),  # no branch: that build does not exist
        (ONE_LINE_STYLE, "12.6", "5.0;6.0;7.0;7.5;8.0;8.6;9.0"),
        (ONE_LINE_STYLE, "12.8", "7.0;7.5;8.0;8.6;9.0;10.0;12.0+PTX"),
    ],
)
def test_the_build_script_evaluator(script: str, cuda: str, expected: str | None) -> None:
    assert gen_arch_table.evaluate(script, cuda) == expected


def test_the_evaluator_refuses_what_it_does_not_understand() -> None:
    odd = ONE_LINE_STYLE.replace('"5.0;6.0;${TORCH_CUDA_ARCH_LIST}"', '"$(compute_list)"')
    with pytest.raises(gen_arch_table.ScriptError):
        gen_arch_table.evaluate(odd, "12.6")
    assert gen_arch_table.parse_list("7.5;9.0+PTX") == {"sass": ["7.5", "9.0"], "ptx": ["9.0"]}


@pytest.mark.parametrize(
    ("release", "cuda", "capability", "runs"),
    [
        ("1.12.1", "10.2", "8.0", False),  # PyPI's torch 1.12.1: sm_37..sm_70 (pytorch#57922)
        ("1.12.1", "11.3", "8.0", True),
        ("1.13.1", "11.7", "8.9", True),  # sm_86 SASS runs on an sm_89 L4
        ("1.13.1", "11.7", "9.0", False),
        ("2.7.0", "12.6", "12.0", False),
        ("2.7.0", "12.8", "12.0", True),
        ("2.8.0", "12.8", "6.1", False),
        ("2.8.0", "12.6", "6.1", True),
        ("2.10.0", "12.8", "7.0", True),
        ("2.11.0", "12.8", "7.0", False),
        ("2.11.0", "13.0", "7.5", True),
        ("2.14.1", "12.6", "7.0", True),
        # The CUDA 11 builds of 1.8-1.11 (pytorch/builder manywheel/build.sh, build_cuda.sh at
        # lts/release/1.8, release/1.9-1.11: `11.[12]`, `11.[123]`, `11.[1235]` add 7.5;8.0;8.6)
        ("1.8.1", "11.1", "8.6", True),
        ("1.8.1", "11.1", "9.0", False),
        ("1.9.0", "11.1", "9.0", False),
        ("1.10.0", "11.3", "8.0", True),
        ("1.10.0", "11.3", "9.0", False),
        ("1.11.0", "11.5", "9.0", False),
        ("1.11.0", "11.3", "12.0", False),
        # 2.6.0+cu126: no PTX (pytorch#150733: its warning lists sm_50..sm_90, no compute_90)
        ("2.6.0", "12.6", "12.0", False),
        ("2.6.0", "12.6", "10.0", False),
    ],
)
def test_what_the_table_says(release: str, cuda: str, capability: str, runs: bool) -> None:
    arches = archtable.arch_list(Version(release), Version(cuda))
    assert arches is not None
    assert archtable.runs(arches, Version(capability), Version(cuda), Version("13.0")) is runs


def test_torch_2_15_has_no_build_for_volta_and_the_fix_is_2_14() -> None:
    assert archtable.builds_of(Version("2.15.0")) == (Version("13.0"), Version("13.2"))
    builds = archtable.fixing_builds(Version("2.15.0"), [Version("7.0")], Version("13.0"))
    assert builds == (archtable.Build(Version("2.14.1"), Version("12.6")),)


def test_ptx_serves_newer_gpus_only_through_a_driver_as_new_as_the_build() -> None:
    arches = archtable.ArchList(("8.0",), ("8.0",))
    assert archtable.runs(arches, Version("9.0"), Version("12.4"), Version("12.4")) is True
    assert archtable.runs(arches, Version("9.0"), Version("12.4"), Version("12.2")) is False
    assert archtable.runs(arches, Version("9.0"), Version("12.4"), None) is None
    assert archtable.runs(arches, Version("7.5"), Version("12.4"), Version("12.4")) is False


# ---------------------------------------------------------------------------------------------
# Through the CLI


def kernel_finding(result: Any) -> dict[str, Any] | None:
    return next((f for f in result.json()["findings"] if f["rule"] == RULE), None)


def test_doctor_torch_1_12_1_from_pypi_on_an_a100(tmp_path: Path) -> None:
    site = tmp_path / "site"
    torch_dist(site, "1.12.1", "10.2")
    result = doctor_on_machine(site, "a100x8")
    finding = kernel_finding(result)
    assert finding is not None and finding["status"] == "affected"
    assert result.exit_code == 1
    assert any("GPU 0 NVIDIA A100-SXM4-80GB (sm_80)" in m for m in finding["matched"])
    assert finding["fix"]["constraints"] == ["torch==1.12.1+cu116"]
    assert "+cu113 or +cu116" in finding["fix"]["summary"]
    assert "no kernel image is available" in " ".join(finding["symptoms"])
    text = doctor_on_machine(
        site, "a100x8"
    ).stdout  # json above; the text report names the same fix
    assert "torch==1.12.1+cu116" in text


def test_doctor_the_fixing_build_is_clear(tmp_path: Path) -> None:
    site = tmp_path / "site"
    torch_dist(site, "1.12.1+cu116", "11.6")
    assert kernel_finding(doctor_on_machine(site, "a100x8")) is None


def test_doctor_blackwell_with_torch_2_6_names_the_nearest_release(tmp_path: Path) -> None:
    site = tmp_path / "site"
    torch_dist(site, "2.6.0", None, requires=[CU12_RUNTIME.format("12.4.127")])
    finding = kernel_finding(doctor_on_machine(site, "rtx5090x2"))
    assert finding is not None and finding["status"] == "affected"
    assert any(
        "GPU 0 NVIDIA GeForce RTX 5090 (sm_120); GPU 1 NVIDIA GeForce RTX 5090 (sm_120)" in m
        for m in finding["matched"]
    )
    assert finding["fix"]["constraints"] == ["torch==2.7.0+cu128"]


def test_doctor_says_nothing_where_kernels_exist_or_nothing_is_known(tmp_path: Path) -> None:
    t4 = tmp_path / "t4"
    torch_dist(t4, "2.11.0+cu130", "13.0")
    assert kernel_finding(doctor_on_machine(t4, "t4")) is None
    source_build = tmp_path / "ngc"
    torch_dist(source_build, "2.5.0a0+872d972e41.nv24.8", "12.6")
    assert kernel_finding(doctor_on_machine(source_build, "h100")) is None
    unprobed = tmp_path / "unprobed"
    torch_dist(unprobed, "1.12.1", "10.2")
    result = run_cli(["doctor", "--path", str(unprobed), "--no-probe", "--format", "json"])
    assert RULE not in {f["rule"] for f in result.json()["findings"]}


def test_doctor_on_an_old_driver_fixes_toward_a_build_the_driver_runs(tmp_path: Path) -> None:
    # V100 on R470 (CUDA 11.4): 2.11's CUDA 12.8 build has no sm_70 and its cu126 build needs a
    # CUDA 12 driver, so the nearest build that both runs and has kernels is a cu118 one.
    site = tmp_path / "site"
    torch_dist(site, "2.11.0+cu128", "12.8")
    finding = kernel_finding(doctor_on_machine(site, "v100"))
    assert finding is not None and finding["status"] == "affected"
    assert finding["fix"]["constraints"] == ["torch==2.7.1+cu118"]


def test_check_a_requirement_file_with_a_hardware_profile(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==1.12.1\n")
    a100 = profile(tmp_path, "NVIDIA A100-SXM4-40GB", "8.0", "535.104.05", "12.2", count=1)
    args = ["check", str(requirements), "--offline", "--hardware", str(a100), "-f", "json"]
    result = run_cli(args)
    assert result.exit_code == 1, result.stderr
    finding = kernel_finding(result)
    assert finding is not None and finding["status"] == "affected"
    assert finding["fix"]["constraints"] == ["torch==1.12.1+cu116"]
    requirements.write_text(
        "torch==1.12.1+cu113\n--extra-index-url https://download.pytorch.org/whl/cu113\n"
    )
    assert kernel_finding(run_cli(args)) is None


def test_check_torch_1_10_cu113_on_an_h100_is_found(tmp_path: Path) -> None:
    """Audit 4 row 27: the CUDA 11 builds of 1.8-1.11 were missing, so this said nothing."""
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(
        "torch==1.10.0+cu113\n--extra-index-url https://download.pytorch.org/whl/cu113\n"
    )
    h100 = profile(tmp_path, "NVIDIA H100 80GB HBM3", "9.0", "535.104.05", "12.2", count=1)
    args = ["check", str(requirements), "--offline", "--hardware", str(h100), "-f", "json"]
    result = run_cli(args)
    finding = kernel_finding(result)
    assert finding is not None and finding["status"] == "affected", result.stdout
    assert "SASS sm_37, sm_50, sm_60, sm_70, sm_75, sm_80, sm_86" in " ".join(finding["matched"])
    assert finding["fix"]["constraints"] == ["torch==2.0.0+cu118"]  # the nearest with sm_90
    for build in ("1.11.0+cu115", "1.9.0+cu111"):
        requirements.write_text(f"torch=={build}\n")
        assert kernel_finding(run_cli(args)) is not None, build
    a100 = profile(tmp_path, "NVIDIA A100-SXM4-40GB", "8.0", "535.104.05", "12.2", count=1)
    requirements.write_text("torch==1.10.0+cu113\n")
    assert kernel_finding(run_cli([*args[:-4], "--hardware", str(a100), "-f", "json"])) is None


def test_a_waiver_of_a_superseded_id_waives_the_rule_that_replaced_it(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("torch==2.8.0+cu128\n")
    p100 = profile(tmp_path, "Tesla P100-PCIE-16GB", "6.0", "570.133.20", "12.8", count=1)
    (tmp_path / ".compat.toml").write_text(
        'ignore = [{id = "torch-cu128-default-drops-maxwell-pascal", reason = "P100 retired"}]\n'
    )
    result = run_subprocess(
        ["check", str(requirements), "--offline", "--hardware", str(p100), "-f", "json"],
        cwd=tmp_path,
    )
    assert RULE not in {f["rule"] for f in result.json()["findings"]}, result.stdout
    shown = run_cli(["matrix", "show", "torch-cu128-default-drops-maxwell-pascal"])
    assert shown.exit_code == 0 and RULE in shown.stdout


def test_pin_writes_the_fixing_build_and_real_pip_installs_it(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {})
    torch_dist(site, "1.12.1", "10.2")
    hardware = profile(tmp_path, "NVIDIA A100-SXM4-80GB", "8.0", "535.104.05", "12.2")
    projects = {"torch": [Dist("torch", v) for v in ("1.12.1", "1.13.1")]}
    roots = {
        "cu113": {"torch": [Dist("torch", "1.12.1+cu113")]},
        "cu116": {"torch": [Dist("torch", "1.12.1+cu116")]},
    }
    with IndexServer(projects, roots=roots) as index:
        result = run_cli(
            ["pin", "--path", str(site), "--hardware", str(hardware), "--index-url", index.url,
             "--pytorch-index", index.base]
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        by_pip = pip_resolve(index.url, constraints, ["torch"], tmp_path)
    assert f"--extra-index-url {index.base}/cu116" in result.stdout
    assert f"via {RULE}" in result.stdout
    assert by_pip == {"torch": "1.12.1+cu116"}


@pytest.mark.parametrize(
    ("ptx", "capability", "runs"),
    [
        # PTX ISA 11.1.2: plain PTX on later GPUs; `f` only within its family; `a` only its own
        ("12.0", "12.1", True),
        ("10.0f", "10.3", True),
        ("10.0f", "12.0", False),
        ("9.0a", "9.0", True),
        ("9.0a", "10.0", False),
    ],
)
def test_ptx_suffixes_follow_nvidias_targets(ptx: str, capability: str, runs: bool) -> None:
    arches = archtable.ArchList((), (ptx,))
    assert archtable.runs(arches, Version(capability), Version("12.8"), Version("13.0")) is runs
