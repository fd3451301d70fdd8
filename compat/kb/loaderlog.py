"""What the dynamic loader's refusal a log reports says about its cause: derived conditions
(issue 43, explain-rocm-5). Reads only the fact the failing run stated (compat.facts.loaderlog):
it is there only where a log printed the refusal, so it is never true of an installed
environment.
"""

from __future__ import annotations

from compat.kb.conditions import FALSE
from compat.model import Facts, Tri, Verdict


def executable_stack_refused(facts: Facts) -> Verdict:
    """The loader refused a library whose PT_GNU_STACK asks for an executable stack. With EINVAL
    (`Invalid argument`) that is glibc 2.41 and later, which no longer grant it to a library
    dlopen loads; with another errno, another refusal of the same request. Either way the
    message names the library and settles the cause: the library's executable-stack flag."""
    stated = facts.builds.get("execstack_refused")
    if stated is None:
        return FALSE
    if stated.major == 1:
        text = (
            "the library asks for an executable stack (its PT_GNU_STACK header) and glibc 2.41 "
            "and later no longer make the stack executable for a library dlopen loads (Invalid "
            "argument)"
        )
    else:
        text = (
            "the library asks for an executable stack (its PT_GNU_STACK header) and the system "
            "refused to make the stack executable"
        )
    return Verdict(Tri.TRUE, (text,))
