"""The GPU probe: NVML through `nvidia-ml-py` (module `pynvml`), never a CUDA context.

Failure is a fact, not a crash: no NVML library, no driver, a driver/library version mismatch
(a driver upgraded without a reboot), calls the driver does not support — each becomes a
`Hardware` with what could be read, a human-readable problem and a machine-readable code in
`extra["nvml_error"]` that rules can match. The probe runs in a daemon thread with a time bound,
so a wedged driver never hangs `compat doctor`. This is the only module that imports `pynvml`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from compat.lazyre import Lazy
from compat.model import Gpu, Hardware
from compat.versions import parse_version

# pynvml error codes (nvml.h) -> the codes rules and reports use.
_ERROR_CODES = {
    12: "library-not-found",  # NVML_ERROR_LIBRARY_NOT_FOUND
    9: "driver-not-loaded",  # NVML_ERROR_DRIVER_NOT_LOADED
    4: "no-permission",  # NVML_ERROR_NO_PERMISSION
    18: "driver-library-mismatch",  # NVML_ERROR_LIB_RM_VERSION_MISMATCH
    3: "not-supported",  # NVML_ERROR_NOT_SUPPORTED
    15: "gpu-lost",  # NVML_ERROR_GPU_IS_LOST
}
_P2P_READ = 0  # NVML_P2P_CAPS_INDEX_READ (the binding defines it as a one-element tuple)
_P2P_NVLINK = 2  # NVML_P2P_CAPS_INDEX_NVLINK
_KERNEL_VERSION = Lazy(r"Kernel Module(?:\s+for\s+\S+)?\s+([0-9]+(?:\.[0-9]+)+)")


def probe_hardware(
    *,
    timeout: float = 3.0,
    environ: Mapping[str, str] | None = None,
    proc_root: Path = Path("/proc"),
    sys_root: Path = Path("/sys"),
) -> Hardware:
    """The GPUs that training will see, the driver and the CUDA version it supports. Never raises."""
    return HardwareProbe(
        timeout=timeout, environ=environ, proc_root=proc_root, sys_root=sys_root
    ).result()


class HardwareProbe:
    """`probe_hardware`, started now and read when its answer is needed: doctor starts it before
    it reads the environment, so that loading the NVML binding overlaps that reading. The time
    bound counts from the start."""

    def __init__(
        self,
        *,
        timeout: float = 3.0,
        environ: Mapping[str, str] | None = None,
        proc_root: Path = Path("/proc"),
        sys_root: Path = Path("/sys"),
    ) -> None:
        env = os.environ if environ is None else environ
        self._environ = env
        self._timeout = timeout
        self._kernel_driver = kernel_module_version(proc_root, sys_root)
        self._answer: list[Hardware] = []
        self._deadline = time.monotonic() + timeout

        def target() -> None:
            self._answer.append(_probe_nvml(env, self._kernel_driver))

        self._thread = threading.Thread(target=target, name="compat-nvml-probe", daemon=True)
        self._thread.start()
        # AMD GPUs (compat.probes.amd): the KFD topology, and amd-smi only where it lists a GPU.
        self._amd: list[Any] = []

        def amd_target() -> None:
            from compat.probes.amd import probe_amd

            try:
                self._amd.append(probe_amd(env, timeout=max(0.5, timeout - 0.2)))
            except Exception as error:  # never let the AMD probe break the NVIDIA one
                self._amd.append(str(error))

        self._amd_thread = threading.Thread(target=amd_target, name="compat-amd-probe", daemon=True)
        self._amd_thread.start()

    def result(self) -> Hardware:
        """The probe's answer, with the user-mode driver a process started here would load
        (a cuda-compat libcuda on the loader path: compat.probes.libcuda)."""
        from compat.probes.amd import with_amd
        from compat.probes.libcuda import with_user_driver

        hardware = with_user_driver(self._result(), self._environ)
        self._amd_thread.join(max(0.0, self._deadline - time.monotonic()))
        if not self._amd:
            # amd-smi (or amdsmi) is slow to answer: the KFD alone still gives the GPUs
            from compat.probes.amd import AMD_SMI_VARIABLE, probe_amd

            facts = probe_amd({**self._environ, AMD_SMI_VARIABLE: ""})
            if facts is not None:
                facts = dataclasses.replace(
                    facts,
                    problems=(*facts.problems, "amd-smi did not answer in time: GPU names unknown"),
                )
            return with_amd(hardware, facts)
        return with_amd(hardware, self._amd[0])

    def _result(self) -> Hardware:
        self._thread.join(max(0.0, self._deadline - time.monotonic()))
        if not self._answer:
            return _with_platform(
                _with_shm(
                    Hardware(
                        driver_version=_parse_version(self._kernel_driver),
                        cuda_driver_version=None,
                        gpus=(),
                        source="probe",
                        problems=(
                            f"NVML did not answer within {self._timeout:g}s (a hung driver?): "
                            "GPU facts unknown",
                        ),
                        extra={"nvml_error": "timeout"},
                        driver_text=self._kernel_driver,
                    )
                )
            )
        return _with_platform(_with_shm(self._answer[0]))


def _with_platform(hardware: Hardware) -> Hardware:
    """This machine's OS and architecture (`linux/aarch64` on a GH200 or GB200 node)."""
    import dataclasses
    import platform
    import sys

    return dataclasses.replace(
        hardware, platform=machine_platform(sys.platform, platform.machine())
    )


def machine_platform(system: str, machine: str) -> str | None:
    """`linux`, `aarch64` -> `linux/aarch64`; the words `--platform` takes."""
    if not machine:
        return None
    if system.startswith("linux"):
        return "linux/" + {"arm64": "aarch64", "amd64": "x86_64"}.get(machine.lower(), machine)
    if system in ("darwin", "win32"):
        return f"{system}/{machine}"
    return None


def kernel_module_version(
    proc_root: Path = Path("/proc"), sys_root: Path = Path("/sys")
) -> str | None:
    """The loaded kernel module's version, as text: what the driver *really* is after an upgrade
    without a reboot. /sys/module/nvidia/version first, then /proc/driver/nvidia/version."""
    try:
        text = (
            (sys_root / "module" / "nvidia" / "version")
            .read_text(encoding="ascii", errors="replace")
            .strip()
        )
        if _parse_version(text) is not None:
            return text
    except OSError:
        pass
    try:
        text = (proc_root / "driver" / "nvidia" / "version").read_text(
            encoding="ascii", errors="replace"
        )
    except OSError:
        return None
    match = _KERNEL_VERSION.search(text)
    return match.group(1) if match and _parse_version(match.group(1)) is not None else None


def _text(value: Any) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)


def _error_code(error: Exception) -> str:
    return _ERROR_CODES.get(
        getattr(error, "value", -1), f"nvml-error-{getattr(error, 'value', '?')}"
    )


def _probe_nvml(env: Mapping[str, str], kernel_driver: str | None) -> Hardware:
    try:
        import pynvml
    except ImportError:
        return _degraded(
            kernel_driver, "library-not-found", "the nvidia-ml-py package (pynvml) is not installed"
        )
    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as error:
        code = _error_code(error)
        if code == "driver-library-mismatch":
            library = _library_version(pynvml)
            detail = (
                f"the NVIDIA driver's kernel module is {kernel_driver or 'unknown'} but the user-space "
                f"library is {library or 'another version'}: the driver was upgraded without a reboot "
                "(or a container ships a different libnvidia-ml); reboot, or reload the nvidia modules"
            )
            return _degraded(kernel_driver, code, detail)
        if code == "library-not-found":
            if kernel_driver is None:
                return _degraded(
                    None, code, "no NVIDIA driver (NVML library not found): no GPU visible"
                )
            return _degraded(
                kernel_driver,
                code,
                f"driver {kernel_driver} is loaded but libnvidia-ml.so.1 was not found: GPU list unknown",
            )
        return _degraded(kernel_driver, code, f"NVML could not start: {error}")
    except Exception as error:  # a broken binding must not break the check
        return _degraded(kernel_driver, "nvml-error", f"NVML could not start: {error}")
    try:
        return _read_devices(pynvml, env)
    finally:
        with contextlib.suppress(Exception):
            pynvml.nvmlShutdown()


def _library_version(pynvml: Any) -> str | None:
    # With a mismatch, nvmlInit fails but the library's own version may still be readable.
    try:
        return _text(pynvml.nvmlSystemGetNVMLVersion())
    except Exception:
        return None


def _degraded(kernel_driver: str | None, code: str, problem: str) -> Hardware:
    return Hardware(
        driver_version=_parse_version(kernel_driver),
        cuda_driver_version=None,
        gpus=(),
        source="probe",
        problems=(problem,),
        extra={
            "nvml_error": code,
            "sources": {"driver": "kernel module (/sys or /proc)"} if kernel_driver else {},
        },
        driver_text=kernel_driver,
    )


def _optional(call: Any, *args: Any) -> Any:
    """A value the driver may not support (NOT_SUPPORTED) becomes None instead of an error."""
    try:
        return call(*args)
    except (
        Exception
    ):  # NVMLError (NOT_SUPPORTED, NO_PERMISSION, ...) or an old binding's AttributeError
        return None


def _read_devices(pynvml: Any, env: Mapping[str, str]) -> Hardware:
    problems: list[str] = []
    driver_raw = _optional(pynvml.nvmlSystemGetDriverVersion)
    driver_text = _text(driver_raw) if driver_raw is not None else None
    driver = _parse_version(driver_text)
    cuda_raw = _optional(pynvml.nvmlSystemGetCudaDriverVersion)
    cuda = (
        Version(f"{cuda_raw // 1000}.{(cuda_raw % 1000) // 10}")
        if isinstance(cuda_raw, int)
        else None
    )
    try:
        count = pynvml.nvmlDeviceGetCount()
    except pynvml.NVMLError as error:
        return Hardware(
            driver,
            cuda,
            (),
            "nvml",
            (f"NVML could not count GPUs: {error}",),
            {"nvml_error": _error_code(error)},
            driver_text,
        )
    devices = []
    for index in range(count):
        try:
            handle = pynvml.nvmlDeviceGetHandleByIndex(index)
        except pynvml.NVMLError as error:
            problems.append(f"GPU {index}: {error}")
            continue
        name = _text(_optional(pynvml.nvmlDeviceGetName, handle) or "unknown GPU")
        uuid = _optional(pynvml.nvmlDeviceGetUUID, handle)
        pci = _optional(pynvml.nvmlDeviceGetPciInfo, handle)
        cc = _optional(pynvml.nvmlDeviceGetCudaComputeCapability, handle)
        memory = _optional(pynvml.nvmlDeviceGetMemoryInfo, handle)
        mig = _optional(pynvml.nvmlDeviceGetMigMode, handle)
        devices.append(
            (
                handle,
                Gpu(
                    index=index,
                    name=name,
                    uuid=_text(uuid) if uuid is not None else None,
                    pci_bus_id=_text(pci.busId) if pci is not None else None,
                    compute_capability=Version(f"{cc[0]}.{cc[1]}") if cc else None,
                    memory_total_mib=int(memory.total) // 2**20 if memory is not None else None,
                    mig=bool(mig[0]) if mig else (False if mig is not None else None),
                ),
            )
        )
    visible, visibility_note = select_visible(
        [gpu for _, gpu in devices], env.get("CUDA_VISIBLE_DEVICES")
    )
    if visibility_note:
        problems.append(visibility_note)
    extra: dict[str, object] = {
        "sources": {
            "driver_version": "nvml",
            "cuda_driver_version": "nvml",
            "gpus": "nvml"
            + (" + CUDA_VISIBLE_DEVICES" if env.get("CUDA_VISIBLE_DEVICES") is not None else ""),
        },
        "nvml_gpu_count": count,
    }
    if len(visible) > 1:
        handles = {gpu.uuid: handle for handle, gpu in devices}
        extra["topology"] = _topology(pynvml, [handles.get(g.uuid) for g in visible])
    renumbered = tuple(
        Gpu(
            i, g.name, g.uuid, g.pci_bus_id, g.compute_capability, g.memory_total_mib, g.mig,
            vendor="nvidia",
        )
        for i, g in enumerate(visible)
    )  # fmt: skip
    if len(visible) != count:
        extra["nvml_index"] = [g.index for g in visible]
    return Hardware(driver, cuda, renumbered, "nvml", tuple(problems), extra, driver_text)


def _parse_version(value: Any) -> Version | None:
    if value is None:
        return None
    try:
        return parse_version(_text(value))
    except InvalidVersion:
        return None


def select_visible(gpus: list[Gpu], visible: str | None) -> tuple[list[Gpu], str | None]:
    """The GPUs CUDA_VISIBLE_DEVICES leaves visible, in its order (CUDA stops at the first bad entry)."""
    if visible is None:
        return gpus, None
    chosen: list[Gpu] = []
    for raw in visible.split(","):
        entry = raw.strip()
        if not entry:
            break
        match: Gpu | None = None
        if entry.lstrip("-").isdigit():
            number = int(entry)
            match = gpus[number] if 0 <= number < len(gpus) else None
        else:
            prefix = entry if entry.startswith(("GPU-", "MIG-")) else f"GPU-{entry}"
            found = [g for g in gpus if g.uuid and g.uuid.startswith(prefix)]
            if entry.startswith("MIG-"):
                return (
                    chosen,
                    f"CUDA_VISIBLE_DEVICES names a MIG instance ({entry}): MIG instances are not listed",
                )
            match = found[0] if len(found) == 1 else None
        if match is None:
            break  # CUDA ignores this entry and every one after it
        if match not in chosen:
            chosen.append(match)
    return chosen, f"CUDA_VISIBLE_DEVICES={visible!r}: {len(chosen)} of {len(gpus)} GPUs visible"


def _topology(pynvml: Any, handles: list[Any]) -> dict[str, object]:
    """Peer-to-peer summary: which visible pairs can read each other's memory, and over NVLink."""
    pairs = p2p = nvlink = 0
    for i, first in enumerate(handles):
        for second in handles[i + 1 :]:
            if first is None or second is None:
                continue
            pairs += 1
            if _optional(pynvml.nvmlDeviceGetP2PStatus, first, second, _P2P_READ) == 0:
                p2p += 1
            if _optional(pynvml.nvmlDeviceGetP2PStatus, first, second, _P2P_NVLINK) == 0:
                nvlink += 1
    return {"gpu_pairs": pairs, "p2p_read_pairs": p2p, "nvlink_pairs": nvlink}


def _with_shm(hardware: Hardware) -> Hardware:
    """Add /dev/shm's size: NCCL and DataLoader workers fail in containers with the 64 MiB default."""
    try:
        stats = os.statvfs("/dev/shm")
    except OSError:
        return hardware
    return dataclasses.replace(
        hardware, extra={**hardware.extra, "shm_bytes": stats.f_frsize * stats.f_blocks}
    )
