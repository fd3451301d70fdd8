"""What the installed Python sources say will fail at import (issue 41): a distribution's module
imports, at its top level, a name another installed distribution's module does not define.

Findings are `observed`: both sides are read from the installed files. Only imports across
distributions are judged (a package's imports of itself are its own business), only the
statements that run on every import (column 0: outside `try`, `if` and functions; the `ast`
confirms each before it is claimed), and only against a module whose names can be known: a
module with a `__getattr__`, written-to `globals()`, or a star import from an extension module
is a note, never a finding. A name counts as defined when any branch of the module binds it,
when `__all__` or a lazy table (transformers' `_import_structure`, `define_import_structure`,
diffusers' tables, `lazy_loader.attach`'s) lists it, when a star import brings it, or when it is
a submodule on disk.

`affected`: the importing module is run by `import <package>` (followed from the package's
`__init__` through its own top-level imports); else `possible`, naming the module that fails.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, cast

from compat.files.pysource import Defines, Imported
from compat.kb.verified import verified_finding
from compat.model import (
    Environment,
    Evidence,
    Finding,
    Fix,
    MatchedPackage,
    Origin,
    Severity,
    Status,
    Unknown,
)

if TYPE_CHECKING:
    from packaging.utils import NormalizedName

KIND = "python"
_EXAMPLES = 3


class _File(Protocol):
    @property
    def dist(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def kind(self) -> str: ...


class Modules(Protocol):
    """An environment's modules (compat.facts.pymodules.PyModules)."""

    @property
    def modules(self) -> Mapping[str, _File]: ...
    @property
    def namespaces(self) -> frozenset[str]: ...
    @property
    def tops(self) -> Mapping[str, tuple[str, ...]]: ...
    @property
    def scanned(self) -> tuple[tuple[str, str], ...]: ...


class Sources(Protocol):
    """Reads a source file's imports and definitions (compat.facts.pymodules.SourceCache)."""

    def imports(self, path: str) -> list[Imported] | str: ...
    def defines(self, path: str) -> Defines | str: ...
    def top_level(self, path: str) -> set[tuple[int, int, str]] | str: ...
    def all_names(self, path: str) -> tuple[str, ...] | None: ...
    def binds(self, path: str, names: set[str]) -> set[str]: ...
    def exports_cheaply(self, path: str, name: str) -> bool: ...
    def lazy_is_static(self, path: str, name: str) -> bool | tuple[int, str]: ...


@dataclass
class PythonJudgement:
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    document: dict[str, Any] = field(default_factory=dict)  # the report's environment.python
    # the files the findings and notes rest on, beyond what the RECORDs vouch for: the importing
    # files, the modules lacking the names, the files that could not be read (a hand edit of
    # one of them must change the answer: compat.facts.pymodules.Summary watches them)
    watched: set[str] = field(default_factory=set)


class _Site(NamedTuple):
    module: str  # the importing module
    path: str
    line: int


class _Claim(NamedTuple):
    dist: str  # the importing distribution
    module: str  # the module imported from
    name: str  # the name it lacks ('' when the module itself is missing)


def absolute(module: str, is_package: bool, level: int, target: str) -> str:
    """The absolute name of a relative import `from <level dots><target>` in `module`."""
    parts = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    base = ".".join(parts)
    return f"{base}.{target}" if target and base else (target or base)


class _Names:
    """The names a module defines, star imports and lazy tables resolved, memoized."""

    def __init__(self, mods: Modules, sources: Sources, unreadable: dict[str, str]) -> None:
        self.mods = mods
        self.sources = sources
        self.unreadable = unreadable
        self.memo: dict[str, tuple[frozenset[str], str]] = {}
        self.busy: set[str] = set()
        self._children: dict[str, list[str]] | None = None
        self.structures: dict[str, frozenset[str]] = {}
        self.lazies: dict[str, bool] = {}
        self.read: dict[str, Defines | str] = {}

    def children(self) -> dict[str, list[str]]:
        """package -> its modules on disk (built once, when a table needs them)."""
        if self._children is None:
            self._children = {}
            for name in self.mods.modules:
                parent, _, _ = name.rpartition(".")
                if parent:
                    self._children.setdefault(parent, []).append(name)
        return self._children

    def defines(self, module: str) -> Defines | str:
        if module not in self.read:
            self.read[module] = self._defines(module)
        return self.read[module]

    def _defines(self, module: str) -> Defines | str:
        file = self.mods.modules.get(module)
        if file is None:
            return "not a module on disk"
        if file.kind == "ext":
            return "an extension module"
        found = self.sources.defines(file.path)
        if isinstance(found, str):
            self.unreadable[file.path] = found
            return f"its source could not be read ({found})"
        return found

    def names(self, module: str) -> tuple[frozenset[str], str]:
        """(names, why they are not all known: '' when they are)."""
        if module in self.memo:
            return self.memo[module]
        if module in self.busy:
            return frozenset(), ""  # a star-import circle: the outer call holds the names
        self.busy.add(module)
        try:
            result = self._names(module)
        finally:
            self.busy.discard(module)
        self.memo[module] = result
        return result

    def _names(self, module: str) -> tuple[frozenset[str], str]:
        found = self.defines(module)
        if isinstance(found, str):
            return frozenset(), found
        file = self.mods.modules[module]
        package = file.kind == "pkg"
        names = set(found.names)
        why = found.dynamic
        for level, target in found.stars:
            where = absolute(module, package, level, target) if level else target
            exported = self.exports(where)
            if exported is None:
                why = why or f"a star import from {where}, whose names cannot be read"
            else:
                names.update(exported)
        for level, target in found.dir_of:
            where = absolute(module, package, level, target) if level else target
            more, unknown = self.names(where)
            names.update(n for n in more if not n.startswith("_"))
            why = why or unknown
        return frozenset(names), why

    def structure(self, module: str) -> frozenset[str]:
        """The names of the modules transformers' `define_import_structure` reads for the
        module's lazy table: read only when a name is not among the others (parsing a directory
        of modules costs)."""
        found = self.defines(module)
        if isinstance(found, str) or not found.structure:
            return frozenset()
        if module in self.structures:
            return self.structures[module]
        names: set[str] = set()
        children = self.children()
        for under in found.structure:
            packages = [module] if under == "." else [f"{module}.{under}"]
            i = 0
            while under != "." and i < len(packages):
                packages += [c for c in children.get(packages[i], ()) if c in children]
                i += 1
            for package in packages:
                for other in children.get(package, ()):
                    file = self.mods.modules[other]
                    if file.kind != "py":
                        continue  # a subpackage's modules are in `packages`; an extension: none
                    listed = self.sources.all_names(file.path)
                    # transformers exports a module's `__all__`: read cheaply where it is one
                    # literal, else every name the module defines
                    names.update(listed if listed is not None else self.names(other)[0])
        self.structures[module] = frozenset(names)
        return self.structures[module]

    def lazy_static(self, module: str) -> bool:
        """Whether the module's lazy `__getattr__` (if it has one) answers only its tables,
        following the import of its class or factory (at most a few hops)."""
        found = self.defines(module)
        if isinstance(found, str):
            return False
        if found.lazy_from is None:
            return True
        if module in self.lazies:
            return self.lazies[module]
        level, dotted = found.lazy_from
        where, package = module, self.mods.modules[module].kind == "pkg"
        answer = False
        for _hop in range(6):
            if dotted.startswith("."):
                target, name = where, dotted[1:]
            else:
                full = absolute(where, package, level, dotted) if level else dotted
                target, _, name = full.rpartition(".")
            file = self.mods.modules.get(target)
            if file is None or file.kind == "ext":
                break
            result = self.sources.lazy_is_static(file.path, name)
            if isinstance(result, bool):
                answer = result
                break
            where, package = target, file.kind == "pkg"
            level, dotted = result
        self.lazies[module] = answer
        return answer

    def star_exports(self, module: str, name: str) -> bool:
        """Whether one of the module's star imports surely brings `name`, read cheaply from the
        star-imported module's bytes (`Sources.exports_cheaply`): scipy.stats' names come
        from `from ._stats_py import *` and a dozen like it, whose `ast` (0.4 MB of source
        each) the answer then does not need."""
        file = self.mods.modules[module]
        imports = self.sources.imports(file.path)  # column 0: every one runs, no ast needed
        if isinstance(imports, str):
            return False
        for imp in imports:
            if imp.names is None or "*" not in imp.names:
                continue
            where = (
                absolute(module, file.kind == "pkg", imp.level, imp.module)
                if imp.level
                else imp.module
            )
            star = self.mods.modules.get(where)
            if (
                star is not None
                and star.kind != "ext"
                and self.sources.exports_cheaply(star.path, name)
            ):
                return True
        return False

    def exports(self, module: str) -> set[str] | None:
        """What `from module import *` binds, or None where that cannot be known."""
        found = self.defines(module)
        if isinstance(found, str) or found.dynamic:
            return None
        if found.all_names is not None:
            return set(found.all_names)
        if found.all_dynamic:
            return None
        names, why = self.names(module)
        if why:
            return None
        return {n for n in names if not n.startswith("_")}


def judge_imports(mods: Modules, sources: Sources, env: Environment) -> PythonJudgement:
    """Every cross-distribution top-level import of the environment checked (module docstring)."""
    versions = {str(name): str(p.version) for name, p in env.packages.items()}
    unreadable: dict[str, str] = {}
    resolver = _Names(mods, sources, unreadable)
    claims: dict[_Claim, list[_Site]] = {}
    unknown: dict[str, tuple[str, int]] = {}  # module -> (why, imports not checked)
    checked = 0
    modules = mods.modules
    # the owner of each module imported, found once: a cold run asks ~200k times for ~25k
    # modules (`os`, `typing`, `torch` again and again)
    owners: dict[str, str | None] = {}
    for importer, path in mods.scanned:
        dist = modules[importer].dist
        imports = sources.imports(path)
        if isinstance(imports, str):
            unreadable[path] = imports
            continue
        for imp in imports:
            if imp.level:
                continue  # relative: the package's own
            module = imp.module
            if module in owners:
                owner = owners[module]
            else:
                owner = owners[module] = _owner(mods, module)
            if owner is None or owner == dist:
                continue
            checked += 1
            site = _Site(importer, path, imp.line)
            if imp.names is None:
                if imp.module in modules or imp.module in mods.namespaces:
                    continue
                missing = _missing_module(mods, resolver, imp.module)
                if missing is not None:
                    claims.setdefault(_Claim(dist, missing, ""), []).append(site)
                continue
            target = modules.get(imp.module)
            if target is None:
                if imp.module not in mods.namespaces:
                    missing = _missing_module(mods, resolver, imp.module)
                    if missing is not None:
                        claims.setdefault(_Claim(dist, missing, ""), []).append(site)
                continue  # a namespace package: its other portions may lie anywhere
            asked = {
                n
                for n in imp.names
                if n != "*"
                and f"{imp.module}.{n}" not in modules
                and f"{imp.module}.{n}" not in mods.namespaces
            }
            if asked and target.kind != "ext":
                asked -= sources.binds(target.path, asked)  # the cheap yes first
            for name in sorted(asked):
                if target.kind == "ext":
                    _count(unknown, imp.module, "an extension module")
                    continue
                if resolver.star_exports(imp.module, name):
                    continue  # the cheap yes again, before the star-imported module's ast
                names, why = resolver.names(imp.module)
                if name in names or name in resolver.structure(imp.module):
                    continue
                if not why and not resolver.lazy_static(imp.module):
                    why = "a lazy module whose __getattr__ answers more than its tables"
                if why:
                    _count(unknown, imp.module, why)
                    continue
                claims.setdefault(_Claim(dist, imp.module, name), []).append(site)
    judgement = PythonJudgement()
    confirmed = _confirmed(claims, sources, unreadable)
    reach: dict[str, dict[tuple[str, int], int]] = {}
    judgement.watched.update(unreadable)
    for claim, sites in sorted(confirmed.items()):
        judgement.watched.update(site.path for site in sites)
        target = mods.modules.get(claim.module)
        if target is not None:
            judgement.watched.add(target.path)
        if claim.dist not in reach:
            reach[claim.dist] = _reached(mods, sources, claim.dist)
        judgement.findings.append(_finding(claim, sites, reach[claim.dist], mods, versions))
    _notes(judgement, len(mods.scanned), checked, unknown, unreadable)
    judgement.document = {
        "files": len(mods.scanned),
        "imports_checked": checked,
        "findings": len(judgement.findings),
        "unknown_modules": [
            {"module": m, "why": why, "imports": n} for m, (why, n) in sorted(unknown.items())
        ],
        "unreadable": [{"path": p, "problem": why} for p, why in sorted(unreadable.items())],
    }
    return judgement


def _count(unknown: dict[str, tuple[str, int]], module: str, why: str) -> None:
    previous = unknown.get(module)
    unknown[module] = (why, (previous[1] if previous else 0) + 1)


def _owner(mods: Modules, module: str) -> str | None:
    """The distribution owning the longest existing prefix of `module`."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        file = mods.modules.get(".".join(parts[:end]))
        if file is not None:
            return file.dist
    return None


def _missing_module(mods: Modules, resolver: _Names, module: str) -> str | None:
    """`module` when importing it surely fails with ModuleNotFoundError: its nearest existing
    ancestor is a regular package (no extension, no namespace, no sys.modules or __path__
    games in any ancestor); else None."""
    parts = module.split(".")
    for end in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:end])
        if prefix in mods.namespaces:
            return None
        file = mods.modules.get(prefix)
        if file is None:
            continue
        for up in range(end, 0, -1):
            ancestor = ".".join(parts[:up])
            found = resolver.defines(ancestor)
            if isinstance(found, str) or found.aliases or found.dynamic:
                return None
        if file.kind != "pkg":
            return None  # a plain module with submodules only sys.modules could hold
        return ".".join(parts[: end + 1])
    return None


def _confirmed(
    claims: Mapping[_Claim, list[_Site]], sources: Sources, unreadable: dict[str, str]
) -> dict[_Claim, list[_Site]]:
    """The claims whose import statement the `ast` shows in the module's own body."""
    tops: dict[str, set[tuple[int, int, str]] | str] = {}
    kept: dict[_Claim, list[_Site]] = {}
    for claim, sites in claims.items():
        for site in sites:
            if site.path not in tops:
                tops[site.path] = sources.top_level(site.path)
            top = tops[site.path]
            if isinstance(top, str):
                unreadable[site.path] = top
                continue
            statement_module = claim.module if claim.name else None
            if any(line == site.line and level == 0 for line, level, _ in top) and (
                statement_module is None or (site.line, 0, statement_module) in top
            ):
                kept.setdefault(claim, []).append(site)
    return kept


def _reached(mods: Modules, sources: Sources, dist: str) -> dict[tuple[str, int], int]:
    """The import statements `import <top>` runs for each of the distribution's top-level
    packages, (path, line) -> the order Python runs them in.

    Python runs a module's column-0 statements in line order, and an import of one of the
    distribution's own modules not yet imported runs that module (its parent packages first)
    before the next statement: the walk does the same, depth first, so the statement with the
    lowest rank among failing ones is the one the real `import` stops at. Imports of other
    distributions' modules are not followed (their failures are their own findings)."""
    modules = mods.modules
    order: dict[tuple[str, int], int] = {}
    started: set[str] = set()

    def own(target: str) -> list[str]:
        """`target` and its parent packages, outermost first, that are this distribution's."""
        parts = target.split(".")
        chain = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
        return [m for m in chain if m in modules and modules[m].dist == dist]

    # frames: (module, its imports once it runs, the next statement); None: not run yet
    stack: list[tuple[str, list[Imported] | None, int]] = []
    for top in mods.tops.get(dist, ()):
        if top in modules:
            stack.append((top, None, 0))
        while stack:
            module, imports, at = stack.pop()
            file = modules[module]
            if imports is None:
                if module in started:
                    continue  # already run (or running: a circular import goes on)
                started.add(module)
                found = sources.imports(file.path) if file.kind != "ext" else []
                imports = found if isinstance(found, list) else []
            if at >= len(imports):
                continue
            stack.append((module, imports, at + 1))  # resumed after what this statement runs
            imp = imports[at]
            order.setdefault((file.path, imp.line), len(order))
            base = (
                absolute(module, file.kind == "pkg", imp.level, imp.module)
                if imp.level
                else imp.module
            )
            if not base:
                continue
            targets = own(base)
            if imp.names:  # `from pkg import sub`: the submodule runs after the package
                targets += [
                    f"{base}.{n}"
                    for n in imp.names
                    if n != "*" and f"{base}.{n}" in modules and modules[f"{base}.{n}"].dist == dist
                ]
            for target in reversed(list(dict.fromkeys(targets))):
                if target not in started:
                    stack.append((target, None, 0))  # the first to run ends on top
    return order


def _name(package: str) -> NormalizedName:
    return cast("NormalizedName", package)


def _finding(
    claim: _Claim,
    sites: Sequence[_Site],
    reached: Mapping[tuple[str, int], int],
    mods: Modules,
    versions: Mapping[str, str],
) -> Finding:
    # the statement the real `import` runs first leads: that is where it stops
    late = len(reached)
    ordered = sorted(sites, key=lambda s: (reached.get((s.path, s.line), late), s.path, s.line))
    first = ordered[0]
    affected = (first.path, first.line) in reached
    version = versions.get(claim.dist, "")
    owner = _owner(mods, claim.module) or claim.module.split(".")[0]
    owner_version = versions.get(owner, "")
    tops = mods.tops.get(claim.dist, ())
    top = tops[0] if tops else claim.dist
    if claim.name:
        statement = f"from {claim.module} import {claim.name}"
        error = f"ImportError: cannot import name '{claim.name}' from '{claim.module}'"
        lacks = f"the installed {owner} {owner_version} does not define `{claim.name}` in {claim.module}"
    else:
        statement = f"import {claim.module}"
        error = f"ModuleNotFoundError: No module named '{claim.module}'"
        lacks = f"the installed {owner} {owner_version} has no module {claim.module}"
    when = (
        f"`import {first.module.split('.')[0] if first.module.split('.')[0] in tops else top}` fails"
        if affected
        else f"importing {first.module} fails (`import {top}` does not import it)"
    )
    title = f"{claim.dist} {version}: `{statement}` ({first.module}): {lacks}; {when} with {error}"
    matched = [f"{s.path}:{s.line}: {statement} (module {s.module})" for s in ordered[:_EXAMPLES]]
    if len(ordered) > _EXAMPLES:
        matched.append(f"and {len(ordered) - _EXAMPLES} more imports of it in {claim.dist}")
    target = mods.modules.get(claim.module)
    if target is not None and claim.name:
        matched.append(
            f"{target.path}: defines no `{claim.name}` and has no submodule of that name"
        )
    what = f"`{claim.name}`" if claim.name else f"the module {claim.module}"
    fix = Fix(
        f"install a release of {owner} that still provides {what} (the installed "
        f"{owner_version} does not), or a release of {claim.dist} that no longer imports it"
    )
    unknown: tuple[Unknown, ...] = ()
    if not affected:
        unknown = (
            Unknown(
                f"python.imports.{first.module}",
                f"whether the code run imports {first.module} (`import {top}` does not)",
            ),
        )
    finding = verified_finding(
        id=f"python-import:{claim.dist}:{claim.module}" + (f":{claim.name}" if claim.name else ""),
        title=title,
        fix=fix,
        kind=KIND,
        origin=Origin(first.path, first.line),
        packages=(
            MatchedPackage(_name(claim.dist), version, Origin(first.path, first.line)),
            MatchedPackage(_name(owner), owner_version),
        ),
        matched=tuple(matched),
        severity=Severity.ERROR,
        evidence=Evidence.OBSERVED,
        status=Status.AFFECTED if affected else Status.POSSIBLE,
    )
    if unknown:
        import dataclasses

        finding = dataclasses.replace(finding, unknown=unknown)
    return finding


def _notes(
    judgement: PythonJudgement,
    files: int,
    checked: int,
    unknown: Mapping[str, tuple[str, int]],
    unreadable: Mapping[str, str],
) -> None:
    count = len(judgement.findings)
    judgement.notes.append(
        f"read the top-level imports of {files} Python files: {checked} imports across "
        f"distributions checked against what the installed modules define, {count} finding"
        f"{'s' if count != 1 else ''} (--format json: environment.python_imports)"
    )
    if unknown:
        shown = sorted(unknown.items(), key=lambda item: -item[1][1])
        listed = ", ".join(f"{m} ({why})" for m, (why, _n) in shown[:_EXAMPLES])
        total = sum(n for _why, n in unknown.values())
        judgement.notes.append(
            f"{total} imported names not checked: {len(unknown)} modules' names cannot be known "
            f"without running them: {listed}{', ...' if len(shown) > _EXAMPLES else ''}"
        )
    for path, why in sorted(unreadable.items())[:_EXAMPLES]:
        judgement.notes.append(f"{path}: not read as Python source: {why}")
    if len(unreadable) > _EXAMPLES:
        judgement.notes.append(
            f"{len(unreadable) - _EXAMPLES} more Python files could not be read "
            "(--format json: environment.python_imports.unreadable)"
        )


def to_json(judgement: PythonJudgement) -> dict[str, Any]:
    """The judgement as the summary cache keeps it (`from_json` reads it back)."""
    return {
        "notes": judgement.notes,
        "document": judgement.document,
        "findings": [
            {
                "id": f.rule.id,
                "title": f.rule.title,
                "fix": f.rule.fix.summary,
                "origin": list(f.rule.origin) if f.rule.origin is not None else None,
                "packages": [
                    [p.name, p.version, list(p.origin) if p.origin else None] for p in f.packages
                ],
                "matched": list(f.matched),
                "status": f.status.value,
                "unknown": [list(u) for u in f.unknown],
            }
            for f in judgement.findings
        ],
    }


def from_json(stored: Any) -> PythonJudgement | None:
    """A cached judgement, or None where its shape is not `to_json`'s."""
    import dataclasses

    try:
        judgement = PythonJudgement(
            notes=[str(n) for n in stored["notes"]], document=dict(stored["document"])
        )
        for f in stored["findings"]:
            finding = verified_finding(
                id=str(f["id"]),
                title=str(f["title"]),
                fix=Fix(str(f["fix"])),
                kind=KIND,
                origin=Origin(str(f["origin"][0]), f["origin"][1]) if f["origin"] else None,
                packages=tuple(
                    MatchedPackage(
                        _name(str(name)),
                        str(version),
                        Origin(str(origin[0]), origin[1]) if origin else None,
                    )
                    for name, version, origin in f["packages"]
                ),
                matched=tuple(str(m) for m in f["matched"]),
                severity=Severity.ERROR,
                evidence=Evidence.OBSERVED,
                status=Status(f["status"]),
            )
            unknown = tuple(Unknown(str(a), str(b)) for a, b in f["unknown"])
            if unknown:
                finding = dataclasses.replace(finding, unknown=unknown)
            judgement.findings.append(finding)
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return judgement


def defines_name(
    mods: Modules, sources: Sources, module: str, name: str, memo: dict[str, Any] | None = None
) -> tuple[bool | None, str]:
    """Whether the installed `module` provides `name` (a name it defines or a submodule): True,
    False, or None with why it cannot be known without running it. `name` '' asks whether the
    module itself exists. `memo`: kept between calls on the same modules (one resolve of the
    lazy tables for many names)."""
    resolver = memo.get("resolver") if memo is not None else None
    if not isinstance(resolver, _Names):
        resolver = _Names(mods, sources, {})
        if memo is not None:
            memo["resolver"] = resolver
    full = f"{module}.{name}" if name else module
    if full in mods.modules or full in mods.namespaces:
        return True, ""
    if not name:
        if _missing_module(mods, resolver, module) is not None:
            return False, ""
        return None, "its parent package may provide it without a file"
    target = mods.modules.get(module)
    if target is None:
        if module in mods.namespaces:
            return None, "a namespace package"
        return (False, "") if _missing_module(mods, resolver, module) else (None, "not installed")
    if target.kind == "ext":
        return None, "an extension module"
    names, why = resolver.names(module)
    if name in names or name in resolver.structure(module):
        return True, ""
    if not why and not resolver.lazy_static(module):
        why = "a lazy module whose __getattr__ answers more than its tables"
    return (None, why) if why else (False, "")
