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
    import gc

    # a first run builds millions of objects that live to its end (every file's imports, the
    # modules' table, ast trees) and none that make cycles worth collecting: the collector's
    # passes over the ever larger heap cost ~2 s of a 300-distribution environment's ~7 s
    collecting = gc.isenabled()
    gc.disable()
    try:
        cache = cache_for(env, summary.dirty)
        mods = python_modules(env, cache)
        cache.prefetch_imports([path for _module, path in mods.scanned])
        judgement = judge_imports(mods, cache, env)
        cache.save()
        summary.save(cache, judgement.watched, to_json(judgement))
    finally:
        if collecting:
            gc.enable()
    judgement.document["parsed"] = cache.parsed
    judgement.document["read"] = cache.read
    return judgement
