"""`compat fleet`: choose the path (Ray or report files), check the inputs once, build the Fleet."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compat.errors import UsageError
from compat.facts.gather import FactOptions
from compat.fleet.report import Fleet, build_fleet, expand_hostlist, nodes_from_reports

if TYPE_CHECKING:
    from compat.kb.knowledge import KnowledgeChoice


def run_fleet(
    *,
    ray: str | None,
    reports: Sequence[Path] | None,
    nodes: str | None,
    timeout: float,
    facts: FactOptions,
    knowledge: KnowledgeChoice,
    given_paths: bool = False,
) -> Fleet:
    if given_paths:
        raise UsageError("report files need --reports: compat fleet --reports DIR|FILE...")
    if (ray is None) == (reports is None):
        raise UsageError("give --ray ADDRESS or --reports DIR|FILE...: one of them")
    if reports is not None:
        if (
            facts.deepspeed_config
            or facts.accelerate_config
            or facts.settings
            or knowledge.matrices
        ):
            raise UsageError(
                "--set, --deepspeed-config, --accelerate-config and --matrix apply to --ray: "
                "with --reports, give them to doctor on each node"
            )
        hostlist = nodes if nodes is not None else os.environ.get("SLURM_JOB_NODELIST", "")
        results = nodes_from_reports(reports, expand_hostlist(hostlist))
        return build_fleet("reports " + " ".join(str(p) for p in reports), results)
    assert ray is not None
    if nodes is not None:
        raise UsageError("--nodes applies to --reports: with --ray, Ray lists the nodes")
    inputs = shipped_inputs(facts, knowledge)
    from compat.fleet.cluster import collect

    return build_fleet(f"ray {ray}", collect(ray, inputs, timeout))


def _text(path: Path) -> str:
    from compat.files.readers import read_text

    return read_text(path, "rules", what="cannot read")


def shipped_inputs(facts: FactOptions, knowledge: KnowledgeChoice) -> dict[str, Any]:
    """What the nodes need from the driver, as texts; checked here first, so that a bad config
    or rule file is one error (exit 2) and not the same error from every node."""
    from compat.facts.gather import read_usage
    from compat.kb.knowledge import load_knowledge_base

    read_usage(facts)
    load_knowledge_base(knowledge)
    configs = {}
    if facts.deepspeed_config is not None:
        configs["deepspeed_config"] = (facts.deepspeed_config.name, _text(facts.deepspeed_config))
    if facts.accelerate_config is not None:
        configs["accelerate_config"] = (
            facts.accelerate_config.name,
            _text(facts.accelerate_config),
        )
    matrices = []
    for item in knowledge.matrices:
        files = sorted([*item.glob("*.yaml"), *item.glob("*.yml")]) if item.is_dir() else [item]
        matrices += [(path.name, _text(path)) for path in files]
    return {"configs": configs, "matrices": matrices, "settings": list(facts.settings)}
