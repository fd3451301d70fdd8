"""One installed Python module's source, read for what it imports and what it defines (issue 41),
without running it. Every file is hostile input: a bounded size, bytes in, and a syntax error,
deep nesting or non-UTF-8 text is a `SourceError` naming why, never an exception.

Two readers, cheap first:

- `scan_imports`: the import statements at column 0, read with one regular expression over the
  bytes. A statement at column 0 is a statement of the module's own body, outside every `try`,
  `if` (a version check, `TYPE_CHECKING`), `def` and `class`: it runs whenever the module is
  imported. Lines inside a triple-quoted string are left out; what a string could still fake is
  settled by `top_level_imports` (the `ast`) before anything is claimed.
- `read_defines`: what a module defines, from its `ast`: every name bound at module level under
  any branch (a conditional definition counts: when unsure, nothing is claimed missing), its
  `__all__`, the star imports and lazy tables whose names the caller resolves, and whether the
  names can be known at all (a `__getattr__`, `globals()` written to, `sys.modules` replaced by
  something that is not a lazy module over static tables).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import NamedTuple, cast

MAX_SOURCE = 8 * 1024 * 1024  # transformers' largest module is ~0.4 MiB


class SourceError(Exception):
    """The file cannot be read as Python source; the message says why, in one line."""


class Imported(NamedTuple):
    """One import statement at a module's top level: `from MODULE import NAMES` (names: the
    imported names, `*` for a star import) or `import MODULE` (names: None)."""

    line: int
    level: int  # relative import dots; 0 = absolute
    module: str
    names: tuple[str, ...] | None


class Defines(NamedTuple):
    """What a module defines, as far as its source says.

    `names`: every name bound at module level (any branch but `if TYPE_CHECKING:`), `__all__`'s
    entries and the strings of lazy tables. `dynamic`: why the names cannot be known statically
    ('' when they can, once the references below are resolved). `stars`: (level, module) of star
    imports; `dir_of`: (level, module) of modules whose every public name a lazy table takes
    (`[n for n in dir(dummy_pt_objects)]`); `structure`: the directories transformers'
    `define_import_structure` reads (`.`: the module's own package; `models`: that subpackage,
    every module under it); `all_names`: `__all__` when static, else None;
    `all_dynamic`: `__all__` is bound but not to literals.
    """

    names: frozenset[str]
    dynamic: str = ""
    stars: tuple[tuple[int, str], ...] = ()
    dir_of: tuple[tuple[int, str], ...] = ()
    structure: tuple[str, ...] = ()
    all_names: tuple[str, ...] | None = None
    all_dynamic: bool = False
    aliases: bool = False  # writes sys.modules entries of other modules (submodules may exist)
    # what makes the lazy module, whose __getattr__ must be read too: (level, dotted path of
    # the definition) from an import, (0, ".name") for a definition in this module, None if none
    lazy_from: tuple[int, str] | None = None


def read_source(path: str) -> bytes:
    """The file's bytes: a regular file (a FIFO or device under a module's name never blocks
    the read), at most MAX_SOURCE."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise SourceError("not a regular file")
            # os.read straight from the descriptor (a buffered file object around a dup of it
            # cost more than the read), sized by fstat, on until end of file or over the bound
            # (a file growing while read)
            asked = min(info.st_size, MAX_SOURCE) + 1
            chunks = [os.read(fd, asked)]
            total = len(chunks[0])
            # a read shorter than asked of a regular file ended at its end: no second read
            # (one system call fewer per file, ~35,000 on a cold run)
            while chunks[-1] and total <= MAX_SOURCE and total >= asked:
                chunks.append(os.read(fd, MAX_SOURCE + 1 - total))
                total += len(chunks[-1])
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        finally:
            os.close(fd)
    except (OSError, ValueError) as error:
        raise SourceError(f"cannot read ({error.__class__.__name__})") from None
    if len(data) > MAX_SOURCE:
        raise SourceError(f"larger than {MAX_SOURCE // (1024 * 1024)} MiB")
    return data


# --- the cheap scan ----------------------------------------------------------------------------

_STATEMENT = re.compile(
    rb"\n(?:from[ \t]+(?P<module>\.*[\w.]*)[ \t]+import[ \t]*(?P<names>\([^)]*\)|[^\n;#]*"
    rb"(?:\\\r?\n[^\n;#]*)*)|import[ \t]+(?P<plain>[^\n;#]+))"
)
_COMMENT = re.compile(rb"#[^\n]*")
_DOTTED: dict[str, bool] = {}  # module name -> whether it is dotted identifiers (memo: most recur)


def _is_dotted(module: str) -> bool:
    known = _DOTTED.get(module)
    if known is None:
        known = _DOTTED[module] = all(part.isidentifier() for part in module.split("."))
    return known


_PARSED: dict[bytes, tuple[tuple[int, str, tuple[str, ...] | None], ...]] = {}
_PARSED_MOST = 500_000  # statements remembered (a long-lived process starts again past it)
_new = tuple.__new__


def _parse_statement(text: bytes) -> tuple[tuple[int, str, tuple[str, ...] | None], ...]:
    """(level, module, names) of each import one matched statement makes (`import a, b`: two),
    none where its text is not a module name and names."""
    match = _STATEMENT.match(text)
    if match is None:
        return ()
    plain, names_raw = match.group("plain", "names")
    try:
        if plain is not None:
            found: list[tuple[int, str, tuple[str, ...] | None]] = []
            for part in plain.decode().split(","):
                module = part.split(" as ")[0].strip()
                if _is_dotted(module):
                    found.append((0, module, None))
            return tuple(found)
        spec = match.group("module").decode()
        raw = (_COMMENT.sub(b"", names_raw) if b"#" in names_raw else names_raw).decode()
    except UnicodeDecodeError:
        return ()
    level = len(spec) - len(spec.lstrip("."))
    module = spec[level:]
    if module and not _is_dotted(module):
        return ()
    if "\\" in raw:
        raw = raw.replace("\\", " ")
    names = []
    for part in raw.strip().strip("()").split(","):
        name = part.split(" as ")[0].strip()
        if name == "*" or name.isidentifier():
            names.append(name)
    return ((level, module, tuple(names)),) if names else ()


def scan_imports(data: bytes) -> list[Imported]:
    """The import statements at column 0 (module docstring), in file order."""
    if b"import" not in data:
        return []
    found: list[Imported] = []
    data = b"\n" + data  # every statement follows a newline: a literal the search skips to
    # counts up to the last match, carried forward: counting from the file's start at every
    # match made a long module with many imports quadratic
    seen = doubles = singles = line = 0
    count = data.count
    parsed = _PARSED
    if len(parsed) > _PARSED_MOST:
        parsed.clear()
    for match in _STATEMENT.finditer(data):
        start = match.start()
        doubles += count(b'"""', seen, start)
        singles += count(b"'''", seen, start)
        line += count(b"\n", seen, start + 1)
        seen = start + 1
        if doubles % 2 or singles % 2:
            continue  # inside a triple-quoted string (approximately: the ast settles claims)
        # a statement's text is read once per process: `from typing import Any` and its like
        # recur in thousands of files (~75,000 distinct of ~250,000 on a 300-distribution
        # environment)
        text = match.group()
        made = parsed.get(text)
        if made is None:
            made = parsed[text] = _parse_statement(text)
        for level, module, names in made:
            found.append(_new(Imported, (line, level, module, names)))
    return found


def scan_files(paths: list[str]) -> list[tuple[str, list[Imported] | str]]:
    """`scan_imports` of each file, or why it could not be read."""
    found: list[tuple[str, list[Imported] | str]] = []
    for path in paths:
        try:
            found.append((path, scan_imports(read_source(path))))
        except SourceError as error:
            found.append((path, str(error)))
    return found


def scan_worker() -> None:
    """One worker process's share of a cold run (compat.facts.pymodules.SourceCache
    .prefetch_imports): NUL-separated paths on stdin, `scan_files`' answer on stdout in
    marshal's format (plain tuples; read back only by the process that started this one)."""
    import gc
    import marshal
    import os
    import sys

    gc.disable()  # what it builds lives to its end, without cycles: the collector's passes cost
    paths = [os.fsdecode(p) for p in sys.stdin.buffer.read().split(b"\0") if p]
    found = [
        (path, imports if isinstance(imports, str) else [tuple(i) for i in imports])
        for path, imports in scan_files(paths)
    ]
    sys.stdout.buffer.write(marshal.dumps(found))


# searched for, then kept where it starts a line: `^` under re.M has no literal to skip to, and
# tried the pattern at every byte of the file
_ALL = re.compile(rb"__all__[ \t]*(?::[^=\n]*)?=[ \t]*[\[(]([^\])]*)[\])]")
_QUOTED = re.compile(rb"[\"']([A-Za-z_]\w*)[\"']")


def scan_all(data: bytes) -> tuple[str, ...] | None:
    """The names of a module's column-0 `__all__ = [...]` literal, read without the `ast` (as
    transformers' `define_import_structure` finds them); None where there is none, or more
    than one assignment or an extension of it (then the `ast` decides)."""
    found = []
    at = 0
    while (match := _ALL.search(data, at)) is not None:
        start = match.start()
        if start == 0 or data[start - 1] == 10:  # 10: a newline
            found.append(match.group(1))
            at = match.end()
        else:
            at = start + 1
    if len(found) != 1 or b"__all__ +=" in data or b"__all__.extend" in data:
        return None
    return tuple(n.decode() for n in _QUOTED.findall(found[0]))


def binds_at_top(data: bytes, name: str) -> bool:
    """Whether the source surely binds `name` on import, read without the `ast`: a column-0
    `def`/`class`/assignment/import of it, or, in a module that builds a lazy module, the name
    as a quoted string (its tables). Only a yes is an answer: a no asks the `ast`."""
    word = name.encode()
    lazy = b"__getattr__" in data or b"sys.modules[__name__]" in data
    size = len(word)
    at = data.find(word)
    while at >= 0:
        before = data[at - 1 : at] if at else b"\n"
        after = data[at + size : at + size + 1]
        if not (before.isalnum() or before == b"_" or after.isalnum() or after == b"_"):
            line = data.rfind(b"\n", 0, at) + 1
            prefix = data[line:at]
            rest = data[at + size : at + size + 8].lstrip(b" \t")[:1]
            if prefix in (b"def ", b"class ", b"async def "):
                return True
            if not prefix and rest and rest in b":=,":
                return True
            if prefix.startswith((b"from ", b"import ")) and b"#" not in prefix:
                return True
            if prefix.strip() == b"" or prefix.endswith((b", ", b"(")):
                opened = data.rfind(b"\nfrom ", 0, at)
                if opened >= 0 and b"(" in data[opened:at] and b")" not in data[opened:at]:
                    return True
            if lazy and before in (b'"', b"'") and after == before:
                return True
        at = data.find(word, at + size)
    return False


# --- the ast -----------------------------------------------------------------------------------


def parse(data: bytes, filename: str) -> ast.Module:
    """The module's tree; a `SourceError` for source Python cannot compile or that is too deep
    or too large to walk safely."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        if not data.startswith(b"#") or b"coding" not in data[:200]:
            raise SourceError(f"not UTF-8 (byte {error.start})") from None
    try:
        tree = ast.parse(data, filename=filename)
    except SyntaxError as error:
        raise SourceError(f"syntax error at line {error.lineno}: {error.msg}") from None
    except (ValueError, RecursionError, MemoryError, OverflowError) as error:
        raise SourceError(f"cannot be parsed ({error.__class__.__name__})") from None
    return tree


def top_level_imports(tree: ast.Module) -> set[tuple[int, int, str]]:
    """(line, level, module) of every `from` import among the module body's own statements: the
    ones that run on every import, outside any branch."""
    return {
        (node.lineno, node.level, node.module or "")
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
    } | {
        (node.lineno, 0, alias.name)
        for node in tree.body
        if isinstance(node, ast.Import)
        for alias in node.names
    }


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_call(node: ast.AST, *names: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in names
        and not node.args
        and not node.keywords
    )


def _is_sys_modules(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "modules"
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "sys"
    )


_READS = frozenset({"get", "keys", "items", "values", "copy", "__contains__", "__getitem__"})
_LOADER_ARGS = frozenset({"__name__", "__file__", "__spec__", "__path__", "_file"})


class _Reader:
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.stars: list[tuple[int, str]] = []
        self.dir_of: list[tuple[int, str]] = []
        self.modules: dict[str, tuple[int, str]] = {}  # bound name -> (level, module)
        self.assigned: dict[str, list[ast.expr]] = {}  # module-level name -> values assigned
        self.updates: dict[str, list[ast.expr]] = {}  # table name -> values put into it
        self.all_values: list[ast.expr] = []
        self.all_dynamic = False
        self.dynamic = ""
        self.lazy_args: list[ast.expr] = []
        self.aliases = False
        self.module_objects: set[str] = set()  # names bound to sys.modules[...]
        self.structures: list[str] = []  # define_import_structure's directories
        self.lazy_callee = ""  # what makes the lazy module: `_LazyModule`, `lazy.attach`
        self.local_defs: set[str] = set()

    # module-level statements, through every branch but TYPE_CHECKING
    def body(self, statements: list[ast.stmt]) -> None:
        for node in statements:
            self.statement(node)

    def statement(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.names.add(node.name)
            self.local_defs.add(node.name)
            if node.name == "__getattr__":
                self.dynamic = self.dynamic or "a module __getattr__ (def)"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                self.names.add(bound)
                if alias.asname:
                    self.modules[bound] = (0, alias.name)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    self.stars.append((node.level, node.module or ""))
                    continue
                bound = alias.asname or alias.name
                self.names.add(bound)
                base = node.module or ""
                self.modules[bound] = (node.level, f"{base}.{alias.name}" if base else alias.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self.target(target, node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            if node.value is not None:
                self.target(node.target, node.value, augmented=isinstance(node, ast.AugAssign))
            elif isinstance(node.target, ast.Name):
                self.names.add(node.target.id)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                self.body(node.body)
            self.body(node.orelse)
        elif type(node).__name__ in ("Try", "TryStar"):  # TryStar: Python 3.11+
            block = cast(ast.Try, node)
            self.body(block.body)
            for handler in block.handlers:
                self.body(handler.body)
            self.body(block.orelse)
            self.body(block.finalbody)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    self.target(item.optional_vars, None)
            self.body(node.body)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            if isinstance(node, (ast.For, ast.AsyncFor)):
                self.target(node.target, None)
            self.body(node.body)
            self.body(node.orelse)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            self.call(node.value)
        elif isinstance(node, ast.Match):
            for case in node.cases:
                self.body(case.body)

    def target(self, target: ast.expr, value: ast.expr | None, augmented: bool = False) -> None:
        if isinstance(target, ast.Name):
            self.names.add(target.id)
            if value is not None and _is_sys_modules(value):
                self.module_objects.add(target.id)
            if value is not None:
                self.assigned.setdefault(target.id, []).append(value)
                if target.id == "__all__":
                    self.all_values.append(value)
                if target.id == "__getattr__" and not augmented:
                    self.lazy(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                inner = element.value if isinstance(element, ast.Starred) else element
                if isinstance(inner, ast.Name) and inner.id == "__all__":
                    self.all_dynamic = True  # bound from a call: resolved with the lazy tables
                    self.names.add("__all__")
                    continue
                self.target(inner, value if isinstance(inner, ast.Name) else None)
        elif isinstance(target, ast.Subscript):
            if _is_sys_modules(target):
                key = target.slice
                if isinstance(key, ast.Name) and key.id == "__name__":
                    if value is not None and isinstance(value, ast.Call):
                        self.lazy(value)
                    else:
                        self.dynamic = self.dynamic or "sys.modules[__name__] replaced"
                else:
                    self.aliases = True
            elif isinstance(target.value, ast.Name) and value is not None:
                self.updates.setdefault(target.value.id, []).append(value)
            elif (
                isinstance(target.value, ast.Call) and _is_call(target.value, "globals", "vars")
            ) or (isinstance(target.value, ast.Attribute) and target.value.attr == "__dict__"):
                self.dynamic = self.dynamic or "globals() written to"
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Subscript)
            and _is_sys_modules(target.value)
        ):
            self.dynamic = self.dynamic or "an attribute set on sys.modules[...]"

    def lazy(self, value: ast.expr) -> None:
        """`__getattr__ = attach(...)`, `sys.modules[__name__] = _LazyModule(...)`: a lazy module
        whose names its static tables hold."""
        if not isinstance(value, ast.Call):
            self.dynamic = self.dynamic or "a module __getattr__ bound to an expression"
            return
        func = value.func
        if isinstance(func, ast.Name):
            self.lazy_callee = func.id
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            self.lazy_callee = f"{func.value.id}.{func.attr}"
        else:
            self.dynamic = self.dynamic or "a lazy module made by an expression"
        self.lazy_args.extend(value.args)
        self.lazy_args.extend(k.value for k in value.keywords)

    def call(self, call: ast.Call) -> None:
        func = call.func
        if isinstance(func, ast.Name) and func.id in ("exec", "setattr"):
            first = call.args[0] if call.args else None
            if func.id == "exec" or (
                first is not None
                and (
                    (isinstance(first, ast.Subscript) and _is_sys_modules(first))
                    or (isinstance(first, ast.Name) and first.id in self.module_objects)
                )
            ):
                self.dynamic = self.dynamic or f"{func.id}() on the module at module level"
        elif isinstance(func, ast.Attribute):
            owner = func.value
            if isinstance(owner, ast.Subscript) and isinstance(owner.value, ast.Name):
                owner = owner.value  # _import_structure["x"].extend([...])
            if isinstance(owner, ast.Name) and func.attr in ("extend", "append", "update"):
                for arg in call.args:
                    self.updates.setdefault(owner.id, []).append(arg)
                    if owner.id == "__all__":
                        self.all_values.append(arg)

    def globals_written(self, tree: ast.Module, data: bytes | None = None) -> None:
        """`globals()`/`vars()` handed on or written to anywhere, even in a function a
        module-level call runs: its names are then not all in the source. `sys.modules` written
        anywhere: modules may exist that no file is. With the source's bytes, only the nodes
        whose lines spell one of the names these checks look for are visited (_hinted)."""
        for node in ast.walk(tree) if data is None else _hinted(tree, data):
            if isinstance(node, ast.Subscript) and _is_sys_modules(node):
                if isinstance(node.ctx, ast.Store) and not (
                    isinstance(node.slice, ast.Name) and node.slice.id == "__name__"
                ):
                    self.aliases = True
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("setdefault", "update", "__setitem__")
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "modules"
            ):
                self.aliases = True
            if isinstance(node, ast.Attribute) and node.attr in ("meta_path", "path_hooks"):
                self.aliases = True  # an import hook: modules may exist that no file is
            if (
                isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr))
                and node.value is not None
                and _is_call(node.value, "globals", "vars")
            ):
                self.dynamic = self.dynamic or "globals() bound to a name"  # protobuf's _pb2
            if isinstance(node, ast.Subscript) and _is_call(node.value, "globals", "vars"):
                if isinstance(node.ctx, ast.Store):
                    self.dynamic = self.dynamic or "globals() written to"
            elif isinstance(node, ast.Attribute) and _is_call(node.value, "globals", "vars"):
                if node.attr not in _READS:
                    self.dynamic = self.dynamic or f"globals().{node.attr}()"
            elif isinstance(node, ast.Call):
                args = list(node.args) + [k.value for k in node.keywords]
                if any(_is_call(arg, "globals", "vars", "locals") for arg in args):
                    self.dynamic = self.dynamic or "globals() handed to a call"

    def strings(self, value: ast.expr, seen: set[str]) -> bool:
        """Collect the strings of a static table expression (dict and list literals, names
        bound to them, `[n for n in dir(submodule)]`, `define_import_structure(...)`); False
        where part of it is not static."""
        local = {
            name.id
            for node in ast.walk(value)
            if isinstance(node, ast.comprehension)
            for name in ast.walk(node.target)
            if isinstance(name, ast.Name)
        }
        return self._visit(value, seen, local)

    def _visit(self, node: ast.AST, seen: set[str], local: set[str]) -> bool:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                self.names.add(node.value)
            return True
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load) or node.id in local or node.id in _LOADER_ARGS:
                return True
            if node.id in self.modules or node.id in _SAFE_CALLS:
                return True
            if node.id in self.assigned:
                if node.id in seen:
                    return True
                seen.add(node.id)
                ok = True
                for assigned in self.assigned[node.id] + self.updates.get(node.id, []):
                    ok = self.strings(assigned, seen) and ok
                return ok
            return False
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else ""
            arg = node.args[0] if node.args else None
            if name in ("dir", "get_objects_from_module") and isinstance(arg, ast.Name):
                where = self.modules.get(arg.id)
                if where is None:
                    return False
                self.dir_of.append(where)
                return True
            if name == "define_import_structure":
                # transformers reads the `__all__` of every module of a directory: its own
                # (`__file__`) or a subpackage named by a string (`Path(__file__).parent / "models"`)
                under = [
                    n.value
                    for n in (ast.walk(arg) if arg is not None else ())
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                ]
                self.structures.append(under[0] if under else ".")
                return True
            if isinstance(func, ast.Attribute):
                if func.attr not in _SAFE_METHODS:
                    return False
                ok = self._visit(func.value, seen, local)
            elif name in _SAFE_CALLS:
                ok = True
            else:
                return False
            for child in [*node.args, *(k.value for k in node.keywords)]:
                ok = self._visit(child, seen, local) and ok
            return ok
        ok = True
        for inner in ast.iter_child_nodes(node):
            ok = self._visit(inner, seen, local) and ok
        return ok


_SAFE_CALLS = frozenset({"globals", "dict", "list", "set", "frozenset", "tuple", "sorted"})
_SAFE_METHODS = frozenset(
    {"items", "keys", "values", "copy", "startswith", "get", "update", "setdefault", "union"}
)


_DYNAMIC_HINTS = re.compile(
    rb"(?<![\w.])(?:globals|vars|locals)\(|sys\.modules|meta_path|path_hooks"
)


# every check of `_Reader.globals_written` looks at a node holding one of these names (an
# attribute `modules`, `meta_path`, `path_hooks`; a call of `globals`, `vars`, `locals`)
_HINT_WORDS = re.compile(rb"\b(?:modules|meta_path|path_hooks|globals|vars|locals)\b")


def _hinted(tree: ast.Module, data: bytes) -> Iterator[ast.AST]:
    """The nodes `ast.walk` yields, in its order, less every node (and what it holds) whose
    lines hold none of `_HINT_WORDS`: a node's checks look at a name within its own lines, so
    the nodes left out answer none of them. A 0.4 MB module's full walk cost ~0.1 s. The full
    walk where the bytes' lines could differ from the parser's (a lone CR ends a line too) or
    an identifier could be spelled in other than ASCII (NFKC makes it `globals`)."""
    if b"\r" in data or not data.isascii():
        yield from ast.walk(tree)
        return
    from bisect import bisect_left
    from collections import deque

    lines: list[int] = []  # 1-based numbers of the lines holding a hint, ascending
    seen = line = 0
    for match in _HINT_WORDS.finditer(data):
        line += data.count(b"\n", seen, match.start())
        seen = match.start()
        if not lines or lines[-1] != line + 1:
            lines.append(line + 1)
    todo: deque[ast.AST] = deque([tree])
    while todo:
        node = todo.popleft()
        for child in ast.iter_child_nodes(node):
            start = getattr(child, "lineno", None)
            if start is not None:
                end = getattr(child, "end_lineno", None) or start
                for decorator in getattr(child, "decorator_list", ()):
                    start = min(start, decorator.lineno)  # above a def's own line
                at = bisect_left(lines, start)
                if at == len(lines) or lines[at] > end:
                    continue
            todo.append(child)
        yield node


def read_defines(tree: ast.Module, data: bytes | None = None) -> Defines:
    """What the module's source defines (see `Defines`). With the source's bytes, the walk of
    every node for `globals()` and `sys.modules` is skipped where neither is spelled."""
    reader = _Reader()
    reader.body(tree.body)
    if data is None or _DYNAMIC_HINTS.search(data):
        reader.globals_written(tree, data)
    if reader.lazy_args and not reader.dynamic:
        seen: set[str] = set()
        for arg in reader.lazy_args:
            if not reader.strings(arg, seen):
                reader.dynamic = "a lazy module over a table that is not static"
    lazy_from: tuple[int, str] | None = None
    if reader.lazy_args and not reader.dynamic:
        head, _, rest = reader.lazy_callee.partition(".")
        if head in reader.local_defs and not rest:
            lazy_from = (0, "." + head)
        elif head in reader.modules:
            level, where = reader.modules[head]
            lazy_from = (level, f"{where}.{rest}" if rest else where)
        else:
            reader.dynamic = f"a lazy module made by {reader.lazy_callee or 'a call'}, not found"
    if "__path__" in reader.names:
        reader.aliases = True  # a package that extends its own search path
    all_names: tuple[str, ...] | None = None
    if reader.all_values and not reader.all_dynamic:
        collected: list[str] = []
        for value in reader.all_values:
            if isinstance(value, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
            ):
                collected.extend(str(e.value) for e in value.elts if isinstance(e, ast.Constant))
            elif isinstance(value, ast.Constant) and isinstance(value.value, str):
                collected.append(value.value)
            else:
                reader.all_dynamic = True
                break
        if not reader.all_dynamic:
            all_names = tuple(collected)
            reader.names.update(collected)
    return Defines(
        names=frozenset(reader.names),
        dynamic=reader.dynamic,
        stars=tuple(reader.stars),
        dir_of=tuple(dict.fromkeys(reader.dir_of)),
        structure=tuple(dict.fromkeys(reader.structures)),
        all_names=all_names,
        all_dynamic=reader.all_dynamic,
        aliases=reader.aliases,
        lazy_from=lazy_from,
    )


def find_definition(tree: ast.Module, name: str) -> ast.AST | tuple[int, str] | None:
    """The module-level class or function `name` of the tree (any branch but TYPE_CHECKING), or
    (level, dotted path) of the import that binds it, or None."""
    todo: list[ast.stmt] = list(tree.body)
    found: ast.AST | tuple[int, str] | None = None
    while todo:
        node = todo.pop(0)
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == name:
            return node
        if isinstance(node, ast.ImportFrom) and found is None:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    base = node.module or ""
                    found = (node.level, f"{base}.{alias.name}" if base else alias.name)
        elif isinstance(node, ast.If):
            todo.extend(node.orelse if _is_type_checking(node.test) else node.body + node.orelse)
        elif type(node).__name__ in ("Try", "TryStar"):
            block = cast(ast.Try, node)
            todo.extend(block.body + block.orelse + block.finalbody)
    return found


_NAME_USES = frozenset(
    {
        "getattr",
        "hasattr",
        "setattr",
        "import_module",
        "_get_module",
        "get",
        "AttributeError",
        "warn",
    }
)


def static_getattr(definition: ast.AST) -> bool:
    """Whether the `__getattr__` a lazy module's class (or factory function) defines answers
    only the names of its tables: the name it is asked is compared, looked up, imported as a
    submodule or shown, never rewritten (transformers 5 maps `XTokenizerFast` to `XTokenizer`
    by its suffix: such a module's names are not in its source)."""
    getattr_def = next(
        (
            node
            for node in ast.walk(definition)
            if isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
        ),
        None,
    )
    if getattr_def is None:
        return False
    params = [a.arg for a in getattr_def.args.args if a.arg != "self"]
    if not params:
        return False
    param = params[0]
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(getattr_def):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(getattr_def):
        if not (isinstance(node, ast.Name) and node.id == param):
            continue
        parent = parents.get(node)
        if isinstance(parent, (ast.Compare, ast.FormattedValue, ast.JoinedStr, ast.keyword)):
            continue
        if isinstance(parent, ast.Subscript) and parent.slice is node:
            continue
        if isinstance(parent, ast.Call) and node in parent.args:
            func = parent.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if called in _NAME_USES:
                continue
        if isinstance(parent, ast.arguments):
            continue
        return False
    return True
