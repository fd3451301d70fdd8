"""doctor's reading of the installed Python sources (issue 41): the modules from the RECORDs,
their top-level imports and the definitions of what they import, through the per-file cache,
and the judgement."""

from __future__ import annotations

from compat.facts.pymodules import Summary, cache_for, python_modules
from compat.kb.pythoncheck import PythonJudgement, from_json, judge_imports, to_json
from compat.model import Environment


def read_python(env: Environment) -> PythonJudgement:
    """What the environment's Python sources say will fail at import: the last answer where
    no RECORD it rested on changed and no file its findings name did (a warm run stats those,
    nothing more), else read through the per-distribution cache."""
    summary = Summary(env)
    stored = summary.answer()
    if stored is not None:
        judgement = from_json(stored)
        if judgement is not None:
            judgement.document["parsed"] = judgement.document["read"] = 0
            return judgement
    cache = cache_for(env, summary.dirty)
    mods = python_modules(env, cache)
    cache.prefetch_imports([path for _module, path in mods.scanned])
    judgement = judge_imports(mods, cache, env)
    cache.save()
    summary.save(cache, judgement.watched, to_json(judgement))
    judgement.document["parsed"] = cache.parsed
    judgement.document["read"] = cache.read
    return judgement
