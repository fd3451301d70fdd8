"""compat/data/xformers-rocm-arch.json is what scripts/gen_xformers_rocm_arch.py writes from its
recorded input (facebookresearch/xformers' release tags at named commits), and the readers take
the workflow's and setup.py's shapes, refusing the ones they do not know."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.lib.paths import REPO
from tests.lib.scripts import load_script

SCRIPT = REPO / "scripts" / "gen_xformers_rocm_arch.py"
TABLEGEN = SCRIPT.with_name("tablegen.py")  # the sibling script it imports
INPUT = REPO / "scripts" / "inputs" / "xformers-rocm-arch.json"
OUTPUT = REPO / "compat" / "data" / "xformers-rocm-arch.json"


def _generator() -> ModuleType:
    return load_script("gen_xformers_rocm_arch")


def test_the_table_is_what_the_script_writes() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], check=False)
    assert done.returncode == 0, "compat/data/xformers-rocm-arch.json is stale: run the script"


def test_every_release_names_its_tag_commit_and_files() -> None:
    recorded = json.loads(INPUT.read_text())
    assert recorded["repo"] == "facebookresearch/xformers"
    assert "0.0.28" in recorded["releases"]  # the first tag after #1081 ("build rocm wheels")
    for name, row in recorded["releases"].items():
        assert row["tag"] == f"v{name}"
        assert len(row["commit"]) == 40
        assert set(row["files"]) == {
            ".github/workflows/wheels_build.yml",
            ".github/workflows/wheels.yml",
            "setup.py",
        }
        assert row["targets"] and row["rocm"], name
        assert row["local_label"] == "", name


def test_a_hand_edit_is_caught(tmp_path: Path) -> None:
    (tmp_path / "scripts" / "inputs").mkdir(parents=True)
    (tmp_path / "compat" / "data").mkdir(parents=True)
    script = tmp_path / "scripts" / "gen_xformers_rocm_arch.py"
    script.write_text(SCRIPT.read_text())
    script.with_name("tablegen.py").write_text(TABLEGEN.read_text())
    (tmp_path / "scripts" / "inputs" / "xformers-rocm-arch.json").write_text(INPUT.read_text())
    data = json.loads(OUTPUT.read_text())
    data["releases"]["0.0.30"]["targets"].append("gfx1100")
    (tmp_path / "compat" / "data" / "xformers-rocm-arch.json").write_text(json.dumps(data))
    assert subprocess.run([sys.executable, str(script), "--check"], check=False).returncode == 1


# the shapes of xformers' files at its tags, written here in the same shapes
_BUILD = """env:
  TORCH_CUDA_ARCH_LIST: ${{ contains(inputs.toolkit_type, 'cuda') && '8.0+PTX' || '' }}
  HIP_ARCHITECTURES: ${{ contains(inputs.toolkit_type, 'rocm') && 'gfx90a gfx942' || '' }}
  MAX_JOBS: 4
jobs:
  build:
    steps:
      - name: Setup Runner
        uses: ./.github/actions/setup-build-cuda
      - name: Define version
        id: xformers_version
        run: |
          echo "BUILD_VERSION=$version${{ steps.cuda_info.outputs.CUDA_VERSION_SUFFIX }}" >> ${GITHUB_ENV}
"""
_MATRIX = """      run: |
        ROCM_VERSIONS = ['6.3', '6.4']
        include = []
        for os in ['8-core-ubuntu']:
          for torch_version in ['2.8.0']:
            pass
  upload_pt:
    strategy:
      matrix:
        suffix:
          - cu126
          - rocm6.3
          # - rocm6.1
  upload_pt_rocm6_4:
    with:
      s3_path: s3://pytorch/whl/rocm6.4/
  # upload_pt_rocm6_0:
  #   with:
  #     s3_path: s3://pytorch/whl/rocm6.0/
"""
_SETUP = """
        arch_list = os.getenv("HIP_ARCHITECTURES", "native").split()
        extra_compile_args = {"nvcc": [*[f"--offload-arch={arch}" for arch in arch_list]]}
"""


def test_the_readers_take_the_tags_shapes() -> None:
    gen = _generator()
    assert gen.hip_architectures(_BUILD) == ["gfx90a", "gfx942"]
    # the suffix names a step inside the composite action, not one of the job: no label
    assert gen.local_label(_BUILD) == ""
    assert gen.matrix(_MATRIX) == {
        "rocm": ["6.3", "6.4"],
        "torch": ["2.8.0"],
        "uploaded": ["rocm6.3", "rocm6.4"],  # commented-out jobs and suffixes are not uploads
    }
    gen.check_setup(_SETUP)


@pytest.mark.parametrize(
    "workflow",
    [
        "env:\n  MAX_JOBS: 4\n",  # not set
        # set from the matrix: which targets depends on an input not read here
        "env:\n  HIP_ARCHITECTURES: ${{ inputs.archs }}\n",
        # set, then rewritten by a step
        _BUILD + "      - run: echo HIP_ARCHITECTURES=gfx1100 >> $GITHUB_ENV\n",
        _BUILD.replace("'gfx90a gfx942'", "'native'"),  # the build machine's GPU: unknown
    ],
)
def test_the_workflow_reader_refuses_other_shapes(workflow: str) -> None:
    gen = _generator()
    with pytest.raises(gen.ScriptError):
        gen.hip_architectures(workflow)


@pytest.mark.parametrize(
    "workflow",
    [
        # the job's own step with that id: its output would label the wheel +rocmA.B
        _BUILD.replace(
            "      - name: Setup Runner\n", "      - name: Setup Runner\n        id: cuda_info\n"
        ),
        _BUILD.replace("steps.cuda_info.outputs.CUDA_VERSION_SUFFIX", "env.SUFFIX"),
    ],
)
def test_the_label_reader_refuses_a_workflow_that_labels_the_wheel(workflow: str) -> None:
    gen = _generator()
    with pytest.raises(gen.ScriptError):
        gen.local_label(workflow)


def test_a_setup_that_does_not_pass_the_list_to_hipcc_is_refused() -> None:
    gen = _generator()
    with pytest.raises(gen.ScriptError):
        gen.check_setup('archs = os.environ["PYTORCH_ROCM_ARCH"]\n')


def _xformers_mirror(tmp_path: Path) -> tuple[Path, str]:
    work = tmp_path / "xformers"
    (work / ".github" / "workflows").mkdir(parents=True)
    (work / ".github" / "workflows" / "wheels_build.yml").write_text(_BUILD)
    (work / ".github" / "workflows" / "wheels.yml").write_text(_MATRIX)
    (work / "setup.py").write_text(_SETUP)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "xformers"], check=True)
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    return work / ".git", head


def test_generation_re_reads_a_sample_and_refuses_a_recorded_row_that_differs(
    tmp_path: Path,
) -> None:
    mirror, head = _xformers_mirror(tmp_path)
    row = _generator().read_tag(mirror, head)
    assert row["targets"] == ["gfx90a", "gfx942"]
    root = tmp_path / "repo"
    (root / "scripts" / "inputs").mkdir(parents=True)
    (root / "compat" / "data").mkdir(parents=True)
    script = root / "scripts" / "gen_xformers_rocm_arch.py"
    script.write_text(SCRIPT.read_text())
    script.with_name("tablegen.py").write_text(TABLEGEN.read_text())
    releases = ("0.0.30", "0.0.31", "0.0.32", "0.0.33")
    rows: dict[str, dict[str, object]] = {
        r: {"tag": f"v{r}", **json.loads(json.dumps(row))} for r in releases
    }
    recorded = {"repo": "facebookresearch/xformers", "releases": rows}

    def generate() -> subprocess.CompletedProcess[str]:
        (root / "scripts" / "inputs" / "xformers-rocm-arch.json").write_text(json.dumps(recorded))
        return subprocess.run(
            [sys.executable, str(script), "--xformers-git", str(mirror)],
            capture_output=True,
            text=True,
            check=False,
        )

    agreed = generate()
    assert agreed.returncode == 0, agreed.stderr
    assert "agree" in agreed.stdout
    rows["0.0.31"]["targets"] = ["gfx90a", "gfx942", "gfx1100"]  # by hand
    refused = generate()
    assert refused.returncode == 1
    assert "xformers 0.0.31: the recorded row differs" in refused.stderr
