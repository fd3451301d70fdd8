"""Rule examples: the environments written in rule files, as Facts, and the check that a rule
behaves on them (`compat matrix lint`, capabilities' examples)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from packaging.version import InvalidVersion, Version

from compat.engine import evaluate_rule
from compat.errors import KnowledgeBaseError
from compat.model import Facts, Gpu, Hardware, Origin, PackageFact, Rule, UsageFact
from compat.names import canonicalize_name
from compat.versions import parse_version


def facts_from_example(data: Mapping[str, Any], origin: Origin) -> Facts:
    """Build Facts from an example block. Absent sections are unknown, except packages (absent =
    not installed), exactly as for a real environment. A value that is no version (or a number
    where one is expected) is a KnowledgeBaseError naming the example, never a crash."""
    try:
        return _example_facts(data, origin)
    except (InvalidVersion, ValueError, TypeError) as error:
        why = str(error).splitlines()[0] if str(error) else error.__class__.__name__
        raise KnowledgeBaseError(f"example: {why}", origin=origin) from None


def _example_facts(data: Mapping[str, Any], origin: Origin) -> Facts:
    from compat.probes.cuda import builds_from_versions
    from compat.usage import coerce

    packages: dict[Any, PackageFact] = {}
    for name, spec in (data.get("packages") or {}).items():
        commit = None
        if isinstance(spec, Mapping):
            commit = spec.get("commit")
            spec = spec["version"]
        normalized = canonicalize_name(str(name))
        packages[normalized] = PackageFact(
            normalized, (_version(spec, name),), str(name), origin, str(commit) if commit else None
        )
    usage = {
        key: UsageFact(key, coerce(key, value, origin), origin)
        for key, value in (data.get("usage") or {}).items()
    }
    builds = {
        k: Version(str(v))
        for k, v in builds_from_versions({n: p.versions[0] for n, p in packages.items()}).items()
    }
    builds.update({key: _version(value, key) for key, value in (data.get("build") or {}).items()})
    python = data.get("python")
    platform = data.get("platform")
    return Facts(
        packages=packages,
        python_version=_version(python, "python") if python is not None else None,
        markers=dict(platform) if isinstance(platform, Mapping) else None,
        hardware=hardware_from_example(data["hardware"]) if "hardware" in data else None,
        builds=builds,
        usage=usage,
        arch_lists={
            str(k): tuple(str(v).split()) for k, v in (data.get("arch_lists") or {}).items()
        },
        requirements={str(k): str(v) for k, v in (data.get("requirements") or {}).items()},
    )


def _version(value: object, what: object) -> Version:
    try:
        return parse_version(str(value))
    except InvalidVersion:
        raise InvalidVersion(f"{what}: invalid version {str(value)!r}") from None


def hardware_from_example(data: Mapping[str, Any]) -> Hardware:
    """A hardware profile document, or the shorthand {gpu, compute_capability, gpu_count, driver, ...}."""
    if "gpus" in data:
        from compat.probes.profile import hardware_from_document

        hardware: Hardware = hardware_from_document(data, "example")
        return hardware
    count = int(data.get("gpu_count", 1 if "gpu" in data or "compute_capability" in data else 0))
    cc = data.get("compute_capability")
    gpus = tuple(
        Gpu(
            index=i,
            name=str(data.get("gpu", "GPU")),
            compute_capability=_version(cc, "compute_capability") if cc is not None else None,
            memory_total_mib=data.get("memory_mib"),
            mig=data.get("mig"),
        )
        for i in range(count)
    )
    driver = data.get("driver")
    cuda = data.get("cuda_driver")
    extra = {"nvml_error": data["nvml_error"]} if "nvml_error" in data else {}
    return Hardware(
        driver_version=_version(driver, "driver") if driver is not None else None,
        cuda_driver_version=_version(cuda, "cuda_driver") if cuda is not None else None,
        gpus=gpus,
        source="example",
        extra=extra,
        driver_text=str(driver) if driver is not None else None,
    )


def check_example(rule: Rule, index: int) -> str | None:
    """Run one of a rule's examples; return a problem description, or None when it behaves."""
    example = rule.examples[index]
    try:
        facts = facts_from_example(example.data, example.origin)
    except KnowledgeBaseError as error:
        return f"{example.origin}: rule {rule.id}: {error.message}"
    finding = evaluate_rule(rule, facts)
    got = "clear" if finding is None else finding.status.value
    if got == example.expect:
        return None
    return f"{example.origin}: rule {rule.id}: example expected {example.expect}, got {got}"
