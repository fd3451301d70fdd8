"""doctor's reading of the installed native files (issue 33): the inventory from the RECORDs,
each file's headers, the judgement, and what it settles of the version rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from compat.binary.extensions import NativeFile, read_native_files
from compat.facts.native import NativeInventory, native_inventory
from compat.kb.binarycheck import BinaryJudgement, judge_binaries
from compat.model import Environment, Facts, Finding


def read_native(env: Environment) -> tuple[NativeInventory, tuple[NativeFile, ...]]:
    """The environment's native files (its RECORDs) and what each one's headers say, through
    the ELF facts cache: doctor and explain read them the same way."""
    from compat.files.jsoncache import cache_file

    inventory = native_inventory(env)
    files = read_native_files(
        ((f.package, f.relpath, f.path) for f in inventory.files),
        cache=cache_file("native-elf", "\0".join(env.paths)) if inventory.files else None,
    )
    return inventory, files


def read_binaries(env: Environment, facts: Facts) -> tuple[BinaryJudgement, Facts]:
    """What the environment's native files say, and the facts with the installed torch's own
    architecture list in place of the generated table's (torch-no-kernel-image-for-gpu reads it)."""
    from compat.files.jsoncache import cache_file, read_cache, write_cache

    inventory, files = read_native(env)
    where = "\0".join(env.paths)
    torch_cuda = facts.builds.get("torch_cuda")
    symbols_path = cache_file("native-symbols", where)
    stored = read_cache(symbols_path) if files else None
    symbols = stored if isinstance(stored, dict) else {}
    judgement = judge_binaries(
        files,
        [(s.relpath, s.owners, s.on_disk, s.by) for s in inventory.shared],
        env,
        facts.hardware,
        str(torch_cuda) if torch_cuda is not None else None,
        symbols,
    )
    if judgement.symbol_answers != symbols:
        write_cache(symbols_path, judgement.symbol_answers)
    judgement.notes[:0] = list(inventory.problems)
    if judgement.torch_arch_list:
        arch_lists = {**facts.arch_lists, "torch": judgement.torch_arch_list}
        facts = dataclasses.replace(facts, arch_lists=arch_lists)
    packages = {f.package for f in files}
    judgement.notes.insert(
        0,
        f"read {len(files)} native files of {len(packages)} distributions (symbols, GPU code, "
        f"libraries, owners): {len(judgement.findings)} finding"
        f"{'s' if len(judgement.findings) != 1 else ''} (--format json: environment.native)",
    )
    return judgement, facts


def settle(
    findings: Sequence[Finding], judgement: BinaryJudgement
) -> tuple[list[Finding], list[str]]:
    """Version rules whose question the files answered (`settled_by`): where the files show the
    opposite (every torch symbol of the package resolves), the rule's finding is dropped with a
    note; where they agree, the observed finding ranks first and the rule's stays beside it."""
    kept, notes = [], []
    for finding in findings:
        ruled_out = [
            package
            for kind, package in finding.rule.settled_by
            if kind == "symbols" and judgement.resolved.get(package) is True
        ]
        if ruled_out:
            notes.append(
                f"{finding.rule.id}: ruled out by the installed files: every torch symbol "
                f"{', '.join(ruled_out)}'s native files need is exported by the installed torch"
            )
            continue
        kept.append(finding)
    return kept, notes
