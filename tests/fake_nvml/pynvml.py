"""A stand-in for nvidia-ml-py's `pynvml`, replaying recorded answers of real machines.

compat's GPU probe talks to NVML only through the `pynvml` module, so tests put this directory
first on sys.path (or in sys.modules) and pick a machine with COMPAT_FAKE_NVML=<name> (a file in
machines/). Errors are the binding's own: the real nvidia-ml-py module is loaded beside this one
and its NVMLError classes and NVML_* codes are re-exported, so `except pynvml.NVMLError` and the
error codes behave exactly as on a real machine.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

_HERE = Path(__file__).resolve().parent
MACHINES = _HERE / "machines"


def _load_real_binding() -> ModuleType:
    if "_real_pynvml" in sys.modules:
        return sys.modules["_real_pynvml"]
    for entry in sys.path:
        candidate = Path(entry or ".").resolve() / "pynvml.py"
        if candidate.parent != _HERE and candidate.is_file():
            spec = importlib.util.spec_from_file_location("_real_pynvml", candidate)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules["_real_pynvml"] = (
                module  # the binding looks itself up by name while loading
            )
            spec.loader.exec_module(module)
            return module
    raise ImportError("the stand-in pynvml needs the real nvidia-ml-py for its error classes")


_real = _load_real_binding()
for _name in dir(_real):
    if _name.startswith(("NVML_", "NVMLError")):
        globals()[_name] = getattr(_real, _name)
NVMLError = _real.NVMLError
_initialised = False


def _machine() -> dict[str, Any]:
    name = os.environ.get("COMPAT_FAKE_NVML", "h100")
    data: dict[str, Any] = json.loads((MACHINES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _answer(entry: Any) -> Any:
    """A recorded answer: {"value": ...} or {"error": <NVML_ERROR_* code>}."""
    if isinstance(entry, dict) and "error" in entry:
        raise NVMLError(entry["error"])
    if isinstance(entry, dict) and "value" in entry:
        return entry["value"]
    return entry


def _require_init() -> dict[str, Any]:
    if not _initialised:
        raise NVMLError(_real.NVML_ERROR_UNINITIALIZED)
    return _machine()


def nvmlInit() -> None:
    global _initialised
    machine = _machine()
    if "hang_seconds" in machine:
        time.sleep(machine["hang_seconds"])
    if "init_error" in machine:
        raise NVMLError(machine["init_error"])
    _initialised = True


def nvmlShutdown() -> None:
    global _initialised
    _initialised = False


def nvmlSystemGetNVMLVersion() -> str:
    # Answers even when nvmlInit failed: the library knows its own version.
    return str(_answer(_machine().get("nvml_version", {"error": _real.NVML_ERROR_NOT_SUPPORTED})))


def nvmlSystemGetDriverVersion() -> str:
    return str(_answer(_require_init()["driver"]))


def nvmlSystemGetCudaDriverVersion() -> int:
    return int(_answer(_require_init()["cuda_driver"]))


def nvmlDeviceGetCount() -> int:
    return int(_answer(_require_init()["count"]))


def _device(handle: Any) -> dict[str, Any]:
    device: dict[str, Any] = _require_init()["devices"][handle.index]
    return device


def nvmlDeviceGetHandleByIndex(index: int) -> Any:
    machine = _require_init()
    if not 0 <= index < len(machine["devices"]):
        raise NVMLError(_real.NVML_ERROR_INVALID_ARGUMENT)
    return SimpleNamespace(index=index)


def nvmlDeviceGetName(handle: Any) -> str:
    return str(_answer(_device(handle)["name"]))


def nvmlDeviceGetUUID(handle: Any) -> str:
    return str(_answer(_device(handle)["uuid"]))


def nvmlDeviceGetPciInfo(handle: Any) -> Any:
    return SimpleNamespace(busId=_answer(_device(handle)["pci_bus_id"]))


def nvmlDeviceGetCudaComputeCapability(handle: Any) -> tuple[int, int]:
    major, minor = _answer(_device(handle)["cc"])
    return int(major), int(minor)


def nvmlDeviceGetMemoryInfo(handle: Any) -> Any:
    return SimpleNamespace(total=int(_answer(_device(handle)["memory_total"])))


def nvmlDeviceGetMigMode(handle: Any) -> tuple[int, int]:
    current, pending = _answer(_device(handle)["mig"])
    return int(current), int(pending)


def nvmlDeviceGetP2PStatus(first: Any, second: Any, index: Any) -> int:
    """0 (NVML_P2P_STATUS_OK) where the recording says the pair connects, else NOT_SUPPORTED (5)."""
    machine = _require_init()
    kind = "nvlink" if index == _real.NVML_P2P_CAPS_INDEX_NVLINK else "read"
    p2p = machine.get("p2p", {})
    return 0 if p2p.get(kind, False) else 5
