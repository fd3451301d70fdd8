"""The PEP 508 marker environment of the running interpreter, standard library only.

This file is also sent, as text, to another interpreter by `--python` (it must import nothing of
compat or packaging there), and imported here instead of packaging.markers to keep start-up fast.
"""

import os
import platform
import sys


def marker_environment() -> dict[str, str]:
    implementation = sys.implementation
    info = implementation.version
    version = f"{info.major}.{info.minor}.{info.micro}"
    if info.releaselevel != "final":
        version += info.releaselevel[0] + str(info.serial)
    return {
        "implementation_name": implementation.name,
        "implementation_version": version,
        "os_name": os.name,
        "platform_machine": platform.machine(),
        "platform_release": platform.release(),
        "platform_system": platform.system(),
        "platform_version": platform.version(),
        "python_full_version": platform.python_version(),
        "platform_python_implementation": platform.python_implementation(),
        "python_version": ".".join(platform.python_version_tuple()[:2]),
        "sys_platform": sys.platform,
    }
