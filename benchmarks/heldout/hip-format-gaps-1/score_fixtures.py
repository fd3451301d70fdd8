"""compat's targets of the tool-made bundles of tests/data/hip-bundles (issue 43, the format
gaps) against what clang-offload-bundler-14 --list gives for the bundles inside: a measure of the
fixed classes (the main assertions are tests/unit/binary/test_hip_formats.py). Run with the
compat to measure first on sys.path (PYTHONPATH=<checkout> for another commit's)."""

import tempfile
import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parents[3]))
from tests.lib.elfbuild import build
from tests.lib.hipbuild import aligned
from compat.binary.elf import read_elf, BinaryError

D = Path(__file__).resolve().parents[3] / "tests" / "data" / "hip-bundles"
f = lambda n: (D / n).read_bytes()
cases = {
    "env-triple.hipfb": (f("env-triple.hipfb"), ["gfx90a", "gfx942:sramecc+:xnack-"]),
    "generic.hipfb": (f("generic.hipfb"), ["gfx11-generic", "gfx9-4-generic:xnack-"]),
    "v1 zstd+zlib+plain, aligned": (
        aligned(f("ccob-v1-zstd.bin"), f("ccob-v1-zlib.bin"), f("env-triple.hipfb")),
        ["gfx1100", "gfx1201", "gfx90a", "gfx942:sramecc+:xnack-"],
    ),
    "v1 zlib+zstd+plain, back to back": (
        f("ccob-v1-zlib.bin") + f("ccob-v1-zstd.bin") + f("env-triple.hipfb"),
        ["gfx1100", "gfx1201", "gfx90a", "gfx942:sramecc+:xnack-"],
    ),
}
ok = 0
for name, (sec, want) in cases.items():
    p = Path(tempfile.mkdtemp()) / "fx.so"
    p.write_bytes(build(soname="fx.so", sections={".hip_fatbin": sec}).data)
    try:
        hip = read_elf(str(p)).hip
        got = sorted(hip.targets) if hip else None
    except BinaryError as e:
        got = f"error: {e}"
    good = got == sorted(want)
    ok += good
    print(f"{'ok  ' if good else 'MISS'} {name}: want {sorted(want)} got {got}")
print(f"fixtures agreeing: {ok}/{len(cases)}")
