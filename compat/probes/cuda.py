"""Software facts about CUDA, read from metadata and files — torch is never imported.

* torch's CUDA build: from its local version label (`2.3.0+cu121` -> 12.1; `+cpu` -> none), else
  from its metadata's CUDA requirements (`nvidia-cuda-runtime-cu12==12.8.90` -> 12.8,
  `cuda-toolkit==13.0.2` -> 13.0), else from `torch/version.py` read as text (`cuda = '12.1'`).
* cuDNN, NCCL and the CUDA runtime: the versions of the installed `nvidia-*` wheels.
* nvcc: `nvcc --version` when one is on PATH or under $CUDA_HOME — the *toolkit*, which matters
  only for source builds (DeepSpeed ops, flash-attn), not for what pip-installed wheels run.
* What a compiled extension was built against, where the install says so:
  - flash_attn_torch, flash_attn_cxx11abi: the torch series and C++ ABI in a flash-attn
    release-wheel label (`2.8.3+cu12torch2.8cxx11abiTRUE` -> 2.8, 1), from the installed version or
    from the wheel name in PEP 610 direct_url.json when it was installed from the release URL;
  - deepspeed_ops_torch, deepspeed_ops_cuda: torch_info in deepspeed/git_version_info_installed.py,
    written by DeepSpeed's setup.py, when ops were prebuilt (DS_BUILD_OPS=1); JIT-only installs
    (every installed_ops False) build against whatever torch runs, so they say nothing.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from packaging.version import InvalidVersion, Version

from compat.lazyre import Lazy
from compat.model import Environment

_LOCAL_CUDA = Lazy(r"^cu(\d+)$")
_RUNTIME_REQUIREMENT = Lazy(
    r"^\s*(nvidia-cuda-runtime(?:-cu\d+)?|cuda-toolkit|nvidia-cuda-nvrtc(?:-cu\d+)?)\s*(?:\[[^\]]*\])?\s*==\s*([0-9][0-9.]*)",
    re.IGNORECASE,
)
_VERSION_PY_CUDA = Lazy(r"""^cuda\s*(?::\s*[^=]+)?=\s*['"]([0-9.]+)['"]""", re.MULTILINE)
_NVCC_RELEASE = re.compile(r"release (\d+)\.(\d+)")
_FLASH_ATTN_LABEL = Lazy(r"cu\d+torch(\d+\.\d+)cxx11abi(true|false)", re.IGNORECASE)
_DS_TORCH_INFO = Lazy(r"^torch_info\s*=\s*(\{.*\})\s*$", re.MULTILINE)
_DS_INSTALLED_OPS = Lazy(r"^installed_ops\s*=\s*(\{.*\})\s*$", re.MULTILINE)

# Installed wheel -> build fact. CUDA 13 wheels dropped the -cuXX suffix.
_WHEEL_FACTS = {
    "cuda_runtime": ("nvidia-cuda-runtime-cu13", "nvidia-cuda-runtime", "nvidia-cuda-runtime-cu12",
                     "nvidia-cuda-runtime-cu11"),
    "cudnn": ("nvidia-cudnn-cu13", "nvidia-cudnn", "nvidia-cudnn-cu12", "nvidia-cudnn-cu11"),
    "nccl": ("nvidia-nccl-cu13", "nvidia-nccl", "nvidia-nccl-cu12", "nvidia-nccl-cu11"),
}  # fmt: skip


def cuda_from_local_label(version: Version) -> Version | None:
    """`+cu121` -> 12.1, `+cu118` -> 11.8, `+cu130` -> 13.0; None for `+cpu`, `+rocm6.2`, none."""
    match = _LOCAL_CUDA.match(version.local or "")
    if not match:
        return None
    digits = match.group(1)
    return Version(f"{digits[:-1]}.{digits[-1]}")


def _major_minor(text: str) -> Version | None:
    try:
        release = Version(text).release
    except InvalidVersion:
        return None
    return Version(f"{release[0]}.{release[1] if len(release) > 1 else 0}")


major_minor = _major_minor  # `12.1.105` -> 12.1 (also for conda's CUDA packages)


def torch_cuda_build(
    version: Version, requires: tuple[str, ...] = (), location: str | None = None
) -> Version | None:
    """torch's CUDA build, or None for a CPU/ROCm build or when nothing says."""
    if version.local is not None:
        # A local label is authoritative: +cpu and +rocm builds have no CUDA at all.
        return cuda_from_local_label(version)
    for requirement in requires:
        match = _RUNTIME_REQUIREMENT.match(requirement.split(";")[0])
        if match:
            return _major_minor(match.group(2))
    if location is not None:
        return _cuda_from_version_py(location)
    return None


def _cuda_from_version_py(dist_info: str) -> Version | None:
    """Read `torch/version.py` next to the dist-info directory as text (never imported)."""
    path = Path(dist_info).parent / "torch" / "version.py"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = _VERSION_PY_CUDA.search(text)
    return _major_minor(match.group(1)) if match else None


def builds_from_versions(versions: Mapping[str, Version]) -> dict[str, Version]:
    """Build facts from package versions alone (requirement files, lock files, rule examples)."""
    builds: dict[str, Version] = {}
    torch = versions.get("torch")
    if torch is not None:
        cuda = cuda_from_local_label(torch)
        if cuda is not None:
            builds["torch_cuda"] = cuda
    for fact, names in _WHEEL_FACTS.items():
        for name in names:
            if name in versions:
                builds[fact] = versions[name]
                break
    flash_attn = versions.get("flash-attn")
    if flash_attn is not None:
        builds.update(flash_attn_build(flash_attn.local or ""))
    from compat.probes.rocmbuild import rocm_builds

    builds.update(rocm_builds(versions))
    return builds


def flash_attn_build(text: str) -> dict[str, Version]:
    """A flash-attn release label or wheel name (`cu12torch2.8cxx11abiTRUE`) -> the torch series
    it was built for (flash_attn_torch 2.8) and its C++ ABI (flash_attn_cxx11abi 1, or 0)."""
    match = _FLASH_ATTN_LABEL.search(text)
    if not match:
        return {}
    abi = Version("1" if match.group(2).lower() == "true" else "0")
    return {"flash_attn_torch": Version(match.group(1)), "flash_attn_cxx11abi": abi}


def _direct_url(dist_info: str) -> str:
    try:
        with open(os.path.join(dist_info, "direct_url.json"), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return ""
    url = data.get("url") if isinstance(data, dict) else None
    return url.rsplit("/", 1)[-1] if isinstance(url, str) else ""


def deepspeed_ops_build(dist_info: str) -> dict[str, Version]:
    """torch and CUDA series that prebuilt DeepSpeed ops were compiled against (read as text)."""
    path = Path(dist_info).parent / "deepspeed" / "git_version_info_installed.py"
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    ops, info = _DS_INSTALLED_OPS.search(text), _DS_TORCH_INFO.search(text)
    if ops is None or info is None:
        return {}
    try:
        installed, torch_info = ast.literal_eval(ops.group(1)), ast.literal_eval(info.group(1))
    except (ValueError, SyntaxError):
        return {}
    if not isinstance(installed, dict) or not any(installed.values()):
        return {}  # JIT-only: ops compile against the torch that runs
    out: dict[str, Version] = {}
    if isinstance(torch_info, dict):
        for key, fact in (
            ("version", "deepspeed_ops_torch"),
            ("cuda_version", "deepspeed_ops_cuda"),
        ):
            value = _major_minor(str(torch_info.get(key, "")))
            if value is not None and value != Version("0.0"):
                out[fact] = value
    return out


def build_facts(env: Environment, *, with_nvcc: bool | NvccQuery = True) -> dict[str, Version]:
    """torch_cuda, cuda_runtime, cudnn, nccl (and nvcc, the toolkit on PATH) for an environment.
    `with_nvcc` is a query already started (NvccQuery.start), True to ask nvcc now, or False."""
    builds = builds_from_versions({name: package.version for name, package in env.packages.items()})
    builds.update(env.builds)  # what conda recorded (a conda torch's CUDA build, its cuDNN) wins
    torch = env.packages.get("torch")  # type: ignore[call-overload]
    if torch is not None and "torch_cuda" not in builds:
        location = torch.origin.path if torch.origin is not None else None
        cuda = torch_cuda_build(torch.version, torch.requires, location)
        if cuda is not None:
            builds["torch_cuda"] = cuda
    flash_attn = env.packages.get("flash-attn")  # type: ignore[call-overload]
    if flash_attn is not None and "flash_attn_torch" not in builds and flash_attn.origin:
        builds.update(flash_attn_build(_direct_url(flash_attn.origin.path)))
    deepspeed = env.packages.get("deepspeed")  # type: ignore[call-overload]
    if deepspeed is not None and deepspeed.origin is not None:
        builds.update(deepspeed_ops_build(deepspeed.origin.path))
    from compat.probes.rocmbuild import rocm_builds

    location = torch.origin.path if torch is not None and torch.origin is not None else None
    for key, value in rocm_builds(
        {name: package.version for name, package in env.packages.items()}, location
    ).items():
        builds.setdefault(key, value)
    if with_nvcc is not False:
        query = NvccQuery.start() if with_nvcc is True else with_nvcc
        nvcc = query.version()
        if nvcc is not None:
            builds["nvcc"] = nvcc
    return builds


def find_nvcc_version(
    environ: Mapping[str, str] | None = None, timeout: float = 5.0
) -> Version | None:
    """The CUDA toolkit's nvcc release ("release 12.4, V12.4.131" -> 12.4), if one is installed."""
    return NvccQuery.start(environ, timeout).version()


class NvccQuery:
    """`nvcc --version`, started now and read when its answer is needed: the toolkit's process
    runs beside the reading of the environment instead of after it (doctor's start-up)."""

    def __init__(self, candidates: list[str], timeout: float) -> None:
        self._candidates = candidates
        self._timeout = timeout
        self._running: subprocess.Popen[str] | None = None
        self._launch()

    @classmethod
    def start(cls, environ: Mapping[str, str] | None = None, timeout: float = 5.0) -> NvccQuery:
        env = os.environ if environ is None else environ
        candidates = []
        cuda_home = env.get("CUDA_HOME") or env.get("CUDA_PATH")
        if cuda_home:
            candidates.append(os.path.join(cuda_home, "bin", "nvcc"))
        on_path = shutil.which("nvcc", path=env.get("PATH"))
        if on_path:
            candidates.append(on_path)
        return cls(candidates, timeout)

    def _launch(self) -> None:
        """Start the first candidate that can be run; the others wait for `version()`."""
        while self._candidates:
            nvcc = self._candidates.pop(0)
            if not os.access(nvcc, os.X_OK):
                continue
            try:
                self._running = subprocess.Popen(
                    [nvcc, "--version"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
            except OSError:
                continue
            return

    def version(self) -> Version | None:
        """The release the first nvcc that answers reports (as `subprocess.run` would have)."""
        while self._running is not None:
            running, self._running = self._running, None
            try:
                stdout, _ = running.communicate(timeout=self._timeout)
            except subprocess.TimeoutExpired:
                running.kill()
                running.communicate()
                stdout = ""
            match = _NVCC_RELEASE.search(stdout or "")
            if match:
                return Version(f"{match.group(1)}.{match.group(2)}")
            self._launch()
        return None
