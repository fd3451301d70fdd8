"""compat/data/torch-rocm-arch.json is what scripts/gen_torch_rocm_arch.py writes from its
recorded input (pytorch/builder's release branches at named commits), and the evaluator reads
the build script's shapes, refusing the ones it does not know."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.lib.paths import REPO
from tests.lib.scripts import load_script

SCRIPT = REPO / "scripts" / "gen_torch_rocm_arch.py"
TABLEGEN = SCRIPT.with_name("tablegen.py")  # the sibling script it imports
INPUT = REPO / "scripts" / "inputs" / "torch-rocm-arch.json"


def _generator() -> ModuleType:
    return load_script("gen_torch_rocm_arch")


def test_the_table_is_what_the_script_writes() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], check=False)
    assert done.returncode == 0, "compat/data/torch-rocm-arch.json is stale: run the script"


def test_every_series_names_its_source() -> None:
    recorded = json.loads(INPUT.read_text())
    for name, row in recorded["series"].items():
        assert row["repo"] == "pytorch/builder"
        assert row["ref"] == f"release/{name}"
        assert len(row["commit"]) == 40
        assert set(row["files"]) == {
            "manywheel/build_docker.sh",
            ".github/workflows/build-manywheel-images.yml",
        }
        assert row["rocm"], name


def test_a_hand_edit_is_caught(tmp_path: Path) -> None:
    (tmp_path / "scripts" / "inputs").mkdir(parents=True)
    (tmp_path / "compat" / "data").mkdir(parents=True)
    (tmp_path / "scripts" / "gen_torch_rocm_arch.py").write_text(SCRIPT.read_text())
    (tmp_path / "scripts" / "tablegen.py").write_text(TABLEGEN.read_text())
    (tmp_path / "scripts" / "inputs" / "torch-rocm-arch.json").write_text(INPUT.read_text())
    data = json.loads((REPO / "compat" / "data" / "torch-rocm-arch.json").read_text())
    data["releases"]["2.0"]["rocm"]["5.4.2"].append("gfx1100")
    (tmp_path / "compat" / "data" / "torch-rocm-arch.json").write_text(json.dumps(data))
    script = tmp_path / "scripts" / "gen_torch_rocm_arch.py"
    done = subprocess.run([sys.executable, str(script), "--check"], check=False)
    assert done.returncode == 1


# the shapes pytorch/builder's release branches used (1.11: `${PYTORCH_ROCM_ARCH};...` from
# ROCm 4.3; 2.3: `+=";gfx942"` from ROCm 6.0), written here in the same shapes
_OLD = """    rocm)
        PYTORCH_ROCM_ARCH="gfx900;gfx906;gfx908"
        if [[ $ROCM_VERSION_INT -ge 40300 ]]; then
            PYTORCH_ROCM_ARCH="${PYTORCH_ROCM_ARCH};gfx90a;gfx1030"
        fi
        DOCKER_GPU_BUILD_ARG="--build-arg PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}"
        ;;
"""
_NEW = """    rocm)
        PYTORCH_ROCM_ARCH="gfx900;gfx1100"
        if [[ $ROCM_VERSION_INT -ge 60000 ]]; then
            PYTORCH_ROCM_ARCH+=";gfx942"
        fi
        ;;
"""


def test_the_evaluator_follows_the_version_conditions() -> None:
    gen = _generator()
    assert gen.evaluate(_OLD, "4.2") == ["gfx900", "gfx906", "gfx908"]
    assert gen.evaluate(_OLD, "4.3.1") == ["gfx900", "gfx906", "gfx908", "gfx90a", "gfx1030"]
    assert gen.evaluate(_NEW, "5.7") == ["gfx900", "gfx1100"]
    assert gen.evaluate(_NEW, "6.0") == ["gfx900", "gfx1100", "gfx942"]


@pytest.mark.parametrize(
    "script",
    [
        "cuda)\n  X=1\n  ;;\n",  # no rocm branch
        "rocm)\n  PYTORCH_ROCM_ARCH=$(cat list)\n  ;;\n",  # computed: not read
        "rocm)\n  if [[ $ROCM_VERSION_INT -ge 1 ]]; then\n  A=1\n  else\n  fi\n  ;;\n",
        "rocm)\n  TARGET=rocm_final\n  ;;\n",  # sets nothing
    ],
)
def test_the_evaluator_refuses_what_it_does_not_read(script: str) -> None:
    gen = _generator()
    with pytest.raises(gen.ScriptError):
        gen.evaluate(script, "6.0")


def _builder_mirror(tmp_path: Path) -> tuple[Path, str]:
    """A git repository holding the two files in the shapes pytorch/builder's branches have."""
    work = tmp_path / "builder"
    (work / "manywheel").mkdir(parents=True)
    (work / ".github" / "workflows").mkdir(parents=True)
    (work / "manywheel" / "build_docker.sh").write_text(
        "case ${GPU_ARCH_TYPE} in\n" + _NEW + "esac\n"
    )
    (work / ".github" / "workflows" / "build-manywheel-images.yml").write_text(
        "    strategy:\n      matrix:\n        rocm_version: ['5.7', '6.0']\n"
    )
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "builder"], check=True)
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return work / ".git", head


def test_generation_re_reads_a_sample_and_refuses_a_recorded_row_that_differs(
    tmp_path: Path,
) -> None:
    """Every run with --builder-git re-reads four recorded series at their commits (issue 44
    item 8): a row that agrees passes, a row whose target list was edited is refused."""
    mirror, head = _builder_mirror(tmp_path)
    row = _generator().read_series(mirror, head)
    assert row["rocm"] == {"5.7": ["gfx900", "gfx1100"], "6.0": ["gfx900", "gfx1100", "gfx942"]}
    root = tmp_path / "repo"
    (root / "scripts" / "inputs").mkdir(parents=True)
    (root / "compat" / "data").mkdir(parents=True)
    script = root / "scripts" / "gen_torch_rocm_arch.py"
    script.write_text(SCRIPT.read_text())
    script.with_name("tablegen.py").write_text(TABLEGEN.read_text())
    series = ("2.1", "2.2", "2.3", "2.4")  # each its own copy: the edit below touches one row
    recorded = {
        "series": {s: {"ref": f"release/{s}", **json.loads(json.dumps(row))} for s in series}
    }

    def generate() -> subprocess.CompletedProcess[str]:
        (root / "scripts" / "inputs" / "torch-rocm-arch.json").write_text(json.dumps(recorded))
        return subprocess.run(
            [sys.executable, str(script), "--builder-git", str(mirror)],
            capture_output=True,
            text=True,
            check=False,
        )

    agreed = generate()
    assert agreed.returncode == 0, agreed.stderr
    assert "agree" in agreed.stdout
    recorded["series"]["2.3"]["rocm"]["6.0"] = ["gfx900", "gfx1100"]  # gfx942 dropped by hand
    refused = generate()
    assert refused.returncode == 1
    assert "torch 2.3: the recorded row differs" in refused.stderr


# pytorch/pytorch's .ci/docker/manywheel/build.sh (2.5 on), written here in the shapes its stored
# versions have: a ROCM_REGEX check and a version condition; the image tag's patch-version
# fix-ups beside a flat list; the TheRock split whose list is set under a tag condition
_PT_REGEX = """case ${GPU_ARCH_TYPE} in
    rocm|rocm-manylinux_2_28)
        TARGET=rocm_final
        if [ ${GPU_ARCH_TYPE} == "rocm-manylinux_2_28" ]; then
            MANY_LINUX_VERSION="2_28"
        fi
        PYTORCH_ROCM_ARCH="gfx900;gfx1100"
        ROCM_REGEX="([0-9]+)\\.([0-9]+)[\\.]?([0-9]*)"
        if [[ $GPU_ARCH_VERSION =~ $ROCM_REGEX ]]; then
            ROCM_VERSION_INT=$((${BASH_REMATCH[1]}*10000))
        else
            echo "ERROR: rocm regex failed"
            exit 1
        fi
        if [[ $ROCM_VERSION_INT -ge 60300 ]]; then
            PYTORCH_ROCM_ARCH+=";gfx1200;gfx1201"
        fi
        DOCKER_GPU_BUILD_ARG="--build-arg PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}"
        ;;
esac
"""
_PT_FLAT = """case ${image} in
    manylinux2_28-builder:cuda12*)
        TARGET=cuda_final
        ;;
    manylinux2_28-builder:rocm*)
        if [[ "$GPU_ARCH_VERSION" == *"6.4"* ]]; then
            GPU_ARCH_VERSION="${GPU_ARCH_VERSION}.4"
        fi
        PYTORCH_ROCM_ARCH="gfx900;gfx942;gfx1201;gfx950"
        ;;
esac
"""
_PT_SPLIT = """case ${image} in
    manylinux2_28-builder:rocm*)
        PYTORCH_ROCM_ARCH="gfx908;gfx942"
        if [[ "$GPU_ARCH_VERSION" == *"preview"* ]]; then
            TARGET=rocm_final
        elif [[ "$GPU_ARCH_VERSION" == *"7.14"* ]]; then
            TARGET=rocm_final
        else
            if [[ "$GPU_ARCH_VERSION" == *"7.2"* ]]; then
                GPU_ARCH_VERSION="${GPU_ARCH_VERSION}.1"
            fi
            if [[ "$GPU_ARCH_VERSION" == *"7.1"* ]]; then
                GPU_ARCH_VERSION="${GPU_ARCH_VERSION}.1"
            fi
            PYTORCH_ROCM_ARCH="gfx900;gfx906;${PYTORCH_ROCM_ARCH}"
        fi
        ;;
esac
"""


def test_the_pytorch_evaluator_steps_over_blocks_that_set_no_list() -> None:
    gen = _generator()
    assert gen.evaluate_pytorch(_PT_REGEX, "6.2.4") == ["gfx900", "gfx1100"]
    assert gen.evaluate_pytorch(_PT_REGEX, "6.3") == ["gfx900", "gfx1100", "gfx1200", "gfx1201"]
    assert gen.evaluate_pytorch(_PT_FLAT, "6.4") == ["gfx900", "gfx942", "gfx1201", "gfx950"]
    assert gen.rocm_arches('X = 1\nROCM_ARCHES = ["6.3", "6.4"]\n') == ["6.3", "6.4"]


def test_the_pytorch_evaluator_follows_an_if_elif_else_chain_on_the_tag() -> None:
    # bash's *"7.1"* also matches 7.14: the chain tests 7.14 first, and so does the evaluator
    gen = _generator()
    assert gen.evaluate_pytorch(_PT_SPLIT, "7.14") == ["gfx908", "gfx942"]
    assert gen.evaluate_pytorch(_PT_SPLIT, "7.2") == ["gfx900", "gfx906", "gfx908", "gfx942"]
    assert gen.evaluate_pytorch(_PT_SPLIT, "7.1") == ["gfx900", "gfx906", "gfx908", "gfx942"]
    chain = _PT_REGEX.replace(
        '            PYTORCH_ROCM_ARCH+=";gfx1200;gfx1201"\n',
        '            PYTORCH_ROCM_ARCH+=";gfx1200;gfx1201"\n'
        "        elif [[ $ROCM_VERSION_INT -ge 60200 ]]; then\n"
        '            PYTORCH_ROCM_ARCH+=";gfx1101"\n'
        "        else\n"
        '            PYTORCH_ROCM_ARCH+=";gfx803"\n',
    )
    assert gen.evaluate_pytorch(chain, "6.3")[-2:] == ["gfx1200", "gfx1201"]
    assert gen.evaluate_pytorch(chain, "6.2.4")[-1] == "gfx1101"
    assert gen.evaluate_pytorch(chain, "6.1")[-1] == "gfx803"


@pytest.mark.parametrize(
    "script",
    [
        # the list set under a condition this evaluator does not read
        _PT_SPLIT.replace('*"7.14"* ]]', '*"7.14"* && -n "$X" ]]'),
        # a tag condition after the branch rewrote the tag
        _PT_SPLIT.replace(
            '            PYTORCH_ROCM_ARCH="gfx900;gfx906;${PYTORCH_ROCM_ARCH}"\n',
            '            if [[ "$GPU_ARCH_VERSION" == *"7.2.1"* ]]; then\n'
            '            PYTORCH_ROCM_ARCH="gfx900;gfx906;${PYTORCH_ROCM_ARCH}"\n'
            "            fi\n",
        ),
        _PT_FLAT.replace(  # a version condition on a rewritten GPU_ARCH_VERSION
            'PYTORCH_ROCM_ARCH="gfx900;gfx942;gfx1201;gfx950"',
            'PYTORCH_ROCM_ARCH="gfx900"\n'
            "if [[ $ROCM_VERSION_INT -ge 60400 ]]; then\n"
            'PYTORCH_ROCM_ARCH+=";gfx950"\nfi',
        ),
        _PT_REGEX.replace("        else\n", "        else\n            PYTORCH_ROCM_ARCH=x\n"),
        "case ${image} in\n    manylinux2_28-builder:cpu)\n        TARGET=cpu_final\n        ;;\n",
    ],
)
def test_the_pytorch_evaluator_refuses_what_it_does_not_read(script: str) -> None:
    gen = _generator()
    with pytest.raises(gen.ScriptError):
        gen.evaluate_pytorch(script, "6.4")


def test_a_pytorch_clone_fills_the_unread_series_and_is_re_read(tmp_path: Path) -> None:
    """--pytorch-git reads the two files at each unread series' release commit (named by the
    release's wheel), then re-reads a sample of those read and refuses an edited row."""
    work = tmp_path / "pytorch"
    (work / ".ci" / "docker" / "manywheel").mkdir(parents=True)
    (work / ".github" / "scripts").mkdir(parents=True)
    (work / ".ci" / "docker" / "manywheel" / "build.sh").write_text(_PT_REGEX)
    (work / ".github" / "scripts" / "generate_binary_build_matrix.py").write_text(
        'ROCM_ARCHES = ["6.2.4", "6.3"]\n'
    )
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "v2.7.1"], check=True)
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    root = tmp_path / "repo"
    (root / "scripts" / "inputs").mkdir(parents=True)
    (root / "compat" / "data").mkdir(parents=True)
    script = root / "scripts" / "gen_torch_rocm_arch.py"
    script.write_text(SCRIPT.read_text())
    script.with_name("tablegen.py").write_text(TABLEGEN.read_text())
    recorded = json.loads(INPUT.read_text())
    recorded["pytorch"] = {"2.7": {"release": "2.7.1", "repo": "pytorch/pytorch", "commit": head}}
    inputs = root / "scripts" / "inputs" / "torch-rocm-arch.json"
    inputs.write_text(json.dumps(recorded))

    def generate() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(script), "--pytorch-git", str(work / ".git")],
            capture_output=True,
            text=True,
            check=False,
        )

    first = generate()
    assert first.returncode == 0, first.stderr
    table = json.loads((root / "compat" / "data" / "torch-rocm-arch.json").read_text())
    row = table["releases"]["2.7"]
    assert row["rocm"] == {
        "6.2.4": ["gfx900", "gfx1100"],
        "6.3": ["gfx900", "gfx1100", "gfx1200", "gfx1201"],
    }
    assert "v2.7.1" in row["source"] and head[:12] in row["source"]
    assert table["unread"] == {}
    again = generate()
    assert again.returncode == 0, again.stderr
    assert "re-read 1 pytorch/pytorch series: 2.7" in again.stdout
    edited = json.loads(inputs.read_text())
    edited["pytorch"]["2.7"]["rocm"]["6.3"].remove("gfx1201")
    inputs.write_text(json.dumps(edited))
    refused = generate()
    assert refused.returncode == 1
    assert "torch 2.7: the recorded row differs" in refused.stderr


def test_the_unread_series_name_their_release_commit() -> None:
    recorded = json.loads(INPUT.read_text())["pytorch"]
    table = json.loads((REPO / "compat" / "data" / "torch-rocm-arch.json").read_text())
    for name, row in recorded.items():
        assert row["release"].startswith(f"{name}."), name
        assert len(row["commit"]) == 40 and len(row["commit_from"]["sha256"]) == 64
        assert row["commit_from"]["wheel"].startswith(f"torch-{row['release']}-")
        assert (name in table["unread"]) is ("rocm" not in row)
