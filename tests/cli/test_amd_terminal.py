"""What an AMD user reads on a terminal (80 columns), with NO_COLOR and through a pipe: `compat
probe` on a faked KFD machine, doctor on a ROCm environment, check on a ROCm requirement. Each
line as the person sees it: no NVIDIA-only words on an AMD machine, each unknown named (never a
question with no fact), a fact said once, symptoms as the log prints them, no colour leaking."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.lib.elfbuild import Symbol, build
from tests.lib.hipbuild import aligned, bundle
from tests.lib.kfd import CPU_NODE, gpu_node, write_machine
from tests.lib.nativeenv import native_dist
from tests.lib.paths import REPO
from tests.lib.terminal import ESC, on_terminal, piped

STRIX_HALO = REPO / "docs" / "examples" / "hardware" / "amd-strix-halo.json"  # ROCm 7.0.2


def _strix_halo_machine(tmp_path: Path) -> dict[str, str]:
    """A Strix Halo (gfx1151) run under HSA_OVERRIDE_GFX_VERSION=11.0.0; no amd-smi, no ROCm."""
    node = gpu_node(110501, device_id=0x1586, location_id=0xC500, unique_id=7)
    env = write_machine(tmp_path / "machine", [CPU_NODE, node])
    return {**env, "HSA_OVERRIDE_GFX_VERSION": "11.0.0"}


def test_probe_on_an_amd_machine_reads_as_amd(tmp_path: Path) -> None:
    env = _strix_halo_machine(tmp_path)
    code, screen = on_terminal(["probe"], env)
    assert code == 0, screen
    lines = screen.splitlines()
    # the unknowns named: no driver, no ROCm, no name (where each would come from)
    assert "amdgpu driver: unknown, ROCm: none found (/opt/rocm*, $ROCM_PATH)" in lines
    assert "note: GPU names unknown: amd-smi was not found (or gave none)" in lines
    # the target said once, not as a made-up name and again in brackets
    assert "GPU 0: AMD GPU, name unknown (gfx1151, 0000:c5:00.0)" in lines
    # the override once, with what it does; never a JSON dict of it
    said = [line for line in lines if "HSA_OVERRIDE_GFX_VERSION" in line]
    assert said == ["HSA_OVERRIDE_GFX_VERSION=11.0.0: every GPU below runs gfx1100 code"]
    assert "{" not in screen and "rocm_environment" not in screen
    assert all(len(line) <= 80 for line in lines), screen  # no note here is longer
    # no NVIDIA driver note on a machine with no NVIDIA GPU; keys read as words
    assert "no CUDA driver version" not in screen
    assert "wheel variants: no nvidia properties (no NVIDIA GPU)" in lines
    assert "sources: AMD GPUs from kfd topology" in lines
    assert ESC not in screen
    # the profile a CI runner gets is unchanged (the JSON keeps every key)
    _, out, _ = piped(["probe", "--format", "json"], env)
    document = json.loads(out)
    assert document["rocm_environment"] == {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"}
    assert document["gpus"][0]["name"] == "AMD gfx1151"


@pytest.mark.parametrize(
    ("command", "example"),
    [
        ("probe", "HSA_OVERRIDE_GFX_VERSION=11.0.0 compat probe"),
        ("doctor", "compat doctor --hardware mi300x.json --install torch"),
        ("check", "compat check requirements.txt --hardware mi300x.json"),
        ("pin", "compat pin -r requirements.txt --hardware mi300x.json"),
    ],
)
def test_help_shows_an_amd_example_within_80_columns(command: str, example: str) -> None:
    code, screen = on_terminal([command, "--help"], columns=80)
    assert code == 0
    amd = [line for line in screen.splitlines() if "AMD" in line or "mi300x" in line]
    assert any(example in line for line in amd), screen
    assert all(len(line) <= 80 for line in amd), amd


def _hip_library(targets: list[str]) -> bytes:
    symbols = tuple(Symbol(s, defined=False) for s in ("__hipRegisterFatBinary",))
    sections = {".hip_fatbin": aligned(bundle(targets))}
    return build(needed=("libamdhip64.so.6",), symbols=symbols, sections=sections).data


def _rocm_site(tmp_path: Path) -> Path:
    """torch's ROCm 6.1 build and an extension, both needing ROCm 6's libamdhip64.so.6."""
    site = tmp_path / "site"
    lib = {"torch/lib/libtorch_hip.so": _hip_library(["gfx90a", "gfx942", "gfx1100"])}
    native_dist(site, "torch", "2.4.1+rocm6.1", lib)
    native_dist(site, "ext", "1.0", {"ext_C.so": _hip_library(["gfx1151"])}, requires=["torch"])
    return site


def test_doctor_on_a_rocm_environment_names_every_question(tmp_path: Path) -> None:
    site = _rocm_site(tmp_path)
    argv = ["doctor", "--path", str(site), "--hardware", str(STRIX_HALO)]
    code, screen = on_terminal(argv)
    assert code == 1, screen
    lines = screen.splitlines()
    # the machine's ROCm is 7.0.2: which libamdhip64.so.6 the loader finds is the question
    heading = lines.index("\x1b[1mQuestions that would settle them:\x1b[0m")
    question = lines[heading + 1]
    assert question.startswith("  2 checks depend on: the libamdhip64.so the loader finds")
    assert "ldconfig -p" in question
    assert not any(line.rstrip().endswith("depend on:") for line in lines)
    # ROCm's runtime is not the CUDA toolkit's or NVIDIA's driver's to supply
    (note,) = [line for line in lines if "not in the environment" in line]
    assert "1 library the native files need is not in the environment" in note
    assert "the system's ROCm install may supply it" in note and "CUDA" not in note
    assert "CUDA session" not in screen
    # NO_COLOR on the same terminal, and a pipe: no escape at all
    _, plain = on_terminal(argv, {"NO_COLOR": "1"})
    assert ESC not in plain and "Questions that would settle them:" in plain
    _, out, _ = piped(argv)
    assert ESC not in out


def test_check_shows_the_hip_symptom_as_the_log_prints_it(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(
        "--extra-index-url https://download.pytorch.org/whl/rocm6.1\ntorch==2.4.1+rocm6.1\n",
        encoding="utf-8",
    )
    argv = ["check", str(requirements), "--hardware", str(STRIX_HALO), "--offline"]
    code, screen = on_terminal(argv, {"NO_COLOR": "1"})
    assert code == 1, screen
    assert "    symptom:  HIP error: invalid device function\n" in screen
    assert "…nvalid" not in screen


def test_the_html_report_shows_the_amd_machine_in_a_browser(tmp_path: Path) -> None:
    """The page's Hardware facts as Chromium builds them: the amdgpu driver, ROCm and each GPU's
    target; no NVIDIA driver rows or compute capability column with nothing in them."""
    chromium = os.environ.get("COMPAT_TEST_CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        pytest.skip("chromium is not installed (scripts/ensure-chromium installs it)")
    page = tmp_path / "report.html"
    argv = ["doctor", "--path", str(_rocm_site(tmp_path)), "--hardware", str(STRIX_HALO)]
    code, _, _ = piped([*argv, "--format", "html", "-o", str(page)])
    assert code == 1
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    done = subprocess.run(
        [chromium, *flags, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    hardware = dom[dom.index("<h3>Hardware</h3>") : dom.index("<h3>Configs and usage</h3>")]
    text = " ".join(re.sub(r"<[^>]+>", " ", hardware).split())
    assert "amdgpu driver version 6.14.14 ROCm (user space) 7.0.2" in text, text
    assert "GPU target" in text and "AMD Radeon 8060S Graphics gfx1151" in text, text
    assert "CUDA" not in text and "compute capability" not in text, text


def test_doctors_hardware_line_says_what_an_amd_gpu_runs(tmp_path: Path) -> None:
    """The probed machine as doctor states it: each GPU's target once, the ROCm user space and
    the amdgpu driver (unknown, said), and the override with the target it makes load."""
    env = _strix_halo_machine(tmp_path)
    site = tmp_path / "empty-site"
    native_dist(site, "ext", "1.0", {"ext_C.so": _hip_library(["gfx1100"])})
    code, screen = on_terminal(["doctor", "--path", str(site)], {**env, "NO_COLOR": "1"})
    assert code == 0, screen
    (line,) = [line for line in screen.splitlines() if line.startswith("hardware:")]
    assert line == (
        "hardware: 1x AMD GPU (gfx1151), ROCm unknown, amdgpu driver unknown, "
        "HSA_OVERRIDE_GFX_VERSION=11.0.0 (loads gfx1100 code) (probed)"
    )


def test_probe_with_no_gpu_names_both_vendors(tmp_path: Path) -> None:
    """A ROCm container without the KFD (or a CPU machine): not only "no NVIDIA driver"; no
    empty `sources: ` line, no raw `nvml_error` key beside the note that says it."""
    env = write_machine(tmp_path / "machine", [CPU_NODE])
    code, screen = on_terminal(["probe"], env)  # no NVIDIA driver here either
    assert code == 0, screen
    lines = screen.splitlines()
    assert "GPUs: none visible (no NVIDIA GPU via NVML, no AMD GPU in the KFD topology)" in lines
    assert all(line.strip() != "sources:" for line in lines), screen
    assert not any(line.startswith("nvml_error:") for line in lines), screen


def test_the_markdown_summary_keeps_the_gpus_name_and_rocm_as_written(tmp_path: Path) -> None:
    """`--format markdown` (a CI step summary, a PR comment): the hardware line's first letter
    capitalised, never the rest lowercased ("amd radeon 8060s graphics", "rocm 7.0.2")."""
    argv = ["doctor", "--path", str(_rocm_site(tmp_path)), "--hardware", str(STRIX_HALO)]
    _, out, _ = piped([*argv, "--format", "markdown"])
    (line,) = [line for line in out.splitlines() if line.startswith("Hardware:")]
    assert line.startswith(
        "Hardware: 1x AMD Radeon 8060S Graphics (gfx1151), ROCm 7.0.2, amdgpu driver 6.14.14 ("
    ), line
