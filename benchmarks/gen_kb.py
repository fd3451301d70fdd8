"""Generate a large, valid knowledge base for the doctor benchmark.

`python benchmarks/gen_kb.py OUT_DIR --rules 2000 --names a,b,c` writes OUT_DIR/generated-NN.yaml
files (100 rules each). Rules speak of the given package names (the benchmark passes a mix of
installed and absent names), with version ranges, usage and hardware conditions, symptoms, fixes
and examples shaped like the shipped rules, so that validation, caching and evaluation are all
exercised at scale.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

RULES_PER_FILE = 100


def rule_yaml(index: int, names: list[str], rng: random.Random) -> str:
    first = rng.choice(names)
    second = rng.choice(names)
    major, minor = rng.randint(0, 5), rng.randint(0, 30)
    spec = f">={major}.{minor}.0,<{major}.{minor + 2}.0"
    packages = f'        {first}: "{spec}"\n'
    if second != first and rng.random() < 0.5:
        packages += f'        {second}: ">=0.1"\n'
    usage = rng.choice(
        [
            "",
            "      usage: {zero_stage: 3, offload_optimizer: [cpu, nvme]}\n",
            "      usage: {trainer: grpo, use_vllm: true}\n",
        ]
    )
    hardware = rng.choice(["", '      hardware: {gpu_count: ">=2", compute_capability: "<8.0"}\n'])
    bad = f"{major}.{minor}.1"
    good = f"{major}.{minor + 2}.0"
    second_pkg = f', {second}: "1.0"' if second != first and ">=0.1" in packages else ""
    possible = ""
    if usage or hardware:  # only rules with facts beyond packages can be `possible`
        possible = f'      possible:\n        - packages: {{{first}: "{bad}"{second_pkg}}}\n'
    return f"""  - id: generated-rule-{index:05d}
    title: Generated rule {index} over {first}
    severity: {rng.choice(["error", "warning", "info"])}
    evidence: {rng.choice(["verified", "reported"])}
    description: A generated rule for the benchmark; it states nothing true.
    when:
      packages:
{packages}{usage}{hardware}    symptoms:
      - match: 'GeneratedError{index}: something \\d+ went wrong'
    fix:
      summary: move {first} out of {spec}
      constraints: ["{first}<{major}.{minor}.0 ; python_version >= '3'", "{first}>={major}.{minor + 2}.0"]
    references: ["https://example.org/generated/{index}"]
    examples:
{possible}      affected:
        - packages: {{{first}: "{bad}"{second_pkg}}}
{_example_facts(usage, hardware)}      clear:
        - packages: {{{first}: "{good}"{second_pkg}}}
"""


def _example_facts(usage: str, hardware: str) -> str:
    lines = ""
    if "zero_stage" in usage:
        lines += "          usage: {zero_stage: 3, offload_optimizer: cpu}\n"
    elif "grpo" in usage:
        lines += "          usage: {trainer: grpo, use_vllm: true}\n"
    if hardware:
        lines += '          hardware: {gpu: "Tesla V100-SXM2-32GB", gpu_count: 2, compute_capability: "7.0"}\n'
    return lines


def generate(out: Path, rules: int, names: list[str], seed: int = 0) -> list[Path]:
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for start in range(0, rules, RULES_PER_FILE):
        body = "".join(
            rule_yaml(i, names, rng) for i in range(start, min(start + RULES_PER_FILE, rules))
        )
        path = out / f"generated-{start // RULES_PER_FILE:02d}.yaml"
        path.write_text(f"schema: compat.matrix/1\nrules:\n{body}", encoding="utf-8")
        files.append(path)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rules", type=int, default=2000)
    parser.add_argument("--names", required=True, help="comma-separated package names")
    args = parser.parse_args()
    files = generate(args.out, args.rules, args.names.split(","))
    print(f"wrote {args.rules} rules in {len(files)} files to {args.out}")


if __name__ == "__main__":
    main()
