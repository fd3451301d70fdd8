"""The first release of each compiled package built against NumPy 2, from generated data.

`compat/data/numpy-abi.json` (written by `scripts/gen_numpy_abi.py` from release notes recorded
per package) lists, for scipy, scikit-learn, matplotlib, h5py, the opencv-python wheels and
pyarrow, the first release whose wheels were built against NumPy 2. Older releases' extensions
were compiled against the NumPy 1 ABI and fail to import under NumPy 2. Read only when a rule asks.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

# The packages the table speaks of (kept here so that a rule's package names are known without
# reading the table: pin and the rule index need them at load time).
PACKAGES = (
    "h5py", "matplotlib", "opencv-contrib-python", "opencv-contrib-python-headless",
    "opencv-python", "opencv-python-headless", "pyarrow", "scikit-learn", "scipy",
)  # fmt: skip


@cache
def table() -> Mapping[str, Any]:
    import json  # read only when a rule asks: not at every start-up
    from importlib import resources

    text = resources.files("compat").joinpath("data/numpy-abi.json").read_text("utf-8")
    packages: Mapping[str, Any] = json.loads(text)["packages"]
    return packages
