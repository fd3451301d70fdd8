"""Facts the dynamic loader's refusal states about a shared library (issue 43, explain-rocm-5).

`cannot enable executable stack as shared object requires: Invalid argument`: the library's
PT_GNU_STACK header asks for an executable stack and glibc 2.41 and later no longer make the
stack executable for a library dlopen loads (glibc 2.41 NEWS; conda-forge/pytorch-cpu-feedstock
#350: libtorch_cpu.so; easydiffusion#1921 and AUTOMATIC1111#17051: torch's bundled
libamdhip64.so). The errno says which refusal it was: EINVAL is that glibc rule
(`execstack_refused` = 1); another errno is another refusal of the same request (= 2). Read from
the line a rule's symptom matched, like compat.facts.rocmlog.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from compat.facts.logfacts import FactCollector

_EXECSTACK = re.compile(
    r"cannot enable executable stack as shared object requires(?::\s*(?P<errno>[A-Za-z][\w ]{0,40}))?"
)


def record(collector: FactCollector, text: str, line: int, source: str) -> None:
    """The loader's executable-stack refusal of one matched message line."""
    found = _EXECSTACK.search(text)
    if found is None:
        return
    errno = (found.group("errno") or "").strip()
    value = "1" if errno.startswith("Invalid argument") else "2"
    collector.add("build", "execstack_refused", value, line, text, source)
