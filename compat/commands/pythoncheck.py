"""doctor's reading of the installed Python sources (issue 41): the modules from the RECORDs,
their top-level imports and the definitions of what they import, through the per-file cache,
and the judgement."""

from __future__ import annotations

from compat.facts.pymodules import cache_for, python_modules
from compat.kb.pythoncheck import PythonJudgement, judge_imports
from compat.model import Environment


def read_python(env: Environment) -> PythonJudgement:
    """What the environment's Python sources say will fail at import."""
    cache = cache_for(env)
    mods = python_modules(env, cache)
    judgement = judge_imports(mods, cache, env)
    cache.save()
    judgement.document["parsed"] = cache.parsed
    judgement.document["read"] = cache.read
    return judgement
