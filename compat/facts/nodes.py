"""What names the machine a report was made on, and the stack facts a fleet compares across nodes.

Both go into `compat.report/1` (keys `host` and `stack`, added in 0.2: readers of the 0.1 shape
ignore them), so that `compat fleet --reports` can tell nodes apart and compare them from the
reports alone. Nothing here touches the network: the IP is the address of the interface the
default route leaves by, read with a UDP socket that is never sent on (no DNS lookup that could
hang doctor on a badly configured node).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from compat.model import Environment
from compat.names import canonicalize_name

# The packages whose versions must agree on every node of one job (compat fleet compares them).
STACK_PACKAGES = (
    "torch",
    "deepspeed",
    "vllm",
    "transformers",
    "flash-attn",
    "accelerate",
    "trl",
    "openrlhf",
    "ray",
)


def host_identity() -> dict[str, Any]:
    """{"hostname", "ip", "slurm_node"}: the node a report was made on."""
    return {
        "hostname": _hostname(),
        "ip": _primary_ip(),
        # Slurm's own name of the node (what %N in `srun -o` expands to), when run under srun.
        "slurm_node": os.environ.get("SLURMD_NODENAME"),
    }


def _hostname() -> str:
    """socket.gethostname(): on POSIX the kernel's node name, which os.uname() reads without
    importing socket.py (whose enum conversions of every socket constant cost start-up)."""
    uname = getattr(os, "uname", None)
    if uname is not None:
        return str(uname().nodename)
    import socket

    return socket.gethostname()


def _primary_ip() -> str | None:
    # The C module behind socket.py: the same socket object, without socket.py's enum set-up.
    import _socket

    try:
        probe = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
    except OSError:
        return None
    try:
        probe.connect(("10.254.254.254", 9))  # UDP connect sends nothing; it only picks a route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return str(address) if address and address != "0.0.0.0" else None


def stack_summary(env: Environment, builds: Mapping[str, object]) -> dict[str, Any]:
    """{"python", "packages": {name: version or None}, "builds": {torch_cuda, nccl, ...}}."""
    packages: dict[str, str | None] = {}
    for name in STACK_PACKAGES:
        package = env.packages.get(canonicalize_name(name))
        packages[name] = str(package.version) if package is not None else None
    return {
        "python": str(env.python_version) if env.python_version is not None else None,
        "packages": packages,
        "builds": {key: str(value) for key, value in sorted(builds.items())},
    }
