"""C++ symbol names as people read them: `__cxa_demangle` from libstdc++, through ctypes, loaded
on first use. Where libstdc++ is missing (musl, a slim image) the mangled name is the answer."""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import Any

# libstdc++'s demangler recurses; a name from a hostile file is cut off here and returned as it
# is. Real names are far shorter (libtorch's longest is under 3,000 characters).
MAX_MANGLED = 8192


@cache
def _library() -> tuple[Any, Any] | None:
    """(__cxa_demangle, free), or None where libstdc++ cannot be loaded."""
    try:
        stdcxx = ctypes.CDLL(ctypes.util.find_library("stdc++") or "libstdc++.so.6")
        libc = ctypes.CDLL(None)
        function = stdcxx.__cxa_demangle
        free = libc.free
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_void_p
    function.argtypes = [
        ctypes.c_char_p,
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_int),
    ]
    free.restype = None
    free.argtypes = [ctypes.c_void_p]
    return function, free


def demangle(symbol: str) -> str:
    """The demangled C++ name, or the symbol unchanged (not a C++ name, not valid, too long,
    or no demangler on this machine)."""
    if not symbol.startswith("_Z") or len(symbol) > MAX_MANGLED or "\0" in symbol:
        return symbol
    library = _library()
    if library is None:
        return symbol
    function, free = library
    try:
        raw = symbol.encode("ascii")
    except UnicodeEncodeError:
        return symbol
    status = ctypes.c_int(-1)
    pointer = function(raw, None, None, ctypes.byref(status))
    if not pointer:
        return symbol
    try:
        if status.value != 0:
            return symbol
        text: bytes = ctypes.string_at(pointer)
        return text.decode("utf-8", "replace")
    finally:
        free(pointer)
