"""Rules of the knowledge base found by package, error text or id (`compat mcp`'s matrix_search).

Each hit is the document `compat matrix show RULE --format json` prints (rule_document), so an
agent reads one shape whichever way it found the rule. In knowledge-base order, deterministic.
"""

from __future__ import annotations

import re
from typing import Any

_MAX_QUERY = 64 * 1024  # an error text, not a whole log (explain reads logs)


def search_rules(
    *, package: str | None = None, symptom: str | None = None, rule_id: str | None = None
) -> list[dict[str, Any]]:
    from compat.formats.ruleview import rule_document
    from compat.kb.knowledge import load_knowledge_base
    from compat.names import canonicalize_name
    from compat.symptoms import readable_symptom

    for name, value in (("package", package), ("symptom", symptom), ("rule_id", rule_id)):
        if value is not None and not value.strip():
            raise ValueError(f"{name} is empty")
        if value is not None and len(value) > _MAX_QUERY:
            raise ValueError(f"{name} is longer than {_MAX_QUERY} characters")
    rules = list(load_knowledge_base(()).rules())
    if rule_id is not None:
        exact = [r for r in rules if r.id == rule_id]
        rules = exact or [r for r in rules if rule_id.lower() in r.id.lower()]
    if package is not None:
        wanted = canonicalize_name(package)
        rules = [
            r
            for r in rules
            if wanted in r.when.package_names()
            or str(wanted) in r.id.split("-")
            or str(wanted) in r.id
        ]
    if symptom is not None:
        text = symptom.casefold()

        def matches(rule: Any) -> bool:
            for item in rule.symptoms:
                try:
                    if re.search(item.match, symptom):
                        return True
                except re.error:
                    pass
                if text in readable_symptom(item.match).casefold():
                    return True
            return text in rule.title.casefold()

        rules = [r for r in rules if matches(r)]
    return [rule_document(r) for r in rules]
