"""Pin's rule weighing (issue 45): each rule is evaluated once per class of candidate releases
(releases on the same side of every specifier the rule states about their package; torch per
build) and the verdict is shared by the class. The combinations under which a rule holds must be
exactly those a one-by-one evaluation of every combination finds: a class that merged releases
the rule tells apart (a signature that left out a specifier, a package, or torch's build) would
copy one release's verdict onto another's and fail here. Real knowledge base, real rules, real
R535 hardware profile, the real engine."""

from __future__ import annotations

import itertools

import pytest
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.engine import evaluate_rule
from compat.kb.knowledge import load_knowledge_base
from compat.model import Facts, PackageFact, Severity, Status
from compat.probes.profile import hardware_from_document
from compat.resolve.pin.maxsat import _Solver
from compat.resolve.pin.solver import Intent, _with_versions
from tests.profiles import R535

RELEASES = {
    "torch": [
        "2.1.2",
        "2.1.2+cu118",
        "2.3.1",
        "2.4.1+cu121",
        "2.5.1",
        "2.6.0",
        "2.7.1+cu128",
        "2.9.0+cu126",
        "2.9.0+cu128",
        "2.9.0+cu130",
    ],
    "transformers": ["4.38.0", "4.45.2", "4.46.0", "4.48.1", "4.50.0", "4.53.0", "5.0.0"],
    "trl": ["0.8.6", "0.12.0", "0.14.0", "0.16.0", "0.19.0"],
    "vllm": ["0.6.6.post1", "0.7.2", "0.8.3", "0.9.2", "0.10.1"],
    "numpy": ["1.26.4", "2.0.2", "2.2.6"],
    "bitsandbytes": ["0.41.1", "0.43.3", "0.45.5", "0.48.2"],
    "peft": ["0.10.0", "0.13.2", "0.15.2"],
    "accelerate": ["0.26.0", "0.34.2", "1.3.0"],
}
INSTALLED = {
    "torch": "2.1.2+cu118",
    "transformers": "4.48.1",
    "trl": "0.14.0",
    "vllm": "0.6.6.post1",
    "numpy": "2.0.2",
    "bitsandbytes": "0.41.1",
    "peft": "0.13.2",
    "accelerate": "0.34.2",
}


class Releases:
    """A candidate source over RELEASES, no requirements (the weighing is what is tested)."""

    def versions(self, name: NormalizedName) -> list[Version]:
        return sorted(Version(v) for v in RELEASES.get(name, []))

    def requires(self, name: NormalizedName, version: Version) -> tuple[str, ...] | None:
        return ()


def solver(torch: str) -> _Solver:
    facts = Facts(
        packages={
            NormalizedName(n): PackageFact(NormalizedName(n), (Version(v),))
            for n, v in INSTALLED.items()
            if n != "torch"
        },
        python_version=Version("3.11"),
        hardware=hardware_from_document(R535, "r535"),
    )
    # torch's build facts as the engine reads them for an installed torch with this label
    facts = _with_versions(facts, {NormalizedName("torch"): Version(torch)})
    return _Solver(
        load_knowledge_base(),
        facts,
        Releases(),
        {Status.AFFECTED, Status.POSSIBLE},
        {},
        None,
        Intent(),
    )


# 2.1.2+cu118: builds stay, 2.1.2 (PyPI's CUDA 12.1 build) beside it; 2.9.0+cu130 on R535: an
# affected finding about the build, so the other CUDA builds of 2.9.0 are candidates too.
@pytest.mark.parametrize("torch", ["2.1.2+cu118", "2.9.0+cu130"])
def test_each_rules_combinations_are_those_one_by_one_evaluation_finds(torch: str) -> None:
    s = solver(torch)
    variables = s.variables()
    domains = {n: s.domain(n) for n in variables}
    weighed = 0
    for _, rule, names in s.rules:
        moving = [n for n in names if n in domains]
        if not moving:
            continue
        lists = [domains[n] for n in moving]
        expected = []
        for combo in itertools.product(*lists):
            assignment = dict(zip(moving, combo, strict=True))
            finding = evaluate_rule(rule, _with_versions(s.facts, assignment))
            if finding is not None and finding.rule.severity is not Severity.INFO:
                expected.append((combo, finding.status))
        got = [(c, f.status) for c, f in s._combinations(rule, names, moving, lists)]
        assert got == expected, rule.id
        weighed += bool(expected)
    # The case is worth something only if rules hold under some combinations and not others.
    assert weighed >= 5
