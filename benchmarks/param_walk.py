"""The walk of one option object through a command run: which rooms (modules) hold it, in order,
and how often it climbs back up a floor (the layers of tests/product/test_layers.py).

    python benchmarks/param_walk.py pin FactOptions
    python benchmarks/param_walk.py pin IndexOptions
    python benchmarks/param_walk.py doctor FactOptions
    python benchmarks/param_walk.py pin FactOptions,EnvOptions,IndexOptions   # all of pin's inputs
    python benchmarks/param_walk.py pin FactOptions --facts  # and the usage/hardware read from them
    python benchmarks/param_walk.py --help

The run is a real `compat pin --offline` (or `compat doctor`) on a built environment with a
hardware profile and a DeepSpeed config. A profiler hook follows every instance of the named class
and the values of its fields (the profile's path, the config's path, the --set items): every
compat function that receives one of them as an argument is a step into its module; returning to
a caller that holds one is a step back into the caller's module. The walk is the sequence of
modules the innermost holder lives in (consecutive repeats collapsed; constructing an options
object is not a step); a climb is a step to a module on a higher floor of
tests/product/test_layers.py. (Issue 24 counted "16 rooms, 15 climbs" by reading the code; this
script is the reproducible count, so compare its numbers with its own.)
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

STACK = {
    "torch": "2.5.1",
    "deepspeed": "0.14.2",
    "transformers": "4.46.0",
    "trl": "0.12.0",
    "accelerate": "1.0.1",
    "vllm": "0.6.3",
    "flash-attn": "2.6.3",
}
R535 = {
    "schema": "compat.hardware/1",
    "driver_version": "535.104.05",
    "cuda_driver_version": "12.2",
    "gpus": [{"name": "NVIDIA A100-SXM4-80GB", "compute_capability": "8.0"}],
}


def floor_of(module: str) -> int:
    from tests.product.test_layers import unit_of

    found = unit_of(module)
    return found[0] if found is not None else -1


class Walk:
    def __init__(self, class_names: str, facts: bool = False) -> None:
        self.class_names = set(class_names.split(","))
        self.facts = facts
        self.tracked: dict[int, Any] = {}  # id -> object (kept alive)
        self.holders: list[FrameType] = []
        self.rooms: list[str] = []

    def _holds(self, frame: FrameType) -> bool:
        code = frame.f_code
        if code.co_name in ("__init__", "__post_init__"):
            return False  # building the options (or a copy) is no room's work
        for name in code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]:
            if name == "self":
                # A method of a followed value (a property of the hardware) moves nothing; a
                # method that reads one off the object carrying it (pin's Planner) carries it.
                owner = frame.f_locals.get(name)
                if id(owner) not in self.tracked and any(
                    id(v) in self.tracked and k in code.co_names
                    for k, v in getattr(owner, "__dict__", {}).items()
                ):
                    return True
                continue
            value = frame.f_locals.get(name)
            if value is None:
                continue
            named = {klass.__name__ for klass in type(value).__mro__}  # a subclass counts too
            if named & self.class_names and id(value) not in self.tracked:
                self._track(value)
            if id(value) in self.tracked:
                return True
        return False

    def _track(self, options: Any) -> None:
        self.tracked[id(options)] = options
        for value in vars(options).values():
            if value is None or isinstance(value, (bool, int, float)) or value in ((), [], ""):
                continue
            self.tracked[id(value)] = value

    def _follow(self, value: Any) -> None:
        """What facts/gather read from the options (the usage facts, the hardware) is followed too."""
        for item in value if isinstance(value, tuple) else (value,):
            if item is not None and not isinstance(item, (bool, int, float, str)):
                self.tracked.setdefault(id(item), item)

    def _enter(self, module: str) -> None:
        if not self.rooms or self.rooms[-1] != module:
            self.rooms.append(module)

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        module = frame.f_globals.get("__name__", "")
        if not module.startswith("compat"):
            return
        if event == "call" and self._holds(frame):
            self.holders.append(frame)
            if os.environ.get("WALK_DEBUG"):
                print("  call", module, frame.f_code.co_name, file=sys.__stderr__)
            self._enter(module)
        elif event == "return" and self.holders and self.holders[-1] is frame:
            self.holders.pop()
            if (
                self.facts
                and module == "compat.facts.gather"
                and frame.f_code.co_name.startswith("read_")
            ):
                self._follow(arg)
            if self.holders:
                self._enter(self.holders[-1].f_globals["__name__"])

    def wiring_returns(self) -> int:
        """Steps back up into the thin floors (commands/, cli/) from a lower room."""
        wiring = ("compat.commands", "compat.cli")
        return sum(
            1
            for a, b in itertools.pairwise(self.rooms)
            if b.startswith(wiring) and floor_of(b) > floor_of(a)
        )

    def climbs(self) -> int:
        floors = [floor_of(m) for m in self.rooms]
        return sum(1 for a, b in itertools.pairwise(floors) if b > a)


def main() -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("command", nargs="?", default="pin", choices=("pin", "doctor"))
    parser.add_argument(
        "class_name", nargs="?", default="FactOptions", metavar="CLASS[,CLASS...]",
        help="the options classes to follow (default: FactOptions)",
    )  # fmt: skip
    parser.add_argument("--facts", action="store_true", help="and the facts read from them")
    args = parser.parse_args()
    command, class_name, facts = args.command, args.class_name, args.facts
    from typer.testing import CliRunner

    from compat.cli import app
    from tests.dists import make_env

    with tempfile.TemporaryDirectory(prefix="compat-walk-") as name:
        tmp = Path(name)
        site = make_env(tmp / "site", STACK)
        profile = tmp / "r535.json"
        profile.write_text(json.dumps(R535), encoding="utf-8")
        ds = tmp / "ds.json"
        ds.write_text('{"zero_optimization": {"stage": 3}}', encoding="utf-8")
        args = [command, "--path", str(site), "--hardware", str(profile)]
        args += ["--deepspeed-config", str(ds), "--set", "trainer=grpo"]
        if command == "pin":
            args += ["--offline"]
        os.environ["COMPAT_CACHE_DIR"] = str(tmp / "cache")
        walk = Walk(class_name, facts)
        sys.setprofile(walk)
        try:
            result = CliRunner().invoke(app, args, catch_exceptions=False)
        finally:
            sys.setprofile(None)
    what = class_name + (" and the facts read from it" if facts else "")
    print(f"compat {command}: exit {result.exit_code}; following {what}")
    for module in walk.rooms:
        print(f"  {floor_of(module)}  {module}")
    print(
        f"{len(walk.rooms)} rooms, {walk.climbs()} climbs, "
        f"{walk.wiring_returns()} of them back to commands/ or cli/"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
